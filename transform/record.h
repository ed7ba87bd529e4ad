/* transform/record.h: what the analysis found out about each kernel of a program, and the
 * launch-time footprint evaluator. Plain C: no LLVM, no OpenCL (the runtime links it).
 *
 * Byte offsets of accesses are polynomials over symbols: the work-group ids g0..g2, the
 * local ids l0..l2 and loop counters t0.. are the VARIABLES (an offset is affine in them:
 * at most one variable per monomial); local sizes, numbers of groups, global offsets and
 * scalar parameters are CONSTANTS known at launch. The text and JSON formats are in
 * docs/transform.md. */
#ifndef SKMD_TRANSFORM_RECORD_H
#define SKMD_TRANSFORM_RECORD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "record_poly.h"

/* ---- the record ---- */
enum skmd_param_kind {
    SKMD_PARAM_SCALAR = 0,
    SKMD_PARAM_GLOBAL,
    SKMD_PARAM_CONSTANT,
    SKMD_PARAM_LOCAL,
    SKMD_PARAM_IMAGE,
    SKMD_PARAM_SAMPLER,
    SKMD_PARAM_OTHER          /* struct by value, ... */
};
const char *skmd_param_kind_name(enum skmd_param_kind k);

/* 16, 32 or 64 when an OpenCL type name ("float*", "double4*", "half") names half, float or
 * double elements, scalar or vector; 0 for every other type. */
unsigned skmd_type_float_bits(const char *type_name);

#define SKMD_ACCESS_READ 1u
#define SKMD_ACCESS_WRITE 2u

struct skmd_param_record {
    char *name;
    enum skmd_param_kind kind;
    unsigned access;          /* SKMD_ACCESS_* (pointer and image parameters) */
    unsigned elem_size;       /* bytes of the accessed element where known, else 0 */
    unsigned scalar_bytes;    /* scalars: 1, 2, 4, 8 (0: not an integer scalar) */
    int scalar_signed;        /* scalars: from the OpenCL type name */
    unsigned float_bits;      /* pointers: 16, 32 or 64 when the pointee's element type
                                 (typedefs resolved, vectors too) is half, float or
                                 double; 0 otherwise */
};

/* A loop counter t_k: the loop's induction variable is start + step*t_k, 0 <= t_k < trip,
 * trip = ceil((B - start) / step) (at least 1 when at_least_once), 0 when negative, where
 * B = bound / bound_div (C division: `for (t = 0; t < N / 16; t++)`). start and bound are
 * launch constants. */
struct skmd_loop_record {
    int64_t step;
    int64_t bound_div;        /* >= 1 */
    int at_least_once;
    struct skmd_poly start, bound;
};

#define SKMD_ACCESS_MAX_LIMITS 4

/* One global/constant memory access (a load or a store, or a vector/atomic of either). */
struct skmd_access_record {
    unsigned param;           /* index of the pointer parameter it is based on */
    unsigned flags;           /* SKMD_ACCESS_READ or SKMD_ACCESS_WRITE */
    unsigned size;            /* bytes */
    unsigned line;            /* source line, 0 unknown */
    int affine;               /* offset is valid and affine: else the whole buffer */
    int conditional;          /* runs only under a condition not captured by clip */
    int has_clip;             /* runs only when its offset <= clip (a captured guard) */
    struct skmd_poly offset;  /* byte offset from the parameter's pointer */
    struct skmd_poly clip;
    /* When every condition the access runs under is understood (a conditional access or
     * one with a clip): it runs exactly where each limit[i] >= 0, limit[i] affine (`if (x
     * < w && y < h)`: w - x - 1 >= 0, h - y - 1 >= 0). nlimits 0: not known. Text: one
     * `limit POLY` line per limit after the access line. */
    unsigned nlimits;
    struct skmd_poly limit[SKMD_ACCESS_MAX_LIMITS];
};

/* Static features for a cold-start device predictor (Grewe & O'Boyle, CC'11), per
 * work-item, each instruction counted once (loop bodies not multiplied). */
#define SKMD_FEATURES(X)                                                                    \
    X(int_ops) X(float_ops) X(vector_ops) X(math_calls) X(barriers) X(global_loads)         \
    X(global_stores) X(local_accesses) X(branches) X(coalesced_fraction) X(compute_mem_ratio)
struct skmd_features {
#define SKMD_FEATURE_FIELD(name) double name;
    SKMD_FEATURES(SKMD_FEATURE_FIELD)
#undef SKMD_FEATURE_FIELD
};

struct skmd_kernel_record {
    char *name;
    int splittable;
    char *reason;             /* why not splittable ("" when splittable) */
    unsigned reason_line;
    int needs_merge;          /* some write's footprint can never be exact */
    int writes_disjoint;      /* every write indexed by global id: groups write apart */
    int group_free;           /* no work-group builtin, barrier or local memory: results
                                 do not depend on the local size (text record only) */
    unsigned nparams, naccesses, nloops;
    struct skmd_param_record *params;
    struct skmd_access_record *accesses;
    struct skmd_loop_record *loops;
    struct skmd_features features;
};

struct skmd_program_record {
    unsigned nkernels;
    struct skmd_kernel_record *kernels;
};

void skmd_record_init(struct skmd_program_record *r);
void skmd_record_free(struct skmd_program_record *r);
/* Appends a kernel (zeroed, name copied); NULL when out of memory. */
struct skmd_kernel_record *skmd_record_add_kernel(struct skmd_program_record *r,
                                                  const char *name);
const struct skmd_kernel_record *skmd_record_find(const struct skmd_program_record *r,
                                                  const char *kernel);
/* Each returns 0, or -1 when out of memory. */
int skmd_kernel_set_reason(struct skmd_kernel_record *k, unsigned line, const char *reason);
struct skmd_access_record *skmd_kernel_add_access(struct skmd_kernel_record *k);
struct skmd_loop_record *skmd_kernel_add_loop(struct skmd_kernel_record *k);

/* Line-oriented text (the runtime's format) and JSON (for people and tests). read returns
 * 0, or -1 with a message in err (err_size bytes) on malformed input. */
int skmd_record_write(FILE *f, const struct skmd_program_record *r);
int skmd_record_read(FILE *f, struct skmd_program_record *r, char *err, size_t err_size);
int skmd_record_write_json(FILE *f, const struct skmd_program_record *r);

/* ---- launch-time footprints ---- */
struct skmd_launch {
    unsigned work_dim;
    uint64_t global_offset[3];
    uint64_t global_size[3];
    uint64_t local_size[3];
};

/* [begin, end) in bytes from the start of the buffer. */
struct skmd_interval {
    uint64_t begin, end;
};
#define SKMD_WHOLE_BUFFER UINT64_MAX /* an end meaning "to the end of the buffer" */

/* The caller provides the arrays; sorted, non-overlapping, non-adjacent on return. */
struct skmd_footprint {
    struct skmd_interval *read, *write;
    size_t read_cap, write_cap;
    size_t nread, nwrite;
    int write_exact;  /* 1: the write intervals are exactly the bytes written */
};

/* Converts the raw bytes of a scalar argument (as given to clSetKernelArg) into the value
 * the footprint evaluator takes. */
int64_t skmd_scalar_value(const struct skmd_param_record *p, const void *bytes);

/* The bytes that the linear work-groups [first_group, first_group + group_count) read and
 * write through parameter `param` of kernel k. scalar_args[i] is the value of scalar
 * parameter i (skmd_scalar_value; others ignored). Reads may be over-approximated; writes
 * are exact only when out->write_exact. Returns 0, or -1 on bad arguments. */
int skmd_footprint(const struct skmd_kernel_record *k, unsigned param,
                   const struct skmd_launch *launch, const int64_t *scalar_args,
                   uint64_t first_group, uint64_t group_count, struct skmd_footprint *out);

#define SKMD_ACCESS_MAX_VARS (6 + 16)

/* Access number `access` of kernel k at a launch, as an affine function of its variables:
 * byte offset = *base + sum coef[v] * x_v, variables v = 0..2 group ids, 3..5 local ids,
 * 6 + j loop counter j, each x_v in [0, count[v]) (group ids: the launch's groups; -1 for
 * a loop whose trip count is not known: the offset is unknown where its coefficient is
 * not 0, and a store inside it is conditional). Arrays of SKMD_ACCESS_MAX_VARS. 0 when the
 * access is not affine or cannot be evaluated (its conditions, clip and limits are not
 * looked at: that is the caller's). */
int skmd_access_affine(const struct skmd_kernel_record *k, unsigned access,
                       const struct skmd_launch *launch, const int64_t *scalar_args,
                       int64_t *base, int64_t *coef, int64_t *count);

/* p (a limit, say) at a launch, as *base + sum coef[v] * x_v (variables as above). 0 when
 * it is not affine or cannot be evaluated. */
int skmd_poly_affine_at(const struct skmd_kernel_record *k, const struct skmd_poly *p,
                        const struct skmd_launch *launch, const int64_t *scalar_args,
                        int64_t *base, int64_t *coef);

#endif
