/* libskmd/cl/program_binary.h: the SKMD device's program binary ("SKMDBIN2"): the magic,
 * a uint32 member count, then per member a uint64 size and that member's binary, in
 * member order, then the app's source and the build options, each as a uint64 size and
 * its bytes (size 0: none). They let a program made again from its binary (apps and
 * bindings cache binaries) still be split, its split version built as its binaries were.
 * "SKMDBIN1" (without the two texts) is read too. */
#ifndef SKMD_PROGRAM_BINARY_H
#define SKMD_PROGRAM_BINARY_H

#include <stddef.h>

#include "support/object.h"

/* A binary taken apart: each member's part (pointing into the binary) and copies of the
 * texts (NULL when absent; the caller frees them). */
struct skmd_binary_parts {
    const unsigned char *member_bin[SKMD_MAX_MEMBERS];
    size_t member_len[SKMD_MAX_MEMBERS];
    char *source, *options;
    int has_texts; /* SKMDBIN2: the texts are the binary's own */
};

/* Parses an SKMD binary of len bytes for this process's members: CL_SUCCESS,
 * CL_INVALID_BINARY (another format, member count, or a part past the end) or
 * CL_OUT_OF_HOST_MEMORY. */
cl_int skmd_binary_parse(const unsigned char *bin, size_t len, struct skmd_binary_parts *out);
/* The program's SKMD binary: fills `out` when given; returns its size (0 when a member
 * has no binary yet). */
size_t skmd_binary_write(cl_program program, unsigned char *out);

#endif
