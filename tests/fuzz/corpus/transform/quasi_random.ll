; ModuleID = 'tests/transform/corpus/quasi_random.cl'
source_filename = "tests/transform/corpus/quasi_random.cl"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: convergent noinline norecurse nounwind
define dso_local spir_kernel void @quasi_random(ptr addrspace(2) noundef align 4 %0, ptr addrspace(1) noundef align 4 %1, i32 noundef %2) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %4 = alloca ptr addrspace(2), align 8
  %5 = alloca ptr addrspace(1), align 8
  %6 = alloca i32, align 4
  %7 = alloca i32, align 4
  %8 = alloca i32, align 4
  %9 = alloca i32, align 4
  %10 = alloca i32, align 4
  store ptr addrspace(2) %0, ptr %4, align 8
  store ptr addrspace(1) %1, ptr %5, align 8
  store i32 %2, ptr %6, align 4
  %11 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #2
  %12 = trunc i64 %11 to i32
  store i32 %12, ptr %7, align 4
  %13 = call spir_func i64 @_Z13get_global_idj(i32 noundef 1) #2
  %14 = trunc i64 %13 to i32
  store i32 %14, ptr %8, align 4
  store i32 0, ptr %9, align 4
  store i32 0, ptr %10, align 4
  br label %15

15:                                               ; preds = %39, %3
  %16 = load i32, ptr %10, align 4
  %17 = icmp slt i32 %16, 31
  br i1 %17, label %18, label %42

18:                                               ; preds = %15
  %19 = load i32, ptr %7, align 4
  %20 = load i32, ptr %10, align 4
  %21 = and i32 %20, 31
  %22 = lshr i32 %19, %21
  %23 = and i32 %22, 1
  %24 = icmp ne i32 %23, 0
  br i1 %24, label %25, label %38

25:                                               ; preds = %18
  %26 = load ptr addrspace(2), ptr %4, align 8
  %27 = load i32, ptr %8, align 4
  %28 = mul i32 %27, 32
  %29 = load i32, ptr %10, align 4
  %30 = add i32 %28, %29
  %31 = urem i32 %30, 64
  %32 = zext i32 %31 to i64
  %33 = getelementptr inbounds i32, ptr addrspace(2) %26, i64 %32
  %34 = load i32, ptr addrspace(2) %33, align 4
  %35 = shl i32 %34, 1
  %36 = load i32, ptr %9, align 4
  %37 = xor i32 %36, %35
  store i32 %37, ptr %9, align 4
  br label %38

38:                                               ; preds = %25, %18
  br label %39

39:                                               ; preds = %38
  %40 = load i32, ptr %10, align 4
  %41 = add nsw i32 %40, 1
  store i32 %41, ptr %10, align 4
  br label %15

42:                                               ; preds = %15
  %43 = load i32, ptr %9, align 4
  %44 = uitofp i32 %43 to float
  %45 = fmul float %44, 0x3DF0000000000000
  %46 = load ptr addrspace(1), ptr %5, align 8
  %47 = load i32, ptr %8, align 4
  %48 = load i32, ptr %6, align 4
  %49 = mul i32 %47, %48
  %50 = load i32, ptr %7, align 4
  %51 = add i32 %49, %50
  %52 = zext i32 %51 to i64
  %53 = getelementptr inbounds float, ptr addrspace(1) %46, i64 %52
  store float %45, ptr addrspace(1) %53, align 4
  ret void
}

; Function Attrs: convergent nounwind readnone willreturn
declare dso_local spir_func i64 @_Z13get_global_idj(i32 noundef) #1

attributes #0 = { convergent noinline norecurse nounwind "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="true" }
attributes #1 = { convergent nounwind readnone willreturn "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #2 = { convergent nounwind readnone willreturn }

!llvm.module.flags = !{!0, !1}
!opencl.ocl.version = !{!2}
!opencl.spir.version = !{!2}
!llvm.ident = !{!3}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 7, !"frame-pointer", i32 2}
!2 = !{i32 1, i32 2}
!3 = !{!"Debian clang version 15.0.6"}
!4 = !{i32 2, i32 1, i32 0}
!5 = !{!"none", !"none", !"none"}
!6 = !{!"uint*", !"float*", !"int"}
!7 = !{!"const", !"", !""}
!8 = !{!"dirs", !"out", !"n"}
