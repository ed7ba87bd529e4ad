/* repro-context-duplicate-property: clCreateContext and clCreateContextFromType must
 * return CL_INVALID_PROPERTY when one property name appears twice in the list (OpenCL
 * 1.1+; piglit's api@clcreatecontext and api@clcreatecontextfromtype check it).
 * Exit 0 when both do, 1 when either accepts the list, 2 when there is no platform. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>

int main(void)
{
    cl_platform_id platform;
    cl_device_id device;
    if (clGetPlatformIDs(1, &platform, NULL) != CL_SUCCESS ||
        clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL) != CL_SUCCESS) {
        fprintf(stderr, "repro-context-duplicate-property: no OpenCL platform or device\n");
        return 2;
    }
    const cl_context_properties twice[] = {
        CL_CONTEXT_PLATFORM, (cl_context_properties)platform,
        CL_CONTEXT_PLATFORM, (cl_context_properties)platform, 0};
    int bad = 0;

    cl_int err = CL_SUCCESS;
    cl_context ctx = clCreateContext(twice, 1, &device, NULL, NULL, &err);
    if (err != CL_INVALID_PROPERTY || ctx) {
        printf("FAIL clCreateContext with CL_CONTEXT_PLATFORM twice: error %d, want "
               "CL_INVALID_PROPERTY (%d)\n", err, CL_INVALID_PROPERTY);
        bad = 1;
    }
    if (ctx)
        clReleaseContext(ctx);

    err = CL_SUCCESS;
    ctx = clCreateContextFromType(twice, CL_DEVICE_TYPE_ALL, NULL, NULL, &err);
    if (err != CL_INVALID_PROPERTY || ctx) {
        printf("FAIL clCreateContextFromType with CL_CONTEXT_PLATFORM twice: error %d, want "
               "CL_INVALID_PROPERTY (%d)\n", err, CL_INVALID_PROPERTY);
        bad = 1;
    }
    if (ctx)
        clReleaseContext(ctx);
    if (!bad)
        printf("PASS duplicate context property: CL_INVALID_PROPERTY from both\n");
    return bad;
}
