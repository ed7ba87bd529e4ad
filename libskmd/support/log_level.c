/* libskmd/support/log_level.c: the log's levels by name, and SKMD_LOG's value parsed. */
#include "support/log_level.h"

#include <string.h>
#include <strings.h>

static const char *const level_names[] = {"error", "warn", "info", "debug"};

const char *skmd_log_level_name(enum skmd_log_level level)
{
    return (unsigned)level <= SKMD_LOG_DEBUG ? level_names[level] : "?";
}

int skmd_log_parse(const char *spec, enum skmd_log_level *level, const char **file)
{
    size_t n = strcspn(spec, ":");
    for (int i = SKMD_LOG_ERROR; i <= SKMD_LOG_DEBUG; i++) {
        if (strlen(level_names[i]) == n && strncasecmp(spec, level_names[i], n) == 0) {
            if (spec[n] == ':' && spec[n + 1] == '\0')
                return -1; /* "debug:" names no file */
            *level = (enum skmd_log_level)i;
            *file = spec[n] == ':' ? spec + n + 1 : NULL;
            return 0;
        }
    }
    return -1;
}
