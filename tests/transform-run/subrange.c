/* tests/transform-run/subrange: checks partition-ready kernels on PoCL, byte for byte.
 *
 * For each corpus file's LAUNCH lines: runs the original kernel over the whole NDRange, then
 * the partition-ready kernel (skmd-opt --compile --target pocl) as 2-5 uneven shares of
 * linear work-groups, and compares all buffers with the full run:
 *   sequential: the shares one after the other in ONE set of buffers (checks the id
 *               remapping);
 *   separate:   each share in its own copy of the buffers, then combined as the runtime
 *               will: exact write footprints (skmd_footprint) copied back, others merged by
 *               NAME__skmd_merge. Needs the analysis record (record.txt).
 * Usage: subrange --skmd-opt PATH --cache DIR [--target pocl|nvptx] [--platform SUBSTR]
 *                 [--skmd-opt-args "ARGS"] [--dump-native DIR] FILE.cl...
 * --target nvptx loads kernels.ptx (the NVIDIA platform); a program skmd-opt cannot lower
 * for that target is reported as SKIP (it runs whole on one device). --dump-native writes
 * the driver's own binary of each original program (NVIDIA: its PTX) to DIR/FILE.cl.native.
 * A difference names the first differing element and both values. Exit status 0: all
 * passed. */
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS /* clCreateCommandQueue: OpenCL 1.2 drivers */
#include <CL/cl.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../transform/record.h"

#define MAX_ARGS 16
#define MAX_LAUNCHES 8

enum arg_kind { ARG_BUF, ARG_SCALAR, ARG_LOCAL };

struct arg {
    enum arg_kind kind;
    size_t bytes;          /* buffer or local size; scalar size */
    unsigned char value[8];
    unsigned char *init;   /* buffers: initial contents */
    char type[16];         /* buffers: the element type of the ARG line */
};

struct launch {
    char kernel[128];
    unsigned dims;
    size_t global[3], local[3], offset[3];
    unsigned nargs;
    struct arg args[MAX_ARGS];
};

static const char *target = "pocl";
static const char *extra_args = "";
static const char *dump_dir; /* --dump-native: the driver's binaries of the originals */

static cl_context ctx;
static cl_command_queue queue;
static cl_device_id device;

#define CHECK(call)                                                                         \
    do {                                                                                    \
        cl_int e_ = (call);                                                                 \
        if (e_ != CL_SUCCESS) {                                                             \
            fprintf(stderr, "%s:%d: %s failed: %d\n", __FILE__, __LINE__, #call, e_);       \
            return -1;                                                                      \
        }                                                                                   \
    } while (0)

static size_t type_size(const char *t)
{
    if (!strcmp(t, "char") || !strcmp(t, "uchar"))
        return 1;
    if (!strcmp(t, "short") || !strcmp(t, "ushort"))
        return 2;
    if (!strcmp(t, "long") || !strcmp(t, "ulong") || !strcmp(t, "double"))
        return 8;
    return 4;
}

/* Deterministic contents: the same for the full run and every share. */
static void fill(struct arg *a, const char *type, const char *how, unsigned seed)
{
    int is_float = !strcmp(type, "float");
    size_t esize = type_size(type);
    size_t n = a->bytes / esize;
    uint32_t state = 12345u + seed * 7919u;
    for (size_t i = 0; i < n; i++) {
        unsigned char *p = a->init + i * esize;
        if (!strcmp(how, "zero")) {
            memset(p, 0, esize);
        } else if (!strcmp(how, "iota")) {
            if (is_float) {
                float f = (float)i;
                memcpy(p, &f, 4);
            } else {
                uint64_t v = i;
                memcpy(p, &v, esize);
            }
        } else {
            state = state * 1664525u + 1013904223u;
            if (is_float) {
                float f = (float)(state >> 8) / 16777216.0f;
                memcpy(p, &f, 4);
            } else if (!strcmp(type, "double")) {
                double d = (double)(state >> 8) / 16777216.0;
                memcpy(p, &d, 8);
            } else {
                uint64_t v = state >> 4;
                memcpy(p, &v, esize);
            }
        }
    }
}

static int parse_list(const char *s, size_t out[3], unsigned dims)
{
    for (unsigned d = 0; d < 3; d++)
        out[d] = d < dims ? 0 : 1;
    for (unsigned d = 0; d < dims; d++) {
        char *end;
        out[d] = strtoull(s, &end, 10);
        if (end == s)
            return -1;
        s = *end == ',' ? end + 1 : end;
    }
    return 0;
}

/* Reads the LAUNCH/ARG comment lines. ARG lines belong to the LAUNCH line above them; a
 * LAUNCH line with none reuses the previous one's. */
static int parse_corpus(const char *path, struct launch *ls, unsigned *nl)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "%s: %s\n", path, strerror(errno));
        return -1;
    }
    char line[512];
    *nl = 0;
    unsigned seed = 0;
    int rc = 0;
    while (fgets(line, sizeof line, f) && !rc) {
        if (!strncmp(line, "// LAUNCH ", 10)) {
            if (*nl == MAX_LAUNCHES)
                break;
            struct launch *l = &ls[(*nl)++];
            memset(l, 0, sizeof *l);
            char g[64] = "", lo[64] = "", off[64] = "0,0,0";
            if (sscanf(line, "// LAUNCH kernel=%127s dims=%u global=%63s local=%63s offset=%63s",
                       l->kernel, &l->dims, g, lo, off) < 4 ||
                l->dims < 1 || l->dims > 3 || parse_list(g, l->global, l->dims) ||
                parse_list(lo, l->local, l->dims) || parse_list(off, l->offset, l->dims)) {
                fprintf(stderr, "%s: bad LAUNCH line: %s", path, line);
                rc = -1;
            }
            for (unsigned d = 0; d < 3 && !rc; d++)
                l->offset[d] = d < l->dims ? l->offset[d] : 0;
        } else if (!strncmp(line, "// ARG ", 7) && *nl) {
            struct launch *l = &ls[*nl - 1];
            if (l->nargs == MAX_ARGS)
                continue;
            struct arg *a = &l->args[l->nargs++];
            char w1[32] = "", w2[32] = "", count[32] = "", w3[32] = "";
            int n = sscanf(line + 7, "%31s %31s %31s %31s", w1, w2, count, w3);
            if (!strcmp(w1, "buf") && n >= 3) {
                a->kind = ARG_BUF;
                snprintf(a->type, sizeof a->type, "%s", w2);
                a->bytes = strtoull(count, NULL, 10) * type_size(w2);
                a->init = calloc(1, a->bytes ? a->bytes : 1);
                if (!a->init)
                    rc = -1;
                else
                    fill(a, w2, w3[0] ? w3 : "zero", seed++);
            } else if (!strcmp(w1, "local")) {
                a->kind = ARG_LOCAL;
                a->bytes = strtoull(w2, NULL, 10);
            } else if (!strcmp(w1, "float")) {
                float v = strtof(w2, NULL);
                a->kind = ARG_SCALAR;
                a->bytes = 4;
                memcpy(a->value, &v, 4);
            } else if (!strcmp(w1, "int") || !strcmp(w1, "uint")) {
                int32_t v = (int32_t)strtol(w2, NULL, 0);
                a->kind = ARG_SCALAR;
                a->bytes = 4;
                memcpy(a->value, &v, 4);
            } else if (!strcmp(w1, "long") || !strcmp(w1, "ulong")) {
                int64_t v = strtoll(w2, NULL, 0);
                a->kind = ARG_SCALAR;
                a->bytes = 8;
                memcpy(a->value, &v, 8);
            } else {
                fprintf(stderr, "%s: unsupported ARG line: %s", path, line);
                rc = -1;
            }
        }
    }
    fclose(f);
    /* A LAUNCH without ARG lines takes the previous one's (copies of the buffers). */
    for (unsigned i = 1; i < *nl && !rc; i++) {
        if (ls[i].nargs)
            continue;
        ls[i].nargs = ls[i - 1].nargs;
        for (unsigned k = 0; k < ls[i].nargs; k++) {
            ls[i].args[k] = ls[i - 1].args[k];
            if (ls[i].args[k].kind == ARG_BUF) {
                ls[i].args[k].init = malloc(ls[i].args[k].bytes);
                if (!ls[i].args[k].init)
                    return -1;
                memcpy(ls[i].args[k].init, ls[i - 1].args[k].init, ls[i].args[k].bytes);
            }
        }
    }
    return rc;
}

static void free_launches(struct launch *ls, unsigned nl)
{
    for (unsigned i = 0; i < nl; i++)
        for (unsigned k = 0; k < ls[i].nargs; k++)
            if (ls[i].args[k].kind == ARG_BUF)
                free(ls[i].args[k].init);
}

/* One set of device buffers holding a launch's initial contents. */
static int make_buffers(const struct launch *l, cl_mem bufs[MAX_ARGS])
{
    memset(bufs, 0, MAX_ARGS * sizeof *bufs);
    for (unsigned k = 0; k < l->nargs; k++) {
        bufs[k] = NULL;
        if (l->args[k].kind != ARG_BUF)
            continue;
        cl_int e;
        bufs[k] = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, l->args[k].bytes,
                                 l->args[k].init, &e);
        CHECK(e);
    }
    return 0;
}

static void free_buffers(const struct launch *l, cl_mem bufs[MAX_ARGS])
{
    for (unsigned k = 0; k < l->nargs; k++)
        if (bufs[k])
            clReleaseMemObject(bufs[k]);
}

static int set_args(cl_kernel k, const struct launch *l, cl_mem bufs[MAX_ARGS])
{
    for (unsigned i = 0; i < l->nargs; i++) {
        const struct arg *a = &l->args[i];
        if (a->kind == ARG_BUF)
            CHECK(clSetKernelArg(k, i, sizeof(cl_mem), &bufs[i]));
        else if (a->kind == ARG_LOCAL)
            CHECK(clSetKernelArg(k, i, a->bytes, NULL));
        else
            CHECK(clSetKernelArg(k, i, a->bytes, a->value));
    }
    return 0;
}

static size_t num_groups(const struct launch *l, unsigned d)
{
    return l->global[d] / l->local[d];
}

/* Runs linear groups [first, first+count) of the partition-ready kernel. */
static int run_share(cl_kernel k, const struct launch *l, cl_mem bufs[MAX_ARGS],
                     uint64_t first, uint64_t count)
{
    if (set_args(k, l, bufs))
        return -1;
    cl_ulong hidden[8] = {first, num_groups(l, 0), num_groups(l, 1), num_groups(l, 2),
                          l->offset[0], l->offset[1], l->offset[2], l->dims};
    for (unsigned h = 0; h < 8; h++)
        CHECK(clSetKernelArg(k, l->nargs + h, sizeof(cl_ulong), &hidden[h]));
    size_t global[3] = {count * l->local[0], l->local[1], l->local[2]};
    CHECK(clEnqueueNDRangeKernel(queue, k, l->dims, NULL, global, l->local, 0, NULL, NULL));
    return 0;
}

static unsigned char *read_buffer(cl_mem b, size_t bytes)
{
    unsigned char *p = malloc(bytes ? bytes : 1);
    if (p && clEnqueueReadBuffer(queue, b, CL_TRUE, 0, bytes, p, 0, NULL, NULL) != CL_SUCCESS) {
        free(p);
        return NULL;
    }
    return p;
}

/* The element of type `type` at p, printed into buf (exact: %a for floats). */
static const char *element(const char *type, const unsigned char *p, char *buf, size_t size)
{
    size_t n = type_size(type);
    if (!strcmp(type, "float")) {
        float f;
        memcpy(&f, p, 4);
        snprintf(buf, size, "%.9g (%a)", f, f);
    } else if (!strcmp(type, "double")) {
        double d;
        memcpy(&d, p, 8);
        snprintf(buf, size, "%.17g (%a)", d, d);
    } else {
        uint64_t v = 0;
        memcpy(&v, p, n);
        snprintf(buf, size, "%llu (0x%llx)", (unsigned long long)v, (unsigned long long)v);
    }
    return buf;
}

/* 0 when every buffer of `got` equals `want` (the full run's contents); for a difference,
 * the first differing element with both values. */
static int compare(const struct launch *l, cl_mem got[MAX_ARGS], unsigned char **want,
                   const char *what)
{
    int bad = 0;
    for (unsigned k = 0; k < l->nargs; k++) {
        if (l->args[k].kind != ARG_BUF)
            continue;
        unsigned char *p = read_buffer(got[k], l->args[k].bytes);
        if (!p)
            return -1;
        for (size_t i = 0; i < l->args[k].bytes; i++)
            if (p[i] != want[k][i]) {
                size_t esize = type_size(l->args[k].type), e = i / esize;
                char w[64], g[64];
                fprintf(stderr, "  %s: %s: argument %u differs first at byte %zu: element %zu "
                        "(%s) is %s, the full launch gave %s\n", what, l->kernel, k, i, e,
                        l->args[k].type, element(l->args[k].type, p + e * esize, g, sizeof g),
                        element(l->args[k].type, want[k] + e * esize, w, sizeof w));
                bad = 1;
                break;
            }
        free(p);
    }
    return bad ? -1 : 0;
}

/* Share sizes: uneven, never whole rows on purpose. pattern 0: two shares; 1: up to five. */
static unsigned split(uint64_t total, int pattern, uint64_t sizes[5])
{
    static const unsigned weights[2][5] = {{3, 4, 0, 0, 0}, {3, 1, 4, 1, 5}};
    unsigned n = pattern ? 5 : 2, used = 0;
    unsigned wsum = 0;
    for (unsigned i = 0; i < n; i++)
        wsum += weights[pattern][i];
    uint64_t left = total;
    for (unsigned i = 0; i < n && left; i++) {
        uint64_t s = i == n - 1 ? left : total * weights[pattern][i] / wsum + 1;
        if (s > left)
            s = left;
        sizes[used++] = s;
        left -= s;
    }
    if (left)
        sizes[used - 1] += left;
    return used;
}

/* Whether the program holds any merge kernel (skmd-opt built with the merge pass). */
static int have_merge_pass(cl_program prog)
{
    char names[8192] = "";
    if (clGetProgramInfo(prog, CL_PROGRAM_KERNEL_NAMES, sizeof names, names, NULL) != CL_SUCCESS)
        return 1; /* cannot tell: be strict */
    return strstr(names, "__skmd_merge") != NULL;
}

/* Each share in its own copy of the buffers, combined like the runtime does. Returns 0 when
 * equal to the full run, 1 when it needs a merge kernel and skmd-opt built none, -1 on a
 * difference or error. */
static int run_separate(cl_program prog, const struct launch *l,
                        const struct skmd_kernel_record *rec, const uint64_t *sizes,
                        unsigned nshares, unsigned char **want)
{
    cl_int e;
    cl_kernel k = clCreateKernel(prog, l->kernel, &e);
    CHECK(e);
    char merge_name[160];
    snprintf(merge_name, sizeof merge_name, "%s__skmd_merge", l->kernel);
    cl_kernel mk = clCreateKernel(prog, merge_name, &e);
    if (e != CL_SUCCESS)
        mk = NULL;
    cl_mem result[MAX_ARGS], share[MAX_ARGS];
    int rc = make_buffers(l, result);
    int64_t scalars[MAX_ARGS] = {0};
    for (unsigned i = 0; i < l->nargs && i < rec->nparams; i++)
        if (l->args[i].kind == ARG_SCALAR)
            scalars[i] = skmd_scalar_value(&rec->params[i], l->args[i].value);
    struct skmd_launch sl = {.work_dim = l->dims};
    for (unsigned d = 0; d < 3; d++) {
        sl.global_offset[d] = l->offset[d];
        sl.global_size[d] = l->global[d];
        sl.local_size[d] = l->local[d];
    }
    uint64_t first = 0;
    int merge_missing = 0;
    for (unsigned s = 0; s < nshares && !rc; first += sizes[s], s++) {
        rc = make_buffers(l, share) || run_share(k, l, share, first, sizes[s]);
        cl_int fin = rc ? CL_SUCCESS : clFinish(queue);
        if (fin != CL_SUCCESS) {
            fprintf(stderr, "  separate: share %u: clFinish failed: %d\n", s, fin);
            rc = -1;
        }
        int need_merge = 0;
        for (unsigned p = 0; p < l->nargs && !rc; p++) {
            if (l->args[p].kind != ARG_BUF || p >= rec->nparams ||
                !(rec->params[p].access & SKMD_ACCESS_WRITE))
                continue;
            struct skmd_interval rd[64], wr[64];
            struct skmd_footprint fp = {.read = rd, .write = wr, .read_cap = 64,
                                        .write_cap = 64};
            if (skmd_footprint(rec, p, &sl, scalars, first, sizes[s], &fp) || !fp.write_exact) {
                need_merge = 1;
                continue;
            }
            for (size_t i = 0; i < fp.nwrite; i++) {
                uint64_t end = fp.write[i].end == SKMD_WHOLE_BUFFER ||
                                       fp.write[i].end > l->args[p].bytes
                                   ? l->args[p].bytes
                                   : fp.write[i].end;
                cl_int copied = end > fp.write[i].begin
                                    ? clEnqueueCopyBuffer(queue, share[p], result[p],
                                                          fp.write[i].begin, fp.write[i].begin,
                                                          end - fp.write[i].begin, 0, NULL, NULL)
                                    : CL_SUCCESS;
                if (copied != CL_SUCCESS) {
                    fprintf(stderr, "  separate: share %u: copy of argument %u failed: %d\n", s,
                            p, copied);
                    rc = -1;
                }
            }
        }
        if (!rc && need_merge) {
            if (!mk && !have_merge_pass(prog)) {
                merge_missing = 1;
            } else if (!mk) {
                fprintf(stderr, "  separate: %s needs a merge but has no merge kernel\n",
                        l->kernel);
                rc = -1;
            } else {
                /* dest = the canonical buffers, then one source per written buffer (set
                 * first: run_share enqueues). */
                unsigned extra = l->nargs + 8;
                for (unsigned p = 0; p < l->nargs && !rc; p++)
                    if (l->args[p].kind == ARG_BUF && p < rec->nparams &&
                        (rec->params[p].access & SKMD_ACCESS_WRITE))
                        if (clSetKernelArg(mk, extra++, sizeof(cl_mem), &share[p])) {
                            fprintf(stderr, "  separate: merge source %u not set\n", p);
                            rc = -1;
                        }
                if (!rc)
                    rc = run_share(mk, l, result, first, sizes[s]);
            }
        }
        clFinish(queue);
        free_buffers(l, share);
    }
    if (!rc && merge_missing)
        rc = 1; /* not compared */
    else if (!rc)
        rc = compare(l, result, want, "separate");
    free_buffers(l, result);
    clReleaseKernel(k);
    if (mk)
        clReleaseKernel(mk);
    return rc;
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *p = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (p && fread(p, 1, (size_t)n, f) != (size_t)n) {
        free(p);
        p = NULL;
    }
    if (p)
        p[n] = '\0';
    *len = n > 0 ? (size_t)n : 0;
    fclose(f);
    return p;
}

static cl_program build(const unsigned char *data, size_t len, int binary)
{
    cl_int e;
    cl_program p = binary ? clCreateProgramWithBinary(ctx, 1, &device, &len, &data, NULL, &e)
                          : clCreateProgramWithSource(ctx, 1, (const char **)&data, &len, &e);
    if (e != CL_SUCCESS)
        return NULL;
    if (clBuildProgram(p, 1, &device, "", NULL, NULL) != CL_SUCCESS) {
        char log[4096] = "";
        clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        fprintf(stderr, "  build failed: %s\n", log);
        clReleaseProgram(p);
        return NULL;
    }
    return p;
}

/* Writes the driver's binary of program p (NVIDIA: its PTX) to dump_dir/NAME.native. */
static void dump_binary(cl_program p, const char *path)
{
    size_t size = 0;
    if (clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL) != CL_SUCCESS ||
        !size)
        return;
    unsigned char *bin = malloc(size);
    if (!bin || clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL) != CL_SUCCESS) {
        free(bin);
        return;
    }
    const char *base = strrchr(path, '/');
    char out[4096];
    snprintf(out, sizeof out, "%s/%s.native", dump_dir, base ? base + 1 : path);
    FILE *f = fopen(out, "wb");
    if (f) {
        fwrite(bin, 1, size, f);
        fclose(f);
    }
    free(bin);
}

/* Returns the number of failed checks in this file (or 1 when it cannot be run at all). */
static int check_file(const char *path, const char *skmd_opt, const char *cache)
{
    struct launch ls[MAX_LAUNCHES];
    unsigned nl = 0;
    if (parse_corpus(path, ls, &nl)) {
        free_launches(ls, nl);
        return 1;
    }
    if (!nl) {
        free_launches(ls, nl);
        return 0; /* analysis-only file */
    }
    int failures = 0;
    char cmd[8192], dir[4096] = "", file[4200];
    snprintf(cmd, sizeof cmd, "'%s' --compile --cache '%s' --target %s %s '%s'", skmd_opt,
             cache, target, extra_args, path);
    FILE *p = popen(cmd, "r");
    if (!p || !fgets(dir, sizeof dir, p))
        dir[0] = '\0';
    if (p && pclose(p) != 0)
        dir[0] = '\0';
    dir[strcspn(dir, "\n")] = '\0';
    size_t src_len = 0, bc_len = 0;
    char *src = slurp(path, &src_len), *bc = NULL;
    int nvptx = !strcmp(target, "nvptx");
    if (dir[0]) {
        snprintf(file, sizeof file, "%s/kernels.%s", dir, nvptx ? "ptx" : "bc");
        bc = slurp(file, &bc_len);
    } else if (nvptx) {
        printf("SKIP %s: skmd-opt cannot lower it for NVPTX (reason above)\n", path);
        free(src);
        free_launches(ls, nl);
        return 0;
    }
    struct skmd_program_record rec;
    skmd_record_init(&rec);
    int have_record = 0;
    if (dir[0]) {
        snprintf(file, sizeof file, "%s/record.txt", dir);
        FILE *rf = fopen(file, "r");
        char err[256];
        if (rf) {
            have_record = skmd_record_read(rf, &rec, err, sizeof err) == 0;
            if (!have_record)
                fprintf(stderr, "  %s: %s\n", file, err);
            fclose(rf);
        }
    }
    cl_program orig = src ? build((unsigned char *)src, src_len, 0) : NULL;
    cl_program ready = bc ? build((unsigned char *)bc, bc_len, 1) : NULL;
    if (orig && dump_dir)
        dump_binary(orig, path);
    if (!orig || !ready) {
        fprintf(stderr, "FAIL %s: %s\n", path,
                !orig ? "the original does not build" : "skmd-opt's output does not build");
        failures++;
        goto out;
    }
    for (unsigned i = 0; i < nl; i++) {
        struct launch *l = &ls[i];
        const struct skmd_kernel_record *kr = have_record ? skmd_record_find(&rec, l->kernel) : NULL;
        if (kr && !kr->splittable) {
            printf("SKIP %s %s: not splittable (%s)\n", path, l->kernel, kr->reason);
            continue;
        }
        cl_int e;
        cl_kernel ko = clCreateKernel(orig, l->kernel, &e), kp = clCreateKernel(ready, l->kernel, &e);
        cl_mem full[MAX_ARGS] = {0}, seq[MAX_ARGS];
        unsigned char *want[MAX_ARGS] = {0};
        int rc = !ko || !kp ? -1 : make_buffers(l, full);
        if (!rc)
            rc = set_args(ko, l, full);
        if (!rc && clEnqueueNDRangeKernel(queue, ko, l->dims, l->offset, l->global, l->local, 0,
                                          NULL, NULL) != CL_SUCCESS)
            rc = -1;
        for (unsigned k = 0; k < l->nargs && !rc; k++)
            if (l->args[k].kind == ARG_BUF && !(want[k] = read_buffer(full[k], l->args[k].bytes)))
                rc = -1;
        uint64_t total = num_groups(l, 0) * num_groups(l, 1) * num_groups(l, 2);
        for (int pattern = 0; pattern < 2 && !rc; pattern++) {
            uint64_t sizes[5];
            unsigned n = split(total, pattern, sizes);
            int r = make_buffers(l, seq);
            uint64_t first = 0;
            for (unsigned s = 0; s < n && !r; first += sizes[s], s++)
                r = run_share(kp, l, seq, first, sizes[s]);
            if (!r)
                r = compare(l, seq, want, "sequential");
            free_buffers(l, seq);
            const char *how = kr ? "sequential+separate" : "sequential";
            if (!r && kr && (r = run_separate(ready, l, kr, sizes, n, want)) == 1) {
                how = "sequential; separate needs the merge pass, not built";
                r = 0;
            }
            printf("%s %s %s launch %u: %u shares (%s)\n", r ? "FAIL" : "PASS", path,
                   l->kernel, i + 1, n, how);
            if (r)
                failures++;
        }
        if (rc) {
            printf("FAIL %s %s launch %u: could not run\n", path, l->kernel, i + 1);
            failures++;
        }
        for (unsigned k = 0; k < l->nargs; k++)
            free(want[k]);
        free_buffers(l, full);
        if (ko)
            clReleaseKernel(ko);
        if (kp)
            clReleaseKernel(kp);
    }
out:
    if (orig)
        clReleaseProgram(orig);
    if (ready)
        clReleaseProgram(ready);
    skmd_record_free(&rec);
    free(src);
    free(bc);
    free_launches(ls, nl);
    return failures;
}

int main(int argc, char **argv)
{
    const char *skmd_opt = NULL, *cache = NULL, *platform_name = NULL;
    int first_file = argc;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--skmd-opt") && i + 1 < argc)
            skmd_opt = argv[++i];
        else if (!strcmp(argv[i], "--cache") && i + 1 < argc)
            cache = argv[++i];
        else if (!strcmp(argv[i], "--target") && i + 1 < argc)
            target = argv[++i];
        else if (!strcmp(argv[i], "--platform") && i + 1 < argc)
            platform_name = argv[++i];
        else if (!strcmp(argv[i], "--skmd-opt-args") && i + 1 < argc)
            extra_args = argv[++i];
        else if (!strcmp(argv[i], "--dump-native") && i + 1 < argc)
            dump_dir = argv[++i];
        else {
            first_file = i;
            break;
        }
    }
    if (!skmd_opt || !cache || first_file == argc) {
        fprintf(stderr, "usage: subrange --skmd-opt PATH --cache DIR [--target pocl|nvptx] "
                        "[--platform SUBSTR] [--skmd-opt-args ARGS] [--dump-native DIR] "
                        "FILE.cl...\n");
        return 2;
    }
    /* The first platform, or the first whose name contains SUBSTR. */
    cl_platform_id platforms[16], platform = NULL;
    cl_uint np = 0;
    cl_int e = clGetPlatformIDs(16, platforms, &np);
    for (cl_uint i = 0; e == CL_SUCCESS && i < np && !platform; i++) {
        char name[256] = "";
        clGetPlatformInfo(platforms[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
        if (!platform_name || strstr(name, platform_name))
            platform = platforms[i];
    }
    if (e == CL_SUCCESS && !platform)
        e = CL_INVALID_PLATFORM;
    if (e == CL_SUCCESS)
        e = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL);
    if (e == CL_SUCCESS)
        ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &e);
    if (e == CL_SUCCESS)
        queue = clCreateCommandQueue(ctx, device, 0, &e);
    if (e != CL_SUCCESS) {
        fprintf(stderr, "subrange: no OpenCL device (%d)\n", e);
        return 1;
    }
    int failures = 0;
    for (int i = first_file; i < argc; i++)
        failures += check_file(argv[i], skmd_opt, cache);
    clReleaseCommandQueue(queue);
    clReleaseContext(ctx);
    printf("%s: %d failure(s)\n", failures ? "FAILED" : "PASSED", failures);
    return failures ? 1 : 0;
}
