/* libskmd/support/log.c: "libskmd: LEVEL: message" lines to stderr or the SKMD_LOG file. */
#include "support/log.h"

#include "support/config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static enum skmd_log_level log_level = SKMD_LOG_WARN;
static int log_fd = STDERR_FILENO;
static pthread_once_t log_once = PTHREAD_ONCE_INIT;

/* Writes all of `text`, retrying short writes; one call in the common case so that the
 * lines of several threads do not interleave. */
static void write_all(int fd, const char *text, size_t len)
{
    while (len > 0) {
        ssize_t n = write(fd, text, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return;
        text += n;
        len -= (size_t)n;
    }
}

static void set_up_log(void)
{
    const char *file = NULL;
    /* config.c has already checked the value (or used the default "warn") */
    if (skmd_log_parse(skmd_config_quiet()->log, &log_level, &file) != 0)
        log_level = SKMD_LOG_WARN;
    if (!file)
        return;
    int fd = open(file, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
        char line[512];
        int len = snprintf(line, sizeof(line),
                           "libskmd: warn: SKMD_LOG: cannot open %s (%s); logging to stderr\n",
                           file, strerror(errno));
        write_all(STDERR_FILENO, line, len < (int)sizeof(line) ? (size_t)len : sizeof(line) - 1);
        return;
    }
    log_fd = fd;
}

int skmd_log_enabled(enum skmd_log_level level)
{
    pthread_once(&log_once, set_up_log);
    return level <= log_level;
}

void skmd_log(enum skmd_log_level level, const char *fmt, ...)
{
    if (!skmd_log_enabled(level))
        return;
    char line[2048];
    int len = snprintf(line, sizeof(line), "libskmd: %s: ", skmd_log_level_name(level));
    va_list ap;
    va_start(ap, fmt);
    int body = vsnprintf(line + len, sizeof(line) - (size_t)len, fmt, ap);
    va_end(ap);
    size_t total = (size_t)len + (body > 0 ? (size_t)body : 0);
    if (total > sizeof(line) - 2) { /* cut: mark it and keep room for the newline */
        total = sizeof(line) - 2;
        memcpy(line + total - 3, "...", 3);
    }
    if (total == 0 || line[total - 1] != '\n')
        line[total++] = '\n';
    write_all(log_fd, line, total);
}

/* The keys skmd_log_first() has seen: open addressing, each slot set once by a CAS from 0
 * (key 0 is taken as 1). */
#define FIRST_SLOTS 4096
static unsigned long long first_keys[FIRST_SLOTS];

int skmd_log_first(unsigned long long key)
{
    if (key == 0)
        key = 1;
    for (unsigned i = 0; i < FIRST_SLOTS; i++) {
        unsigned long long *slot = &first_keys[(key + i) % FIRST_SLOTS];
        unsigned long long seen = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
        if (seen == 0 && __atomic_compare_exchange_n(slot, &seen, key, 0, __ATOMIC_ACQ_REL,
                                                     __ATOMIC_ACQUIRE))
            return 1;
        if (seen == key)
            return 0;
    }
    return 0;
}
