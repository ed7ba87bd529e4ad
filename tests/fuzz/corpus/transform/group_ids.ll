; ModuleID = 'tests/transform/corpus/group_ids.cl'
source_filename = "tests/transform/corpus/group_ids.cl"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: convergent noinline norecurse nounwind
define dso_local spir_kernel void @ids(ptr addrspace(1) noundef align 4 %0, i32 noundef %1) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %3 = alloca ptr addrspace(1), align 8
  %4 = alloca i32, align 4
  %5 = alloca i64, align 8
  %6 = alloca ptr addrspace(1), align 8
  store ptr addrspace(1) %0, ptr %3, align 8
  store i32 %1, ptr %4, align 4
  %7 = call spir_func i64 @_Z13get_global_idj(i32 noundef 1) #2
  %8 = call spir_func i64 @_Z17get_global_offsetj(i32 noundef 1) #2
  %9 = sub i64 %7, %8
  %10 = call spir_func i64 @_Z15get_global_sizej(i32 noundef 0) #2
  %11 = mul i64 %9, %10
  %12 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #2
  %13 = call spir_func i64 @_Z17get_global_offsetj(i32 noundef 0) #2
  %14 = sub i64 %12, %13
  %15 = add i64 %11, %14
  store i64 %15, ptr %5, align 8
  %16 = load ptr addrspace(1), ptr %3, align 8
  %17 = load i64, ptr %5, align 8
  %18 = mul i64 %17, 14
  %19 = getelementptr inbounds i32, ptr addrspace(1) %16, i64 %18
  store ptr addrspace(1) %19, ptr %6, align 8
  %20 = call spir_func i64 @_Z12get_group_idj(i32 noundef 0) #2
  %21 = trunc i64 %20 to i32
  %22 = load ptr addrspace(1), ptr %6, align 8
  %23 = getelementptr inbounds i32, ptr addrspace(1) %22, i64 0
  store i32 %21, ptr addrspace(1) %23, align 4
  %24 = call spir_func i64 @_Z12get_group_idj(i32 noundef 1) #2
  %25 = trunc i64 %24 to i32
  %26 = load ptr addrspace(1), ptr %6, align 8
  %27 = getelementptr inbounds i32, ptr addrspace(1) %26, i64 1
  store i32 %25, ptr addrspace(1) %27, align 4
  %28 = call spir_func i64 @_Z14get_num_groupsj(i32 noundef 0) #2
  %29 = trunc i64 %28 to i32
  %30 = load ptr addrspace(1), ptr %6, align 8
  %31 = getelementptr inbounds i32, ptr addrspace(1) %30, i64 2
  store i32 %29, ptr addrspace(1) %31, align 4
  %32 = call spir_func i64 @_Z14get_num_groupsj(i32 noundef 1) #2
  %33 = trunc i64 %32 to i32
  %34 = load ptr addrspace(1), ptr %6, align 8
  %35 = getelementptr inbounds i32, ptr addrspace(1) %34, i64 3
  store i32 %33, ptr addrspace(1) %35, align 4
  %36 = call spir_func i64 @_Z17get_global_offsetj(i32 noundef 0) #2
  %37 = trunc i64 %36 to i32
  %38 = load ptr addrspace(1), ptr %6, align 8
  %39 = getelementptr inbounds i32, ptr addrspace(1) %38, i64 4
  store i32 %37, ptr addrspace(1) %39, align 4
  %40 = call spir_func i64 @_Z17get_global_offsetj(i32 noundef 1) #2
  %41 = trunc i64 %40 to i32
  %42 = load ptr addrspace(1), ptr %6, align 8
  %43 = getelementptr inbounds i32, ptr addrspace(1) %42, i64 5
  store i32 %41, ptr addrspace(1) %43, align 4
  %44 = call spir_func i64 @_Z12get_local_idj(i32 noundef 0) #2
  %45 = call spir_func i64 @_Z12get_local_idj(i32 noundef 1) #2
  %46 = mul i64 10, %45
  %47 = add i64 %44, %46
  %48 = trunc i64 %47 to i32
  %49 = load ptr addrspace(1), ptr %6, align 8
  %50 = getelementptr inbounds i32, ptr addrspace(1) %49, i64 6
  store i32 %48, ptr addrspace(1) %50, align 4
  %51 = call spir_func i32 @_Z12get_work_dimv() #2
  %52 = load ptr addrspace(1), ptr %6, align 8
  %53 = getelementptr inbounds i32, ptr addrspace(1) %52, i64 7
  store i32 %51, ptr addrspace(1) %53, align 4
  %54 = load i32, ptr %4, align 4
  %55 = call spir_func i64 @_Z12get_group_idj(i32 noundef %54) #2
  %56 = trunc i64 %55 to i32
  %57 = load ptr addrspace(1), ptr %6, align 8
  %58 = getelementptr inbounds i32, ptr addrspace(1) %57, i64 8
  store i32 %56, ptr addrspace(1) %58, align 4
  %59 = load i32, ptr %4, align 4
  %60 = add nsw i32 %59, 1
  %61 = call spir_func i64 @_Z14get_num_groupsj(i32 noundef %60) #2
  %62 = trunc i64 %61 to i32
  %63 = load ptr addrspace(1), ptr %6, align 8
  %64 = getelementptr inbounds i32, ptr addrspace(1) %63, i64 9
  store i32 %62, ptr addrspace(1) %64, align 4
  %65 = load i32, ptr %4, align 4
  %66 = call spir_func i64 @_Z15get_global_sizej(i32 noundef %65) #2
  %67 = trunc i64 %66 to i32
  %68 = load ptr addrspace(1), ptr %6, align 8
  %69 = getelementptr inbounds i32, ptr addrspace(1) %68, i64 10
  store i32 %67, ptr addrspace(1) %69, align 4
  %70 = load i32, ptr %4, align 4
  %71 = add nsw i32 %70, 1
  %72 = call spir_func i64 @_Z13get_global_idj(i32 noundef %71) #2
  %73 = trunc i64 %72 to i32
  %74 = load ptr addrspace(1), ptr %6, align 8
  %75 = getelementptr inbounds i32, ptr addrspace(1) %74, i64 11
  store i32 %73, ptr addrspace(1) %75, align 4
  %76 = load i64, ptr %5, align 8
  %77 = urem i64 %76, 3
  %78 = trunc i64 %77 to i32
  %79 = call spir_func i64 @_Z12get_group_idj(i32 noundef %78) #2
  %80 = trunc i64 %79 to i32
  %81 = load ptr addrspace(1), ptr %6, align 8
  %82 = getelementptr inbounds i32, ptr addrspace(1) %81, i64 12
  store i32 %80, ptr addrspace(1) %82, align 4
  %83 = load i32, ptr %4, align 4
  %84 = sub nsw i32 %83, 1
  %85 = call spir_func i64 @_Z17get_global_offsetj(i32 noundef %84) #2
  %86 = trunc i64 %85 to i32
  %87 = load ptr addrspace(1), ptr %6, align 8
  %88 = getelementptr inbounds i32, ptr addrspace(1) %87, i64 13
  store i32 %86, ptr addrspace(1) %88, align 4
  ret void
}

; Function Attrs: convergent nounwind readnone willreturn
declare dso_local spir_func i64 @_Z13get_global_idj(i32 noundef) #1

; Function Attrs: convergent nounwind readnone willreturn
declare dso_local spir_func i64 @_Z17get_global_offsetj(i32 noundef) #1

; Function Attrs: convergent nounwind readnone willreturn
declare dso_local spir_func i64 @_Z15get_global_sizej(i32 noundef) #1

; Function Attrs: convergent nounwind readnone willreturn
declare dso_local spir_func i64 @_Z12get_group_idj(i32 noundef) #1

; Function Attrs: convergent nounwind readnone willreturn
declare dso_local spir_func i64 @_Z14get_num_groupsj(i32 noundef) #1

; Function Attrs: convergent nounwind readnone willreturn
declare dso_local spir_func i64 @_Z12get_local_idj(i32 noundef) #1

; Function Attrs: convergent nounwind readnone willreturn
declare dso_local spir_func i32 @_Z12get_work_dimv() #1

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
!6 = !{!"uint*", !"int"}
!7 = !{!"", !""}
!8 = !{!"out", !"extra_dim"}
