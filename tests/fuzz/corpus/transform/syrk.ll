; ModuleID = 'tests/transform/corpus/syrk.cl'
source_filename = "tests/transform/corpus/syrk.cl"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: convergent noinline norecurse nounwind
define dso_local spir_kernel void @syrk(ptr addrspace(1) noundef align 4 %0, ptr addrspace(1) noundef align 4 %1, float noundef %2, float noundef %3, i32 noundef %4, i32 noundef %5) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %7 = alloca ptr addrspace(1), align 8
  %8 = alloca ptr addrspace(1), align 8
  %9 = alloca float, align 4
  %10 = alloca float, align 4
  %11 = alloca i32, align 4
  %12 = alloca i32, align 4
  %13 = alloca i32, align 4
  %14 = alloca i32, align 4
  %15 = alloca float, align 4
  %16 = alloca i32, align 4
  store ptr addrspace(1) %0, ptr %7, align 8
  store ptr addrspace(1) %1, ptr %8, align 8
  store float %2, ptr %9, align 4
  store float %3, ptr %10, align 4
  store i32 %4, ptr %11, align 4
  store i32 %5, ptr %12, align 4
  %17 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #3
  %18 = trunc i64 %17 to i32
  store i32 %18, ptr %13, align 4
  %19 = call spir_func i64 @_Z13get_global_idj(i32 noundef 1) #3
  %20 = trunc i64 %19 to i32
  store i32 %20, ptr %14, align 4
  %21 = load i32, ptr %14, align 4
  %22 = load i32, ptr %11, align 4
  %23 = icmp slt i32 %21, %22
  br i1 %23, label %24, label %80

24:                                               ; preds = %6
  %25 = load i32, ptr %13, align 4
  %26 = load i32, ptr %11, align 4
  %27 = icmp slt i32 %25, %26
  br i1 %27, label %28, label %80

28:                                               ; preds = %24
  %29 = load ptr addrspace(1), ptr %8, align 8
  %30 = load i32, ptr %14, align 4
  %31 = load i32, ptr %11, align 4
  %32 = mul nsw i32 %30, %31
  %33 = load i32, ptr %13, align 4
  %34 = add nsw i32 %32, %33
  %35 = sext i32 %34 to i64
  %36 = getelementptr inbounds float, ptr addrspace(1) %29, i64 %35
  %37 = load float, ptr addrspace(1) %36, align 4
  %38 = load float, ptr %10, align 4
  %39 = fmul float %37, %38
  store float %39, ptr %15, align 4
  store i32 0, ptr %16, align 4
  br label %40

40:                                               ; preds = %67, %28
  %41 = load i32, ptr %16, align 4
  %42 = load i32, ptr %12, align 4
  %43 = icmp slt i32 %41, %42
  br i1 %43, label %44, label %70

44:                                               ; preds = %40
  %45 = load float, ptr %9, align 4
  %46 = load ptr addrspace(1), ptr %7, align 8
  %47 = load i32, ptr %14, align 4
  %48 = load i32, ptr %12, align 4
  %49 = mul nsw i32 %47, %48
  %50 = load i32, ptr %16, align 4
  %51 = add nsw i32 %49, %50
  %52 = sext i32 %51 to i64
  %53 = getelementptr inbounds float, ptr addrspace(1) %46, i64 %52
  %54 = load float, ptr addrspace(1) %53, align 4
  %55 = fmul float %45, %54
  %56 = load ptr addrspace(1), ptr %7, align 8
  %57 = load i32, ptr %13, align 4
  %58 = load i32, ptr %12, align 4
  %59 = mul nsw i32 %57, %58
  %60 = load i32, ptr %16, align 4
  %61 = add nsw i32 %59, %60
  %62 = sext i32 %61 to i64
  %63 = getelementptr inbounds float, ptr addrspace(1) %56, i64 %62
  %64 = load float, ptr addrspace(1) %63, align 4
  %65 = load float, ptr %15, align 4
  %66 = call float @llvm.fmuladd.f32(float %55, float %64, float %65)
  store float %66, ptr %15, align 4
  br label %67

67:                                               ; preds = %44
  %68 = load i32, ptr %16, align 4
  %69 = add nsw i32 %68, 1
  store i32 %69, ptr %16, align 4
  br label %40

70:                                               ; preds = %40
  %71 = load float, ptr %15, align 4
  %72 = load ptr addrspace(1), ptr %8, align 8
  %73 = load i32, ptr %14, align 4
  %74 = load i32, ptr %11, align 4
  %75 = mul nsw i32 %73, %74
  %76 = load i32, ptr %13, align 4
  %77 = add nsw i32 %75, %76
  %78 = sext i32 %77 to i64
  %79 = getelementptr inbounds float, ptr addrspace(1) %72, i64 %78
  store float %71, ptr addrspace(1) %79, align 4
  br label %80

80:                                               ; preds = %70, %24, %6
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
!4 = !{i32 1, i32 1, i32 0, i32 0, i32 0, i32 0}
!5 = !{!"none", !"none", !"none", !"none", !"none", !"none"}
!6 = !{!"float*", !"float*", !"float", !"float", !"int", !"int"}
!7 = !{!"const", !"", !"", !"", !"", !""}
!8 = !{!"A", !"C", !"alpha", !"beta", !"n", !"m"}
