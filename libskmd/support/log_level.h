/* libskmd/support/log_level.h: the log's levels, and SKMD_LOG's value ("LEVEL" or
 * "LEVEL:FILE"): what config.c checks and log.c sets itself up from. */
#ifndef SKMD_LOG_LEVEL_H
#define SKMD_LOG_LEVEL_H

enum skmd_log_level { SKMD_LOG_ERROR, SKMD_LOG_WARN, SKMD_LOG_INFO, SKMD_LOG_DEBUG };

/* "error", "warn", "info", "debug". */
const char *skmd_log_level_name(enum skmd_log_level level);

/* Parses an SKMD_LOG value, "LEVEL" or "LEVEL:FILE". Returns 0 and sets *level and
 * *file (pointing into spec, or NULL for stderr) when valid, else -1. */
int skmd_log_parse(const char *spec, enum skmd_log_level *level, const char **file);

#endif
