/* tests/device/subdevices.c: device fission of the SKMD device.
 *   subdevices --units   (natively) prints every real device's compute units, in order
 *   subdevices UNITS...  (under libskmd, given that list) checks that sub-devices are
 *                        subsets of whole members, in member order, and that each is a
 *                        device of its own: queries, contexts, queues, builds and
 *                        launches, whose results are checked. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <CL/cl.h>

#include "check.h"
#include "cl_test.h"

static const char source[] =
    "__kernel void scale(__global const int *in, __global int *out, int k)\n"
    "{ size_t i = get_global_id(0); out[i] = in[i] * k + (int)get_group_id(0); }\n";

static cl_uint uint_info(cl_device_id d, cl_device_info param)
{
    cl_uint v = 0;
    CL_CHECK(clGetDeviceInfo(d, param, sizeof v, &v, NULL));
    return v;
}

/* The partition types d reports, 0-padded. */
static size_t partition_types(cl_device_id d, cl_device_partition_property *out, size_t max)
{
    size_t bytes = 0;
    memset(out, 0, max * sizeof *out);
    CL_CHECK(clGetDeviceInfo(d, CL_DEVICE_PARTITION_PROPERTIES, max * sizeof *out, out,
                             &bytes));
    size_t n = 0;
    while (n < bytes / sizeof *out && out[n])
        n++;
    return n;
}

/* Runs `scale` on a queue of dev (in ctx) over n items and checks every result. */
static void run_on(cl_context ctx, cl_program prog, cl_device_id dev, int k)
{
    enum { N = 4096, LOCAL = 64 };
    cl_int err;
    int *in = malloc(N * sizeof *in), *out = malloc(N * sizeof *out);
    for (int i = 0; i < N; i++)
        in[i] = i * 3 - 7;
    cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
    CL_CHECK(err);
    cl_device_id qdev = NULL;
    CL_CHECK(clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof qdev, &qdev, NULL));
    CHECK(qdev == dev);
    cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * sizeof *in,
                              in, &err);
    CL_CHECK(err);
    cl_mem b = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, N * sizeof *out, NULL, &err);
    CL_CHECK(err);
    cl_kernel kern = clCreateKernel(prog, "scale", &err);
    CL_CHECK(err);
    CL_CHECK(clSetKernelArg(kern, 0, sizeof a, &a));
    CL_CHECK(clSetKernelArg(kern, 1, sizeof b, &b));
    CL_CHECK(clSetKernelArg(kern, 2, sizeof k, &k));
    size_t global = N, local = LOCAL;
    for (int rep = 0; rep < 2; rep++) /* a second launch reuses resident copies */
        CL_CHECK(clEnqueueNDRangeKernel(q, kern, 1, NULL, &global, &local, 0, NULL, NULL));
    CL_CHECK(clEnqueueReadBuffer(q, b, CL_TRUE, 0, N * sizeof *out, out, 0, NULL, NULL));
    int wrong = 0;
    for (int i = 0; i < N; i++)
        wrong += out[i] != in[i] * k + i / LOCAL;
    EXPECT(wrong == 0, "%d of %d results wrong on a sub-device (k=%d)", wrong, N, k);
    clReleaseKernel(kern);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseCommandQueue(q);
    free(in);
    free(out);
}

/* Natively: the real devices' compute units, the members libskmd will make of them. */
static int print_units(void)
{
    cl_platform_id plats[8];
    cl_uint np = 0;
    CL_CHECK(clGetPlatformIDs(8, plats, &np));
    for (cl_uint p = 0; p < np && p < 8; p++) {
        cl_device_id devs[16];
        cl_uint nd = 0;
        if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 16, devs, &nd) != CL_SUCCESS)
            continue;
        for (cl_uint d = 0; d < nd && d < 16; d++)
            printf("%u ", uint_info(devs[d], CL_DEVICE_MAX_COMPUTE_UNITS));
    }
    printf("\n");
    return 0;
}

static cl_device_partition_property *by_counts(cl_device_partition_property *out,
                                               const cl_uint *counts, int n)
{
    out[0] = CL_DEVICE_PARTITION_BY_COUNTS;
    for (int i = 0; i < n; i++)
        out[i + 1] = (cl_device_partition_property)counts[i];
    out[n + 1] = CL_DEVICE_PARTITION_BY_COUNTS_LIST_END;
    out[n + 2] = 0;
    return out;
}

int main(int argc, char **argv)
{
    if (argc == 2 && !strcmp(argv[1], "--units"))
        return print_units();
    cl_uint units[16], members = 0, total = 0;
    for (int i = 1; i < argc && members < 16; i++)
        total += units[members++] = (cl_uint)atoi(argv[i]);
    cl_platform_id platform;
    cl_device_id root;
    cl_int err;
    CL_CHECK(clGetPlatformIDs(1, &platform, NULL));
    CL_CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &root, NULL));
    CHECK(uint_info(root, CL_DEVICE_MAX_COMPUTE_UNITS) == total);
    cl_device_partition_property types[4];
    cl_device_partition_property all[] = {CL_DEVICE_PARTITION_EQUALLY,
                                          (cl_device_partition_property)total, 0};
    if (members < 2) {
        /* One member: nothing to partition into, and the device says so. */
        CHECK(partition_types(root, types, 4) == 0);
        CHECK(uint_info(root, CL_DEVICE_PARTITION_MAX_SUB_DEVICES) == 0);
        CHECK(clCreateSubDevices(root, all, 0, NULL, NULL) == CL_INVALID_VALUE);
        return check_report("subdevices");
    }

    /* What the root device offers. */
    CHECK(partition_types(root, types, 4) == 2);
    CHECK(types[0] == CL_DEVICE_PARTITION_EQUALLY && types[1] == CL_DEVICE_PARTITION_BY_COUNTS);
    CHECK(uint_info(root, CL_DEVICE_PARTITION_MAX_SUB_DEVICES) == members);
    cl_device_id parent = (cl_device_id)1;
    CL_CHECK(clGetDeviceInfo(root, CL_DEVICE_PARENT_DEVICE, sizeof parent, &parent, NULL));
    CHECK(parent == NULL);

    /* Errors, as the spec gives them. */
    cl_device_partition_property zero[] = {CL_DEVICE_PARTITION_EQUALLY, 0, 0};
    CHECK(clCreateSubDevices(root, zero, 0, NULL, NULL) == CL_INVALID_VALUE);
    cl_device_partition_property affinity[] = {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN,
                                               CL_DEVICE_AFFINITY_DOMAIN_NUMA, 0};
    CHECK(clCreateSubDevices(root, affinity, 0, NULL, NULL) == CL_INVALID_VALUE);
    cl_device_partition_property props[24];
    cl_uint over = total + 1;
    CHECK(clCreateSubDevices(root, by_counts(props, &over, 1), 0, NULL, NULL) ==
          CL_INVALID_DEVICE_PARTITION_COUNT);
    cl_device_partition_property larger[] = {CL_DEVICE_PARTITION_EQUALLY,
                                             (cl_device_partition_property)total + 1, 0};
    CHECK(clCreateSubDevices(root, larger, 0, NULL, NULL) == CL_DEVICE_PARTITION_FAILED);
    if (units[1] > 1) { /* ends inside the second member: not whole members */
        cl_uint split_second = units[0] + 1;
        CHECK(clCreateSubDevices(root, by_counts(props, &split_second, 1), 0, NULL, NULL) ==
              CL_DEVICE_PARTITION_FAILED);
    }

    /* EQUALLY over every unit: one sub-device of all members. */
    cl_device_id subs[16];
    cl_uint nsubs = 0;
    CL_CHECK(clCreateSubDevices(root, all, 1, subs, &nsubs));
    CHECK(nsubs == 1 && uint_info(subs[0], CL_DEVICE_MAX_COMPUTE_UNITS) == total);
    CL_CHECK(clReleaseDevice(subs[0]));

    /* BY_COUNTS of each member's units: one sub-device per member. */
    by_counts(props, units, (int)members);
    CHECK(clCreateSubDevices(root, props, 1, subs, NULL) == CL_INVALID_VALUE); /* room */
    CL_CHECK(clCreateSubDevices(root, props, 0, NULL, &nsubs));
    CHECK(nsubs == members);
    if (nsubs != members)
        return check_report("subdevices");
    CL_CHECK(clCreateSubDevices(root, props, nsubs, subs, NULL));
    for (cl_uint i = 0; i < nsubs; i++) {
        CHECK(uint_info(subs[i], CL_DEVICE_MAX_COMPUTE_UNITS) == units[i]);
        CL_CHECK(clGetDeviceInfo(subs[i], CL_DEVICE_PARENT_DEVICE, sizeof parent, &parent,
                                 NULL));
        CHECK(parent == root);
        cl_device_partition_property type[24] = {0};
        size_t bytes = 0;
        CL_CHECK(clGetDeviceInfo(subs[i], CL_DEVICE_PARTITION_TYPE, sizeof type, type, &bytes));
        CHECK(bytes == (members + 3) * sizeof type[0] &&
              !memcmp(type, props, (members + 3) * sizeof type[0]));
        /* A one-member device cannot be partitioned further. */
        CHECK(partition_types(subs[i], type, 4) == 0);
        CHECK(clCreateSubDevices(subs[i], all, 0, NULL, NULL) == CL_INVALID_VALUE);
        CHECK(uint_info(subs[i], CL_DEVICE_REFERENCE_COUNT) == 1);
    }
    CL_CHECK(clRetainDevice(subs[0]));
    CHECK(uint_info(subs[0], CL_DEVICE_REFERENCE_COUNT) == 2);
    CL_CHECK(clReleaseDevice(subs[0]));
    CHECK(uint_info(subs[0], CL_DEVICE_REFERENCE_COUNT) == 1);
    CL_CHECK(clRetainDevice(root)); /* a root device: no count, no error */
    CL_CHECK(clReleaseDevice(root));
    CHECK(uint_info(root, CL_DEVICE_REFERENCE_COUNT) == 1);

    /* One context over every sub-device; a program built for all; a launch on each. */
    cl_context ctx = clCreateContext(NULL, nsubs, subs, NULL, NULL, &err);
    CL_CHECK(err);
    cl_uint ndev = 0;
    CL_CHECK(clGetContextInfo(ctx, CL_CONTEXT_NUM_DEVICES, sizeof ndev, &ndev, NULL));
    CHECK(ndev == nsubs);
    const char *src = source;
    cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    CL_CHECK(err);
    CL_CHECK(clBuildProgram(prog, nsubs, subs, NULL, NULL, NULL));
    CL_CHECK(clGetProgramInfo(prog, CL_PROGRAM_NUM_DEVICES, sizeof ndev, &ndev, NULL));
    CHECK(ndev == nsubs);
    for (cl_uint i = 0; i < nsubs; i++)
        run_on(ctx, prog, subs[i], (int)i + 2);
    /* The root device is not in this context. */
    CHECK(clCreateCommandQueue(ctx, root, 0, &err) == NULL && err == CL_INVALID_DEVICE);
    clReleaseProgram(prog);

    /* BY_COUNTS: the first members together (a launch split over them), the last alone. */
    cl_uint two[2] = {total - units[members - 1], units[members - 1]};
    cl_device_id pair[2];
    CL_CHECK(clCreateSubDevices(root, by_counts(props, two, 2), 2, pair, &nsubs));
    CHECK(nsubs == 2);
    CHECK(uint_info(pair[0], CL_DEVICE_MAX_COMPUTE_UNITS) == two[0]);
    CHECK(uint_info(pair[1], CL_DEVICE_MAX_COMPUTE_UNITS) == two[1]);
    CHECK(uint_info(pair[0], CL_DEVICE_PARTITION_MAX_SUB_DEVICES) == (members > 2 ? members - 1 : 0));
    cl_context ctx2 = clCreateContext(NULL, 2, pair, NULL, NULL, &err);
    CL_CHECK(err);
    prog = clCreateProgramWithSource(ctx2, 1, &src, NULL, &err);
    CL_CHECK(err);
    CL_CHECK(clBuildProgram(prog, 0, NULL, NULL, NULL, NULL));
    run_on(ctx2, prog, pair[0], 5);
    run_on(ctx2, prog, pair[1], 7);
    if (members > 2) { /* a sub-device of several members partitions again */
        cl_device_id sub2[16];
        CL_CHECK(clCreateSubDevices(pair[0], by_counts(props, units, (int)members - 1), 16,
                                    sub2, &nsubs));
        CHECK(nsubs == members - 1);
        for (cl_uint i = 0; i < nsubs && i < 16; i++) {
            CL_CHECK(clGetDeviceInfo(sub2[i], CL_DEVICE_PARENT_DEVICE, sizeof parent, &parent,
                                     NULL));
            CHECK(parent == pair[0]);
            clReleaseDevice(sub2[i]);
        }
    }
    clReleaseProgram(prog);
    clReleaseContext(ctx2);
    clReleaseDevice(pair[0]);
    clReleaseDevice(pair[1]);
    clReleaseContext(ctx);
    for (cl_uint i = 0; i < members; i++)
        clReleaseDevice(subs[i]);
    return check_report("subdevices");
}
