; ModuleID = 'tests/transform/corpus/local_reduce.cl'
source_filename = "tests/transform/corpus/local_reduce.cl"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: convergent noinline norecurse nounwind
define dso_local spir_kernel void @group_sum(ptr addrspace(1) noundef align 4 %0, ptr addrspace(1) noundef align 4 %1, ptr addrspace(3) noundef align 4 %2) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %4 = alloca ptr addrspace(1), align 8
  %5 = alloca ptr addrspace(1), align 8
  %6 = alloca ptr addrspace(3), align 8
  %7 = alloca i64, align 8
  %8 = alloca i64, align 8
  store ptr addrspace(1) %0, ptr %4, align 8
  store ptr addrspace(1) %1, ptr %5, align 8
  store ptr addrspace(3) %2, ptr %6, align 8
  %9 = call spir_func i64 @_Z12get_local_idj(i32 noundef 0) #3
  store i64 %9, ptr %7, align 8
  %10 = load ptr addrspace(1), ptr %4, align 8
  %11 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #3
  %12 = getelementptr inbounds float, ptr addrspace(1) %10, i64 %11
  %13 = load float, ptr addrspace(1) %12, align 4
  %14 = load ptr addrspace(3), ptr %6, align 8
  %15 = load i64, ptr %7, align 8
  %16 = getelementptr inbounds float, ptr addrspace(3) %14, i64 %15
  store float %13, ptr addrspace(3) %16, align 4
  call spir_func void @_Z7barrierj(i32 noundef 1) #4
  %17 = call spir_func i64 @_Z14get_local_sizej(i32 noundef 0) #3
  %18 = udiv i64 %17, 2
  store i64 %18, ptr %8, align 8
  br label %19

19:                                               ; preds = %39, %3
  %20 = load i64, ptr %8, align 8
  %21 = icmp ugt i64 %20, 0
  br i1 %21, label %22, label %42

22:                                               ; preds = %19
  %23 = load i64, ptr %7, align 8
  %24 = load i64, ptr %8, align 8
  %25 = icmp ult i64 %23, %24
  br i1 %25, label %26, label %38

26:                                               ; preds = %22
  %27 = load ptr addrspace(3), ptr %6, align 8
  %28 = load i64, ptr %7, align 8
  %29 = load i64, ptr %8, align 8
  %30 = add i64 %28, %29
  %31 = getelementptr inbounds float, ptr addrspace(3) %27, i64 %30
  %32 = load float, ptr addrspace(3) %31, align 4
  %33 = load ptr addrspace(3), ptr %6, align 8
  %34 = load i64, ptr %7, align 8
  %35 = getelementptr inbounds float, ptr addrspace(3) %33, i64 %34
  %36 = load float, ptr addrspace(3) %35, align 4
  %37 = fadd float %36, %32
  store float %37, ptr addrspace(3) %35, align 4
  br label %38

38:                                               ; preds = %26, %22
  call spir_func void @_Z7barrierj(i32 noundef 1) #4
  br label %39

39:                                               ; preds = %38
  %40 = load i64, ptr %8, align 8
  %41 = udiv i64 %40, 2
  store i64 %41, ptr %8, align 8
  br label %19

42:                                               ; preds = %19
  %43 = load i64, ptr %7, align 8
  %44 = icmp eq i64 %43, 0
  br i1 %44, label %45, label %52

45:                                               ; preds = %42
  %46 = load ptr addrspace(3), ptr %6, align 8
  %47 = getelementptr inbounds float, ptr addrspace(3) %46, i64 0
  %48 = load float, ptr addrspace(3) %47, align 4
  %49 = load ptr addrspace(1), ptr %5, align 8
  %50 = call spir_func i64 @_Z12get_group_idj(i32 noundef 0) #3
  %51 = getelementptr inbounds float, ptr addrspace(1) %49, i64 %50
  store float %48, ptr addrspace(1) %51, align 4
  br label %52

52:                                               ; preds = %45, %42
  ret void
}

; Function Attrs: convergent nounwind readnone willreturn
declare dso_local spir_func i64 @_Z12get_local_idj(i32 noundef) #1

; Function Attrs: convergent nounwind readnone willreturn
declare dso_local spir_func i64 @_Z13get_global_idj(i32 noundef) #1

; Function Attrs: convergent
declare dso_local spir_func void @_Z7barrierj(i32 noundef) #2

; Function Attrs: convergent nounwind readnone willreturn
declare dso_local spir_func i64 @_Z14get_local_sizej(i32 noundef) #1

; Function Attrs: convergent nounwind readnone willreturn
declare dso_local spir_func i64 @_Z12get_group_idj(i32 noundef) #1

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
!4 = !{i32 1, i32 1, i32 3}
!5 = !{!"none", !"none", !"none"}
!6 = !{!"float*", !"float*", !"float*"}
!7 = !{!"const", !"", !""}
!8 = !{!"in", !"sums", !"tmp"}
