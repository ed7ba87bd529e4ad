; ModuleID = 'tests/transform/corpus/image_read.cl'
source_filename = "tests/transform/corpus/image_read.cl"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: convergent noinline norecurse nounwind
define dso_local spir_kernel void @image_blur(ptr addrspace(1) %0, ptr addrspace(1) noundef align 16 %1, i32 noundef %2) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !7 !kernel_arg_type_qual !8 !kernel_arg_name !9 {
  %4 = alloca ptr addrspace(1), align 8
  %5 = alloca ptr addrspace(1), align 8
  %6 = alloca i32, align 4
  %7 = alloca i32, align 4
  %8 = alloca i32, align 4
  %9 = alloca <4 x float>, align 16
  %10 = alloca <2 x i32>, align 8
  %11 = alloca <2 x i32>, align 8
  store ptr addrspace(1) %0, ptr %4, align 8
  store ptr addrspace(1) %1, ptr %5, align 8
  store i32 %2, ptr %6, align 4
  %12 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #3
  %13 = trunc i64 %12 to i32
  store i32 %13, ptr %7, align 4
  %14 = call spir_func i64 @_Z13get_global_idj(i32 noundef 1) #3
  %15 = trunc i64 %14 to i32
  store i32 %15, ptr %8, align 4
  %16 = load ptr addrspace(1), ptr %4, align 8
  %17 = call spir_func ptr addrspace(2) @__translate_sampler_initializer(i32 20)
  %18 = load i32, ptr %7, align 4
  %19 = insertelement <2 x i32> undef, i32 %18, i32 0
  %20 = load i32, ptr %8, align 4
  %21 = insertelement <2 x i32> %19, i32 %20, i32 1
  store <2 x i32> %21, ptr %10, align 8
  %22 = load <2 x i32>, ptr %10, align 8
  %23 = call spir_func <4 x float> @_Z11read_imagef14ocl_image2d_ro11ocl_samplerDv2_i(ptr addrspace(1) %16, ptr addrspace(2) %17, <2 x i32> noundef %22) #4
  %24 = load ptr addrspace(1), ptr %4, align 8
  %25 = call spir_func ptr addrspace(2) @__translate_sampler_initializer(i32 20)
  %26 = load i32, ptr %7, align 4
  %27 = add nsw i32 %26, 1
  %28 = insertelement <2 x i32> undef, i32 %27, i32 0
  %29 = load i32, ptr %8, align 4
  %30 = insertelement <2 x i32> %28, i32 %29, i32 1
  store <2 x i32> %30, ptr %11, align 8
  %31 = load <2 x i32>, ptr %11, align 8
  %32 = call spir_func <4 x float> @_Z11read_imagef14ocl_image2d_ro11ocl_samplerDv2_i(ptr addrspace(1) %24, ptr addrspace(2) %25, <2 x i32> noundef %31) #4
  %33 = fadd <4 x float> %23, %32
  store <4 x float> %33, ptr %9, align 16
  %34 = load <4 x float>, ptr %9, align 16
  %35 = fmul <4 x float> %34, <float 5.000000e-01, float 5.000000e-01, float 5.000000e-01, float 5.000000e-01>
  %36 = load ptr addrspace(1), ptr %5, align 8
  %37 = load i32, ptr %8, align 4
  %38 = load i32, ptr %6, align 4
  %39 = mul nsw i32 %37, %38
  %40 = load i32, ptr %7, align 4
  %41 = add nsw i32 %39, %40
  %42 = sext i32 %41 to i64
  %43 = getelementptr inbounds <4 x float>, ptr addrspace(1) %36, i64 %42
  store <4 x float> %35, ptr addrspace(1) %43, align 16
  ret void
}

; Function Attrs: convergent nounwind readnone willreturn
declare dso_local spir_func i64 @_Z13get_global_idj(i32 noundef) #1

; Function Attrs: convergent nounwind readonly willreturn
declare dso_local spir_func <4 x float> @_Z11read_imagef14ocl_image2d_ro11ocl_samplerDv2_i(ptr addrspace(1), ptr addrspace(2), <2 x i32> noundef) #2

declare dso_local spir_func ptr addrspace(2) @__translate_sampler_initializer(i32)

attributes #0 = { convergent noinline norecurse nounwind "frame-pointer"="all" "min-legal-vector-width"="128" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="true" }
attributes #1 = { convergent nounwind readnone willreturn "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #2 = { convergent nounwind readonly willreturn "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #3 = { convergent nounwind readnone willreturn }
attributes #4 = { convergent nounwind readonly willreturn }

!llvm.module.flags = !{!0, !1}
!opencl.ocl.version = !{!2}
!opencl.spir.version = !{!2}
!llvm.ident = !{!3}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 7, !"frame-pointer", i32 2}
!2 = !{i32 1, i32 2}
!3 = !{!"Debian clang version 15.0.6"}
!4 = !{i32 1, i32 1, i32 0}
!5 = !{!"read_only", !"none", !"none"}
!6 = !{!"image2d_t", !"float4*", !"int"}
!7 = !{!"image2d_t", !"float __attribute__((ext_vector_type(4)))*", !"int"}
!8 = !{!"", !"", !""}
!9 = !{!"img", !"out", !"width"}
