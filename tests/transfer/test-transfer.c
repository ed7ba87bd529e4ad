/* tests/transfer/test-transfer.c: the transfer engine (libskmd/xfer/transfer.c) on the local
 * PoCL devices, linked directly (its real-driver table is filled here from the system
 * loader): odd sizes and offsets, sizes on and around chunk boundaries, direct and staged
 * paths, several members at once (and what the observers hear of them), bad requests, and
 * that a CPU device really works in place on a CL_MEM_USE_HOST_PTR buffer (what zero-copy
 * relies on). Every byte is checked against a host mirror of each device buffer, read back
 * with a plain blocking read.
 *
 * Usage: test-transfer  (the controls SKMD_TRANSFER_* choose chunk size, threads, ...) */
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device/api.h"
#include "support/config.h"
#include "xfer/transfer.h"

#include "../common/check.h"

struct skmd_real_table skmd_real;
_Thread_local int skmd_in_real_call;

#define MAX_DEV 4

static void load_real(void)
{
    void *h = dlopen("libOpenCL.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        fprintf(stderr, "test-transfer: cannot open libOpenCL.so.1: %s\n", dlerror());
        exit(2);
    }
#define SKMD_API(ret, name, params, args, err, ver) \
    *(void **)&skmd_real.name = dlsym(h, #name);
#include "device/api.def"
#undef SKMD_API
}

struct dev {
    cl_device_id id;
    cl_command_queue q;
    cl_mem buf;
    unsigned char *mirror; /* what buf must hold */
};

static cl_context ctx;
static struct dev devs[MAX_DEV];
static int ndev;
static size_t bufsize;

static void fill(unsigned char *p, size_t n, unsigned seed)
{
    uint32_t x = seed * 2654435761u + 1;
    for (size_t i = 0; i < n; i++) {
        x = x * 1664525u + 1013904223u;
        p[i] = (unsigned char)(x >> 24);
    }
}

/* The device buffer, read by a plain blocking read, equals the mirror. */
static void check_device(int d, const char *what)
{
    unsigned char *got = malloc(bufsize);
    cl_int err = real_clEnqueueReadBuffer(devs[d].q, devs[d].buf, CL_TRUE, 0, bufsize, got, 0,
                                          NULL, NULL);
    EXPECT(err == CL_SUCCESS, "%s: read-back failed (%d)", what, err);
    size_t i = 0;
    while (i < bufsize && got[i] == devs[d].mirror[i])
        i++;
    EXPECT(i == bufsize, "%s: device %d differs first at byte %zu of %zu", what, d, i, bufsize);
    free(got);
}

static struct skmd_xfer_req req(int d, int to_device, size_t off, size_t size, void *host)
{
    return (struct skmd_xfer_req){d, ctx, devs[d].q, devs[d].buf, to_device, off, size, host,
                                  0, 0};
}

/* Writes [off, off+size) of device d through the engine, then checks the whole buffer;
 * reads it back through the engine into a fresh host buffer with guard bytes. */
static void roundtrip(int d, size_t off, size_t size, unsigned seed)
{
    char what[96];
    snprintf(what, sizeof what, "dev %d off %zu size %zu", d, off, size);
    unsigned char *src = malloc(size + 1);
    fill(src, size, seed);
    struct skmd_xfer_req w = req(d, 1, off, size, src);
    cl_int err = skmd_xfer_run(&w, NULL);
    EXPECT(err == CL_SUCCESS, "%s: write failed (%d)", what, err);
    memcpy(devs[d].mirror + off, src, size);
    check_device(d, what);

    /* Into a host range at an odd address too: large copies stream 16-byte stores. */
    size_t at = 32 + seed % 13;
    unsigned char *dst = malloc(size + 64 + 13);
    memset(dst, 0xA5, size + 64 + 13);
    struct skmd_xfer_req r = req(d, 0, off, size, dst + at);
    err = skmd_xfer_run(&r, NULL);
    EXPECT(err == CL_SUCCESS, "%s: read failed (%d)", what, err);
    EXPECT(memcmp(dst + at, devs[d].mirror + off, size) == 0, "%s: read bytes differ", what);
    int guards = 1;
    for (size_t i = 0; i < at; i++)
        guards &= dst[i] == 0xA5;
    for (size_t i = at + size; i < size + 64 + 13; i++)
        guards &= dst[i] == 0xA5;
    EXPECT(guards, "%s: read wrote outside its host range", what);
    free(src);
    free(dst);
}

/* Every member written and read at once, two requests each, disjoint ranges. */
static void all_at_once(size_t chunk)
{
    struct skmd_xfer_req reqs[2 * MAX_DEV];
    unsigned char *host[2 * MAX_DEV];
    size_t half = bufsize / 2 - 3;
    for (int d = 0; d < ndev; d++)
        for (int k = 0; k < 2; k++) {
            size_t off = k ? half + 5 : 1;
            size_t size = k ? bufsize - off : half - 1;
            host[2 * d + k] = malloc(size);
            fill(host[2 * d + k], size, 100u + (unsigned)(2 * d + k));
            reqs[2 * d + k] = req(d, 1, off, size, host[2 * d + k]);
        }
    struct skmd_xfer_stats st = {0, 0, 0};
    cl_int err = skmd_xfer_run_many(reqs, 2 * ndev, &st);
    EXPECT(err == CL_SUCCESS, "run_many write failed (%d)", err);
    uint64_t total = 0;
    for (int i = 0; i < 2 * ndev; i++) {
        memcpy(devs[reqs[i].member].mirror + reqs[i].offset, host[i], reqs[i].size);
        total += reqs[i].size;
    }
    EXPECT(st.direct_bytes + st.staged_bytes == total, "run_many counted %llu of %llu bytes",
           (unsigned long long)(st.direct_bytes + st.staged_bytes), (unsigned long long)total);
    EXPECT(st.staged_bytes == 0 || st.chunks >= st.staged_bytes / chunk,
           "run_many: %llu chunks for %llu staged bytes", (unsigned long long)st.chunks,
           (unsigned long long)st.staged_bytes);
    for (int d = 0; d < ndev; d++)
        check_device(d, "run_many write");
    /* And back, all at once. */
    for (int i = 0; i < 2 * ndev; i++) {
        memset(host[i], 0, reqs[i].size);
        reqs[i].to_device = 0;
    }
    err = skmd_xfer_run_many(reqs, 2 * ndev, NULL);
    EXPECT(err == CL_SUCCESS, "run_many read failed (%d)", err);
    for (int i = 0; i < 2 * ndev; i++) {
        EXPECT(memcmp(host[i], devs[reqs[i].member].mirror + reqs[i].offset, reqs[i].size) == 0,
               "run_many read %d differs", i);
        free(host[i]);
    }
}

/* What the observers heard. */
static pthread_mutex_t heard_lock = PTHREAD_MUTEX_INITIALIZER;
static int link_heard, windows_heard, window_members;
static uint64_t window_bytes;

static void on_link(int member, int to_device, int pinned, uint64_t bytes, double ms)
{
    (void)member, (void)to_device, (void)pinned, (void)bytes, (void)ms;
    pthread_mutex_lock(&heard_lock);
    link_heard++;
    pthread_mutex_unlock(&heard_lock);
}

static void on_window(uint64_t bytes, double ms, int members)
{
    (void)ms;
    pthread_mutex_lock(&heard_lock);
    windows_heard++;
    window_bytes = bytes;
    window_members = members;
    pthread_mutex_unlock(&heard_lock);
}

/* A transfer alone is its link's: the link observer hears it, no window closes. Two
 * members' transfers at once: a window closes with both members and at most their bytes,
 * and the link observer does not hear those that ran beside the other's. */
static void observers(void)
{
    if (ndev < 2)
        return;
    skmd_xfer_set_observer(on_link);
    skmd_xfer_set_window_observer(on_window);
    unsigned char *host[2];
    for (int d = 0; d < 2; d++) {
        host[d] = malloc(bufsize);
        memcpy(host[d], devs[d].mirror, bufsize);
    }
    struct skmd_xfer_req reqs[2] = {req(0, 1, 0, bufsize, host[0]),
                                    req(1, 1, 0, bufsize, host[1])};
    EXPECT(skmd_xfer_run(&reqs[0], NULL) == CL_SUCCESS, "lone transfer failed");
    EXPECT(link_heard == 1 && windows_heard == 0,
           "a lone transfer: link observer heard %d, window observer %d", link_heard,
           windows_heard);
    int tries = 0;
    while (windows_heard == 0 && tries++ < 50) {
        link_heard = 0;
        EXPECT(skmd_xfer_run_many(reqs, 2, NULL) == CL_SUCCESS, "run_many failed");
    }
    EXPECT(windows_heard == 1 && window_members == 2 && window_bytes > 0 &&
           window_bytes <= 2 * bufsize && link_heard < 2,
           "two members at once (%d tries): %d windows, %d members, %llu bytes, link "
           "observer heard %d of 2", tries, windows_heard, window_members,
           (unsigned long long)window_bytes, link_heard);
    skmd_xfer_set_observer(NULL);
    skmd_xfer_set_window_observer(NULL);
    for (int d = 0; d < 2; d++)
        free(host[d]);
}

/* One share's many input ranges in one skmd_xfer_run_many: per member 70 small direct
 * ranges (more than the engine keeps in flight at once, so some land midway), with a
 * staged one among them, written then read back; every byte and the counts checked. */
static void many_ranges(size_t chunk)
{
    enum { PER = 71 };
    struct skmd_xfer_req reqs[MAX_DEV * PER];
    unsigned char *host[MAX_DEV * PER];
    int n = 0;
    uint64_t total = 0;
    size_t step = (bufsize - 2 * chunk - 8192) / (PER - 1);
    for (int d = 0; d < ndev; d++)
        for (int i = 0; i < PER; i++) {
            /* Range i at i*step (the last one staged: two chunks), 1000 bytes or so. */
            size_t off = (size_t)i * step + (size_t)d;
            size_t size = i == PER - 1 ? 2 * chunk : 1000 + (size_t)i;
            host[n] = malloc(size);
            fill(host[n], size, 1000u + (unsigned)n);
            reqs[n] = req(d, 1, off, size, host[n]);
            total += size;
            n++;
        }
    struct skmd_xfer_stats st = {0, 0, 0};
    cl_int err = skmd_xfer_run_many(reqs, n, &st);
    EXPECT(err == CL_SUCCESS, "many ranges: write failed (%d)", err);
    EXPECT(st.direct_bytes + st.staged_bytes == total && st.staged_bytes > 0,
           "many ranges: counted %llu direct + %llu staged of %llu",
           (unsigned long long)st.direct_bytes, (unsigned long long)st.staged_bytes,
           (unsigned long long)total);
    for (int i = 0; i < n; i++)
        memcpy(devs[reqs[i].member].mirror + reqs[i].offset, host[i], reqs[i].size);
    for (int d = 0; d < ndev; d++)
        check_device(d, "many ranges write");
    for (int i = 0; i < n; i++) {
        memset(host[i], 0, reqs[i].size);
        reqs[i].to_device = 0;
    }
    err = skmd_xfer_run_many(reqs, n, NULL);
    EXPECT(err == CL_SUCCESS, "many ranges: read failed (%d)", err);
    for (int i = 0; i < n; i++) {
        EXPECT(memcmp(host[i], devs[reqs[i].member].mirror + reqs[i].offset, reqs[i].size) == 0,
               "many ranges: read %d differs", i);
        free(host[i]);
    }
}

/* Several threads on the SAME member at once (each its own queue and buffer): they share
 * the member's staging buffers, one transfer at a time, and none sees another's bytes. */
struct same_member {
    cl_command_queue q;
    cl_mem buf;
    unsigned seed;
    int ok;
};

static void *same_member_thread(void *arg)
{
    struct same_member *t = arg;
    unsigned char *src = malloc(bufsize), *back = malloc(bufsize);
    t->ok = 1;
    for (int round = 0; round < 3; round++) {
        fill(src, bufsize, t->seed + (unsigned)round);
        struct skmd_xfer_req r = {0, ctx, t->q, t->buf, 1, 0, bufsize, src, 0, 0};
        t->ok &= skmd_xfer_run(&r, NULL) == CL_SUCCESS;
        memset(back, 0, bufsize);
        r.to_device = 0;
        r.host = back;
        t->ok &= skmd_xfer_run(&r, NULL) == CL_SUCCESS;
        t->ok &= memcmp(src, back, bufsize) == 0;
    }
    free(src);
    free(back);
    return NULL;
}

static void same_member_threads(void)
{
    enum { N = 3 };
    struct same_member t[N];
    pthread_t th[N];
    cl_int err;
    for (int i = 0; i < N; i++) {
        t[i].q = real_clCreateCommandQueue(ctx, devs[0].id, 0, &err);
        t[i].buf = real_clCreateBuffer(ctx, CL_MEM_READ_WRITE, bufsize, NULL, &err);
        t[i].seed = 500u + 10u * (unsigned)i;
        if (pthread_create(&th[i], NULL, same_member_thread, &t[i]) != 0)
            abort();
    }
    for (int i = 0; i < N; i++) {
        pthread_join(th[i], NULL);
        EXPECT(t[i].ok, "thread %d on member 0: bytes differ or a transfer failed", i);
        real_clReleaseMemObject(t[i].buf);
        real_clReleaseCommandQueue(t[i].q);
    }
}

/* Host bytes in pinned memory of the request's context go directly, whatever their size;
 * the same bytes with another context's request are staged as usual. */
static void pinned_host(size_t direct)
{
    size_t size = bufsize - 1;
    cl_int err;
    unsigned char *pin = skmd_xfer_host_alloc(ctx, devs[0].id, bufsize, &err);
    EXPECT(pin != NULL, "pinned host memory refused (%d)", err);
    if (!pin)
        return;
    fill(pin, bufsize, 77);
    struct skmd_xfer_stats st = {0, 0, 0};
    struct skmd_xfer_req r = req(0, 1, 1, size, pin + 1);
    err = skmd_xfer_run(&r, &st);
    memcpy(devs[0].mirror + 1, pin + 1, size);
    EXPECT(err == CL_SUCCESS && st.direct_bytes == size && st.staged_bytes == 0,
           "pinned host bytes: direct %llu staged %llu (%d)",
           (unsigned long long)st.direct_bytes, (unsigned long long)st.staged_bytes, err);
    check_device(0, "write from pinned host memory");
    memset(pin, 0, bufsize);
    r.to_device = 0;
    err = skmd_xfer_run(&r, NULL);
    EXPECT(err == CL_SUCCESS && memcmp(pin + 1, devs[0].mirror + 1, size) == 0,
           "read into pinned host memory differs (%d)", err);
    if (size > direct && size >= (128u << 10)) {
        /* Another context's buffer: that memory is not pinned for it, so it is staged. */
        cl_context ctx2 = real_clCreateContext(NULL, 1, &devs[0].id, NULL, NULL, &err);
        cl_command_queue q2 = real_clCreateCommandQueue(ctx2, devs[0].id, 0, &err);
        cl_mem b2 = real_clCreateBuffer(ctx2, CL_MEM_READ_WRITE, bufsize, NULL, &err);
        st = (struct skmd_xfer_stats){0, 0, 0};
        struct skmd_xfer_req r2 = {1, ctx2, q2, b2, 1, 0, size, pin + 1, 0, 0};
        err = skmd_xfer_run(&r2, &st);
        EXPECT(err == CL_SUCCESS && st.staged_bytes == size,
               "other context: staged %llu of %zu (%d)", (unsigned long long)st.staged_bytes,
               size, err);
        unsigned char *back = malloc(size);
        real_clEnqueueReadBuffer(q2, b2, CL_TRUE, 0, size, back, 0, NULL, NULL);
        EXPECT(memcmp(back, pin + 1, size) == 0, "other context: bytes differ");
        free(back);
        real_clReleaseMemObject(b2);
        real_clReleaseCommandQueue(q2);
        real_clReleaseContext(ctx2);
    }
    EXPECT(skmd_xfer_host_free(pin) == 0, "pinned host memory not freed");
    EXPECT(skmd_xfer_host_free(pin) == -1, "pinned host memory freed twice");
    unsigned char plain[8];
    EXPECT(skmd_xfer_host_free(plain) == -1, "ordinary memory taken for pinned");
}

/* Bad requests get an error, never a crash. */
static void bad_requests(void)
{
    unsigned char b[16];
    EXPECT(skmd_xfer_run(NULL, NULL) == CL_INVALID_VALUE, "NULL request accepted");
    struct skmd_xfer_req r = req(0, 1, 0, 16, NULL);
    EXPECT(skmd_xfer_run(&r, NULL) == CL_INVALID_VALUE, "NULL host pointer accepted");
    r = req(0, 1, 0, 16, b);
    r.member = -1;
    EXPECT(skmd_xfer_run(&r, NULL) == CL_INVALID_VALUE, "member -1 accepted");
    EXPECT(skmd_xfer_run_many(&r, 1, NULL) == CL_INVALID_VALUE, "run_many: member -1 accepted");
    EXPECT(skmd_xfer_run_many(NULL, 2, NULL) == CL_INVALID_VALUE, "run_many: NULL list accepted");
    size_t big = bufsize;
    unsigned char *host = calloc(1, big);
    r = req(0, 1, bufsize / 2, big, host); /* runs past the buffer's end */
    EXPECT(skmd_xfer_run(&r, NULL) != CL_SUCCESS, "write past the end accepted");
    r.to_device = 0;
    EXPECT(skmd_xfer_run(&r, NULL) != CL_SUCCESS, "read past the end accepted");
    free(host);
    r = req(0, 1, 3, 0, NULL);
    EXPECT(skmd_xfer_run(&r, NULL) == CL_SUCCESS, "empty transfer refused");
}

/* A CPU device reads and writes a USE_HOST_PTR buffer in place. */
static void in_place(int d)
{
    EXPECT(skmd_xfer_device_shares_host(devs[d].id), "PoCL CPU device %d not seen as sharing "
           "host memory", d);
    const char *src = "__kernel void k(__global int *p) { size_t i = get_global_id(0); "
                      "p[i] = p[i] * 3 + (int)i; }";
    cl_int err;
    cl_program prog = real_clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    err = real_clBuildProgram(prog, 1, &devs[d].id, "", NULL, NULL);
    EXPECT(err == CL_SUCCESS, "build failed (%d)", err);
    cl_kernel k = real_clCreateKernel(prog, "k", &err);
    size_t n = 4096;
    int *host = NULL;
    if (posix_memalign((void **)&host, SKMD_XFER_HOST_ALIGN, n * sizeof *host) != 0)
        abort();
    for (size_t i = 0; i < n; i++)
        host[i] = (int)i - 7;
    cl_mem m = real_clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR,
                                   n * sizeof *host, host, &err);
    real_clSetKernelArg(k, 0, sizeof m, &m);
    err = real_clEnqueueNDRangeKernel(devs[d].q, k, 1, NULL, &n, NULL, 0, NULL, NULL);
    EXPECT(err == CL_SUCCESS, "launch failed (%d)", err);
    real_clFinish(devs[d].q);
    size_t bad = 0;
    for (size_t i = 0; i < n; i++)
        bad += host[i] != ((int)i - 7) * 3 + (int)i;
    EXPECT(bad == 0, "device %d: %zu of %zu ints not written in place", d, bad, n);
    /* The host writes in place too: the next launch sees it without a transfer. */
    for (size_t i = 0; i < n; i++)
        host[i] = 1;
    real_clEnqueueNDRangeKernel(devs[d].q, k, 1, NULL, &n, NULL, 0, NULL, NULL);
    real_clFinish(devs[d].q);
    bad = 0;
    for (size_t i = 0; i < n; i++)
        bad += host[i] != 3 + (int)i;
    EXPECT(bad == 0, "device %d: host writes not seen in place (%zu ints)", d, bad);
    real_clReleaseMemObject(m);
    real_clReleaseKernel(k);
    real_clReleaseProgram(prog);
    free(host);
}

int main(void)
{
    load_real();
    cl_platform_id plat;
    cl_uint n = 0;
    if (real_clGetPlatformIDs(1, &plat, NULL) != CL_SUCCESS ||
        real_clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 0, NULL, &n) != CL_SUCCESS || n == 0) {
        fprintf(stderr, "test-transfer: no OpenCL device\n");
        return 2;
    }
    cl_device_id ids[MAX_DEV];
    ndev = n < MAX_DEV ? (int)n : MAX_DEV;
    real_clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, (cl_uint)ndev, ids, NULL);
    cl_int err;
    ctx = real_clCreateContext(NULL, (cl_uint)ndev, ids, NULL, NULL, &err);
    if (!ctx) {
        fprintf(stderr, "test-transfer: no context (%d)\n", err);
        return 2;
    }
    const struct skmd_config *cfg = skmd_config();
    size_t chunk = (size_t)cfg->transfer_chunk_kib << 10;
    size_t direct = (size_t)cfg->transfer_direct_kib << 10;
    bufsize = 3 * chunk + 12345; /* not a multiple of anything */
    for (int d = 0; d < ndev; d++) {
        devs[d].id = ids[d];
        devs[d].q = real_clCreateCommandQueue(ctx, ids[d], 0, &err);
        devs[d].buf = real_clCreateBuffer(ctx, CL_MEM_READ_WRITE, bufsize, NULL, &err);
        devs[d].mirror = calloc(1, bufsize);
        real_clEnqueueWriteBuffer(devs[d].q, devs[d].buf, CL_TRUE, 0, bufsize, devs[d].mirror,
                                  0, NULL, NULL);
    }
    /* Sizes on and around the chunk boundaries and the direct threshold, odd offsets. */
    size_t sizes[] = {1, 100, direct - 1, direct, direct + 1, chunk - 1, chunk, chunk + 1,
                      2 * chunk, 2 * chunk + 4097, bufsize - 1, bufsize};
    size_t offs[] = {0, 3, 4096, chunk - 5};
    unsigned seed = 1;
    for (int d = 0; d < ndev; d++)
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
            for (size_t o = 0; o < sizeof offs / sizeof offs[0]; o++)
                if (sizes[s] > 0 && offs[o] + sizes[s] <= bufsize)
                    roundtrip(d, offs[o], sizes[s], seed++);
    /* A staged transfer is counted as staged, in at least size/chunk chunks. */
    unsigned char *big = malloc(bufsize);
    fill(big, bufsize, 7);
    struct skmd_xfer_stats st = {0, 0, 0};
    struct skmd_xfer_req r = req(0, 1, 0, bufsize, big);
    err = skmd_xfer_run(&r, &st);
    memcpy(devs[0].mirror, big, bufsize);
    EXPECT(err == CL_SUCCESS && st.staged_bytes == bufsize && st.direct_bytes == 0 &&
           st.chunks >= 4,
           "whole buffer: staged %llu direct %llu chunks %llu", (unsigned long long)st.staged_bytes,
           (unsigned long long)st.direct_bytes, (unsigned long long)st.chunks);
    st = (struct skmd_xfer_stats){0, 0, 0};
    r = req(0, 1, 5, direct - 1, big);
    err = skmd_xfer_run(&r, &st);
    memcpy(devs[0].mirror + 5, big, direct - 1);
    EXPECT(err == CL_SUCCESS && st.direct_bytes == direct - 1 && st.staged_bytes == 0,
           "below the direct threshold: direct %llu staged %llu",
           (unsigned long long)st.direct_bytes, (unsigned long long)st.staged_bytes);
    /* No chunk below 2 MiB where the staging buffers hold that much: each chunk costs a
     * fixed time beyond its bytes (docs/transfer.md), so a 4 MiB transfer goes in two. */
    size_t four = (size_t)4 << 20;
    if (chunk >= four / 2 && bufsize >= four && direct < four) {
        st = (struct skmd_xfer_stats){0, 0, 0};
        fill(big, four, 9);
        r = req(0, 1, 0, four, big);
        err = skmd_xfer_run(&r, &st);
        memcpy(devs[0].mirror, big, four);
        EXPECT(err == CL_SUCCESS && st.staged_bytes == four && st.chunks == 2,
               "4 MiB staged in %llu chunks (staged %llu)", (unsigned long long)st.chunks,
               (unsigned long long)st.staged_bytes);
    }
    /* A request marked direct goes in one call whatever its size. */
    st = (struct skmd_xfer_stats){0, 0, 0};
    fill(big, bufsize, 8);
    r = req(0, 1, 0, bufsize, big);
    r.direct = 1;
    err = skmd_xfer_run(&r, &st);
    memcpy(devs[0].mirror, big, bufsize);
    EXPECT(err == CL_SUCCESS && st.direct_bytes == bufsize && st.staged_bytes == 0,
           "marked direct: direct %llu staged %llu", (unsigned long long)st.direct_bytes,
           (unsigned long long)st.staged_bytes);
    check_device(0, "marked direct");
    free(big);
    all_at_once(chunk);
    observers();
    many_ranges(chunk);
    same_member_threads();
    pinned_host(direct);
    bad_requests();
    for (int d = 0; d < ndev; d++)
        in_place(d);
    /* The process totals saw both paths; a noted zero-copy range is added as given. */
    struct skmd_xfer_stats tot;
    uint64_t zc0 = 0, zc1 = 0;
    skmd_xfer_totals(&tot, &zc0);
    skmd_xfer_note_zero_copy(12345);
    skmd_xfer_totals(&tot, &zc1);
    EXPECT(tot.staged_bytes > 0 && tot.direct_bytes > 0 && tot.chunks > 0 && zc1 == zc0 + 12345,
           "totals: staged %llu direct %llu chunks %llu zero-copy %llu -> %llu",
           (unsigned long long)tot.staged_bytes, (unsigned long long)tot.direct_bytes,
           (unsigned long long)tot.chunks, (unsigned long long)zc0, (unsigned long long)zc1);
    for (int d = 0; d < ndev; d++) {
        check_device(d, "final");
        real_clReleaseMemObject(devs[d].buf);
        real_clReleaseCommandQueue(devs[d].q);
        free(devs[d].mirror);
    }
    skmd_xfer_shutdown();
    real_clReleaseContext(ctx);
    if (check_failures) {
        fprintf(stderr, "test-transfer: %d failures (%d devices, chunk %zu)\n", check_failures,
                ndev, chunk);
        return 1;
    }
    printf("PASS test-transfer: %d devices, chunk %zu KiB, direct below %zu KiB, %d threads\n",
           ndev, chunk >> 10, direct >> 10, cfg->transfer_threads);
    return 0;
}
