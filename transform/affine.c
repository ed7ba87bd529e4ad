/* transform/affine.c: integer values and pointers of a kernel as polynomials over the
 * work-item ids, launch constants, scalar parameters and loop counters (record.h).
 *
 * A hand-written walk rather than ScalarEvolution: it needs no C++, it speaks the OpenCL
 * builtins directly (get_global_id(d) = g_d*L_d + l_d + O_d), and its failure mode is
 * simple: whatever it does not understand is "not affine", which makes a read a
 * whole-buffer bound and a write not exact. Integer casts are taken as value-preserving
 * (indices of in-bounds accesses fit their types); a truncation reads its operand's
 * coefficients in the narrower width (wrap_coefficients), and so do the shift pair and the
 * mask that instcombine makes of a truncation extended again. */
#include <stdlib.h>
#include <string.h>

#include "analysis.h"

#define MAX_DEPTH 48

LLVMOpcode an_opcode(LLVMValueRef v)
{
    if (LLVMIsAInstruction(v))
        return LLVMGetInstructionOpcode(v);
    if (LLVMIsAConstantExpr(v))
        return LLVMGetConstOpcode(v);
    return 0;
}

static int const_int(LLVMValueRef v, int64_t *c)
{
    if (!LLVMIsAConstantInt(v))
        return 0;
    unsigned bits = LLVMGetIntTypeWidth(LLVMTypeOf(v));
    if (bits > 64)
        return 0;
    *c = bits == 1 ? (int64_t)LLVMConstIntGetZExtValue(v) : LLVMConstIntGetSExtValue(v);
    return 1;
}

static int param_index(const struct analysis *a, LLVMValueRef v)
{
    for (unsigned i = 0; i < a->nparams; i++)
        if (a->params[i] == v)
            return (int)i;
    return -1;
}

/* The polynomial of a work-item builtin call; invalid for the ones that are not affine. */
static void builtin_poly(LLVMValueRef call, enum skmd_builtin b, struct skmd_poly *out)
{
    int64_t d = 0;
    skmd_poly_invalid(out);
    if (skmd_builtin_has_dim(b) && (!const_int(LLVMGetOperand(call, 0), &d) || d < 0))
        return;
    if (d > 2) { /* the specification's values beyond the third dimension */
        skmd_poly_const(out, b == SKMD_BUILTIN_GLOBAL_SIZE || b == SKMD_BUILTIN_LOCAL_SIZE ||
                                     b == SKMD_BUILTIN_ENQUEUED_LOCAL_SIZE ||
                                     b == SKMD_BUILTIN_NUM_GROUPS
                                 ? 1
                                 : 0);
        return;
    }
    struct skmd_poly t;
    switch (b) {
    case SKMD_BUILTIN_GROUP_ID:
        skmd_poly_sym(out, SKMD_SYM(SKMD_SYM_GROUP_ID, d));
        break;
    case SKMD_BUILTIN_LOCAL_ID:
        skmd_poly_sym(out, SKMD_SYM(SKMD_SYM_LOCAL_ID, d));
        break;
    case SKMD_BUILTIN_LOCAL_SIZE:
    case SKMD_BUILTIN_ENQUEUED_LOCAL_SIZE:
        skmd_poly_sym(out, SKMD_SYM(SKMD_SYM_LOCAL_SIZE, d));
        break;
    case SKMD_BUILTIN_NUM_GROUPS:
        skmd_poly_sym(out, SKMD_SYM(SKMD_SYM_NUM_GROUPS, d));
        break;
    case SKMD_BUILTIN_GLOBAL_OFFSET:
        skmd_poly_sym(out, SKMD_SYM(SKMD_SYM_GLOBAL_OFFSET, d));
        break;
    case SKMD_BUILTIN_GLOBAL_SIZE:
        skmd_poly_sym(out, SKMD_SYM(SKMD_SYM_NUM_GROUPS, d));
        skmd_poly_sym(&t, SKMD_SYM(SKMD_SYM_LOCAL_SIZE, d));
        skmd_poly_mul(out, out, &t);
        break;
    case SKMD_BUILTIN_GLOBAL_ID: /* g*L + l + O */
        skmd_poly_sym(out, SKMD_SYM(SKMD_SYM_GROUP_ID, d));
        skmd_poly_sym(&t, SKMD_SYM(SKMD_SYM_LOCAL_SIZE, d));
        skmd_poly_mul(out, out, &t);
        skmd_poly_sym(&t, SKMD_SYM(SKMD_SYM_LOCAL_ID, d));
        skmd_poly_add_scaled(out, out, &t, 1);
        skmd_poly_sym(&t, SKMD_SYM(SKMD_SYM_GLOBAL_OFFSET, d));
        skmd_poly_add_scaled(out, out, &t, 1);
        break;
    default: /* work_dim, linear ids: not affine in our symbols */
        break;
    }
}

/* Smallest power of two dividing every integer coefficient of p (2^62 for 0). */
static int64_t known_alignment(const struct skmd_poly *p)
{
    int64_t al = (int64_t)1 << 62;
    for (unsigned i = 0; i < p->nmono; i++) {
        int64_t c = p->mono[i].coef;
        int64_t low = c & -c;
        if (low && low < al)
            al = low;
    }
    return al;
}

static void affine_rec(struct analysis *a, LLVMValueRef v, struct skmd_poly *out, int depth);

/* Recognises phi as a loop induction variable start + step*t (header-checked or
 * latch-checked loop with a launch-constant bound, an affine start) and records the loop. */
static void loop_phi(struct analysis *a, LLVMValueRef phi, struct skmd_poly *out, int depth)
{
    skmd_poly_invalid(out);
    if (LLVMCountIncoming(phi) != 2 || a->nloops == AN_MAX_LOOPS)
        return;
    LLVMBasicBlockRef header = LLVMGetInstructionParent(phi);
    LLVMValueRef start = NULL, next = NULL;
    LLVMBasicBlockRef latch = NULL;
    int64_t step = 0;
    for (unsigned i = 0; i < 2; i++) {
        LLVMValueRef in = LLVMGetIncomingValue(phi, i);
        int64_t c;
        LLVMOpcode op = an_opcode(in);
        if ((op == LLVMAdd || op == LLVMSub) && LLVMGetOperand(in, 0) == phi &&
            const_int(LLVMGetOperand(in, 1), &c)) {
            next = in;
            latch = LLVMGetIncomingBlock(phi, i);
            step = op == LLVMAdd ? c : -c;
        } else if (op == LLVMAdd && LLVMGetOperand(in, 1) == phi &&
                   const_int(LLVMGetOperand(in, 0), &c)) {
            next = in;
            latch = LLVMGetIncomingBlock(phi, i);
            step = c;
        } else {
            start = in;
        }
    }
    if (!start || !next || !step)
        return;
    struct skmd_poly s;
    affine_rec(a, start, &s, depth + 1);
    /* A start that depends on the work-item (`for (r = ty; r < 32; r += 8)`) is kept: the
     * footprint evaluator takes the loop only when every start gives the same trip count. */
    if (!s.valid || !skmd_poly_is_affine(&s))
        return;

    /* the compare that decides whether to stay in the loop */
    for (int use_next = 0; use_next < 2; use_next++) {
        LLVMValueRef iv = use_next ? next : phi;
        for (LLVMUseRef u = LLVMGetFirstUse(iv); u; u = LLVMGetNextUse(u)) {
            LLVMValueRef cmp = LLVMGetUser(u);
            if (!LLVMIsAICmpInst(cmp))
                continue;
            LLVMBasicBlockRef cb = LLVMGetInstructionParent(cmp);
            LLVMValueRef br = LLVMGetBasicBlockTerminator(cb);
            if (!br || !LLVMIsABranchInst(br) || !LLVMIsConditional(br) ||
                LLVMGetCondition(br) != cmp)
                continue;
            if (!use_next && cb != header)
                continue;
            LLVMBasicBlockRef t = LLVMGetSuccessor(br, 0), f = LLVMGetSuccessor(br, 1);
            /* the successor that stays in the loop reaches the latch without the header */
            int t_in = t == header || an_reachable(a, t, latch, header);
            int f_in = f == header || an_reachable(a, f, latch, header);
            if (t_in == f_in)
                continue;
            LLVMIntPredicate pred = LLVMGetICmpPredicate(cmp);
            int iv_left = LLVMGetOperand(cmp, 0) == iv;
            LLVMValueRef bound_v = LLVMGetOperand(cmp, iv_left ? 1 : 0);
            if (!iv_left) /* bound OP iv  ->  iv OP' bound */
                pred = pred == LLVMIntSLT ? LLVMIntSGT : pred == LLVMIntSGT ? LLVMIntSLT
                     : pred == LLVMIntULT ? LLVMIntUGT : pred == LLVMIntUGT ? LLVMIntULT
                     : pred == LLVMIntSLE ? LLVMIntSGE : pred == LLVMIntSGE ? LLVMIntSLE
                     : pred == LLVMIntULE ? LLVMIntUGE : pred == LLVMIntUGE ? LLVMIntULE
                     : pred;
            if (!t_in) /* stays in the loop when the compare is false: negate */
                pred = pred == LLVMIntSLT ? LLVMIntSGE : pred == LLVMIntSGE ? LLVMIntSLT
                     : pred == LLVMIntULT ? LLVMIntUGE : pred == LLVMIntUGE ? LLVMIntULT
                     : pred == LLVMIntSGT ? LLVMIntSLE : pred == LLVMIntSLE ? LLVMIntSGT
                     : pred == LLVMIntUGT ? LLVMIntULE : pred == LLVMIntULE ? LLVMIntUGT
                     : pred == LLVMIntEQ ? LLVMIntNE : pred == LLVMIntNE ? LLVMIntEQ : pred;
            struct skmd_poly b;
            int64_t div = 1;
            LLVMOpcode bop = an_opcode(bound_v);
            if ((bop == LLVMSDiv || bop == LLVMUDiv) &&
                const_int(LLVMGetOperand(bound_v, 1), &div) && div > 0) {
                affine_rec(a, LLVMGetOperand(bound_v, 0), &b, depth + 1);
            } else if ((bop == LLVMAShr || bop == LLVMLShr) &&
                       const_int(LLVMGetOperand(bound_v, 1), &div) && div >= 0 && div < 62) {
                div = (int64_t)1 << div; /* a bound >= 0, so the shift divides */
                affine_rec(a, LLVMGetOperand(bound_v, 0), &b, depth + 1);
            } else {
                div = 1;
                affine_rec(a, bound_v, &b, depth + 1);
            }
            if (!skmd_poly_is_launch_const(&b))
                continue;
            int64_t adjust; /* bound so that the loop runs while iv < bound (iv > bound) */
            if ((pred == LLVMIntSLT || pred == LLVMIntULT) && step > 0)
                adjust = 0;
            else if ((pred == LLVMIntSLE || pred == LLVMIntULE) && step > 0)
                adjust = 1;
            else if ((pred == LLVMIntSGT || pred == LLVMIntUGT) && step < 0)
                adjust = 0;
            else if ((pred == LLVMIntSGE || pred == LLVMIntUGE) && step < 0)
                adjust = -1;
            else if (pred == LLVMIntNE && (step == 1 || step == -1))
                adjust = 0;
            else
                continue;
            struct skmd_poly one;
            /* comparing the next value: the iv itself took every value below the bound,
             * and the body ran once before the first compare */
            skmd_poly_const(&one, adjust * div);
            skmd_poly_add_scaled(&b, &b, &one, 1);
            if (!b.valid)
                continue;

            unsigned idx = a->nloops;
            struct skmd_loop_record *lr = skmd_kernel_add_loop(a->k);
            if (!lr) {
                a->oom = 1;
                return;
            }
            lr->step = step;
            lr->bound_div = div;
            lr->start = s;
            lr->bound = b;
            lr->at_least_once = use_next;
            a->loops[idx] = (struct an_loop){phi, cmp, header, t_in ? t : f};
            a->nloops++;
            /* iv = start + step * t */
            struct skmd_poly tv;
            skmd_poly_sym(&tv, SKMD_SYM(SKMD_SYM_LOOP, idx));
            skmd_poly_add_scaled(out, &s, &tv, step);
            return;
        }
    }
}

static void memo_put(struct analysis *a, LLVMValueRef v, const struct skmd_poly *p)
{
    if (a->nmemo == a->capmemo) {
        unsigned cap = a->capmemo ? a->capmemo * 2 : 64;
        struct an_memo *m = realloc(a->memo, cap * sizeof *m);
        if (!m) {
            a->oom = 1;
            return;
        }
        a->memo = m;
        a->capmemo = cap;
    }
    a->memo[a->nmemo].value = v;
    a->memo[a->nmemo].poly = *p;
    a->nmemo++;
}

/* A truncation to `bits` keeps the value modulo 2^bits, and instcombine writes the
 * constants of such a value in that modulus: `(int)(get_group_id(0) * 128 - 16)` becomes
 * `add i64 %g, 4294967280`. Each coefficient is taken to its signed representative, so the
 * polynomial is the value read as a signed index of that width. */
static void wrap_coefficients(struct skmd_poly *p, unsigned bits)
{
    if (!p->valid || bits >= 64 || bits == 0)
        return;
    uint64_t mask = ((uint64_t)1 << bits) - 1, sign = (uint64_t)1 << (bits - 1);
    for (unsigned m = 0; m < p->nmono; m++) {
        uint64_t low = (uint64_t)p->mono[m].coef & mask;
        p->mono[m].coef = (low & sign) ? -(int64_t)(mask - low) - 1 : (int64_t)low;
    }
    /* monomials whose coefficient became 0 are dropped by adding nothing */
    struct skmd_poly zero;
    skmd_poly_const(&zero, 0);
    skmd_poly_add_scaled(p, p, &zero, 1);
}

static void affine_rec(struct analysis *a, LLVMValueRef v, struct skmd_poly *out, int depth)
{
    int64_t c;
    skmd_poly_invalid(out);
    if (depth > MAX_DEPTH)
        return;
    if (const_int(v, &c)) {
        skmd_poly_const(out, c);
        return;
    }
    int p = param_index(a, v);
    if (p >= 0) {
        if (LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMIntegerTypeKind)
            skmd_poly_sym(out, SKMD_SYM(SKMD_SYM_PARAM, p));
        return;
    }
    for (unsigned i = 0; i < a->nmemo; i++)
        if (a->memo[i].value == v) {
            *out = a->memo[i].poly;
            return;
        }
    LLVMOpcode op = an_opcode(v);
    struct skmd_poly x, y;
    switch (op) {
    case LLVMAdd:
    case LLVMSub:
    case LLVMMul:
        affine_rec(a, LLVMGetOperand(v, 0), &x, depth + 1);
        affine_rec(a, LLVMGetOperand(v, 1), &y, depth + 1);
        if (op == LLVMMul)
            skmd_poly_mul(out, &x, &y);
        else
            skmd_poly_add_scaled(out, &x, &y, op == LLVMAdd ? 1 : -1);
        break;
    case LLVMShl:
        if (const_int(LLVMGetOperand(v, 1), &c) && c >= 0 && c < 62) {
            affine_rec(a, LLVMGetOperand(v, 0), &x, depth + 1);
            skmd_poly_const(&y, (int64_t)1 << c);
            skmd_poly_mul(out, &x, &y);
        }
        break;
    case LLVMOr: /* an add whose operands have no bits in common, as instcombine writes it */
        if (const_int(LLVMGetOperand(v, 1), &c) && c >= 0) {
            affine_rec(a, LLVMGetOperand(v, 0), &x, depth + 1);
            if (x.valid && c < known_alignment(&x)) {
                skmd_poly_const(&y, c);
                skmd_poly_add_scaled(out, &x, &y, 1);
            }
        }
        break;
    case LLVMTrunc:
        affine_rec(a, LLVMGetOperand(v, 0), out, depth + 1);
        wrap_coefficients(out, LLVMGetIntTypeWidth(LLVMTypeOf(v)));
        break;
    case LLVMAShr: { /* `ashr (shl x, c), c`: how instcombine writes sext(trunc x), an int id */
        LLVMValueRef inner = LLVMGetOperand(v, 0);
        int64_t c2, width = LLVMGetIntTypeWidth(LLVMTypeOf(v));
        if (const_int(LLVMGetOperand(v, 1), &c) && c > 0 && c < width &&
            an_opcode(inner) == LLVMShl && const_int(LLVMGetOperand(inner, 1), &c2) &&
            c2 == c) {
            affine_rec(a, LLVMGetOperand(inner, 0), out, depth + 1);
            wrap_coefficients(out, (unsigned)(width - c));
        }
        break;
    }
    case LLVMAnd: /* `and x, 0xffffffff`: how instcombine writes zext(trunc x), a uint id */
        if (const_int(LLVMGetOperand(v, 1), &c) && (uint64_t)c == 0xffffffffu &&
            LLVMGetIntTypeWidth(LLVMTypeOf(v)) == 64)
            affine_rec(a, LLVMGetOperand(v, 0), out, depth + 1);
        break;
    case LLVMSExt:
    case LLVMZExt:
    case LLVMFreeze:
        affine_rec(a, LLVMGetOperand(v, 0), out, depth + 1);
        break;
    case LLVMCall: {
        LLVMValueRef callee = LLVMGetCalledValue(v);
        enum skmd_builtin b = skmd_builtin_of(callee);
        if (b != SKMD_BUILTIN_NONE)
            builtin_poly(v, b, out);
        break;
    }
    case LLVMPHI:
        loop_phi(a, v, out, depth);
        break;
    default:
        break;
    }
    if (!skmd_poly_is_affine(out))
        skmd_poly_invalid(out);
    memo_put(a, v, out);
}

void an_affine(struct analysis *a, LLVMValueRef v, struct skmd_poly *out)
{
    affine_rec(a, v, out, 0);
}

/* Byte offset of one GEP (instruction or constant expression) from its pointer operand. */
static void gep_offset(struct analysis *a, LLVMValueRef gep, struct skmd_poly *out, int depth)
{
    LLVMTypeRef t = LLVMGetGEPSourceElementType(gep);
    unsigned n = (unsigned)LLVMGetNumOperands(gep);
    skmd_poly_const(out, 0);
    for (unsigned i = 1; i < n && out->valid; i++) {
        LLVMValueRef idx = LLVMGetOperand(gep, i);
        struct skmd_poly x, scale;
        if (i > 1) {
            LLVMTypeKind kind = LLVMGetTypeKind(t);
            if (kind == LLVMStructTypeKind) {
                int64_t field;
                if (!const_int(idx, &field)) {
                    skmd_poly_invalid(out);
                    return;
                }
                skmd_poly_const(&x, (int64_t)LLVMOffsetOfElement(a->td, t, (unsigned)field));
                skmd_poly_add_scaled(out, out, &x, 1);
                t = LLVMStructGetTypeAtIndex(t, (unsigned)field);
                continue;
            }
            if (kind != LLVMArrayTypeKind && kind != LLVMVectorTypeKind) {
                skmd_poly_invalid(out);
                return;
            }
            t = LLVMGetElementType(t);
        }
        if (LLVMGetTypeKind(LLVMTypeOf(idx)) == LLVMVectorTypeKind) {
            skmd_poly_invalid(out); /* a vector of pointers */
            return;
        }
        affine_rec(a, idx, &x, depth + 1);
        skmd_poly_const(&scale, (int64_t)LLVMABISizeOfType(a->td, t));
        skmd_poly_mul(&x, &x, &scale);
        skmd_poly_add_scaled(out, out, &x, 1);
    }
}

int an_pointer(struct analysis *a, LLVMValueRef ptr, struct skmd_poly *offset)
{
    skmd_poly_const(offset, 0);
    for (int depth = 0; depth < MAX_DEPTH; depth++) {
        int p = param_index(a, ptr);
        if (p >= 0)
            return p;
        LLVMOpcode op = an_opcode(ptr);
        if (op == LLVMGetElementPtr) {
            struct skmd_poly g;
            gep_offset(a, ptr, &g, 0);
            skmd_poly_add_scaled(offset, offset, &g, 1);
            ptr = LLVMGetOperand(ptr, 0);
        } else if (op == LLVMBitCast || op == LLVMAddrSpaceCast) {
            ptr = LLVMGetOperand(ptr, 0);
        } else if (op == LLVMPHI || op == LLVMSelect) {
            /* one parameter on every path: known base, unknown offset */
            unsigned n = op == LLVMPHI ? LLVMCountIncoming(ptr) : 2;
            int base = -2;
            struct skmd_poly ignored;
            for (unsigned i = 0; i < n; i++) {
                LLVMValueRef in = op == LLVMPHI ? LLVMGetIncomingValue(ptr, i)
                                                : LLVMGetOperand(ptr, i + 1);
                int b = in == ptr ? base : an_pointer(a, in, &ignored);
                if (b < 0 || (base >= 0 && b != base))
                    return -1;
                base = b;
            }
            skmd_poly_invalid(offset);
            return base;
        } else {
            return -1;
        }
    }
    return -1;
}

int an_loop_of_cond(const struct analysis *a, LLVMValueRef cmp)
{
    for (unsigned i = 0; i < a->nloops; i++)
        if (a->loops[i].cond == cmp)
            return (int)i;
    return -1;
}

int an_loops_contain(struct analysis *a, const struct skmd_poly *p, LLVMBasicBlockRef bb)
{
    for (unsigned m = 0; m < p->nmono; m++)
        for (unsigned s = 0; s < p->mono[m].nsyms; s++) {
            uint16_t sym = p->mono[m].syms[s];
            if (SKMD_SYM_KIND(sym) != SKMD_SYM_LOOP)
                continue;
            const struct an_loop *l = &a->loops[SKMD_SYM_INDEX(sym)];
            /* inside: reached from the loop's body and leads back to its header */
            if (!an_reachable(a, l->body, bb, l->header) ||
                !an_reachable(a, bb, l->header, NULL))
                return 0;
        }
    return 1;
}
