; ModuleID = 'tests/transform/corpus/vec_1d.cl'
source_filename = "tests/transform/corpus/vec_1d.cl"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: convergent noinline norecurse nounwind
define dso_local spir_kernel void @saxpy(ptr addrspace(1) noundef align 4 %0, ptr addrspace(1) noundef align 4 %1, ptr addrspace(1) noundef align 4 %2, float noundef %3) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %5 = alloca ptr addrspace(1), align 8
  %6 = alloca ptr addrspace(1), align 8
  %7 = alloca ptr addrspace(1), align 8
  %8 = alloca float, align 4
  %9 = alloca i64, align 8
  store ptr addrspace(1) %0, ptr %5, align 8
  store ptr addrspace(1) %1, ptr %6, align 8
  store ptr addrspace(1) %2, ptr %7, align 8
  store float %3, ptr %8, align 4
  %10 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #3
  store i64 %10, ptr %9, align 8
  %11 = load float, ptr %8, align 4
  %12 = load ptr addrspace(1), ptr %5, align 8
  %13 = load i64, ptr %9, align 8
  %14 = getelementptr inbounds float, ptr addrspace(1) %12, i64 %13
  %15 = load float, ptr addrspace(1) %14, align 4
  %16 = load ptr addrspace(1), ptr %6, align 8
  %17 = load i64, ptr %9, align 8
  %18 = getelementptr inbounds float, ptr addrspace(1) %16, i64 %17
  %19 = load float, ptr addrspace(1) %18, align 4
  %20 = call float @llvm.fmuladd.f32(float %11, float %15, float %19)
  %21 = load ptr addrspace(1), ptr %7, align 8
  %22 = load i64, ptr %9, align 8
  %23 = getelementptr inbounds float, ptr addrspace(1) %21, i64 %22
  store float %20, ptr addrspace(1) %23, align 4
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
!6 = !{!"float*", !"float*", !"float*", !"float"}
!7 = !{!"const", !"const", !"", !""}
!8 = !{!"x", !"y", !"out", !"a"}
