/* fuzz_record: libFuzzer harness for the analysis record reader and the footprint
 * evaluator (transform/record*.c), which run inside the application: no input may crash
 * them, and what they return must keep its documented shape.
 *
 * Input: a fixed launch header (struct launch_header, zero-filled when the input is
 * shorter), then the record text. For every kernel and parameter of a record that reads
 * back, skmd_footprint runs with the header's launch and group range, and the result is
 * checked: intervals within capacity, non-empty, sorted, apart. A record that reads must
 * also survive a write/read round trip that gives the same text again. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../transform/record.h"

#define NARGS 8

struct launch_header {
    uint8_t work_dim;
    uint8_t read_cap, write_cap;   /* interval array sizes, 1..16 */
    uint8_t unused[5];
    uint64_t global_offset[3], global_size[3], local_size[3];
    uint64_t first_group, group_count;
    uint8_t args[NARGS][8];        /* raw scalar argument bytes, as clSetKernelArg gets */
};

#define CHECK(cond)                                                                         \
    do {                                                                                    \
        if (!(cond)) {                                                                      \
            fprintf(stderr, "fuzz_record: check failed: %s (line %d)\n", #cond, __LINE__); \
            abort();                                                                        \
        }                                                                                   \
    } while (0)

static void check_intervals(const struct skmd_interval *v, size_t n, size_t cap)
{
    CHECK(n <= cap);
    for (size_t i = 0; i < n; i++) {
        CHECK(v[i].begin < v[i].end);
        if (i)
            CHECK(v[i - 1].end < v[i].begin); /* sorted, neither overlapping nor adjacent */
    }
}

static void footprints(const struct skmd_kernel_record *k, const struct launch_header *h)
{
    struct skmd_launch launch = {.work_dim = h->work_dim};
    memcpy(launch.global_offset, h->global_offset, sizeof launch.global_offset);
    memcpy(launch.global_size, h->global_size, sizeof launch.global_size);
    memcpy(launch.local_size, h->local_size, sizeof launch.local_size);
    int64_t *args = calloc(k->nparams ? k->nparams : 1, sizeof *args);
    if (!args)
        return;
    for (unsigned i = 0; i < k->nparams; i++)
        args[i] = skmd_scalar_value(&k->params[i], h->args[i % NARGS]);
    struct skmd_interval rd[16], wr[16];
    struct skmd_footprint fp = {
        .read = rd, .write = wr,
        .read_cap = 1 + h->read_cap % 16, .write_cap = 1 + h->write_cap % 16,
    };
    /* one parameter index past the end: must be refused, not read */
    for (unsigned p = 0; p <= k->nparams; p++) {
        int rc = skmd_footprint(k, p, &launch, args, h->first_group, h->group_count, &fp);
        if (p == k->nparams)
            CHECK(rc == -1);
        if (rc)
            continue;
        check_intervals(fp.read, fp.nread, fp.read_cap);
        check_intervals(fp.write, fp.nwrite, fp.write_cap);
        CHECK(fp.write_exact == 0 || fp.write_exact == 1);
    }
    free(args);
}

/* The record's text form, in a malloc'd string (NULL when writing failed). */
static char *record_text(const struct skmd_program_record *r, size_t *len)
{
    char *text = NULL;
    FILE *f = open_memstream(&text, len);
    if (!f)
        return NULL;
    int rc = skmd_record_write(f, r);
    if (fclose(f) || rc) {
        free(text);
        return NULL;
    }
    return text;
}

static void round_trip(const struct skmd_program_record *r)
{
    size_t len = 0, len2 = 0;
    char *text = record_text(r, &len);
    CHECK(text);
    FILE *f = fmemopen(text, len ? len : 1, "r");
    CHECK(f);
    struct skmd_program_record again;
    char err[256] = "";
    int rc = skmd_record_read(f, &again, err, sizeof err);
    fclose(f);
    if (rc)
        fprintf(stderr, "fuzz_record: written record does not read back: %s\n%s", err, text);
    CHECK(rc == 0);
    char *text2 = record_text(&again, &len2);
    CHECK(text2 && len2 == len && !memcmp(text, text2, len));
    free(text2);
    free(text);

    char *json = NULL;
    size_t json_len = 0;
    FILE *j = open_memstream(&json, &json_len);
    CHECK(j);
    skmd_record_write_json(j, &again);
    fclose(j);
    free(json);
    skmd_record_free(&again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct launch_header h;
    memset(&h, 0, sizeof h);
    size_t head = size < sizeof h ? size : sizeof h;
    memcpy(&h, data, head);
    data += head;
    size -= head;
    if (!size)
        return 0;
    /* fmemopen wants a mutable buffer; the reader must not rely on a terminating NUL */
    char *copy = malloc(size);
    if (!copy)
        return 0;
    memcpy(copy, data, size);
    FILE *f = fmemopen(copy, size, "r");
    if (!f) {
        free(copy);
        return 0;
    }
    struct skmd_program_record rec;
    char err[256] = "";
    if (skmd_record_read(f, &rec, err, sizeof err) == 0) {
        for (unsigned i = 0; i < rec.nkernels; i++)
            footprints(&rec.kernels[i], &h);
        round_trip(&rec);
    } else {
        CHECK(err[0] != '\0'); /* a refusal says why */
        CHECK(rec.nkernels == 0 && rec.kernels == NULL);
    }
    skmd_record_free(&rec);
    fclose(f);
    free(copy);
    return 0;
}
