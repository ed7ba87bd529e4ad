; ModuleID = 'tests/transform/corpus/binomial_option.cl'
source_filename = "tests/transform/corpus/binomial_option.cl"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: convergent noinline norecurse nounwind
define dso_local spir_kernel void @binomial_option(ptr addrspace(1) noundef align 4 %0, ptr addrspace(1) noundef align 4 %1, ptr addrspace(3) noundef align 4 %2) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %4 = alloca ptr addrspace(1), align 8
  %5 = alloca ptr addrspace(1), align 8
  %6 = alloca ptr addrspace(3), align 8
  %7 = alloca i64, align 8
  %8 = alloca i64, align 8
  %9 = alloca float, align 4
  %10 = alloca float, align 4
  %11 = alloca float, align 4
  %12 = alloca float, align 4
  %13 = alloca float, align 4
  %14 = alloca i32, align 4
  %15 = alloca float, align 4
  store ptr addrspace(1) %0, ptr %4, align 8
  store ptr addrspace(1) %1, ptr %5, align 8
  store ptr addrspace(3) %2, ptr %6, align 8
  %16 = call spir_func i64 @_Z12get_group_idj(i32 noundef 0) #4
  store i64 %16, ptr %7, align 8
  %17 = call spir_func i64 @_Z12get_local_idj(i32 noundef 0) #4
  store i64 %17, ptr %8, align 8
  %18 = load ptr addrspace(1), ptr %4, align 8
  %19 = load i64, ptr %7, align 8
  %20 = getelementptr inbounds float, ptr addrspace(1) %18, i64 %19
  %21 = load float, ptr addrspace(1) %20, align 4
  %22 = call float @llvm.fmuladd.f32(float %21, float 2.000000e+01, float 1.000000e+01)
  store float %22, ptr %9, align 4
  store float 0x3FF028F5C0000000, ptr %10, align 4
  %23 = load float, ptr %10, align 4
  %24 = fdiv float 1.000000e+00, %23, !fpmath !9
  store float %24, ptr %11, align 4
  store float 0x3FE0A3D700000000, ptr %12, align 4
  %25 = load float, ptr %12, align 4
  %26 = fsub float 1.000000e+00, %25
  store float %26, ptr %13, align 4
  %27 = load i64, ptr %8, align 8
  %28 = icmp ule i64 %27, 31
  br i1 %28, label %29, label %46

29:                                               ; preds = %3
  %30 = load float, ptr %9, align 4
  %31 = load float, ptr %10, align 4
  %32 = load i64, ptr %8, align 8
  %33 = trunc i64 %32 to i32
  %34 = call spir_func float @_Z4pownfi(float noundef %31, i32 noundef %33) #4
  %35 = fmul float %30, %34
  %36 = load float, ptr %11, align 4
  %37 = load i64, ptr %8, align 8
  %38 = trunc i64 %37 to i32
  %39 = sub nsw i32 31, %38
  %40 = call spir_func float @_Z4pownfi(float noundef %36, i32 noundef %39) #4
  %41 = call float @llvm.fmuladd.f32(float %35, float %40, float -1.500000e+01)
  %42 = call spir_func float @_Z4fmaxff(float noundef %41, float noundef 0.000000e+00) #4
  %43 = load ptr addrspace(3), ptr %6, align 8
  %44 = load i64, ptr %8, align 8
  %45 = getelementptr inbounds float, ptr addrspace(3) %43, i64 %44
  store float %42, ptr addrspace(3) %45, align 4
  br label %46

46:                                               ; preds = %29, %3
  call spir_func void @_Z7barrierj(i32 noundef 1) #5
  store i32 31, ptr %14, align 4
  br label %47

47:                                               ; preds = %80, %46
  %48 = load i32, ptr %14, align 4
  %49 = icmp sgt i32 %48, 0
  br i1 %49, label %50, label %83

50:                                               ; preds = %47
  store float 0.000000e+00, ptr %15, align 4
  %51 = load i64, ptr %8, align 8
  %52 = load i32, ptr %14, align 4
  %53 = sext i32 %52 to i64
  %54 = icmp ult i64 %51, %53
  br i1 %54, label %55, label %69

55:                                               ; preds = %50
  %56 = load float, ptr %12, align 4
  %57 = load ptr addrspace(3), ptr %6, align 8
  %58 = load i64, ptr %8, align 8
  %59 = add i64 %58, 1
  %60 = getelementptr inbounds float, ptr addrspace(3) %57, i64 %59
  %61 = load float, ptr addrspace(3) %60, align 4
  %62 = load float, ptr %13, align 4
  %63 = load ptr addrspace(3), ptr %6, align 8
  %64 = load i64, ptr %8, align 8
  %65 = getelementptr inbounds float, ptr addrspace(3) %63, i64 %64
  %66 = load float, ptr addrspace(3) %65, align 4
  %67 = fmul float %62, %66
  %68 = call float @llvm.fmuladd.f32(float %56, float %61, float %67)
  store float %68, ptr %15, align 4
  br label %69

69:                                               ; preds = %55, %50
  call spir_func void @_Z7barrierj(i32 noundef 1) #5
  %70 = load i64, ptr %8, align 8
  %71 = load i32, ptr %14, align 4
  %72 = sext i32 %71 to i64
  %73 = icmp ult i64 %70, %72
  br i1 %73, label %74, label %79

74:                                               ; preds = %69
  %75 = load float, ptr %15, align 4
  %76 = load ptr addrspace(3), ptr %6, align 8
  %77 = load i64, ptr %8, align 8
  %78 = getelementptr inbounds float, ptr addrspace(3) %76, i64 %77
  store float %75, ptr addrspace(3) %78, align 4
  br label %79

79:                                               ; preds = %74, %69
  call spir_func void @_Z7barrierj(i32 noundef 1) #5
  br label %80

80:                                               ; preds = %79
  %81 = load i32, ptr %14, align 4
  %82 = add nsw i32 %81, -1
  store i32 %82, ptr %14, align 4
  br label %47

83:                                               ; preds = %47
  %84 = load i64, ptr %8, align 8
  %85 = icmp eq i64 %84, 0
  br i1 %85, label %86, label %93

86:                                               ; preds = %83
  %87 = load ptr addrspace(3), ptr %6, align 8
  %88 = getelementptr inbounds float, ptr addrspace(3) %87, i64 0
  %89 = load float, ptr addrspace(3) %88, align 4
  %90 = load ptr addrspace(1), ptr %5, align 8
  %91 = load i64, ptr %7, align 8
  %92 = getelementptr inbounds float, ptr addrspace(1) %90, i64 %91
  store float %89, ptr addrspace(1) %92, align 4
  br label %93

93:                                               ; preds = %86, %83
  ret void
}

; Function Attrs: convergent nounwind readnone willreturn
declare dso_local spir_func i64 @_Z12get_group_idj(i32 noundef) #1

; Function Attrs: convergent nounwind readnone willreturn
declare dso_local spir_func i64 @_Z12get_local_idj(i32 noundef) #1

; Function Attrs: nocallback nofree nosync nounwind readnone speculatable willreturn
declare float @llvm.fmuladd.f32(float, float, float) #2

; Function Attrs: convergent nounwind readnone willreturn
declare dso_local spir_func float @_Z4fmaxff(float noundef, float noundef) #1

; Function Attrs: convergent nounwind readnone willreturn
declare dso_local spir_func float @_Z4pownfi(float noundef, i32 noundef) #1

; Function Attrs: convergent
declare dso_local spir_func void @_Z7barrierj(i32 noundef) #3

attributes #0 = { convergent noinline norecurse nounwind "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="true" }
attributes #1 = { convergent nounwind readnone willreturn "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #2 = { nocallback nofree nosync nounwind readnone speculatable willreturn }
attributes #3 = { convergent "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
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
!4 = !{i32 1, i32 1, i32 3}
!5 = !{!"none", !"none", !"none"}
!6 = !{!"float*", !"float*", !"float*"}
!7 = !{!"const", !"", !""}
!8 = !{!"rand", !"out", !"tree"}
!9 = !{float 2.500000e+00}
