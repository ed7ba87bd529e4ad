/* transform/lower_nvptx.c: finishes a module for NVIDIA's OpenCL driver, which takes PTX
 * text through clCreateProgramWithBinary: link libclc's nvptx64--nvidiacl.bc (the OpenCL
 * builtins), internalize all but the kernels, optimise, and run the NVPTX back end. */
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Support.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/BitReader.h>
#include <llvm-c/DebugInfo.h>
#include <llvm-c/Linker.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "context.h"
#include "passes.h"

/* Volta: the oldest GPU that driver 580 (CUDA 13) still runs. */
#define SKMD_NVPTX_CPU "sm_70"

/* Whether the app's build options hold the word `opt`. */
static int has_option(const struct skmd_pass_opts *opts, const char *opt)
{
    const char *o = opts ? opts->build_options : NULL;
    size_t n = strlen(opt);
    for (const char *p = o; p && (p = strstr(p, opt)); p += n)
        if ((p == o || p[-1] == ' ') && (p[n] == '\0' || p[n] == ' '))
            return 1;
    return 0;
}

/* Whether floating point follows NVIDIA's OpenCL compiler (not --nvptx-fp strict). */
static int nvidia_fp(const struct skmd_pass_opts *opts)
{
    return !(opts && opts->nvptx_fp && !strcmp(opts->nvptx_fp, "strict"));
}

/* Whether float sqrt is sqrt.approx.f32 (nvptx_fp_options says when). */
static int approx_sqrt(const struct skmd_pass_opts *opts)
{
    return nvidia_fp(opts) && !has_option(opts, "-cl-fp32-correctly-rounded-divide-sqrt");
}

/* The NVPTX back end's floating-point choices, as NVIDIA's OpenCL compiler makes them (the
 * CUDA compiler's -fmad=true -prec-div=false -prec-sqrt=false, which the OpenCL accuracy
 * limits allow: x/y 2.5 ulp, sqrt 3 ulp): mul and add contracted into fma also across
 * statements, float x/y as div.full.f32 (2 ulp), sqrt as sqrt.approx.f32;
 * -cl-fp32-correctly-rounded-divide-sqrt: div.rn.f32 and sqrt.rn.f32;
 * -cl-fast-relaxed-math / -cl-unsafe-math-optimizations: div.approx.f32. Doubles are
 * always correctly rounded. "strict" keeps LLVM's defaults. LLVM takes these as global
 * options, once per process (skmd-opt lowers one program per process). The back end's
 * -nvptx-prec-sqrtf32=0 leaves llvm.sqrt as sqrt.rn: skmd_nvptx_approx_sqrt does it. */
static void nvptx_fp_options(const struct skmd_pass_opts *opts)
{
    static int done;
    if (done)
        return;
    done = 1;
    if (opts && opts->nvptx_fp && !strcmp(opts->nvptx_fp, "strict"))
        return;
    const char *div = "-nvptx-prec-divf32=1";
    if (has_option(opts, "-cl-fp32-correctly-rounded-divide-sqrt"))
        div = "-nvptx-prec-divf32=2";
    else if (has_option(opts, "-cl-fast-relaxed-math") ||
             has_option(opts, "-cl-unsafe-math-optimizations"))
        div = "-nvptx-prec-divf32=0";
    const char *argv[] = {"skmd-opt", "-nvptx-fma-level=1", div};
    LLVMParseCommandLineOptions(3, argv, NULL);
}

/* -cl-denorms-are-zero: float denormals flushed in every function, which the back end
 * reads to emit the .ftz forms (add.ftz.f32, fma.rn.ftz.f32...), as NVIDIA's compiler does
 * under this option; sqrt and the half conversions read it too. clang's driver drops the
 * option for NVPTX, so the attribute is set here. */
static void flush_denormals(LLVMModuleRef m, const struct skmd_pass_opts *opts)
{
    static const char key[] = "denormal-fp-math-f32", value[] = "preserve-sign,preserve-sign";
    if (!has_option(opts, "-cl-denorms-are-zero"))
        return;
    LLVMContextRef c = LLVMGetModuleContext(m);
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        if (!LLVMIsDeclaration(f))
            LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                                    LLVMCreateStringAttribute(c, key, sizeof key - 1, value,
                                                              sizeof value - 1));
}

static LLVMTargetMachineRef nvptx_machine(LLVMModuleRef m, const struct skmd_pass_opts *opts)
{
    nvptx_fp_options(opts);
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
    LLVMTargetRef target = NULL;
    char *msg = NULL;
    if (LLVMGetTargetFromTriple(LLVMGetTarget(m), &target, &msg)) {
        skmd_pass_fail(opts, "no NVPTX back end in this LLVM: %s", msg ? msg : "?");
        LLVMDisposeMessage(msg);
        return NULL;
    }
    LLVMDisposeMessage(msg);
    return LLVMCreateTargetMachine(target, LLVMGetTarget(m), SKMD_NVPTX_CPU, "",
                                   LLVMCodeGenLevelAggressive, LLVMRelocDefault,
                                   LLVMCodeModelDefault);
}

static int link_libclc(LLVMModuleRef m, const struct skmd_pass_opts *opts)
{
    const char *path = opts && opts->libclc_path ? opts->libclc_path
                                                 : "/usr/lib/clc/nvptx64--nvidiacl.bc";
    LLVMMemoryBufferRef buf = NULL;
    char *msg = NULL;
    if (LLVMCreateMemoryBufferWithContentsOfFile(path, &buf, &msg)) {
        skmd_pass_fail(opts, "cannot read libclc %s: %s", path, msg ? msg : "?");
        LLVMDisposeMessage(msg);
        return -1;
    }
    LLVMModuleRef clc = NULL;
    int bad = LLVMParseBitcodeInContext2(LLVMGetModuleContext(m), buf, &clc);
    LLVMDisposeMemoryBuffer(buf);
    if (bad)
        return skmd_pass_fail(opts, "%s is not LLVM bitcode this LLVM reads", path);
    /* Same triple and layout, so the linker has nothing to warn about. */
    LLVMSetTarget(clc, LLVMGetTarget(m));
    LLVMSetDataLayout(clc, LLVMGetDataLayoutStr(m));
    if (LLVMLinkModules2(m, clc)) /* consumes clc */
        return skmd_pass_fail(opts, "linking %s failed", path);
    return 0;
}

int skmd_pass_lower_nvptx(LLVMModuleRef m, const struct skmd_pass_opts *opts)
{
    struct skmd_ctx ctx;
    skmd_ctx_init(&ctx, m);
    if (ctx.target != SKMD_TARGET_NVPTX)
        return skmd_pass_fail(opts, "NVPTX lowering needs an nvptx64 module, not %s",
                              LLVMGetTarget(m));
    LLVMStripModuleDebugInfo(m);
    if (nvidia_fp(opts)) {
        flush_denormals(m, opts);
        /* Before libclc is linked: its half conversions and math are not NVIDIA's. */
        skmd_nvptx_half_storage(m);
        if (skmd_nvptx_nvidia_math(m, opts))
            return -1;
    }
    /* libdevice takes what is left of its list (its pown is not NVIDIA's OpenCL pown). */
    if (opts && opts->libdevice_path && skmd_nvptx_use_libdevice(m, opts))
        return -1;
    if (link_libclc(m, opts))
        return -1;
    if (nvidia_fp(opts))
        flush_denormals(m, opts); /* again, for libclc's functions (sqrt's among them) */
    if (approx_sqrt(opts))
        skmd_nvptx_approx_sqrt(m);
    /* Only the kernels are entry points; everything else may be inlined and dropped. */
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        if (!LLVMIsDeclaration(f) && !skmd_ctx_is_kernel(&ctx, f))
            LLVMSetLinkage(f, LLVMInternalLinkage);
    for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g))
        if (!LLVMIsDeclaration(g))
            LLVMSetLinkage(g, LLVMInternalLinkage);

    LLVMTargetMachineRef tm = nvptx_machine(m, opts);
    if (!tm)
        return -1;
    LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
    /* With the target machine, the pipeline includes NVVMReflect (libclc's __nvvm_reflect). */
    LLVMErrorRef e = LLVMRunPasses(m, "default<O3>", tm, po);
    LLVMDisposePassBuilderOptions(po);
    LLVMDisposeTargetMachine(tm);
    if (e) {
        char *msg = LLVMGetErrorMessage(e);
        skmd_pass_fail(opts, "optimising for NVPTX: %s", msg);
        LLVMDisposeErrorMessage(msg);
        return -1;
    }
    /* A builtin libclc lacks (printf on NVPTX) would fail at the driver's link. After the
     * optimiser: unused library functions (libdevice's) and their declarations are gone. */
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        size_t len = 0;
        const char *name = LLVMGetValueName2(f, &len);
        /* __nvvm_reflect (libclc's and libdevice's) is resolved by the optimiser. */
        if (LLVMIsDeclaration(f) && !LLVMGetIntrinsicID(f) && LLVMGetFirstUse(f) &&
            strcmp(name, "__nvvm_reflect"))
            return skmd_pass_fail(opts, "%.*s is not provided by libclc for NVPTX", (int)len,
                                  name);
    }

    char *msg = NULL;
    if (LLVMVerifyModule(m, LLVMReturnStatusAction, &msg)) {
        skmd_pass_fail(opts, "invalid module after NVPTX lowering: %s", msg);
        LLVMDisposeMessage(msg);
        return -1;
    }
    LLVMDisposeMessage(msg);
    return 0;
}

int skmd_emit_ptx(LLVMModuleRef m, const struct skmd_pass_opts *opts, char **ptx_out,
                  size_t *len_out)
{
    *ptx_out = NULL;
    *len_out = 0;
    LLVMTargetMachineRef tm = nvptx_machine(m, opts);
    if (!tm)
        return -1;
    LLVMMemoryBufferRef buf = NULL;
    char *msg = NULL;
    int bad = LLVMTargetMachineEmitToMemoryBuffer(tm, m, LLVMAssemblyFile, &msg, &buf);
    LLVMDisposeTargetMachine(tm);
    if (bad) {
        skmd_pass_fail(opts, "NVPTX code generation: %s", msg ? msg : "?");
        LLVMDisposeMessage(msg);
        return -1;
    }
    LLVMDisposeMessage(msg);
    size_t len = LLVMGetBufferSize(buf);
    char *ptx = malloc(len + 1);
    if (ptx) {
        memcpy(ptx, LLVMGetBufferStart(buf), len);
        ptx[len] = '\0';
    }
    LLVMDisposeMemoryBuffer(buf);
    if (!ptx)
        return skmd_pass_fail(opts, "out of memory");
    *ptx_out = ptx;
    *len_out = len;
    return 0;
}
