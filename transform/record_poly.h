/* transform/record_poly.h: the polynomials over launch symbols that a kernel record's
 * byte offsets are written in (record.h). Plain C: no LLVM, no OpenCL.
 *
 * The symbols: the work-group ids g0..g2, the local ids l0..l2 and loop counters t0.. are
 * the VARIABLES (an offset is affine in them: at most one variable per monomial); local
 * sizes, numbers of groups, global offsets and scalar parameters are CONSTANTS known at
 * launch. The text form is in docs/transform.md. */
#ifndef SKMD_TRANSFORM_RECORD_POLY_H
#define SKMD_TRANSFORM_RECORD_POLY_H

#include <stdint.h>
#include <stdio.h>

/* ---- symbols and polynomials ---- */
enum skmd_sym_kind {
    SKMD_SYM_GROUP_ID = 0,   /* g<d>: variable */
    SKMD_SYM_LOCAL_ID,       /* l<d>: variable */
    SKMD_SYM_LOOP,           /* t<k>: variable, counter of loop k in [0, trip_k) */
    SKMD_SYM_LOCAL_SIZE,     /* L<d> */
    SKMD_SYM_NUM_GROUPS,     /* N<d> */
    SKMD_SYM_GLOBAL_OFFSET,  /* O<d> */
    SKMD_SYM_PARAM           /* p<i>: value of scalar parameter i */
};
#define SKMD_SYM(kind, index) ((uint16_t)(((unsigned)(kind) << 8) | ((unsigned)(index) & 0xff)))
#define SKMD_SYM_KIND(s) ((enum skmd_sym_kind)((s) >> 8))
#define SKMD_SYM_INDEX(s) ((unsigned)((s) & 0xff))
#define SKMD_SYM_IS_VAR(s) (SKMD_SYM_KIND(s) <= SKMD_SYM_LOOP)

#define SKMD_MONO_MAX_SYMS 8
#define SKMD_POLY_MAX_MONOS 16

struct skmd_mono {
    int64_t coef;
    uint8_t nsyms;                          /* syms sorted ascending */
    uint16_t syms[SKMD_MONO_MAX_SYMS];
};

/* A sum of monomials; valid == 0 means "not representable" (too big, or not affine). */
struct skmd_poly {
    int valid;
    unsigned nmono;
    struct skmd_mono mono[SKMD_POLY_MAX_MONOS];
};

void skmd_poly_const(struct skmd_poly *p, int64_t c);
void skmd_poly_sym(struct skmd_poly *p, uint16_t sym);
void skmd_poly_invalid(struct skmd_poly *p);
/* r = a + k*b ; r = a * b. r may alias a or b. Overflowing the fixed size: invalid. */
void skmd_poly_add_scaled(struct skmd_poly *r, const struct skmd_poly *a,
                          const struct skmd_poly *b, int64_t k);
void skmd_poly_mul(struct skmd_poly *r, const struct skmd_poly *a, const struct skmd_poly *b);
/* 1 when p is a constant integer (no symbols); *c gets it. */
int skmd_poly_is_int(const struct skmd_poly *p, int64_t *c);
/* 1 when every monomial has at most one variable symbol. */
int skmd_poly_is_affine(const struct skmd_poly *p);
/* 1 when p contains no variable symbol. */
int skmd_poly_is_launch_const(const struct skmd_poly *p);
int skmd_poly_equal(const struct skmd_poly *a, const struct skmd_poly *b);
/* The coefficient (a polynomial in constants) of variable v in affine p; and p without
 * its variable terms. */
void skmd_poly_coef_of(struct skmd_poly *r, const struct skmd_poly *p, uint16_t v);
void skmd_poly_const_part(struct skmd_poly *r, const struct skmd_poly *p);
/* Text form: "4*p2*L1*g1+4*l0+-8", "0"; "?" for invalid. */
void skmd_poly_print(FILE *f, const struct skmd_poly *p);
/* Parses the text form up to the first whitespace; returns chars consumed, or -1. */
int skmd_poly_parse(struct skmd_poly *p, const char *s);

#endif
