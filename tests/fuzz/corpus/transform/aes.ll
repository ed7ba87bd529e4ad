; ModuleID = 'tests/transform/corpus/aes.cl'
source_filename = "tests/transform/corpus/aes.cl"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

@aes_encrypt.key = internal addrspace(3) global [176 x i8] undef, align 1

; Function Attrs: convergent noinline norecurse nounwind
define dso_local spir_kernel void @aes_encrypt(ptr addrspace(1) noundef align 1 %0, ptr addrspace(1) noundef align 1 %1, ptr addrspace(2) noundef align 1 %2, ptr addrspace(1) noundef align 1 %3) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
  %5 = alloca ptr addrspace(1), align 8
  %6 = alloca ptr addrspace(1), align 8
  %7 = alloca ptr addrspace(2), align 8
  %8 = alloca ptr addrspace(1), align 8
  %9 = alloca i64, align 8
  %10 = alloca i64, align 8
  %11 = alloca i64, align 8
  %12 = alloca [4 x <4 x i8>], align 4
  %13 = alloca i32, align 4
  %14 = alloca i32, align 4
  %15 = alloca i32, align 4
  %16 = alloca <4 x i8>, align 4
  %17 = alloca <4 x i8>, align 4
  %18 = alloca i32, align 4
  store ptr addrspace(1) %0, ptr %5, align 8
  store ptr addrspace(1) %1, ptr %6, align 8
  store ptr addrspace(2) %2, ptr %7, align 8
  store ptr addrspace(1) %3, ptr %8, align 8
  %19 = call spir_func i64 @_Z12get_local_idj(i32 noundef 0) #4
  store i64 %19, ptr %9, align 8
  %20 = load i64, ptr %9, align 8
  store i64 %20, ptr %10, align 8
  br label %21

21:                                               ; preds = %31, %4
  %22 = load i64, ptr %10, align 8
  %23 = icmp ult i64 %22, 176
  br i1 %23, label %24, label %35

24:                                               ; preds = %21
  %25 = load ptr addrspace(1), ptr %8, align 8
  %26 = load i64, ptr %10, align 8
  %27 = getelementptr inbounds i8, ptr addrspace(1) %25, i64 %26
  %28 = load i8, ptr addrspace(1) %27, align 1
  %29 = load i64, ptr %10, align 8
  %30 = getelementptr inbounds [176 x i8], ptr addrspace(3) @aes_encrypt.key, i64 0, i64 %29
  store i8 %28, ptr addrspace(3) %30, align 1
  br label %31

31:                                               ; preds = %24
  %32 = call spir_func i64 @_Z14get_local_sizej(i32 noundef 0) #4
  %33 = load i64, ptr %10, align 8
  %34 = add i64 %33, %32
  store i64 %34, ptr %10, align 8
  br label %21

35:                                               ; preds = %21
  call spir_func void @_Z7barrierj(i32 noundef 1) #5
  %36 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #4
  store i64 %36, ptr %11, align 8
  store i32 0, ptr %13, align 4
  br label %37

37:                                               ; preds = %55, %35
  %38 = load i32, ptr %13, align 4
  %39 = icmp slt i32 %38, 4
  br i1 %39, label %40, label %58

40:                                               ; preds = %37
  %41 = load i64, ptr %11, align 8
  %42 = mul i64 %41, 4
  %43 = load i32, ptr %13, align 4
  %44 = sext i32 %43 to i64
  %45 = add i64 %42, %44
  %46 = load ptr addrspace(1), ptr %5, align 8
  %47 = call spir_func <4 x i8> @_Z6vload4mPU3AS1Kh(i64 noundef %45, ptr addrspace(1) noundef %46) #6
  %48 = load i32, ptr %13, align 4
  %49 = sext i32 %48 to i64
  %50 = call spir_func <4 x i8> @_Z6vload4mPU3AS3Kh(i64 noundef %49, ptr addrspace(3) noundef @aes_encrypt.key) #6
  %51 = xor <4 x i8> %47, %50
  %52 = load i32, ptr %13, align 4
  %53 = sext i32 %52 to i64
  %54 = getelementptr inbounds [4 x <4 x i8>], ptr %12, i64 0, i64 %53
  store <4 x i8> %51, ptr %54, align 4
  br label %55

55:                                               ; preds = %40
  %56 = load i32, ptr %13, align 4
  %57 = add nsw i32 %56, 1
  store i32 %57, ptr %13, align 4
  br label %37

58:                                               ; preds = %37
  store i32 1, ptr %14, align 4
  br label %59

59:                                               ; preds = %129, %58
  %60 = load i32, ptr %14, align 4
  %61 = icmp slt i32 %60, 10
  br i1 %61, label %62, label %132

62:                                               ; preds = %59
  store i32 0, ptr %15, align 4
  br label %63

63:                                               ; preds = %125, %62
  %64 = load i32, ptr %15, align 4
  %65 = icmp slt i32 %64, 4
  br i1 %65, label %66, label %128

66:                                               ; preds = %63
  %67 = load ptr addrspace(2), ptr %7, align 8
  %68 = load i32, ptr %15, align 4
  %69 = sext i32 %68 to i64
  %70 = getelementptr inbounds [4 x <4 x i8>], ptr %12, i64 0, i64 %69
  %71 = load <4 x i8>, ptr %70, align 4
  %72 = extractelement <4 x i8> %71, i64 0
  %73 = zext i8 %72 to i64
  %74 = getelementptr inbounds i8, ptr addrspace(2) %67, i64 %73
  %75 = load i8, ptr addrspace(2) %74, align 1
  %76 = insertelement <4 x i8> undef, i8 %75, i32 0
  %77 = load ptr addrspace(2), ptr %7, align 8
  %78 = load i32, ptr %15, align 4
  %79 = add nsw i32 %78, 1
  %80 = srem i32 %79, 4
  %81 = sext i32 %80 to i64
  %82 = getelementptr inbounds [4 x <4 x i8>], ptr %12, i64 0, i64 %81
  %83 = load <4 x i8>, ptr %82, align 4
  %84 = extractelement <4 x i8> %83, i64 1
  %85 = zext i8 %84 to i64
  %86 = getelementptr inbounds i8, ptr addrspace(2) %77, i64 %85
  %87 = load i8, ptr addrspace(2) %86, align 1
  %88 = insertelement <4 x i8> %76, i8 %87, i32 1
  %89 = load ptr addrspace(2), ptr %7, align 8
  %90 = load i32, ptr %15, align 4
  %91 = add nsw i32 %90, 2
  %92 = srem i32 %91, 4
  %93 = sext i32 %92 to i64
  %94 = getelementptr inbounds [4 x <4 x i8>], ptr %12, i64 0, i64 %93
  %95 = load <4 x i8>, ptr %94, align 4
  %96 = extractelement <4 x i8> %95, i64 2
  %97 = zext i8 %96 to i64
  %98 = getelementptr inbounds i8, ptr addrspace(2) %89, i64 %97
  %99 = load i8, ptr addrspace(2) %98, align 1
  %100 = insertelement <4 x i8> %88, i8 %99, i32 2
  %101 = load ptr addrspace(2), ptr %7, align 8
  %102 = load i32, ptr %15, align 4
  %103 = add nsw i32 %102, 3
  %104 = srem i32 %103, 4
  %105 = sext i32 %104 to i64
  %106 = getelementptr inbounds [4 x <4 x i8>], ptr %12, i64 0, i64 %105
  %107 = load <4 x i8>, ptr %106, align 4
  %108 = extractelement <4 x i8> %107, i64 3
  %109 = zext i8 %108 to i64
  %110 = getelementptr inbounds i8, ptr addrspace(2) %101, i64 %109
  %111 = load i8, ptr addrspace(2) %110, align 1
  %112 = insertelement <4 x i8> %100, i8 %111, i32 3
  store <4 x i8> %112, ptr %17, align 4
  %113 = load <4 x i8>, ptr %17, align 4
  store <4 x i8> %113, ptr %16, align 4
  %114 = load <4 x i8>, ptr %16, align 4
  %115 = load i32, ptr %14, align 4
  %116 = mul nsw i32 %115, 4
  %117 = load i32, ptr %15, align 4
  %118 = add nsw i32 %116, %117
  %119 = sext i32 %118 to i64
  %120 = call spir_func <4 x i8> @_Z6vload4mPU3AS3Kh(i64 noundef %119, ptr addrspace(3) noundef @aes_encrypt.key) #6
  %121 = xor <4 x i8> %114, %120
  %122 = load i32, ptr %15, align 4
  %123 = sext i32 %122 to i64
  %124 = getelementptr inbounds [4 x <4 x i8>], ptr %12, i64 0, i64 %123
  store <4 x i8> %121, ptr %124, align 4
  br label %125

125:                                              ; preds = %66
  %126 = load i32, ptr %15, align 4
  %127 = add nsw i32 %126, 1
  store i32 %127, ptr %15, align 4
  br label %63

128:                                              ; preds = %63
  br label %129

129:                                              ; preds = %128
  %130 = load i32, ptr %14, align 4
  %131 = add nsw i32 %130, 1
  store i32 %131, ptr %14, align 4
  br label %59

132:                                              ; preds = %59
  store i32 0, ptr %18, align 4
  br label %133

133:                                              ; preds = %147, %132
  %134 = load i32, ptr %18, align 4
  %135 = icmp slt i32 %134, 4
  br i1 %135, label %136, label %150

136:                                              ; preds = %133
  %137 = load i32, ptr %18, align 4
  %138 = sext i32 %137 to i64
  %139 = getelementptr inbounds [4 x <4 x i8>], ptr %12, i64 0, i64 %138
  %140 = load <4 x i8>, ptr %139, align 4
  %141 = load i64, ptr %11, align 8
  %142 = mul i64 %141, 4
  %143 = load i32, ptr %18, align 4
  %144 = sext i32 %143 to i64
  %145 = add i64 %142, %144
  %146 = load ptr addrspace(1), ptr %6, align 8
  call spir_func void @_Z7vstore4Dv4_hmPU3AS1h(<4 x i8> noundef %140, i64 noundef %145, ptr addrspace(1) noundef %146) #5
  br label %147

147:                                              ; preds = %136
  %148 = load i32, ptr %18, align 4
  %149 = add nsw i32 %148, 1
  store i32 %149, ptr %18, align 4
  br label %133

150:                                              ; preds = %133
  ret void
}

; Function Attrs: convergent nounwind readnone willreturn
declare dso_local spir_func i64 @_Z12get_local_idj(i32 noundef) #1

; Function Attrs: convergent nounwind readnone willreturn
declare dso_local spir_func i64 @_Z14get_local_sizej(i32 noundef) #1

; Function Attrs: convergent
declare dso_local spir_func void @_Z7barrierj(i32 noundef) #2

; Function Attrs: convergent nounwind readnone willreturn
declare dso_local spir_func i64 @_Z13get_global_idj(i32 noundef) #1

; Function Attrs: convergent nounwind readonly willreturn
declare dso_local spir_func <4 x i8> @_Z6vload4mPU3AS1Kh(i64 noundef, ptr addrspace(1) noundef) #3

; Function Attrs: convergent nounwind readonly willreturn
declare dso_local spir_func <4 x i8> @_Z6vload4mPU3AS3Kh(i64 noundef, ptr addrspace(3) noundef) #3

; Function Attrs: convergent
declare dso_local spir_func void @_Z7vstore4Dv4_hmPU3AS1h(<4 x i8> noundef, i64 noundef, ptr addrspace(1) noundef) #2

attributes #0 = { convergent noinline norecurse nounwind "frame-pointer"="all" "min-legal-vector-width"="32" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="true" }
attributes #1 = { convergent nounwind readnone willreturn "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #2 = { convergent "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #3 = { convergent nounwind readonly willreturn "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #4 = { convergent nounwind readnone willreturn }
attributes #5 = { convergent }
attributes #6 = { convergent nounwind readonly willreturn }

!llvm.module.flags = !{!0, !1}
!opencl.ocl.version = !{!2}
!opencl.spir.version = !{!2}
!llvm.ident = !{!3}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 7, !"frame-pointer", i32 2}
!2 = !{i32 1, i32 2}
!3 = !{!"Debian clang version 15.0.6"}
!4 = !{i32 1, i32 1, i32 2, i32 1}
!5 = !{!"none", !"none", !"none", !"none"}
!6 = !{!"uchar*", !"uchar*", !"uchar*", !"uchar*"}
!7 = !{!"const", !"", !"const", !"const"}
!8 = !{!"in", !"out", !"sbox", !"keys"}
