/* skmd-profile calibrate: latency and bandwidth of every device's link, host to device
 * and back, from pageable (malloc) and pinned (CL_MEM_ALLOC_HOST_PTR, mapped) memory, at
 * a few sizes; stored in the profile database as the partitioner's link curves.
 *
 * It talks to the real ICD loader, opened with dlopen and reached through dlsym on that
 * handle, so that a preloaded libskmd is never measured instead of the drivers. Devices
 * are named as libskmd names its members (vendor, name with " #2", " #3" for identical
 * devices in platform order, driver version), so the runtime finds the curves. */

#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "skmd-profile-common.h"

#define MAX_DEVICES 64
#define REPEATS 3

static struct {
    __typeof__(clGetPlatformIDs) *GetPlatformIDs;
    __typeof__(clGetDeviceIDs) *GetDeviceIDs;
    __typeof__(clGetDeviceInfo) *GetDeviceInfo;
    __typeof__(clCreateContext) *CreateContext;
    __typeof__(clCreateCommandQueue) *CreateCommandQueue;
    __typeof__(clCreateBuffer) *CreateBuffer;
    __typeof__(clEnqueueWriteBuffer) *EnqueueWriteBuffer;
    __typeof__(clEnqueueReadBuffer) *EnqueueReadBuffer;
    __typeof__(clEnqueueMapBuffer) *EnqueueMapBuffer;
    __typeof__(clEnqueueUnmapMemObject) *EnqueueUnmapMemObject;
    __typeof__(clFinish) *Finish;
    __typeof__(clReleaseMemObject) *ReleaseMemObject;
    __typeof__(clReleaseCommandQueue) *ReleaseCommandQueue;
    __typeof__(clReleaseContext) *ReleaseContext;
} cl;

static void *loader;

static int open_loader(void)
{
    const char *name = getenv("SKMD_OPENCL_LIBRARY");
    loader = dlopen(name && *name ? name : "libOpenCL.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!loader) {
        fprintf(stderr, "skmd-profile calibrate: cannot open the OpenCL loader: %s\n",
                dlerror());
        return -1;
    }
    struct { void **slot; const char *name; } fns[] = {
#define FN(n) {(void **)&cl.n, "cl" #n}
        FN(GetPlatformIDs), FN(GetDeviceIDs), FN(GetDeviceInfo), FN(CreateContext),
        FN(CreateCommandQueue), FN(CreateBuffer), FN(EnqueueWriteBuffer),
        FN(EnqueueReadBuffer), FN(EnqueueMapBuffer), FN(EnqueueUnmapMemObject), FN(Finish),
        FN(ReleaseMemObject), FN(ReleaseCommandQueue), FN(ReleaseContext),
#undef FN
    };
    for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++)
        if (!(*fns[i].slot = dlsym(loader, fns[i].name))) {
            fprintf(stderr, "skmd-profile calibrate: the OpenCL loader lacks %s\n",
                    fns[i].name);
            return -1;
        }
    return 0;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Best of REPEATS blocking transfers of `bytes` between `host` and `buf`. */
static double transfer_ms(cl_command_queue q, cl_mem buf, int to_device, void *host,
                          size_t bytes)
{
    double best = -1;
    for (int r = 0; r < REPEATS; r++) {
        double t0 = now_ms();
        cl_int err = to_device
                         ? cl.EnqueueWriteBuffer(q, buf, CL_TRUE, 0, bytes, host, 0, NULL, NULL)
                         : cl.EnqueueReadBuffer(q, buf, CL_TRUE, 0, bytes, host, 0, NULL, NULL);
        double t = now_ms() - t0;
        if (err != CL_SUCCESS)
            return -1;
        if (best < 0 || t < best)
            best = t;
    }
    return best;
}

/* One curve: points at lo, lo*s, ... hi (at most SKMD_PDB_LINK_POINTS, geometric). */
static int measure_curve(cl_context ctx, cl_command_queue q, cl_mem dev_buf, int to_device,
                         int pinned, long long lo, long long hi, struct skmd_pdb_link *l)
{
    cl_int err = CL_SUCCESS;
    void *host = NULL;
    cl_mem pin = NULL;
    if (pinned) {
        pin = cl.CreateBuffer(ctx, CL_MEM_ALLOC_HOST_PTR, (size_t)hi, NULL, &err);
        if (pin)
            host = cl.EnqueueMapBuffer(q, pin, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0,
                                       (size_t)hi, 0, NULL, NULL, &err);
    } else {
        host = calloc(1, (size_t)hi);
    }
    if (!host) {
        if (pin)
            cl.ReleaseMemObject(pin);
        return -1;
    }
    memset(l, 0, sizeof *l);
    /* Geometric sizes from lo to hi in at most SKMD_PDB_LINK_POINTS points. */
    double ratio = pow((double)hi / (double)lo, 1.0 / (SKMD_PDB_LINK_POINTS - 1));
    ratio = ratio < 2 ? 2 : ratio;
    int status = 0;
    for (double size = (double)lo; l->npoints < SKMD_PDB_LINK_POINTS; size *= ratio) {
        size_t bytes = size > (double)hi ? (size_t)hi : (size_t)size;
        double ms = transfer_ms(q, dev_buf, to_device, host, bytes);
        if (ms < 0) {
            status = -1;
            break;
        }
        l->point_bytes[l->npoints] = (double)bytes;
        l->point_ms[l->npoints++] = ms;
        if (bytes == (size_t)hi)
            break;
    }
    if (status == 0 && l->npoints > 0) {
        int last = l->npoints - 1;
        l->latency_ms = l->point_ms[0];
        double dbytes = l->point_bytes[last] - l->point_bytes[0];
        double dms = l->point_ms[last] - l->point_ms[0];
        l->bytes_per_ms = dms > 0 ? dbytes / dms : l->point_bytes[last] / l->point_ms[last];
        /* The curve must rise: flatten any dip that noise made. */
        for (int i = 1; i < l->npoints; i++)
            if (l->point_ms[i] < l->point_ms[i - 1])
                l->point_ms[i] = l->point_ms[i - 1];
    }
    if (pin) {
        cl.EnqueueUnmapMemObject(q, pin, host, 0, NULL, NULL);
        cl.Finish(q);
        cl.ReleaseMemObject(pin);
    } else {
        free(host);
    }
    return status;
}

static void device_text(cl_device_id d, cl_device_info what, char *buf, size_t size)
{
    if (cl.GetDeviceInfo(d, what, size, buf, NULL) != CL_SUCCESS)
        buf[0] = 0;
    buf[size - 1] = 0;
}

/* Progress on stderr: on a terminal one line rewritten at each step, else one line per
 * device (a log keeps it short). */
static void progress(int device, int ndev, const char *name, int step, int nsteps)
{
    static const char *const steps[] = {"to device, pageable", "to device, pinned",
                                        "to host, pageable", "to host, pinned"};
    if (isatty(STDERR_FILENO))
        fprintf(stderr, "\r\033[Kcalibrating device %d of %d (%.40s): %s (%d of %d)",
                device + 1, ndev, name, steps[step], step + 1, nsteps);
    else if (step == 0)
        fprintf(stderr, "skmd-profile calibrate: device %d of %d (%s): 4 transfer curves\n",
                device + 1, ndev, name);
}

static void progress_done(void)
{
    if (isatty(STDERR_FILENO))
        fprintf(stderr, "\r\033[K");
}

static int calibrate_device(struct skmd_pdb *db, cl_device_id d, const char *name,
                            long long lo, long long hi, int index, int ndev)
{
    char vendor[256], driver[256];
    device_text(d, CL_DEVICE_VENDOR, vendor, sizeof vendor);
    device_text(d, CL_DRIVER_VERSION, driver, sizeof driver);
    struct skmd_pdb_device_id id = {vendor, name, driver};
    int64_t dev_id;
    int st = skmd_pdb_device(db, &id, &dev_id);
    if (st != SKMD_PDB_OK && st != SKMD_PDB_NOT_PERSISTED) {
        fprintf(stderr, "skmd-profile calibrate: %s: %s\n", name, skmd_pdb_strstatus(st));
        return 1;
    }
    cl_int err;
    cl_context ctx = cl.CreateContext(NULL, 1, &d, NULL, NULL, &err);
    cl_command_queue q = ctx ? cl.CreateCommandQueue(ctx, d, 0, &err) : NULL;
    cl_mem buf = q ? cl.CreateBuffer(ctx, CL_MEM_READ_WRITE, (size_t)hi, NULL, &err) : NULL;
    int status = buf ? 0 : 1;
    if (!buf)
        fprintf(stderr, "skmd-profile calibrate: %s: cannot set up a %lld-byte buffer "
                "(OpenCL error %d)\n", name, hi, err);
    for (int dir = 0; dir < 2 && !status; dir++)
        for (int mem = 0; mem < 2 && !status; mem++) {
            struct skmd_pdb_link l;
            progress(index, ndev, name, dir * 2 + mem, 4);
            if (measure_curve(ctx, q, buf, dir == SKMD_PDB_H2D, mem == SKMD_PDB_PINNED, lo,
                              hi, &l) != 0) {
                fprintf(stderr, "skmd-profile calibrate: %s: a transfer failed\n", name);
                status = 1;
                break;
            }
            st = skmd_pdb_put_link(db, dev_id, (enum skmd_pdb_dir)dir,
                                   (enum skmd_pdb_mem)mem, &l);
            progress_done();
            printf("%-40s  %s  %-8s  latency %8.1f us  %8.2f GB/s%s\n", name,
                   dir == SKMD_PDB_H2D ? "to device" : "to host  ",
                   mem == SKMD_PDB_PINNED ? "pinned" : "pageable", l.latency_ms * 1e3,
                   l.bytes_per_ms / 1e6, st == SKMD_PDB_OK ? "" : "  (not stored)");
        }
    if (buf)
        cl.ReleaseMemObject(buf);
    if (q)
        cl.ReleaseCommandQueue(q);
    if (ctx)
        cl.ReleaseContext(ctx);
    return status;
}

/* device -1 means every device. */
static int calibrate_devices(struct skmd_pdb *db, long long device, long long lo, long long hi)
{
    if (open_loader() != 0) {
        if (loader)
            dlclose(loader);
        return 1;
    }
    cl_platform_id plats[16];
    cl_uint nplat = 0;
    cl_device_id devs[MAX_DEVICES];
    char bases[MAX_DEVICES][256], names[MAX_DEVICES][300];
    int ndev = 0;
    if (cl.GetPlatformIDs(16, plats, &nplat) != CL_SUCCESS)
        nplat = 0;
    for (cl_uint p = 0; p < nplat && p < 16; p++) {
        cl_uint n = 0;
        if (cl.GetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, (cl_uint)(MAX_DEVICES - ndev),
                            devs + ndev, &n) != CL_SUCCESS)
            continue;
        for (cl_uint i = 0; i < n && ndev < MAX_DEVICES; i++, ndev++) {
            char *base = bases[ndev];
            device_text(devs[ndev], CL_DEVICE_NAME, base, sizeof bases[ndev]);
            int same = 0;
            for (int o = 0; o < ndev; o++)
                same += !strcmp(bases[o], base);
            if (same)
                snprintf(names[ndev], sizeof names[ndev], "%s #%d", base, same + 1);
            else
                snprintf(names[ndev], sizeof names[ndev], "%s", base);
        }
    }
    if (ndev == 0) {
        fprintf(stderr, "skmd-profile calibrate: no OpenCL device found\n");
        dlclose(loader);
        return 1;
    }
    if (device >= ndev) {
        fprintf(stderr, "skmd-profile calibrate: no device %lld (there are %d)\n", device,
                ndev);
        dlclose(loader);
        return 1;
    }
    int status = 0;
    for (int d = 0; d < ndev; d++)
        if (device < 0 || device == d)
            status |= calibrate_device(db, devs[d], names[d], lo, hi, d, ndev);
    dlclose(loader);
    printf("links stored in %s\n", skmd_pdb_path(db));
    return status;
}

static const char calibrate_help[] =
    "usage: skmd-profile [--db PATH] calibrate [--device N] [--sizes MIN:MAX]\n"
    "Measures every device's link (host to device and back, pageable and pinned memory)\n"
    "at up to 8 sizes from MIN to MAX bytes (default 4096:268435456) through the real\n"
    "OpenCL loader and stores latency, bandwidth and the curve; --device N: device N\n"
    "only (numbered over every platform, as libskmd numbers its members).\n";

int cmd_calibrate(const char *db_path, int argc, char **argv)
{
    long long device = -1, lo = 4096, hi = 268435456;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(calibrate_help, stdout);
            return 0;
        } else if (!strcmp(argv[i], "--device") && i + 1 < argc) {
            char *end;
            device = strtoll(argv[++i], &end, 10);
            if (!*argv[i] || *end || device < 0) {
                fprintf(stderr, "skmd-profile calibrate: --device wants a device number\n");
                return EXIT_USAGE;
            }
        } else if (!strcmp(argv[i], "--sizes") && i + 1 < argc) {
            if (sscanf(argv[++i], "%lld:%lld", &lo, &hi) != 2 || lo <= 0 || hi < lo) {
                fprintf(stderr, "skmd-profile calibrate: --sizes wants MIN:MAX bytes\n");
                return EXIT_USAGE;
            }
        } else {
            return unexpected_argument(argv[0], argv[i]);
        }
    }
    struct skmd_pdb *db = open_db(db_path);
    if (!db)
        return 1;
    int status = calibrate_devices(db, device, lo, hi);
    skmd_pdb_close(db);
    return status;
}
