#include "example.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void usage_exit(const char *prog, const char *usage, int status)
{
    fprintf(status ? stderr : stdout,
            "usage: %s [--device P:D] [--quick] [--size N] [--scale X] [--reps N]\n"
            "  --size N    %s\n"
            "  --device P:D  run on device D of platform P (default: first platform, a GPU if any)\n"
            "  --quick     a small size for tests\n"
            "  --scale X   multiply the default size by X\n"
            "  --reps N    timed repetitions after one warm-up (default 5)\n",
            prog, usage);
    exit(status);
}

void example_parse(int argc, char **argv, const char *usage, struct example_opts *o)
{
    *o = (struct example_opts){.platform = -1, .device = -1, .scale = 1.0, .reps = 5};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h"))
            usage_exit(argv[0], usage, 0);
        else if (!strcmp(a, "--quick"))
            o->quick = 1;
        else if (!strcmp(a, "--device") && v && sscanf(v, "%d:%d", &o->platform, &o->device) == 2)
            i++;
        else if (!strcmp(a, "--size") && v && (o->size = atol(v)) > 0)
            i++;
        else if (!strcmp(a, "--scale") && v && (o->scale = atof(v)) > 0)
            i++;
        else if (!strcmp(a, "--reps") && v && (o->reps = atoi(v)) > 0)
            i++;
        else {
            fprintf(stderr, "%s: bad option '%s'\n", argv[0], a);
            usage_exit(argv[0], usage, 2);
        }
    }
}

long example_size(const struct example_opts *o, long default_size, long quick_size)
{
    if (o->size > 0)
        return o->size;
    if (o->quick)
        return quick_size;
    return (long)(default_size * o->scale);
}

void example_check(cl_int err, const char *what)
{
    if (err != CL_SUCCESS) {
        fprintf(stderr, "%s failed: OpenCL error %d\nFAILED\n", what, err);
        exit(1);
    }
}

void example_cl_init(const struct example_opts *o, struct example_cl *cl)
{
    cl_platform_id platforms[16];
    cl_uint np = 0;
    memset(cl, 0, sizeof(*cl));
    example_check(clGetPlatformIDs(16, platforms, &np), "clGetPlatformIDs");
    if (np == 0)
        example_check(CL_INVALID_PLATFORM, "no OpenCL platform");
    if (o->platform >= 0) {
        cl_device_id devices[64];
        cl_uint nd = 0;
        if ((cl_uint)o->platform >= np)
            example_check(CL_INVALID_PLATFORM, "--device: no such platform");
        cl->platform = platforms[o->platform];
        example_check(clGetDeviceIDs(cl->platform, CL_DEVICE_TYPE_ALL, 64, devices, &nd),
                      "clGetDeviceIDs");
        if ((cl_uint)o->device >= nd)
            example_check(CL_DEVICE_NOT_FOUND, "--device: no such device");
        cl->device = devices[o->device];
    } else {
        cl->platform = platforms[0];
        if (clGetDeviceIDs(cl->platform, CL_DEVICE_TYPE_GPU, 1, &cl->device, NULL) != CL_SUCCESS)
            example_check(clGetDeviceIDs(cl->platform, CL_DEVICE_TYPE_DEFAULT, 1, &cl->device, NULL),
                          "clGetDeviceIDs(DEFAULT)");
    }
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)cl->platform, 0};
    cl_int err;
    cl->context = clCreateContext(props, 1, &cl->device, NULL, NULL, &err);
    example_check(err, "clCreateContext");
    cl->queue = clCreateCommandQueue(cl->context, cl->device, 0, &err);
    example_check(err, "clCreateCommandQueue");
}

void example_cl_release(struct example_cl *cl)
{
    clReleaseCommandQueue(cl->queue);
    clReleaseContext(cl->context);
}

cl_program example_build(struct example_cl *cl, const char *source, const char *options)
{
    cl_int err;
    cl_program p = clCreateProgramWithSource(cl->context, 1, &source, NULL, &err);
    example_check(err, "clCreateProgramWithSource");
    err = clBuildProgram(p, 1, &cl->device, options, NULL, NULL);
    if (err != CL_SUCCESS) {
        size_t len = 0;
        clGetProgramBuildInfo(p, cl->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &len);
        char *log = calloc(len + 1, 1);
        if (log && clGetProgramBuildInfo(p, cl->device, CL_PROGRAM_BUILD_LOG, len, log, NULL) == CL_SUCCESS)
            fprintf(stderr, "build log:\n%s\n", log);
        free(log);
        example_check(err, "clBuildProgram");
    }
    return p;
}

cl_kernel example_kernel(cl_program program, const char *name)
{
    cl_int err;
    cl_kernel k = clCreateKernel(program, name, &err);
    example_check(err, name);
    return k;
}

cl_mem example_buffer(struct example_cl *cl, cl_mem_flags flags, size_t bytes, void *host)
{
    cl_int err;
    cl_mem m = clCreateBuffer(cl->context, flags, bytes, host, &err);
    example_check(err, "clCreateBuffer");
    return m;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void example_time(const struct example_opts *o, example_run_fn run, void *state,
                  double *ms_best, double *ms_median)
{
    int n = o->reps > 0 ? o->reps : 1;
    double *t = malloc(sizeof(double) * n);
    if (!t)
        example_check(CL_OUT_OF_HOST_MEMORY, "malloc");
    run(state); /* warm-up: first-launch compilation and allocation stay out of the figures */
    for (int i = 0; i < n; i++) {
        double start = now_ms();
        run(state);
        t[i] = now_ms() - start;
    }
    qsort(t, n, sizeof(double), cmp_double);
    *ms_best = t[0];
    *ms_median = n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
    free(t);
}

int example_report(const char *name, const char *size, int passed, double ms_best,
                   double ms_median)
{
    printf("%s\n", passed ? "PASSED" : "FAILED");
    printf("RESULT name=%s size=%s ms_best=%.3f ms_median=%.3f status=%s\n", name, size, ms_best,
           ms_median, passed ? "PASSED" : "FAILED");
    return passed ? 0 : 1;
}

unsigned example_rand(unsigned *state)
{
    /* xorshift32: tiny, deterministic, good enough for test inputs */
    unsigned x = *state ? *state : 0x9e3779b9u;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *state = x;
}

float example_randf(unsigned *state, float lo, float hi)
{
    return lo + (hi - lo) * (float)(example_rand(state) >> 8) / (float)(1u << 24);
}

long example_compare_floats(const float *got, const float *want, size_t n, float abs_tol,
                            float rel_tol)
{
    for (size_t i = 0; i < n; i++) {
        float d = fabsf(got[i] - want[i]);
        if (!(d <= abs_tol + rel_tol * fabsf(want[i]))) {
            fprintf(stderr, "mismatch at %zu: got %.9g want %.9g\n", i, got[i], want[i]);
            return (long)i;
        }
    }
    return -1;
}

long example_compare_uints(const unsigned *got, const unsigned *want, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (got[i] != want[i]) {
            fprintf(stderr, "mismatch at %zu: got %u want %u\n", i, got[i], want[i]);
            return (long)i;
        }
    }
    return -1;
}

void example_require_group_size(struct example_cl *cl, cl_kernel kernel, size_t wanted)
{
    size_t max = 0;
    example_check(clGetKernelWorkGroupInfo(kernel, cl->device, CL_KERNEL_WORK_GROUP_SIZE,
                                           sizeof(max), &max, NULL),
                  "clGetKernelWorkGroupInfo");
    if (wanted > max) {
        fprintf(stderr, "the kernel needs %zu work-items per group; this device allows %zu\nFAILED\n",
                wanted, max);
        exit(1);
    }
}
