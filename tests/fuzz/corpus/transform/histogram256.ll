; ModuleID = 'tests/transform/corpus/histogram256.cl'
source_filename = "tests/transform/corpus/histogram256.cl"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

@histogram256.bins = internal addrspace(3) global [256 x i32] undef, align 4

; Function Attrs: convergent noinline norecurse nounwind
define dso_local spir_kernel void @histogram256(ptr addrspace(1) noundef align 1 %0, ptr addrspace(1) noundef align 4 %1) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %3 = alloca ptr addrspace(1), align 8
  %4 = alloca ptr addrspace(1), align 8
  %5 = alloca i64, align 8
  %6 = alloca i64, align 8
  %7 = alloca i64, align 8
  %8 = alloca i32, align 4
  %9 = alloca i64, align 8
  store ptr addrspace(1) %0, ptr %3, align 8
  store ptr addrspace(1) %1, ptr %4, align 8
  %10 = call spir_func i64 @_Z12get_local_idj(i32 noundef 0) #3
  store i64 %10, ptr %5, align 8
  %11 = call spir_func i64 @_Z12get_group_idj(i32 noundef 0) #3
  store i64 %11, ptr %6, align 8
  %12 = load i64, ptr %5, align 8
  store i64 %12, ptr %7, align 8
  br label %13

13:                                               ; preds = %19, %2
  %14 = load i64, ptr %7, align 8
  %15 = icmp ult i64 %14, 256
  br i1 %15, label %16, label %23

16:                                               ; preds = %13
  %17 = load i64, ptr %7, align 8
  %18 = getelementptr inbounds [256 x i32], ptr addrspace(3) @histogram256.bins, i64 0, i64 %17
  store i32 0, ptr addrspace(3) %18, align 4
  br label %19

19:                                               ; preds = %16
  %20 = call spir_func i64 @_Z14get_local_sizej(i32 noundef 0) #3
  %21 = load i64, ptr %7, align 8
  %22 = add i64 %21, %20
  store i64 %22, ptr %7, align 8
  br label %13

23:                                               ; preds = %13
  call spir_func void @_Z7barrierj(i32 noundef 1) #4
  store i32 0, ptr %8, align 4
  br label %24

24:                                               ; preds = %39, %23
  %25 = load i32, ptr %8, align 4
  %26 = icmp slt i32 %25, 16
  br i1 %26, label %27, label %42

27:                                               ; preds = %24
  %28 = load ptr addrspace(1), ptr %3, align 8
  %29 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #3
  %30 = mul i64 %29, 16
  %31 = load i32, ptr %8, align 4
  %32 = sext i32 %31 to i64
  %33 = add i64 %30, %32
  %34 = getelementptr inbounds i8, ptr addrspace(1) %28, i64 %33
  %35 = load i8, ptr addrspace(1) %34, align 1
  %36 = zext i8 %35 to i64
  %37 = getelementptr inbounds [256 x i32], ptr addrspace(3) @histogram256.bins, i64 0, i64 %36
  %38 = call spir_func i32 @_Z10atomic_incPU3AS3Vj(ptr addrspace(3) noundef %37) #4
  br label %39

39:                                               ; preds = %27
  %40 = load i32, ptr %8, align 4
  %41 = add nsw i32 %40, 1
  store i32 %41, ptr %8, align 4
  br label %24

42:                                               ; preds = %24
  call spir_func void @_Z7barrierj(i32 noundef 1) #4
  %43 = load i64, ptr %5, align 8
  store i64 %43, ptr %9, align 8
  br label %44

44:                                               ; preds = %57, %42
  %45 = load i64, ptr %9, align 8
  %46 = icmp ult i64 %45, 256
  br i1 %46, label %47, label %61

47:                                               ; preds = %44
  %48 = load i64, ptr %9, align 8
  %49 = getelementptr inbounds [256 x i32], ptr addrspace(3) @histogram256.bins, i64 0, i64 %48
  %50 = load i32, ptr addrspace(3) %49, align 4
  %51 = load ptr addrspace(1), ptr %4, align 8
  %52 = load i64, ptr %6, align 8
  %53 = mul i64 %52, 256
  %54 = load i64, ptr %9, align 8
  %55 = add i64 %53, %54
  %56 = getelementptr inbounds i32, ptr addrspace(1) %51, i64 %55
  store i32 %50, ptr addrspace(1) %56, align 4
  br label %57

57:                                               ; preds = %47
  %58 = call spir_func i64 @_Z14get_local_sizej(i32 noundef 0) #3
  %59 = load i64, ptr %9, align 8
  %60 = add i64 %59, %58
  store i64 %60, ptr %9, align 8
  br label %44

61:                                               ; preds = %44
  ret void
}

; Function Attrs: convergent nounwind readnone willreturn
declare dso_local spir_func i64 @_Z12get_local_idj(i32 noundef) #1

; Function Attrs: convergent nounwind readnone willreturn
declare dso_local spir_func i64 @_Z12get_group_idj(i32 noundef) #1

; Function Attrs: convergent nounwind readnone willreturn
declare dso_local spir_func i64 @_Z14get_local_sizej(i32 noundef) #1

; Function Attrs: convergent
declare dso_local spir_func void @_Z7barrierj(i32 noundef) #2

; Function Attrs: convergent
declare dso_local spir_func i32 @_Z10atomic_incPU3AS3Vj(ptr addrspace(3) noundef) #2

; Function Attrs: convergent nounwind readnone willreturn
declare dso_local spir_func i64 @_Z13get_global_idj(i32 noundef) #1

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
!6 = !{!"uchar*", !"uint*"}
!7 = !{!"const", !""}
!8 = !{!"data", !"partial"}
