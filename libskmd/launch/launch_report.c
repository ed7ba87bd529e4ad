/* libskmd/launch/launch_report.c: what a launch tells about itself. It counts the bytes its
 * transfers moved and widens its profiling span (the device times of its kernels, on the
 * queue's member's clock, for the app's event), writes its trace spans, and at its end
 * its log line (split or whole, the shares, the write modes, the bytes moved), its row
 * of the exit report, which counts every launch whether SKMD_REPORT is set or not, and
 * its line of SKMD_DECISIONS (decision_log.h). */
#include <stdio.h>

#include "support/clock.h"
#include "launch/decision_log.h"
#include "device/event_time.h"
#include "device/eventspan.h"
#include "launch/launch_report.h"
#include "support/log.h"
#include "support/report.h"

/* Adds one share's (or step's) bytes to the launch's. */
void launch_add_moved(struct launch *L, const struct skmd_moved *m)
{
    pthread_mutex_lock(&L->moved_lock);
    L->moved.to_devices += m->to_devices;
    L->moved.to_host += m->to_host;
    L->moved.peer += m->peer;
    pthread_mutex_unlock(&L->moved_lock);
}

/* Widens the launch's profiling span by [start, end) of member m's clock. */
void launch_widen_span(struct launch *L, int m, cl_ulong start, cl_ulong end)
{
    if (!L->user)
        return;
    int to = L->q->member;
    start = skmd_device_time_convert(m, to, start);
    end = skmd_device_time_convert(m, to, end);
    pthread_mutex_lock(&L->moved_lock);
    if (!L->span_valid || start < L->span_start)
        L->span_start = start;
    if (!L->span_valid || end > L->span_end)
        L->span_end = end;
    L->span_valid = 1;
    pthread_mutex_unlock(&L->moved_lock);
}

void launch_trace_span(const struct launch *L, int device, enum skmd_trace_kind kind,
                       uint64_t start, uint64_t groups)
{
    if (!skmd_trace_enabled())
        return;
    struct skmd_trace_span span = {
        .device = device, .kind = kind, .kernel = L->k->name, .launch = L->number,
        .share = (double)groups / (double)L->total_groups, .start_ns = start,
        .end_ns = skmd_now_ns(), .workgroups = groups,
    };
    skmd_trace_span(&span);
}

/* Whether some written buffer of the launch is marked in `param` (bound_param: by its
 * disjoint bounds; rect_param: by its shares' boxes; no merge for it either way). */
static int any_param(const struct launch *L, const unsigned char *param)
{
    for (unsigned p = 0; p < L->rec->nparams; p++)
        if (param[p])
            return 1;
    return 0;
}

/* The launch log's word on the guard's own launches (sampled or retried, not the split
 * the partitioner chose). */
static const char *guard_tag(const struct skmd_plan_ticket *t)
{
    if (t->guard == SKMD_PART_RUN_RETRY + 1)
        return " (guard retry)";
    if (t->guard == SKMD_PART_RUN_WHOLE_SAMPLE + 1 || t->guard == SKMD_PART_RUN_OTHER_SPLIT + 1)
        return " (guard sample)";
    return "";
}

void launch_report(const struct launch *L, const char *why, const struct share *shares,
                   int nshares, uint64_t t0)
{
    if (skmd_log_enabled(SKMD_LOG_INFO)) {
        char text[1024];
        int at = 0;
        for (int s = 0; s < nshares && at < (int)sizeof text - 64; s++)
            at += snprintf(text + at, sizeof text - (size_t)at, " m%d=%llu+%llu",
                           shares[s].member, (unsigned long long)shares[s].first,
                           (unsigned long long)shares[s].count);
        if (why)
            skmd_log(SKMD_LOG_INFO, "launch %llu %s: whole on member %d: %s; moved in %llu "
                     "out %llu peer %llu", (unsigned long long)L->number, L->k->name,
                     L->q->member, why, (unsigned long long)L->moved.to_devices,
                     (unsigned long long)L->moved.to_host, (unsigned long long)L->moved.peer);
        else
            skmd_log(SKMD_LOG_INFO,
                     "launch %llu %s: split%s%s%s%s%s%s; moved in %llu out %llu peer %llu",
                     (unsigned long long)L->number, L->k->name, text,
                     nshares == 1 ? " (whole)" : L->merge_member >= 0 ? " (merged)" : "",
                     nshares > 1 && any_param(L, L->bound_param) ? " (bounds)" : "",
                     nshares > 1 && any_param(L, L->rect_param) ? " (rect)" : "",
                     L->ticket.placed ? " (inputs placed)" : "",
                     guard_tag(&L->ticket),
                     (unsigned long long)L->moved.to_devices,
                     (unsigned long long)L->moved.to_host, (unsigned long long)L->moved.peer);
    }
    { /* every launch, SKMD_REPORT or not: the exit summary counts them all */
        /* One share alone is a whole launch, run apart to time it: not a split. */
        struct skmd_report_launch r = {
            .kernel = L->k->name, .split = why == NULL && nshares > 1,
            .decision = why ? why
                        : nshares == 1
                            ? (L->ticket.why_whole[0] ? L->ticket.why_whole
                                                      : "whole on one device, timed")
                        : any_param(L, L->rect_param) ? "split (rectangular shares)"
                        : L->ticket.placed ? "split (inputs placed by the app's writes)"
                                           : "split",
            .ndevices = skmd_state.nmembers,
            .bytes_moved = L->moved.to_devices + L->moved.to_host,
            .estimated_ms = !why && nshares > 1 && L->ticket.est_split_ms > 0
                                ? L->ticket.est_split_ms : -1,
            .measured_ms = (double)(skmd_now_ns() - t0) / 1e6,
            .est_whole_ms = L->ticket.est_whole_ms > 0 ? L->ticket.est_whole_ms : -1,
            .est_split_ms = L->ticket.est_split_ms > 0 ? L->ticket.est_split_ms : -1,
        };
        /* A launch refused before its work-groups were counted (an image argument) still
         * counts once on its member, so its shares do not read 0/0. */
        if (why)
            r.workgroups[L->q->member] = L->total_groups ? L->total_groups : 1;
        for (int s = 0; s < nshares && !why; s++)
            r.workgroups[shares[s].member] += shares[s].count;
        skmd_report_launch(&r);
        skmd_decision_log_launch(L, why, r.decision, shares, nshares, r.measured_ms);
    }
}
