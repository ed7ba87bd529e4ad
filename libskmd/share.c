/* libskmd/share.c: the share rule (see share.h). */
#include <pthread.h>
#include <stdlib.h>

#include "config.h"
#include "log.h"
#include "object.h"
#include "share.h"

static double forced[SKMD_MAX_MEMBERS];
static int nforced; /* 0: equal shares */
static pthread_once_t parse_once = PTHREAD_ONCE_INIT;

static void parse_split(void)
{
    const char *text = skmd_config()->split;
    int n = 0;
    while (*text && n < SKMD_MAX_MEMBERS) {
        char *end;
        double v = strtod(text, &end);
        if (end == text || v < 0 || (*end && *end != ',')) {
            skmd_log(SKMD_LOG_WARN, "SKMD_SPLIT=%s: expected fractions like 0.3,0.7; "
                     "using equal shares", skmd_config()->split);
            return;
        }
        forced[n++] = v;
        text = *end ? end + 1 : end;
    }
    nforced = n;
}

int skmd_shares(uint64_t ngroups, int nmembers, const unsigned char *eligible,
                uint64_t *count)
{
    pthread_once(&parse_once, parse_split);
    double w[SKMD_MAX_MEMBERS], total = 0;
    for (int m = 0; m < nmembers; m++) {
        w[m] = !eligible[m] ? 0 : nforced ? (m < nforced ? forced[m] : 0) : 1;
        total += w[m];
    }
    if (total <= 0) { /* every forced fraction is on an ineligible member */
        for (int m = 0; m < nmembers; m++)
            total += w[m] = eligible[m] ? 1 : 0;
    }
    /* Rounded cumulative boundaries: the counts always sum to ngroups. */
    double acc = 0;
    uint64_t given = 0;
    int used = 0;
    for (int m = 0; m < nmembers; m++) {
        acc += w[m];
        uint64_t upto = total > 0 ? (uint64_t)((double)ngroups * (acc / total) + 0.5) : 0;
        if (upto > ngroups || (w[m] > 0 && acc >= total))
            upto = ngroups;
        count[m] = upto > given ? upto - given : 0;
        given += count[m];
        used += count[m] > 0;
    }
    return used;
}
