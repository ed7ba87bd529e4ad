/* libskmd/support/log.h: the one log of libskmd ("libskmd: LEVEL: message" lines).
 *
 * SKMD_LOG picks the level and, optionally, a file (see controls.def). Thread-safe: each
 * message is written with one write() call. No OpenCL; also linked into tools and tests.
 */
#ifndef SKMD_LOG_H
#define SKMD_LOG_H

#include "support/log_level.h"

/* Writes one line if `level` is enabled; a trailing newline is added when missing. */
void skmd_log(enum skmd_log_level level, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Whether messages of `level` are written: to skip building costly messages. */
int skmd_log_enabled(enum skmd_log_level level);

/* 1 the first time the process asks with `key` (a hash of what a message says), 0 after:
 * a warning about kernels of one name then shows once, however many programs make them.
 * Past a few thousand keys every key counts as seen. */
int skmd_log_first(unsigned long long key);

#endif
