/* tests/verify/verify_app.c: a small app whose launches split with exact footprints, for
 * SKMD_VERIFY (tests/verify/test-verify.sh): `scale` writes one buffer from another,
 * `bump` reads and writes one buffer in place (the snapshot before the split must give
 * the whole run the bytes the split read), `rows` is 2-D. It checks its own results and
 * prints PASSED or FAILED. */
#include <stdio.h>
#include <stdlib.h>

#include "../common/cl_test.h"

#define N 16384 /* 256 work-groups of 64 */
#define W 128   /* rows: W x (N / W), work-groups of 16 x 4 */

static const char *source =
    "__kernel void scale(__global const float *in, __global float *out, float k) {\n"
    "  size_t i = get_global_id(0);\n"
    "  out[i] = in[i] * k + 1.0f;\n"
    "}\n"
    "__kernel void bump(__global int *a) {\n"
    "  size_t i = get_global_id(0);\n"
    "  a[i] = a[i] * 3 + 1;\n"
    "}\n"
    "__kernel void rows(__global const int *a, __global int *b, int w) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  b[y * w + x] = a[y * w + x] + 1000 * y;\n"
    "}\n";

static void run(const struct cl_test *t, cl_kernel k, cl_uint dims, const size_t *global,
                const size_t *local)
{
    CL_CHECK(clEnqueueNDRangeKernel(t->queue, k, dims, NULL, global, local, 0, NULL, NULL));
}

int main(void)
{
    static float in[N], out[N];
    static int a[N], b[N];
    for (int i = 0; i < N; i++) {
        in[i] = (float)i * 0.25f;
        a[i] = i;
    }
    struct cl_test t;
    cl_test_open(&t, 0, source, NULL);
    cl_mem min = cl_test_buffer(&t, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof in, in);
    cl_mem mout = cl_test_buffer(&t, CL_MEM_WRITE_ONLY, sizeof out, NULL);
    cl_mem ma = cl_test_buffer(&t, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof a, a);
    cl_mem mb = cl_test_buffer(&t, CL_MEM_READ_WRITE, sizeof b, NULL);
    cl_kernel scale = cl_test_kernel(&t, "scale"), bump = cl_test_kernel(&t, "bump"),
              rows = cl_test_kernel(&t, "rows");
    size_t global = N, local = 64, global2[2] = {W, N / W}, local2[2] = {16, 4};
    float ks[2] = {2.0f, 3.0f};
    int w = W;
    CL_CHECK(clSetKernelArg(scale, 0, sizeof min, &min));
    CL_CHECK(clSetKernelArg(scale, 1, sizeof mout, &mout));
    for (int r = 0; r < 2; r++) {
        CL_CHECK(clSetKernelArg(scale, 2, sizeof ks[r], &ks[r]));
        run(&t, scale, 1, &global, &local);
    }
    CL_CHECK(clSetKernelArg(bump, 0, sizeof ma, &ma));
    for (int r = 0; r < 3; r++)
        run(&t, bump, 1, &global, &local);
    CL_CHECK(clSetKernelArg(rows, 0, sizeof ma, &ma));
    CL_CHECK(clSetKernelArg(rows, 1, sizeof mb, &mb));
    CL_CHECK(clSetKernelArg(rows, 2, sizeof w, &w));
    run(&t, rows, 2, global2, local2);
    CL_CHECK(clEnqueueReadBuffer(t.queue, mout, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    CL_CHECK(clEnqueueReadBuffer(t.queue, ma, CL_TRUE, 0, sizeof a, a, 0, NULL, NULL));
    CL_CHECK(clEnqueueReadBuffer(t.queue, mb, CL_TRUE, 0, sizeof b, b, 0, NULL, NULL));
    int wrong = 0;
    for (int i = 0; i < N; i++) {
        int bumped = ((i * 3 + 1) * 3 + 1) * 3 + 1;
        wrong += out[i] != (float)i * 0.25f * 3.0f + 1.0f;
        wrong += a[i] != bumped;
        wrong += b[i] != bumped + 1000 * (i / W);
    }
    printf("%s: %d wrong elements\n", wrong ? "FAILED" : "PASSED", wrong);
    clReleaseKernel(scale);
    clReleaseKernel(bump);
    clReleaseKernel(rows);
    clReleaseMemObject(min);
    clReleaseMemObject(mout);
    clReleaseMemObject(ma);
    clReleaseMemObject(mb);
    cl_test_close(&t);
    return wrong != 0;
}
