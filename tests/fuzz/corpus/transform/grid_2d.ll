; ModuleID = 'tests/transform/corpus/grid_2d.cl'
source_filename = "tests/transform/corpus/grid_2d.cl"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: convergent noinline norecurse nounwind
define dso_local spir_kernel void @scale2d(ptr addrspace(1) noundef align 4 %0, ptr addrspace(1) noundef align 4 %1) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %3 = alloca ptr addrspace(1), align 8
  %4 = alloca ptr addrspace(1), align 8
  %5 = alloca i64, align 8
  %6 = alloca i64, align 8
  %7 = alloca i64, align 8
  store ptr addrspace(1) %0, ptr %3, align 8
  store ptr addrspace(1) %1, ptr %4, align 8
  %8 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #3
  store i64 %8, ptr %5, align 8
  %9 = call spir_func i64 @_Z13get_global_idj(i32 noundef 1) #3
  store i64 %9, ptr %6, align 8
  %10 = call spir_func i64 @_Z15get_global_sizej(i32 noundef 0) #3
  %11 = call spir_func i64 @_Z17get_global_offsetj(i32 noundef 0) #3
  %12 = add i64 %10, %11
  store i64 %12, ptr %7, align 8
  %13 = load ptr addrspace(1), ptr %3, align 8
  %14 = load i64, ptr %6, align 8
  %15 = load i64, ptr %7, align 8
  %16 = mul i64 %14, %15
  %17 = load i64, ptr %5, align 8
  %18 = add i64 %16, %17
  %19 = getelementptr inbounds float, ptr addrspace(1) %13, i64 %18
  %20 = load float, ptr addrspace(1) %19, align 4
  %21 = load i64, ptr %5, align 8
  %22 = load i64, ptr %6, align 8
  %23 = sub i64 %21, %22
  %24 = uitofp i64 %23 to float
  %25 = call float @llvm.fmuladd.f32(float %20, float 2.000000e+00, float %24)
  %26 = load ptr addrspace(1), ptr %4, align 8
  %27 = load i64, ptr %6, align 8
  %28 = load i64, ptr %7, align 8
  %29 = mul i64 %27, %28
  %30 = load i64, ptr %5, align 8
  %31 = add i64 %29, %30
  %32 = getelementptr inbounds float, ptr addrspace(1) %26, i64 %31
  store float %25, ptr addrspace(1) %32, align 4
  ret void
}

; Function Attrs: convergent nounwind readnone willreturn
declare dso_local spir_func i64 @_Z13get_global_idj(i32 noundef) #1

; Function Attrs: convergent nounwind readnone willreturn
declare dso_local spir_func i64 @_Z15get_global_sizej(i32 noundef) #1

; Function Attrs: convergent nounwind readnone willreturn
declare dso_local spir_func i64 @_Z17get_global_offsetj(i32 noundef) #1

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
!4 = !{i32 1, i32 1}
!5 = !{!"none", !"none"}
!6 = !{!"float*", !"float*"}
!7 = !{!"const", !""}
!8 = !{!"in", !"out"}
