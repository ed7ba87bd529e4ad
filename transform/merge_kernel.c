/* transform/merge_kernel.c: skmd_pass_merge. For each splittable kernel that writes global
 * memory, NAME__skmd_merge: the partition-ready kernel with, per written global pointer
 * parameter X (in parameter order), one more __global pointer src_X to the device's copy of
 * that buffer; every global store `*p = v` (p derived from X) becomes
 * `*p = *(src_X + (p - X))`, vstoreN likewise, printf calls go, and dead-code elimination
 * removes the computations whose results no store needs any more. Run on the CPU device
 * over one device's work-groups with X = the canonical copy, it copies exactly the bytes
 * that device wrote, whatever their places (ABI: docs/transform.md). */
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Transforms/PassBuilder.h>

#include "analysis.h"
#include "context.h"
#include "llvm_shim.h"
#include "passes.h"
#include "record.h"

#define MERGE_SUFFIX "__skmd_merge"

/* The parameter index ptr is based on, through GEPs and casts (-1: none or ambiguous). */
static int base_param(LLVMValueRef fn, LLVMValueRef ptr, int depth)
{
    if (depth > 48)
        return -1;
    unsigned n = LLVMCountParams(fn);
    for (unsigned i = 0; i < n; i++)
        if (LLVMGetParam(fn, i) == ptr)
            return (int)i;
    LLVMOpcode op = LLVMIsAInstruction(ptr)    ? LLVMGetInstructionOpcode(ptr)
                    : LLVMIsAConstantExpr(ptr) ? LLVMGetConstOpcode(ptr)
                                               : 0;
    if (op == LLVMGetElementPtr || op == LLVMBitCast || op == LLVMAddrSpaceCast)
        return base_param(fn, LLVMGetOperand(ptr, 0), depth + 1);
    if (op == LLVMPHI || op == LLVMSelect) {
        unsigned k = op == LLVMPHI ? LLVMCountIncoming(ptr) : 2;
        int base = -2;
        for (unsigned i = 0; i < k; i++) {
            LLVMValueRef in = op == LLVMPHI ? LLVMGetIncomingValue(ptr, i)
                                            : LLVMGetOperand(ptr, i + 1);
            if (in == ptr)
                continue;
            int b = base_param(fn, in, depth + 1);
            if (b < 0 || (base >= 0 && b != base))
                return -1;
            base = b;
        }
        return base;
    }
    return -1;
}

#define MAX_KERNEL_LOCALS 64

/* The merge kernel's own copies of the kernel's function-scope __local variables (clang
 * names them "KERNEL.VAR"). PoCL allocates a __local global per work-group only for the
 * kernel its name starts with; shared with the merge kernel by name, it would be one
 * buffer for all of the merge's work-groups, which then overwrite each other's values
 * (a store address read back from __local memory went wrong). Returns how many, or
 * MAX_KERNEL_LOCALS + 1 when there are too many. */
static unsigned own_locals(const struct skmd_ctx *ctx, LLVMValueRef fn, const char *mname,
                           LLVMValueRef *olds, LLVMValueRef *news)
{
    size_t len = 0;
    const char *kname = LLVMGetValueName2(fn, &len);
    unsigned n = 0;
    for (LLVMValueRef g = LLVMGetFirstGlobal(ctx->module); g; g = LLVMGetNextGlobal(g)) {
        size_t glen = 0;
        const char *gname = LLVMGetValueName2(g, &glen);
        if (LLVMGetPointerAddressSpace(LLVMTypeOf(g)) != ctx->as_local || glen <= len ||
            memcmp(gname, kname, len) != 0 || gname[len] != '.')
            continue;
        if (n == MAX_KERNEL_LOCALS)
            return n + 1;
        char copy[600];
        snprintf(copy, sizeof copy, "%s%.*s", mname, (int)(glen - len), gname + len);
        LLVMValueRef c = LLVMAddGlobalInAddressSpace(ctx->module, LLVMGlobalGetValueType(g),
                                                     copy, ctx->as_local);
        LLVMSetLinkage(c, LLVMGetLinkage(g));
        LLVMSetAlignment(c, LLVMGetAlignment(g));
        if (LLVMGetInitializer(g))
            LLVMSetInitializer(c, LLVMGetInitializer(g));
        olds[n] = g;
        news[n++] = c;
    }
    return n;
}

static const char *callee_name(LLVMValueRef call, size_t *len)
{
    LLVMValueRef f = LLVMGetCalledValue(call);
    *len = 0;
    return f && LLVMIsAFunction(f) ? LLVMGetValueName2(f, len) : "";
}

/* vstoreN(data, offset, p): mangled "_Z7vstore<N>..." */
static int is_vstore(LLVMValueRef call, unsigned *count)
{
    size_t len;
    const char *n = callee_name(call, &len);
    if (len < 10 || strncmp(n, "_Z", 2))
        return 0;
    const char *v = strstr(n, "vstore");
    if (!v || v[6] < '1' || v[6] > '9')
        return 0;
    *count = (unsigned)strtoul(v + 6, NULL, 10);
    return *count >= 2 && *count <= 16;
}

/* vstore[a]_half[N][_rt?](data, offset, p): the halves written and the offset's step. */
static int is_vstore_half(LLVMValueRef call, unsigned *count, unsigned *stride)
{
    char name[64];
    an_callee_name(call, name, sizeof name);
    return !strncmp(name, "vstore", 6) && an_half_builtin(name + 6, 1, count, stride);
}

static int is_printf(LLVMValueRef call)
{
    size_t len;
    const char *n = callee_name(call, &len);
    return len == 6 && !memcmp(n, "printf", 6);
}

/* The written pointer parameters of kernel fn: from the record when there is one, else
 * from the stores in the IR. Returns their count; which[i] set for each. */
static unsigned written_params(const struct skmd_ctx *ctx, LLVMValueRef fn,
                               const struct skmd_kernel_record *rec, unsigned nparams,
                               unsigned char *which)
{
    unsigned count = 0;
    memset(which, 0, nparams);
    if (rec) {
        for (unsigned p = 0; p < rec->nparams && p < nparams; p++)
            if ((rec->params[p].kind == SKMD_PARAM_GLOBAL) &&
                (rec->params[p].access & SKMD_ACCESS_WRITE))
                which[p] = 1;
    } else {
        for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b))
            for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
                unsigned vc, vs;
                LLVMValueRef ptr = NULL;
                if (LLVMGetInstructionOpcode(i) == LLVMStore)
                    ptr = LLVMGetOperand(i, 1);
                else if (LLVMGetInstructionOpcode(i) == LLVMCall &&
                         (is_vstore(i, &vc) || is_vstore_half(i, &vc, &vs)))
                    ptr = LLVMGetOperand(i, (unsigned)LLVMGetNumArgOperands(i) - 1);
                if (!ptr || skmd_pointer_space(ctx, ptr) != ctx->as_global)
                    continue;
                int p = base_param(fn, ptr, 0);
                if (p >= 0 && (unsigned)p < nparams)
                    which[p] = 1;
            }
    }
    for (unsigned p = 0; p < nparams; p++)
        count += which[p];
    return count;
}

/* kernel_arg_* metadata of the merge kernel: the kernel's lists plus one entry per source
 * pointer (a copy of its buffer's entry; the name prefixed with skmd_src_). */
static void extend_metadata(const struct skmd_ctx *ctx, LLVMValueRef mf, const int *src_of,
                            unsigned nsrc)
{
    static const char *const kinds[] = {"kernel_arg_addr_space", "kernel_arg_access_qual",
                                        "kernel_arg_type", "kernel_arg_base_type",
                                        "kernel_arg_type_qual", "kernel_arg_name"};
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        unsigned id = LLVMGetMDKindIDInContext(ctx->llvm, kinds[k], (unsigned)strlen(kinds[k]));
        LLVMMetadataRef node = NULL;
        size_t n = 0;
        LLVMValueMetadataEntry *md = LLVMGlobalCopyAllMetadata(mf, &n);
        for (size_t e = 0; e < n; e++)
            if (LLVMValueMetadataEntriesGetKind(md, (unsigned)e) == id)
                node = LLVMValueMetadataEntriesGetMetadata(md, (unsigned)e);
        if (md)
            LLVMDisposeValueMetadataEntries(md);
        if (!node)
            continue;
        LLVMValueRef as_value = LLVMMetadataAsValue(ctx->llvm, node);
        unsigned count = LLVMGetMDNodeNumOperands(as_value);
        LLVMValueRef *ops = calloc(count + 1, sizeof *ops);
        LLVMMetadataRef *mds = calloc(count + nsrc + 1, sizeof *mds);
        if (ops && mds) {
            LLVMGetMDNodeOperands(as_value, ops);
            for (unsigned i = 0; i < count + nsrc; i++) {
                unsigned from = i < count ? i : (unsigned)src_of[i - count];
                LLVMValueRef op = from < count ? ops[from] : NULL;
                unsigned len = 0;
                const char *s = op && LLVMIsAMDString(op) ? LLVMGetMDString(op, &len) : NULL;
                if (i >= count && !strcmp(kinds[k], "kernel_arg_name")) {
                    char name[160];
                    snprintf(name, sizeof name, "skmd_src_%.*s", (int)len, s ? s : "");
                    mds[i] = LLVMMDStringInContext2(ctx->llvm, name, strlen(name));
                } else if (s) {
                    mds[i] = LLVMMDStringInContext2(ctx->llvm, s, len);
                } else if (op) {
                    mds[i] = LLVMValueAsMetadata(op);
                } else {
                    mds[i] = LLVMMDStringInContext2(ctx->llvm, "", 0);
                }
            }
            LLVMGlobalSetMetadata(mf, id, LLVMMDNodeInContext2(ctx->llvm, mds, count + nsrc));
        }
        free(ops);
        free(mds);
    }
}

/* src + (p - base): the same place in the device's copy. */
static LLVMValueRef same_place(const struct skmd_ctx *ctx, LLVMBuilderRef b, LLVMValueRef p,
                               LLVMValueRef base, LLVMValueRef src, LLVMValueRef extra_bytes)
{
    LLVMValueRef off = LLVMBuildSub(b, LLVMBuildPtrToInt(b, p, ctx->i64, ""),
                                    LLVMBuildPtrToInt(b, base, ctx->i64, ""), "skmd.off");
    if (extra_bytes)
        off = LLVMBuildAdd(b, off, extra_bytes, "");
    return LLVMBuildGEP2(b, ctx->i8, src, &off, 1, "skmd.src");
}

/* Replaces vstore_half-family call i (writing through parameter p's pointer) by a copy of
 * the same halves, as raw 16-bit integers, from the device's copy src: no conversion,
 * so every bit pattern comes back as the device wrote it. */
static void copy_halves(const struct skmd_ctx *ctx, LLVMBuilderRef b, LLVMValueRef i,
                        LLVMValueRef base, LLVMValueRef src, unsigned count, unsigned stride)
{
    unsigned nargs = (unsigned)LLVMGetNumArgOperands(i);
    LLVMValueRef ptr = LLVMGetOperand(i, nargs - 1), index = LLVMGetOperand(i, nargs - 2);
    LLVMValueRef bytes = LLVMBuildMul(b, LLVMBuildZExtOrBitCast(b, index, ctx->i64, ""),
                                      LLVMConstInt(ctx->i64, 2ull * stride, 0), "");
    LLVMTypeRef i16 = LLVMInt16TypeInContext(ctx->llvm);
    LLVMTypeRef t = count == 1 ? i16 : LLVMVectorType(i16, count);
    LLVMValueRef from = same_place(ctx, b, ptr, base, src, bytes);
    LLVMValueRef to = LLVMBuildGEP2(b, ctx->i8, ptr, &bytes, 1, "skmd.dst");
    LLVMValueRef copy = LLVMBuildLoad2(b, t, from, "skmd.copy");
    LLVMSetAlignment(copy, 2);
    LLVMSetAlignment(LLVMBuildStore(b, copy, to), 2);
    LLVMInstructionEraseFromParent(i);
}

/* Rewrites the stores of merge kernel mf; nparams: the partition-ready kernel's count. */
static int rewrite_stores(const struct skmd_ctx *ctx, LLVMValueRef mf, unsigned nparams,
                          const int *src_param, const struct skmd_pass_opts *opts)
{
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx->llvm);
    int rc = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(mf); bb && !rc;
         bb = LLVMGetNextBasicBlock(bb)) {
        LLVMValueRef next;
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i && !rc; i = next) {
            next = LLVMGetNextInstruction(i); /* i may be erased */
            LLVMOpcode op = LLVMGetInstructionOpcode(i);
            unsigned vc = 0;
            if (op == LLVMCall && is_printf(i)) {
                LLVMReplaceAllUsesWith(i, LLVMConstNull(LLVMTypeOf(i)));
                LLVMInstructionEraseFromParent(i);
                continue;
            }
            unsigned hstride = 0;
            int half = op == LLVMCall && is_vstore_half(i, &vc, &hstride);
            int vstore = !half && op == LLVMCall && is_vstore(i, &vc);
            if (op != LLVMStore && !vstore && !half)
                continue;
            unsigned nargs = vstore || half ? (unsigned)LLVMGetNumArgOperands(i) : 2;
            LLVMValueRef ptr = LLVMGetOperand(i, vstore || half ? nargs - 1 : 1);
            if (skmd_pointer_space(ctx, ptr) != ctx->as_global)
                continue;
            int p = base_param(mf, ptr, 0);
            int src = p >= 0 && (unsigned)p < nparams ? src_param[p] : -1;
            if (src < 0) {
                rc = skmd_pass_fail(opts, "merge: a global store not based on a written "
                                          "parameter");
                break;
            }
            LLVMPositionBuilderBefore(b, i);
            if (half) {
                copy_halves(ctx, b, i, LLVMGetParam(mf, (unsigned)p),
                            LLVMGetParam(mf, (unsigned)src), vc, hstride);
                continue;
            }
            LLVMValueRef value = LLVMGetOperand(i, 0);
            LLVMTypeRef vt = LLVMTypeOf(value);
            LLVMValueRef extra = NULL;
            unsigned vstore_align = 1;
            if (vstore) { /* vstoreN(data, offset, p) writes p[offset*N ...] */
                LLVMValueRef index = LLVMGetOperand(i, nargs - 2);
                LLVMTypeRef et = LLVMGetElementType(vt);
                unsigned bits = skmd_scalar_bits(et);
                unsigned long long esize = bits ? bits / 8 : 4;
                vstore_align = (unsigned)esize; /* vstoreN's pointer: element-aligned */
                extra = LLVMBuildMul(b, LLVMBuildZExtOrBitCast(b, index, ctx->i64, ""),
                                     LLVMConstInt(ctx->i64, esize * vc, 0), "");
            }
            LLVMValueRef from = same_place(ctx, b, ptr, LLVMGetParam(mf, (unsigned)p),
                                           LLVMGetParam(mf, (unsigned)src), extra);
            LLVMValueRef copy = LLVMBuildLoad2(b, vt, from, "skmd.copy");
            LLVMSetAlignment(copy, vstore ? vstore_align : LLVMGetAlignment(i));
            LLVMSetOperand(i, 0, copy);
        }
    }
    LLVMDisposeBuilder(b);
    return rc;
}

static int make_merge_kernel(const struct skmd_ctx *ctx, LLVMValueRef fn,
                             const struct skmd_kernel_record *rec,
                             const struct skmd_pass_opts *opts)
{
    LLVMTypeRef fty = LLVMGlobalGetValueType(fn);
    unsigned n = LLVMCountParamTypes(fty);
    unsigned char *which = calloc(n ? n : 1, 1);
    int *src_param = malloc((n ? n : 1) * sizeof *src_param);  /* param -> its source */
    int *src_of = malloc((n ? n : 1) * sizeof *src_of);        /* source -> its param */
    LLVMTypeRef *types = calloc(2 * (size_t)n + 1, sizeof *types);
    int rc = -1;
    if (!which || !src_param || !src_of || !types) {
        skmd_pass_fail(opts, "merge: out of memory");
        goto out;
    }
    unsigned nsrc = written_params(ctx, fn, rec, n, which);
    if (!nsrc) {
        rc = 0; /* writes nothing global: nothing to merge */
        goto out;
    }
    LLVMGetParamTypes(fty, types);
    unsigned k = 0;
    for (unsigned p = 0; p < n; p++) {
        src_param[p] = which[p] ? (int)(n + k) : -1;
        if (which[p]) {
            src_of[k] = (int)p;
            types[n + k++] = types[p];
        }
    }
    size_t len = 0;
    const char *name = LLVMGetValueName2(fn, &len);
    char mname[512];
    snprintf(mname, sizeof mname, "%.*s%s", (int)len, name, MERGE_SUFFIX);
    if (LLVMGetNamedFunction(ctx->module, mname)) {
        rc = 0; /* made already */
        goto out;
    }
    LLVMValueRef mf = LLVMAddFunction(ctx->module, mname,
                                      LLVMFunctionType(LLVMGetReturnType(fty), types, n + nsrc, 0));
    LLVMSetFunctionCallConv(mf, LLVMGetFunctionCallConv(fn));
    LLVMValueRef old_locals[MAX_KERNEL_LOCALS], new_locals[MAX_KERNEL_LOCALS];
    unsigned nlocals = own_locals(ctx, fn, mname, old_locals, new_locals);
    if (nlocals > MAX_KERNEL_LOCALS ||
        skmd_shim_clone_body(fn, mf, old_locals, new_locals, nlocals)) {
        LLVMDeleteFunction(mf);
        skmd_pass_fail(opts, "merge: cannot clone kernel %s", name);
        goto out;
    }
    for (unsigned s = 0; s < nsrc; s++) {
        char pname[160];
        size_t pl = 0;
        const char *orig = LLVMGetValueName2(LLVMGetParam(fn, (unsigned)src_of[s]), &pl);
        snprintf(pname, sizeof pname, "skmd_src_%.*s", (int)pl, orig);
        LLVMSetValueName2(LLVMGetParam(mf, n + s), pname, strlen(pname));
    }
    extend_metadata(ctx, mf, src_of, nsrc);
    rc = rewrite_stores(ctx, mf, n, src_param, opts);
out:
    free(which);
    free(src_param);
    free(src_of);
    free(types);
    return rc;
}

static int has_suffix(const char *s, size_t len, const char *suffix)
{
    size_t n = strlen(suffix);
    return len >= n && !memcmp(s + len - n, suffix, n);
}

int skmd_pass_merge(LLVMModuleRef m, const struct skmd_pass_opts *opts)
{
    struct skmd_ctx ctx;
    skmd_ctx_init(&ctx, m);
    size_t n = 0;
    LLVMValueRef *kernels = skmd_ctx_kernels(&ctx, &n);
    int rc = 0, made = 0;
    for (size_t i = 0; i < n && !rc; i++) {
        size_t len = 0;
        const char *name = LLVMGetValueName2(kernels[i], &len);
        if (has_suffix(name, len, MERGE_SUFFIX))
            continue;
        if (opts->kernel_name &&
            (strlen(opts->kernel_name) != len || memcmp(opts->kernel_name, name, len)))
            continue;
        char kname[512];
        snprintf(kname, sizeof kname, "%.*s", (int)len, name);
        const struct skmd_kernel_record *rec =
            opts->record ? skmd_record_find(opts->record, kname) : NULL;
        if (rec && !rec->splittable)
            continue; /* runs whole on one device: never merged */
        if (!LLVMGetStringAttributeAtIndex(kernels[i], LLVMAttributeFunctionIndex,
                                           SKMD_ATTR_PARTITION_READY,
                                           (unsigned)strlen(SKMD_ATTR_PARTITION_READY))) {
            rc = skmd_pass_fail(opts, "merge: kernel %s is not partition-ready", kname);
            break;
        }
        rc = make_merge_kernel(&ctx, kernels[i], rec, opts);
        made = 1;
    }
    free(kernels);
    if (rc || !made)
        return rc;
    /* the values the stores no longer need die */
    LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
    LLVMErrorRef e = LLVMRunPasses(m, "function(instcombine,adce,simplifycfg)", NULL, po);
    LLVMDisposePassBuilderOptions(po);
    if (e) {
        char *msg = LLVMGetErrorMessage(e);
        rc = skmd_pass_fail(opts, "merge: clean-up failed: %s", msg);
        LLVMDisposeErrorMessage(msg);
    }
    return rc;
}
