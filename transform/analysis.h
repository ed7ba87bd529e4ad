/* transform/analysis.h: state shared by the files of the kernel analysis (analysis.c drives
 * it; affine.c, analysis_guard.c, splittable.c and features.c each do one job). Private to
 * transform/. */
#ifndef SKMD_TRANSFORM_ANALYSIS_H
#define SKMD_TRANSFORM_ANALYSIS_H

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>

#include "context.h"
#include "record.h"

#define AN_MAX_LOOPS 64

/* A loop whose induction variable became counter t<index> of the record. */
struct an_loop {
    LLVMValueRef phi;          /* the induction variable */
    LLVMValueRef cond;         /* the compare that keeps it in the loop */
    LLVMBasicBlockRef header;  /* block of the phi */
    LLVMBasicBlockRef body;    /* the header's successor that stays in the loop */
};

struct an_memo {
    LLVMValueRef value;
    struct skmd_poly poly;
};

struct analysis {
    const struct skmd_ctx *ctx;
    LLVMValueRef fn;
    LLVMTargetDataRef td;
    struct skmd_kernel_record *k;
    unsigned nparams;
    LLVMValueRef *params;
    unsigned nblocks;
    LLVMBasicBlockRef *blocks;
    unsigned char *mark;       /* scratch, one per block */
    struct an_memo *memo;
    unsigned nmemo, capmemo;
    struct an_loop loops[AN_MAX_LOOPS];
    unsigned nloops;
    int oom;
};

/* ---- affine.c ---- */
/* The value of integer v as a polynomial (invalid when it is not affine in the work-item
 * ids and recognised loop counters). */
void an_affine(struct analysis *a, LLVMValueRef v, struct skmd_poly *out);
/* The kernel parameter a pointer is based on (-1: none, or more than one) and its byte
 * offset from it (invalid when not affine). */
int an_pointer(struct analysis *a, LLVMValueRef ptr, struct skmd_poly *offset);
/* The loop counters that poly p uses must belong to loops containing block bb: 1 if so. */
int an_loops_contain(struct analysis *a, const struct skmd_poly *p, LLVMBasicBlockRef bb);
/* The index of the recognised loop whose exit compare cmp is, or -1. */
int an_loop_of_cond(const struct analysis *a, LLVMValueRef cmp);

/* ---- cfg_search.c ---- */
int an_block_index(const struct analysis *a, LLVMBasicBlockRef bb);
/* Edges that an_cfg_search() may not take: (from, successor number). */
struct an_cut {
    LLVMBasicBlockRef from;
    unsigned keep_only; /* the successor number kept (the others are cut) */
};
/* Marks in a->mark every block reachable from `from`, not entering `avoid`, not leaving a
 * block of cuts[] except by its kept successor, nor taking the edge cut_edge_from ->
 * cut_edge_to; stops early when `to` is found (returns 1 then). */
int an_cfg_search(struct analysis *a, LLVMBasicBlockRef from, LLVMBasicBlockRef to,
                  LLVMBasicBlockRef avoid, const struct an_cut *cuts, unsigned ncuts,
                  LLVMBasicBlockRef cut_edge_from, LLVMBasicBlockRef cut_edge_to);
/* Whether `to` is reachable from `from` without entering `avoid` (may be NULL). */
int an_reachable(struct analysis *a, LLVMBasicBlockRef from, LLVMBasicBlockRef to,
                 LLVMBasicBlockRef avoid);

/* ---- analysis_guard.c ---- */
/* Fills rec->conditional / has_clip / clip for the access at instruction inst (offset
 * already in rec->offset). conds receives the branch conditions the access depends on
 * (up to max), *nconds their number. */
void an_guard(struct analysis *a, LLVMValueRef inst, struct skmd_access_record *rec,
              LLVMValueRef *conds, unsigned max, unsigned *nconds);

/* ---- analysis.c ---- */
/* The half-precision family, `v{load,store}[a]_half[N][_rt?]`: name is what follows
 * "vload"/"vstore" in the OpenCL name. Sets the halves moved (N, 1 when absent) and the
 * offset's step in halves (vloada_half3/vstorea_half3 step by 4). 0 when the name is not
 * one of them. (Also used by merge_kernel.c.) */
int an_half_builtin(const char *name, int store, unsigned *count, unsigned *stride);

/* ---- splittable.c ---- */
/* Marks the kernel not splittable (first reason wins). */
void an_unsplittable(struct analysis *a, LLVMValueRef at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The OpenCL name of a called function ("atomic_add" from "_Z10atomic_addPU3AS1Vii"),
 * written into buf. */
const char *an_callee_name(LLVMValueRef call, char *buf, size_t size);
/* Checks calls and atomics; called once per kernel before accesses are collected. */
void an_check_instructions(struct analysis *a);
/* Checks that v (a store address or a condition of one) does not depend on data the
 * merge kernel cannot recompute. */
void an_check_recomputable(struct analysis *a, LLVMValueRef v, LLVMValueRef store);

/* ---- features.c ---- */
void an_features(struct analysis *a);

/* Opcode of an instruction or constant expression (0 for others). */
LLVMOpcode an_opcode(LLVMValueRef v);

#endif
