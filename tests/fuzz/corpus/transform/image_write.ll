; ModuleID = 'tests/transform/corpus/image_write.cl'
source_filename = "tests/transform/corpus/image_write.cl"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: convergent noinline norecurse nounwind
define dso_local spir_kernel void @image_fill(ptr addrspace(1) %0, ptr addrspace(1) noundef align 16 %1, i32 noundef %2) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !7 !kernel_arg_type_qual !8 !kernel_arg_name !9 {
  %4 = alloca ptr addrspace(1), align 8
  %5 = alloca ptr addrspace(1), align 8
  %6 = alloca i32, align 4
  %7 = alloca i32, align 4
  %8 = alloca i32, align 4
  %9 = alloca <2 x i32>, align 8
  store ptr addrspace(1) %0, ptr %4, align 8
  store ptr addrspace(1) %1, ptr %5, align 8
  store i32 %2, ptr %6, align 4
  %10 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #3
  %11 = trunc i64 %10 to i32
  store i32 %11, ptr %7, align 4
  %12 = call spir_func i64 @_Z13get_global_idj(i32 noundef 1) #3
  %13 = trunc i64 %12 to i32
  store i32 %13, ptr %8, align 4
  %14 = load ptr addrspace(1), ptr %4, align 8
  %15 = load i32, ptr %7, align 4
  %16 = insertelement <2 x i32> undef, i32 %15, i32 0
  %17 = load i32, ptr %8, align 4
  %18 = insertelement <2 x i32> %16, i32 %17, i32 1
  store <2 x i32> %18, ptr %9, align 8
  %19 = load <2 x i32>, ptr %9, align 8
  %20 = load ptr addrspace(1), ptr %5, align 8
  %21 = load i32, ptr %8, align 4
  %22 = load i32, ptr %6, align 4
  %23 = mul nsw i32 %21, %22
  %24 = load i32, ptr %7, align 4
  %25 = add nsw i32 %23, %24
  %26 = sext i32 %25 to i64
  %27 = getelementptr inbounds <4 x float>, ptr addrspace(1) %20, i64 %26
  %28 = load <4 x float>, ptr addrspace(1) %27, align 16
  call spir_func void @_Z12write_imagef14ocl_image2d_woDv2_iDv4_f(ptr addrspace(1) %14, <2 x i32> noundef %19, <4 x float> noundef %28) #4
  ret void
}

; Function Attrs: convergent nounwind readnone willreturn
declare dso_local spir_func i64 @_Z13get_global_idj(i32 noundef) #1

; Function Attrs: convergent
declare dso_local spir_func void @_Z12write_imagef14ocl_image2d_woDv2_iDv4_f(ptr addrspace(1), <2 x i32> noundef, <4 x float> noundef) #2

attributes #0 = { convergent noinline norecurse nounwind "frame-pointer"="all" "min-legal-vector-width"="128" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="true" }
attributes #1 = { convergent nounwind readnone willreturn "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #2 = { convergent "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #3 = { convergent nounwind readnone willreturn }
attributes #4 = { convergent }

!llvm.module.flags = !{!0, !1}
!opencl.ocl.version = !{!2}
!opencl.spir.version = !{!2}
!llvm.ident = !{!3}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 7, !"frame-pointer", i32 2}
!2 = !{i32 1, i32 2}
!3 = !{!"Debian clang version 15.0.6"}
!4 = !{i32 1, i32 1, i32 0}
!5 = !{!"write_only", !"none", !"none"}
!6 = !{!"image2d_t", !"float4*", !"int"}
!7 = !{!"image2d_t", !"float __attribute__((ext_vector_type(4)))*", !"int"}
!8 = !{!"", !"const", !""}
!9 = !{!"img", !"in", !"width"}
