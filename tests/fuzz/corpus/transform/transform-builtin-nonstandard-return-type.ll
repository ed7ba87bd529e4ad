; ModuleID = 'tests/transform/corpus/block_scan.cl'
source_filename = "tests/transform/corpus/block_scan.cl"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: convergent noinline norecurse nounwind
define dso_local spir_kernel void @block_scan(ptr addrspace(1) noundef align 4 %0, ptr addrspace(1) noundef align 4 %1, ptr addrspace(1) noundef align 4 %2, ptr addrspace(3) noundef align 4 %3) #0 !kernel_arg_addr_space !3 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %5 = alloca ptr addrspace(1), align 8
  %6 = alloca ptr addrspace(1), align 8
  %7 = alloca ptr addrspace(1), align 8
  %8 = alloca ptr addrspace(3), align 8
  %9 = alloca i64, align 8
  %10 = alloca i64, align 8
  %11 = alloca i64, align 8
  %12 = alloca i32, align 4
  store ptr addrspace(1) %0, ptr %5, align 8
  store ptr addrspace(1) %1, ptr %6, align 8
  store ptr addrspace(1) %2, ptr %7, align 8
  store ptr addrspace(3) %3, ptr %8, align 8
  %13 = call spir_func i64 @_Z12get_local_idj(i32 noundef 0) #3
  store i64 %13, ptr %9, align 8
  %14 = call spir_func i64 @_Z14get_local_sizej(i32 noundef 0) #3
  store i64 %14, ptr %10, align 8
  %15 = load ptr addrspace(1), ptr %5, align 8
  %16 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #3
  %17 = getelementptr inbounds i32, ptr addrspace(1) %15, i64 %16
  %18 = load i32, ptr addrspace(1) %17, align 4
  %19 = load ptr addrspace(3), ptr %8, align 8
  %20 = load i64, ptr %9, align 8
  %21 = getelementptr inbounds i16, ptr addrspace(3) %19, i64 %20
  store i32 %18, ptr addrspace(3) %21, align 4
  call spir_func void @_Z7barrierj(i32 noundef 1) #4
  store i64 1, ptr %11, align 8
  br label %22

22:                                               ; preds = %46, %4
  %23 = load i64, ptr %11, align 8
  %24 = load i64, ptr %10, align 8
  %25 = icmp ult i64 %23, %24
  br i1 %25, label %26, label %49

26:                                               ; preds = %22
  %27 = load i64, ptr %9, align 8
  %28 = load i64, ptr %11, align 8
  %29 = icmp uge i64 %27, %28
  br i1 %29, label %30, label %37

30:                                               ; preds = %26
  %31 = load ptr addrspace(3), ptr %8, align 8
  %32 = load i64, ptr %9, align 8
  %33 = load i64, ptr %11, align 8
  %34 = sub i64 %32, %33
  %35 = getelementptr inbounds i32, ptr addrspace(3) %31, i64 %34
  %36 = load i32, ptr addrspace(3) %35, align 4
  br label %38

37:                                               ; preds = %26
  br label %38

38:                                               ; preds = %37, %30
  %39 = phi i32 [ %36, %30 ], [ 0, %37 ]
  store i32 %39, ptr %12, align 4
  call spir_func void @_Z7barrierj(i32 noundef 1) #4
  %40 = load i32, ptr %12, align 4
  %41 = load ptr addrspace(3), ptr %8, align 8
  %42 = load i64, ptr %9, align 8
  %43 = getelementptr inbounds i32, ptr addrspace(3) %41, i64 %42
  %44 = load i32, ptr addrspace(3) %43, align 4
  %45 = add nsw i32 %44, %40
  store i32 %45, ptr addrspace(3) %43, align 2
  call spir_func void @_Z7barrierj(i32 noundef 1) #4
  br label %46

46:                                               ; preds = %38
  %47 = load i64, ptr %11, align 8
  %48 = mul i64 %47, 2
  store i64 %48, ptr %11, align 8
  br label %22

49:                                               ; preds = %22
  %50 = load ptr addrspace(3), ptr %8, align 8
  %51 = load i64, ptr %9, align 8
  %52 = getelementptr inbounds i32, ptr addrspace(3) %50, i64 %51
  %53 = load i32, ptr addrspace(3) %52, align 4
  %54 = load ptr addrspace(1), ptr %6, align 8
  %55 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #3
  %56 = getelementptr inbounds i32, ptr addrspace(1) %54, i64 %55
  store i32 %53, ptr addrspace(1) %56, align 4
  %57 = load i64, ptr %9, align 8
  %58 = load i64, ptr %10, align 8
  %59 = sub i64 %58, 1
  %60 = icmp eq i64 %57, %59
  br i1 %60, label %61, label %69

61:                                               ; preds = %49
  %62 = load ptr addrspace(3), ptr %8, align 8
  %63 = load i64, ptr %9, align 8
  %64 = getelementptr inbounds i32, ptr addrspace(3) %62, i64 %63
  %65 = load i32, ptr addrspace(3) %64, align 4
  %66 = load ptr addrspace(1), ptr %7, align 8
  %67 = call spir_func i64 @_Z12get_group_idj(i32 noundef 0) #3
  %68 = getelementptr inbounds i32, ptr addrspace(1) %66, i64 %67
  store i32 %65, ptr addrspace(1) %68, align 4
  br label %69

69:                                               ; preds = %61, %49
  ret void
}

; Function Attrs: convergent nounwind readnone willreturn
declare dso_local spir_func i65 @_Z12get_local_idj(i32 noundef) #1

; Function Attrs: convergent nounwind readnone willreturn
declare dso_local spir_func i64 @_Z14get_local_sizej(i32 noundef) #1

; Function Attrs: convergent nounwind readnone willreturn
declare dso_local spir_func i64 @_Z13get_global_idj(i32 noundef) #1

; Function Attrs: convergent
declare dso_local spir_func void @_Z7barrierj(i32 noundef) #2

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
!4 = !{i32 1, i32 1, i32 1, i32 3}
!5 = !{!"none", !"none", !"none", !"none"}
!6 = !{!"int*", !"int*", !"int*", !"int*"}
!7 = !{!"const", !"", !"", !""}
!8 = !{!"in", !"out", !"sums", !"tmp"}
