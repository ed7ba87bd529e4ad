/* libskmd/cl/program_binary.c: the SKMD device's program binary (program_binary.h). */
#include "cl/program_binary.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "device/api.h"

static const char bin_magic[8] = {'S', 'K', 'M', 'D', 'B', 'I', 'N', '2'};
/* The magic's first 7 bytes; its last names the version (1: no texts). */
enum { BIN_MAGIC_STEM = 7 };

/* One text of an SKMD binary at *b (a uint64 size, then the bytes, no NUL among them):
 * *out a copy of it (NULL when empty); *b moves past it. */
static cl_int read_text(const unsigned char **b, const unsigned char *end, char **out)
{
    uint64_t len;
    if ((size_t)(end - *b) < 8)
        return CL_INVALID_BINARY;
    memcpy(&len, *b, 8);
    *b += 8;
    if (len > (uint64_t)(end - *b) || memchr(*b, '\0', (size_t)len))
        return CL_INVALID_BINARY;
    if (len) {
        *out = malloc((size_t)len + 1);
        if (!*out)
            return CL_OUT_OF_HOST_MEMORY;
        memcpy(*out, *b, (size_t)len);
        (*out)[len] = '\0';
    }
    *b += len;
    return CL_SUCCESS;
}

cl_int skmd_binary_parse(const unsigned char *bin, size_t len, struct skmd_binary_parts *out)
{
    const unsigned char *b = bin, *end = bin + len;
    uint32_t n;
    if (len < 12 || memcmp(b, bin_magic, BIN_MAGIC_STEM) != 0 || (b[7] != '1' && b[7] != '2'))
        return CL_INVALID_BINARY;
    out->has_texts = b[7] == '2';
    memcpy(&n, b + 8, 4);
    if (n != (uint32_t)skmd_state.nmembers)
        return CL_INVALID_BINARY;
    b += 12;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t part;
        if ((size_t)(end - b) < 8)
            return CL_INVALID_BINARY;
        memcpy(&part, b, 8);
        b += 8;
        if (part == 0 || part > (uint64_t)(end - b))
            return CL_INVALID_BINARY;
        out->member_bin[i] = b;
        out->member_len[i] = (size_t)part;
        b += part;
    }
    if (!out->has_texts)
        return CL_SUCCESS;
    cl_int err = read_text(&b, end, &out->source);
    return err == CL_SUCCESS ? read_text(&b, end, &out->options) : err;
}

/* One text of an SKMD binary at offset `at` of out (when given); returns the offset after
 * it. */
static size_t write_text(unsigned char *out, size_t at, const char *text)
{
    uint64_t len = text ? strlen(text) : 0;
    if (out)
        memcpy(out + at, &len, 8);
    if (out && len) /* memcpy takes no NULL text, even for no bytes */
        memcpy(out + at + 8, text, (size_t)len);
    return at + 8 + (size_t)len;
}

size_t skmd_binary_write(cl_program program, unsigned char *out)
{
    size_t total = 12;
    /* The binary holds every member's: every slot builds the program first. */
    program->context->bring_up(program->context, "a program's binaries asked for", 1);
    if (out) {
        memcpy(out, bin_magic, 8);
        uint32_t n = (uint32_t)skmd_state.nmembers;
        memcpy(out + 8, &n, 4);
    }
    for (int s = 0; s < skmd_state.nplatforms; s++) {
        cl_uint ndev = 0;
        real_clGetProgramInfo(program->real[s], CL_PROGRAM_NUM_DEVICES, sizeof ndev, &ndev,
                              NULL);
        size_t sizes[SKMD_MAX_MEMBERS] = {0};
        unsigned char *bins[SKMD_MAX_MEMBERS] = {0};
        real_clGetProgramInfo(program->real[s], CL_PROGRAM_BINARY_SIZES, sizeof sizes, sizes,
                              NULL);
        for (cl_uint d = 0; d < ndev; d++)
            if (sizes[d] == 0)
                return 0;
        if (out) {
            /* Members of a slot are contiguous in member order only when platforms do
             * not interleave, which skmd_init guarantees (it walks platform by platform). */
            size_t at = total;
            for (cl_uint d = 0; d < ndev; d++) {
                uint64_t part = sizes[d];
                memcpy(out + at, &part, 8);
                bins[d] = out + at + 8;
                at += 8 + sizes[d];
            }
            real_clGetProgramInfo(program->real[s], CL_PROGRAM_BINARIES, sizeof bins, bins,
                                  NULL);
        }
        for (cl_uint d = 0; d < ndev; d++)
            total += 8 + sizes[d];
    }
    total = write_text(out, total, program->source);
    return write_text(out, total, program->options);
}
