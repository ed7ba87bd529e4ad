/* libskmd/api/bypass.c: one line at exit when libskmd was preloaded into an OpenCL app and
 * no OpenCL call of the app reached it, so that the user learns the app went around it
 * (its own copy of the loader, dlmopen, a static loader, a driver opened by name...).
 *
 * "Reached": skmd_init() ran (every export and the ICD entry call it first); it sets the
 * SKMD platform's magic. Quiet when libskmd is not in LD_PRELOAD (an ICD is only loaded
 * by a call, a linked libskmd is the app's choice), and in processes that hold no OpenCL
 * loader (the shells, compilers and tools that a preloaded environment also runs). */
#include <dlfcn.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>

#include "support/log.h"
#include "support/object.h"

static int is_loader(struct dl_phdr_info *info, size_t size, void *found)
{
    (void)size;
    const char *name = info->dlpi_name ? strrchr(info->dlpi_name, '/') : NULL;
    name = name ? name + 1 : info->dlpi_name;
    if (name && strncmp(name, "libOpenCL.so", 12) == 0)
        *(int *)found = 1;
    return 0;
}

/* Whether this copy of libskmd is named in LD_PRELOAD. */
static int preloaded(void)
{
    const char *preload = getenv("LD_PRELOAD");
    Dl_info self;
    if (!preload || !dladdr((void *)preloaded, &self) || !self.dli_fname)
        return 0;
    const char *base = strrchr(self.dli_fname, '/');
    base = base ? base + 1 : self.dli_fname;
    return strstr(preload, base) != NULL;
}

__attribute__((destructor)) static void warn_if_bypassed(void)
{
    if (skmd_state.platform.obj.magic == SKMD_MAGIC || !preloaded())
        return;
    int loader = 0;
    dl_iterate_phdr(is_loader, &loader);
    if (loader)
        skmd_log(SKMD_LOG_WARN, "bypassed: the app holds an OpenCL loader but no OpenCL "
                                "call of it reached libskmd; nothing ran on the SKMD device");
}
