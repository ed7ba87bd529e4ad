; ModuleID = 'tests/transform/corpus/local_ptr_dep.cl'
source_filename = "tests/transform/corpus/local_ptr_dep.cl"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

@via_local.tmp = internal addrspace(3) global [16 x i32] undef, align 4

; Function Attrs: convergent noinline norecurse nounwind
define dso_local spir_kernel void @via_local(ptr addrspace(1) noundef align 4 %0, ptr addrspace(1) noundef align 4 %1) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %3 = alloca ptr addrspace(1), align 8
  %4 = alloca ptr addrspace(1), align 8
  %5 = alloca i64, align 8
  store ptr addrspace(1) %0, ptr %3, align 8
  store ptr addrspace(1) %1, ptr %4, align 8
  %6 = call spir_func i64 @_Z12get_local_idj(i32 noundef 0) #3
  store i64 %6, ptr %5, align 8
  %7 = load ptr addrspace(1), ptr %3, align 8
  %8 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #3
  %9 = getelementptr inbounds i32, ptr addrspace(1) %7, i64 %8
  %10 = load i32, ptr addrspace(1) %9, align 4
  %11 = load i64, ptr %5, align 8
  %12 = getelementptr inbounds [16 x i32], ptr addrspace(3) @via_local.tmp, i64 0, i64 %11
  store i32 %10, ptr addrspace(3) %12, align 4
  call spir_func void @_Z7barrierj(i32 noundef 1) #4
  %13 = load i64, ptr %5, align 8
  %14 = trunc i64 %13 to i32
  %15 = load ptr addrspace(1), ptr %4, align 8
  %16 = load i64, ptr %5, align 8
  %17 = sub i64 15, %16
  %18 = getelementptr inbounds [16 x i32], ptr addrspace(3) @via_local.tmp, i64 0, i64 %17
  %19 = load i32, ptr addrspace(3) %18, align 4
  %20 = sext i32 %19 to i64
  %21 = getelementptr inbounds i32, ptr addrspace(1) %15, i64 %20
  store i32 %14, ptr addrspace(1) %21, align 4
  ret void
}

; Function Attrs: convergent nounwind readnone willreturn
declare dso_local spir_func i64 @_Z12get_local_idj(i32 noundef) #1

; Function Attrs: convergent nounwind readnone willreturn
declare dso_local spir_func i64 @_Z13get_global_idj(i32 noundef) #1

; Function Attrs: convergent
declare dso_local spir_func void @_Z7barrierj(i32 noundef) #2

attributes #0 = { convergent noinline norecurse nounwind "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="true" }
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
!4 = !{i32 1, i32 1}
!5 = !{!"none", !"none"}
!6 = !{!"int*", !"int*"}
!7 = !{!"const", !""}
!8 = !{!"idx", !"out"}
