/* tests/transform/clstd.c: kernels whose meaning depends on the OpenCL C version and on the
 * device's extensions: `#ifdef cl_khr_fp16` (a device without it must take the other
 * branch), half as a storage type (vload_half/vstore_half, core in every version), and
 * OpenCL C 2.0 and 3.0 programs (-cl-std=CL2.0: get_global_linear_id,
 * get_enqueued_local_size, a program-scope variable; -cl-std=CL3.0: feature macros; PoCL
 * 3.1 has no generic address space), and a program without -cl-std (PoCL then compiles
 * OpenCL C 3.0, where the specification says the device's highest 1.x).
 * Each result buffer is written to the file argv[1], so that a run under libskmd (forced
 * uneven shares on several PoCL devices) is compared byte for byte with a native run. */
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300
#endif
#include "../common/cl_test.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The value each kernel adds tells which preprocessor branch the compiler took. */
static const char *fp16_source =
    "#ifdef cl_khr_fp16\n"
    "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
    "kernel void scale_half(global const half *in, global half *out, global int *branch) {\n"
    "  size_t i = get_global_id(0);\n"
    "  half h = vload_half(i, in);\n"
    "  vstore_half((float)(h * (half)2.0f), i, out);\n"
    "  branch[i] = 16;\n"
    "}\n"
    "#else\n"
    "kernel void scale_half(global const half *in, global half *out, global int *branch) {\n"
    "  size_t i = get_global_id(0);\n"
    "  vstore_half(vload_half(i, in) * 2.0f, i, out);\n"
    "  branch[i] = 32;\n"
    "}\n"
    "#endif\n"
    "kernel void ext_macros(global int *out) {\n"
    "  int v = 0;\n"
    "#ifdef cl_khr_fp64\n"
    "  v |= 1;\n"
    "#endif\n"
    "#ifdef cl_khr_fp16\n"
    "  v |= 2;\n"
    "#endif\n"
    "#ifdef cl_khr_int64_base_atomics\n"
    "  v |= 4;\n"
    "#endif\n"
    "#ifdef cl_khr_gl_msaa_sharing\n"
    "  v |= 8;\n"
    "#endif\n"
    "#ifdef cl_khr_subgroups\n"
    "  v |= 16;\n"
    "#endif\n"
    "  out[get_global_id(0)] = v * 1000 + __OPENCL_C_VERSION__;\n"
    "}\n";

static const char *cl20_source =
    "global int table[4] = {3, 5, 7, 11};\n"
    "kernel void cl20(global const int *in, global int *out, local int *scratch) {\n"
    "  size_t l = get_local_id(0);\n"
    "  scratch[l] = in[get_global_id(0)];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  int v = 2 * in[get_global_id(0)] + scratch[get_local_size(0) - 1 - l];\n"
    "  out[get_global_linear_id()] = v + table[l % 4] +\n"
    "    100000 * (int)get_enqueued_local_size(0) + __OPENCL_C_VERSION__;\n"
    "}\n";

static const char *cl30_source =
    "kernel void features(global int *out) {\n"
    "  int v = 0;\n"
    "#ifdef __opencl_c_generic_address_space\n"
    "  v |= 1;\n"
    "#endif\n"
    "#ifdef __opencl_c_fp64\n"
    "  v |= 2;\n"
    "#endif\n"
    "#ifdef __opencl_c_images\n"
    "  v |= 4;\n"
    "#endif\n"
    "#ifdef __opencl_c_subgroups\n"
    "  v |= 8;\n"
    "#endif\n"
    "  size_t i = get_global_id(0);\n"
    "  out[i] = v * 1000 + __OPENCL_C_VERSION__ + (int)get_group_id(0);\n"
    "}\n";

#define N 4096
#define LOCAL 64

static struct cl_test cl;
static FILE *dump;

static cl_mem buffer(size_t size, const void *init)
{
    return cl_test_buffer(&cl, CL_MEM_READ_WRITE | (init ? CL_MEM_COPY_HOST_PTR : 0), size,
                          (void *)init);
}

/* Launches N work-items in groups of LOCAL. */
static void run(cl_program p, const char *name, int nargs, const cl_mem *args,
                size_t local_bytes)
{
    cl_int err;
    cl_kernel k = clCreateKernel(p, name, &err);
    CL_CHECK(err);
    for (int i = 0; i < nargs; i++)
        CL_CHECK(clSetKernelArg(k, (cl_uint)i, sizeof(cl_mem), &args[i]));
    if (local_bytes)
        CL_CHECK(clSetKernelArg(k, (cl_uint)nargs, local_bytes, NULL));
    size_t global = N, local = LOCAL;
    CL_CHECK(clEnqueueNDRangeKernel(cl.queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
    CL_CHECK(clFinish(cl.queue));
    clReleaseKernel(k);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: clstd OUT.bin\n");
        return 2;
    }
    dump = fopen(argv[1], "wb");
    if (!dump) {
        perror(argv[1]);
        return 1;
    }
    /* The queue as an OpenCL 2.0 app makes it (cl_test_open makes a 1.2 app's). */
    cl_int err;
    CL_CHECK(clGetPlatformIDs(1, &cl.platform, NULL));
    CL_CHECK(clGetDeviceIDs(cl.platform, CL_DEVICE_TYPE_ALL, 1, &cl.device, NULL));
    cl.context = clCreateContext(NULL, 1, &cl.device, NULL, NULL, &err);
    CL_CHECK(err);
    cl.queue = clCreateCommandQueueWithProperties(cl.context, cl.device, NULL, &err);
    CL_CHECK(err);

    static unsigned short halves[N];
    static int ints[N];
    for (int i = 0; i < N; i++) {
        /* half bit patterns of small normal numbers: 0x3c00 = 1.0 upwards */
        halves[i] = (unsigned short)(0x3c00 + (i * 7) % 0x800);
        ints[i] = i * 3 - 500;
    }

    cl_program fp16 = cl_test_build(&cl, fp16_source, "");
    cl_mem h_in = buffer(sizeof halves, halves), h_out = buffer(sizeof halves, NULL);
    cl_mem branch = buffer(sizeof ints, NULL), macros = buffer(sizeof ints, NULL);
    run(fp16, "scale_half", 3, (cl_mem[]){h_in, h_out, branch}, 0);
    run(fp16, "ext_macros", 1, (cl_mem[]){macros}, 0);
    cl_test_dump(&cl, h_out, sizeof halves, dump);
    cl_test_dump(&cl, branch, sizeof ints, dump);
    cl_test_dump(&cl, macros, sizeof ints, dump);

    cl_program cl20 = cl_test_build(&cl, cl20_source, "-cl-std=CL2.0");
    cl_mem in = buffer(sizeof ints, ints), out = buffer(sizeof ints, NULL);
    run(cl20, "cl20", 2, (cl_mem[]){in, out}, LOCAL * sizeof(int));
    cl_test_dump(&cl, out, sizeof ints, dump);

    cl_program cl30 = cl_test_build(&cl, cl30_source, "-cl-std=CL3.0");
    cl_mem feats = buffer(sizeof ints, NULL);
    run(cl30, "features", 1, (cl_mem[]){feats}, 0);
    cl_test_dump(&cl, feats, sizeof ints, dump);

    cl_mem all[] = {h_in, h_out, branch, macros, in, out, feats};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        clReleaseMemObject(all[i]);
    clReleaseProgram(fp16);
    clReleaseProgram(cl20);
    clReleaseProgram(cl30);
    cl_test_close(&cl);
    return fclose(dump) ? 1 : 0;
}
