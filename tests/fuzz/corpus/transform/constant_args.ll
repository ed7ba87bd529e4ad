; ModuleID = 'tests/transform/corpus/constant_args.cl'
source_filename = "tests/transform/corpus/constant_args.cl"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: convergent noinline norecurse nounwind
define dso_local spir_kernel void @filter(ptr addrspace(1) noundef align 4 %0, ptr addrspace(2) noundef align 4 %1, ptr addrspace(1) noundef align 4 %2) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %4 = alloca ptr addrspace(1), align 8
  %5 = alloca ptr addrspace(2), align 8
  %6 = alloca ptr addrspace(1), align 8
  %7 = alloca i64, align 8
  %8 = alloca float, align 4
  %9 = alloca i32, align 4
  store ptr addrspace(1) %0, ptr %4, align 8
  store ptr addrspace(2) %1, ptr %5, align 8
  store ptr addrspace(1) %2, ptr %6, align 8
  %10 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #3
  store i64 %10, ptr %7, align 8
  store float 0.000000e+00, ptr %8, align 4
  store i32 0, ptr %9, align 4
  br label %11

11:                                               ; preds = %29, %3
  %12 = load i32, ptr %9, align 4
  %13 = icmp slt i32 %12, 5
  br i1 %13, label %14, label %32

14:                                               ; preds = %11
  %15 = load ptr addrspace(2), ptr %5, align 8
  %16 = load i32, ptr %9, align 4
  %17 = sext i32 %16 to i64
  %18 = getelementptr inbounds float, ptr addrspace(2) %15, i64 %17
  %19 = load float, ptr addrspace(2) %18, align 4
  %20 = load ptr addrspace(1), ptr %4, align 8
  %21 = load i64, ptr %7, align 8
  %22 = load i32, ptr %9, align 4
  %23 = sext i32 %22 to i64
  %24 = add i64 %21, %23
  %25 = getelementptr inbounds float, ptr addrspace(1) %20, i64 %24
  %26 = load float, ptr addrspace(1) %25, align 4
  %27 = load float, ptr %8, align 4
  %28 = call float @llvm.fmuladd.f32(float %19, float %26, float %27)
  store float %28, ptr %8, align 4
  br label %29

29:                                               ; preds = %14
  %30 = load i32, ptr %9, align 4
  %31 = add nsw i32 %30, 1
  store i32 %31, ptr %9, align 4
  br label %11

32:                                               ; preds = %11
  %33 = load float, ptr %8, align 4
  %34 = load ptr addrspace(1), ptr %6, align 8
  %35 = load i64, ptr %7, align 8
  %36 = getelementptr inbounds float, ptr addrspace(1) %34, i64 %35
  store float %33, ptr addrspace(1) %36, align 4
  ret void
}

; Function Attrs: convergent nounwind readnone willreturn
declare dso_local spir_func i64 @_Z13get_global_idj(i32 noundef) #1

; Function Attrs: nocallback nofree nosync nounwind readnone speculatable willreturn
declare float @llvm.fmuladd.f32(float, float, float) #2

attributes #0 = { convergent noinline norecurse nounwind "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="true" }
attributes #1 = { convergent nounwind readnone willreturn "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #2 = { nocallback nofree nosync nounwind readnone speculatable willreturn }
attributes #3 = { convergent nounwind readnone willreturn }

!llvm.module.flags = !{!0, !1}
!opencl.ocl.version = !{!2}
!opencl.spir.version = !{!2}
!llvm.ident = !{!3}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 7, !"frame-pointer", i32 2}
!2 = !{i32 1, i32 2}
!3 = !{!"Debian clang version 15.0.6"}
!4 = !{i32 1, i32 2, i32 1}
!5 = !{!"none", !"none", !"none"}
!6 = !{!"float*", !"float*", !"float*"}
!7 = !{!"const", !"const", !""}
!8 = !{!"in", !"coef", !"out"}
