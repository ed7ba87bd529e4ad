/* tests/split/adversarial.c: small OpenCL launches that are hard to split correctly; every
 * result buffer is written to the file named by argv[1], so a run under libskmd (with
 * forced uneven shares) can be compared byte for byte with a native one-device run. */
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include "../common/cl_test.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *source =
    "__kernel void two_d(__global const float *in, __global float *out, int w) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  out[y * w + x] = in[y * w + x] * 2.0f + (float)get_group_id(1);\n"
    "}\n"
    "__kernel void three_d(__global int *out) {\n"
    "  size_t x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);\n"
    "  size_t w = get_global_size(0), h = get_global_size(1);\n"
    "  out[(z * h + y) * w + x] = (int)(x + 100 * y + 10000 * z + 7 * get_group_id(2));\n"
    "}\n"
    "__kernel void uneven(__global const int *in, __global int *out) {\n"
    "  int i = get_global_id(0);\n"
    "  out[i] = in[i] * 3 + (int)get_num_groups(0);\n"
    "}\n"
    "__kernel void group_sum(__global const int *in, __global int *sums,\n"
    "                        __local int *scratch) {\n"
    "  int l = get_local_id(0);\n"
    "  scratch[l] = in[get_global_id(0)];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (int s = get_local_size(0) / 2; s > 0; s /= 2) {\n"
    "    if (l < s) scratch[l] += scratch[l + s];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  if (l == 0) sums[get_group_id(0)] = scratch[0];\n"
    "}\n"
    "__kernel void strided(__global const int *in, __global int *out) {\n"
    "  int i = get_global_id(0);\n"
    "  out[2 * i] = in[i] + 1;\n"
    "}\n"
    "__kernel void in_place(__global int *a) {\n"
    "  int i = get_global_id(0);\n"
    "  a[i] = a[i] * 5 + 1;\n"
    "}\n"
    "__kernel void aliased(__global const int *src, __global int *dst, int mid) {\n"
    "  int i = get_global_id(0);\n"
    "  dst[i + mid] = src[i] - 9;\n"
    "}\n"
    "__kernel void scatter(__global const int *perm, __global const int *in,\n"
    "                      __global int *out) {\n"
    "  int i = get_global_id(0);\n"
    "  out[perm[i]] = in[i] ^ 0x5a5a;\n"
    "}\n";

#define N 1024

static struct cl_test cl;
static FILE *dump;

static void arg(cl_kernel k, cl_uint i, size_t size, const void *v)
{
    CL_CHECK(clSetKernelArg(k, i, size, v));
}

static void run(cl_kernel k, cl_uint dims, const size_t *off, const size_t *g, const size_t *l)
{
    CL_CHECK(clEnqueueNDRangeKernel(cl.queue, k, dims, off, g, l, 0, NULL, NULL));
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s DUMP_FILE\n", argv[0]);
        return 2;
    }
    dump = fopen(argv[1], "wb");
    if (!dump) {
        perror(argv[1]);
        return 1;
    }
    cl_int err;
    cl_test_open(&cl, 0, source, NULL);

    int iota[4 * N], zero[4 * N];
    float fin[N];
    for (int i = 0; i < 4 * N; i++)
        iota[i] = i * 7 + 3, zero[i] = 0;
    for (int i = 0; i < N; i++)
        fin[i] = (float)i * 0.25f;

    /* 2-D with a global offset: 32x24 items from (8, 4) of a 40-wide image. */
    cl_mem fa = cl_test_buffer(&cl, CL_MEM_COPY_HOST_PTR, sizeof fin, fin);
    cl_mem fb = cl_test_buffer(&cl, CL_MEM_COPY_HOST_PTR, sizeof fin, fin);
    cl_kernel k = cl_test_kernel(&cl, "two_d");
    int w = 40;
    arg(k, 0, sizeof fa, &fa), arg(k, 1, sizeof fb, &fb), arg(k, 2, sizeof w, &w);
    run(k, 2, (size_t[]){8, 4}, (size_t[]){32, 20}, (size_t[]){4, 2});
    cl_test_dump(&cl, fb, sizeof fin, dump);
    clReleaseKernel(k);

    /* 3-D. */
    cl_mem ia = cl_test_buffer(&cl, CL_MEM_COPY_HOST_PTR, sizeof zero, zero);
    k = cl_test_kernel(&cl, "three_d");
    arg(k, 0, sizeof ia, &ia);
    run(k, 3, NULL, (size_t[]){8, 8, 12}, (size_t[]){2, 4, 3});
    cl_test_dump(&cl, ia, 8 * 8 * 12 * sizeof(int), dump);
    clReleaseKernel(k);

    /* A group count that no share divides evenly: 1000 items, 125 groups of 8. */
    cl_mem ib = cl_test_buffer(&cl, CL_MEM_COPY_HOST_PTR, sizeof iota, iota);
    cl_mem ic = cl_test_buffer(&cl, CL_MEM_COPY_HOST_PTR, sizeof zero, zero);
    k = cl_test_kernel(&cl, "uneven");
    arg(k, 0, sizeof ib, &ib), arg(k, 1, sizeof ic, &ic);
    run(k, 1, NULL, (size_t[]){1000}, (size_t[]){8});
    cl_test_dump(&cl, ic, sizeof zero, dump);
    clReleaseKernel(k);

    /* Output indexed by the group id, local memory and barriers. */
    cl_mem sums = cl_test_buffer(&cl, CL_MEM_COPY_HOST_PTR, sizeof zero, zero);
    k = cl_test_kernel(&cl, "group_sum");
    arg(k, 0, sizeof ib, &ib), arg(k, 1, sizeof sums, &sums), arg(k, 2, 16 * sizeof(int), NULL);
    run(k, 1, NULL, (size_t[]){N}, (size_t[]){16});
    cl_test_dump(&cl, sums, N / 16 * sizeof(int), dump);
    clReleaseKernel(k);

    /* Discontiguous writes: every other int. */
    cl_mem sd = cl_test_buffer(&cl, CL_MEM_COPY_HOST_PTR, sizeof zero, zero);
    k = cl_test_kernel(&cl, "strided");
    arg(k, 0, sizeof ib, &ib), arg(k, 1, sizeof sd, &sd);
    run(k, 1, NULL, (size_t[]){N}, (size_t[]){16});
    cl_test_dump(&cl, sd, 2 * N * sizeof(int), dump);
    clReleaseKernel(k);

    /* In-place read-modify-write, repeated, no host read in between. */
    cl_mem ip = cl_test_buffer(&cl, CL_MEM_COPY_HOST_PTR, sizeof iota, iota);
    k = cl_test_kernel(&cl, "in_place");
    arg(k, 0, sizeof ip, &ip);
    for (int r = 0; r < 3; r++)
        run(k, 1, NULL, (size_t[]){N}, (size_t[]){16});
    cl_test_dump(&cl, ip, sizeof iota, dump);
    clReleaseKernel(k);

    /* The same buffer as two arguments: reads the first half, writes the second. */
    cl_mem al = cl_test_buffer(&cl, CL_MEM_COPY_HOST_PTR, sizeof iota, iota);
    k = cl_test_kernel(&cl, "aliased");
    int half = N;
    arg(k, 0, sizeof al, &al), arg(k, 1, sizeof al, &al), arg(k, 2, sizeof half, &half);
    run(k, 1, NULL, (size_t[]){N}, (size_t[]){32});
    cl_test_dump(&cl, al, sizeof iota, dump);
    clReleaseKernel(k);

    /* Sub-buffers: the kernel reads one and writes another of the same parent. */
    cl_mem parent = cl_test_buffer(&cl, CL_MEM_COPY_HOST_PTR, sizeof iota, iota);
    cl_buffer_region r_in = {0, N * sizeof(int)}, r_out = {2 * N * sizeof(int), N * sizeof(int)};
    cl_mem sub_in = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &r_in, &err);
    CL_CHECK(err);
    cl_mem sub_out = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &r_out, &err);
    CL_CHECK(err);
    k = cl_test_kernel(&cl, "uneven");
    arg(k, 0, sizeof sub_in, &sub_in), arg(k, 1, sizeof sub_out, &sub_out);
    run(k, 1, NULL, (size_t[]){N}, (size_t[]){16});
    cl_test_dump(&cl, parent, sizeof iota, dump);

    /* USE_HOST_PTR in and out, results seen through a map. */
    static int host_in[N], host_out[N];
    for (int i = 0; i < N; i++)
        host_in[i] = i * i, host_out[i] = -1;
    cl_mem hi = cl_test_buffer(&cl, CL_MEM_USE_HOST_PTR, sizeof host_in, host_in);
    cl_mem ho = cl_test_buffer(&cl, CL_MEM_USE_HOST_PTR, sizeof host_out, host_out);
    arg(k, 0, sizeof hi, &hi), arg(k, 1, sizeof ho, &ho);
    run(k, 1, NULL, (size_t[]){N}, (size_t[]){16});
    int *mapped = clEnqueueMapBuffer(cl.queue, ho, CL_TRUE, CL_MAP_READ, 0, sizeof host_out, 0,
                                     NULL, NULL, &err);
    CL_CHECK(err);
    fwrite(mapped, 1, sizeof host_out, dump);
    CL_CHECK(clEnqueueUnmapMemObject(cl.queue, ho, mapped, 0, NULL, NULL));

    /* Chained: uneven twice, the second reading the first's output, no host read between;
     * then a host write into the middle and the chain again. */
    cl_mem c1 = cl_test_buffer(&cl, CL_MEM_COPY_HOST_PTR, sizeof zero, zero);
    cl_mem c2 = cl_test_buffer(&cl, CL_MEM_COPY_HOST_PTR, sizeof zero, zero);
    for (int round = 0; round < 2; round++) {
        arg(k, 0, sizeof ib, &ib), arg(k, 1, sizeof c1, &c1);
        run(k, 1, NULL, (size_t[]){N}, (size_t[]){16});
        arg(k, 0, sizeof c1, &c1), arg(k, 1, sizeof c2, &c2);
        run(k, 1, NULL, (size_t[]){N}, (size_t[]){16});
        CL_CHECK(clEnqueueWriteBuffer(cl.queue, ib, CL_TRUE, 100 * sizeof(int), 50 * sizeof(int),
                                      zero, 0, NULL, NULL));
    }
    cl_test_dump(&cl, c2, sizeof zero, dump);
    clReleaseKernel(k);

    /* Writes whose place depends on data: the merge kernel's case. */
    int perm[N];
    for (int i = 0; i < N; i++)
        perm[i] = (i * 37 + 11) % N;
    cl_mem pm = cl_test_buffer(&cl, CL_MEM_COPY_HOST_PTR, sizeof perm, perm);
    cl_mem so = cl_test_buffer(&cl, CL_MEM_COPY_HOST_PTR, sizeof zero, zero);
    k = cl_test_kernel(&cl, "scatter");
    arg(k, 0, sizeof pm, &pm), arg(k, 1, sizeof ib, &ib), arg(k, 2, sizeof so, &so);
    run(k, 1, NULL, (size_t[]){N}, (size_t[]){16});
    cl_test_dump(&cl, so, sizeof zero, dump);
    clReleaseKernel(k);

    cl_mem all[] = {fa, fb, ia, ib, ic, sums, sd, ip, al, sub_in, sub_out, parent, hi, ho,
                    c1, c2, pm, so};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        clReleaseMemObject(all[i]);
    cl_test_close(&cl);
    fclose(dump);
    printf("done\n");
    return 0;
}
