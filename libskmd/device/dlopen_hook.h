/* libskmd/device/dlopen_hook.h: libskmd's exported dlopen (see dlopen_hook.c). */
#ifndef SKMD_DLOPEN_HOOK_H
#define SKMD_DLOPEN_HOOK_H

/* The C library's dlopen, for libskmd's own loads: a call to plain dlopen could come back
 * through another interposer (a sanitizer's) to libskmd's, which would hand libskmd the
 * loader it is looking for as itself. */
void *skmd_real_dlopen(const char *file, int flags);

#endif
