; ModuleID = 'tests/transform/corpus/gemm.cl'
source_filename = "tests/transform/corpus/gemm.cl"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: convergent noinline norecurse nounwind
define dso_local spir_kernel void @gemm(ptr addrspace(1) noundef align 4 %0, ptr addrspace(1) noundef align 4 %1, ptr addrspace(1) noundef align 4 %2, float noundef %3, float noundef %4, i32 noundef %5, i32 noundef %6, i32 noundef %7) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %9 = alloca ptr addrspace(1), align 8
  %10 = alloca ptr addrspace(1), align 8
  %11 = alloca ptr addrspace(1), align 8
  %12 = alloca float, align 4
  %13 = alloca float, align 4
  %14 = alloca i32, align 4
  %15 = alloca i32, align 4
  %16 = alloca i32, align 4
  %17 = alloca i32, align 4
  %18 = alloca i32, align 4
  %19 = alloca float, align 4
  %20 = alloca i32, align 4
  store ptr addrspace(1) %0, ptr %9, align 8
  store ptr addrspace(1) %1, ptr %10, align 8
  store ptr addrspace(1) %2, ptr %11, align 8
  store float %3, ptr %12, align 4
  store float %4, ptr %13, align 4
  store i32 %5, ptr %14, align 4
  store i32 %6, ptr %15, align 4
  store i32 %7, ptr %16, align 4
  %21 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #3
  %22 = trunc i64 %21 to i32
  store i32 %22, ptr %17, align 4
  %23 = call spir_func i64 @_Z13get_global_idj(i32 noundef 1) #3
  %24 = trunc i64 %23 to i32
  store i32 %24, ptr %18, align 4
  %25 = load i32, ptr %18, align 4
  %26 = load i32, ptr %14, align 4
  %27 = icmp slt i32 %25, %26
  br i1 %27, label %28, label %84

28:                                               ; preds = %8
  %29 = load i32, ptr %17, align 4
  %30 = load i32, ptr %15, align 4
  %31 = icmp slt i32 %29, %30
  br i1 %31, label %32, label %84

32:                                               ; preds = %28
  %33 = load ptr addrspace(1), ptr %11, align 8
  %34 = load i32, ptr %18, align 4
  %35 = load i32, ptr %15, align 4
  %36 = mul nsw i32 %34, %35
  %37 = load i32, ptr %17, align 4
  %38 = add nsw i32 %36, %37
  %39 = sext i32 %38 to i64
  %40 = getelementptr inbounds float, ptr addrspace(1) %33, i64 %39
  %41 = load float, ptr addrspace(1) %40, align 4
  %42 = load float, ptr %13, align 4
  %43 = fmul float %41, %42
  store float %43, ptr %19, align 4
  store i32 0, ptr %20, align 4
  br label %44

44:                                               ; preds = %71, %32
  %45 = load i32, ptr %20, align 4
  %46 = load i32, ptr %16, align 4
  %47 = icmp slt i32 %45, %46
  br i1 %47, label %48, label %74

48:                                               ; preds = %44
  %49 = load float, ptr %12, align 4
  %50 = load ptr addrspace(1), ptr %9, align 8
  %51 = load i32, ptr %18, align 4
  %52 = load i32, ptr %16, align 4
  %53 = mul nsw i32 %51, %52
  %54 = load i32, ptr %20, align 4
  %55 = add nsw i32 %53, %54
  %56 = sext i32 %55 to i64
  %57 = getelementptr inbounds float, ptr addrspace(1) %50, i64 %56
  %58 = load float, ptr addrspace(1) %57, align 4
  %59 = fmul float %49, %58
  %60 = load ptr addrspace(1), ptr %10, align 8
  %61 = load i32, ptr %20, align 4
  %62 = load i32, ptr %15, align 4
  %63 = mul nsw i32 %61, %62
  %64 = load i32, ptr %17, align 4
  %65 = add nsw i32 %63, %64
  %66 = sext i32 %65 to i64
  %67 = getelementptr inbounds float, ptr addrspace(1) %60, i64 %66
  %68 = load float, ptr addrspace(1) %67, align 4
  %69 = load float, ptr %19, align 4
  %70 = call float @llvm.fmuladd.f32(float %59, float %68, float %69)
  store float %70, ptr %19, align 4
  br label %71

71:                                               ; preds = %48
  %72 = load i32, ptr %20, align 4
  %73 = add nsw i32 %72, 1
  store i32 %73, ptr %20, align 4
  br label %44

74:                                               ; preds = %44
  %75 = load float, ptr %19, align 4
  %76 = load ptr addrspace(1), ptr %11, align 8
  %77 = load i32, ptr %18, align 4
  %78 = load i32, ptr %15, align 4
  %79 = mul nsw i32 %77, %78
  %80 = load i32, ptr %17, align 4
  %81 = add nsw i32 %79, %80
  %82 = sext i32 %81 to i64
  %83 = getelementptr inbounds float, ptr addrspace(1) %76, i64 %82
  store float %75, ptr addrspace(1) %83, align 4
  br label %84

84:                                               ; preds = %74, %28, %8
  ret void
}

; Function Attrs: convergent nounwind readnone willreturn
declare dso_local spir_func i64 @_Z13get_global_idj(i32 noundef) #1

; Function Attrs: nocallback nofree nosync nounwind readnone speculatable willreturn
declare float @llvm.fmuladd.f32(float, float, float) #2

attributes #0 = { convergent noinline norecurse nounwind "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="true" }
attributes #1 = { convergent nounwind readnone willreturn "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #2 = { nocallback nofree nosync nounwind readnone speculatable willreturn }
attributes #3 = { convergent nounwind readnone willreturn }

!llvm.module.flags = !{!0, !1}
!opencl.ocl.version = !{!2}
!opencl.spir.version = !{!2}
!llvm.ident = !{!3}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 7, !"frame-pointer", i32 2}
!2 = !{i32 1, i32 2}
!3 = !{!"Debian clang version 15.0.6"}
!4 = !{i32 1, i32 1, i32 1, i32 0, i32 0, i32 0, i32 0, i32 0}
!5 = !{!"none", !"none", !"none", !"none", !"none", !"none", !"none", !"none"}
!6 = !{!"float*", !"float*", !"float*", !"float", !"float", !"int", !"int", !"int"}
!7 = !{!"const", !"const", !"", !"", !"", !"", !"", !""}
!8 = !{!"A", !"B", !"C", !"alpha", !"beta", !"ni", !"nj", !"nk"}
