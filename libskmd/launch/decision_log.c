/* libskmd/launch/decision_log.c: SKMD_DECISIONS, one JSON line per launch (decision_log.h). */
#include "launch/decision_log.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "support/config.h"
#include "support/json.h"
#include "launch/launch_state.h"
#include "support/log.h"
#include "../../partitioner/skmd_part.h"

static pthread_mutex_t decision_lock = PTHREAD_MUTEX_INITIALIZER;
static int decision_fd = -1;
static int decision_tried;

int skmd_decision_log_enabled(void)
{
    const char *path = skmd_config()->decisions;
    return path && path[0];
}

/* A figure in milliseconds, or null when unknown (<= 0 or not finite). */
static void put_ms(FILE *out, double ms)
{
    if (ms > 0 && isfinite(ms))
        fprintf(out, "%.6g", ms);
    else
        fputs("null", out);
}

/* The guard's word on the launch (plan.h: enum skmd_part_run + 1), null: none. */
static const char *guard_word(int guard)
{
    switch (guard - 1) {
    case SKMD_PART_RUN_SPLIT: return "split";
    case SKMD_PART_RUN_WHOLE_SAMPLE: return "whole_sample";
    case SKMD_PART_RUN_WHOLE: return "whole";
    case SKMD_PART_RUN_RETRY: return "retry";
    case SKMD_PART_RUN_OTHER_SPLIT: return "other_split";
    default: return NULL;
    }
}

/* The stable reason code of the decision. */
static const char *reason_code(const struct launch *L, const char *why, int nshares)
{
    if (why)
        return L->why_code ? L->why_code : "other";
    if (L->ticket.code)
        return L->ticket.code;
    if (nshares == 1)
        return "timed";
    if (L->ticket.guard == SKMD_PART_RUN_RETRY + 1)
        return "guard_retry";
    if (L->ticket.guard == SKMD_PART_RUN_OTHER_SPLIT + 1)
        return "guard_sample";
    return "partitioner";
}

/* The launch's sizes: from its shape once the plan filled it (a split or one share), else
 * from the app's call, with the local size the plan chose where the app gave none.
 * groups[d] 0: unknown (no local size). */
static void sizes_of(const struct launch *L, int planned, size_t *global, size_t *local,
                     uint64_t *groups)
{
    unsigned dims = L->shape.work_dim;
    for (unsigned d = 0; d < 3; d++) {
        global[d] = local[d] = groups[d] = 0;
        if (d >= dims)
            continue;
        if (planned) {
            global[d] = (size_t)L->shape.global_size[d];
            local[d] = L->local[d];
            groups[d] = L->ngroups[d];
            continue;
        }
        global[d] = L->app_global[d];
        local[d] = L->app_local[d];
        if (!local[d] && L->local[d] && global[d] % L->local[d] == 0)
            local[d] = L->local[d]; /* chosen by launch_plan.c (choose_local) */
        groups[d] = local[d] ? (global[d] + local[d] - 1) / local[d] : 0;
    }
}

static void put_sizes(FILE *out, const char *key, unsigned dims, const size_t *v)
{
    fprintf(out, ",\"%s\":[", key);
    for (unsigned d = 0; d < dims; d++)
        fprintf(out, "%s%zu", d ? "," : "", v[d]);
    fputc(']', out);
}

/* The record as one line, in a buffer of open_memstream. */
static void put_record(FILE *out, const struct launch *L, const char *why,
                       const char *decision, const struct share *shares, int nshares,
                       double wall_ms)
{
    int planned = why == NULL && nshares > 0;
    unsigned dims = L->shape.work_dim > 3 ? 3 : L->shape.work_dim;
    size_t global[3], local[3];
    uint64_t groups[3], total = 1;
    sizes_of(L, planned, global, local, groups);
    for (unsigned d = 0; d < dims; d++)
        total *= groups[d];
    int total_known = dims > 0 && total > 0;
    fprintf(out, "{\"pid\":%ld,\"launch\":%llu,\"kernel\":", (long)getpid(),
            (unsigned long long)L->number);
    skmd_json_string(out, L->k->name);
    fprintf(out, ",\"work_dim\":%u", dims);
    put_sizes(out, "global", dims, global);
    if (local[0] || !dims)
        put_sizes(out, "local", dims, local);
    else
        fputs(",\"local\":null", out);
    if (total_known) {
        fprintf(out, ",\"groups\":[");
        for (unsigned d = 0; d < dims; d++)
            fprintf(out, "%s%llu", d ? "," : "", (unsigned long long)groups[d]);
        fprintf(out, "],\"workgroups\":%llu", (unsigned long long)total);
    } else {
        fputs(",\"groups\":null,\"workgroups\":null", out);
    }
    int split = why == NULL && nshares > 1;
    fprintf(out, ",\"split\":%s,\"run\":\"%s\",\"members\":%d,\"up\":[",
            split ? "true" : "false", split ? "split" : why ? "whole" : "one_share",
            skmd_state.nmembers);
    unsigned up = skmd_members_up(L->k->program->context);
    for (int m = 0, n = 0; m < skmd_state.nmembers; m++)
        if (up >> m & 1u)
            fprintf(out, "%s%d", n++ ? "," : "", m);
    fputs("],\"shares\":[", out);
    if (why) {
        fprintf(out, "{\"member\":%d,\"first\":0,\"count\":", L->q->member);
        if (total_known)
            fprintf(out, "%llu", (unsigned long long)total);
        else
            fputs("null", out);
        fputs(",\"kernel_ms\":null}", out);
    }
    for (int s = 0; !why && s < nshares; s++) {
        fprintf(out, "%s{\"member\":%d,\"first\":%llu,\"count\":%llu,\"kernel_ms\":",
                s ? "," : "", shares[s].member, (unsigned long long)shares[s].first,
                (unsigned long long)shares[s].count);
        put_ms(out, shares[s].ms);
        fputc('}', out);
    }
    fputs("],\"decision\":", out);
    skmd_json_string(out, decision);
    fputs(",\"reason\":", out);
    skmd_json_string(out, reason_code(L, why, nshares));
    const char *guard = guard_word(L->ticket.guard);
    fprintf(out, ",\"kept\":%s,\"guard\":", L->ticket.kept ? "true" : "false");
    if (guard)
        skmd_json_string(out, guard);
    else
        fputs("null", out);
    fputs(",\"tags\":[", out);
    int ntags = 0;
    if (split) {
        int merged = L->merge_member >= 0, bounds = 0, rect = 0;
        for (unsigned p = 0; L->rec && p < L->rec->nparams; p++) {
            bounds |= L->bound_param[p];
            rect |= L->rect_param[p];
        }
        const char *tag[3] = {merged ? "merged" : NULL, bounds ? "bounds" : NULL,
                              rect ? "rect" : NULL};
        for (int i = 0; i < 3; i++)
            if (tag[i])
                fprintf(out, "%s\"%s\"", ntags++ ? "," : "", tag[i]);
    }
    if (!why && L->ticket.placed)
        fprintf(out, "%s\"inputs_placed\"", ntags++ ? "," : "");
    fputs("],\"estimate\":", out);
    const struct skmd_plan_ticket *t = &L->ticket;
    int any_alone = 0;
    for (int m = 0; m < skmd_state.nmembers; m++)
        any_alone |= t->est_alone_ms[m] > 0;
    if (t->est_split_ms > 0 || t->est_whole_ms > 0 || any_alone) {
        fputs("{\"split_ms\":", out);
        put_ms(out, t->est_split_ms);
        fputs(",\"whole_ms\":", out);
        put_ms(out, t->est_whole_ms);
        if (t->est_whole_ms > 0)
            fprintf(out, ",\"whole_member\":%d", t->est_whole_member);
        else
            fputs(",\"whole_member\":null", out);
        fputs(",\"alone_ms\":[", out);
        for (int m = 0; m < skmd_state.nmembers; m++) {
            fputs(m ? "," : "", out);
            put_ms(out, t->est_alone_ms[m]);
        }
        fputs("]}", out);
    } else {
        fputs("null", out);
    }
    fputs(",\"wall_ms\":", out);
    put_ms(out, wall_ms);
    fprintf(out, ",\"moved\":{\"in\":%llu,\"out\":%llu,\"peer\":%llu}}\n",
            (unsigned long long)L->moved.to_devices, (unsigned long long)L->moved.to_host,
            (unsigned long long)L->moved.peer);
}

/* The file, opened on the first record; -1: none (not named, or it cannot be opened,
 * said once). Under decision_lock. */
static int decision_file(void)
{
    if (!decision_tried) {
        decision_tried = 1;
        const char *path = skmd_config()->decisions;
        decision_fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
        if (decision_fd < 0)
            skmd_log(SKMD_LOG_WARN, "SKMD_DECISIONS=%s: %s; no decision log", path,
                     strerror(errno));
    }
    return decision_fd;
}

void skmd_decision_log_launch(const struct launch *L, const char *why, const char *decision,
                              const struct share *shares, int nshares, double wall_ms)
{
    if (!skmd_decision_log_enabled())
        return;
    char *line = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&line, &size);
    if (!out)
        return;
    put_record(out, L, why, decision, shares, nshares, wall_ms);
    if (fclose(out) != 0) {
        free(line);
        return;
    }
    pthread_mutex_lock(&decision_lock);
    int fd = decision_file();
    for (size_t at = 0; fd >= 0 && at < size;) {
        ssize_t n = write(fd, line + at, size - at);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        at += (size_t)n;
    }
    pthread_mutex_unlock(&decision_lock);
    free(line);
}
