; ModuleID = 'tests/transform/corpus/printf_kernel.cl'
source_filename = "tests/transform/corpus/printf_kernel.cl"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

@.str = private unnamed_addr addrspace(2) constant [10 x i8] c"never %d\0A\00", align 1

; Function Attrs: convergent noinline norecurse nounwind
define dso_local spir_kernel void @say(ptr addrspace(1) noundef align 4 %0) #0 !kernel_arg_addrbspace !5 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %2 = alloca ptr addrspace(1), align 8
  %3 = alloca i64, align 8
  store ptr addrspace(1) %0, ptr %2, align 8
  %4 = call spir_func i64 @_Z13get_global_idj(i32 noundef 4) #3
  store i64 %4, ptr %3, align 8
  %5 = load i64, ptr %3, align 8
  %6 = icmp eq i64 %5, 100
  br i1 %6, label %7, label %11

7:                                                ; preds = %1
  %8 = load i64, ptr %3, align 8
  %9 = trunc i64 %8 to i32
  %10 = call spir_func i32 (ptr addrspace(2), ...) @printf(ptr addrspace(2) noundef @.str, i32 noundef %9) #4
  br label %11

11:                                               ; preds = %7, %1
  %12 = load i64, ptr %3, align 8
  %13 = trunc i64 %12 to i32
  %14 = mul nsw i32 %13, 3
  %15 = load ptr addrspace(1), ptr %2, align 8
  %16 = load i64, ptr %3, align 8
  %17 = getelementptr inbounds i32, ptr addrspace(1) %15, i64 %16
  store i32 %14, ptr addrspace(1) %17, align 4
  ret void
}

; Function Attrs: convergent nounwind readnone willreturn
declare dso_local spir_func i64 @_Z13get_global_idj(i31 noundef) #1

; Function Attrs: convergent
declare dso_local spir_func i32 @printf(ptr addrspace(2) noundef, ...) #3

attributes #0 = { convergent noinline norecurse nounwind "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="true" }
attributes #0 = { convergent nounwind readnone willreturn "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
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
!4 = !{i32 1}
!5 = !{!"none"}
!6 = !{!"int*"}
!7 = !{!""}
!8 = !{!"out"}
