/* libskmd/plan/plan.c: the partitioner in the runtime (see plan.h): the decision of a
 * launch's shares, from the request to the ticket.
 *
 * Per (kernel, launch shape class) an entry holds one performance table per member,
 * read from the profile database the first time the pair is launched, and refined by the
 * measured kernel times of its shares (plan_entries.c, plan_observe.c). A launch's problem
 * for partitioner/ is built from those tables, the members' link curves (calibrated by
 * skmd-profile calibrate, else the defaults of plan_links.c) and the bytes a share moves
 * (linear fit of the footprint analysis over two share sizes), less the bytes already
 * current on each member (plan_problem.c). decide() runs single mode, the profiling sweep
 * and the cold start (plan_cold.c), then the partitioner or its kept decision
 * (plan_memo.c), the member a whole launch stays on, the measured guard (plan_guard.c) and
 * now and then a probe of an idle member (plan_cold.c). The rules each of them applies
 * are partitioner/'s launch policy (skmd_part_launch.h); here their inputs are gathered
 * and their outcomes recorded. The partitioner itself is called on a launch's problem in
 * plan_partition.c; whether the app's writes are placed for the launch is plan_place.c's.
 * All state is under one lock (plan_state.h): any thread may call. */
#include <stdio.h>
#include <string.h>

#include "device/api.h"
#include "support/hash.h"
#include "support/log.h"
#include "plan/placement.h"
#include "plan/plan.h"
#include "plan/plan_cold.h"
#include "plan/plan_entries.h"
#include "plan/plan_guard.h"
#include "plan/plan_memo.h"
#include "plan/plan_partition.h"
#include "plan/plan_place.h"
#include "plan/plan_problem.h"
#include "plan/plan_setup.h"
#include "plan/plan_state.h"
#include "plan/share.h"
#include "plan/share_align.h"

/* Under plan_lock: when the shares are the partitioner's split as it estimated them (the
 * guard and the probes left them), the ticket keeps the estimate for the finish offsets. */
static void note_estimate(const struct skmd_plan_request *r,
                          const struct skmd_part_result *res, const int *map, int n,
                          const uint64_t *count, struct skmd_plan_ticket *t)
{
    int shares = 0;
    uint64_t planned = 0;
    for (int i = 0; i < n; i++) {
        if (count[map[i]] != res->count[i] || (res->count[i] && !(res->est_kernel_ms[i] > 0)))
            return;
        shares += res->count[i] > 0;
        planned += res->count[i];
    }
    if (shares < 2 || planned != r->total_groups)
        return;
    for (int i = 0; i < n; i++) {
        t->est_ms[map[i]] = res->est_ms[i];
        t->est_kernel_ms[map[i]] = res->est_kernel_ms[i];
    }
    t->estimated = 1;
}

/* Under plan_lock: the model's estimates behind a decision, given to the user as the
 * reason for it: the launch whole on its fastest member, and split (the partitioner's
 * split, or an even split when it chose one member). */
static void note_whole_vs_split(const struct skmd_plan_request *r, const struct entry *e,
                                const struct residency *resident,
                                const struct skmd_part_result *res, int nres,
                                struct skmd_plan_ticket *t)
{
    struct skmd_part_device dev[SKMD_MAX_MEMBERS];
    struct skmd_part_problem p;
    int map[SKMD_MAX_MEMBERS];
    int n = plan_build_problem(r, e, resident, dev, map, &p);
    if (n < 1)
        return;
    uint64_t count[SKMD_MAX_MEMBERS];
    double finish[SKMD_MAX_MEMBERS];
    for (int i = 0; i < n; i++) {
        memset(count, 0, sizeof count);
        count[i] = r->total_groups;
        double ms = skmd_part_estimate(&p, count, finish);
        if (ms > 0 && ms < SKMD_PART_NEVER_MS)
            t->est_alone_ms[map[i]] = ms;
        if (ms > 0 && ms < SKMD_PART_NEVER_MS &&
            (t->est_whole_ms <= 0 || ms < t->est_whole_ms)) {
            t->est_whole_ms = ms;
            t->est_whole_member = map[i];
        }
    }
    int shares = 0;
    for (int i = 0; i < nres; i++)
        shares += res->count[i] > 0;
    if (shares >= 2) {
        t->est_split_ms = res->overall_ms;
    } else if (n >= 2) {
        for (int i = 0; i < n; i++)
            count[i] = r->total_groups / (uint64_t)n +
                       ((uint64_t)i < r->total_groups % (uint64_t)n);
        double ms = skmd_part_estimate(&p, count, finish);
        t->est_split_ms = ms < SKMD_PART_NEVER_MS ? ms : 0;
    }
}

/* Under plan_lock: the partitioner's decision (or a cold-start probe, a sweep step,
 * single mode), then the guard's word on it, then now and then a probe of an idle
 * member. */
static void decide(const struct skmd_plan_request *r, struct entry *e,
                   const struct residency *resident, uint64_t *count,
                   struct skmd_plan_ticket *t)
{
    enum skmd_part_policy policy = plan_policy();
    struct skmd_part_result res;
    int map[SKMD_MAX_MEMBERS];
    uint64_t step = e->launches++;
    const char *how = skmd_part_policy_name(policy);
    struct skmd_part_launch at = plan_launch_of(r, e);
    if (plan_settings()->single) {
        int m = skmd_part_fastest(&at, 1);
        int whole = m >= 0 ? m : skmd_part_preferred(&at);
        if (whole < 0)
            return; /* no member can take it: every count stays 0 */
        count[whole] = r->total_groups;
        skmd_part_keep_home(&at, resident->in, &e->away, count);
        t->code = "single_mode";
        skmd_log(SKMD_LOG_DEBUG, "plan %s: single mode on member %d (%s)", e->name, whole,
                 m >= 0 ? "fastest in the profile" : "no profile: the preferred member");
        return;
    }
    if (plan_settings()->sweep && plan_sweep(r, e, step, count)) {
        t->code = "sweep";
        skmd_log(SKMD_LOG_DEBUG, "plan %s: profiling sweep step %llu", e->name,
                 (unsigned long long)step);
        return;
    }
    int measured = 0, unmeasured = 0;
    unsigned char has_rate[SKMD_MAX_MEMBERS] = {0}; /* eligible members only */
    for (int m = 0; m < skmd_state.nmembers; m++) {
        if (!r->eligible[m])
            continue;
        has_rate[m] = skmd_part_rated(&at, m);
        measured += has_rate[m];
        unmeasured += !has_rate[m];
    }
    if (measured + unmeasured == 0)
        return; /* no member can take a share (none built the split program): nothing to
                 * partition, every count stays 0 and the launch runs whole */
    if (resident->placed) {
        memcpy(count, resident->placed_count, sizeof *count * (size_t)skmd_state.nmembers);
        skmd_log(SKMD_LOG_DEBUG, "plan %s: the inputs are where the app's writes were "
                 "placed for it: the placement's shares", e->name);
        /* Not the launch guard's: with the inputs spread, a whole run would first gather
         * them. The placement's own guard judges writes and launch together. */
        t->placed = 1;
        t->code = "placement";
        return;
    }
    if (!e->predicted && measured == 0)
        plan_predict(r, e);
    if ((policy == SKMD_PART_POLICY_SKMD || policy == SKMD_PART_POLICY_PAPER) &&
        unmeasured > 0 && plan_cold_start(r, e, resident, has_rate, t->learn, count)) {
        t->code = "cold_start";
        return;
    }
    int n = 0;
    struct skmd_part_key key;
    plan_key_of(r, e->kernel, 0, &key);
    int kept = plan_memo_take(&e->memo, r, &key, resident, &res, map, &n);
    if (!kept) {
        int status = plan_partition(r, e, resident, 1, &res, map, &n);
        if (status != SKMD_PART_OK) {
            skmd_log(SKMD_LOG_WARN, "plan %s: partitioner: %s; equal shares", e->name,
                     skmd_part_strerror(status));
            skmd_shares(r->total_groups, skmd_state.nmembers, r->eligible, count);
            t->code = "partitioner_failed";
            return;
        }
        plan_memo_keep(&e->memo, r, &key, resident, &res, map, n);
    }
    for (int i = 0; i < n; i++)
        count[map[i]] = res.count[i];
    skmd_part_keep_home(&at, resident->in, &e->away, count);
    t->kept = kept;
    if (kept) {
        plan_memo_note_take(&e->memo, t);
    } else {
        note_whole_vs_split(r, e, resident, &res, n, t);
        plan_memo_note_keep(&e->memo, t);
    }
    skmd_log(SKMD_LOG_DEBUG, "plan %s: %s%s, estimated %.3f ms%s", e->name, how,
             kept ? " (the last decision, kept)" : "", res.overall_ms,
             resident->pieces ? " (shares that move inputs priced in pieces, overlapped)" : "");
    plan_guard_split(r, e, resident, count, t);
    plan_probe_idle(r, e, count, t);
    note_estimate(r, &res, map, n, count, t);
    int shares = 0;
    for (int m = 0; m < skmd_state.nmembers; m++)
        shares += count[m] > 0;
    if (shares > 1)
        plan_memo_drop(&e->memo);
}

/* Samples of member m's table for a share of n work-groups (0: never measured there). */
static uint32_t measured_at(int m, const struct skmd_plan_ticket *t, uint64_t n)
{
    pthread_mutex_lock(&plan_lock);
    const struct entry *e = plan_entry_find(t->kernel, t->shape);
    uint32_t samples = e ? e->table[m].samples[skmd_part_range_of(n)] : 0;
    pthread_mutex_unlock(&plan_lock);
    return samples;
}

/* Why the plan gives every work-group to one member, in the user's words, with the
 * estimates behind it when the model made them. */
static void say_why_whole(const struct skmd_plan_request *r, const uint64_t *count, int single,
                          struct skmd_plan_ticket *t)
{
    int forced = plan_settings()->forced;
    char *out = t->why_whole;
    size_t size = sizeof t->why_whole;
    int m = 0;
    while (m < skmd_state.nmembers - 1 && count[m] != r->total_groups)
        m++;
    t->code = single ? "single_mode" : forced ? "forced"
              : t->guard == SKMD_PART_RUN_WHOLE + 1 || t->guard == SKMD_PART_RUN_WHOLE_SAMPLE + 1
                  ? "guard"
              : t->est_alone_ms[m] > 0 && t->est_split_ms > 0 ? "estimate_whole"
              : t->est_alone_ms[m] > 0                        ? "estimate_no_split"
                                                              : "no_speed";
    if (single)
        snprintf(out, size, "SKMD_MODE=single runs every launch on one device");
    else if (forced)
        snprintf(out, size, "SKMD_SPLIT gives device %d every work-group", m);
    else if (t->guard == SKMD_PART_RUN_WHOLE + 1 || t->guard == SKMD_PART_RUN_WHOLE_SAMPLE + 1)
        snprintf(out, size, "split launches of this kernel measured slower than whole ones; "
                 "whole on device %d%s", m,
                 t->guard == SKMD_PART_RUN_WHOLE_SAMPLE + 1 ? " (timed again now and then)" : "");
    else if (t->est_alone_ms[m] > 0 && t->est_split_ms > 0)
        snprintf(out, size, "estimated faster whole: %.3f ms on device %d alone, %.3f ms "
                 "shared equally",
                 t->est_alone_ms[m], m, t->est_split_ms);
    else if (t->est_alone_ms[m] > 0)
        snprintf(out, size, "estimated %.3f ms whole on device %d; no split estimate",
                 t->est_alone_ms[m], m);
    else
        snprintf(out, size, "no speed measured yet for this kernel: device %d runs it whole "
                 "and times it", m);
}

int skmd_plan_shares(const struct skmd_plan_request *r, uint64_t *count,
                     struct skmd_plan_ticket *ticket)
{
    const struct plan_settings *set = plan_settings();
    int n = skmd_state.nmembers;
    memset(ticket, 0, sizeof *ticket);
    memset(count, 0, sizeof *count * (size_t)n);
    plan_setup();
    enum skmd_part_policy policy = plan_policy();
    ticket->kernel = r->kernel->profile_key;
    ticket->shape = plan_shape_class(r);
    ticket->learn = set->learn;
    int single = set->single;
    if (!single && (set->forced || policy == SKMD_PART_POLICY_EQUAL)) {
        /* Forced shares, and the equal policy: share.c's rule, exactly. The entry is made
         * now, so that the kernel's name goes with the measured tables. */
        skmd_shares(r->total_groups, n, r->eligible, count);
        ticket->code = set->forced ? "forced" : "policy_equal";
        if (ticket->learn) {
            pthread_mutex_lock(&plan_lock);
            plan_entry_for(ticket->kernel, ticket->shape, r->kernel->name);
            pthread_mutex_unlock(&plan_lock);
        }
    } else {
        struct residency resident;
        plan_resident_inputs(r, &resident);
        resident.pieces = policy != SKMD_PART_POLICY_EQUAL && plan_pieces_allowed(r);
        /* The app's writes are placed only for the partitioner's own policies, and only
         * writes the transfer engine would move (smaller ones gain little and the
         * judgement costs two decisions a launch). */
        int placing = !single && skmd_placement_enabled() &&
                      (policy == SKMD_PART_POLICY_SKMD || policy == SKMD_PART_POLICY_PAPER);
        double app_bytes = 0;
        struct skmd_placement_since since = {0, 0};
        double app_part = placing ? skmd_placement_app_part(r, &app_bytes, &since) : 0;
        if (app_bytes < (double)set->direct_bytes)
            app_part = 0;
        resident.placed = app_part > 0 && skmd_placement_intact(r, ticket->kernel,
                                                                ticket->shape,
                                                                resident.placed_count);
        uint64_t place[SKMD_MAX_MEMBERS];
        int verdict = 0;
        pthread_mutex_lock(&plan_lock);
        struct entry *e = plan_entry_for(ticket->kernel, ticket->shape, r->kernel->name);
        /* The app wrote its inputs: a cycle of the placement's guard begins. */
        int cycle = e && app_part > 0;
        struct skmd_part_key placed_key; /* the placement guard's (plan_place_measured) */
        if (cycle)
            plan_key_of(r, e->kernel, 1, &placed_key);
        int sample_on = cycle && !resident.placed
                            ? plan_unplaced_sample_member(r, e, &placed_key)
                            : -1;
        ticket->code = sample_on >= 0 ? "placement_sample" : e ? NULL : "no_entry";
        if (sample_on >= 0)
            count[sample_on] = r->total_groups;
        else if (e)
            decide(r, e, &resident, count, ticket);
        else
            skmd_shares(r->total_groups, n, r->eligible, count);
        if (cycle) {
            int auto_placing = !set->place_always;
            plan_cycle_sample(e, &placed_key, &since, ticket);
            if (auto_placing && skmd_placement_outputs_feed_kernels(r)) {
                verdict = -1;
                if (!e->feeds_told)
                    skmd_log(SKMD_LOG_INFO, "plan %s: placement: none, its outputs feed "
                             "later kernels", e->name);
                e->feeds_told = 1;
            } else {
                verdict = plan_place_inputs(r, e, &resident, app_part, !auto_placing, place);
            }
            if (verdict > 0 && ticket->learn && auto_placing)
                verdict = plan_place_measured(r, e, &placed_key);
        }
        pthread_mutex_unlock(&plan_lock);
        /* A placement the launch found intact stays as it is while it still pays. */
        if (verdict < 0 || (verdict > 0 && !resident.placed))
            skmd_placement_record(r, ticket->kernel, ticket->shape, verdict > 0 ? place : NULL);
    }
    skmd_placement_note_read(r);
    int used = 0;
    for (int m = 0; m < n; m++) {
        ticket->count[m] = count[m];
        used += count[m] > 0;
    }
    pthread_mutex_lock(&plan_lock);
    struct entry *e = plan_entry_for(ticket->kernel, ticket->shape, r->kernel->name);
    for (int m = 0; e && m < n; m++)
        if (count[m]) {
            ticket->first_share[m] = !e->had_share[m];
            e->had_share[m] = 1;
            e->ran_part[m] |= count[m] < r->total_groups;
        }
    pthread_mutex_unlock(&plan_lock);
    /* A guard's whole sample on the queue's member is timed as one share too, and so is
     * an unplaced sample of the placement's guard. */
    ticket->measure = ticket->learn && count[r->exec_member] == r->total_groups &&
                      skmd_part_time_whole(measured_at(r->exec_member, ticket, r->total_groups),
                                           ticket->guard - 1, ticket->cycle.run != 0);
    if (used == 1)
        say_why_whole(r, count, single, ticket);
    for (int m = 0; m < n && used > 1; m++)
        if (ticket->first_share[m])
            ticket->est_whole_ms = 0; /* its time holds a compilation: no fair comparison */
    return used;
}
