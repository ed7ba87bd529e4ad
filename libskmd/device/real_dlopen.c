/* libskmd/device/real_dlopen.c: the C library's dlopen, for libskmd's own loads.
 *
 * libskmd exports a dlopen of its own (dlopen_hook.c); its own loads (the system's ICD
 * loader, the real drivers) go straight to the C library's, found once under either of
 * glibc's symbol versions. */
#include <dlfcn.h>
#include <stddef.h>

#include "device/real_dlopen.h"

typedef void *(*dlopen_fn)(const char *, int);

static dlopen_fn real_dlopen(void)
{
    static dlopen_fn real;
    if (!real) {
        real = (dlopen_fn)dlvsym(RTLD_NEXT, "dlopen", "GLIBC_2.34");
        if (!real)
            real = (dlopen_fn)dlvsym(RTLD_NEXT, "dlopen", "GLIBC_2.2.5");
    }
    return real;
}

void *skmd_real_dlopen(const char *file, int flags)
{
    dlopen_fn real = real_dlopen();
    return real ? real(file, flags) : NULL;
}
