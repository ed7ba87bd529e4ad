/* libskmd/plan/share.c: the share rule (see share.h). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "support/config.h"
#include "support/log.h"
#include "support/object.h"
#include "plan/share.h"

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

static int fitted_for; /* the member count the fractions were fitted to (0: not yet) */
static pthread_mutex_t fit_lock = PTHREAD_MUTEX_INITIALIZER;

/* One fraction per member is expected. Fewer: the members without one share what the
 * others leave equally (SKMD_SPLIT=0.3 on three devices: 0.3,0.35,0.35); more: the
 * extra ones are dropped. Said once, with the fractions used: a split the user asked
 * for and does not get must not go unnoticed. */
static void fit_forced(int nmembers)
{
    pthread_mutex_lock(&fit_lock);
    if (!nforced || fitted_for || nmembers < 1) {
        if (!fitted_for && nmembers >= 1)
            __atomic_store_n(&fitted_for, nmembers, __ATOMIC_RELEASE);
        pthread_mutex_unlock(&fit_lock);
        return;
    }
    int given = nforced;
    if (nforced < nmembers) {
        double sum = 0;
        for (int m = 0; m < nforced; m++)
            sum += forced[m];
        double rest = sum < 1 ? (1 - sum) / (nmembers - nforced) : 0;
        for (int m = nforced; m < nmembers; m++)
            forced[m] = rest;
    }
    nforced = nmembers;
    if (given != nmembers) {
        char used[16 * SKMD_MAX_MEMBERS] = "";
        double total = 0;
        for (int m = 0; m < nmembers; m++)
            total += forced[m];
        for (int m = 0, at = 0; m < nmembers && at < (int)sizeof used - 16; m++)
            at += snprintf(used + at, sizeof used - (size_t)at, "%s%.2f", m ? "," : "",
                           total > 0 ? forced[m] / total : 0.0);
        skmd_log(SKMD_LOG_WARN, "SKMD_SPLIT=%s gives %d fraction%s for %d devices; using %s "
                 "(%s)", skmd_config()->split, given, given == 1 ? "" : "s", nmembers, used,
                 given < nmembers ? "the devices without a fraction share the rest"
                                  : "the extra fractions are dropped");
    }
    __atomic_store_n(&fitted_for, nmembers, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&fit_lock);
}

int skmd_shares(uint64_t ngroups, int nmembers, const unsigned char *eligible,
                uint64_t *count)
{
    pthread_once(&parse_once, parse_split);
    if (!__atomic_load_n(&fitted_for, __ATOMIC_ACQUIRE))
        fit_forced(nmembers);
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
