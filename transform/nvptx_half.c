/* transform/nvptx_half.c: the OpenCL half storage builtins (vload_half[N], vloada_half[N],
 * vstore_half[N][_rte|_rtz|_rtp|_rtn], vstorea_half[N][...]) written out inline for NVPTX,
 * as NVIDIA's OpenCL compiler emits them: every half is converted by the hardware,
 * `cvt.f32.f16` when loaded and `cvt.{rn,rz,rp,rm}.f16.{f32,f64}` when stored.
 *
 * libclc's versions differ in results, not only in code: its rounding-mode stores round in
 * integer code that keeps a NaN's payload (0xff19 stays 0xff19; cvt gives the canonical NaN
 * 0x7fff), and its plain store is an `fptrunc` that LLVM folds with the load's `fpext`
 * (a half copied through float keeps its bits) or turns float arithmetic into half
 * arithmetic. So the store's conversion is inline PTX, which the optimiser cannot fold; the
 * load's is a plain `fpext`, which the back end lowers to cvt.f32.f16 (exact: every half is
 * a float). Runs before libclc is linked, so libclc's definitions are never used. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "passes.h"

enum half_op { HALF_LOAD, HALF_STORE };

/* What one builtin call asks for. */
struct half_call {
    enum half_op op;
    unsigned lanes;   /* N of vload_halfN; 1 for the scalar form */
    unsigned stride;  /* halves between consecutive offsets: N, or 4 for the aligned N=3 */
    const char *mode; /* stores: "rn", "rz", "rp", "rm" */
};

/* Parses an OpenCL builtin name ("vstorea_half3_rtz") into *hc; 0 if it is not one of
 * the half storage builtins. */
static int parse_half_name(const char *name, struct half_call *hc)
{
    static const struct {
        const char *suffix, *mode;
    } modes[] = {{"", "rn"}, {"_rte", "rn"}, {"_rtz", "rz"}, {"_rtp", "rp"}, {"_rtn", "rm"}};
    int aligned;
    const char *p;
    if (!strncmp(name, "vload_half", 10)) {
        hc->op = HALF_LOAD, aligned = 0, p = name + 10;
    } else if (!strncmp(name, "vloada_half", 11)) {
        hc->op = HALF_LOAD, aligned = 1, p = name + 11;
    } else if (!strncmp(name, "vstore_half", 11)) {
        hc->op = HALF_STORE, aligned = 0, p = name + 11;
    } else if (!strncmp(name, "vstorea_half", 12)) {
        hc->op = HALF_STORE, aligned = 1, p = name + 12;
    } else {
        return 0;
    }
    hc->lanes = 1;
    if (*p >= '0' && *p <= '9') {
        char *end;
        unsigned long n = strtoul(p, &end, 10);
        if (n != 2 && n != 3 && n != 4 && n != 8 && n != 16)
            return 0;
        hc->lanes = (unsigned)n;
        p = end;
    }
    hc->stride = aligned && hc->lanes == 3 ? 4 : hc->lanes;
    for (unsigned i = 0; i < sizeof modes / sizeof *modes; i++)
        if (!strcmp(p, modes[i].suffix)) {
            /* loads have no rounding mode */
            if (hc->op == HALF_LOAD && *p)
                return 0;
            hc->mode = modes[i].mode;
            return 1;
        }
    return 0;
}

static unsigned lanes_of(LLVMTypeRef t)
{
    return LLVMGetTypeKind(t) == LLVMVectorTypeKind ? LLVMGetVectorSize(t) : 1;
}

static LLVMTypeRef element_of(LLVMTypeRef t)
{
    return LLVMGetTypeKind(t) == LLVMVectorTypeKind ? LLVMGetElementType(t) : t;
}

/* Whether call c of a builtin parsed as hc has the operand types the builtin has: loads
 * (size_t offset, pointer) -> float or floatN; stores (float/double [N] data, size_t
 * offset, pointer). Anything else (a user function of the same name) is left alone. */
static int types_match(LLVMValueRef c, const struct half_call *hc)
{
    unsigned n = (unsigned)LLVMGetNumArgOperands(c);
    unsigned first = hc->op == HALF_STORE; /* the offset's operand */
    if (n != first + 2)
        return 0;
    LLVMTypeRef off = LLVMTypeOf(LLVMGetOperand(c, first));
    LLVMTypeRef ptr = LLVMTypeOf(LLVMGetOperand(c, first + 1));
    if (LLVMGetTypeKind(off) != LLVMIntegerTypeKind || LLVMGetIntTypeWidth(off) != 64 ||
        LLVMGetTypeKind(ptr) != LLVMPointerTypeKind)
        return 0;
    LLVMTypeRef value = hc->op == HALF_LOAD ? LLVMTypeOf(c) : LLVMTypeOf(LLVMGetOperand(c, 0));
    LLVMTypeKind ek = LLVMGetTypeKind(element_of(value));
    if (lanes_of(value) != hc->lanes)
        return 0;
    return ek == LLVMFloatTypeKind || (hc->op == HALF_STORE && ek == LLVMDoubleTypeKind);
}

/* Marks an inline-asm call as touching no memory, so stores around it can still be
 * combined. LLVM 16: memory(none), whose encoding is 0 (there `readnone` is a parameter
 * attribute only); LLVM 15: readnone. */
static void mark_no_memory(LLVMContextRef ctx, LLVMValueRef call)
{
    unsigned kind = LLVMGetEnumAttributeKindForName("memory", 6);
    if (!kind)
        kind = LLVMGetEnumAttributeKindForName("readnone", 8);
    if (kind)
        LLVMAddCallSiteAttribute(call, LLVMAttributeFunctionIndex,
                                 LLVMCreateEnumAttribute(ctx, kind, 0));
    unsigned nounwind = LLVMGetEnumAttributeKindForName("nounwind", 8);
    if (nounwind)
        LLVMAddCallSiteAttribute(call, LLVMAttributeFunctionIndex,
                                 LLVMCreateEnumAttribute(ctx, nounwind, 0));
}

/* The address of half number `index` of the builtin's pointer operand. */
static LLVMValueRef half_address(LLVMBuilderRef b, LLVMTypeRef i16, LLVMValueRef ptr,
                                 LLVMValueRef base, unsigned lane)
{
    LLVMTypeRef i64 = LLVMTypeOf(base);
    LLVMValueRef index = lane ? LLVMBuildAdd(b, base, LLVMConstInt(i64, lane, 0), "") : base;
    return LLVMBuildGEP2(b, i16, ptr, &index, 1, "");
}

/* vload_half[N](offset, p): N loads of a half, each widened by fpext (cvt.f32.f16). */
static LLVMValueRef build_load(LLVMBuilderRef b, LLVMContextRef ctx, LLVMValueRef c,
                               const struct half_call *hc, LLVMValueRef base)
{
    LLVMTypeRef half = LLVMHalfTypeInContext(ctx), i16 = LLVMInt16TypeInContext(ctx);
    LLVMTypeRef f32 = LLVMFloatTypeInContext(ctx), i32 = LLVMInt32TypeInContext(ctx);
    LLVMValueRef ptr = LLVMGetOperand(c, 1);
    LLVMValueRef result = hc->lanes > 1 ? LLVMGetUndef(LLVMTypeOf(c)) : NULL;
    for (unsigned lane = 0; lane < hc->lanes; lane++) {
        LLVMValueRef h = LLVMBuildLoad2(b, half, half_address(b, i16, ptr, base, lane), "");
        LLVMSetAlignment(h, 2);
        LLVMValueRef f = LLVMBuildFPExt(b, h, f32, "");
        if (hc->lanes == 1)
            return f;
        result = LLVMBuildInsertElement(b, result, f, LLVMConstInt(i32, lane, 0), "");
    }
    return result;
}

/* vstore_half[N][_mode](data, offset, p): N conversions by inline cvt, N 16-bit stores. */
static void build_store(LLVMBuilderRef b, LLVMContextRef ctx, LLVMValueRef c,
                        const struct half_call *hc, LLVMValueRef base, int ftz)
{
    LLVMTypeRef i16 = LLVMInt16TypeInContext(ctx), i32 = LLVMInt32TypeInContext(ctx);
    LLVMValueRef data = LLVMGetOperand(c, 0), ptr = LLVMGetOperand(c, 2);
    LLVMTypeRef et = element_of(LLVMTypeOf(data));
    int dbl = LLVMGetTypeKind(et) == LLVMDoubleTypeKind;
    char text[48];
    /* .ftz applies to an f32 source only; it flushes a denormal float to zero first. */
    snprintf(text, sizeof text, "cvt.%s%s.f16.%s $0, $1;", hc->mode, ftz && !dbl ? ".ftz" : "",
             dbl ? "f64" : "f32");
    const char *constraints = dbl ? "=h,d" : "=h,f";
    LLVMTypeRef fty = LLVMFunctionType(i16, &et, 1, 0);
    LLVMValueRef cvt = LLVMGetInlineAsm(fty, text, strlen(text), (char *)constraints,
                                        strlen(constraints), 0, 0, LLVMInlineAsmDialectATT, 0);
    /* Round to nearest from a double, as NVIDIA's compiler does it: toward zero to float,
     * the float's last bit set when that was inexact (round to odd: no double rounding),
     * then cvt.rn.f16.f32, which also makes every NaN 0x7fff (cvt.rn.f16.f64 gives 0x7e00). */
    LLVMTypeRef f32 = LLVMFloatTypeInContext(ctx);
    LLVMTypeRef to_float_ty = LLVMFunctionType(f32, &et, 1, 0);
    LLVMTypeRef to_half_ty = LLVMFunctionType(i16, &f32, 1, 0);
    int odd = dbl && !strcmp(hc->mode, "rn");
    LLVMValueRef to_float = NULL, to_half = NULL;
    if (odd) {
        const char *tf = "cvt.rz.f32.f64 $0, $1;", *th = "cvt.rn.f16.f32 $0, $1;";
        to_float = LLVMGetInlineAsm(to_float_ty, (char *)tf, strlen(tf), (char *)"=f,d", 4, 0, 0,
                                    LLVMInlineAsmDialectATT, 0);
        to_half = LLVMGetInlineAsm(to_half_ty, (char *)th, strlen(th), (char *)"=h,f", 4, 0, 0,
                                   LLVMInlineAsmDialectATT, 0);
    }
    for (unsigned lane = 0; lane < hc->lanes; lane++) {
        LLVMValueRef x = hc->lanes > 1
                             ? LLVMBuildExtractElement(b, data, LLVMConstInt(i32, lane, 0), "")
                             : data;
        LLVMValueRef h;
        if (odd) {
            LLVMValueRef f = LLVMBuildCall2(b, to_float_ty, to_float, &x, 1, "");
            mark_no_memory(ctx, f);
            LLVMValueRef wide = LLVMBuildFPExt(b, f, et, "");
            LLVMValueRef inexact = LLVMBuildFCmp(b, LLVMRealUNE, wide, x, "");
            LLVMValueRef bits = LLVMBuildOr(b, LLVMBuildBitCast(b, f, i32, ""),
                                            LLVMConstInt(i32, 1, 0), "");
            LLVMValueRef odd_f = LLVMBuildBitCast(b, bits, f32, "");
            LLVMValueRef f2 = LLVMBuildSelect(b, inexact, odd_f, f, "");
            h = LLVMBuildCall2(b, to_half_ty, to_half, &f2, 1, "");
        } else {
            h = LLVMBuildCall2(b, fty, cvt, &x, 1, "");
        }
        mark_no_memory(ctx, h);
        LLVMValueRef st = LLVMBuildStore(b, h, half_address(b, i16, ptr, base, lane));
        LLVMSetAlignment(st, 2);
    }
}

int skmd_nvptx_half_storage(LLVMModuleRef m)
{
    LLVMContextRef ctx = LLVMGetModuleContext(m);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
    int replaced = 0;
    for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn)) {
        int ftz = skmd_nvptx_flushes_denormals(fn);
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
             bb = LLVMGetNextBasicBlock(bb)) {
            LLVMValueRef next;
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = next) {
                next = LLVMGetNextInstruction(i); /* i may be replaced */
                char name[32];
                struct half_call hc;
                if (!skmd_opencl_builtin_call(i, name, sizeof name) ||
                    !parse_half_name(name, &hc) || !types_match(i, &hc))
                    continue;
                LLVMPositionBuilderBefore(b, i);
                LLVMValueRef offset = LLVMGetOperand(i, hc.op == HALF_STORE);
                LLVMValueRef base =
                    hc.stride == 1
                        ? offset
                        : LLVMBuildMul(b, offset,
                                       LLVMConstInt(LLVMTypeOf(offset), hc.stride, 0), "");
                if (hc.op == HALF_LOAD)
                    LLVMReplaceAllUsesWith(i, build_load(b, ctx, i, &hc, base));
                else
                    build_store(b, ctx, i, &hc, base, ftz);
                LLVMInstructionEraseFromParent(i);
                replaced++;
            }
        }
    }
    LLVMDisposeBuilder(b);
    return replaced;
}
