/* transform/analysis_guard.c: under which conditions an access runs. A guard only shrinks
 * the set of bytes written, so an unguarded footprint stays a valid bound; it is exact only
 * where the guard is understood: `if (i < n) out[i] = ...` (or `if (i >= n) return;`)
 * becomes a clip on the access's offset. Conditions found on the way are handed back so the
 * caller can check that the merge kernel can recompute them. */
#include <stdlib.h>
#include <string.h>

#include "analysis.h"

static int is_exit(LLVMBasicBlockRef bb)
{
    LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
    return term && LLVMGetInstructionOpcode(term) == LLVMRet;
}

/* With the given cuts, can the function return without running `bb`? */
static int can_skip(struct analysis *a, LLVMBasicBlockRef bb, const struct an_cut *cuts,
                    unsigned ncuts)
{
    LLVMBasicBlockRef entry = a->blocks[0];
    if (bb == entry)
        return 0;
    an_cfg_search(a, entry, NULL, bb, cuts, ncuts, NULL, NULL);
    for (unsigned i = 0; i < a->nblocks; i++)
        if (a->mark[i] && is_exit(a->blocks[i]))
            return 1;
    return 0;
}

/* A condition the access needs: value `cond` must be `want` (1 or 0). */
struct need {
    LLVMValueRef cond;
    int want;
};

/* Turns "cond == want" into "lhs < rhs" (signed or unsigned alike: offsets are small and
 * non-negative); 0 when it is not a compare. */
static int as_less_than(LLVMValueRef cond, int want, LLVMValueRef *lhs, LLVMValueRef *rhs,
                        int *or_equal)
{
    if (!LLVMIsAICmpInst(cond))
        return 0;
    LLVMIntPredicate p = LLVMGetICmpPredicate(cond);
    LLVMValueRef x = LLVMGetOperand(cond, 0), y = LLVMGetOperand(cond, 1);
    int lt; /* x < y (1) or x > y (0) */
    int eq = 0;
    switch (p) {
    case LLVMIntSLT: case LLVMIntULT: lt = 1; break;
    case LLVMIntSLE: case LLVMIntULE: lt = 1; eq = 1; break;
    case LLVMIntSGT: case LLVMIntUGT: lt = 0; break;
    case LLVMIntSGE: case LLVMIntUGE: lt = 0; eq = 1; break;
    default: return 0;
    }
    if (!want) { /* !(x < y) == y <= x ; !(x <= y) == y < x */
        lt = !lt;
        eq = !eq;
    }
    *lhs = lt ? x : y;
    *rhs = lt ? y : x;
    *or_equal = eq;
    return 1;
}

/* `l_d == 0` or `l_d == L_d - 1` (taken as given) where the offset does not depend on l_d:
 * one work-item of each group does the access, at the place every one of them would; the
 * bytes written are the same as without the condition. */
static int one_item_per_group(struct analysis *a, LLVMValueRef cond, int want,
                              const struct skmd_poly *offset)
{
    if (!LLVMIsAICmpInst(cond))
        return 0;
    LLVMIntPredicate p = LLVMGetICmpPredicate(cond);
    if (!((p == LLVMIntEQ && want) || (p == LLVMIntNE && !want)))
        return 0;
    struct skmd_poly x, y, coef;
    int64_t c;
    an_affine(a, LLVMGetOperand(cond, 0), &x);
    an_affine(a, LLVMGetOperand(cond, 1), &y);
    if (skmd_poly_is_int(&x, &c) && !c) {
        struct skmd_poly t = x;
        x = y;
        y = t;
    }
    if (!x.valid || x.nmono != 1 || x.mono[0].coef != 1 || x.mono[0].nsyms != 1 ||
        SKMD_SYM_KIND(x.mono[0].syms[0]) != SKMD_SYM_LOCAL_ID)
        return 0;
    struct skmd_poly last; /* L_d - 1 */
    unsigned d = SKMD_SYM_INDEX(x.mono[0].syms[0]);
    struct skmd_poly minus_one;
    skmd_poly_sym(&last, SKMD_SYM(SKMD_SYM_LOCAL_SIZE, d));
    skmd_poly_const(&minus_one, -1);
    skmd_poly_add_scaled(&last, &last, &minus_one, 1);
    if (!(skmd_poly_is_int(&y, &c) && !c) && !skmd_poly_equal(&y, &last))
        return 0;
    skmd_poly_coef_of(&coef, offset, x.mono[0].syms[0]);
    return coef.valid && coef.nmono == 0;
}

/* offset == k*A + c with integer k > 0 and launch-constant c: then "A < B" is
 * "offset <= k*B + c - 1". Fills clip; 0 when the shapes do not match. */
static int clip_from(const struct skmd_poly *offset, const struct skmd_poly *A,
                     const struct skmd_poly *B, int or_equal, struct skmd_poly *clip)
{
    if (!skmd_poly_is_affine(A) || !skmd_poly_is_launch_const(B) || !offset->valid)
        return 0;
    int64_t k = 0;
    struct skmd_poly co, ca, diff;
    for (unsigned kind = SKMD_SYM_GROUP_ID; kind <= SKMD_SYM_LOOP; kind++)
        for (unsigned d = 0; d < (kind == SKMD_SYM_LOOP ? 64u : 3u); d++) {
            uint16_t v = SKMD_SYM(kind, d);
            skmd_poly_coef_of(&co, offset, v);
            skmd_poly_coef_of(&ca, A, v);
            if (!co.nmono && !ca.nmono)
                continue;
            if (!k) {
                if (!co.nmono || !ca.nmono || co.mono[0].coef % ca.mono[0].coef)
                    return 0;
                k = co.mono[0].coef / ca.mono[0].coef;
                if (k <= 0)
                    return 0;
            }
            skmd_poly_add_scaled(&diff, &co, &ca, -k);
            if (!diff.valid || diff.nmono)
                return 0;
        }
    if (!k)
        return 0;
    struct skmd_poly c_off, c_a, one;
    skmd_poly_const_part(&c_off, offset);
    skmd_poly_const_part(&c_a, A);
    skmd_poly_const(&one, or_equal ? k - 1 : -1);
    struct skmd_poly r;
    skmd_poly_add_scaled(&r, &c_off, &c_a, -k);   /* c */
    skmd_poly_add_scaled(&r, &r, B, k);           /* + k*B */
    skmd_poly_add_scaled(&r, &r, &one, 1);        /* - 1, or + k-1 for <= */
    if (!r.valid)
        return 0;
    *clip = r;
    return 1;
}

/* An unsigned compare is an interval of the values only when its right side is positive:
 * `x >= 2 && x < 100` folds to `(x - 2) <u 98`, where `98 - (x - 2) - 1 >= 0` alone would
 * let x be 0 or 1. Not taken as limits (a signed compare is). */
static int unsigned_compare(LLVMValueRef cmp)
{
    LLVMIntPredicate p = LLVMGetICmpPredicate(cmp);
    return p == LLVMIntULT || p == LLVMIntULE || p == LLVMIntUGT || p == LLVMIntUGE;
}

/* "A < B" (or <=) as the limit B - A - 1 >= 0 (B - A), when A and B are affine (`x >= 1`
 * is 1 <= x: x - 1 >= 0); else the conditions are not all understood. */
static void add_limit(const struct skmd_poly *A, const struct skmd_poly *B, int or_equal,
                      struct skmd_poly *limits, unsigned *n, int *understood)
{
    struct skmd_poly l, c;
    if (!A->valid || !B->valid || !skmd_poly_is_affine(A) || !skmd_poly_is_affine(B) ||
        *n == SKMD_ACCESS_MAX_LIMITS) {
        *understood = 0;
        return;
    }
    skmd_poly_const(&c, or_equal ? 0 : -1);
    skmd_poly_add_scaled(&l, B, A, -1);
    skmd_poly_add_scaled(&l, &l, &c, 1);
    if (!l.valid) {
        *understood = 0;
        return;
    }
    limits[(*n)++] = l;
}

void an_guard(struct analysis *a, LLVMValueRef inst, struct skmd_access_record *rec,
              LLVMValueRef *conds, unsigned max, unsigned *nconds)
{
    LLVMBasicBlockRef bb = LLVMGetInstructionParent(inst);
    *nconds = 0;
    rec->conditional = 0;
    rec->has_clip = 0;
    rec->nlimits = 0;
    if (!can_skip(a, bb, NULL, 0))
        return; /* runs on every path */
    /* Every compare `A < B` it runs under, as the limit B - A - 1 >= 0; kept only when
     * they are all its conditions (record.h). */
    struct skmd_poly limits[SKMD_ACCESS_MAX_LIMITS];
    unsigned nlimits = 0;
    int understood = 1;

    /* The edges without which bb is unreachable: their conditions hold whenever it runs. */
    struct an_cut cuts[32];
    struct need needs[32];
    unsigned ncuts = 0;
    for (unsigned i = 0; i < a->nblocks; i++) {
        LLVMBasicBlockRef p = a->blocks[i];
        LLVMValueRef term = LLVMGetBasicBlockTerminator(p);
        if (!term || !LLVMIsABranchInst(term) || !LLVMIsConditional(term))
            continue;
        for (unsigned s = 0; s < 2; s++) {
            LLVMBasicBlockRef succ = LLVMGetSuccessor(term, s);
            if (LLVMGetSuccessor(term, 1 - s) == succ)
                continue;
            if (an_cfg_search(a, a->blocks[0], bb, NULL, NULL, 0, p, succ))
                continue; /* reachable without this edge */
            if (ncuts == 32) {
                rec->conditional = 1;
                return;
            }
            cuts[ncuts] = (struct an_cut){p, s};
            needs[ncuts] = (struct need){LLVMGetCondition(term), s == 0};
            /* leaving a loop: its condition says when the loop ends, not which work-items
             * get here (every one does, loops in kernels end) */
            LLVMBasicBlockRef other = LLVMGetSuccessor(term, 1 - s);
            if (an_reachable(a, other, p, NULL) && !an_reachable(a, succ, p, NULL))
                needs[ncuts].cond = NULL;
            ncuts++;
        }
    }
    for (unsigned i = 0; i < ncuts && *nconds < max; i++)
        if (needs[i].cond)
            conds[(*nconds)++] = needs[i].cond;
    /* with those edges forced, bb must run on every path: else other, unseen conditions */
    if (can_skip(a, bb, cuts, ncuts)) {
        rec->conditional = 1;
        return;
    }
    for (unsigned i = 0; i < ncuts; i++) {
        if (!needs[i].cond)
            continue;
        /* split `c1 && c2` (taken when true) into its compares */
        LLVMValueRef parts[2] = {needs[i].cond, NULL};
        LLVMOpcode op = an_opcode(needs[i].cond);
        if (needs[i].want && op == LLVMAnd) {
            parts[0] = LLVMGetOperand(needs[i].cond, 0);
            parts[1] = LLVMGetOperand(needs[i].cond, 1);
        } else if (needs[i].want && op == LLVMSelect &&
                   LLVMIsAConstantInt(LLVMGetOperand(needs[i].cond, 2)) &&
                   LLVMConstIntGetZExtValue(LLVMGetOperand(needs[i].cond, 2)) == 0) {
            parts[0] = LLVMGetOperand(needs[i].cond, 0); /* select c1, c2, false */
            parts[1] = LLVMGetOperand(needs[i].cond, 1);
        }
        for (unsigned j = 0; j < 2 && parts[j]; j++) {
            LLVMValueRef lhs, rhs;
            int or_equal;
            int want = parts[j] == needs[i].cond ? needs[i].want : 1;
            int loop = an_loop_of_cond(a, parts[j]);
            if (loop >= 0) {
                /* the loop's range is in its counter, if the offset has one: else a loop
                 * that runs no times would still be taken to write */
                struct skmd_poly coef;
                skmd_poly_coef_of(&coef, &rec->offset, SKMD_SYM(SKMD_SYM_LOOP, loop));
                if (!coef.valid || !coef.nmono) {
                    rec->conditional = 1;
                    understood = 0; /* whether the loop runs at all */
                }
                continue;
            }
            if (one_item_per_group(a, parts[j], want, &rec->offset))
                continue;
            struct skmd_poly A, B, clip;
            if (!as_less_than(parts[j], want, &lhs, &rhs, &or_equal)) {
                rec->conditional = 1;
                understood = 0;
                continue;
            }
            an_affine(a, lhs, &A);
            an_affine(a, rhs, &B);
            if (unsigned_compare(parts[j]))
                understood = 0; /* see unsigned_compare */
            else
                add_limit(&A, &B, or_equal, limits, &nlimits, &understood);
            if (rec->has_clip || !clip_from(&rec->offset, &A, &B, or_equal, &clip)) {
                /* e.g. a bound check in another dimension: bounds, not exact */
                rec->conditional = 1;
                continue;
            }
            rec->has_clip = 1;
            rec->clip = clip;
        }
    }
    if (understood && nlimits && (rec->conditional || rec->has_clip)) {
        rec->nlimits = nlimits;
        memcpy(rec->limit, limits, nlimits * sizeof limits[0]);
    }
}
