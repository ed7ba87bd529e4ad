/* The shared harness of the example programs: options, device choice, build, timing and the
 * RESULT line. Each example is an ordinary OpenCL app: it links only -lOpenCL and knows
 * nothing of libskmd. */
#ifndef EXAMPLE_H
#define EXAMPLE_H

#include <CL/cl.h>
#include <stddef.h>

struct example_opts {
    int platform, device; /* --device P:D pins a real device; -1 = pick as apps do */
    int quick;            /* --quick: a size that runs well under a second on one core */
    long size;            /* --size N: the program's main size (0 = its default) */
    double scale;         /* --scale X: multiplies the default size (1 = default) */
    int reps;             /* --reps N: timed repetitions after one warm-up */
};

struct example_cl {
    cl_platform_id platform;
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;
};

/* Parses the common options; `usage` names the program's own size meaning. Exits on --help. */
void example_parse(int argc, char **argv, const char *usage, struct example_opts *o);

/* The main size: --size if given, else `quick_size` with --quick, else `default_size`
 * times --scale. */
long example_size(const struct example_opts *o, long default_size, long quick_size);

/* Picks the device the way ordinary apps do (first platform, a GPU if any, else the default
 * device) unless --device P:D pins one; makes a context and an in-order queue. */
void example_cl_init(const struct example_opts *o, struct example_cl *cl);
void example_cl_release(struct example_cl *cl);

/* Builds `source` with `options`; prints the build log and exits FAILED on error. */
cl_program example_build(struct example_cl *cl, const char *source, const char *options);
cl_kernel example_kernel(cl_program program, const char *name);

/* Exits with FAILED when err is not CL_SUCCESS, naming what failed. */
void example_check(cl_int err, const char *what);

/* A buffer that exits FAILED when creation fails. */
cl_mem example_buffer(struct example_cl *cl, cl_mem_flags flags, size_t bytes, void *host);

/* One end-to-end run as the user feels it: write inputs, run kernels, read outputs. */
typedef void (*example_run_fn)(void *state);

/* Times one warm-up then o->reps runs of `run`; fills best and median milliseconds. */
void example_time(const struct example_opts *o, example_run_fn run, void *state,
                  double *ms_best, double *ms_median);

/* Prints PASSED/FAILED and the RESULT line; returns the process exit status. */
int example_report(const char *name, const char *size, int passed, double ms_best,
                   double ms_median);

/* A deterministic pseudo-random stream (same inputs on every run and device). */
unsigned example_rand(unsigned *state);
float example_randf(unsigned *state, float lo, float hi);

/* Float comparison: |a-b| <= abs_tol + rel_tol*|b|. Returns the index of the first
 * mismatch (printing it), or -1 when all match. */
long example_compare_floats(const float *got, const float *want, size_t n, float abs_tol,
                            float rel_tol);

/* Exact comparison of unsigned integers (counts, sums). Returns the index of the first
 * mismatch (printing it), or -1 when all match. */
long example_compare_uints(const unsigned *got, const unsigned *want, size_t n);

/* Local work size that fits both the kernel and the device: `wanted` if the kernel's
 * CL_KERNEL_WORK_GROUP_SIZE allows it, else exits FAILED naming the limit. */
void example_require_group_size(struct example_cl *cl, cl_kernel kernel, size_t wanted);

#endif
