/* libskmd/device/loader.c: opens the real OpenCL ICD loader privately and fills skmd_real.
 *
 * Lazy (from skmd_init, never from a constructor): a child process that inherits
 * LD_PRELOAD but never calls OpenCL pays nothing.
 */
#include "device/loader.h"

#include <dlfcn.h>
#include <string.h>

#include "support/config.h"
#include "device/real_dlopen.h"
#include "device/icd_mode.h"
#include "support/log.h"

struct skmd_real_table skmd_real;
_Thread_local int skmd_in_real_call;

const char *const skmd_api_names[SKMD_API_COUNT] = {
#define SKMD_API(ret, name, params, args, err, ver) #name,
#include "device/api.def"
#undef SKMD_API
};

static void *loader_handle;

int skmd_loader_open(void)
{
    if (skmd_loaded_as_icd())
        return skmd_icd_loader_open();
    const char *path = skmd_config()->opencl_library;
    if (!path[0])
        path = "libOpenCL.so.1";
    loader_handle = skmd_real_dlopen(path, RTLD_LOCAL | RTLD_NOW);
    if (!loader_handle) {
        skmd_log(SKMD_LOG_ERROR, "cannot open the OpenCL ICD loader %s (%s): no OpenCL "
                 "platform is available", path, dlerror());
        return -1;
    }
    /* The entry points are looked up by name in the loader itself, never through the
     * global scope (which would find libskmd's own exports). */
    void **slot = (void **)&skmd_real;
    for (int i = 0; i < SKMD_API_COUNT; i++) {
        slot[i] = dlsym(loader_handle, skmd_api_names[i]);
        if (!slot[i])
            skmd_log(SKMD_LOG_DEBUG, "the loader %s lacks %s", path, skmd_api_names[i]);
    }
    if (!skmd_real.clGetPlatformIDs) {
        skmd_log(SKMD_LOG_ERROR, "%s is not an OpenCL loader (no clGetPlatformIDs)", path);
        memset(&skmd_real, 0, sizeof skmd_real);
        return -1;
    }
    return 0;
}
