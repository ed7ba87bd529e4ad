/* tests/device/nocall.c: linked with the OpenCL loader; makes one OpenCL call only when
 * given an argument. Under LD_PRELOAD=libskmd.so, run.sh expects libskmd's exit line
 * about an app that bypassed it exactly when no call was made. */
#include <stdio.h>
#include <CL/cl.h>

int main(int argc, char **argv)
{
    (void)argv;
    cl_uint n = 0;
    if (argc > 1 && clGetPlatformIDs(0, NULL, &n) != CL_SUCCESS)
        return 1;
    printf("platforms: %u\n", n);
    return 0;
}
