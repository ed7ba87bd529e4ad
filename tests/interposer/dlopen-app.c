/* tests/interposer/dlopen-app.c: an app that opens the OpenCL loader itself, as hashcat
 * and ctypes bindings do, and looks its entry points up in that handle. Prints the name of
 * the first platform it sees ("SKMD" under libskmd) and how many devices it has. */
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>
#include <dlfcn.h>
#include <stdio.h>

typedef cl_int (*get_platforms_fn)(cl_uint, cl_platform_id *, cl_uint *);
typedef cl_int (*platform_info_fn)(cl_platform_id, cl_platform_info, size_t, void *, size_t *);
typedef cl_int (*get_devices_fn)(cl_platform_id, cl_device_type, cl_uint, cl_device_id *,
                                 cl_uint *);

int main(int argc, char **argv)
{
    const char *file = argc > 1 ? argv[1] : "libOpenCL.so.1";
    void *h = dlopen(file, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        fprintf(stderr, "dlopen %s: %s\n", file, dlerror());
        return 1;
    }
    get_platforms_fn get_platforms = (get_platforms_fn)dlsym(h, "clGetPlatformIDs");
    platform_info_fn platform_info = (platform_info_fn)dlsym(h, "clGetPlatformInfo");
    get_devices_fn get_devices = (get_devices_fn)dlsym(h, "clGetDeviceIDs");
    cl_platform_id p;
    cl_uint n = 0;
    char name[256] = "";
    if (!get_platforms || !platform_info || !get_devices ||
        get_platforms(1, &p, NULL) != CL_SUCCESS ||
        platform_info(p, CL_PLATFORM_NAME, sizeof name, name, NULL) != CL_SUCCESS ||
        get_devices(p, CL_DEVICE_TYPE_ALL, 0, NULL, &n) != CL_SUCCESS) {
        fprintf(stderr, "the OpenCL calls through %s failed\n", file);
        return 1;
    }
    printf("%s %u\n", name, n);
    /* no dlclose: the loader and its drivers stay for the process, as in most apps */
    return 0;
}
