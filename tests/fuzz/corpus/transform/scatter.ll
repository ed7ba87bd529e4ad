; ModuleID = 'tests/transform/corpus/scatter.cl'
source_filename = "tests/transform/corpus/scatter.cl"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: convergent noinline norecurse nounwind
define dso_local spir_kernel void @scatter(ptr addrspace(1) noundef align 4 %0, ptr addrspace(1) noundef align 4 %1, ptr addrspace(1) noundef align 4 %2) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %4 = alloca ptr addrspace(1), align 8
  %5 = alloca ptr addrspace(1), align 8
  %6 = alloca ptr addrspace(1), align 8
  %7 = alloca i64, align 8
  store ptr addrspace(1) %0, ptr %4, align 8
  store ptr addrspace(1) %1, ptr %5, align 8
  store ptr addrspace(1) %2, ptr %6, align 8
  %8 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #2
  store i64 %8, ptr %7, align 8
  %9 = load ptr addrspace(1), ptr %5, align 8
  %10 = load i64, ptr %7, align 8
  %11 = getelementptr inbounds float, ptr addrspace(1) %9, i64 %10
  %12 = load float, ptr addrspace(1) %11, align 4
  %13 = fmul float %12, 2.000000e+00
  %14 = load ptr addrspace(1), ptr %6, align 8
  %15 = load ptr addrspace(1), ptr %4, align 8
  %16 = load i64, ptr %7, align 8
  %17 = getelementptr inbounds i32, ptr addrspace(1) %15, i64 %16
  %18 = load i32, ptr addrspace(1) %17, align 4
  %19 = mul nsw i32 %18, 7
  %20 = srem i32 %19, 256
  %21 = sext i32 %20 to i64
  %22 = getelementptr inbounds float, ptr addrspace(1) %14, i64 %21
  store float %13, ptr addrspace(1) %22, align 4
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
!4 = !{i32 1, i32 1, i32 1}
!5 = !{!"none", !"none", !"none"}
!6 = !{!"int*", !"float*", !"float*"}
!7 = !{!"const", !"const", !""}
!8 = !{!"idx", !"in", !"out"}
