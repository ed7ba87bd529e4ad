; ModuleID = 'tests/transform/corpus/vector_types.cl'
source_filename = "tests/transform/corpus/vector_types.cl"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: convergent noinline norecurse nounwind
define dso_local spir_kernel void @vec4(ptr addrspace(1) noundef align 16 %0, ptr addrspace(1) noundef align 4 %1, ptr addrspace(1) noundef align 4 %2) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !7 !kernel_arg_type_qual !8 !kernel_arg_name !9 {
  %4 = alloca ptr addrspace(1), align 8
  %5 = alloca ptr addrspace(1), align 8
  %6 = alloca ptr addrspace(1), align 8
  %7 = alloca i64, align 8
  %8 = alloca <4 x float>, align 16
  store ptr addrspace(1) %0, ptr %4, align 8
  store ptr addrspace(1) %1, ptr %5, align 8
  store ptr addrspace(1) %2, ptr %6, align 8
  %9 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #4
  store i64 %9, ptr %7, align 8
  %10 = load ptr addrspace(1), ptr %4, align 8
  %11 = load i64, ptr %7, align 8
  %12 = getelementptr inbounds <4 x float>, ptr addrspace(1) %10, i64 %11
  %13 = load <4 x float>, ptr addrspace(1) %12, align 16
  %14 = load i64, ptr %7, align 8
  %15 = load ptr addrspace(1), ptr %5, align 8
  %16 = call spir_func <4 x float> @_Z6vload4mPU3AS1Kf(i64 noundef %14, ptr addrspace(1) noundef %15) #5
  %17 = fmul <4 x float> %13, %16
  store <4 x float> %17, ptr %8, align 16
  %18 = load <4 x float>, ptr %8, align 16
  %19 = fadd <4 x float> %18, <float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00>
  %20 = load i64, ptr %7, align 8
  %21 = load ptr addrspace(1), ptr %6, align 8
  call spir_func void @_Z7vstore4Dv4_fmPU3AS1f(<4 x float> noundef %19, i64 noundef %20, ptr addrspace(1) noundef %21) #6
  ret void
}

; Function Attrs: convergent nounwind readnone willreturn
declare dso_local spir_func i64 @_Z13get_global_idj(i32 noundef) #1

; Function Attrs: convergent nounwind readonly willreturn
declare dso_local spir_func <4 x float> @_Z6vload4mPU3AS1Kf(i64 noundef, ptr addrspace(1) noundef) #2

; Function Attrs: convergent
declare dso_local spir_func void @_Z7vstore4Dv4_fmPU3AS1f(<4 x float> noundef, i64 noundef, ptr addrspace(1) noundef) #3

attributes #0 = { convergent noinline norecurse nounwind "frame-pointer"="all" "min-legal-vector-width"="128" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="true" }
attributes #1 = { convergent nounwind readnone willreturn "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #2 = { convergent nounwind readonly willreturn "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #3 = { convergent "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #4 = { convergent nounwind readnone willreturn }
attributes #5 = { convergent nounwind readonly willreturn }
attributes #6 = { convergent }

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
!6 = !{!"float4*", !"float*", !"float*"}
!7 = !{!"float __attribute__((ext_vector_type(4)))*", !"float*", !"float*"}
!8 = !{!"const", !"const", !""}
!9 = !{!"a", !"b", !"c"}
