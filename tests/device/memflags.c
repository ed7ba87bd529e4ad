/* tests/device/memflags.c: memory flags outside the specification's (a vendor's) are
 * decided by the member drivers: CL_MEM_USE_PERSISTENT_MEM_AMD (1 << 6), which PoCL takes,
 * makes a working buffer (and sub-buffer); a bit no driver knows is CL_INVALID_VALUE, as
 * the driver says natively. Runs natively and under libskmd alike. */
#include <stdio.h>
#include <string.h>
#include <CL/cl.h>

#include "check.h"
#include "cl_test.h"

#define PERSISTENT_MEM_AMD ((cl_mem_flags)1 << 6)
#define BOGUS ((cl_mem_flags)1 << 40)

static const char source[] =
    "__kernel void add1(__global int *a) { a[get_global_id(0)] += 1; }\n";

int main(void)
{
    struct cl_test t;
    cl_int err;
    cl_test_open(&t, 0, source, NULL);
    enum { N = 1024 };
    int host[N], back[N];
    for (int i = 0; i < N; i++)
        host[i] = i * 7;

    /* The vendor flag the members take: a buffer that works like any other. */
    cl_mem buf = clCreateBuffer(t.context, CL_MEM_READ_WRITE | PERSISTENT_MEM_AMD,
                                sizeof host, NULL, &err);
    EXPECT(err == CL_SUCCESS && buf, "vendor flag the members take: %d", err);
    if (buf) {
        cl_mem_flags flags = 0;
        CL_CHECK(clGetMemObjectInfo(buf, CL_MEM_FLAGS, sizeof flags, &flags, NULL));
        CHECK(flags == (CL_MEM_READ_WRITE | PERSISTENT_MEM_AMD));
        CL_CHECK(clEnqueueWriteBuffer(t.queue, buf, CL_TRUE, 0, sizeof host, host, 0, NULL,
                                      NULL));
        cl_kernel k = cl_test_kernel(&t, "add1");
        CL_CHECK(clSetKernelArg(k, 0, sizeof buf, &buf));
        size_t global = N, local = 64;
        CL_CHECK(clEnqueueNDRangeKernel(t.queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
        CL_CHECK(clEnqueueReadBuffer(t.queue, buf, CL_TRUE, 0, sizeof back, back, 0, NULL,
                                     NULL));
        int wrong = 0;
        for (int i = 0; i < N; i++)
            wrong += back[i] != i * 7 + 1;
        EXPECT(wrong == 0, "%d results wrong in a buffer with a vendor flag", wrong);
        cl_buffer_region region = {0, 256};
        cl_mem sub = clCreateSubBuffer(buf, CL_MEM_READ_WRITE | PERSISTENT_MEM_AMD,
                                       CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
        EXPECT(err == CL_SUCCESS && sub, "sub-buffer with a vendor flag: %d", err);
        if (sub)
            clReleaseMemObject(sub);
        clReleaseKernel(k);
        clReleaseMemObject(buf);
    }
    /* With the app's data (the member's real buffer is made at once). */
    buf = clCreateBuffer(t.context, CL_MEM_COPY_HOST_PTR | PERSISTENT_MEM_AMD, sizeof host,
                         host, &err);
    EXPECT(err == CL_SUCCESS && buf, "vendor flag with COPY_HOST_PTR: %d", err);
    if (buf) {
        CL_CHECK(clEnqueueReadBuffer(t.queue, buf, CL_TRUE, 0, sizeof back, back, 0, NULL,
                                     NULL));
        CHECK(!memcmp(back, host, sizeof host));
        clReleaseMemObject(buf);
    }

    /* A bit no member knows: refused, asked twice (the verdict is kept). */
    for (int round = 0; round < 2; round++) {
        buf = clCreateBuffer(t.context, CL_MEM_READ_WRITE | BOGUS, 64, NULL, &err);
        EXPECT(err == CL_INVALID_VALUE && !buf, "unknown flag bit: %d", err);
        if (buf)
            clReleaseMemObject(buf);
    }
    cl_test_close(&t);
    return check_report("memflags");
}
