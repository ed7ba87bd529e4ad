/* tests/split/told.c: the same two kernels made from three programs, each launched as one
 * work-group (too few to split), as apps that rebuild their programs do. Under forced
 * shares libskmd tells why a kernel runs whole once per kernel name and reason, not once
 * per program (tests/split/test-split.sh told). */
#include "../common/cl_test.h"

static const char *source =
    "__kernel void one_group(__global int *a) { a[get_global_id(0)] = 1; }\n"
    "__kernel void one_group_too(__global int *a) { a[get_global_id(0)] += 2; }\n";

int main(void)
{
    struct cl_test t;
    cl_test_open(&t, 0, NULL, NULL);
    cl_mem buf = cl_test_buffer(&t, CL_MEM_READ_WRITE, 64 * sizeof(cl_int), NULL);
    size_t global = 64, local = 64;
    for (int round = 0; round < 3; round++) {
        cl_program program = cl_test_build(&t, source, NULL);
        const char *names[] = {"one_group", "one_group_too"};
        for (int k = 0; k < 2; k++) {
            cl_int err;
            cl_kernel kernel = clCreateKernel(program, names[k], &err);
            CL_CHECK(err);
            CL_CHECK(clSetKernelArg(kernel, 0, sizeof(buf), &buf));
            CL_CHECK(clEnqueueNDRangeKernel(t.queue, kernel, 1, NULL, &global, &local, 0,
                                            NULL, NULL));
            CL_CHECK(clReleaseKernel(kernel));
        }
        CL_CHECK(clFinish(t.queue));
        CL_CHECK(clReleaseProgram(program));
    }
    cl_int out[64];
    CL_CHECK(clEnqueueReadBuffer(t.queue, buf, CL_TRUE, 0, sizeof(out), out, 0, NULL, NULL));
    for (int i = 0; i < 64; i++)
        CL_EXPECT(out[i] == 3);
    CL_CHECK(clReleaseMemObject(buf));
    cl_test_close(&t);
    printf("told: ok\n");
    return 0;
}
