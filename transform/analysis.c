/* transform/analysis.c: skmd_pass_analyze, the per-kernel analysis that fills the record
 * (record.h): parameters and how they are accessed, an affine byte offset for every global
 * access (affine.c), the conditions it runs under (analysis_guard.c), whether the kernel can
 * be split at all (splittable.c), and static features (features.c). It runs after the
 * inline and cleanup passes, so helper functions are already inside the kernels, and it
 * does not change the module. */
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "passes.h"

/* The i-th operand of a kernel's metadata node `kind` as a string or an integer. */
static LLVMValueRef kernel_md(LLVMValueRef fn, const char *kind, unsigned i)
{
    LLVMContextRef c = LLVMGetModuleContext(LLVMGetGlobalParent(fn));
    unsigned id = LLVMGetMDKindIDInContext(c, kind, (unsigned)strlen(kind));
    size_t n = 0;
    LLVMValueRef out = NULL;
    LLVMValueMetadataEntry *md = LLVMGlobalCopyAllMetadata(fn, &n);
    for (size_t e = 0; e < n && !out; e++) {
        if (LLVMValueMetadataEntriesGetKind(md, (unsigned)e) != id)
            continue;
        LLVMValueRef node = LLVMMetadataAsValue(c, LLVMValueMetadataEntriesGetMetadata(
                                                       md, (unsigned)e));
        unsigned nops = LLVMGetMDNodeNumOperands(node);
        if (i < nops) {
            LLVMValueRef *ops = malloc(nops * sizeof *ops);
            if (ops) {
                LLVMGetMDNodeOperands(node, ops);
                out = ops[i];
                free(ops);
            }
        }
    }
    if (md)
        LLVMDisposeValueMetadataEntries(md);
    return out;
}

static const char *md_string(LLVMValueRef v, char *buf, size_t size)
{
    unsigned len = 0;
    const char *s = v ? LLVMGetMDString(v, &len) : NULL;
    snprintf(buf, size, "%.*s", s ? (int)len : 0, s ? s : "");
    return buf;
}

static int is_image_type(const char *t)
{
    return strstr(t, "image") != NULL;
}

static int fill_params(struct analysis *a)
{
    struct skmd_kernel_record *k = a->k;
    k->params = calloc(a->nparams ? a->nparams : 1, sizeof *k->params);
    if (!k->params)
        return -1;
    k->nparams = a->nparams;
    for (unsigned i = 0; i < a->nparams; i++) {
        struct skmd_param_record *p = &k->params[i];
        LLVMValueRef v = a->params[i];
        char type[128], name[128];
        md_string(kernel_md(a->fn, "kernel_arg_type", i), type, sizeof type);
        size_t len = 0;
        const char *vname = LLVMGetValueName2(v, &len);
        md_string(kernel_md(a->fn, "kernel_arg_name", i), name, sizeof name);
        if (!name[0])
            snprintf(name, sizeof name, "%.*s", (int)len, vname);
        if (!name[0])
            snprintf(name, sizeof name, "arg%u", i);
        if (!(p->name = strdup(name)))
            return -1;
        LLVMTypeRef t = LLVMTypeOf(v);
        LLVMValueRef as_md = kernel_md(a->fn, "kernel_arg_addr_space", i);
        unsigned as = as_md && LLVMIsAConstantInt(as_md) ? (unsigned)LLVMConstIntGetZExtValue(as_md)
                      : LLVMGetTypeKind(t) == LLVMPointerTypeKind ? LLVMGetPointerAddressSpace(t)
                                                                   : 0;
        char base[128];
        md_string(kernel_md(a->fn, "kernel_arg_base_type", i), base, sizeof base);
        p->float_bits = strchr(base, '*') ? skmd_type_float_bits(base) : 0;
        if (is_image_type(type))
            p->kind = SKMD_PARAM_IMAGE;
        else if (!strcmp(type, "sampler_t"))
            p->kind = SKMD_PARAM_SAMPLER;
        else if (LLVMGetTypeKind(t) == LLVMPointerTypeKind) /* clang's OpenCL numbering */
            /* private (0): a struct passed by value, as a byval pointer: its bytes, no buffer */
            p->kind = as == 3 ? SKMD_PARAM_LOCAL : as == 2 ? SKMD_PARAM_CONSTANT
                      : as == 0 ? SKMD_PARAM_OTHER : SKMD_PARAM_GLOBAL;
        else if (LLVMGetTypeKind(t) == LLVMIntegerTypeKind) {
            p->kind = SKMD_PARAM_SCALAR;
            p->scalar_bytes = LLVMGetIntTypeWidth(t) / 8;
            p->scalar_signed = type[0] != 'u' && strcmp(type, "size_t") != 0 &&
                               strcmp(type, "bool") != 0;
        } else if (LLVMGetTypeKind(t) == LLVMFloatTypeKind ||
                   LLVMGetTypeKind(t) == LLVMDoubleTypeKind ||
                   LLVMGetTypeKind(t) == LLVMHalfTypeKind ||
                   LLVMGetTypeKind(t) == LLVMVectorTypeKind)
            p->kind = SKMD_PARAM_SCALAR;
        else
            p->kind = SKMD_PARAM_OTHER;
    }
    return 0;
}

int an_half_builtin(const char *name, int store, unsigned *count, unsigned *stride)
{
    int aligned = name[0] == 'a';
    name += aligned;
    if (strncmp(name, "_half", 5))
        return 0;
    char *end;
    unsigned long n = strtoul(name + 5, &end, 10);
    if (end == name + 5)
        n = 1;
    if (n != 1 && n != 2 && n != 3 && n != 4 && n != 8 && n != 16)
        return 0;
    if (store && end[0] == '_' && end[1] == 'r' && end[2] == 't' && end[3] && !end[4])
        end += 4; /* the rounding mode: same place, same size */
    if (*end)
        return 0;
    *count = (unsigned)n;
    *stride = aligned && n == 3 ? 4 : (unsigned)n;
    return 1;
}

/* vloadN(offset, p) / vstoreN(data, offset, p) and the half family: the access is
 * count*esize bytes at p + offset*stride*esize; all from the name. */
static int vector_builtin(LLVMValueRef call, int *is_store, unsigned *count, unsigned *stride,
                          unsigned *esize, LLVMValueRef *ptr, LLVMValueRef *index)
{
    char name[64];
    an_callee_name(call, name, sizeof name);
    int store = !strncmp(name, "vstore", 6);
    if (strncmp(name, "vload", 5) && !store)
        return 0;
    const char *digits = name + (store ? 6 : 5);
    if (an_half_builtin(digits, store, count, stride)) {
        *esize = 2;
    } else {
        char *end;
        unsigned long n = strtoul(digits, &end, 10);
        if (!n || *end)
            return 0;
        size_t len = 0;
        const char *mangled = LLVMGetValueName2(LLVMGetCalledValue(call), &len);
        static const char codes[] = "chasijlmtfd";
        static const unsigned sizes[] = {1, 1, 1, 2, 4, 4, 8, 8, 2, 4, 8};
        const char *hit = len ? strchr(codes, mangled[len - 1]) : NULL;
        if (!hit || !*hit)
            return 0;
        *esize = sizes[hit - codes];
        *count = *stride = (unsigned)n;
    }
    *is_store = store;
    unsigned nargs = (unsigned)LLVMGetNumArgOperands(call);
    if (nargs < 2)
        return 0;
    *ptr = LLVMGetOperand(call, nargs - 1);
    *index = LLVMGetOperand(call, nargs - 2);
    return 1;
}

/* Whether call i is llvm.memcpy/memmove; *size: its length when a constant, else 0. */
static int block_copy_source(LLVMValueRef i, unsigned *size)
{
    char name[64];
    an_callee_name(i, name, sizeof name);
    if (strncmp(name, "llvm.memcpy", 11) != 0 && strncmp(name, "llvm.memmove", 12) != 0)
        return 0;
    LLVMValueRef len = LLVMGetOperand(i, 2);
    *size = LLVMIsAConstantInt(len) && LLVMConstIntGetZExtValue(len) < (1u << 30)
                ? (unsigned)LLVMConstIntGetZExtValue(len)
                : 0;
    return 1;
}

struct found_access {
    LLVMValueRef inst, address; /* address: the pointer or index value it depends on */
};

static int add_access(struct analysis *a, struct found_access **list, unsigned *n,
                      LLVMValueRef inst, LLVMValueRef addr_value, int param, unsigned flags,
                      unsigned size, const struct skmd_poly *offset)
{
    struct found_access *grown = realloc(*list, (*n + 1) * sizeof **list);
    if (!grown)
        return -1;
    *list = grown;
    struct skmd_access_record *r = skmd_kernel_add_access(a->k); /* same index as *list */
    if (!r)
        return -1;
    (*list)[(*n)++] = (struct found_access){inst, addr_value};
    r->param = (unsigned)param;
    r->flags = flags;
    r->size = size;
    r->line = skmd_inst_line(inst);
    r->offset = *offset;
    r->affine = skmd_poly_is_affine(offset) &&
                an_loops_contain(a, offset, LLVMGetInstructionParent(inst));
    struct skmd_param_record *p = &a->k->params[param];
    p->access |= flags;
    p->elem_size = !p->elem_size ? size : p->elem_size == size ? size : 1;
    return 0;
}

/* Whether nothing in the program may write through v (a program-scope variable, or a
 * pointer derived from it): every use a load, or an address computation whose uses are. */
static int never_written(LLVMValueRef v, int depth)
{
    if (depth > 8)
        return 0;
    for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        LLVMOpcode op = an_opcode(user);
        if (op == LLVMLoad)
            continue;
        if ((op == LLVMGetElementPtr || op == LLVMBitCast || op == LLVMAddrSpaceCast) &&
            LLVMGetOperand(user, 0) == v && never_written(user, depth + 1))
            continue;
        return 0;
    }
    return 1;
}

/* The parameters a pointer may be based on, through GEPs, casts, phis and selects:
 * 0 with bases[0..*n) when every path starts at a parameter or at a program-scope
 * variable that nothing writes (each member holds the same one), -1 otherwise (a
 * pointer loaded from memory or made from an integer, or a variable some kernel
 * writes: each member's copy would hold what its own launches wrote). */
static int pointer_bases(struct analysis *a, LLVMValueRef ptr, int *bases, unsigned *n,
                         unsigned cap, int depth)
{
    if (depth > 48)
        return -1;
    for (unsigned i = 0; i < a->nparams; i++)
        if (a->params[i] == ptr) {
            for (unsigned k = 0; k < *n; k++)
                if (bases[k] == (int)i)
                    return 0;
            if (*n == cap)
                return -1;
            bases[(*n)++] = (int)i;
            return 0;
        }
    if (LLVMIsAGlobalVariable(ptr))
        return LLVMIsGlobalConstant(ptr) || never_written(ptr, 0) ? 0 : -1;
    LLVMOpcode op = an_opcode(ptr);
    if (op == LLVMGetElementPtr || op == LLVMBitCast || op == LLVMAddrSpaceCast)
        return pointer_bases(a, LLVMGetOperand(ptr, 0), bases, n, cap, depth + 1);
    if (op == LLVMSelect)
        return pointer_bases(a, LLVMGetOperand(ptr, 1), bases, n, cap, depth + 1) ||
                       pointer_bases(a, LLVMGetOperand(ptr, 2), bases, n, cap, depth + 1)
                   ? -1
                   : 0;
    if (op == LLVMPHI) {
        for (unsigned i = 0; i < LLVMCountIncoming(ptr); i++) {
            LLVMValueRef in = LLVMGetIncomingValue(ptr, i);
            if (in != ptr && pointer_bases(a, in, bases, n, cap, depth + 1))
                return -1;
        }
        return 0;
    }
    return -1;
}

/* A read whose pointer is not one parameter plus an offset (`c ? a[i] : b[i]` loads
 * through a select of two parameters): each parameter it may come from is read at an
 * unknown place, so its whole buffer goes to every share. Through a pointer from no
 * parameter the reads cannot be known at all: the kernel is not splittable. */
static int add_unknown_read(struct analysis *a, struct found_access **list, unsigned *n,
                            LLVMValueRef inst, LLVMValueRef ptr, unsigned size)
{
    int bases[16];
    unsigned nb = 0;
    if (pointer_bases(a, ptr, bases, &nb, 16, 0) != 0) {
        an_unsplittable(a, inst, "read through a pointer not derived from a kernel parameter "
                                 "or from a program-scope variable that nothing writes");
        return 0;
    }
    struct skmd_poly unknown;
    skmd_poly_invalid(&unknown);
    for (unsigned k = 0; k < nb; k++)
        if (add_access(a, list, n, inst, ptr, bases[k], SKMD_ACCESS_READ, size, &unknown))
            return -1;
    return 0;
}

/* Every load and store (and vload/vstore) through a global or constant pointer, or a
 * generic one that may point there (skmd_pointer_space). */
static int collect_accesses(struct analysis *a, struct found_access **list, unsigned *n)
{
    const struct skmd_ctx *ctx = a->ctx;
    for (unsigned b = 0; b < a->nblocks; b++)
        for (LLVMValueRef i = LLVMGetFirstInstruction(a->blocks[b]); i;
             i = LLVMGetNextInstruction(i)) {
            LLVMOpcode op = LLVMGetInstructionOpcode(i);
            LLVMValueRef ptr = NULL;
            unsigned flags = 0, size = 0;
            struct skmd_poly off;
            if (op == LLVMLoad) {
                ptr = LLVMGetOperand(i, 0);
                flags = SKMD_ACCESS_READ;
                size = (unsigned)LLVMStoreSizeOfType(a->td, LLVMTypeOf(i));
            } else if (op == LLVMStore) {
                ptr = LLVMGetOperand(i, 1);
                flags = SKMD_ACCESS_WRITE;
                size = (unsigned)LLVMStoreSizeOfType(a->td, LLVMTypeOf(LLVMGetOperand(i, 0)));
            } else if (op == LLVMCall && block_copy_source(i, &size)) {
                /* a copy out of global memory (a struct read whole into private memory):
                 * a read of `size` bytes at its source, of unknown size when it is not a
                 * constant (the whole buffer then) */
                ptr = LLVMGetOperand(i, 1);
                flags = SKMD_ACCESS_READ;
            } else if (op == LLVMCall) {
                int is_store;
                unsigned count, stride, esize;
                LLVMValueRef index;
                if (!vector_builtin(i, &is_store, &count, &stride, &esize, &ptr, &index))
                    continue;
                if (!skmd_space_reaches_buffers(ctx, skmd_pointer_space(ctx, ptr)))
                    continue;
                int p = an_pointer(a, ptr, &off);
                if (p < 0 && !is_store) {
                    if (add_unknown_read(a, list, n, i, ptr, count * esize))
                        return -1;
                    continue;
                }
                if (p < 0)
                    continue; /* not a parameter: checked by splittable.c for stores */
                struct skmd_poly idx, scale;
                an_affine(a, index, &idx);
                skmd_poly_const(&scale, (int64_t)stride * esize);
                skmd_poly_mul(&idx, &idx, &scale);
                skmd_poly_add_scaled(&off, &off, &idx, 1);
                if (add_access(a, list, n, i, index, p,
                               is_store ? SKMD_ACCESS_WRITE : SKMD_ACCESS_READ, count * esize,
                               &off))
                    return -1;
                continue;
            } else {
                continue;
            }
            if (!skmd_space_reaches_buffers(ctx, skmd_pointer_space(ctx, ptr)))
                continue;
            int p = an_pointer(a, ptr, &off);
            if (p < 0 && flags == SKMD_ACCESS_READ) {
                if (add_unknown_read(a, list, n, i, ptr, size ? size : 1))
                    return -1;
                continue;
            }
            if (p < 0)
                continue; /* stores: splittable.c refuses them */
            if (size == 0) { /* a block copy of a length known only at run time */
                skmd_poly_invalid(&off);
                size = 1;
            }
            if (add_access(a, list, n, i, ptr, p, flags, size, &off))
                return -1;
        }
    /* images (read_image / write_image name the parameter) and atomics on a parameter:
     * no offset, the whole object */
    for (unsigned b = 0; b < a->nblocks; b++)
        for (LLVMValueRef i = LLVMGetFirstInstruction(a->blocks[b]); i;
             i = LLVMGetNextInstruction(i)) {
            if (LLVMGetInstructionOpcode(i) != LLVMCall)
                continue;
            char name[64];
            an_callee_name(i, name, sizeof name);
            unsigned flags = !strncmp(name, "read_image", 10) ? SKMD_ACCESS_READ
                             : !strncmp(name, "write_image", 11) ? SKMD_ACCESS_WRITE : 0;
            if (!strncmp(name, "atom", 4) && LLVMGetNumArgOperands(i) > 0) {
                struct skmd_poly ignored;
                int p = an_pointer(a, LLVMGetOperand(i, 0), &ignored);
                if (p >= 0 && a->k->params[p].kind == SKMD_PARAM_GLOBAL)
                    a->k->params[p].access |= SKMD_ACCESS_READ | SKMD_ACCESS_WRITE;
                continue;
            }
            for (unsigned p = 0; flags && p < a->nparams; p++)
                if (a->k->params[p].kind == SKMD_PARAM_IMAGE &&
                    LLVMGetNumArgOperands(i) > 0 && LLVMGetOperand(i, 0) == a->params[p])
                    a->k->params[p].access |= flags;
        }
    return 0;
}

/* Whether the group ids enter the offset only through global ids (coefficient of g_d is
 * L_d times that of l_d) or alone: then distinct work-groups write distinct elements as long
 * as the rows do not overlap (the footprint at launch says exactly). */
static int indexed_by_group(const struct skmd_access_record *r)
{
    int any = 0;
    if (!r->affine)
        return 0;
    for (unsigned m = 0; m < r->offset.nmono; m++)
        for (unsigned s = 0; s < r->offset.mono[m].nsyms; s++)
            if (SKMD_SYM_KIND(r->offset.mono[m].syms[s]) == SKMD_SYM_LOOP)
                return 0;
    for (unsigned d = 0; d < 3; d++) {
        struct skmd_poly cg, cl, L;
        skmd_poly_coef_of(&cg, &r->offset, SKMD_SYM(SKMD_SYM_GROUP_ID, d));
        skmd_poly_coef_of(&cl, &r->offset, SKMD_SYM(SKMD_SYM_LOCAL_ID, d));
        if (!cg.nmono)
            continue;
        any = 1;
        if (!cl.nmono)
            continue;
        skmd_poly_sym(&L, SKMD_SYM(SKMD_SYM_LOCAL_SIZE, d));
        skmd_poly_mul(&cl, &cl, &L);
        if (!skmd_poly_equal(&cg, &cl))
            return 0;
    }
    return any;
}

/* 32 or 64 when value v is a float or double (or a vector of them), else 0. */
static unsigned float_bits_of_value(LLVMValueRef v)
{
    LLVMTypeRef t = LLVMTypeOf(v);
    if (LLVMGetTypeKind(t) == LLVMVectorTypeKind)
        t = LLVMGetElementType(t);
    return LLVMGetTypeKind(t) == LLVMFloatTypeKind    ? 32
           : LLVMGetTypeKind(t) == LLVMDoubleTypeKind ? 64
                                                       : 0;
}

/* A written pointer parameter whose type name gave no floating-point element (a struct of
 * floats, a char buffer) has float elements when every write through it is a plain store
 * of floats, or of doubles; a vstore or a block copy leaves it unknown. */
static void floats_from_stores(struct analysis *a, const struct found_access *found,
                               unsigned nfound)
{
    for (unsigned p = 0; p < a->k->nparams; p++) {
        struct skmd_param_record *pr = &a->k->params[p];
        if (pr->float_bits || !(pr->access & SKMD_ACCESS_WRITE))
            continue;
        unsigned bits = 0;
        int alike = 1;
        for (unsigned i = 0; i < nfound && alike; i++) {
            const struct skmd_access_record *r = &a->k->accesses[i];
            if (r->param != p || !(r->flags & SKMD_ACCESS_WRITE))
                continue;
            unsigned b = LLVMGetInstructionOpcode(found[i].inst) == LLVMStore
                             ? float_bits_of_value(LLVMGetOperand(found[i].inst, 0))
                             : 0;
            alike = b && (!bits || b == bits);
            bits = b;
        }
        pr->float_bits = alike ? bits : 0;
    }
}

static int analyze_kernel(const struct skmd_ctx *ctx, LLVMValueRef fn,
                          struct skmd_program_record *rec)
{
    size_t len = 0;
    const char *name = LLVMGetValueName2(fn, &len);
    char *kname = strndup(name, len);
    struct analysis a = {.ctx = ctx, .fn = fn, .td = LLVMGetModuleDataLayout(ctx->module)};
    struct found_access *found = NULL;
    unsigned nfound = 0;
    int rc = -1;
    if (!kname || !(a.k = skmd_record_add_kernel(rec, kname)))
        goto out;
    a.nparams = LLVMCountParams(fn);
    a.params = calloc(a.nparams ? a.nparams : 1, sizeof *a.params);
    a.nblocks = LLVMCountBasicBlocks(fn);
    a.blocks = calloc(a.nblocks ? a.nblocks : 1, sizeof *a.blocks);
    a.mark = calloc(a.nblocks ? a.nblocks : 1, 1);
    if (!a.params || !a.blocks || !a.mark)
        goto out;
    LLVMGetParams(fn, a.params);
    LLVMGetBasicBlocks(fn, a.blocks);
    if (fill_params(&a))
        goto out;

    an_check_instructions(&a);
    if (collect_accesses(&a, &found, &nfound))
        goto out;
    floats_from_stores(&a, found, nfound);
    int needs_merge = 0, disjoint = 1, writes = 0;
    for (unsigned i = 0; i < nfound; i++) {
        struct skmd_access_record *r = &a.k->accesses[i];
        if (!(r->flags & SKMD_ACCESS_WRITE))
            continue;
        writes = 1;
        LLVMValueRef conds[16];
        unsigned nconds = 0;
        an_guard(&a, found[i].inst, r, conds, 16, &nconds);
        an_check_recomputable(&a, found[i].address, found[i].inst);
        for (unsigned c = 0; c < nconds; c++)
            an_check_recomputable(&a, conds[c], found[i].inst);
        if (!r->affine || r->conditional)
            needs_merge = 1;
        if (!indexed_by_group(r))
            disjoint = 0;
    }
    for (unsigned p = 0; p < a.nparams; p++)
        if (a.k->params[p].elem_size == 1 && a.k->params[p].access) {
            /* mixed sizes were marked 1; keep 1 only if every access really is a byte */
            unsigned sz = 0;
            for (unsigned i = 0; i < a.k->naccesses; i++)
                if (a.k->accesses[i].param == p)
                    sz = !sz || sz == a.k->accesses[i].size ? a.k->accesses[i].size : 0;
            a.k->params[p].elem_size = sz;
        }
    a.k->needs_merge = needs_merge;
    a.k->writes_disjoint = writes && disjoint && !needs_merge;
    an_features(&a);
    rc = a.oom ? -1 : 0;
out:
    free(kname);
    free(found);
    free(a.params);
    free(a.blocks);
    free(a.mark);
    free(a.memo);
    return rc;
}

int skmd_pass_analyze(LLVMModuleRef m, const struct skmd_pass_opts *opts)
{
    struct skmd_ctx ctx;
    if (!opts || !opts->record)
        return skmd_pass_fail(opts, "analyze: no record to fill");
    skmd_ctx_init(&ctx, m);
    size_t n = 0;
    LLVMValueRef *kernels = skmd_ctx_kernels(&ctx, &n);
    int rc = 0;
    for (size_t i = 0; i < n && !rc; i++) {
        size_t len = 0;
        const char *name = LLVMGetValueName2(kernels[i], &len);
        if (opts->kernel_name &&
            (strlen(opts->kernel_name) != len || memcmp(opts->kernel_name, name, len)))
            continue;
        if (analyze_kernel(&ctx, kernels[i], opts->record))
            rc = skmd_pass_fail(opts, "analyze: out of memory in kernel %.*s", (int)len, name);
    }
    free(kernels);
    if (!rc && opts->kernel_name && !skmd_record_find(opts->record, opts->kernel_name))
        rc = skmd_pass_fail(opts, "analyze: no kernel named %s", opts->kernel_name);
    return rc;
}
