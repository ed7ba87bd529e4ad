/* libskmd/device/dlopen_hook.c: apps that open the OpenCL loader themselves still reach
 * libskmd.
 *
 * Under LD_PRELOAD an app that calls dlopen("libOpenCL.so.1") and looks its entry points
 * up in that handle (hashcat, plugin hosts, bindings written with ctypes or dlopen) would
 * reach the real loader and bypass libskmd. libskmd therefore exports dlopen: a request
 * for a file named libOpenCL.so* from outside libskmd gets a handle to libskmd itself,
 * whose exports are the whole OpenCL API; everything else goes to the C library's dlopen
 * (real_dlopen.c).
 * The app's reference carries glibc's symbol version (GLIBC_2.34, or GLIBC_2.2.5 for
 * programs built before it), so libskmd defines dlopen under both (libskmd.map.in). */
#include <dlfcn.h>
#include <string.h>

#include "device/icd_mode.h"
#include "device/real_dlopen.h"
#include "support/log.h"

static int names_opencl_loader(const char *file)
{
    const char *base = strrchr(file, '/');
    base = base ? base + 1 : file;
    return strncmp(base, "libOpenCL.so", 12) == 0;
}

static void *hook(const char *file, int flags, void *caller)
{
    Dl_info own, from = {0};
    if (file && names_opencl_loader(file) && dladdr((void *)hook, &own) &&
        (!dladdr(caller, &from) || from.dli_fbase != own.dli_fbase) &&
        !skmd_loaded_as_icd()) {
        skmd_log(SKMD_LOG_INFO, "%s opened %s itself: it gets libskmd (%s)",
                 from.dli_fname ? from.dli_fname : "the app", file, own.dli_fname);
        return skmd_real_dlopen(own.dli_fname, flags);
    }
    return skmd_real_dlopen(file, flags);
}

void *skmd_dlopen(const char *file, int flags);
void *skmd_dlopen_2_2_5(const char *file, int flags);
__asm__(".symver skmd_dlopen, dlopen@@GLIBC_2.34");
__asm__(".symver skmd_dlopen_2_2_5, dlopen@GLIBC_2.2.5");

void *skmd_dlopen(const char *file, int flags)
{
    return hook(file, flags, __builtin_return_address(0));
}

void *skmd_dlopen_2_2_5(const char *file, int flags)
{
    return hook(file, flags, __builtin_return_address(0));
}
