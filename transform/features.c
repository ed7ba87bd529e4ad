/* transform/features.c: static features of a kernel for a cold-start device predictor
 * (after Grewe & O'Boyle, CC 2011): operation counts per work-item (each instruction counted
 * once; loop bodies are not multiplied by trip counts, which are often launch values), the
 * fraction of global accesses that consecutive work-items make to consecutive elements, and
 * the compute-to-memory ratio. */
#include <string.h>

#include "analysis.h"

static int is_barrier(const char *n)
{
    return !strcmp(n, "barrier") || !strcmp(n, "work_group_barrier") ||
           !strcmp(n, "mem_fence") || !strcmp(n, "read_mem_fence") ||
           !strcmp(n, "write_mem_fence");
}

/* Calls that are neither work-item functions nor memory: math and the like. */
static int is_math(LLVMValueRef call, const char *n)
{
    if (skmd_builtin_of(LLVMGetCalledValue(call)) != SKMD_BUILTIN_NONE || is_barrier(n))
        return 0;
    static const char *const not_math[] = {"vload", "vstore", "atom", "printf", "async_",
                                           "wait_group", "prefetch", "read_image",
                                           "write_image", "get_image", "llvm.dbg",
                                           "llvm.lifetime", "llvm.mem"};
    for (unsigned i = 0; i < sizeof not_math / sizeof not_math[0]; i++)
        if (!strncmp(n, not_math[i], strlen(not_math[i])))
            return 0;
    return 1;
}

void an_features(struct analysis *a)
{
    struct skmd_features *f = &a->k->features;
    const struct skmd_ctx *ctx = a->ctx;
    memset(f, 0, sizeof *f);
    char name[128];
    int group_builtins = 0; /* calls whose value depends on the work-group shape */
    for (unsigned b = 0; b < a->nblocks; b++)
        for (LLVMValueRef i = LLVMGetFirstInstruction(a->blocks[b]); i;
             i = LLVMGetNextInstruction(i)) {
            LLVMOpcode op = LLVMGetInstructionOpcode(i);
            LLVMTypeRef t = LLVMTypeOf(i);
            int vec = LLVMGetTypeKind(t) == LLVMVectorTypeKind;
            switch (op) {
            case LLVMAdd: case LLVMSub: case LLVMMul: case LLVMUDiv: case LLVMSDiv:
            case LLVMURem: case LLVMSRem: case LLVMShl: case LLVMLShr: case LLVMAShr:
            case LLVMAnd: case LLVMOr: case LLVMXor: case LLVMICmp:
                if (vec)
                    f->vector_ops++;
                else
                    f->int_ops++;
                break;
            case LLVMFAdd: case LLVMFSub: case LLVMFMul: case LLVMFDiv: case LLVMFRem:
            case LLVMFNeg: case LLVMFCmp:
                if (vec)
                    f->vector_ops++;
                else
                    f->float_ops++;
                break;
            case LLVMBr:
                if (LLVMIsConditional(i))
                    f->branches++;
                break;
            case LLVMLoad:
            case LLVMStore: {
                LLVMValueRef ptr = LLVMGetOperand(i, op == LLVMLoad ? 0 : 1);
                unsigned as = LLVMGetPointerAddressSpace(LLVMTypeOf(ptr));
                if (as == ctx->as_local)
                    f->local_accesses++;
                break;
            }
            case LLVMCall:
                switch (skmd_builtin_of(LLVMGetCalledValue(i))) {
                case SKMD_BUILTIN_LOCAL_SIZE: case SKMD_BUILTIN_ENQUEUED_LOCAL_SIZE:
                case SKMD_BUILTIN_LOCAL_ID: case SKMD_BUILTIN_NUM_GROUPS:
                case SKMD_BUILTIN_GROUP_ID: case SKMD_BUILTIN_LOCAL_LINEAR_ID:
                    group_builtins++;
                    break;
                default:
                    break;
                }
                an_callee_name(i, name, sizeof name);
                if (is_barrier(name))
                    f->barriers++;
                else if (!strncmp(name, "llvm.fmuladd", 12) || !strncmp(name, "llvm.fma", 8))
                    f->float_ops += 2;
                else if (is_math(i, name))
                    f->math_calls++;
                break;
            default:
                break;
            }
        }
    double coalesced = 0, global = 0;
    for (unsigned i = 0; i < a->k->naccesses; i++) {
        const struct skmd_access_record *r = &a->k->accesses[i];
        if (r->flags & SKMD_ACCESS_WRITE)
            f->global_stores++;
        else
            f->global_loads++;
        global++;
        /* consecutive work-items (l0) at consecutive elements */
        struct skmd_poly c;
        int64_t stride;
        skmd_poly_coef_of(&c, &r->offset, SKMD_SYM(SKMD_SYM_LOCAL_ID, 0));
        if (r->affine && skmd_poly_is_int(&c, &stride) && stride == (int64_t)r->size)
            coalesced++;
    }
    f->coalesced_fraction = global ? coalesced / global : 0;
    double compute = f->int_ops + f->float_ops + f->vector_ops + f->math_calls;
    double memory = f->global_loads + f->global_stores;
    f->compute_mem_ratio = memory ? compute / memory : compute;
    int local_params = 0;
    for (unsigned p = 0; p < a->k->nparams; p++)
        local_params += a->k->params[p].kind == SKMD_PARAM_LOCAL;
    a->k->group_free = !group_builtins && !f->barriers && !f->local_accesses && !local_params;
}
