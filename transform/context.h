/* transform/context.h: what every pass needs to know about a kernel module, computed once:
 * the common types, the address-space numbers of the module's target, which functions are
 * kernels, and which calls are OpenCL work-item builtins. */
#ifndef SKMD_TRANSFORM_CONTEXT_H
#define SKMD_TRANSFORM_CONTEXT_H

#include <stddef.h>
#include <string.h>
#include <llvm-c/Core.h>

enum skmd_target {
    SKMD_TARGET_SPIR,   /* spir / spir64: what PoCL is given */
    SKMD_TARGET_NVPTX,  /* nvptx64-nvidia-nvcl */
    SKMD_TARGET_OTHER   /* anything else: address spaces assumed SPIR's */
};

/* The OpenCL work-item functions (OpenCL C 1.2 6.12.1, and 2.0's linear ids). */
enum skmd_builtin {
    SKMD_BUILTIN_NONE = 0,
    SKMD_BUILTIN_WORK_DIM,          /* uint get_work_dim(void) */
    SKMD_BUILTIN_GLOBAL_SIZE,       /* size_t f(uint dim) from here ... */
    SKMD_BUILTIN_GLOBAL_ID,
    SKMD_BUILTIN_LOCAL_SIZE,
    SKMD_BUILTIN_ENQUEUED_LOCAL_SIZE,
    SKMD_BUILTIN_LOCAL_ID,
    SKMD_BUILTIN_NUM_GROUPS,
    SKMD_BUILTIN_GROUP_ID,
    SKMD_BUILTIN_GLOBAL_OFFSET,     /* ... to here */
    SKMD_BUILTIN_GLOBAL_LINEAR_ID,  /* size_t f(void) */
    SKMD_BUILTIN_LOCAL_LINEAR_ID
};

struct skmd_ctx {
    LLVMModuleRef module;
    LLVMContextRef llvm;
    enum skmd_target target;
    /* OpenCL address spaces as this target numbers them */
    unsigned as_private, as_global, as_constant, as_local;
    /* OpenCL C 2.0's generic space (SPIR: 4); ~0u on NVPTX, where it is the private one */
    unsigned as_generic;
    LLVMTypeRef void_t, i1, i8, i32, i64, f32, f64;
    LLVMTypeRef ptr_private, ptr_global, ptr_constant, ptr_local;
    unsigned md_kind_kernel_arg_addr_space; /* metadata kind clang puts on every kernel */
};

/* Fills ctx for module m (cheap; no allocation). */
void skmd_ctx_init(struct skmd_ctx *ctx, LLVMModuleRef m);

/* True when fn is an OpenCL kernel (spir_kernel calling convention or clang's
 * kernel_arg_addr_space metadata). */
int skmd_ctx_is_kernel(const struct skmd_ctx *ctx, LLVMValueRef fn);

/* The module's kernels (definitions only), in module order: a malloc'd array the caller
 * frees; *count set. NULL with *count 0 when there are none. */
LLVMValueRef *skmd_ctx_kernels(const struct skmd_ctx *ctx, size_t *count);

/* Which work-item builtin a function (declaration) is: its Itanium-mangled name AND the
 * OpenCL signature (a function that only has the name is NONE). */
enum skmd_builtin skmd_builtin_of(LLVMValueRef fn);
/* Which builtin fn's name is, whatever its type. */
enum skmd_builtin skmd_builtin_named(LLVMValueRef fn);
/* A function of m that has a builtin's name but not its signature, or NULL. */
LLVMValueRef skmd_builtin_misdeclared(LLVMModuleRef m);
/* Its OpenCL name, e.g. "get_global_id" ("" for NONE). */
const char *skmd_builtin_name(enum skmd_builtin b);
/* True for the builtins that take a dimension argument. */
int skmd_builtin_has_dim(enum skmd_builtin b);

/* The builtin's declaration in the module (declared if missing, with the calling
 * convention the target uses: spir_func on SPIR). */
LLVMValueRef skmd_ctx_builtin_decl(const struct skmd_ctx *ctx, enum skmd_builtin b);

/* The partition-ready ABI: these 8 ulong parameters are appended to every kernel, in this
 * order (docs/transform.md). */
#define SKMD_HIDDEN_PARAMS 8
extern const char *const skmd_hidden_param_names[SKMD_HIDDEN_PARAMS];
/* The string attribute partition_ready puts on the kernels it rewrote. */
#define SKMD_ATTR_PARTITION_READY "skmd-partition-ready"
int skmd_is_partition_ready(LLVMValueRef fn);

/* The source line of an instruction from its debug location, 0 when unknown. */
unsigned skmd_inst_line(LLVMValueRef inst);

/* The address space a pointer points into: its type's, or for a generic pointer (OpenCL C
 * 2.0 and later: helpers' pointer parameters, vload/vstore) the space it was cast from,
 * through GEPs, casts, phis and selects when every path agrees; else as_generic (it may
 * point anywhere, global memory included). */
unsigned skmd_pointer_space(const struct skmd_ctx *ctx, LLVMValueRef ptr);

/* Bits of an integer, half, float or double type; 0 for any other type. */
unsigned skmd_scalar_bits(LLVMTypeRef t);

/* Whether name s begins with prefix (builtin names by family). */
static inline int skmd_starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Whether a pointer into space `as` (skmd_pointer_space's answer) may reach a buffer
 * argument: global, constant, or generic that could not be traced. */
static inline int skmd_space_reaches_buffers(const struct skmd_ctx *ctx, unsigned as)
{
    return as == ctx->as_global || as == ctx->as_constant || as == ctx->as_generic;
}

#endif
