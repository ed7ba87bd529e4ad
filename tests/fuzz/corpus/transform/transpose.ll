; ModuleID = 'tests/transform/corpus/transpose.cl'
source_filename = "tests/transform/corpus/transpose.cl"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

@transpose.tile = internal addrspace(3) global [8 x [9 x float]] undef, align 4

; Function Attrs: convergent noinline norecurse nounwind
define dso_local spir_kernel void @transpose(ptr addrspace(1) noundef align 4 %0, ptr addrspace(1) noundef align 4 %1, i32 noundef %2, i32 noundef %3) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %5 = alloca ptr addrspace(1), align 8
  %6 = alloca ptr addrspace(1), align 8
  %7 = alloca i32, align 4
  %8 = alloca i32, align 4
  %9 = alloca i32, align 4
  %10 = alloca i32, align 4
  %11 = alloca i32, align 4
  %12 = alloca i32, align 4
  store ptr addrspace(1) %0, ptr %5, align 8
  store ptr addrspace(1) %1, ptr %6, align 8
  store i32 %2, ptr %7, align 4
  store i32 %3, ptr %8, align 4
  %13 = call spir_func i64 @_Z12get_group_idj(i32 noundef 0) #3
  %14 = trunc i64 %13 to i32
  store i32 %14, ptr %9, align 4
  %15 = call spir_func i64 @_Z12get_group_idj(i32 noundef 1) #3
  %16 = trunc i64 %15 to i32
  store i32 %16, ptr %10, align 4
  %17 = call spir_func i64 @_Z12get_local_idj(i32 noundef 0) #3
  %18 = trunc i64 %17 to i32
  store i32 %18, ptr %11, align 4
  %19 = call spir_func i64 @_Z12get_local_idj(i32 noundef 1) #3
  %20 = trunc i64 %19 to i32
  store i32 %20, ptr %12, align 4
  %21 = load ptr addrspace(1), ptr %6, align 8
  %22 = load i32, ptr %10, align 4
  %23 = mul nsw i32 %22, 8
  %24 = load i32, ptr %12, align 4
  %25 = add nsw i32 %23, %24
  %26 = load i32, ptr %7, align 4
  %27 = mul nsw i32 %25, %26
  %28 = load i32, ptr %9, align 4
  %29 = mul nsw i32 %28, 8
  %30 = add nsw i32 %27, %29
  %31 = load i32, ptr %11, align 4
  %32 = add nsw i32 %30, %31
  %33 = sext i32 %32 to i64
  %34 = getelementptr inbounds float, ptr addrspace(1) %21, i64 %33
  %35 = load float, ptr addrspace(1) %34, align 4
  %36 = load i32, ptr %12, align 4
  %37 = sext i32 %36 to i64
  %38 = getelementptr inbounds [8 x [9 x float]], ptr addrspace(3) @transpose.tile, i64 0, i64 %37
  %39 = load i32, ptr %11, align 4
  %40 = sext i32 %39 to i64
  %41 = getelementptr inbounds [9 x float], ptr addrspace(3) %38, i64 0, i64 %40
  store float %35, ptr addrspace(3) %41, align 4
  call spir_func void @_Z7barrierj(i32 noundef 1) #4
  %42 = load i32, ptr %11, align 4
  %43 = sext i32 %42 to i64
  %44 = getelementptr inbounds [8 x [9 x float]], ptr addrspace(3) @transpose.tile, i64 0, i64 %43
  %45 = load i32, ptr %12, align 4
  %46 = sext i32 %45 to i64
  %47 = getelementptr inbounds [9 x float], ptr addrspace(3) %44, i64 0, i64 %46
  %48 = load float, ptr addrspace(3) %47, align 4
  %49 = load ptr addrspace(1), ptr %5, align 8
  %50 = load i32, ptr %9, align 4
  %51 = mul nsw i32 %50, 8
  %52 = load i32, ptr %12, align 4
  %53 = add nsw i32 %51, %52
  %54 = load i32, ptr %8, align 4
  %55 = mul nsw i32 %53, %54
  %56 = load i32, ptr %10, align 4
  %57 = mul nsw i32 %56, 8
  %58 = add nsw i32 %55, %57
  %59 = load i32, ptr %11, align 4
  %60 = add nsw i32 %58, %59
  %61 = sext i32 %60 to i64
  %62 = getelementptr inbounds float, ptr addrspace(1) %49, i64 %61
  store float %48, ptr addrspace(1) %62, align 4
  ret void
}

; Function Attrs: convergent nounwind readnone willreturn
declare dso_local spir_func i64 @_Z12get_group_idj(i32 noundef) #1

; Function Attrs: convergent nounwind readnone willreturn
declare dso_local spir_func i64 @_Z12get_local_idj(i32 noundef) #1

; Function Attrs: convergent
declare dso_local spir_func void @_Z7barrierj(i32 noundef) #2

attributes #0 = { convergent noinline norecurse nounwind "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="true" }
attributes #1 = { convergent nounwind readnone willreturn "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #2 = { convergent "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #3 = { convergent nounwind readnone willreturn }
attributes #4 = { convergent }

!llvm.module.flags = !{!0, !1}
!opencl.ocl.version = !{!2}
!opencl.spir.version = !{!2}
!llvm.ident = !{!3}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 7, !"frame-pointer", i32 2}
!2 = !{i32 1, i32 2}
!3 = !{!"Debian clang version 15.0.6"}
!4 = !{i32 1, i32 1, i32 0, i32 0}
!5 = !{!"none", !"none", !"none", !"none"}
!6 = !{!"float*", !"float*", !"int", !"int"}
!7 = !{!"", !"const", !"", !""}
!8 = !{!"out", !"in", !"width", !"height"}
