; ModuleID = 'tests/transform/corpus/atomics.cl'
source_filename = "tests/transform/corpus/atomics.cl"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: convergent noinline norecurse nounwind
define dso_local spir_kernel void @count_positive(ptr addrspace(1) noundef align 4 %0, ptr addrspace(1) noundef align 4 %1) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %3 = alloca ptr addrspace(1), align 8
  %4 = alloca ptr addrspace(1), align 8
  store ptr addrspace(1) %0, ptr %3, align 8
  store ptr addrspace(1) %1, ptr %4, align 8
  %5 = load ptr addrspace(1), ptr %3, align 8
  %6 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #3
  %7 = getelementptr inbounds float, ptr addrspace(1) %5, i64 %6
  %8 = load float, ptr addrspace(1) %7, align 4
  %9 = fcmp ogt float %8, 5.000000e-01
  br i1 %9, label %10, label %13

10:                                               ; preds = %2
  %11 = load ptr addrspace(1), ptr %4, align 8
  %12 = call spir_func i32 @_Z10atomic_addPU3AS1Vii(ptr addrspace(1) noundef %11, i32 noundef 1) #4
  br label %13

13:                                               ; preds = %10, %2
  ret void
}

; Function Attrs: convergent nounwind readnone willreturn
declare dso_local spir_func i64 @_Z13get_global_idj(i32 noundef) #1

; Function Attrs: convergent
declare dso_local spir_func i32 @_Z10atomic_addPU3AS1Vii(ptr addrspace(1) noundef, i32 noundef) #2

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
!6 = !{!"float*", !"int*"}
!7 = !{!"const", !""}
!8 = !{!"in", !"count"}
