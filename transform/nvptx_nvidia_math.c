/* transform/nvptx_nvidia_math.c: float exp, log, pown and sqrt as NVIDIA's OpenCL compiler
 * emits them, instead of libclc's code (whose algorithms differ in the last bits).
 *
 * The sequences below are the instructions of NVIDIA's own PTX for these builtins (driver
 * 580, `clGetProgramInfo(CL_PROGRAM_BINARIES)` of the corpus kernels; docs/transform.md,
 * "NVPTX floating point", lists them per builtin), written as LLVM IR that the NVPTX back
 * end turns back into the same instructions: `llvm.fma` is fma.rn.f32, `llvm.trunc`
 * cvt.rzi.f32.f32; a plain fmul/fadd is mul.f32/add.f32, which the back end may contract
 * exactly where NVIDIA's compiler does; mul.rn.f32 and add.rn.f32 (never contracted) are
 * inline PTX, because LLVM turns its llvm.nvvm.mul.rn/add.rn intrinsics into plain,
 * contractible operations. Vector builtins are done one element at a time, as NVIDIA does.
 * Only the non-flushing forms are written: under -cl-denorms-are-zero the calls stay
 * libclc's. */
#include <stdio.h>
#include <string.h>

#include <llvm-c/IRReader.h>
#include <llvm-c/Linker.h>

#include "passes.h"

/* skmd_nv_NAMEf: what nvptx_math.c's table calls them (pown: "powi"). */
static const char nvidia_math_ir[] =
    "declare float @llvm.fma.f32(float, float, float)\n"
    "declare float @llvm.fabs.f32(float)\n"
    "declare float @llvm.trunc.f32(float)\n"
    "declare float @llvm.copysign.f32(float, float)\n"
    "declare float @llvm.nvvm.fma.rm.f(float, float, float)\n"
    "declare float @llvm.nvvm.saturate.f(float)\n"
    "declare float @llvm.nvvm.ex2.approx.ftz.f(float)\n"
    "declare float @llvm.nvvm.rcp.approx.ftz.f(float)\n"
    "\n"
    /* exp(a) = 2^j * 2^r, j = a*log2(e) rounded down (fma.rm into 12582913 + [0, 252]),
     * r = a*log2(e) - j in two parts; cvt.sat keeps j in range. */
    "define linkonce_odr float @skmd_nv_expf(float %a) #0 {\n"
    "  %t = call float @llvm.fma.f32(float %a, float 0x3F777313A0000000, float 5.0e-1)\n"
    "  %sat = call float @llvm.nvvm.saturate.f(float %t)\n"
    "  %j = call float @llvm.nvvm.fma.rm.f(float %sat, float 2.52e+02,"
    " float 0x4168000020000000)\n"
    "  %k = fadd float %j, 0xC168000FE0000000\n"
    "  %nk = fneg float %k\n"
    "  %r0 = call float @llvm.fma.f32(float %a, float 0x3FF7154760000000, float %nk)\n"
    "  %r = call float @llvm.fma.f32(float %a, float 0x3E54AE0C00000000, float %r0)\n"
    "  %jb = bitcast float %j to i32\n"
    "  %sb = shl i32 %jb, 23\n"
    "  %s = bitcast i32 %sb to float\n"
    "  %e = call float @llvm.nvvm.ex2.approx.ftz.f(float %r)\n"
    "  %res = fmul float %e, %s\n"
    "  ret float %res\n"
    "}\n"
    "\n"
    /* log(a) = e*log(2) + log(m), m in [2/3, 4/3), log(m) a polynomial in f = m - 1;
     * denormals scaled by 2^23 first; infinities and NaN through fma(a, inf, inf). */
    "define linkonce_odr float @skmd_nv_logf(float %a) #0 {\n"
    "  %tiny = fcmp olt float %a, 0x3810000000000000\n"
    "  %big = fmul float %a, 0x4160000000000000\n"
    "  %x = select i1 %tiny, float %big, float %a\n"
    "  %e0 = select i1 %tiny, float 0xC037000000000000, float 0.0\n"
    "  %ix = bitcast float %x to i32\n"
    "  %t = sub i32 %ix, 1059760811\n"
    "  %te = and i32 %t, -8388608\n"
    "  %im = sub i32 %ix, %te\n"
    "  %m = bitcast i32 %im to float\n"
    "  %fe = sitofp i32 %te to float\n"
    "  %e = call float @llvm.fma.f32(float %fe, float 0x3E80000000000000, float %e0)\n"
    "  %f = fadd float %m, -1.0\n"
    "  %q1 = call float @llvm.fma.f32(float 0xBFC0AA04E0000000, float %f,"
    " float 0x3FC2073EC0000000)\n"
    "  %q2 = call float @llvm.fma.f32(float %q1, float %f, float 0xBFBF19B980000000)\n"
    "  %q3 = call float @llvm.fma.f32(float %q2, float %f, float 0x3FC1E52AA0000000)\n"
    "  %q4 = call float @llvm.fma.f32(float %q3, float %f, float 0xBFC55B1720000000)\n"
    "  %q5 = call float @llvm.fma.f32(float %q4, float %f, float 0x3FC99DA160000000)\n"
    "  %q6 = call float @llvm.fma.f32(float %q5, float %f, float 0xBFCFFFE440000000)\n"
    "  %q7 = call float @llvm.fma.f32(float %q6, float %f, float 0x3FD5554F00000000)\n"
    "  %q8 = call float @llvm.fma.f32(float %q7, float %f, float -5.0e-1)\n"
    "  %q9 = fmul float %f, %q8\n"
    "  %r0 = call float @llvm.fma.f32(float %q9, float %f, float %f)\n"
    "  %r1 = call float @llvm.fma.f32(float %e, float 0x3FE62E4300000000, float %r0)\n"
    "  %special = icmp uge i32 %ix, 2139095040\n"
    "  %rs = call float @llvm.fma.f32(float %x, float 0x7FF0000000000000,"
    " float 0x7FF0000000000000)\n"
    "  %r2 = select i1 %special, float %rs, float %r1\n"
    "  %zero = fcmp oeq float %x, 0.0\n"
    "  %r = select i1 %zero, float 0xFFF0000000000000, float %r2\n"
    "  ret float %r\n"
    "}\n"
    "\n"
    /* |x|^b for a float b, given log|x| as a double-float (lh + ll): b*log|x| as a
     * double-float, exp of its high part (j = trunc(h*log2(e)) kept within +-126), scaled,
     * corrected by the low part; then the special values. */
    "define linkonce_odr float @skmd_nv_pow_core(float %x, float %b, float %lh,"
    " float %ll) #0 {\n"
    "  %ab = call float @llvm.fabs.f32(float %b)\n"
    "  %huge = fcmp ogt float %ab, 0x46FED09BE0000000\n"
    "  %bs = fmul float %b, 0x3F20000000000000\n"
    "  %b1 = select i1 %huge, float %bs, float %b\n"
    "  %ph = call float asm \"mul.rn.f32 $0, $1, $2;\", \"=f,f,f\"(float %b1, float %lh)\n"
    "  %nph = fneg float %ph\n"
    "  %e1 = call float @llvm.fma.f32(float %b1, float %lh, float %nph)\n"
    "  %e2 = call float @llvm.fma.f32(float %b1, float %ll, float %e1)\n"
    "  %e3 = call float @llvm.fma.f32(float 0.0, float %lh, float %e2)\n"
    "  %sh = call float asm \"add.rn.f32 $0, $1, $2;\", \"=f,f,f\"(float %ph, float %e3)\n"
    "  %nsh = fneg float %sh\n"
    "  %d = call float asm \"add.rn.f32 $0, $1, $2;\", \"=f,f,f\"(float %ph, float %nsh)\n"
    "  %sl = call float asm \"add.rn.f32 $0, $1, $2;\", \"=f,f,f\"(float %d, float %e3)\n"
    "  %shb = bitcast float %sh to i32\n"
    "  %ovf = icmp eq i32 %shb, 1118925336\n"
    "  %shmb = add i32 %shb, -1\n"
    "  %shm = bitcast i32 %shmb to float\n"
    "  %sla = fadd float %sl, 0x3EE0000000000000\n"
    "  %sl1 = select i1 %ovf, float %sla, float %sl\n"
    "  %sh1 = select i1 %ovf, float %shm, float %sh\n"
    "  %z = call float asm \"mul.rn.f32 $0, $1, $2;\", \"=f,f,f\"(float %sh1,"
    " float 0x3FF7154760000000)\n"
    "  %j0 = call float @llvm.trunc.f32(float %z)\n"
    "  %aj = call float @llvm.fabs.f32(float %j0)\n"
    "  %clamp = fcmp ogt float %aj, 1.26e+02\n"
    "  %j0b = bitcast float %j0 to i32\n"
    "  %jsign = and i32 %j0b, -2147483648\n"
    "  %jcb = or i32 %jsign, 1123811328\n"
    "  %jc = bitcast i32 %jcb to float\n"
    "  %j = select i1 %clamp, float %jc, float %j0\n"
    "  %r0 = call float @llvm.fma.f32(float %j, float 0xBFE62E4300000000, float %sh1)\n"
    "  %r1 = call float @llvm.fma.f32(float %j, float 0x3E205C6100000000, float %r0)\n"
    "  %r2 = fmul float %r1, 0x3FF7154760000000\n"
    "  %sc0 = fadd float %j, 0x4168000FE0000000\n"
    "  %sc0b = bitcast float %sc0 to i32\n"
    "  %scb = shl i32 %sc0b, 23\n"
    "  %sc = bitcast i32 %scb to float\n"
    "  %ex = call float @llvm.nvvm.ex2.approx.ftz.f(float %r2)\n"
    "  %t = fmul float %ex, %sc\n"
    "  %isinf = fcmp oeq float %t, 0x7FF0000000000000\n"
    "  %tf = call float @llvm.fma.f32(float %t, float %sl1, float %t)\n"
    "  %res0 = select i1 %isinf, float 0x7FF0000000000000, float %tf\n"
    /* a NaN: b + x; b infinite: inf or 0 as |x| > 1 and b > 0 agree (1 when |x| == 1);
     * x infinite: inf for b > 0, else 0; x zero: 0 for b > 0, else inf; b zero: 1. */
    "  %ax = call float @llvm.fabs.f32(float %x)\n"
    "  %sum = fadd float %ab, %ax\n"
    "  %sumb = bitcast float %sum to i32\n"
    "  %finite = icmp slt i32 %sumb, 2139095040\n"
    "  %nan = fcmp uno float %b, %x\n"
    "  %bx = fadd float %b, %x\n"
    "  %binf = fcmp oeq float %ab, 0x7FF0000000000000\n"
    "  %xgt1 = fcmp ogt float %ax, 1.0\n"
    "  %xeq1 = fcmp oeq float %ax, 1.0\n"
    "  %bpos = fcmp ogt float %b, 0.0\n"
    "  %agree = icmp eq i1 %xgt1, %bpos\n"
    "  %rbinf0 = select i1 %agree, float 0x7FF0000000000000, float 0.0\n"
    "  %rbinf = select i1 %xeq1, float 1.0, float %rbinf0\n"
    "  %rxinf = select i1 %bpos, float 0x7FF0000000000000, float 0.0\n"
    "  %rinf = select i1 %binf, float %rbinf, float %rxinf\n"
    "  %rspec = select i1 %nan, float %bx, float %rinf\n"
    "  %res1 = select i1 %finite, float %res0, float %rspec\n"
    "  %xzero = fcmp oeq float %x, 0.0\n"
    "  %rzero = select i1 %bpos, float 0.0, float 0x7FF0000000000000\n"
    "  %res2 = select i1 %xzero, float %rzero, float %res1\n"
    "  %bzero = fcmp oeq float %b, 0.0\n"
    "  %res = select i1 %bzero, float 1.0, float %res2\n"
    "  ret float %res\n"
    "}\n"
    "\n"
    /* pown(x, n): 1, x*x, x*x*x for n = 0, 2, 3; else |x|^lo * |x|^(hi*65536) with
     * n = hi*65536 + lo (each exact as a float), the sign of x for odd n. log|x| as a
     * double-float: m in [sqrt(2)/2, sqrt(2)), log(m) = 2 atanh((m-1)/(m+1)). */
    "define linkonce_odr float @skmd_nv_powif(float %x, i32 %n) #0 {\n"
    "entry:\n"
    "  switch i32 %n, label %general [ i32 0, label %one\n"
    "                                  i32 2, label %square\n"
    "                                  i32 3, label %cube ]\n"
    "one:\n"
    "  ret float 1.0\n"
    "square:\n"
    "  %s2 = call float asm \"mul.rn.f32 $0, $1, $2;\", \"=f,f,f\"(float %x, float %x)\n"
    "  ret float %s2\n"
    "cube:\n"
    "  %c2 = call float asm \"mul.rn.f32 $0, $1, $2;\", \"=f,f,f\"(float %x, float %x)\n"
    "  %c3 = call float asm \"mul.rn.f32 $0, $1, $2;\", \"=f,f,f\"(float %c2, float %x)\n"
    "  ret float %c3\n"
    "general:\n"
    "  %neg = icmp slt i32 %n, 0\n"
    "  %nn = sub i32 0, %n\n"
    "  %an = select i1 %neg, i32 %nn, i32 %n\n"
    "  %loi = and i32 %an, 65535\n"
    "  %hii = lshr i32 %an, 16\n"
    "  %lou = uitofp i32 %loi to float\n"
    "  %hiu = uitofp i32 %hii to float\n"
    "  %lon = fneg float %lou\n"
    "  %hin = fneg float %hiu\n"
    "  %lo = select i1 %neg, float %lon, float %lou\n"
    "  %hi = select i1 %neg, float %hin, float %hiu\n"
    "  %ax = call float @llvm.fabs.f32(float %x)\n"
    "  %ia0 = bitcast float %ax to i32\n"
    "  %ex0 = lshr i32 %ia0, 23\n"
    "  %den = icmp eq i32 %ex0, 0\n"
    "  %axs = fmul float %ax, 0x4170000000000000\n"
    "  %ax1 = select i1 %den, float %axs, float %ax\n"
    "  %ia1 = bitcast float %ax1 to i32\n"
    "  %ex1 = lshr i32 %ia1, 23\n"
    "  %exn = add i32 %ex1, -127\n"
    "  %exd = add i32 %ex1, -151\n"
    "  %exb = select i1 %den, i32 %exd, i32 %exn\n"
    "  %im0 = and i32 %ia1, 8388607\n"
    "  %im1 = or i32 %im0, 1065353216\n"
    "  %m0 = bitcast i32 %im1 to float\n"
    "  %mbig = icmp ugt i32 %im1, 1068827891\n"
    "  %mh = fmul float %m0, 5.0e-1\n"
    "  %m = select i1 %mbig, float %mh, float %m0\n"
    "  %exc = add i32 %exb, 1\n"
    "  %expo = select i1 %mbig, i32 %exc, i32 %exb\n"
    "  %f = fadd float %m, -1.0\n"
    "  %g0 = fadd float %m, 1.0\n"
    "  %g = call float @llvm.nvvm.rcp.approx.ftz.f(float %g0)\n"
    "  %f2 = fmul float %f, 2.0\n"
    "  %u = fmul float %f2, %g\n"
    "  %v = fmul float %u, %u\n"
    "  %q1 = call float @llvm.fma.f32(float 0x3F631E1FC0000000, float %v,"
    " float 0x3F8995EC60000000)\n"
    "  %q2 = call float @llvm.fma.f32(float %q1, float %v, float 0x3FB55557A0000000)\n"
    "  %q3 = call float asm \"mul.rn.f32 $0, $1, $2;\", \"=f,f,f\"(float %q2, float %v)\n"
    "  %q = call float asm \"mul.rn.f32 $0, $1, $2;\", \"=f,f,f\"(float %q3, float %u)\n"
    "  %d0 = fsub float %f, %u\n"
    "  %d1 = fadd float %d0, %d0\n"
    "  %nu = fneg float %u\n"
    "  %d2 = call float @llvm.fma.f32(float %nu, float %f, float %d1)\n"
    "  %ulo = call float asm \"mul.rn.f32 $0, $1, $2;\", \"=f,f,f\"(float %g, float %d2)\n"
    "  %s = fadd float %u, %q\n"
    "  %t0 = fsub float %u, %s\n"
    "  %t1 = fadd float %q, %t0\n"
    "  %t2 = fadd float %ulo, %t1\n"
    "  %h = fadd float %s, %t2\n"
    "  %l0 = fsub float %s, %h\n"
    "  %l = fadd float %t2, %l0\n"
    "  %e = sitofp i32 %expo to float\n"
    "  %eh = call float asm \"mul.rn.f32 $0, $1, $2;\", \"=f,f,f\"(float %e,"
    " float 0x3FE62E4000000000)\n"
    "  %s2b = fadd float %eh, %h\n"
    "  %w0 = fsub float %eh, %s2b\n"
    "  %w1 = fadd float %h, %w0\n"
    "  %w2 = fadd float %l, %w1\n"
    "  %el = call float asm \"mul.rn.f32 $0, $1, $2;\", \"=f,f,f\"(float %e,"
    " float 0x3EB7F7D1C0000000)\n"
    "  %w3 = fadd float %el, %w2\n"
    "  %lh = fadd float %s2b, %w3\n"
    "  %w4 = fsub float %s2b, %lh\n"
    "  %ll = fadd float %w3, %w4\n"
    "  %p1 = call float @skmd_nv_pow_core(float %x, float %lo, float %lh, float %ll)\n"
    "  %hb = call float asm \"mul.rn.f32 $0, $1, $2;\", \"=f,f,f\"(float %hi,"
    " float 6.5536e+04)\n"
    "  %p2 = call float @skmd_nv_pow_core(float %x, float %hb, float %lh, float %ll)\n"
    "  %p = call float asm \"mul.rn.f32 $0, $1, $2;\", \"=f,f,f\"(float %p1, float %p2)\n"
    "  %odd1 = and i32 %n, 1\n"
    "  %odd = icmp ne i32 %odd1, 0\n"
    "  %signed = call float @llvm.copysign.f32(float %p, float %x)\n"
    "  %r = select i1 %odd, float %signed, float %p\n"
    "  ret float %r\n"
    "}\n"
    "\n"
    "attributes #0 = { alwaysinline nounwind }\n";

/* Parses the IR above into m's context. */
static LLVMModuleRef parse_library(LLVMModuleRef m, const struct skmd_pass_opts *opts)
{
    LLVMContextRef c = LLVMGetModuleContext(m);
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(
        nvidia_math_ir, sizeof nvidia_math_ir - 1, "skmd-nvidia-math");
    LLVMModuleRef lib = NULL;
    char *msg = NULL;
    if (LLVMParseIRInContext(c, buf, &lib, &msg)) { /* consumes buf */
        skmd_pass_fail(opts, "the NVIDIA math IR does not parse: %s", msg ? msg : "?");
        LLVMDisposeMessage(msg);
        return NULL;
    }
    LLVMSetTarget(lib, LLVMGetTarget(m));
    LLVMSetDataLayout(lib, LLVMGetDataLayoutStr(m));
    return lib;
}

/* The OpenCL sqrt (libclc's returns a NaN constant for x < 0 before its llvm.sqrt) as
 * llvm.sqrt itself, which the lowering makes sqrt.approx.f32 or sqrt.rn.f32 as NVIDIA does
 * (skmd_nvptx_approx_sqrt); doubles sqrt.rn.f64. */
static unsigned direct_sqrt(LLVMModuleRef m)
{
    LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
    unsigned replaced = 0;
    for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn))
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
             bb = LLVMGetNextBasicBlock(bb)) {
            LLVMValueRef next;
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = next) {
                next = LLVMGetNextInstruction(i); /* i may be replaced */
                char name[16];
                if (!skmd_opencl_builtin_call(i, name, sizeof name) ||
                    strcmp(name, "sqrt") || LLVMGetNumArgOperands(i) != 1)
                    continue;
                LLVMTypeRef t = LLVMTypeOf(i);
                int vec = LLVMGetTypeKind(t) == LLVMVectorTypeKind;
                LLVMTypeKind ek = LLVMGetTypeKind(vec ? LLVMGetElementType(t) : t);
                if ((ek != LLVMFloatTypeKind && ek != LLVMDoubleTypeKind) ||
                    LLVMTypeOf(LLVMGetOperand(i, 0)) != t)
                    continue;
                const char *elem = ek == LLVMFloatTypeKind ? "f32" : "f64";
                char intrinsic[32];
                if (vec)
                    snprintf(intrinsic, sizeof intrinsic, "llvm.sqrt.v%u%s",
                             LLVMGetVectorSize(t), elem);
                else
                    snprintf(intrinsic, sizeof intrinsic, "llvm.sqrt.%s", elem);
                LLVMTypeRef fty = LLVMFunctionType(t, &t, 1, 0);
                LLVMValueRef f = LLVMGetNamedFunction(m, intrinsic);
                if (!f)
                    f = LLVMAddFunction(m, intrinsic, fty);
                LLVMPositionBuilderBefore(b, i);
                LLVMValueRef x = LLVMGetOperand(i, 0);
                LLVMValueRef r = LLVMBuildCall2(b, fty, f, &x, 1, "");
                LLVMReplaceAllUsesWith(i, r);
                LLVMInstructionEraseFromParent(i);
                replaced++;
            }
        }
    LLVMDisposeBuilder(b);
    return replaced;
}

int skmd_nvptx_nvidia_math(LLVMModuleRef m, const struct skmd_pass_opts *opts)
{
    unsigned sqrts = direct_sqrt(m);
    LLVMModuleRef lib = parse_library(m, opts);
    if (!lib)
        return -1;
    unsigned replaced = skmd_nvptx_replace_math(m, "skmd_nv_", 1, lib);
    if (opts && opts->verbose)
        fprintf(stderr, "skmd-opt: %u sqrt and %u math calls as NVIDIA's compiler emits them\n",
                sqrts, replaced);
    if (!replaced) {
        LLVMDisposeModule(lib);
        return 0;
    }
    if (LLVMLinkModules2(m, lib)) /* consumes lib */
        return skmd_pass_fail(opts, "linking the NVIDIA math IR failed");
    return 0;
}
