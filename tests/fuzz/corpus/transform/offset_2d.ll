; ModuleID = 'tests/transform/corpus/offset_2d.cl'
source_filename = "tests/transform/corpus/offset_2d.cl"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: convergent noinline norecurse nounwind
define dso_local spir_kernel void @shifted(ptr addrspace(1) noundef align 4 %0, i32 noundef %1) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %3 = alloca ptr addrspace(1), align 8
  %4 = alloca i32, align 4
  %5 = alloca i64, align 8
  %6 = alloca i64, align 8
  store ptr addrspace(1) %0, ptr %3, align 8
  store i32 %1, ptr %4, align 4
  %7 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #2
  store i64 %7, ptr %5, align 8
  %8 = call spir_func i64 @_Z13get_global_idj(i32 noundef 1) #2
  store i64 %8, ptr %6, align 8
  %9 = load i64, ptr %5, align 8
  %10 = mul i64 %9, 100
  %11 = load i64, ptr %6, align 8
  %12 = add i64 %10, %11
  %13 = trunc i64 %12 to i32
  %14 = load ptr addrspace(1), ptr %3, align 8
  %15 = load i64, ptr %6, align 8
  %16 = load i32, ptr %4, align 4
  %17 = sext i32 %16 to i64
  %18 = mul i64 %15, %17
  %19 = load i64, ptr %5, align 8
  %20 = add i64 %18, %19
  %21 = getelementptr inbounds i32, ptr addrspace(1) %14, i64 %20
  store i32 %13, ptr addrspace(1) %21, align 4
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
!4 = !{i32 1, i32 0}
!5 = !{!"none", !"none"}
!6 = !{!"int*", !"int"}
!7 = !{!"", !""}
!8 = !{!"out", !"width"}
