/* libskmd/support/log.h: the one log of libskmd ("libskmd: LEVEL: message" lines).
 *
 * SKMD_LOG picks the level and, optionally, a file (see controls.def). Thread-safe: each
 * message is written with one write() call. No OpenCL; also linked into tools and tests.
 */
#ifndef SKMD_LOG_H
#define SKMD_LOG_H

enum skmd_log_level { SKMD_LOG_ERROR, SKMD_LOG_WARN, SKMD_LOG_INFO, SKMD_LOG_DEBUG };

/* Writes one line if `level` is enabled; a trailing newline is added when missing. */
void skmd_log(enum skmd_log_level level, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Whether messages of `level` are written: to skip building costly messages. */
int skmd_log_enabled(enum skmd_log_level level);

/* "error", "warn", "info", "debug". */
const char *skmd_log_level_name(enum skmd_log_level level);

/* Parses an SKMD_LOG value, "LEVEL" or "LEVEL:FILE". Returns 0 and sets *level and
 * *file (pointing into spec, or NULL for stderr) when valid, else -1. */
int skmd_log_parse(const char *spec, enum skmd_log_level *level, const char **file);

#endif
