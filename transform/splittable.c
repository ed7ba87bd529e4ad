/* transform/splittable.c: what makes a kernel impossible to split across devices, with the
 * reason and source line the decision log shows:
 *   - an atomic on global memory (other work-groups, on other devices, see its effects);
 *   - writing an image (its footprint is unknown and a merge kernel cannot copy texels);
 *   - a store through a pointer that is not derived from a kernel parameter;
 *   - a call, other than the known builtins, that is given a global pointer;
 *   - a store whose address (or a condition it runs under) depends on data the merge kernel
 *     cannot recompute: loaded from a buffer the kernel writes, from local or private memory
 *     filled from such data, or an atomic's result.
 * printf is allowed: the order of output lines across work-groups is not defined by OpenCL
 * anyway; the merge kernel drops the calls. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"

void an_unsplittable(struct analysis *a, LLVMValueRef at, const char *fmt, ...)
{
    if (!a->k->splittable)
        return;
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    unsigned line = skmd_inst_line(at);
    char full[300];
    if (line)
        snprintf(full, sizeof full, "%s at line %u", buf, line);
    else
        snprintf(full, sizeof full, "%s", buf);
    a->k->splittable = 0;
    if (skmd_kernel_set_reason(a->k, line, full))
        a->oom = 1;
}

const char *an_callee_name(LLVMValueRef call, char *buf, size_t size)
{
    LLVMValueRef fn = LLVMGetCalledValue(call);
    size_t len = 0;
    const char *name = fn && LLVMIsAFunction(fn) ? LLVMGetValueName2(fn, &len) : "";
    buf[0] = 0;
    if (len > 2 && name[0] == '_' && name[1] == 'Z') { /* _Z<len><name>... */
        char *end;
        unsigned long n = strtoul(name + 2, &end, 10);
        if (n && (size_t)(end - name) + n <= len) {
            snprintf(buf, size, "%.*s", (int)(n < size ? n : size - 1), end);
            return buf;
        }
    }
    snprintf(buf, size, "%.*s", (int)(len < size ? len : size - 1), name);
    return buf;
}

static int is_atomic_name(const char *n)
{
    return skmd_starts_with(n, "atomic_") || skmd_starts_with(n, "atom_") ||
           skmd_starts_with(n, "__c11_atomic") || skmd_starts_with(n, "__atomic") ||
           skmd_starts_with(n, "__spirv_Atomic");
}

static unsigned addrspace_of(LLVMValueRef ptr)
{
    LLVMTypeRef t = LLVMTypeOf(ptr);
    return LLVMGetTypeKind(t) == LLVMPointerTypeKind ? LLVMGetPointerAddressSpace(t) : ~0u;
}

/* Builtins that may be given a global pointer and only read through it (or write through
 * it in a way the access collector sees: vstore). */
static int known_pointer_builtin(const char *n, unsigned arg, unsigned nargs)
{
    if (skmd_starts_with(n, "vload") || skmd_starts_with(n, "vstore") ||
        skmd_starts_with(n, "prefetch") || skmd_starts_with(n, "printf") ||
        skmd_starts_with(n, "read_image") || skmd_starts_with(n, "get_image"))
        return 1;
    /* async_work_group_copy(dst, src, ...): global memory only as the source */
    if (skmd_starts_with(n, "async_work_group"))
        return arg == 1 && nargs >= 3;
    if (skmd_starts_with(n, "llvm.lifetime") || skmd_starts_with(n, "llvm.dbg"))
        return 1;
    return 0;
}

void an_check_instructions(struct analysis *a)
{
    const struct skmd_ctx *ctx = a->ctx;
    char name[128];
    for (unsigned b = 0; b < a->nblocks; b++)
        for (LLVMValueRef i = LLVMGetFirstInstruction(a->blocks[b]); i;
             i = LLVMGetNextInstruction(i)) {
            LLVMOpcode op = LLVMGetInstructionOpcode(i);
            if (op == LLVMAtomicRMW || op == LLVMAtomicCmpXchg) {
                if (skmd_pointer_space(ctx, LLVMGetOperand(i, 0)) != ctx->as_local)
                    an_unsplittable(a, i, "global atomic operation");
                continue;
            }
            if (op == LLVMStore &&
                skmd_space_reaches_buffers(ctx, skmd_pointer_space(ctx, LLVMGetOperand(i, 1)))) {
                struct skmd_poly off;
                if (an_pointer(a, LLVMGetOperand(i, 1), &off) < 0)
                    an_unsplittable(a, i,
                                    "store through a pointer not derived from a kernel "
                                    "parameter");
                continue;
            }
            if (op != LLVMCall)
                continue;
            an_callee_name(i, name, sizeof name);
            if (skmd_builtin_of(LLVMGetCalledValue(i)) != SKMD_BUILTIN_NONE)
                continue;
            if (skmd_starts_with(name, "write_image")) {
                an_unsplittable(a, i, "writes an image (%s)", name);
                continue;
            }
            unsigned nargs = (unsigned)LLVMGetNumArgOperands(i);
            for (unsigned arg = 0; arg < nargs; arg++) {
                LLVMValueRef v = LLVMGetOperand(i, arg);
                if (addrspace_of(v) == ~0u)
                    continue;
                unsigned as = skmd_pointer_space(ctx, v);
                if (as == ctx->as_private || as == ctx->as_local)
                    continue;
                if (as == ctx->as_generic && !skmd_starts_with(name, "llvm.lifetime") &&
                    !skmd_starts_with(name, "llvm.dbg")) {
                    an_unsplittable(a, i, "call to %s with a pointer that may point anywhere "
                                          "(generic address space)", name);
                    continue;
                }
                if (as == ctx->as_constant && !is_atomic_name(name))
                    continue;
                int copy = skmd_starts_with(name, "llvm.memcpy") ||
                           skmd_starts_with(name, "llvm.memmove");
                if (is_atomic_name(name))
                    an_unsplittable(a, i, "global %s", name);
                else if (copy && arg == 1)
                    continue; /* its source: a read, recorded by analysis.c */
                else if (copy || skmd_starts_with(name, "llvm.memset"))
                    an_unsplittable(a, i,
                                    "writes global memory by a block copy (a struct or "
                                    "array assigned whole, memcpy, async copy) whose bytes "
                                    "are not tracked (%s)",
                                    name);
                else if (!known_pointer_builtin(name, arg, nargs))
                    an_unsplittable(a, i, "call to %s with a global pointer", name);
            }
        }
}

/* Whether parameter p is written anywhere in the kernel (stores seen so far are enough:
 * the caller collects all accesses before it checks recomputability). */
static int param_written(const struct analysis *a, int p)
{
    return p >= 0 && (unsigned)p < a->nparams &&
           (a->k->params[p].access & SKMD_ACCESS_WRITE);
}

/* Depth-first over the operands of v: fails on what the merge kernel cannot recompute. */
static void slice(struct analysis *a, LLVMValueRef v, LLVMValueRef store, LLVMValueRef *seen,
                  unsigned *nseen, unsigned cap, int *followed_memory)
{
    if (!LLVMIsAInstruction(v) || !a->k->splittable)
        return;
    for (unsigned i = 0; i < *nseen; i++)
        if (seen[i] == v)
            return;
    if (*nseen == cap) {
        an_unsplittable(a, store, "store address too complex to check");
        return;
    }
    seen[(*nseen)++] = v;
    LLVMOpcode op = LLVMGetInstructionOpcode(v);
    char name[128];
    if (op == LLVMAtomicRMW || op == LLVMAtomicCmpXchg) {
        an_unsplittable(a, store, "store address depends on an atomic's result");
        return;
    }
    if (op == LLVMCall) {
        an_callee_name(v, name, sizeof name);
        if (is_atomic_name(name)) {
            an_unsplittable(a, store, "store address depends on an atomic's result (%s)",
                            name);
            return;
        }
    }
    if (op == LLVMLoad) {
        LLVMValueRef ptr = LLVMGetOperand(v, 0);
        if (skmd_space_reaches_buffers(a->ctx, skmd_pointer_space(a->ctx, ptr))) {
            struct skmd_poly off;
            int p = an_pointer(a, ptr, &off);
            if (p < 0 || param_written(a, p)) {
                if (p >= 0)
                    an_unsplittable(a, store,
                                    "store address depends on data the kernel writes (%s)",
                                    a->k->params[p].name);
                else
                    an_unsplittable(a, store, "store address depends on data loaded through "
                                              "a pointer not derived from a parameter");
                return;
            }
        } else if (!*followed_memory) {
            /* local or private memory: whatever any store there wrote */
            *followed_memory = 1;
            for (unsigned b = 0; b < a->nblocks; b++)
                for (LLVMValueRef s = LLVMGetFirstInstruction(a->blocks[b]); s;
                     s = LLVMGetNextInstruction(s))
                    if (LLVMGetInstructionOpcode(s) == LLVMStore &&
                        skmd_pointer_space(a->ctx, LLVMGetOperand(s, 1)) != a->ctx->as_global) {
                        slice(a, LLVMGetOperand(s, 0), store, seen, nseen, cap,
                              followed_memory);
                        slice(a, LLVMGetOperand(s, 1), store, seen, nseen, cap,
                              followed_memory);
                    }
        }
    }
    unsigned n = (unsigned)LLVMGetNumOperands(v);
    for (unsigned i = 0; i < n; i++)
        slice(a, LLVMGetOperand(v, i), store, seen, nseen, cap, followed_memory);
}

void an_check_recomputable(struct analysis *a, LLVMValueRef v, LLVMValueRef store)
{
    enum { CAP = 4096 };
    LLVMValueRef *seen = malloc(CAP * sizeof *seen);
    unsigned nseen = 0;
    int followed = 0;
    if (!seen) {
        a->oom = 1;
        return;
    }
    slice(a, v, store, seen, &nseen, CAP, &followed);
    free(seen);
}
