; ModuleID = 'tests/transform/corpus/grid_3d.cl'
source_filename = "tests/transform/corpus/grid_3d.cl"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: convergent noinline norecurse nounwind
define dso_local spir_kernel void @fill3d(ptr addrspace(1) noundef align 4 %0) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %2 = alloca ptr addrspace(1), align 8
  %3 = alloca i64, align 8
  %4 = alloca i64, align 8
  %5 = alloca i64, align 8
  %6 = alloca i64, align 8
  %7 = alloca i64, align 8
  store ptr addrspace(1) %0, ptr %2, align 8
  %8 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #2
  %9 = call spir_func i64 @_Z17get_global_offsetj(i32 noundef 0) #2
  %10 = sub i64 %8, %9
  store i64 %10, ptr %3, align 8
  %11 = call spir_func i64 @_Z13get_global_idj(i32 noundef 1) #2
  %12 = call spir_func i64 @_Z17get_global_offsetj(i32 noundef 1) #2
  %13 = sub i64 %11, %12
  store i64 %13, ptr %4, align 8
  %14 = call spir_func i64 @_Z13get_global_idj(i32 noundef 2) #2
  %15 = call spir_func i64 @_Z17get_global_offsetj(i32 noundef 2) #2
  %16 = sub i64 %14, %15
  store i64 %16, ptr %5, align 8
  %17 = call spir_func i64 @_Z15get_global_sizej(i32 noundef 0) #2
  store i64 %17, ptr %6, align 8
  %18 = call spir_func i64 @_Z15get_global_sizej(i32 noundef 1) #2
  store i64 %18, ptr %7, align 8
  %19 = load i64, ptr %3, align 8
  %20 = load i64, ptr %4, align 8
  %21 = mul i64 100, %20
  %22 = add i64 %19, %21
  %23 = load i64, ptr %5, align 8
  %24 = mul i64 10000, %23
  %25 = add i64 %22, %24
  %26 = trunc i64 %25 to i32
  %27 = load ptr addrspace(1), ptr %2, align 8
  %28 = load i64, ptr %5, align 8
  %29 = load i64, ptr %7, align 8
  %30 = mul i64 %28, %29
  %31 = load i64, ptr %4, align 8
  %32 = add i64 %30, %31
  %33 = load i64, ptr %6, align 8
  %34 = mul i64 %32, %33
  %35 = load i64, ptr %3, align 8
  %36 = add i64 %34, %35
  %37 = getelementptr inbounds i32, ptr addrspace(1) %27, i64 %36
  store i32 %26, ptr addrspace(1) %37, align 4
  ret void
}

; Function Attrs: convergent nounwind readnone willreturn
declare dso_local spir_func i64 @_Z13get_global_idj(i32 noundef) #1

; Function Attrs: convergent nounwind readnone willreturn
declare dso_local spir_func i64 @_Z17get_global_offsetj(i32 noundef) #1

; Function Attrs: convergent nounwind readnone willreturn
declare dso_local spir_func i64 @_Z15get_global_sizej(i32 noundef) #1

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
