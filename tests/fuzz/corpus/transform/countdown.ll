; ModuleID = 'tests/transform/corpus/countdown.cl'
source_filename = "tests/transform/corpus/countdown.cl"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: convergent noinline norecurse nounwind
define dso_local spir_kernel void @countdown(ptr addrspace(1) noundef align 4 %0, i32 noundef %1) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %3 = alloca ptr addrspace(1), align 8
  %4 = alloca i32, align 4
  %5 = alloca i64, align 8
  %6 = alloca i32, align 4
  %7 = alloca i32, align 4
  store ptr addrspace(1) %0, ptr %3, align 8
  store i32 %1, ptr %4, align 4
  %8 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #2
  store i64 %8, ptr %5, align 8
  %9 = load i32, ptr %4, align 4
  %10 = sub nsw i32 %9, 1
  store i32 %10, ptr %6, align 4
  br label %11

11:                                               ; preds = %23, %2
  %12 = load i32, ptr %6, align 4
  %13 = icmp sge i32 %12, 0
  br i1 %13, label %14, label %26

14:                                               ; preds = %11
  %15 = load i32, ptr %6, align 4
  %16 = load ptr addrspace(1), ptr %3, align 8
  %17 = load i64, ptr %5, align 8
  %18 = mul i64 %17, 8
  %19 = load i32, ptr %6, align 4
  %20 = sext i32 %19 to i64
  %21 = add i64 %18, %20
  %22 = getelementptr inbounds i32, ptr addrspace(1) %16, i64 %21
  store i32 %15, ptr addrspace(1) %22, align 4
  br label %23

23:                                               ; preds = %14
  %24 = load i32, ptr %6, align 4
  %25 = add nsw i32 %24, -1
  store i32 %25, ptr %6, align 4
  br label %11

26:                                               ; preds = %11
  store i32 0, ptr %7, align 4
  br label %27

27:                                               ; preds = %39, %26
  %28 = load ptr addrspace(1), ptr %3, align 8
  %29 = load i64, ptr %5, align 8
  %30 = mul i64 %29, 8
  %31 = load i32, ptr %7, align 4
  %32 = sext i32 %31 to i64
  %33 = add i64 %30, %32
  %34 = getelementptr inbounds i32, ptr addrspace(1) %28, i64 %33
  %35 = load i32, ptr addrspace(1) %34, align 4
  %36 = add nsw i32 %35, 1
  store i32 %36, ptr addrspace(1) %34, align 4
  %37 = load i32, ptr %7, align 4
  %38 = add nsw i32 %37, 2
  store i32 %38, ptr %7, align 4
  br label %39

39:                                               ; preds = %27
  %40 = load i32, ptr %7, align 4
  %41 = load i32, ptr %4, align 4
  %42 = icmp slt i32 %40, %41
  br i1 %42, label %27, label %43

43:                                               ; preds = %39
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
!4 = !{i32 1, i32 0}
!5 = !{!"none", !"none"}
!6 = !{!"int*", !"int"}
!7 = !{!"", !""}
!8 = !{!"out", !"m"}
