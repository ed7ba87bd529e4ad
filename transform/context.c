/* transform/context.c: the per-module facts every pass shares (see context.h). */
#include "context.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Target.h>

#include "passes.h"

int skmd_pass_fail(const struct skmd_pass_opts *opts, const char *fmt, ...)
{
    if (opts && opts->err && opts->err_size) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(opts->err, opts->err_size, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static enum skmd_target target_of(LLVMModuleRef m)
{
    const char *triple = LLVMGetTarget(m);
    if (!triple)
        return SKMD_TARGET_OTHER;
    if (!strncmp(triple, "spir", 4))
        return SKMD_TARGET_SPIR;
    if (!strncmp(triple, "nvptx", 5))
        return SKMD_TARGET_NVPTX;
    return SKMD_TARGET_OTHER;
}

void skmd_ctx_init(struct skmd_ctx *ctx, LLVMModuleRef m)
{
    memset(ctx, 0, sizeof *ctx);
    ctx->module = m;
    ctx->llvm = LLVMGetModuleContext(m);
    ctx->target = target_of(m);
    ctx->as_private = 0;
    ctx->as_global = 1;
    ctx->as_local = 3;
    /* NVPTX keeps constants in its own space 4; SPIR uses 2. */
    ctx->as_constant = ctx->target == SKMD_TARGET_NVPTX ? 4 : 2;
    ctx->as_generic = ctx->target == SKMD_TARGET_NVPTX ? ~0u : 4;

    LLVMContextRef c = ctx->llvm;
    ctx->void_t = LLVMVoidTypeInContext(c);
    ctx->i1 = LLVMInt1TypeInContext(c);
    ctx->i8 = LLVMInt8TypeInContext(c);
    ctx->i32 = LLVMInt32TypeInContext(c);
    ctx->i64 = LLVMInt64TypeInContext(c);
    ctx->f32 = LLVMFloatTypeInContext(c);
    ctx->f64 = LLVMDoubleTypeInContext(c);
    ctx->ptr_private = LLVMPointerTypeInContext(c, ctx->as_private);
    ctx->ptr_global = LLVMPointerTypeInContext(c, ctx->as_global);
    ctx->ptr_constant = LLVMPointerTypeInContext(c, ctx->as_constant);
    ctx->ptr_local = LLVMPointerTypeInContext(c, ctx->as_local);
    ctx->md_kind_kernel_arg_addr_space =
        LLVMGetMDKindIDInContext(c, "kernel_arg_addr_space", 21);
}

int skmd_ctx_is_kernel(const struct skmd_ctx *ctx, LLVMValueRef fn)
{
    if (!fn || !LLVMIsAFunction(fn))
        return 0;
    if (LLVMGetFunctionCallConv(fn) == LLVMSPIRKERNELCallConv ||
        LLVMGetFunctionCallConv(fn) == LLVMPTXKernelCallConv)
        return 1;
    size_t n = 0;
    int found = 0;
    LLVMValueMetadataEntry *md = LLVMGlobalCopyAllMetadata(fn, &n);
    for (size_t i = 0; i < n; i++)
        if (LLVMValueMetadataEntriesGetKind(md, (unsigned)i) ==
            ctx->md_kind_kernel_arg_addr_space)
            found = 1;
    if (md)
        LLVMDisposeValueMetadataEntries(md);
    return found;
}

LLVMValueRef *skmd_ctx_kernels(const struct skmd_ctx *ctx, size_t *count)
{
    size_t n = 0, cap = 0;
    LLVMValueRef *out = NULL;
    for (LLVMValueRef f = LLVMGetFirstFunction(ctx->module); f; f = LLVMGetNextFunction(f)) {
        if (LLVMIsDeclaration(f) || !skmd_ctx_is_kernel(ctx, f))
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 8;
            LLVMValueRef *grown = realloc(out, cap * sizeof *out);
            if (!grown) {
                free(out);
                *count = 0;
                return NULL;
            }
            out = grown;
        }
        out[n++] = f;
    }
    *count = n;
    return out;
}

static const struct {
    enum skmd_builtin b;
    const char *name;     /* OpenCL name */
    const char *mangled;  /* Itanium mangling clang uses for it */
} builtins[] = {
    {SKMD_BUILTIN_WORK_DIM, "get_work_dim", "_Z12get_work_dimv"},
    {SKMD_BUILTIN_GLOBAL_SIZE, "get_global_size", "_Z15get_global_sizej"},
    {SKMD_BUILTIN_GLOBAL_ID, "get_global_id", "_Z13get_global_idj"},
    {SKMD_BUILTIN_LOCAL_SIZE, "get_local_size", "_Z14get_local_sizej"},
    {SKMD_BUILTIN_ENQUEUED_LOCAL_SIZE, "get_enqueued_local_size",
     "_Z23get_enqueued_local_sizej"},
    {SKMD_BUILTIN_LOCAL_ID, "get_local_id", "_Z12get_local_idj"},
    {SKMD_BUILTIN_NUM_GROUPS, "get_num_groups", "_Z14get_num_groupsj"},
    {SKMD_BUILTIN_GROUP_ID, "get_group_id", "_Z12get_group_idj"},
    {SKMD_BUILTIN_GLOBAL_OFFSET, "get_global_offset", "_Z17get_global_offsetj"},
    {SKMD_BUILTIN_GLOBAL_LINEAR_ID, "get_global_linear_id", "_Z20get_global_linear_idv"},
    {SKMD_BUILTIN_LOCAL_LINEAR_ID, "get_local_linear_id", "_Z19get_local_linear_idv"},
};

enum skmd_builtin skmd_builtin_named(LLVMValueRef fn)
{
    if (!fn || !LLVMIsAFunction(fn))
        return SKMD_BUILTIN_NONE;
    size_t len = 0;
    const char *name = LLVMGetValueName2(fn, &len);
    for (size_t i = 0; i < sizeof builtins / sizeof builtins[0]; i++)
        if (strlen(builtins[i].mangled) == len && !memcmp(name, builtins[i].mangled, len))
            return builtins[i].b;
    return SKMD_BUILTIN_NONE;
}

/* True when fn's type is OpenCL's for builtin b: a size_t result (the target's pointer
 * width; uint for get_work_dim), and one uint dimension parameter where b takes one. */
static int has_builtin_signature(LLVMValueRef fn, enum skmd_builtin b)
{
    LLVMTypeRef fty = LLVMGlobalGetValueType(fn);
    if (LLVMGetTypeKind(fty) != LLVMFunctionTypeKind || LLVMIsFunctionVarArg(fty))
        return 0;
    LLVMTypeRef ret = LLVMGetReturnType(fty);
    LLVMModuleRef m = LLVMGetGlobalParent(fn);
    unsigned size_bits = 8 * LLVMPointerSize(LLVMGetModuleDataLayout(m));
    unsigned want_bits = b == SKMD_BUILTIN_WORK_DIM ? 32 : size_bits;
    if (LLVMGetTypeKind(ret) != LLVMIntegerTypeKind || LLVMGetIntTypeWidth(ret) != want_bits)
        return 0;
    unsigned nparams = LLVMCountParamTypes(fty);
    if (!skmd_builtin_has_dim(b))
        return nparams == 0;
    if (nparams != 1)
        return 0;
    LLVMTypeRef param;
    LLVMGetParamTypes(fty, &param);
    return LLVMGetTypeKind(param) == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(param) == 32;
}

enum skmd_builtin skmd_builtin_of(LLVMValueRef fn)
{
    enum skmd_builtin b = skmd_builtin_named(fn);
    return b != SKMD_BUILTIN_NONE && has_builtin_signature(fn, b) ? b : SKMD_BUILTIN_NONE;
}

LLVMValueRef skmd_builtin_misdeclared(LLVMModuleRef m)
{
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        if (skmd_builtin_named(f) != SKMD_BUILTIN_NONE && skmd_builtin_of(f) == SKMD_BUILTIN_NONE)
            return f;
    return NULL;
}

const char *skmd_builtin_name(enum skmd_builtin b)
{
    for (size_t i = 0; i < sizeof builtins / sizeof builtins[0]; i++)
        if (builtins[i].b == b)
            return builtins[i].name;
    return "";
}

int skmd_builtin_has_dim(enum skmd_builtin b)
{
    return b >= SKMD_BUILTIN_GLOBAL_SIZE && b <= SKMD_BUILTIN_GLOBAL_OFFSET;
}

LLVMValueRef skmd_ctx_builtin_decl(const struct skmd_ctx *ctx, enum skmd_builtin b)
{
    const char *mangled = NULL;
    for (size_t i = 0; i < sizeof builtins / sizeof builtins[0]; i++)
        if (builtins[i].b == b)
            mangled = builtins[i].mangled;
    if (!mangled)
        return NULL;
    LLVMValueRef f = LLVMGetNamedFunction(ctx->module, mangled);
    if (f)
        return f;
    /* size_t is the pointer width of the target: i64 on spir64 and nvptx64. */
    LLVMTypeRef size_t_type =
        LLVMPointerSize(LLVMGetModuleDataLayout(ctx->module)) == 4 ? ctx->i32 : ctx->i64;
    LLVMTypeRef ret = b == SKMD_BUILTIN_WORK_DIM ? ctx->i32 : size_t_type;
    LLVMTypeRef param = ctx->i32;
    LLVMTypeRef fty = LLVMFunctionType(ret, &param, skmd_builtin_has_dim(b) ? 1 : 0, 0);
    f = LLVMAddFunction(ctx->module, mangled, fty);
    if (ctx->target == SKMD_TARGET_SPIR)
        LLVMSetFunctionCallConv(f, LLVMSPIRFUNCCallConv);
    return f;
}

const char *const skmd_hidden_param_names[SKMD_HIDDEN_PARAMS] = {
    "skmd_group_start",     "skmd_num_groups_0",    "skmd_num_groups_1",
    "skmd_num_groups_2",    "skmd_global_offset_0", "skmd_global_offset_1",
    "skmd_global_offset_2", "skmd_work_dim",
};

int skmd_is_partition_ready(LLVMValueRef fn)
{
    size_t len = strlen(SKMD_ATTR_PARTITION_READY);
    return fn && LLVMIsAFunction(fn) &&
           LLVMGetStringAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                                         SKMD_ATTR_PARTITION_READY, (unsigned)len) != NULL;
}

unsigned skmd_inst_line(LLVMValueRef inst)
{
    if (!inst || !LLVMIsAInstruction(inst))
        return 0;
    return LLVMGetDebugLocLine(inst);
}

static unsigned root_space(const struct skmd_ctx *ctx, LLVMValueRef ptr, int depth)
{
    LLVMTypeRef t = LLVMTypeOf(ptr);
    if (LLVMGetTypeKind(t) != LLVMPointerTypeKind)
        return ctx->as_generic;
    unsigned as = LLVMGetPointerAddressSpace(t);
    if (as != ctx->as_generic || depth > 32)
        return as;
    LLVMOpcode op = LLVMIsAInstruction(ptr)    ? LLVMGetInstructionOpcode(ptr)
                    : LLVMIsAConstantExpr(ptr) ? LLVMGetConstOpcode(ptr)
                                               : 0;
    if (op == LLVMGetElementPtr || op == LLVMBitCast || op == LLVMAddrSpaceCast)
        return root_space(ctx, LLVMGetOperand(ptr, 0), depth + 1);
    if (op != LLVMPHI && op != LLVMSelect)
        return as; /* loaded, an argument of a helper, made from an integer: unknown */
    unsigned k = op == LLVMPHI ? LLVMCountIncoming(ptr) : 2, found = ~0u;
    for (unsigned i = 0; i < k; i++) {
        LLVMValueRef in = op == LLVMPHI ? LLVMGetIncomingValue(ptr, i) : LLVMGetOperand(ptr, i + 1);
        if (in == ptr || LLVMIsUndef(in) || LLVMIsPoison(in) || LLVMIsNull(in))
            continue;
        unsigned s = root_space(ctx, in, depth + 1);
        if (s == ctx->as_generic || (found != ~0u && s != found))
            return ctx->as_generic;
        found = s;
    }
    return found == ~0u ? ctx->as_generic : found;
}

unsigned skmd_pointer_space(const struct skmd_ctx *ctx, LLVMValueRef ptr)
{
    return root_space(ctx, ptr, 0);
}

unsigned skmd_scalar_bits(LLVMTypeRef t)
{
    switch (LLVMGetTypeKind(t)) {
    case LLVMIntegerTypeKind:
        return LLVMGetIntTypeWidth(t);
    case LLVMHalfTypeKind:
        return 16;
    case LLVMFloatTypeKind:
        return 32;
    case LLVMDoubleTypeKind:
        return 64;
    default:
        return 0;
    }
}
