; ModuleID = 'tests/transform/corpus/jacobi.cl'
source_filename = "tests/transform/corpus/jacobi.cl"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: convergent noinline norecurse nounwind
define dso_local spir_kernel void @jacobi2d(ptr addrspace(1) noundef align 4 %0, ptr addrspace(1) noundef align 4 %1, i32 noundef %2) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %4 = alloca ptr addrspace(1), align 8
  %5 = alloca ptr addrspace(1), align 8
  %6 = alloca i32, align 4
  %7 = alloca i32, align 4
  %8 = alloca i32, align 4
  store ptr addrspace(1) %0, ptr %4, align 8
  store ptr addrspace(1) %1, ptr %5, align 8
  store i32 %2, ptr %6, align 4
  %9 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #2
  %10 = trunc i64 %9 to i32
  store i32 %10, ptr %7, align 4
  %11 = call spir_func i64 @_Z13get_global_idj(i32 noundef 1) #2
  %12 = trunc i64 %11 to i32
  store i32 %12, ptr %8, align 4
  %13 = load i32, ptr %8, align 4
  %14 = icmp sge i32 %13, 1
  br i1 %14, label %15, label %91

15:                                               ; preds = %3
  %16 = load i32, ptr %8, align 4
  %17 = load i32, ptr %6, align 4
  %18 = sub nsw i32 %17, 1
  %19 = icmp slt i32 %16, %18
  br i1 %19, label %20, label %91

20:                                               ; preds = %15
  %21 = load i32, ptr %7, align 4
  %22 = icmp sge i32 %21, 1
  br i1 %22, label %23, label %91

23:                                               ; preds = %20
  %24 = load i32, ptr %7, align 4
  %25 = load i32, ptr %6, align 4
  %26 = sub nsw i32 %25, 1
  %27 = icmp slt i32 %24, %26
  br i1 %27, label %28, label %91

28:                                               ; preds = %23
  %29 = load ptr addrspace(1), ptr %4, align 8
  %30 = load i32, ptr %8, align 4
  %31 = load i32, ptr %6, align 4
  %32 = mul nsw i32 %30, %31
  %33 = load i32, ptr %7, align 4
  %34 = add nsw i32 %32, %33
  %35 = sext i32 %34 to i64
  %36 = getelementptr inbounds float, ptr addrspace(1) %29, i64 %35
  %37 = load float, ptr addrspace(1) %36, align 4
  %38 = load ptr addrspace(1), ptr %4, align 8
  %39 = load i32, ptr %8, align 4
  %40 = load i32, ptr %6, align 4
  %41 = mul nsw i32 %39, %40
  %42 = load i32, ptr %7, align 4
  %43 = add nsw i32 %41, %42
  %44 = sub nsw i32 %43, 1
  %45 = sext i32 %44 to i64
  %46 = getelementptr inbounds float, ptr addrspace(1) %38, i64 %45
  %47 = load float, ptr addrspace(1) %46, align 4
  %48 = fadd float %37, %47
  %49 = load ptr addrspace(1), ptr %4, align 8
  %50 = load i32, ptr %8, align 4
  %51 = load i32, ptr %6, align 4
  %52 = mul nsw i32 %50, %51
  %53 = load i32, ptr %7, align 4
  %54 = add nsw i32 %52, %53
  %55 = add nsw i32 %54, 1
  %56 = sext i32 %55 to i64
  %57 = getelementptr inbounds float, ptr addrspace(1) %49, i64 %56
  %58 = load float, ptr addrspace(1) %57, align 4
  %59 = fadd float %48, %58
  %60 = load ptr addrspace(1), ptr %4, align 8
  %61 = load i32, ptr %8, align 4
  %62 = add nsw i32 %61, 1
  %63 = load i32, ptr %6, align 4
  %64 = mul nsw i32 %62, %63
  %65 = load i32, ptr %7, align 4
  %66 = add nsw i32 %64, %65
  %67 = sext i32 %66 to i64
  %68 = getelementptr inbounds float, ptr addrspace(1) %60, i64 %67
  %69 = load float, ptr addrspace(1) %68, align 4
  %70 = fadd float %59, %69
  %71 = load ptr addrspace(1), ptr %4, align 8
  %72 = load i32, ptr %8, align 4
  %73 = sub nsw i32 %72, 1
  %74 = load i32, ptr %6, align 4
  %75 = mul nsw i32 %73, %74
  %76 = load i32, ptr %7, align 4
  %77 = add nsw i32 %75, %76
  %78 = sext i32 %77 to i64
  %79 = getelementptr inbounds float, ptr addrspace(1) %71, i64 %78
  %80 = load float, ptr addrspace(1) %79, align 4
  %81 = fadd float %70, %80
  %82 = fmul float 0x3FC99999A0000000, %81
  %83 = load ptr addrspace(1), ptr %5, align 8
  %84 = load i32, ptr %8, align 4
  %85 = load i32, ptr %6, align 4
  %86 = mul nsw i32 %84, %85
  %87 = load i32, ptr %7, align 4
  %88 = add nsw i32 %86, %87
  %89 = sext i32 %88 to i64
  %90 = getelementptr inbounds float, ptr addrspace(1) %83, i64 %89
  store float %82, ptr addrspace(1) %90, align 4
  br label %91

91:                                               ; preds = %28, %23, %20, %15, %3
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
!4 = !{i32 1, i32 1, i32 0}
!5 = !{!"none", !"none", !"none"}
!6 = !{!"float*", !"float*", !"int"}
!7 = !{!"const", !"", !""}
!8 = !{!"A", !"B", !"n"}
