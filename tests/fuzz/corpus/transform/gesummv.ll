; ModuleID = 'tests/transform/corpus/gesummv.cl'
source_filename = "tests/transform/corpus/gesummv.cl"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: convergent noinline norecurse nounwind
define dso_local spir_kernel void @gesummv(ptr addrspace(1) noundef align 4 %0, ptr addrspace(1) noundef align 4 %1, ptr addrspace(1) noundef align 4 %2, ptr addrspace(1) noundef align 4 %3, ptr addrspace(1) noundef align 4 %4, float noundef %5, float noundef %6, i32 noundef %7) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %9 = alloca ptr addrspace(1), align 8
  %10 = alloca ptr addrspace(1), align 8
  %11 = alloca ptr addrspace(1), align 8
  %12 = alloca ptr addrspace(1), align 8
  %13 = alloca ptr addrspace(1), align 8
  %14 = alloca float, align 4
  %15 = alloca float, align 4
  %16 = alloca i32, align 4
  %17 = alloca i32, align 4
  %18 = alloca float, align 4
  %19 = alloca float, align 4
  %20 = alloca i32, align 4
  store ptr addrspace(1) %0, ptr %9, align 8
  store ptr addrspace(1) %1, ptr %10, align 8
  store ptr addrspace(1) %2, ptr %11, align 8
  store ptr addrspace(1) %3, ptr %12, align 8
  store ptr addrspace(1) %4, ptr %13, align 8
  store float %5, ptr %14, align 4
  store float %6, ptr %15, align 4
  store i32 %7, ptr %16, align 4
  %21 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #3
  %22 = trunc i64 %21 to i32
  store i32 %22, ptr %17, align 4
  %23 = load i32, ptr %17, align 4
  %24 = load i32, ptr %16, align 4
  %25 = icmp slt i32 %23, %24
  br i1 %25, label %26, label %83

26:                                               ; preds = %8
  store float 0.000000e+00, ptr %18, align 4
  store float 0.000000e+00, ptr %19, align 4
  store i32 0, ptr %20, align 4
  br label %27

27:                                               ; preds = %64, %26
  %28 = load i32, ptr %20, align 4
  %29 = load i32, ptr %16, align 4
  %30 = icmp slt i32 %28, %29
  br i1 %30, label %31, label %67

31:                                               ; preds = %27
  %32 = load ptr addrspace(1), ptr %9, align 8
  %33 = load i32, ptr %17, align 4
  %34 = load i32, ptr %16, align 4
  %35 = mul nsw i32 %33, %34
  %36 = load i32, ptr %20, align 4
  %37 = add nsw i32 %35, %36
  %38 = sext i32 %37 to i64
  %39 = getelementptr inbounds float, ptr addrspace(1) %32, i64 %38
  %40 = load float, ptr addrspace(1) %39, align 4
  %41 = load ptr addrspace(1), ptr %11, align 8
  %42 = load i32, ptr %20, align 4
  %43 = sext i32 %42 to i64
  %44 = getelementptr inbounds float, ptr addrspace(1) %41, i64 %43
  %45 = load float, ptr addrspace(1) %44, align 4
  %46 = load float, ptr %18, align 4
  %47 = call float @llvm.fmuladd.f32(float %40, float %45, float %46)
  store float %47, ptr %18, align 4
  %48 = load ptr addrspace(1), ptr %10, align 8
  %49 = load i32, ptr %17, align 4
  %50 = load i32, ptr %16, align 4
  %51 = mul nsw i32 %49, %50
  %52 = load i32, ptr %20, align 4
  %53 = add nsw i32 %51, %52
  %54 = sext i32 %53 to i64
  %55 = getelementptr inbounds float, ptr addrspace(1) %48, i64 %54
  %56 = load float, ptr addrspace(1) %55, align 4
  %57 = load ptr addrspace(1), ptr %11, align 8
  %58 = load i32, ptr %20, align 4
  %59 = sext i32 %58 to i64
  %60 = getelementptr inbounds float, ptr addrspace(1) %57, i64 %59
  %61 = load float, ptr addrspace(1) %60, align 4
  %62 = load float, ptr %19, align 4
  %63 = call float @llvm.fmuladd.f32(float %56, float %61, float %62)
  store float %63, ptr %19, align 4
  br label %64

64:                                               ; preds = %31
  %65 = load i32, ptr %20, align 4
  %66 = add nsw i32 %65, 1
  store i32 %66, ptr %20, align 4
  br label %27

67:                                               ; preds = %27
  %68 = load float, ptr %18, align 4
  %69 = load ptr addrspace(1), ptr %13, align 8
  %70 = load i32, ptr %17, align 4
  %71 = sext i32 %70 to i64
  %72 = getelementptr inbounds float, ptr addrspace(1) %69, i64 %71
  store float %68, ptr addrspace(1) %72, align 4
  %73 = load float, ptr %14, align 4
  %74 = load float, ptr %18, align 4
  %75 = load float, ptr %15, align 4
  %76 = load float, ptr %19, align 4
  %77 = fmul float %75, %76
  %78 = call float @llvm.fmuladd.f32(float %73, float %74, float %77)
  %79 = load ptr addrspace(1), ptr %12, align 8
  %80 = load i32, ptr %17, align 4
  %81 = sext i32 %80 to i64
  %82 = getelementptr inbounds float, ptr addrspace(1) %79, i64 %81
  store float %78, ptr addrspace(1) %82, align 4
  br label %83

83:                                               ; preds = %67, %8
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
!4 = !{i32 1, i32 1, i32 1, i32 1, i32 1, i32 0, i32 0, i32 0}
!5 = !{!"none", !"none", !"none", !"none", !"none", !"none", !"none", !"none"}
!6 = !{!"float*", !"float*", !"float*", !"float*", !"float*", !"float", !"float", !"int"}
!7 = !{!"const", !"const", !"const", !"", !"", !"", !"", !""}
!8 = !{!"A", !"B", !"x", !"y", !"tmp", !"alpha", !"beta", !"n"}
