/* transform/pocl_wide_calls.c: builtin calls on wide vectors, cut into pieces for PoCL.
 *
 * PoCL takes SPIR bitcode through a wrapper that maps each SPIR builtin onto its kernel
 * library's. On x86-64 the library passes and returns a vector wider than the CPU's
 * widest register in memory, and PoCL 5's wrapper gets such vectors wrong: every ulong16
 * and double16 builtin call gave zeros or garbage on an AVX-512 host (from 512 bits on an
 * AVX2 host by the same rule). A program PoCL compiles from source never meets the
 * wrapper, so the split kernel wrote what the app's kernel did not.
 *
 * So, before PoCL sees the module, each builtin call that takes or returns a vector wider
 * than MAX_BITS becomes calls of the same builtin on pieces of at most MAX_BITS (double16:
 * four double4 calls), put together again: exact for the builtins that work element by
 * element (each piece computes the same elements), for the vload and vstore families
 * (piece k is placed k pieces on) and for any/all (or-ed, and-ed). shuffle and shuffle2
 * are written out element by element. A call that cannot be cut (one that writes through
 * a pointer, an unknown builtin) makes the program unsplittable on PoCL: it then runs
 * whole, which is always right. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "passes.h"

/* The widest vector every x86-64 CPU with AVX passes and returns in a register. */
#define MAX_BITS 256

/* Bits of a vector type, 0 for anything else. */
static unsigned vector_bits(LLVMTypeRef t)
{
    if (LLVMGetTypeKind(t) != LLVMVectorTypeKind)
        return 0;
    return LLVMGetVectorSize(t) * skmd_scalar_bits(LLVMGetElementType(t));
}

/* How a builtin's call is cut: element-wise pieces; pieces placed by an offset operand (the
 * vload and vstore families); pieces whose int results are or-ed or and-ed (any, all); or
 * written out one element at a time (shuffle, shuffle2). */
enum cut { CUT_NONE, CUT_ELEMENTS, CUT_PLACED, CUT_REDUCE, CUT_SHUFFLE };

/* Replaces the vector width `from` that ends name's type word (convert_double16_rte,
 * vload16, vload_half16) by `to`; 0 when the name carries no width. */
static int rewidth_base(const char *base, unsigned from, unsigned to, char *out, size_t size)
{
    char digits[8];
    snprintf(digits, sizeof digits, "%u", from);
    const char *at = NULL;
    for (const char *p = strstr(base, digits); p; p = strstr(p + 1, digits))
        if (p > base && ((p[-1] >= 'a' && p[-1] <= 'z')) &&
            (p[strlen(digits)] == '\0' || p[strlen(digits)] == '_'))
            at = p;
    if (!at)
        return 0;
    int n = snprintf(out, size, "%.*s%u%s", (int)(at - base), base, to, at + strlen(digits));
    return n > 0 && (size_t)n < size;
}

/* The mangled name of the piece builtin: `Dv<from>_` -> `Dv<to>_` in the parameters, and
 * the width in the name itself for conversions and loads. */
static int piece_name(const char *mangled, const char *base, unsigned from, unsigned to,
                      int width_in_name, char *out, size_t size)
{
    char newbase[96];
    if (width_in_name) {
        if (!rewidth_base(base, from, to, newbase, sizeof newbase))
            return 0;
    } else if (snprintf(newbase, sizeof newbase, "%s", base) >= (int)sizeof newbase) {
        return 0;
    }
    const char *params = mangled + 2; /* _Z <length> <name> <parameters> */
    while (*params >= '0' && *params <= '9')
        params++;
    params += strlen(base);
    char old_tag[16], new_tag[16];
    snprintf(old_tag, sizeof old_tag, "Dv%u_", from);
    snprintf(new_tag, sizeof new_tag, "Dv%u_", to);
    int n = snprintf(out, size, "_Z%zu%s", strlen(newbase), newbase);
    for (const char *p = params; *p && n > 0 && (size_t)n < size;) {
        if (skmd_starts_with(p, old_tag)) {
            n += snprintf(out + n, size - (size_t)n, "%s", new_tag);
            p += strlen(old_tag);
        } else {
            out[n++] = *p++;
            out[n] = '\0';
        }
    }
    return n > 0 && (size_t)n < size;
}

/* How call c of builtin `base` is cut into pieces of vectors of `lanes` elements; why not
 * into *why. *offset_arg: the operand that places a vload's or vstore's pieces. */
static enum cut how_to_cut(LLVMValueRef c, const char *base, unsigned lanes, int *offset_arg,
                           const char **why)
{
    unsigned nargs = (unsigned)LLVMGetNumArgOperands(c);
    LLVMTypeRef rt = LLVMTypeOf(c);
    LLVMTypeKind rk = LLVMGetTypeKind(rt);
    if (!strcmp(base, "shuffle") || !strcmp(base, "shuffle2")) {
        /* shuffle(x, mask), shuffle2(x, y, mask): x of 2, 4, 8 or 16 elements */
        LLVMTypeRef xt = LLVMTypeOf(LLVMGetOperand(c, 0));
        unsigned m = LLVMGetTypeKind(xt) == LLVMVectorTypeKind ? LLVMGetVectorSize(xt) : 0;
        if (nargs == (strcmp(base, "shuffle") ? 3u : 2u) && m && !(m & (m - 1)) &&
            rk == LLVMVectorTypeKind)
            return CUT_SHUFFLE;
        *why = "an unexpected shuffle";
        return CUT_NONE;
    }
    /* vloadN(offset, p) and vload_halfN..., vstoreN(data, offset, p) and vstore_halfN...:
     * a size_t offset counted in N-element steps */
    int load = skmd_starts_with(base, "vload"), store = skmd_starts_with(base, "vstore");
    if (load || store) {
        *offset_arg = store;
        if (nargs == 2u + store &&
            LLVMGetTypeKind(LLVMTypeOf(LLVMGetOperand(c, (unsigned)store))) == LLVMIntegerTypeKind)
            return CUT_PLACED;
        *why = "an unexpected vload or vstore";
        return CUT_NONE;
    }
    if ((!strcmp(base, "any") || !strcmp(base, "all")) && nargs == 1 &&
        rk == LLVMIntegerTypeKind)
        return CUT_REDUCE;
    if (skmd_starts_with(base, "sub_group_") || skmd_starts_with(base, "work_group_") ||
        skmd_starts_with(base, "intel_") || skmd_starts_with(base, "amd_") ||
        rk != LLVMVectorTypeKind || LLVMGetVectorSize(rt) != lanes) {
        *why = "it does not work element by element";
        return CUT_NONE;
    }
    for (unsigned a = 0; a < nargs; a++) {
        LLVMTypeRef at = LLVMTypeOf(LLVMGetOperand(c, a));
        LLVMTypeKind k = LLVMGetTypeKind(at);
        if ((k == LLVMVectorTypeKind && LLVMGetVectorSize(at) == lanes) ||
            skmd_scalar_bits(at))
            continue; /* a scalar is an operand every element shares (clamp(double16, lo, hi)) */
        *why = k == LLVMPointerTypeKind ? "it also writes through a pointer"
                                        : "its operands are not element-wise";
        return CUT_NONE;
    }
    return CUT_ELEMENTS;
}

/* The declaration of the piece builtin `name`: c's callee's with every vector of `lanes`
 * elements narrowed to `piece` elements (same calling convention and attributes). */
static LLVMValueRef piece_decl(LLVMModuleRef m, LLVMValueRef callee, const char *name,
                               unsigned lanes, unsigned piece)
{
    LLVMValueRef f = LLVMGetNamedFunction(m, name);
    if (f)
        return f;
    LLVMTypeRef fty = LLVMGlobalGetValueType(callee);
    unsigned np = LLVMCountParamTypes(fty);
    LLVMTypeRef params[16];
    if (np > sizeof params / sizeof *params)
        return NULL;
    LLVMGetParamTypes(fty, params);
    for (unsigned i = 0; i < np; i++)
        if (LLVMGetTypeKind(params[i]) == LLVMVectorTypeKind &&
            LLVMGetVectorSize(params[i]) == lanes)
            params[i] = LLVMVectorType(LLVMGetElementType(params[i]), piece);
    LLVMTypeRef ret = LLVMGetReturnType(fty);
    if (LLVMGetTypeKind(ret) == LLVMVectorTypeKind && LLVMGetVectorSize(ret) == lanes)
        ret = LLVMVectorType(LLVMGetElementType(ret), piece);
    f = LLVMAddFunction(m, name, LLVMFunctionType(ret, params, np, 0));
    LLVMSetFunctionCallConv(f, LLVMGetFunctionCallConv(callee));
    /* function and parameter attributes (readnone, signext on a char operand...) */
    for (int idx = -1; idx <= (int)np; idx++) {
        unsigned where = idx < 0 ? (unsigned)LLVMAttributeFunctionIndex : (unsigned)idx;
        unsigned n = LLVMGetAttributeCountAtIndex(callee, where);
        LLVMAttributeRef attrs[32];
        if (!n || n > sizeof attrs / sizeof *attrs)
            continue;
        LLVMGetAttributesAtIndex(callee, where, attrs);
        for (unsigned k = 0; k < n; k++)
            LLVMAddAttributeAtIndex(f, where, attrs[k]);
    }
    return f;
}

/* Elements [first, first+count) of vector v, as a vector of count elements. */
static LLVMValueRef slice(LLVMBuilderRef b, LLVMValueRef v, unsigned first, unsigned count)
{
    LLVMTypeRef i32 = LLVMInt32TypeInContext(LLVMGetTypeContext(LLVMTypeOf(v)));
    LLVMValueRef mask[16];
    for (unsigned i = 0; i < count; i++)
        mask[i] = LLVMConstInt(i32, first + i, 0);
    return LLVMBuildShuffleVector(b, v, LLVMGetPoison(LLVMTypeOf(v)),
                                  LLVMConstVector(mask, count), "");
}

/* Two vectors of n elements each, as one of 2n. */
static LLVMValueRef join(LLVMBuilderRef b, LLVMValueRef lo, LLVMValueRef hi, unsigned n)
{
    LLVMTypeRef i32 = LLVMInt32TypeInContext(LLVMGetTypeContext(LLVMTypeOf(lo)));
    LLVMValueRef mask[16];
    for (unsigned i = 0; i < 2 * n; i++)
        mask[i] = LLVMConstInt(i32, i, 0);
    return LLVMBuildShuffleVector(b, lo, hi, LLVMConstVector(mask, 2 * n), "");
}

/* Replaces call c by calls of `f` on pieces of `piece` elements: operands of `lanes`
 * elements sliced, the offset operand (offset_arg) of a vload or vstore counted in pieces,
 * results joined again (any, all: or-ed, and-ed; vstore: none). */
static void cut_call(LLVMBuilderRef b, LLVMValueRef c, LLVMValueRef f, enum cut how,
                     int offset_arg, const char *base, unsigned lanes, unsigned piece)
{
    unsigned npieces = lanes / piece, nargs = (unsigned)LLVMGetNumArgOperands(c);
    LLVMValueRef parts[16];
    LLVMPositionBuilderBefore(b, c);
    for (unsigned k = 0; k < npieces; k++) {
        LLVMValueRef args[16];
        for (unsigned a = 0; a < nargs; a++) {
            LLVMValueRef v = LLVMGetOperand(c, a);
            LLVMTypeRef vt = LLVMTypeOf(v);
            if (how == CUT_PLACED && (int)a == offset_arg) {
                /* vloadN(off, p) reads elements off*N..: piece k is vloadP(off*(N/P)+k, p) */
                v = LLVMBuildAdd(b, LLVMBuildMul(b, v, LLVMConstInt(vt, npieces, 0), ""),
                                 LLVMConstInt(vt, k, 0), "");
            } else if (LLVMGetTypeKind(vt) == LLVMVectorTypeKind &&
                       LLVMGetVectorSize(vt) == lanes) {
                v = slice(b, v, k * piece, piece);
            }
            args[a] = v;
        }
        parts[k] = LLVMBuildCall2(b, LLVMGlobalGetValueType(f), f, args, nargs, "");
        LLVMSetInstructionCallConv(parts[k], LLVMGetInstructionCallConv(c));
    }
    if (how == CUT_REDUCE) {
        int any = !strcmp(base, "any");
        for (unsigned k = 1; k < npieces; k++)
            parts[0] = any ? LLVMBuildOr(b, parts[0], parts[k], "")
                           : LLVMBuildAnd(b, parts[0], parts[k], "");
    } else if (LLVMGetTypeKind(LLVMTypeOf(c)) == LLVMVectorTypeKind) {
        for (unsigned n = piece; npieces > 1; n *= 2, npieces /= 2)
            for (unsigned k = 0; k < npieces / 2; k++)
                parts[k] = join(b, parts[2 * k], parts[2 * k + 1], n);
    }
    if (LLVMGetTypeKind(LLVMTypeOf(c)) != LLVMVoidTypeKind)
        LLVMReplaceAllUsesWith(c, parts[0]);
    LLVMInstructionEraseFromParent(c);
}

/* shuffle and shuffle2 as the specification defines them: result element i is element
 * (mask[i] & (m-1)) of x (of m elements), or of x and y together (& (2m-1)). */
static void inline_shuffle(LLVMBuilderRef b, LLVMValueRef c)
{
    unsigned nargs = (unsigned)LLVMGetNumArgOperands(c);
    LLVMValueRef x = LLVMGetOperand(c, 0), mask = LLVMGetOperand(c, nargs - 1);
    unsigned m = LLVMGetVectorSize(LLVMTypeOf(x));
    LLVMTypeRef rt = LLVMTypeOf(c), it = LLVMGetElementType(LLVMTypeOf(mask));
    LLVMTypeRef i32 = LLVMInt32TypeInContext(LLVMGetTypeContext(rt));
    LLVMPositionBuilderBefore(b, c);
    if (nargs == 3)
        x = join(b, x, LLVMGetOperand(c, 1), m);
    unsigned bits = nargs == 3 ? 2 * m - 1 : m - 1;
    LLVMValueRef r = LLVMGetPoison(rt);
    for (unsigned i = 0; i < LLVMGetVectorSize(rt); i++) {
        LLVMValueRef at = LLVMConstInt(i32, i, 0);
        LLVMValueRef idx = LLVMBuildAnd(b, LLVMBuildExtractElement(b, mask, at, ""),
                                        LLVMConstInt(it, bits, 0), "");
        r = LLVMBuildInsertElement(b, r, LLVMBuildExtractElement(b, x, idx, ""), at, "");
    }
    LLVMReplaceAllUsesWith(c, r);
    LLVMInstructionEraseFromParent(c);
}

/* The widest vector among call c's result and operands: its bits, and in *lanes its
 * elements; *piece: the elements of a piece that keeps every vector of that many elements
 * within MAX_BITS. */
static unsigned widest_vector(LLVMValueRef c, unsigned *lanes, unsigned *piece)
{
    unsigned nargs = (unsigned)LLVMGetNumArgOperands(c), widest = vector_bits(LLVMTypeOf(c));
    LLVMTypeRef w = widest ? LLVMTypeOf(c) : NULL;
    for (unsigned a = 0; a < nargs; a++) {
        LLVMTypeRef t = LLVMTypeOf(LLVMGetOperand(c, a));
        if (vector_bits(t) > widest)
            widest = vector_bits(t), w = t;
    }
    if (widest <= MAX_BITS)
        return widest;
    *lanes = LLVMGetVectorSize(w);
    *piece = *lanes;
    for (unsigned a = 0; a <= nargs; a++) {
        LLVMTypeRef t = LLVMTypeOf(a < nargs ? LLVMGetOperand(c, a) : c);
        unsigned bits = LLVMGetTypeKind(t) == LLVMVectorTypeKind && LLVMGetVectorSize(t) == *lanes
                            ? skmd_scalar_bits(LLVMGetElementType(t)) : 0;
        if (bits && MAX_BITS / bits < *piece)
            *piece = MAX_BITS / bits;
    }
    return widest;
}

/* One call: cut when a vector it takes or returns is too wide; -1 with the reason when
 * it cannot be. */
static int visit_call(LLVMModuleRef m, LLVMBuilderRef b, LLVMValueRef c,
                      const struct skmd_pass_opts *opts)
{
    char base[64];
    unsigned lanes = 0, piece = 0;
    unsigned bits = widest_vector(c, &lanes, &piece);
    if (bits <= MAX_BITS || !skmd_opencl_builtin_call(c, base, sizeof base))
        return 0;
    LLVMValueRef callee = LLVMGetCalledValue(c);
    size_t len = 0;
    const char *mangled = LLVMGetValueName2(callee, &len);
    const char *why = NULL;
    int offset_arg = -1;
    enum cut how = how_to_cut(c, base, lanes, &offset_arg, &why);
    if (how == CUT_SHUFFLE) {
        inline_shuffle(b, c);
        return 0;
    }
    char name[256];
    int width_in_name = how == CUT_PLACED || skmd_starts_with(base, "convert_");
    if (how != CUT_NONE && !piece_name(mangled, base, lanes, piece, width_in_name, name,
                                       sizeof name))
        why = "its name could not be narrowed", how = CUT_NONE;
    LLVMValueRef f = how != CUT_NONE ? piece_decl(m, callee, name, lanes, piece) : NULL;
    if (!f)
        return skmd_pass_fail(opts, "PoCL passes the %u-bit vectors of %s wrongly, and the "
                              "call cannot be cut into narrower ones: %s",
                              bits, base, why ? why : "too many operands");
    cut_call(b, c, f, how, offset_arg, base, lanes, piece);
    return 0;
}

int skmd_pocl_cut_wide_calls(LLVMModuleRef m, const struct skmd_pass_opts *opts)
{
    LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
    int err = 0;
    for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn && !err; fn = LLVMGetNextFunction(fn))
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb && !err;
             bb = LLVMGetNextBasicBlock(bb)) {
            LLVMValueRef next;
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i && !err; i = next) {
                next = LLVMGetNextInstruction(i); /* i may be replaced */
                if (LLVMIsACallInst(i))
                    err = visit_call(m, b, i, opts);
            }
        }
    LLVMDisposeBuilder(b);
    return err;
}
