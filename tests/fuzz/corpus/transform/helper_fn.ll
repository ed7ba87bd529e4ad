; ModuleID = 'tests/transform/corpus/helper_fn.cl'
source_filename = "tests/transform/corpus/helper_fn.cl"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: convergent noinline norecurse nounwind
define dso_local spir_kernel void @inner(ptr addrspace(1) noundef align 4 %0, ptr addrspace(1) noundef align 4 %1) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %3 = alloca ptr addrspace(1), align 8
  %4 = alloca ptr addrspace(1), align 8
  store ptr addrspace(1) %0, ptr %3, align 8
  store ptr addrspace(1) %1, ptr %4, align 8
  %5 = load ptr addrspace(1), ptr %4, align 8
  %6 = call spir_func i64 @my_index() #3
  %7 = getelementptr inbounds i32, ptr addrspace(1) %5, i64 %6
  %8 = load i32, ptr addrspace(1) %7, align 4
  %9 = call spir_func i32 @twice(i32 noundef %8) #3
  %10 = load ptr addrspace(1), ptr %3, align 8
  %11 = call spir_func i64 @my_index() #3
  %12 = getelementptr inbounds i32, ptr addrspace(1) %10, i64 %11
  store i32 %9, ptr addrspace(1) %12, align 4
  ret void
}

; Function Attrs: convergent noinline norecurse nounwind
define internal spir_func i32 @twice(i32 noundef %0) #1 {
  %2 = alloca i32, align 4
  store i32 %0, ptr %2, align 4
  %3 = load i32, ptr %2, align 4
  %4 = mul nsw i32 2, %3
  %5 = call spir_func i64 @_Z12get_group_idj(i32 noundef 0) #4
  %6 = trunc i64 %5 to i32
  %7 = add nsw i32 %4, %6
  ret i32 %7
}

; Function Attrs: convergent noinline norecurse nounwind
define internal spir_func i64 @my_index() #1 {
  %1 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #4
  ret i64 %1
}

; Function Attrs: convergent noinline norecurse nounwind
define dso_local spir_kernel void @outer(ptr addrspace(1) noundef align 4 %0, ptr addrspace(1) noundef align 4 %1) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %3 = alloca ptr addrspace(1), align 8
  %4 = alloca ptr addrspace(1), align 8
  store ptr addrspace(1) %0, ptr %3, align 8
  store ptr addrspace(1) %1, ptr %4, align 8
  %5 = load ptr addrspace(1), ptr %3, align 8
  %6 = load ptr addrspace(1), ptr %4, align 8
  call spir_kernel void @inner(ptr addrspace(1) noundef align 4 %5, ptr addrspace(1) noundef align 4 %6) #5
  %7 = call spir_func i64 @_Z14get_num_groupsj(i32 noundef 0) #4
  %8 = trunc i64 %7 to i32
  %9 = load ptr addrspace(1), ptr %3, align 8
  %10 = call spir_func i64 @my_index() #3
  %11 = add i64 %10, 256
  %12 = getelementptr inbounds i32, ptr addrspace(1) %9, i64 %11
  store i32 %8, ptr addrspace(1) %12, align 4
  ret void
}

; Function Attrs: convergent nounwind readnone willreturn
declare dso_local spir_func i64 @_Z14get_num_groupsj(i32 noundef) #2

; Function Attrs: convergent nounwind readnone willreturn
declare dso_local spir_func i64 @_Z12get_group_idj(i32 noundef) #2

; Function Attrs: convergent nounwind readnone willreturn
declare dso_local spir_func i64 @_Z13get_global_idj(i32 noundef) #2

attributes #0 = { convergent noinline norecurse nounwind "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="true" }
attributes #1 = { convergent noinline norecurse nounwind "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #2 = { convergent nounwind readnone willreturn "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #3 = { convergent }
attributes #4 = { convergent nounwind readnone willreturn }
attributes #5 = { convergent "uniform-work-group-size"="true" }

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
!7 = !{!"", !"const"}
!8 = !{!"out", !"in"}
