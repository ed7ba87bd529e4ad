; ModuleID = 'tests/transform/corpus/mvt.cl'
source_filename = "tests/transform/corpus/mvt.cl"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: convergent noinline norecurse nounwind
define dso_local spir_kernel void @mvt_kernel2(ptr addrspace(1) noundef align 4 %0, ptr addrspace(1) noundef align 4 %1, ptr addrspace(1) noundef align 4 %2, i32 noundef %3) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %5 = alloca ptr addrspace(1), align 8
  %6 = alloca ptr addrspace(1), align 8
  %7 = alloca ptr addrspace(1), align 8
  %8 = alloca i32, align 4
  %9 = alloca i32, align 4
  %10 = alloca i32, align 4
  store ptr addrspace(1) %0, ptr %5, align 8
  store ptr addrspace(1) %1, ptr %6, align 8
  store ptr addrspace(1) %2, ptr %7, align 8
  store i32 %3, ptr %8, align 4
  %11 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #3
  %12 = trunc i64 %11 to i32
  store i32 %12, ptr %9, align 4
  %13 = load i32, ptr %9, align 4
  %14 = load i32, ptr %8, align 4
  %15 = icmp slt i32 %13, %14
  br i1 %15, label %16, label %46

16:                                               ; preds = %4
  store i32 0, ptr %10, align 4
  br label %17

17:                                               ; preds = %42, %16
  %18 = load i32, ptr %10, align 4
  %19 = load i32, ptr %8, align 4
  %20 = icmp slt i32 %18, %19
  br i1 %20, label %21, label %45

21:                                               ; preds = %17
  %22 = load ptr addrspace(1), ptr %5, align 8
  %23 = load i32, ptr %10, align 4
  %24 = load i32, ptr %8, align 4
  %25 = mul nsw i32 %23, %24
  %26 = load i32, ptr %9, align 4
  %27 = add nsw i32 %25, %26
  %28 = sext i32 %27 to i64
  %29 = getelementptr inbounds float, ptr addrspace(1) %22, i64 %28
  %30 = load float, ptr addrspace(1) %29, align 4
  %31 = load ptr addrspace(1), ptr %7, align 8
  %32 = load i32, ptr %10, align 4
  %33 = sext i32 %32 to i64
  %34 = getelementptr inbounds float, ptr addrspace(1) %31, i64 %33
  %35 = load float, ptr addrspace(1) %34, align 4
  %36 = load ptr addrspace(1), ptr %6, align 8
  %37 = load i32, ptr %9, align 4
  %38 = sext i32 %37 to i64
  %39 = getelementptr inbounds float, ptr addrspace(1) %36, i64 %38
  %40 = load float, ptr addrspace(1) %39, align 4
  %41 = call float @llvm.fmuladd.f32(float %30, float %35, float %40)
  store float %41, ptr addrspace(1) %39, align 4
  br label %42

42:                                               ; preds = %21
  %43 = load i32, ptr %10, align 4
  %44 = add nsw i32 %43, 1
  store i32 %44, ptr %10, align 4
  br label %17

45:                                               ; preds = %17
  br label %46

46:                                               ; preds = %45, %4
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
!4 = !{i32 1, i32 1, i32 1, i32 0}
!5 = !{!"none", !"none", !"none", !"none"}
!6 = !{!"float*", !"float*", !"float*", !"int"}
!7 = !{!"const", !"", !"const", !""}
!8 = !{!"a", !"x2", !"y2", !"n"}
