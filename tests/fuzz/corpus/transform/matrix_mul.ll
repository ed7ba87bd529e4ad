; ModuleID = 'tests/transform/corpus/matrix_mul.cl'
source_filename = "tests/transform/corpus/matrix_mul.cl"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

@matrix_mul.As = internal addrspace(3) global [8 x [8 x float]] undef, align 4
@matrix_mul.Bs = internal addrspace(3) global [8 x [8 x float]] undef, align 4

; Function Attrs: convergent noinline norecurse nounwind
define dso_local spir_kernel void @matrix_mul(ptr addrspace(1) noundef align 4 %0, ptr addrspace(1) noundef align 4 %1, ptr addrspace(1) noundef align 4 %2, i32 noundef %3) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %5 = alloca ptr addrspace(1), align 8
  %6 = alloca ptr addrspace(1), align 8
  %7 = alloca ptr addrspace(1), align 8
  %8 = alloca i32, align 4
  %9 = alloca i32, align 4
  %10 = alloca i32, align 4
  %11 = alloca i32, align 4
  %12 = alloca i32, align 4
  %13 = alloca float, align 4
  %14 = alloca i32, align 4
  %15 = alloca i32, align 4
  store ptr addrspace(1) %0, ptr %5, align 8
  store ptr addrspace(1) %1, ptr %6, align 8
  store ptr addrspace(1) %2, ptr %7, align 8
  store i32 %3, ptr %8, align 4
  %16 = call spir_func i64 @_Z13get_global_idj(i32 noundef 1) #4
  %17 = trunc i64 %16 to i32
  store i32 %17, ptr %9, align 4
  %18 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #4
  %19 = trunc i64 %18 to i32
  store i32 %19, ptr %10, align 4
  %20 = call spir_func i64 @_Z12get_local_idj(i32 noundef 1) #4
  %21 = trunc i64 %20 to i32
  store i32 %21, ptr %11, align 4
  %22 = call spir_func i64 @_Z12get_local_idj(i32 noundef 0) #4
  %23 = trunc i64 %22 to i32
  store i32 %23, ptr %12, align 4
  store float 0.000000e+00, ptr %13, align 4
  store i32 0, ptr %14, align 4
  br label %24

24:                                               ; preds = %90, %4
  %25 = load i32, ptr %14, align 4
  %26 = load i32, ptr %8, align 4
  %27 = sdiv i32 %26, 8
  %28 = icmp slt i32 %25, %27
  br i1 %28, label %29, label %93

29:                                               ; preds = %24
  %30 = load ptr addrspace(1), ptr %5, align 8
  %31 = load i32, ptr %9, align 4
  %32 = load i32, ptr %8, align 4
  %33 = mul nsw i32 %31, %32
  %34 = load i32, ptr %14, align 4
  %35 = mul nsw i32 %34, 8
  %36 = add nsw i32 %33, %35
  %37 = load i32, ptr %12, align 4
  %38 = add nsw i32 %36, %37
  %39 = sext i32 %38 to i64
  %40 = getelementptr inbounds float, ptr addrspace(1) %30, i64 %39
  %41 = load float, ptr addrspace(1) %40, align 4
  %42 = load i32, ptr %11, align 4
  %43 = sext i32 %42 to i64
  %44 = getelementptr inbounds [8 x [8 x float]], ptr addrspace(3) @matrix_mul.As, i64 0, i64 %43
  %45 = load i32, ptr %12, align 4
  %46 = sext i32 %45 to i64
  %47 = getelementptr inbounds [8 x float], ptr addrspace(3) %44, i64 0, i64 %46
  store float %41, ptr addrspace(3) %47, align 4
  %48 = load ptr addrspace(1), ptr %6, align 8
  %49 = load i32, ptr %14, align 4
  %50 = mul nsw i32 %49, 8
  %51 = load i32, ptr %11, align 4
  %52 = add nsw i32 %50, %51
  %53 = load i32, ptr %8, align 4
  %54 = mul nsw i32 %52, %53
  %55 = load i32, ptr %10, align 4
  %56 = add nsw i32 %54, %55
  %57 = sext i32 %56 to i64
  %58 = getelementptr inbounds float, ptr addrspace(1) %48, i64 %57
  %59 = load float, ptr addrspace(1) %58, align 4
  %60 = load i32, ptr %11, align 4
  %61 = sext i32 %60 to i64
  %62 = getelementptr inbounds [8 x [8 x float]], ptr addrspace(3) @matrix_mul.Bs, i64 0, i64 %61
  %63 = load i32, ptr %12, align 4
  %64 = sext i32 %63 to i64
  %65 = getelementptr inbounds [8 x float], ptr addrspace(3) %62, i64 0, i64 %64
  store float %59, ptr addrspace(3) %65, align 4
  call spir_func void @_Z7barrierj(i32 noundef 1) #5
  store i32 0, ptr %15, align 4
  br label %66

66:                                               ; preds = %86, %29
  %67 = load i32, ptr %15, align 4
  %68 = icmp slt i32 %67, 8
  br i1 %68, label %69, label %89

69:                                               ; preds = %66
  %70 = load i32, ptr %11, align 4
  %71 = sext i32 %70 to i64
  %72 = getelementptr inbounds [8 x [8 x float]], ptr addrspace(3) @matrix_mul.As, i64 0, i64 %71
  %73 = load i32, ptr %15, align 4
  %74 = sext i32 %73 to i64
  %75 = getelementptr inbounds [8 x float], ptr addrspace(3) %72, i64 0, i64 %74
  %76 = load float, ptr addrspace(3) %75, align 4
  %77 = load i32, ptr %15, align 4
  %78 = sext i32 %77 to i64
  %79 = getelementptr inbounds [8 x [8 x float]], ptr addrspace(3) @matrix_mul.Bs, i64 0, i64 %78
  %80 = load i32, ptr %12, align 4
  %81 = sext i32 %80 to i64
  %82 = getelementptr inbounds [8 x float], ptr addrspace(3) %79, i64 0, i64 %81
  %83 = load float, ptr addrspace(3) %82, align 4
  %84 = load float, ptr %13, align 4
  %85 = call float @llvm.fmuladd.f32(float %76, float %83, float %84)
  store float %85, ptr %13, align 4
  br label %86

86:                                               ; preds = %69
  %87 = load i32, ptr %15, align 4
  %88 = add nsw i32 %87, 1
  store i32 %88, ptr %15, align 4
  br label %66

89:                                               ; preds = %66
  call spir_func void @_Z7barrierj(i32 noundef 1) #5
  br label %90

90:                                               ; preds = %89
  %91 = load i32, ptr %14, align 4
  %92 = add nsw i32 %91, 1
  store i32 %92, ptr %14, align 4
  br label %24

93:                                               ; preds = %24
  %94 = load float, ptr %13, align 4
  %95 = load ptr addrspace(1), ptr %7, align 8
  %96 = load i32, ptr %9, align 4
  %97 = load i32, ptr %8, align 4
  %98 = mul nsw i32 %96, %97
  %99 = load i32, ptr %10, align 4
  %100 = add nsw i32 %98, %99
  %101 = sext i32 %100 to i64
  %102 = getelementptr inbounds float, ptr addrspace(1) %95, i64 %101
  store float %94, ptr addrspace(1) %102, align 4
  ret void
}

; Function Attrs: convergent nounwind readnone willreturn
declare dso_local spir_func i64 @_Z13get_global_idj(i32 noundef) #1

; Function Attrs: convergent nounwind readnone willreturn
declare dso_local spir_func i64 @_Z12get_local_idj(i32 noundef) #1

; Function Attrs: convergent
declare dso_local spir_func void @_Z7barrierj(i32 noundef) #2

; Function Attrs: nocallback nofree nosync nounwind readnone speculatable willreturn
declare float @llvm.fmuladd.f32(float, float, float) #3

attributes #0 = { convergent noinline norecurse nounwind "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="true" }
attributes #1 = { convergent nounwind readnone willreturn "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #2 = { convergent "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #3 = { nocallback nofree nosync nounwind readnone speculatable willreturn }
attributes #4 = { convergent nounwind readnone willreturn }
attributes #5 = { convergent }

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
!7 = !{!"const", !"const", !"", !""}
!8 = !{!"A", !"B", !"C", !"n"}
