/* transform/nvptx_math.c: OpenCL math builtins from NVIDIA's libdevice instead of libclc
 * (skmd-opt --libdevice PATH). libclc's float math is its own (AMD-derived) code, so its
 * results differ from NVIDIA's in the last bits; libdevice is NVIDIA's math library for its
 * NVVM compiler. Each call of a listed builtin on float or double (or a vector of them) is
 * replaced by calls of __nv_NAMEf / __nv_NAME, one per element, before libclc is linked. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/BitReader.h>
#include <llvm-c/Linker.h>

#include "passes.h"

/* The OpenCL builtins libdevice has under the same name; `int_arg`: the second argument is
 * an int (pown -> __nv_powif / __nv_powi). */
static const struct {
    const char *name, *nv;
    unsigned nargs;
    int int_arg;
} math[] = {
    {"exp", "exp", 1, 0},     {"exp2", "exp2", 1, 0},     {"exp10", "exp10", 1, 0},
    {"expm1", "expm1", 1, 0}, {"log", "log", 1, 0},       {"log2", "log2", 1, 0},
    {"log10", "log10", 1, 0}, {"log1p", "log1p", 1, 0},   {"sin", "sin", 1, 0},
    {"cos", "cos", 1, 0},     {"tan", "tan", 1, 0},       {"asin", "asin", 1, 0},
    {"acos", "acos", 1, 0},   {"atan", "atan", 1, 0},     {"sinh", "sinh", 1, 0},
    {"cosh", "cosh", 1, 0},   {"tanh", "tanh", 1, 0},     {"asinh", "asinh", 1, 0},
    {"acosh", "acosh", 1, 0}, {"atanh", "atanh", 1, 0},   {"cbrt", "cbrt", 1, 0},
    {"erf", "erf", 1, 0},     {"erfc", "erfc", 1, 0},     {"tgamma", "tgamma", 1, 0},
    {"lgamma", "lgamma", 1, 0}, {"rsqrt", "rsqrt", 1, 0}, {"sinpi", "sinpi", 1, 0},
    {"cospi", "cospi", 1, 0}, {"pow", "pow", 2, 0},       {"atan2", "atan2", 2, 0},
    {"hypot", "hypot", 2, 0}, {"pown", "powi", 2, 1},
};

int skmd_opencl_builtin_name(LLVMValueRef fn, char *buf, size_t size)
{
    size_t len = 0;
    const char *n = LLVMGetValueName2(fn, &len);
    if (len < 4 || n[0] != '_' || n[1] != 'Z')
        return 0;
    char *end;
    unsigned long k = strtoul(n + 2, &end, 10);
    if (!k || k >= size || (size_t)(end - n) + k > len)
        return 0;
    memcpy(buf, end, k);
    buf[k] = '\0';
    return 1;
}

int skmd_opencl_builtin_call(LLVMValueRef i, char *buf, size_t size)
{
    LLVMValueRef callee = LLVMIsACallInst(i) ? LLVMGetCalledValue(i) : NULL;
    return callee && LLVMIsAFunction(callee) && LLVMIsDeclaration(callee) &&
           skmd_opencl_builtin_name(callee, buf, size);
}

static int is_fp(LLVMTypeRef t)
{
    LLVMTypeKind k = LLVMGetTypeKind(t);
    return k == LLVMFloatTypeKind || k == LLVMDoubleTypeKind;
}

/* Function `name` for element type et (math[]'s signature), declared in m if needed. */
static LLVMValueRef nv_decl(LLVMModuleRef m, const char *name, unsigned nargs, int int_arg,
                            LLVMTypeRef et)
{
    LLVMValueRef f = LLVMGetNamedFunction(m, name);
    if (f)
        return f;
    LLVMTypeRef params[2] = {et, int_arg ? LLVMInt32TypeInContext(LLVMGetModuleContext(m)) : et};
    return LLVMAddFunction(m, name, LLVMFunctionType(et, params, nargs, 0));
}

/* Replaces call c (of math[i], returning type t) by element-wise calls of `name`. */
static void replace_call(LLVMModuleRef m, LLVMBuilderRef b, LLVMValueRef c, unsigned i,
                         LLVMTypeRef t, const char *name)
{
    int vec = LLVMGetTypeKind(t) == LLVMVectorTypeKind;
    LLVMTypeRef et = vec ? LLVMGetElementType(t) : t;
    unsigned lanes = vec ? LLVMGetVectorSize(t) : 1;
    LLVMValueRef f = nv_decl(m, name, math[i].nargs, math[i].int_arg, et);
    LLVMTypeRef fty = LLVMGlobalGetValueType(f);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(LLVMGetModuleContext(m));
    LLVMPositionBuilderBefore(b, c);
    LLVMValueRef result = vec ? LLVMGetUndef(t) : NULL;
    for (unsigned lane = 0; lane < lanes; lane++) {
        LLVMValueRef args[2];
        for (unsigned a = 0; a < math[i].nargs; a++) {
            LLVMValueRef v = LLVMGetOperand(c, a);
            args[a] = vec ? LLVMBuildExtractElement(b, v, LLVMConstInt(i32, lane, 0), "") : v;
        }
        LLVMValueRef r = LLVMBuildCall2(b, fty, f, args, math[i].nargs, "");
        result = vec ? LLVMBuildInsertElement(b, result, r, LLVMConstInt(i32, lane, 0), "") : r;
    }
    LLVMReplaceAllUsesWith(c, result);
    LLVMInstructionEraseFromParent(c);
}

/* The index in math[] of call c's builtin when it has the types libdevice takes, else -1. */
static int listed(LLVMValueRef c)
{
    char name[32];
    if (!skmd_opencl_builtin_call(c, name, sizeof name))
        return -1;
    LLVMTypeRef t = LLVMTypeOf(c);
    int vec = LLVMGetTypeKind(t) == LLVMVectorTypeKind;
    if (!is_fp(vec ? LLVMGetElementType(t) : t))
        return -1;
    for (unsigned i = 0; i < sizeof math / sizeof *math; i++) {
        if (strcmp(name, math[i].name) || (unsigned)LLVMGetNumArgOperands(c) != math[i].nargs)
            continue;
        for (unsigned a = 0; a < math[i].nargs; a++) {
            LLVMTypeRef at = LLVMTypeOf(LLVMGetOperand(c, a));
            if (a == 1 && math[i].int_arg) {
                LLVMTypeRef et = vec && LLVMGetTypeKind(at) == LLVMVectorTypeKind
                                     ? LLVMGetElementType(at) : at;
                if (LLVMGetTypeKind(et) != LLVMIntegerTypeKind || LLVMGetIntTypeWidth(et) != 32 ||
                    (LLVMGetTypeKind(at) == LLVMVectorTypeKind) != vec)
                    return -1;
            } else if (at != t) {
                return -1;
            }
        }
        return (int)i;
    }
    return -1;
}

static int link_libdevice(LLVMModuleRef m, const struct skmd_pass_opts *opts)
{
    LLVMMemoryBufferRef buf = NULL;
    char *msg = NULL;
    if (LLVMCreateMemoryBufferWithContentsOfFile(opts->libdevice_path, &buf, &msg)) {
        skmd_pass_fail(opts, "cannot read libdevice %s: %s", opts->libdevice_path,
                       msg ? msg : "?");
        LLVMDisposeMessage(msg);
        return -1;
    }
    LLVMModuleRef lib = NULL;
    int bad = LLVMParseBitcodeInContext2(LLVMGetModuleContext(m), buf, &lib);
    LLVMDisposeMemoryBuffer(buf);
    if (bad)
        return skmd_pass_fail(opts, "%s is not LLVM bitcode this LLVM reads",
                              opts->libdevice_path);
    LLVMSetTarget(lib, LLVMGetTarget(m));
    LLVMSetDataLayout(lib, LLVMGetDataLayoutStr(m));
    if (LLVMLinkModules2(m, lib)) /* consumes lib */
        return skmd_pass_fail(opts, "linking %s failed", opts->libdevice_path);
    return 0;
}

int skmd_nvptx_flushes_denormals(LLVMValueRef f)
{
    static const char key[] = "denormal-fp-math-f32";
    LLVMAttributeRef a = LLVMGetStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, key,
                                                       sizeof key - 1);
    unsigned len = 0;
    const char *v = a ? LLVMGetStringAttributeValue(a, &len) : "";
    return len >= 13 && !strncmp(v, "preserve-sign", 13);
}

unsigned skmd_nvptx_replace_math(LLVMModuleRef m, const char *prefix, int ftz_names,
                                 LLVMModuleRef lib)
{
    LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
    unsigned replaced = 0;
    for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn)) {
        const char *ftz = ftz_names && skmd_nvptx_flushes_denormals(fn) ? "_ftz" : "";
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
             bb = LLVMGetNextBasicBlock(bb)) {
            LLVMValueRef next;
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = next) {
                next = LLVMGetNextInstruction(i); /* i may be replaced */
                int k = LLVMIsACallInst(i) ? listed(i) : -1;
                if (k < 0)
                    continue;
                LLVMTypeRef t = LLVMTypeOf(i);
                int vec = LLVMGetTypeKind(t) == LLVMVectorTypeKind;
                int dbl = LLVMGetTypeKind(vec ? LLVMGetElementType(t) : t) == LLVMDoubleTypeKind;
                char name[64];
                snprintf(name, sizeof name, "%s%s%s%s", prefix, math[k].nv, dbl ? "" : "f", ftz);
                LLVMValueRef def = lib ? LLVMGetNamedFunction(lib, name) : NULL;
                if (lib && (!def || LLVMIsDeclaration(def)))
                    continue;
                replace_call(m, b, i, (unsigned)k, t, name);
                replaced++;
            }
        }
    }
    LLVMDisposeBuilder(b);
    return replaced;
}

int skmd_nvptx_use_libdevice(LLVMModuleRef m, const struct skmd_pass_opts *opts)
{
    unsigned replaced = skmd_nvptx_replace_math(m, "__nv_", 0, NULL);
    if (opts->verbose)
        fprintf(stderr, "skmd-opt: %u math calls from libdevice\n", replaced);
    return replaced ? link_libdevice(m, opts) : 0;
}

int skmd_nvptx_approx_sqrt(LLVMModuleRef m)
{
    LLVMContextRef c = LLVMGetModuleContext(m);
    LLVMTypeRef f32 = LLVMFloatTypeInContext(c), i32 = LLVMInt32TypeInContext(c);
    LLVMTypeRef fty = LLVMFunctionType(f32, &f32, 1, 0);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
    int replaced = 0;
    for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn)) {
        const char *name = skmd_nvptx_flushes_denormals(fn) ? "llvm.nvvm.sqrt.approx.ftz.f"
                                                            : "llvm.nvvm.sqrt.approx.f";
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
             bb = LLVMGetNextBasicBlock(bb)) {
            LLVMValueRef next;
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = next) {
                next = LLVMGetNextInstruction(i); /* i may be replaced */
                LLVMValueRef callee = LLVMIsACallInst(i) ? LLVMGetCalledValue(i) : NULL;
                size_t len = 0;
                const char *cn = callee && LLVMIsAFunction(callee)
                                     ? LLVMGetValueName2(callee, &len) : "";
                if (strncmp(cn, "llvm.sqrt.", 10))
                    continue;
                LLVMTypeRef t = LLVMTypeOf(i);
                int vec = LLVMGetTypeKind(t) == LLVMVectorTypeKind;
                if ((vec ? LLVMGetElementType(t) : t) != f32)
                    continue; /* double: correctly rounded */
                LLVMValueRef approx = LLVMGetNamedFunction(m, name);
                if (!approx)
                    approx = LLVMAddFunction(m, name, fty);
                LLVMPositionBuilderBefore(b, i);
                LLVMValueRef x = LLVMGetOperand(i, 0), r = vec ? LLVMGetUndef(t) : NULL;
                for (unsigned lane = 0; lane < (vec ? LLVMGetVectorSize(t) : 1); lane++) {
                    LLVMValueRef idx = LLVMConstInt(i32, lane, 0);
                    LLVMValueRef e = vec ? LLVMBuildExtractElement(b, x, idx, "") : x;
                    LLVMValueRef s = LLVMBuildCall2(b, fty, approx, &e, 1, "");
                    r = vec ? LLVMBuildInsertElement(b, r, s, idx, "") : s;
                }
                LLVMReplaceAllUsesWith(i, r);
                LLVMInstructionEraseFromParent(i);
                replaced++;
            }
        }
    }
    LLVMDisposeBuilder(b);
    return replaced;
}
