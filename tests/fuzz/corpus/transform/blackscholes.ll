; ModuleID = 'tests/transform/corpus/blackscholes.cl'
source_filename = "tests/transform/corpus/blackscholes.cl"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: convergent noinline norecurse nounwind
define dso_local spir_func float @cnd(float noundef %0) #0 {
  %2 = alloca float, align 4
  %3 = alloca float, align 4
  %4 = alloca float, align 4
  %5 = alloca float, align 4
  %6 = alloca float, align 4
  %7 = alloca float, align 4
  %8 = alloca float, align 4
  %9 = alloca float, align 4
  store float %0, ptr %2, align 4
  store float 0x3FD470BF40000000, ptr %3, align 4
  store float 0xBFD6D1F0E0000000, ptr %4, align 4
  store float 0x3FFC80EF00000000, ptr %5, align 4
  store float 0xBFFD23DD40000000, ptr %6, align 4
  store float 0x3FF548CDE0000000, ptr %7, align 4
  %10 = load float, ptr %2, align 4
  %11 = call spir_func float @_Z4fabsf(float noundef %10) #4
  %12 = call float @llvm.fmuladd.f32(float 0x3FCDA67120000000, float %11, float 1.000000e+00)
  %13 = fdiv float 1.000000e+00, %12, !fpmath !4
  store float %13, ptr %8, align 4
  %14 = load float, ptr %2, align 4
  %15 = fmul float -5.000000e-01, %14
  %16 = load float, ptr %2, align 4
  %17 = fmul float %15, %16
  %18 = call spir_func float @_Z3expf(float noundef %17) #4
  %19 = fmul float 0x3FD9884540000000, %18
  %20 = load float, ptr %8, align 4
  %21 = load float, ptr %8, align 4
  %22 = load float, ptr %8, align 4
  %23 = load float, ptr %8, align 4
  %24 = load float, ptr %8, align 4
  %25 = call float @llvm.fmuladd.f32(float %24, float 0x3FF548CDE0000000, float 0xBFFD23DD40000000)
  %26 = call float @llvm.fmuladd.f32(float %23, float %25, float 0x3FFC80EF00000000)
  %27 = call float @llvm.fmuladd.f32(float %22, float %26, float 0xBFD6D1F0E0000000)
  %28 = call float @llvm.fmuladd.f32(float %21, float %27, float 0x3FD470BF40000000)
  %29 = fmul float %20, %28
  %30 = fmul float %19, %29
  store float %30, ptr %9, align 4
  %31 = load float, ptr %2, align 4
  %32 = fcmp ogt float %31, 0.000000e+00
  br i1 %32, label %33, label %36

33:                                               ; preds = %1
  %34 = load float, ptr %9, align 4
  %35 = fsub float 1.000000e+00, %34
  br label %38

36:                                               ; preds = %1
  %37 = load float, ptr %9, align 4
  br label %38

38:                                               ; preds = %36, %33
  %39 = phi float [ %35, %33 ], [ %37, %36 ]
  ret float %39
}

; Function Attrs: convergent nounwind readnone willreturn
declare dso_local spir_func float @_Z4fabsf(float noundef) #1

; Function Attrs: nocallback nofree nosync nounwind readnone speculatable willreturn
declare float @llvm.fmuladd.f32(float, float, float) #2

; Function Attrs: convergent nounwind readnone willreturn
declare dso_local spir_func float @_Z3expf(float noundef) #1

; Function Attrs: convergent noinline norecurse nounwind
define dso_local spir_kernel void @blackscholes(ptr addrspace(1) noundef align 4 %0, ptr addrspace(1) noundef align 4 %1, ptr addrspace(1) noundef align 4 %2, ptr addrspace(1) noundef align 4 %3, ptr addrspace(1) noundef align 4 %4, float noundef %5, float noundef %6) #3 !kernel_arg_addr_space !5 !kernel_arg_access_qual !6 !kernel_arg_type !7 !kernel_arg_base_type !7 !kernel_arg_type_qual !8 !kernel_arg_name !9 {
  %8 = alloca ptr addrspace(1), align 8
  %9 = alloca ptr addrspace(1), align 8
  %10 = alloca ptr addrspace(1), align 8
  %11 = alloca ptr addrspace(1), align 8
  %12 = alloca ptr addrspace(1), align 8
  %13 = alloca float, align 4
  %14 = alloca float, align 4
  %15 = alloca i64, align 8
  %16 = alloca float, align 4
  %17 = alloca float, align 4
  %18 = alloca float, align 4
  %19 = alloca float, align 4
  %20 = alloca float, align 4
  %21 = alloca float, align 4
  %22 = alloca float, align 4
  store ptr addrspace(1) %0, ptr %8, align 8
  store ptr addrspace(1) %1, ptr %9, align 8
  store ptr addrspace(1) %2, ptr %10, align 8
  store ptr addrspace(1) %3, ptr %11, align 8
  store ptr addrspace(1) %4, ptr %12, align 8
  store float %5, ptr %13, align 4
  store float %6, ptr %14, align 4
  %23 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #4
  store i64 %23, ptr %15, align 8
  %24 = load ptr addrspace(1), ptr %8, align 8
  %25 = load i64, ptr %15, align 8
  %26 = getelementptr inbounds float, ptr addrspace(1) %24, i64 %25
  %27 = load float, ptr addrspace(1) %26, align 4
  %28 = call float @llvm.fmuladd.f32(float %27, float 3.000000e+01, float 5.000000e+00)
  store float %28, ptr %16, align 4
  %29 = load ptr addrspace(1), ptr %9, align 8
  %30 = load i64, ptr %15, align 8
  %31 = getelementptr inbounds float, ptr addrspace(1) %29, i64 %30
  %32 = load float, ptr addrspace(1) %31, align 4
  %33 = call float @llvm.fmuladd.f32(float %32, float 9.900000e+01, float 1.000000e+00)
  store float %33, ptr %17, align 4
  %34 = load ptr addrspace(1), ptr %10, align 8
  %35 = load i64, ptr %15, align 8
  %36 = getelementptr inbounds float, ptr addrspace(1) %34, i64 %35
  %37 = load float, ptr addrspace(1) %36, align 4
  %38 = call float @llvm.fmuladd.f32(float %37, float 9.750000e+00, float 2.500000e-01)
  store float %38, ptr %18, align 4
  %39 = load float, ptr %18, align 4
  %40 = call spir_func float @_Z4sqrtf(float noundef %39) #4
  store float %40, ptr %19, align 4
  %41 = load float, ptr %16, align 4
  %42 = load float, ptr %17, align 4
  %43 = fdiv float %41, %42, !fpmath !4
  %44 = call spir_func float @_Z3logf(float noundef %43) #4
  %45 = load float, ptr %13, align 4
  %46 = load float, ptr %14, align 4
  %47 = fmul float 5.000000e-01, %46
  %48 = load float, ptr %14, align 4
  %49 = call float @llvm.fmuladd.f32(float %47, float %48, float %45)
  %50 = load float, ptr %18, align 4
  %51 = call float @llvm.fmuladd.f32(float %49, float %50, float %44)
  %52 = load float, ptr %14, align 4
  %53 = load float, ptr %19, align 4
  %54 = fmul float %52, %53
  %55 = fdiv float %51, %54, !fpmath !4
  store float %55, ptr %20, align 4
  %56 = load float, ptr %20, align 4
  %57 = load float, ptr %14, align 4
  %58 = load float, ptr %19, align 4
  %59 = fneg float %57
  %60 = call float @llvm.fmuladd.f32(float %59, float %58, float %56)
  store float %60, ptr %21, align 4
  %61 = load float, ptr %13, align 4
  %62 = fneg float %61
  %63 = load float, ptr %18, align 4
  %64 = fmul float %62, %63
  %65 = call spir_func float @_Z3expf(float noundef %64) #4
  store float %65, ptr %22, align 4
  %66 = load float, ptr %16, align 4
  %67 = load float, ptr %20, align 4
  %68 = call spir_func float @cnd(float noundef %67) #5
  %69 = load float, ptr %17, align 4
  %70 = load float, ptr %22, align 4
  %71 = fmul float %69, %70
  %72 = load float, ptr %21, align 4
  %73 = call spir_func float @cnd(float noundef %72) #5
  %74 = fmul float %71, %73
  %75 = fneg float %74
  %76 = call float @llvm.fmuladd.f32(float %66, float %68, float %75)
  %77 = load ptr addrspace(1), ptr %11, align 8
  %78 = load i64, ptr %15, align 8
  %79 = getelementptr inbounds float, ptr addrspace(1) %77, i64 %78
  store float %76, ptr addrspace(1) %79, align 4
  %80 = load float, ptr %17, align 4
  %81 = load float, ptr %22, align 4
  %82 = fmul float %80, %81
  %83 = load float, ptr %21, align 4
  %84 = call spir_func float @cnd(float noundef %83) #5
  %85 = fsub float 1.000000e+00, %84
  %86 = load float, ptr %16, align 4
  %87 = load float, ptr %20, align 4
  %88 = call spir_func float @cnd(float noundef %87) #5
  %89 = fsub float 1.000000e+00, %88
  %90 = fmul float %86, %89
  %91 = fneg float %90
  %92 = call float @llvm.fmuladd.f32(float %82, float %85, float %91)
  %93 = load ptr addrspace(1), ptr %12, align 8
  %94 = load i64, ptr %15, align 8
  %95 = getelementptr inbounds float, ptr addrspace(1) %93, i64 %94
  store float %92, ptr addrspace(1) %95, align 4
  ret void
}

; Function Attrs: convergent nounwind readnone willreturn
declare dso_local spir_func i64 @_Z13get_global_idj(i32 noundef) #1

; Function Attrs: convergent nounwind readnone willreturn
declare dso_local spir_func float @_Z4sqrtf(float noundef) #1

; Function Attrs: convergent nounwind readnone willreturn
declare dso_local spir_func float @_Z3logf(float noundef) #1

attributes #0 = { convergent noinline norecurse nounwind "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #1 = { convergent nounwind readnone willreturn "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #2 = { nocallback nofree nosync nounwind readnone speculatable willreturn }
attributes #3 = { convergent noinline norecurse nounwind "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="true" }
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
!4 = !{float 2.500000e+00}
!5 = !{i32 1, i32 1, i32 1, i32 1, i32 1, i32 0, i32 0}
!6 = !{!"none", !"none", !"none", !"none", !"none", !"none", !"none"}
!7 = !{!"float*", !"float*", !"float*", !"float*", !"float*", !"float", !"float"}
!8 = !{!"const", !"const", !"const", !"", !"", !"", !""}
!9 = !{!"price", !"strike", !"years", !"call", !"put", !"r", !"v"}
