/* libskmd/xfer/copy_pool.h: large host copies shared among a pool of host threads, for the
 * transfer engine's staging copies (transfer.c). */
#ifndef SKMD_COPY_POOL_H
#define SKMD_COPY_POOL_H

#include <stddef.h>

/* The most threads one copy is shared among, and the pool's size. */
#define SKMD_COPY_POOL_MAX_THREADS 32

/* memcpy(dst, src, n), shared among up to `nthreads` threads, the caller included (copies
 * below 1 MiB, or nthreads <= 1, the caller makes alone). Several callers may copy at
 * once: the pool grows with them, up to the cores online. */
void skmd_copy_pool_copy(void *dst, const void *src, size_t n, int nthreads);

/* Cores online. */
int skmd_copy_pool_cores(void);

/* Joins the pool's threads (at exit; a later copy starts them again). */
void skmd_copy_pool_shutdown(void);

#endif
