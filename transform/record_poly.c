/* transform/record_poly.c: the small polynomials that byte offsets, loop bounds and guards
 * are written in (record_poly.h). Fixed size, no allocation: an overflow makes the result
 * invalid, which every user reads as "unknown". */
#include "record_poly.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void skmd_poly_invalid(struct skmd_poly *p)
{
    memset(p, 0, sizeof *p);
}

void skmd_poly_const(struct skmd_poly *p, int64_t c)
{
    memset(p, 0, sizeof *p);
    p->valid = 1;
    if (c) {
        p->nmono = 1;
        p->mono[0].coef = c;
    }
}

void skmd_poly_sym(struct skmd_poly *p, uint16_t sym)
{
    skmd_poly_const(p, 1);
    p->mono[0].nsyms = 1;
    p->mono[0].syms[0] = sym;
}

static int same_syms(const struct skmd_mono *a, const struct skmd_mono *b)
{
    if (a->nsyms != b->nsyms)
        return 0;
    for (unsigned i = 0; i < a->nsyms; i++)
        if (a->syms[i] != b->syms[i])
            return 0;
    return 1;
}

/* Orders monomials so that equal polynomials print identically. */
static int mono_cmp(const void *pa, const void *pb)
{
    const struct skmd_mono *a = pa, *b = pb;
    if (a->nsyms != b->nsyms)
        return a->nsyms > b->nsyms ? -1 : 1;
    for (unsigned i = 0; i < a->nsyms; i++)
        if (a->syms[i] != b->syms[i])
            return a->syms[i] > b->syms[i] ? -1 : 1;
    return 0;
}

/* Adds k*m into r, merging with an equal-symbol monomial; 0 on overflow. */
static int add_mono(struct skmd_poly *r, const struct skmd_mono *m, int64_t k)
{
    int64_t c;
    if (__builtin_mul_overflow(m->coef, k, &c))
        return 0;
    if (!c)
        return 1;
    for (unsigned i = 0; i < r->nmono; i++) {
        if (!same_syms(&r->mono[i], m))
            continue;
        if (__builtin_add_overflow(r->mono[i].coef, c, &r->mono[i].coef))
            return 0;
        if (!r->mono[i].coef) {
            r->mono[i] = r->mono[--r->nmono];
        }
        return 1;
    }
    if (r->nmono == SKMD_POLY_MAX_MONOS)
        return 0;
    r->mono[r->nmono] = *m;
    r->mono[r->nmono].coef = c;
    r->nmono++;
    return 1;
}

static void normalise(struct skmd_poly *p)
{
    qsort(p->mono, p->nmono, sizeof p->mono[0], mono_cmp);
}

void skmd_poly_add_scaled(struct skmd_poly *r, const struct skmd_poly *a,
                          const struct skmd_poly *b, int64_t k)
{
    struct skmd_poly out;
    if (!a->valid || !b->valid) {
        skmd_poly_invalid(r);
        return;
    }
    out = *a;
    for (unsigned i = 0; i < b->nmono; i++)
        if (!add_mono(&out, &b->mono[i], k)) {
            skmd_poly_invalid(r);
            return;
        }
    normalise(&out);
    *r = out;
}

void skmd_poly_mul(struct skmd_poly *r, const struct skmd_poly *a, const struct skmd_poly *b)
{
    struct skmd_poly out;
    if (!a->valid || !b->valid) {
        skmd_poly_invalid(r);
        return;
    }
    skmd_poly_const(&out, 0);
    for (unsigned i = 0; i < a->nmono; i++)
        for (unsigned j = 0; j < b->nmono; j++) {
            const struct skmd_mono *x = &a->mono[i], *y = &b->mono[j];
            struct skmd_mono m = {0};
            if (x->nsyms + y->nsyms > SKMD_MONO_MAX_SYMS ||
                __builtin_mul_overflow(x->coef, y->coef, &m.coef)) {
                skmd_poly_invalid(r);
                return;
            }
            /* merge two sorted symbol lists */
            unsigned p = 0, q = 0;
            while (p < x->nsyms || q < y->nsyms) {
                if (q == y->nsyms || (p < x->nsyms && x->syms[p] <= y->syms[q]))
                    m.syms[m.nsyms++] = x->syms[p++];
                else
                    m.syms[m.nsyms++] = y->syms[q++];
            }
            if (!add_mono(&out, &m, 1)) {
                skmd_poly_invalid(r);
                return;
            }
        }
    normalise(&out);
    *r = out;
}

int skmd_poly_is_int(const struct skmd_poly *p, int64_t *c)
{
    if (!p->valid)
        return 0;
    if (p->nmono == 0) {
        *c = 0;
        return 1;
    }
    if (p->nmono == 1 && p->mono[0].nsyms == 0) {
        *c = p->mono[0].coef;
        return 1;
    }
    return 0;
}

static unsigned vars_in(const struct skmd_mono *m)
{
    unsigned n = 0;
    for (unsigned i = 0; i < m->nsyms; i++)
        n += SKMD_SYM_IS_VAR(m->syms[i]) ? 1 : 0;
    return n;
}

int skmd_poly_is_affine(const struct skmd_poly *p)
{
    if (!p->valid)
        return 0;
    for (unsigned i = 0; i < p->nmono; i++)
        if (vars_in(&p->mono[i]) > 1)
            return 0;
    return 1;
}

int skmd_poly_is_launch_const(const struct skmd_poly *p)
{
    if (!p->valid)
        return 0;
    for (unsigned i = 0; i < p->nmono; i++)
        if (vars_in(&p->mono[i]))
            return 0;
    return 1;
}

int skmd_poly_equal(const struct skmd_poly *a, const struct skmd_poly *b)
{
    if (!a->valid || !b->valid || a->nmono != b->nmono)
        return 0;
    for (unsigned i = 0; i < a->nmono; i++)
        if (a->mono[i].coef != b->mono[i].coef || !same_syms(&a->mono[i], &b->mono[i]))
            return 0;
    return 1;
}

void skmd_poly_coef_of(struct skmd_poly *r, const struct skmd_poly *p, uint16_t v)
{
    struct skmd_poly out;
    if (!p->valid) {
        skmd_poly_invalid(r);
        return;
    }
    skmd_poly_const(&out, 0);
    for (unsigned i = 0; i < p->nmono; i++) {
        const struct skmd_mono *m = &p->mono[i];
        for (unsigned s = 0; s < m->nsyms; s++) {
            if (m->syms[s] != v)
                continue;
            struct skmd_mono rest = *m;
            memmove(&rest.syms[s], &rest.syms[s + 1], (m->nsyms - s - 1) * sizeof rest.syms[0]);
            rest.nsyms--;
            add_mono(&out, &rest, 1); /* cannot overflow: a subset of p */
            break;
        }
    }
    normalise(&out);
    *r = out;
}

void skmd_poly_const_part(struct skmd_poly *r, const struct skmd_poly *p)
{
    struct skmd_poly out;
    if (!p->valid) {
        skmd_poly_invalid(r);
        return;
    }
    skmd_poly_const(&out, 0);
    for (unsigned i = 0; i < p->nmono; i++)
        if (!vars_in(&p->mono[i]))
            out.mono[out.nmono++] = p->mono[i];
    *r = out;
}

static const char sym_letters[] = "gltLNOp"; /* by enum skmd_sym_kind */

void skmd_poly_print(FILE *f, const struct skmd_poly *p)
{
    if (!p->valid) {
        fputc('?', f);
        return;
    }
    if (!p->nmono) {
        fputc('0', f);
        return;
    }
    for (unsigned i = 0; i < p->nmono; i++) {
        const struct skmd_mono *m = &p->mono[i];
        if (i)
            fputc('+', f);
        int wrote = 0;
        if (m->coef != 1 || !m->nsyms) {
            fprintf(f, "%lld", (long long)m->coef);
            wrote = 1;
        }
        for (unsigned s = 0; s < m->nsyms; s++) {
            fprintf(f, "%s%c%u", wrote ? "*" : "", sym_letters[SKMD_SYM_KIND(m->syms[s])],
                    SKMD_SYM_INDEX(m->syms[s]));
            wrote = 1;
        }
    }
}

static int parse_sym(const char *s, uint16_t *sym, int *used)
{
    const char *hit = strchr(sym_letters, s[0]);
    if (!s[0] || !hit || s[1] < '0' || s[1] > '9')
        return 0;
    char *end;
    unsigned long idx = strtoul(s + 1, &end, 10);
    if (idx > 255)
        return 0;
    *sym = SKMD_SYM((unsigned)(hit - sym_letters), idx);
    *used = (int)(end - s);
    return 1;
}

int skmd_poly_parse(struct skmd_poly *p, const char *s)
{
    const char *start = s;
    struct skmd_poly out;
    if (*s == '?') {
        skmd_poly_invalid(p);
        return 1;
    }
    skmd_poly_const(&out, 0);
    for (;;) {
        struct skmd_mono m = {.coef = 1};
        int first = 1;
        for (;;) {
            if (first && (*s == '-' || (*s >= '0' && *s <= '9'))) {
                char *end;
                errno = 0;
                m.coef = strtoll(s, &end, 10);
                /* out of int64's range: refuse rather than take strtoll's saturation */
                if (end == s || errno == ERANGE)
                    return -1;
                s = end;
            } else {
                uint16_t sym;
                int used;
                if (m.nsyms == SKMD_MONO_MAX_SYMS || !parse_sym(s, &sym, &used))
                    return -1;
                unsigned at = m.nsyms++;
                while (at && m.syms[at - 1] > sym) { /* keep symbols sorted */
                    m.syms[at] = m.syms[at - 1];
                    at--;
                }
                m.syms[at] = sym;
                s += used;
            }
            first = 0;
            if (*s != '*')
                break;
            s++;
        }
        if (!add_mono(&out, &m, 1))
            return -1;
        if (*s != '+')
            break;
        s++;
    }
    normalise(&out);
    *p = out;
    return (int)(s - start);
}
