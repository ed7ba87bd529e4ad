/* bench/transfer/transfer-bench.c: host<->device bytes/s per device, libskmd's transfer
 * engine (libskmd/xfer/transfer.c, linked in) against a plain blocking clEnqueueWriteBuffer /
 * clEnqueueReadBuffer from ordinary malloc memory, and against the same call from pinned
 * memory (a mapped CL_MEM_ALLOC_HOST_PTR buffer: what a pinned host copy would give, with
 * what creating and mapping it cost, "pin-alloc").
 * Then every device with memory of its own at once (one host thread per device for the
 * plain calls, skmd_xfer_run_many for the engine): a CPU device's transfers are memcpys
 * that would set the pace of the whole row. Every engine transfer is checked byte for byte.
 *
 * Usage: transfer-bench [--min-mib N] [--max-mib N] [--reps N] [--device P:D]...
 *                       [--csv FILE]   (the same rows, comma-separated, with a header)
 * The engine's controls (SKMD_TRANSFER_CHUNK_KIB, _THREADS, _STAGING) apply. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "device/api.h"
#include "support/config.h"
#include "xfer/transfer.h"

struct skmd_real_table skmd_real;
_Thread_local int skmd_in_real_call;

#define MAX_DEV 16

struct dev {
    char label[8];          /* "P:D" */
    char name[96];
    cl_device_id id;
    cl_context ctx;
    cl_command_queue q;
    size_t max_alloc;
    cl_mem buf;             /* the device buffer of the current size */
    unsigned char *host;    /* ordinary memory */
    cl_mem pinned_buf;      /* pinned memory, mapped */
    unsigned char *pinned;
    double pin_ms;          /* creating and mapping the pinned buffer */
    int own_memory;         /* not CL_DEVICE_HOST_UNIFIED_MEMORY: in the "all" row */
};

static struct dev devs[MAX_DEV];
static int ndev;
static int reps = 3;
static FILE *csv;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void die(const char *what, cl_int err)
{
    fprintf(stderr, "transfer-bench: %s failed (%d)\n", what, err);
    exit(1);
}

static void load_real(void)
{
    void *h = dlopen("libOpenCL.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        fprintf(stderr, "transfer-bench: cannot open libOpenCL.so.1: %s\n", dlerror());
        exit(2);
    }
#define SKMD_API(ret, name, params, args, err, ver) \
    *(void **)&skmd_real.name = dlsym(h, #name);
#include "device/api.def"
#undef SKMD_API
}

static int wanted(const char *label, char **only, int nonly)
{
    for (int i = 0; i < nonly; i++)
        if (strcmp(only[i], label) == 0)
            return 1;
    return nonly == 0;
}

static void open_devices(char **only, int nonly)
{
    cl_platform_id plats[8];
    cl_uint np = 0;
    if (real_clGetPlatformIDs(8, plats, &np) != CL_SUCCESS || np == 0)
        die("clGetPlatformIDs", -1);
    for (cl_uint p = 0; p < np && p < 8; p++) {
        cl_device_id ids[MAX_DEV];
        cl_uint nd = 0;
        if (real_clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, MAX_DEV, ids, &nd) != CL_SUCCESS)
            continue;
        for (cl_uint d = 0; d < nd && d < MAX_DEV && ndev < MAX_DEV; d++) {
            struct dev *v = &devs[ndev];
            snprintf(v->label, sizeof v->label, "%u:%u", p, d);
            if (!wanted(v->label, only, nonly))
                continue;
            cl_int err;
            v->id = ids[d];
            real_clGetDeviceInfo(ids[d], CL_DEVICE_NAME, sizeof v->name, v->name, NULL);
            real_clGetDeviceInfo(ids[d], CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof v->max_alloc,
                                 &v->max_alloc, NULL);
            cl_bool unified = CL_FALSE;
            real_clGetDeviceInfo(ids[d], CL_DEVICE_HOST_UNIFIED_MEMORY, sizeof unified,
                                 &unified, NULL);
            v->own_memory = !unified;
            v->ctx = real_clCreateContext(NULL, 1, &ids[d], NULL, NULL, &err);
            if (!v->ctx)
                die("clCreateContext", err);
            v->q = real_clCreateCommandQueue(v->ctx, ids[d], 0, &err);
            if (!v->q)
                die("clCreateCommandQueue", err);
            ndev++;
        }
    }
    if (ndev == 0) {
        fprintf(stderr, "transfer-bench: no device\n");
        exit(2);
    }
}

/* Buffers of `size` bytes for device v: device, ordinary host, pinned host. */
static int setup(struct dev *v, size_t size)
{
    if (size > v->max_alloc)
        return -1;
    cl_int err;
    v->buf = real_clCreateBuffer(v->ctx, CL_MEM_READ_WRITE, size, NULL, &err);
    v->host = malloc(size);
    double t0 = now();
    v->pinned_buf = real_clCreateBuffer(v->ctx, CL_MEM_ALLOC_HOST_PTR, size, NULL, &err);
    if (!v->buf || !v->pinned_buf || !v->host)
        return -1;
    v->pinned = real_clEnqueueMapBuffer(v->q, v->pinned_buf, CL_TRUE,
                                        CL_MAP_READ | CL_MAP_WRITE, 0, size, 0, NULL, NULL, &err);
    if (!v->pinned)
        return -1;
    v->pinned[0] = 0;
    v->pinned[size - 1] = 0;
    v->pin_ms = (now() - t0) * 1e3;
    for (size_t i = 0; i < size; i += 4096) { /* touch every page, with varied bytes */
        v->host[i] = (unsigned char)(i >> 12);
        v->pinned[i] = 1;
    }
    memset(v->host, 0x5C, size < 4096 ? size : 4096);
    return 0;
}

static void teardown(struct dev *v)
{
    if (v->pinned) {
        real_clEnqueueUnmapMemObject(v->q, v->pinned_buf, v->pinned, 0, NULL, NULL);
        real_clFinish(v->q);
    }
    if (v->pinned_buf)
        real_clReleaseMemObject(v->pinned_buf);
    if (v->buf)
        real_clReleaseMemObject(v->buf);
    free(v->host);
    v->buf = v->pinned_buf = NULL;
    v->host = v->pinned = NULL;
}

enum way { PLAIN, ENGINE, PINNED };

static cl_int once(struct dev *v, int member, enum way way, int to_device, size_t size)
{
    if (way == ENGINE) {
        struct skmd_xfer_req r = {member, v->ctx, v->q, v->buf, to_device, 0, size, v->host,
                                  0, 0};
        return skmd_xfer_run(&r, NULL);
    }
    void *host = way == PLAIN ? v->host : v->pinned;
    if (to_device)
        return real_clEnqueueWriteBuffer(v->q, v->buf, CL_TRUE, 0, size, host, 0, NULL, NULL);
    return real_clEnqueueReadBuffer(v->q, v->buf, CL_TRUE, 0, size, host, 0, NULL, NULL);
}

/* Best bytes/s (GB/s) over the repetitions. */
static double rate(struct dev *v, int member, enum way way, int to_device, size_t size)
{
    double best = 1e30;
    for (int r = 0; r < reps; r++) {
        double t0 = now();
        cl_int err = once(v, member, way, to_device, size);
        double t = now() - t0;
        if (err != CL_SUCCESS)
            die("transfer", err);
        if (t < best)
            best = t;
    }
    return (double)size / best / 1e9;
}

/* The engine moved the right bytes: write a pattern, read it back plainly; then read
 * through the engine into cleared memory. */
static int check(struct dev *v, int member, size_t size)
{
    for (size_t i = 0; i < size; i += 512)
        v->host[i] = (unsigned char)(i * 7 + 3);
    if (once(v, member, ENGINE, 1, size) != CL_SUCCESS ||
        real_clEnqueueReadBuffer(v->q, v->buf, CL_TRUE, 0, size, v->pinned, 0, NULL, NULL) !=
            CL_SUCCESS ||
        memcmp(v->pinned, v->host, size) != 0)
        return -1;
    memset(v->host, 0, size);
    if (once(v, member, ENGINE, 0, size) != CL_SUCCESS || memcmp(v->pinned, v->host, size) != 0)
        return -1;
    return 0;
}

/* Every device at once: plain calls from one thread per device, or run_many. */
struct plain_job {
    struct dev *v;
    int to_device;
    size_t size;
};

static void *plain_thread(void *arg)
{
    struct plain_job *j = arg;
    if (once(j->v, 0, PLAIN, j->to_device, j->size) != CL_SUCCESS)
        die("transfer", -1);
    return NULL;
}

/* The "all" row's devices: those with memory of their own; every device when fewer
 * than two have. */
static int all_row(struct dev **row)
{
    int n = 0;
    for (int d = 0; d < ndev; d++)
        if (devs[d].own_memory)
            row[n++] = &devs[d];
    if (n >= 2)
        return n;
    for (int d = 0; d < ndev; d++)
        row[d] = &devs[d];
    return ndev;
}

static double rate_all(int engine, int to_device, size_t size, struct dev **row, int n)
{
    double best = 1e30;
    for (int r = 0; r < reps; r++) {
        double t0 = now();
        if (engine) {
            struct skmd_xfer_req reqs[MAX_DEV];
            for (int i = 0; i < n; i++)
                reqs[i] = (struct skmd_xfer_req){(int)(row[i] - devs), row[i]->ctx, row[i]->q,
                                                 row[i]->buf, to_device, 0, size,
                                                 row[i]->host, 0, 0};
            if (skmd_xfer_run_many(reqs, n, NULL) != CL_SUCCESS)
                die("skmd_xfer_run_many", -1);
        } else {
            pthread_t th[MAX_DEV];
            struct plain_job jobs[MAX_DEV];
            for (int i = 0; i < n; i++) {
                jobs[i] = (struct plain_job){row[i], to_device, size};
                pthread_create(&th[i], NULL, plain_thread, &jobs[i]);
            }
            for (int i = 0; i < n; i++)
                pthread_join(th[i], NULL);
        }
        double t = now() - t0;
        if (t < best)
            best = t;
    }
    return (double)size * n / best / 1e9;
}

static void usage(void)
{
    fprintf(stderr, "usage: transfer-bench [--min-mib N] [--max-mib N] [--reps N] "
                    "[--device P:D]... [--csv FILE]\n");
    exit(2);
}

int main(int argc, char **argv)
{
    size_t min_mib = 1, max_mib = 1024;
    char *only[MAX_DEV];
    int nonly = 0;
    for (int i = 1; i < argc; i++) {
        if (i + 1 >= argc)
            usage();
        char *end;
        long val = strtol(argv[i + 1], &end, 10);
        if (strcmp(argv[i], "--device") == 0 && nonly < MAX_DEV) {
            only[nonly++] = argv[++i];
        } else if (strcmp(argv[i], "--csv") == 0) {
            if (!(csv = fopen(argv[++i], "w"))) {
                perror(argv[i]);
                return 2;
            }
            fprintf(csv, "device,name,dir,mib,plain_gbps,engine_gbps,pinned_gbps,"
                         "pin_alloc_ms,check\n");
        }
        else if (*end || val < 1)
            usage();
        else if (strcmp(argv[i], "--min-mib") == 0)
            min_mib = (size_t)val, i++;
        else if (strcmp(argv[i], "--max-mib") == 0)
            max_mib = (size_t)val, i++;
        else if (strcmp(argv[i], "--reps") == 0)
            reps = (int)val, i++;
        else
            usage();
    }
    if (max_mib > ((size_t)1 << 20)) /* 1 TiB: beyond any device, and size_t stays exact */
        usage();
    load_real();
    open_devices(only, nonly);
    const struct skmd_config *cfg = skmd_config();
    printf("# transfer engine: chunk %d KiB, %d staging buffers, %d copy threads, direct "
           "below %d KiB; best of %d\n",
           cfg->transfer_chunk_kib, cfg->transfer_staging, cfg->transfer_threads,
           cfg->transfer_direct_kib, reps);
    for (int d = 0; d < ndev; d++)
        printf("# %s %s\n", devs[d].label, devs[d].name);
    struct dev *row[MAX_DEV];
    int nrow = all_row(row);
    printf("# all: %d devices at once:", nrow);
    for (int i = 0; i < nrow; i++)
        printf(" %s", row[i]->label);
    printf("\n");
    printf("%-6s %-4s %9s %12s %12s %12s %8s %10s %6s\n", "device", "dir", "MiB",
           "plain GB/s", "engine GB/s", "pinned GB/s", "eng/pl", "pin-alloc", "check");
    int bad = 0;
    for (size_t mib = min_mib; mib <= max_mib; mib *= 4) {
        size_t size = mib << 20;
        int ready = 0;
        for (int d = 0; d < ndev; d++) {
            struct dev *v = &devs[d];
            if (setup(v, size) != 0) {
                printf("%-6s %-4s %9zu  (no buffer of this size)\n", v->label, "-", mib);
                teardown(v);
                continue;
            }
            ready++;
            int ok = check(v, d, size) == 0;
            bad += !ok;
            for (int to = 1; to >= 0; to--) {
                double plain = rate(v, d, PLAIN, to, size);
                double eng = rate(v, d, ENGINE, to, size);
                double pin = rate(v, d, PINNED, to, size);
                printf("%-6s %-4s %9zu %12.2f %12.2f %12.2f %7.2fx %8.2fms %6s\n", v->label,
                       to ? "h2d" : "d2h", mib, plain, eng, pin, eng / plain, v->pin_ms,
                       ok ? "ok" : "FAILED");
                if (csv)
                    fprintf(csv, "%s,\"%s\",%s,%zu,%.3f,%.3f,%.3f,%.3f,%s\n", v->label,
                            v->name, to ? "h2d" : "d2h", mib, plain, eng, pin, v->pin_ms,
                            ok ? "ok" : "FAILED");
            }
        }
        if (ready == ndev && nrow > 1)
            for (int to = 1; to >= 0; to--) {
                double plain = rate_all(0, to, size, row, nrow);
                double eng = rate_all(1, to, size, row, nrow);
                printf("%-6s %-4s %9zu %12.2f %12.2f %12s %7.2fx %10s %6s\n", "all",
                       to ? "h2d" : "d2h", mib, plain, eng, "-", eng / plain, "-", "-");
                if (csv)
                    fprintf(csv, "all,\"%d devices\",%s,%zu,%.3f,%.3f,,,\n", nrow,
                            to ? "h2d" : "d2h", mib, plain, eng);
            }
        for (int d = 0; d < ndev; d++)
            teardown(&devs[d]);
        fflush(stdout);
    }
    skmd_xfer_shutdown();
    for (int d = 0; d < ndev; d++) {
        real_clReleaseCommandQueue(devs[d].q);
        real_clReleaseContext(devs[d].ctx);
    }
    if (csv)
        fclose(csv);
    if (bad)
        fprintf(stderr, "transfer-bench: %d engine checks FAILED\n", bad);
    return bad ? 1 : 0;
}
