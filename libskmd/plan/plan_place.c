/* libskmd/plan/plan_place.c: whether the app's writes are placed (see plan.h, placement.h).
 *
 * The model's word (write plus launch, placed against written to the queue's member) and
 * the placement's own guard, which times cycles of the app's writes and the launch with
 * the writes placed and not, on a decision-cache key of its own. */
#include <math.h>
#include <string.h>

#include "support/clock.h"
#include "support/log.h"
#include "plan/placement.h"
#include "plan/plan_entries.h"
#include "plan/plan_links.h"
#include "plan/plan_partition.h"
#include "plan/plan_place.h"
#include "plan/plan_problem.h"
#include "plan/plan_state.h"
#include "plan/share_align.h"

#define PLAN_HOST_COPY_BYTES_PER_MS 1e7 /* the app's bytes into the host copy: 10 GB/s */
#define PLAN_PLACE_GAIN 0.10 /* placing the app's writes must save 10% of write + launch */

/* Milliseconds for the app's write of `bytes` to reach member m's copy (through the
 * transfer engine's pinned staging), or the host copy for a member without a link. */
static double app_write_ms(int m, double bytes)
{
    if (!(bytes > 0))
        return 0;
    if (m < 0 || plan_info[m].link < 0)
        return bytes / PLAN_HOST_COPY_BYTES_PER_MS;
    return skmd_part_link_ms(plan_link_curve(m, SKMD_PART_H2D, SKMD_PART_PINNED), bytes);
}

/* Under plan_lock: the partitioner's split of the launch with its inputs as in `where`,
 * rounded to the launch's unit, in place[] (per member); its estimate, or a negative
 * number when the partitioner fails. */
static double split_with(const struct skmd_plan_request *r, struct entry *e,
                         const struct residency *where, uint64_t *place)
{
    struct skmd_part_result res;
    int map[SKMD_MAX_MEMBERS], used = 0;
    if (plan_partition(r, e, where, 0, &res, map, &used) != SKMD_PART_OK)
        return -1;
    memset(place, 0, sizeof *place * (size_t)skmd_state.nmembers);
    for (int i = 0; i < used; i++)
        place[map[i]] = res.count[i];
    skmd_share_round(place, skmd_state.nmembers, r->total_groups, r->unit);
    return res.overall_ms;
}

/* The parts of a placed estimate, for the debug line. */
struct placed_cost {
    double launch_ms, host_ms, links_ms;
};

/* Under plan_lock: the estimate of the app's writes placed for the partitioner's split
 * among the members that `eligible` allows, with every member's inputs already on it
 * (those the app does not write move once and stay), plus the placed write itself: the
 * host copy's part (the app's bytes for members without a link), then the links side by
 * side, no faster in all than the host's rate for several at once (write_placed.c does
 * them in that order). The shares in place[], the parts in *cost; -1 when the partitioner
 * fails. */
static double placed_estimate(const struct skmd_plan_request *r, struct entry *e,
                              const struct residency *placed, double app_part,
                              const unsigned char *eligible, uint64_t *place,
                              struct placed_cost *cost)
{
    struct skmd_plan_request among = *r;
    among.eligible = eligible;
    *cost = (struct placed_cost){split_with(&among, e, placed, place), 0, 0};
    if (cost->launch_ms < 0)
        return -1;
    double link_bytes = 0, in, out;
    int exact = 1;
    uint64_t first = 0;
    for (int m = 0; m < skmd_state.nmembers; m++) {
        if (!place[m])
            continue;
        plan_share_bytes(r, first, place[m], &in, &out, &exact);
        first += place[m];
        double ms = app_write_ms(m, app_part * in);
        if (plan_info[m].link < 0) {
            cost->host_ms += ms;
        } else {
            cost->links_ms = fmax(cost->links_ms, ms);
            link_bytes += app_part * in;
        }
    }
    if (plan_host_rate > 0)
        cost->links_ms = fmax(cost->links_ms, link_bytes / plan_host_rate);
    return cost->launch_ms + cost->host_ms + cost->links_ms;
}

/* Under plan_lock, for a launch reading buffers the app has just written (app_part of
 * its input bytes): whether the app's next writes should be placed (placement.h). Two
 * estimates of write plus launch, from where the inputs would be, not where they are:
 * every input written to the queue's member (the usual write) and the partitioner's
 * decision from there, against the best placed one (placed_estimate). A member without
 * a link takes its part of the app's bytes at the app's own copy rate, which can cost
 * more than its share of the launch saves: the placed split without those members is
 * weighed too.
 * With `always` (SKMD_PLACE_WRITES=always) every split is placed, gain or not.
 * 1: place, with the shares in place[]; -1: do not (no split, or no gain); 0: not judged
 * (a member without a measured rate). */
int plan_place_inputs(const struct skmd_plan_request *r, struct entry *e,
                      const struct residency *resident, double app_part, int always,
                      uint64_t *place)
{
    int n = skmd_state.nmembers, q = r->exec_member, shares = 0;
    for (int m = 0; m < n; m++)
        if (r->eligible[m] && !skmd_part_table_measured(&e->table[m]))
            return 0;
    struct residency placed = *resident, usual = *resident;
    for (int m = 0; m < n; m++) {
        placed.in[m] = 1;
        placed.remote[m] = 0;
        placed.from[m] = -1;
        usual.in[m] = m == q;
        usual.remote[m] = m != q;
        usual.from[m] = m != q ? q : -1;
    }
    uint64_t usual_count[SKMD_MAX_MEMBERS], linked_place[SKMD_MAX_MEMBERS];
    struct placed_cost cost, linked_cost;
    double placed_ms = placed_estimate(r, e, &placed, app_part, r->eligible, place, &cost);
    double usual_launch = split_with(r, e, &usual, usual_count);
    if (placed_ms < 0 || usual_launch < 0)
        return 0;
    if (cost.host_ms > 0) {
        unsigned char linked[SKMD_MAX_MEMBERS];
        int links = 0;
        for (int m = 0; m < n; m++) {
            linked[m] = r->eligible[m] && plan_info[m].link >= 0;
            links += linked[m];
        }
        double linked_ms = links >= 2 ? placed_estimate(r, e, &placed, app_part, linked,
                                                        linked_place, &linked_cost)
                                      : -1;
        if (linked_ms >= 0 && linked_ms < placed_ms) {
            placed_ms = linked_ms;
            cost = linked_cost;
            memcpy(place, linked_place, sizeof *place * (size_t)n);
        }
    }
    for (int m = 0; m < n; m++)
        shares += place[m] > 0;
    if (shares < 2) {
        skmd_log(SKMD_LOG_DEBUG, "plan %s: the app's writes are not placed: one member "
                 "would run it whole even with every input in place", e->name);
        return -1;
    }
    if (always)
        return 1;
    double in, out;
    int exact = 1;
    plan_share_bytes(r, 0, r->total_groups, &in, &out, &exact);
    double usual_ms = usual_launch + app_write_ms(q, app_part * in);
    int pays = placed_ms < (1.0 - PLAN_PLACE_GAIN) * usual_ms;
    skmd_log(SKMD_LOG_DEBUG, "plan %s: the app's writes %s placed: %.3f ms with each "
             "member's inputs written to it (launch %.3f, host copy %.3f, links %.3f), %.3f "
             "ms written to member %d (launch %.3f)", e->name, pays ? "are" : "are not",
             placed_ms, cost.launch_ms, cost.host_ms, cost.links_ms, usual_ms, q,
             usual_launch);
    return pays ? 1 : -1;
}

/* Whether a run the placement's guard chose places the writes (its "split" runs). */
static int run_places(int run)
{
    return run == SKMD_PART_RUN_SPLIT || run == SKMD_PART_RUN_RETRY;
}

/* Under plan_lock. The placement's guard: the model's word that placing pays
 * (plan_place_inputs) is measured. A cycle, from the app's first write of a launch's inputs to
 * the later of the launch's end and the app's last wait before it writes them again
 * (plan_cycle_sample), with the writes placed is timed against one without (the writes to the
 * queue's member, the launch as the plan runs it then), by the partitioner's guard
 * (skmd_part.h) on a key of the placed launches' own: its "split" is a placed cycle, its
 * "whole on member q" an unplaced one. The launch times alone could not judge it: placed
 * writes cross every link at once but take the host's side more bytes (an input every
 * share reads goes to each), and with the inputs spread a whole run first gathers them.
 * Returns 1 to place the next cycle's writes, -1 not to; the choice is the guard's next
 * run, which the next launch is a sample of (plan_cycle_sample). */
int plan_place_measured(const struct skmd_plan_request *r, struct entry *e,
                        const struct skmd_part_key *key)
{
    if (e->repeat.run) { /* the warm-up's choice again, now to be sampled */
        e->next_cycle = e->repeat;
        e->repeat.run = 0;
        return run_places(e->next_cycle.run - 1) ? 1 : -1;
    }
    struct skmd_part_guard *g = skmd_part_cache_guard_make(plan_cache, key);
    if (!g)
        return 1; /* out of memory: the model's word */
    int64_t ids[SKMD_MAX_MEMBERS];
    struct skmd_plan_guard_members members = plan_guard_members(ids);
    skmd_plan_guard_meet(plan_db, &members, key, e->shape, e->name, g);
    int dev, run = skmd_part_guard_choose(g, r->exec_member, 0, &dev);
    e->next_cycle = (struct skmd_plan_cycle){.run = run + 1,
                                             .dev = dev >= 0 ? dev : r->exec_member,
                                             .shape = key->shape, .buffers = key->buffers};
    if (run == SKMD_PART_RUN_WHOLE_SAMPLE)
        skmd_log(SKMD_LOG_INFO, "plan %s: placement: the next writes not placed, a sample "
                 "(placed %.3f ms x%u, not placed %.3f ms x%u)", e->name, g->split_ms,
                 g->split_n, g->whole_ms[dev], g->whole_n[dev]);
    return dev < 0 ? 1 : -1;
}

static void observe_cycle(struct entry *e, const struct skmd_plan_cycle *c);

/* Under plan_lock, at a launch whose inputs the app wrote (since): a new cycle begins,
 * which may end the last sample (placement_cycle.h). The launch is the sample the
 * placement's guard chose at the last one when it runs as chosen (placed or not, the same
 * buffers), unless its cycle is a warm-up: then the next cycle runs the same choice and is
 * the sample (plan_place_measured). */
void plan_cycle_sample(struct entry *e, const struct skmd_part_key *key,
                       const struct skmd_placement_since *since, struct skmd_plan_ticket *t)
{
    if (!since->wrote_ns)
        return;
    struct skmd_plan_cycle done, next = e->next_cycle;
    if (skmd_cycle_begin(&e->cycles, since->wrote_ns, since->waited_ns, &done))
        observe_cycle(e, &done);
    e->next_cycle.run = 0;
    e->repeat.run = 0;
    int warmup = skmd_cycle_warmup(&e->cycles, t->placed);
    int run = next.run - 1; /* (chosen only where the plan learns: plan_place_measured) */
    int placed_run = run_places(run);
    if (run < 0 || key->shape != next.shape || key->buffers != next.buffers ||
        placed_run != t->placed)
        return;
    if (warmup) {
        e->repeat = next;
        skmd_log(SKMD_LOG_DEBUG, "plan %s: placement: a warm-up cycle (%s), sampled at the "
                 "next one", e->name, placed_run ? "placed" : "not placed");
        return;
    }
    t->cycle = next;
    t->cycle.start_ns = since->wrote_ns;
}

/* Under plan_lock, at a launch whose inputs are not placed: when its cycle is an unplaced
 * sample of the placement's guard (or that sample's warm-up), the member to run it whole
 * on, else -1 (the plan decides as usual). An unplaced sample must be what the plan runs
 * without placement; but with placement on, the launch's own guard sees unplaced launches
 * only at these samples and would run the partitioner's split untried for a long time
 * (matrix_transpose's split cycles took twice its whole ones, so placing looked better
 * than it was). So the sample runs whole, on the launch guard's member once it has
 * gone whole, and as the plan decides once that guard has measured the split faster. */
int plan_unplaced_sample_member(const struct skmd_plan_request *r, struct entry *e,
                                const struct skmd_part_key *placed_key)
{
    const struct skmd_plan_cycle *c = &e->next_cycle;
    if (c->run - 1 != SKMD_PART_RUN_WHOLE_SAMPLE || c->shape != placed_key->shape ||
        c->buffers != placed_key->buffers)
        return -1;
    struct skmd_part_key own = *placed_key; /* the launch's own (plan_key_of) */
    own.buffers ^= PLAN_KEY_PLACED;
    const struct skmd_part_guard *g = skmd_part_cache_guard(plan_cache, &own);
    if (g && skmd_part_guard_split_judged(g))
        return -1; /* the launch's guard measured the split faster: it is the plan's */
    int dev = g && g->whole_mode ? g->whole_dev : c->dev;
    if (dev < 0 || dev >= skmd_state.nmembers || !r->eligible[dev])
        return -1;
    skmd_log(SKMD_LOG_DEBUG, "plan %s: placement: the unplaced sample runs whole on member "
             "%d", e->name, dev);
    return dev;
}

/* Under plan_lock: the placement guard's sample c (plan_place_measured) is over. */
static void observe_cycle(struct entry *e, const struct skmd_plan_cycle *c)
{
    struct skmd_part_key key = {e->kernel, c->shape, c->buffers};
    struct skmd_part_guard *g = skmd_part_cache_guard(plan_cache, &key);
    if (!g || c->end_ns <= c->start_ns)
        return;
    int run = c->run - 1, was_whole = g->whole_mode;
    double ms = (double)(c->end_ns - c->start_ns) / 1e6;
    if (skmd_part_guard_observe(g, run, c->dev, 0, ms) != 1 && run != SKMD_PART_RUN_RETRY)
        return;
    int dev = g->whole_dev;
    skmd_log(SKMD_LOG_INFO, "plan %s: placement: cycles (the app's writes to its last "
             "wait before the next ones) measured %.3f ms placed, %.3f ms not: %s%s",
             e->name, g->split_ms, dev >= 0 ? g->whole_ms[dev] : 0.0,
             g->whole_mode ? "not placed" : "placed",
             g->whole_mode != was_whole ? " from now on" : " still");
}

/* Under plan_lock: the launch of the placement guard's sample has ended (the sample may
 * go on to the app's next writes: placement_cycle.h). */
void plan_cycle_launch_ended(const struct skmd_plan_ticket *t)
{
    struct entry *e = plan_entry_find(t->kernel, t->shape);
    struct skmd_plan_cycle done;
    if (e && skmd_cycle_launch_ended(&e->cycles, &t->cycle, skmd_now_ns(), &done))
        observe_cycle(e, &done);
}
