/* libskmd/support/config_warnings.c: the controls as libskmd reads them, skmd_config():
 * the process's controls (config.c), each problem met parsing them logged once, on the
 * first call. Above log.c, whose own set-up reads SKMD_LOG without logging. */
#include <pthread.h>

#include "support/config.h"
#include "support/log.h"

static pthread_once_t warn_once = PTHREAD_ONCE_INIT;

static void log_process_warnings(void)
{
    const struct skmd_config_warnings *w = skmd_config_process_warnings();
    for (int i = 0; i < w->count; i++)
        skmd_log(SKMD_LOG_WARN, "%s", w->text[i]);
    for (int i = 0; i < w->note_count; i++)
        skmd_log(SKMD_LOG_DEBUG, "%s", w->note[i]);
}

const struct skmd_config *skmd_config(void)
{
    const struct skmd_config *cfg = skmd_config_quiet();
    pthread_once(&warn_once, log_process_warnings);
    return cfg;
}
