/* tests/native-source/ids.c DUMP_FILE: every work-item function a share must answer as
 * the whole launch would, written per work-item and dumped: group ids, numbers of groups,
 * global sizes and offsets, global and local ids for dimensions 0..3 (3: out of range),
 * with the dimension a run-time value, plus get_global_linear_id where the device has
 * OpenCL C 2.0 or later. 3-D and 2-D launches with global offsets, group counts no share
 * divides; the dump must be byte-identical under libskmd to a native run. */
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include "../common/cl_test.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VALUES 25 /* per work-item */

static const char *source =
    "__kernel void ids(__global uint *out, uint dims) {\n"
    "  size_t i = 0, gsz = 1;\n"
    "  for (uint d = 0; d < dims; d++) gsz *= get_global_size(d);\n"
    "  for (uint d = dims; d-- > 0;)\n"
    "    i = i * get_global_size(d) + (get_global_id(d) - get_global_offset(d));\n"
    "  __global uint *o = out + i * 25;\n"
    "  for (uint d = 0; d < 4; d++) {\n"
    "    o[6 * d + 0] = (uint)get_group_id(d);\n"
    "    o[6 * d + 1] = (uint)get_num_groups(d);\n"
    "    o[6 * d + 2] = (uint)get_global_size(d);\n"
    "    o[6 * d + 3] = (uint)get_global_offset(d);\n"
    "    o[6 * d + 4] = (uint)get_global_id(d);\n"
    "    o[6 * d + 5] = (uint)get_local_id(d);\n"
    "  }\n"
    "#if __OPENCL_C_VERSION__ >= 200\n"
    "  o[24] = (uint)get_global_linear_id();\n"
    "#else\n"
    "  o[24] = (uint)gsz;\n"
    "#endif\n"
    "}\n";

static struct cl_test cl;
static cl_kernel k;
static FILE *dump;

static void launch(cl_uint dims, const size_t *offset, const size_t *global,
                  const size_t *local)
{
    size_t items = 1;
    for (cl_uint d = 0; d < dims; d++)
        items *= global[d];
    size_t size = items * VALUES * sizeof(cl_uint);
    cl_mem b = cl_test_buffer(&cl, CL_MEM_WRITE_ONLY, size, NULL);
    CL_CHECK(clSetKernelArg(k, 0, sizeof b, &b));
    CL_CHECK(clSetKernelArg(k, 1, sizeof dims, &dims));
    CL_CHECK(clEnqueueNDRangeKernel(cl.queue, k, dims, offset, global, local, 0, NULL, NULL));
    cl_test_dump(&cl, b, size, dump);
    CL_CHECK(clReleaseMemObject(b));
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s DUMP_FILE\n", argv[0]);
        return 2;
    }
    char version[128] = "";
    cl_test_open(&cl, 0, NULL, NULL);
    CL_CHECK(clGetDeviceInfo(cl.device, CL_DEVICE_OPENCL_C_VERSION, sizeof version, version, NULL));
    /* "OpenCL C 1.2 ...": a major version of 2 or more has get_global_linear_id. */
    const char *options = strncmp(version, "OpenCL C ", 9) == 0 && version[9] >= '2'
                              ? "-cl-std=CL2.0" : "";
    cl.program = cl_test_build(&cl, source, options);
    k = cl_test_kernel(&cl, "ids");
    dump = fopen(argv[1], "wb");
    if (!dump) {
        perror(argv[1]);
        return 1;
    }
    launch(3, (size_t[]){3, 1, 2}, (size_t[]){8, 6, 10}, (size_t[]){2, 3, 5});
    launch(2, (size_t[]){5, 7}, (size_t[]){21, 12}, (size_t[]){3, 2});
    launch(1, (size_t[]){11}, (size_t[]){96}, (size_t[]){4});
    int bad = fclose(dump) != 0;
    clReleaseKernel(k);
    cl_test_close(&cl);
    printf("%s (%s)\n", bad ? "failed" : "ok", options[0] ? options : "OpenCL C 1.x");
    return bad;
}
