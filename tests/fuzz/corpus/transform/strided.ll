; ModuleID = 'tests/transform/corpus/strided.cl'
source_filename = "tests/transform/corpus/strided.cl"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: convergent noinline norecurse nounwind
define dso_local spir_kernel void @strided(ptr addrspace(1) noundef align 4 %0) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %2 = alloca ptr addrspace(1), align 8
  %3 = alloca i64, align 8
  %4 = alloca i32, align 4
  store ptr addrspace(1) %0, ptr %2, align 8
  %5 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #2
  store i64 %5, ptr %3, align 8
  store i32 0, ptr %4, align 4
  br label %6

6:                                                ; preds = %23, %1
  %7 = load i32, ptr %4, align 4
  %8 = icmp slt i32 %7, 4
  br i1 %8, label %9, label %26

9:                                                ; preds = %6
  %10 = load i64, ptr %3, align 8
  %11 = trunc i64 %10 to i32
  %12 = mul nsw i32 %11, 10
  %13 = load i32, ptr %4, align 4
  %14 = add nsw i32 %12, %13
  %15 = load ptr addrspace(1), ptr %2, align 8
  %16 = load i64, ptr %3, align 8
  %17 = mul i64 %16, 16
  %18 = load i32, ptr %4, align 4
  %19 = mul nsw i32 %18, 4
  %20 = sext i32 %19 to i64
  %21 = add i64 %17, %20
  %22 = getelementptr inbounds i32, ptr addrspace(1) %15, i64 %21
  store i32 %14, ptr addrspace(1) %22, align 4
  br label %23

23:                                               ; preds = %9
  %24 = load i32, ptr %4, align 4
  %25 = add nsw i32 %24, 1
  store i32 %25, ptr %4, align 4
  br label %6

26:                                               ; preds = %6
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
!4 = !{i32 1}
!5 = !{!"none"}
!6 = !{!"int*"}
!7 = !{!""}
!8 = !{!"out"}
