; ModuleID = 'tests/transform/corpus/dependent_store.cl'
source_filename = "tests/transform/corpus/dependent_store.cl"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: convergent noinline norecurse nounwind
define dso_local spir_kernel void @chase(ptr addrspace(1) noundef align 4 %0, ptr addrspace(1) noundef align 4 %1) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %3 = alloca ptr addrspace(1), align 8
  %4 = alloca ptr addrspace(1), align 8
  %5 = alloca i64, align 8
  store ptr addrspace(1) %0, ptr %3, align 8
  store ptr addrspace(1) %1, ptr %4, align 8
  %6 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #2
  store i64 %6, ptr %5, align 8
  %7 = load ptr addrspace(1), ptr %3, align 8
  %8 = load i64, ptr %5, align 8
  %9 = getelementptr inbounds i32, ptr addrspace(1) %7, i64 %8
  %10 = load i32, ptr addrspace(1) %9, align 4
  %11 = add nsw i32 %10, 1
  %12 = srem i32 %11, 64
  %13 = load ptr addrspace(1), ptr %3, align 8
  %14 = load i64, ptr %5, align 8
  %15 = getelementptr inbounds i32, ptr addrspace(1) %13, i64 %14
  store i32 %12, ptr addrspace(1) %15, align 4
  %16 = load i64, ptr %5, align 8
  %17 = trunc i64 %16 to i32
  %18 = load ptr addrspace(1), ptr %4, align 8
  %19 = load ptr addrspace(1), ptr %3, align 8
  %20 = load i64, ptr %5, align 8
  %21 = add i64 %20, 1
  %22 = urem i64 %21, 64
  %23 = getelementptr inbounds i32, ptr addrspace(1) %19, i64 %22
  %24 = load i32, ptr addrspace(1) %23, align 4
  %25 = sext i32 %24 to i64
  %26 = getelementptr inbounds i32, ptr addrspace(1) %18, i64 %25
  store i32 %17, ptr addrspace(1) %26, align 4
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
!4 = !{i32 1, i32 1}
!5 = !{!"none", !"none"}
!6 = !{!"int*", !"int*"}
!7 = !{!"", !""}
!8 = !{!"next", !"out"}
