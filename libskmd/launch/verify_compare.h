/* libskmd/launch/verify_compare.h: how SKMD_VERIFY compares a buffer the split wrote with
 * the same buffer from a whole run (verify.h): the element kind of a parameter from its
 * OpenCL type name, and the first difference. Pure C, no OpenCL call. */
#ifndef SKMD_VERIFY_COMPARE_H
#define SKMD_VERIFY_COMPARE_H

#include <stddef.h>
#include <stdint.h>

/* Tolerances where the members do not compute alike (docs/verify.md): two values a and b
 * match when |a - b| <= ABS + REL * max(|a|, |b|), NaN matching NaN. */
#define SKMD_VERIFY_FLOAT_REL 1e-4
#define SKMD_VERIFY_FLOAT_ABS 1e-5
#define SKMD_VERIFY_DOUBLE_REL 1e-10
#define SKMD_VERIFY_DOUBLE_ABS 1e-12

enum skmd_verify_elem {
    SKMD_VERIFY_BYTES,  /* byte for byte */
    SKMD_VERIFY_FLOAT,  /* 4-byte floats within the tolerance */
    SKMD_VERIFY_DOUBLE, /* 8-byte doubles within the tolerance */
};

/* The kind of a pointer parameter's elements from CL_KERNEL_ARG_TYPE_NAME ("float*",
 * "float4*", "double*"); every other type (and NULL) is compared byte for byte. */
enum skmd_verify_elem skmd_verify_elem_of(const char *type_name);

/* The first difference of two n-byte buffers. */
struct skmd_verify_diff {
    uint64_t offset;   /* first differing byte (within the first element that differs) */
    uint64_t elements; /* elements that differ (bytes for SKMD_VERIFY_BYTES, and for a
                          tail shorter than one element) */
    double split_value, whole_value; /* that element's values (floats and doubles) */
    int valued;        /* split_value and whole_value are set */
};

/* 1 and *d when `split` and `whole` differ (as `kind` says), else 0. */
int skmd_verify_compare(const unsigned char *split, const unsigned char *whole, size_t n,
                        enum skmd_verify_elem kind, struct skmd_verify_diff *d);

/* Whether a and b match within rel and abs (NaN matches NaN, an infinity only itself). */
int skmd_verify_close(double a, double b, double rel, double abs);

#endif
