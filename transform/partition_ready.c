/* transform/partition_ready.c: makes each kernel runnable on a share of the work-groups.
 *
 * The kernel keeps its name and parameters and gets the 8 hidden ulong parameters of the
 * ABI (context.h, docs/transform.md). A share of `count` groups is launched with global size
 * (count*L0, L1, L2) and no offset, so the share's own group id is r = get_group_id(0); the
 * kernel rebuilds the launch's group ids from linear = skmd_group_start + r and rewrites
 * every work-item builtin in terms of them. Nothing relies on the driver honouring a global
 * work offset (libclc on NVPTX does not). */
#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "passes.h"

enum { H_START, H_NG0, H_NG1, H_NG2, H_OFF0, H_OFF1, H_OFF2, H_WORK_DIM };

/* Per kernel: the launch's values, computed once in the entry block. */
struct launch {
    LLVMValueRef hidden[SKMD_HIDDEN_PARAMS];
    LLVMValueRef group[3];     /* the launch's group id per dimension (i64) */
};

/* The extra operand each kernel_arg_* metadata list gets per hidden parameter. */
static LLVMMetadataRef hidden_md(const struct skmd_ctx *ctx, const char *kind, unsigned i)
{
    if (!strcmp(kind, "kernel_arg_addr_space"))
        return LLVMValueAsMetadata(LLVMConstInt(ctx->i32, 0, 0));
    const char *s = "";
    if (!strcmp(kind, "kernel_arg_access_qual"))
        s = "none";
    else if (!strcmp(kind, "kernel_arg_type") || !strcmp(kind, "kernel_arg_base_type"))
        s = "ulong";
    else if (!strcmp(kind, "kernel_arg_name"))
        s = skmd_hidden_param_names[i];
    return LLVMMDStringInContext2(ctx->llvm, s, strlen(s));
}

/* Copies fn's metadata to nf, with the kernel_arg_* lists extended by the hidden params. */
static void copy_metadata(const struct skmd_ctx *ctx, LLVMValueRef fn, LLVMValueRef nf)
{
    static const char *const arg_kinds[] = {
        "kernel_arg_addr_space", "kernel_arg_access_qual", "kernel_arg_type",
        "kernel_arg_base_type", "kernel_arg_type_qual", "kernel_arg_name",
    };
    size_t n = 0;
    LLVMValueMetadataEntry *md = LLVMGlobalCopyAllMetadata(fn, &n);
    for (size_t i = 0; i < n; i++) {
        unsigned kind = LLVMValueMetadataEntriesGetKind(md, (unsigned)i);
        LLVMMetadataRef node = LLVMValueMetadataEntriesGetMetadata(md, (unsigned)i);
        const char *arg_kind = NULL;
        for (size_t k = 0; k < sizeof arg_kinds / sizeof *arg_kinds; k++)
            if (kind == LLVMGetMDKindIDInContext(ctx->llvm, arg_kinds[k],
                                                 (unsigned)strlen(arg_kinds[k])))
                arg_kind = arg_kinds[k];
        if (!arg_kind) {
            LLVMGlobalSetMetadata(nf, kind, node);
            continue;
        }
        LLVMValueRef as_value = LLVMMetadataAsValue(ctx->llvm, node);
        unsigned count = LLVMGetMDNodeNumOperands(as_value);
        LLVMValueRef *ops = calloc(count + 1, sizeof *ops);
        LLVMMetadataRef *mds = calloc(count + SKMD_HIDDEN_PARAMS, sizeof *mds);
        if (ops && mds) {
            LLVMGetMDNodeOperands(as_value, ops);
            for (unsigned k = 0; k < count; k++) {
                unsigned len = 0;
                const char *s = LLVMIsAMDString(ops[k]) ? LLVMGetMDString(ops[k], &len) : NULL;
                mds[k] = s ? LLVMMDStringInContext2(ctx->llvm, s, len)
                           : LLVMValueAsMetadata(ops[k]);
            }
            for (unsigned h = 0; h < SKMD_HIDDEN_PARAMS; h++)
                mds[count + h] = hidden_md(ctx, arg_kind, h);
            LLVMGlobalSetMetadata(nf, kind,
                                  LLVMMDNodeInContext2(ctx->llvm, mds, count + SKMD_HIDDEN_PARAMS));
        }
        free(ops);
        free(mds);
    }
    if (md)
        LLVMDisposeValueMetadataEntries(md);
}

static void copy_attributes(LLVMValueRef from, LLVMAttributeIndex from_idx, LLVMValueRef to,
                            LLVMAttributeIndex to_idx)
{
    unsigned n = LLVMGetAttributeCountAtIndex(from, from_idx);
    if (!n)
        return;
    LLVMAttributeRef *attrs = calloc(n, sizeof *attrs);
    if (!attrs)
        return;
    LLVMGetAttributesAtIndex(from, from_idx, attrs);
    for (unsigned i = 0; i < n; i++)
        LLVMAddAttributeAtIndex(to, to_idx, attrs[i]);
    free(attrs);
}

/* A new function with fn's name, parameters + the hidden ones, attributes and metadata; fn's
 * body moved into it; fn deleted. Returns the new kernel. */
static LLVMValueRef extend_kernel(const struct skmd_ctx *ctx, LLVMValueRef fn)
{
    LLVMTypeRef fty = LLVMGlobalGetValueType(fn);
    unsigned nparams = LLVMCountParamTypes(fty);
    LLVMTypeRef *params = calloc(nparams + SKMD_HIDDEN_PARAMS, sizeof *params);
    if (!params)
        return NULL;
    LLVMGetParamTypes(fty, params);
    for (unsigned h = 0; h < SKMD_HIDDEN_PARAMS; h++)
        params[nparams + h] = ctx->i64;
    LLVMTypeRef nfty =
        LLVMFunctionType(LLVMGetReturnType(fty), params, nparams + SKMD_HIDDEN_PARAMS, 0);
    free(params);

    size_t len = 0;
    const char *old_name = LLVMGetValueName2(fn, &len);
    char *name = strndup(old_name, len);
    if (!name)
        return NULL;
    LLVMSetValueName2(fn, "", 0);
    LLVMValueRef nf = LLVMAddFunction(ctx->module, name, nfty);
    free(name);
    LLVMSetFunctionCallConv(nf, LLVMGetFunctionCallConv(fn));
    LLVMSetLinkage(nf, LLVMGetLinkage(fn));
    LLVMSetVisibility(nf, LLVMGetVisibility(fn));
    copy_attributes(fn, LLVMAttributeFunctionIndex, nf, LLVMAttributeFunctionIndex);
    copy_attributes(fn, LLVMAttributeReturnIndex, nf, LLVMAttributeReturnIndex);
    for (unsigned i = 0; i < nparams; i++) {
        copy_attributes(fn, i + 1, nf, i + 1);
        LLVMValueRef old_p = LLVMGetParam(fn, i), new_p = LLVMGetParam(nf, i);
        size_t plen = 0;
        const char *pname = LLVMGetValueName2(old_p, &plen);
        LLVMSetValueName2(new_p, pname, plen);
        LLVMReplaceAllUsesWith(old_p, new_p);
    }
    for (unsigned h = 0; h < SKMD_HIDDEN_PARAMS; h++)
        LLVMSetValueName2(LLVMGetParam(nf, nparams + h), skmd_hidden_param_names[h],
                          strlen(skmd_hidden_param_names[h]));
    LLVMAddAttributeAtIndex(nf, LLVMAttributeFunctionIndex,
                            LLVMCreateStringAttribute(ctx->llvm, SKMD_ATTR_PARTITION_READY,
                                                      strlen(SKMD_ATTR_PARTITION_READY), "1", 1));
    copy_metadata(ctx, fn, nf);

    LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn);
    while (b) {
        LLVMBasicBlockRef next = LLVMGetNextBasicBlock(b);
        LLVMRemoveBasicBlockFromParent(b);
        LLVMAppendExistingBasicBlock(nf, b);
        b = next;
    }
    /* Opaque pointers: both are `ptr`, so references (NVPTX's nvvm.annotations) follow. */
    LLVMReplaceAllUsesWith(fn, nf);
    LLVMDeleteFunction(fn);
    return nf;
}

static LLVMValueRef call_builtin_dyn(const struct skmd_ctx *ctx, LLVMBuilderRef b,
                                     enum skmd_builtin which, LLVMValueRef arg)
{
    LLVMValueRef f = skmd_ctx_builtin_decl(ctx, which);
    LLVMValueRef call = LLVMBuildCall2(b, LLVMGlobalGetValueType(f), f, &arg,
                                       skmd_builtin_has_dim(which) ? 1 : 0, "");
    LLVMSetInstructionCallConv(call, LLVMGetFunctionCallConv(f));
    return LLVMBuildZExt(b, call, ctx->i64, ""); /* no-op cast when size_t is i64 */
}

static LLVMValueRef call_builtin(const struct skmd_ctx *ctx, LLVMBuilderRef b,
                                 enum skmd_builtin which, unsigned dim)
{
    return call_builtin_dyn(ctx, b, which, LLVMConstInt(ctx->i32, dim, 0));
}

/* The value for a dimension >= 3. On PoCL, the driver's own answer (so the result is the
 * same bytes as the original launch); on NVPTX the specification's, since libclc lacks
 * get_global_offset: 1 for the sizes and counts, 0 for ids and offsets. */
static LLVMValueRef out_of_range(const struct skmd_ctx *ctx, LLVMBuilderRef b,
                                 enum skmd_builtin which, LLVMValueRef dim)
{
    if (ctx->target != SKMD_TARGET_NVPTX)
        return call_builtin_dyn(ctx, b, which, dim);
    int one = which == SKMD_BUILTIN_NUM_GROUPS || which == SKMD_BUILTIN_GLOBAL_SIZE;
    return LLVMConstInt(ctx->i64, one, 0);
}

/* The group ids of the whole launch, from linear = start + r (r: the share's own group). */
static void build_launch(const struct skmd_ctx *ctx, LLVMBuilderRef b, LLVMValueRef kernel,
                         struct launch *l)
{
    unsigned n = LLVMCountParams(kernel);
    for (unsigned h = 0; h < SKMD_HIDDEN_PARAMS; h++)
        l->hidden[h] = LLVMGetParam(kernel, n - SKMD_HIDDEN_PARAMS + h);
    LLVMValueRef r = call_builtin(ctx, b, SKMD_BUILTIN_GROUP_ID, 0);
    LLVMValueRef linear = LLVMBuildAdd(b, l->hidden[H_START], r, "skmd.linear");
    LLVMValueRef yz = LLVMBuildUDiv(b, linear, l->hidden[H_NG0], "");
    l->group[0] = LLVMBuildURem(b, linear, l->hidden[H_NG0], "skmd.g0");
    l->group[1] = LLVMBuildURem(b, yz, l->hidden[H_NG1], "skmd.g1");
    l->group[2] = LLVMBuildUDiv(b, yz, l->hidden[H_NG1], "skmd.g2");
}

/* The launch's value of builtin `which` in a constant dimension d < 3 (i64). */
static LLVMValueRef value_in_dim(const struct skmd_ctx *ctx, LLVMBuilderRef b,
                                 const struct launch *l, enum skmd_builtin which, unsigned d)
{
    switch (which) {
    case SKMD_BUILTIN_GROUP_ID:
        return l->group[d];
    case SKMD_BUILTIN_NUM_GROUPS:
        return l->hidden[H_NG0 + d];
    case SKMD_BUILTIN_GLOBAL_OFFSET:
        return l->hidden[H_OFF0 + d];
    case SKMD_BUILTIN_GLOBAL_SIZE:
        return LLVMBuildMul(b, l->hidden[H_NG0 + d],
                            call_builtin(ctx, b, SKMD_BUILTIN_LOCAL_SIZE, d), "");
    case SKMD_BUILTIN_GLOBAL_ID: {
        LLVMValueRef base = LLVMBuildMul(b, l->group[d],
                                         call_builtin(ctx, b, SKMD_BUILTIN_LOCAL_SIZE, d), "");
        LLVMValueRef lid = call_builtin(ctx, b, SKMD_BUILTIN_LOCAL_ID, d);
        return LLVMBuildAdd(b, LLVMBuildAdd(b, base, lid, ""), l->hidden[H_OFF0 + d], "");
    }
    default:
        return NULL;
    }
}

/* get_global_linear_id() = (id2-o2)*size1*size0 + (id1-o1)*size0 + (id0-o0). */
static LLVMValueRef global_linear_id(const struct skmd_ctx *ctx, LLVMBuilderRef b,
                                     const struct launch *l)
{
    LLVMValueRef acc = LLVMConstInt(ctx->i64, 0, 0);
    for (int d = 2; d >= 0; d--) {
        LLVMValueRef id = LLVMBuildSub(b, value_in_dim(ctx, b, l, SKMD_BUILTIN_GLOBAL_ID, d),
                                       l->hidden[H_OFF0 + d], "");
        LLVMValueRef size = value_in_dim(ctx, b, l, SKMD_BUILTIN_GLOBAL_SIZE, d);
        acc = LLVMBuildAdd(b, LLVMBuildMul(b, acc, size, ""), id, "");
    }
    return acc;
}

/* Replaces one builtin call (saved before: the caller keeps iterating past it). */
static void rewrite_call(const struct skmd_ctx *ctx, LLVMBuilderRef b, const struct launch *l,
                         LLVMValueRef call, enum skmd_builtin which)
{
    LLVMPositionBuilderBefore(b, call);
    LLVMValueRef v;
    if (which == SKMD_BUILTIN_GLOBAL_LINEAR_ID) {
        v = global_linear_id(ctx, b, l);
    } else if (which == SKMD_BUILTIN_WORK_DIM) {
        v = l->hidden[H_WORK_DIM]; /* libclc has no get_work_dim for NVPTX */
    } else {
        LLVMValueRef dim = LLVMGetOperand(call, 0);
        /* Dimensions in [work_dim, 3) come out right from the runtime's num_groups 1 and
         * offset 0; 3 and up: out_of_range. */
        if (LLVMIsAConstantInt(dim)) {
            unsigned long long d = LLVMConstIntGetZExtValue(dim);
            v = d < 3 ? value_in_dim(ctx, b, l, which, (unsigned)d)
                      : out_of_range(ctx, b, which, dim);
        } else {
            /* A dimension known only at run time: pick among the three. */
            v = out_of_range(ctx, b, which, dim);
            for (int d = 2; d >= 0; d--) {
                LLVMValueRef is_d = LLVMBuildICmp(b, LLVMIntEQ, dim,
                                                  LLVMConstInt(LLVMTypeOf(dim), d, 0), "");
                v = LLVMBuildSelect(b, is_d, value_in_dim(ctx, b, l, which, d), v, "");
            }
        }
    }
    LLVMTypeRef want = LLVMTypeOf(call);
    if (LLVMGetIntTypeWidth(want) < 64)
        v = LLVMBuildTrunc(b, v, want, "");
    LLVMReplaceAllUsesWith(call, v);
    LLVMInstructionEraseFromParent(call);
}

static int rewrite_kernel(const struct skmd_ctx *ctx, LLVMValueRef kernel)
{
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx->llvm);
    /* The calls to rewrite, found before any new builtin call is added. */
    size_t n = 0, cap = 0;
    LLVMValueRef *calls = NULL;
    int rc = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(kernel); bb;
         bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
            if (!LLVMIsACallInst(i))
                continue;
            enum skmd_builtin which = skmd_builtin_of(LLVMGetCalledValue(i));
            if (which == SKMD_BUILTIN_NONE || which == SKMD_BUILTIN_LOCAL_ID ||
                which == SKMD_BUILTIN_LOCAL_SIZE || which == SKMD_BUILTIN_ENQUEUED_LOCAL_SIZE ||
                which == SKMD_BUILTIN_LOCAL_LINEAR_ID)
                continue; /* the same in a share as in the whole launch */
            if (n == cap) {
                cap = cap ? 2 * cap : 16;
                LLVMValueRef *grown = realloc(calls, cap * sizeof *calls);
                if (!grown) {
                    rc = -1;
                    goto out;
                }
                calls = grown;
            }
            calls[n++] = i;
        }

    LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(kernel);
    LLVMValueRef first = LLVMGetFirstInstruction(entry);
    /* Allocas stay first in the entry block. */
    while (first && LLVMIsAAllocaInst(first))
        first = LLVMGetNextInstruction(first);
    if (first)
        LLVMPositionBuilderBefore(b, first);
    else
        LLVMPositionBuilderAtEnd(b, entry);
    struct launch l;
    build_launch(ctx, b, kernel, &l);
    for (size_t i = 0; i < n; i++)
        rewrite_call(ctx, b, &l, calls[i], skmd_builtin_of(LLVMGetCalledValue(calls[i])));
out:
    free(calls);
    LLVMDisposeBuilder(b);
    return rc;
}

int skmd_pass_partition_ready(LLVMModuleRef m, const struct skmd_pass_opts *opts)
{
    struct skmd_ctx ctx;
    skmd_ctx_init(&ctx, m);
    /* The rewrite emits calls of OpenCL's types: a builtin declared otherwise would leave
     * a module that does not verify. */
    LLVMValueRef misdeclared = skmd_builtin_misdeclared(m);
    if (misdeclared) {
        size_t len = 0;
        const char *name = LLVMGetValueName2(misdeclared, &len);
        return skmd_pass_fail(opts, "%.*s is declared with a signature that is not OpenCL's",
                              (int)len, name);
    }
    size_t n = 0;
    LLVMValueRef *kernels = skmd_ctx_kernels(&ctx, &n);
    int rc = 0, done = 0;
    for (size_t i = 0; i < n && !rc; i++) {
        size_t len = 0;
        const char *name = LLVMGetValueName2(kernels[i], &len);
        if (opts && opts->kernel_name &&
            (strlen(opts->kernel_name) != len || memcmp(opts->kernel_name, name, len)))
            continue;
        if (skmd_is_partition_ready(kernels[i]))
            continue;
        if (LLVMGetTypeKind(LLVMGetReturnType(LLVMGlobalGetValueType(kernels[i]))) !=
            LLVMVoidTypeKind) {
            rc = skmd_pass_fail(opts, "kernel %.*s does not return void", (int)len, name);
            break;
        }
        LLVMValueRef nk = extend_kernel(&ctx, kernels[i]);
        if (!nk || rewrite_kernel(&ctx, nk))
            rc = skmd_pass_fail(opts, "out of memory");
        done++;
    }
    free(kernels);
    if (!rc && opts && opts->kernel_name && !done)
        rc = skmd_pass_fail(opts, "no kernel named %s", opts->kernel_name);
    return rc;
}
