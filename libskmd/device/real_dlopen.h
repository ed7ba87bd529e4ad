/* libskmd/device/real_dlopen.h: the C library's dlopen, past libskmd's own (see
 * real_dlopen.c). */
#ifndef SKMD_REAL_DLOPEN_H
#define SKMD_REAL_DLOPEN_H

/* The C library's dlopen, for libskmd's own loads: a call to plain dlopen could come back
 * through another interposer (a sanitizer's) to libskmd's, which would hand libskmd the
 * loader it is looking for as itself. */
void *skmd_real_dlopen(const char *file, int flags);

#endif
