; ModuleID = 'tests/transform/corpus/vector_add.cl'
source_filename = "tests/transform/corpus/vector_add.cl"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: convergent noinline norecurse nounwind
define dso_local spir_kernel void @vector_add(ptr addrspace(1) noundef align 4 %0, ptr addrspace(1) noundef align 4 %1, ptr addrspace(1) noundef align 4 %2, i32 noundef %3) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %5 = alloca ptr addrspace(1), align 8
  %6 = alloca ptr addrspace(1), align 8
  %7 = alloca ptr addrspace(1), align 8
  %8 = alloca i32, align 4
  %9 = alloca i32, align 4
  store ptr addrspace(1) %0, ptr %5, align 8
  store ptr addrspace(1) %1, ptr %6, align 8
  store ptr addrspace(1) %2, ptr %7, align 8
  store i32 %3, ptr %8, align 4
  %10 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #2
  %11 = trunc i64 %10 to i32
  store i32 %11, ptr %9, align 4
  %12 = load i32, ptr %9, align 4
  %13 = load i32, ptr %8, align 4
  %14 = icmp slt i32 %12, %13
  br i1 %14, label %15, label %31

15:                                               ; preds = %4
  %16 = load ptr addrspace(1), ptr %5, align 8
  %17 = load i32, ptr %9, align 4
  %18 = sext i32 %17 to i64
  %19 = getelementptr inbounds float, ptr addrspace(1) %16, i64 %18
  %20 = load float, ptr addrspace(1) %19, align 4
  %21 = load ptr addrspace(1), ptr %6, align 8
  %22 = load i32, ptr %9, align 4
  %23 = sext i32 %22 to i64
  %24 = getelementptr inbounds float, ptr addrspace(1) %21, i64 %23
  %25 = load float, ptr addrspace(1) %24, align 4
  %26 = fadd float %20, %25
  %27 = load ptr addrspace(1), ptr %7, align 8
  %28 = load i32, ptr %9, align 4
  %29 = sext i32 %28 to i64
  %30 = getelementptr inbounds float, ptr addrspace(1) %27, i64 %29
  store float %26, ptr addrspace(1) %30, align 4
  br label %31

31:                                               ; preds = %15, %4
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
!4 = !{i32 1, i32 1, i32 1, i32 0}
!5 = !{!"none", !"none", !"none", !"none"}
!6 = !{!"float*", !"float*", !"float*", !"int"}
!7 = !{!"const", !"const", !"", !""}
!8 = !{!"a", !"b", !"c", !"n"}
