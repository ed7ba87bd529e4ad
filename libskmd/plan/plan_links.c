/* libskmd/plan/plan_links.c: the members' link curves and the host's rates (see plan.h).
 *
 * A member's curves start from the defaults below or the ones skmd-profile calibrate
 * stored, are refined by the transfers the engine times and go back to the database with
 * the tables; the host's rates for several members at once are learnt from the engine's
 * windows and kept per set of members. */
#include "support/clock.h"
#include "plan/host_busy.h"
#include "support/log.h"
#include "plan/plan_links.h"
#include "plan/plan_state.h"

#define PLAN_PCIE_BYTES_PER_MS 8e6 /* default link of a GPU member: 8 GB/s, 20 us */
#define PLAN_PCIE_LATENCY_MS 0.02

double plan_host_rate;
double plan_host_busy_rate;
/* Both start from the database's figures for this set of members and go back to it. */
static int host_rates_dirty;
/* The process's first window carries one-time costs (staging made, a member's first
 * transfers): no sample where a rate is known, else taken until the next replaces it. */
static int host_window_seen, host_rate_provisional;

/* Default link of a member that was never calibrated: a CPU shares host memory. */
void plan_default_link(struct member_info *mi, int m, int cpu)
{
    mi->link = cpu ? -1 : m;
    for (int dir = 0; dir < 2; dir++)
        for (int mem = 0; mem < 2; mem++)
            mi->curve[dir][mem] = (struct skmd_part_link_curve){
                .latency_ms = PLAN_PCIE_LATENCY_MS,
                .bytes_per_ms = PLAN_PCIE_BYTES_PER_MS * (mem == SKMD_PART_PINNED ? 1.5 : 1),
                .scale = 1};
}

/* Calibrated curves from the database replace the defaults (skmd-profile calibrate). */
void plan_load_links(struct member_info *mi)
{
    for (int dir = 0; dir < 2; dir++)
        for (int mem = 0; mem < 2; mem++) {
            struct skmd_pdb_link l;
            if (skmd_pdb_get_link(plan_db, mi->db_id, (enum skmd_pdb_dir)dir,
                                  (enum skmd_pdb_mem)mem, &l) != SKMD_PDB_OK)
                continue;
            struct skmd_part_link_curve *c = &mi->curve[dir][mem];
            mi->link_known[dir][mem] = 1;
            *c = (struct skmd_part_link_curve){.latency_ms = l.latency_ms,
                                               .bytes_per_ms = l.bytes_per_ms,
                                               .npoints = l.npoints, .scale = 1};
            for (int i = 0; i < l.npoints && i < SKMD_PART_LINK_POINTS; i++) {
                c->point_bytes[i] = l.point_bytes[i];
                c->point_ms[i] = l.point_ms[i];
            }
        }
}

/* The transfer engine's observer (transfer_window.c): a transfer the engine timed refines
 * the member's link curve (written to the database with the tables). */
void plan_observe_transfer(int member, int to_device, int pinned, uint64_t bytes,
                           double ms)
{
    if (member < 0 || member >= skmd_state.nmembers)
        return;
    int dir = to_device ? SKMD_PART_H2D : SKMD_PART_D2H, mem = pinned ? SKMD_PART_PINNED
                                                                     : SKMD_PART_PAGEABLE;
    pthread_mutex_lock(&plan_lock);
    if (skmd_part_observe_link(&plan_info[member].curve[dir][mem], (double)bytes, ms,
                               PLAN_ALPHA) == SKMD_PART_OK)
        plan_info[member].link_dirty[dir][mem] = plan_info[member].link_known[dir][mem] = 1;
    pthread_mutex_unlock(&plan_lock);
}

/* Under plan_lock: folds a measurement into a smoothed figure (0: none yet, taken as is). */
void plan_smooth(double *figure, double measured)
{
    *figure = *figure == 0 ? measured : (1 - PLAN_ALPHA) * *figure + PLAN_ALPHA * measured;
}

/* The engine's window observer: several members' transfers at once. Small windows say
 * more of latencies than of the host's rate: not counted. A window that a CPU member's
 * share covered for the most part tells the host's rate while its cores are taken
 * (plan_host_busy_rate: what the host carried beside the idle rate's part, the rest of the
 * window); one it barely touched, the idle rate; one in between, neither. */
#define PLAN_WINDOW_MIN_BYTES (16u << 20)
void plan_observe_window(uint64_t bytes, double ms, int members)
{
    if (bytes < PLAN_WINDOW_MIN_BYTES || !(ms > 0) || members < 2)
        return;
    uint64_t end = skmd_now_ns(), span = (uint64_t)(ms * 1e6);
    double busy_ms = skmd_host_busy_ms(end > span ? end - span : 0, end);
    skmd_log(SKMD_LOG_DEBUG, "plan: host window: %d members moved %llu bytes in %.3f ms, "
             "%.3f ms of it beside a CPU member's share", members, (unsigned long long)bytes,
             ms, busy_ms);
    pthread_mutex_lock(&plan_lock);
    int first = !host_window_seen;
    host_window_seen = 1;
    if (first && plan_host_rate > 0) {
        skmd_log(SKMD_LOG_DEBUG, "plan: the process's first host window is no sample");
    } else if (busy_ms < 0.1 * ms) {
        if (host_rate_provisional)
            plan_host_rate = 0; /* replaced, not smoothed */
        host_rate_provisional = first;
        plan_smooth(&plan_host_rate, (double)bytes / ms);
        host_rates_dirty = 1;
    } else if (busy_ms >= 0.5 * ms) {
        double busy_bytes = (double)bytes - plan_host_rate * (ms - busy_ms);
        plan_smooth(&plan_host_busy_rate, plan_host_rate > 0 && busy_bytes > 0
                                              ? busy_bytes / busy_ms
                                              : (double)bytes / ms);
        host_rates_dirty = 1;
    }
    pthread_mutex_unlock(&plan_lock);
}

/* The host's rates stored for this set of members: where the last process left them (a
 * member without a database id makes the list one the database refuses). */
void plan_load_host_rates(void)
{
    int64_t ids[SKMD_MAX_MEMBERS];
    struct skmd_plan_guard_members members = plan_guard_members(ids);
    struct skmd_pdb_host h;
    if (!plan_db || skmd_pdb_get_host(plan_db, members.ids, members.n, 0, &h) != SKMD_PDB_OK)
        return;
    plan_host_rate = h.idle_bytes_per_ms;
    plan_host_busy_rate = h.busy_bytes_per_ms;
    skmd_log(SKMD_LOG_INFO, "plan: the host's rates from the profile database: %.2f GB/s, "
             "%.2f GB/s while a CPU member's share computes", plan_host_rate / 1e6,
             plan_host_busy_rate / 1e6);
}

/* Under plan_lock. */
void plan_store_host_rates(const struct skmd_plan_guard_members *members)
{
    if (!host_rates_dirty)
        return;
    host_rates_dirty = 0;
    struct skmd_pdb_host h = {plan_host_rate, plan_host_busy_rate, 0};
    skmd_pdb_put_host(plan_db, members->ids, members->n, &h);
}

/* Under plan_lock: member m's refined link curve to the database, its scale folded in
 * (the next process reads it as calibrated). */
void plan_store_link(int m, int dir, int mem)
{
    const struct skmd_part_link_curve *c = &plan_info[m].curve[dir][mem];
    double k = c->scale > 0 ? c->scale : 1;
    struct skmd_pdb_link l = {.latency_ms = c->latency_ms * k,
                              .bytes_per_ms = c->bytes_per_ms / k,
                              .npoints = c->npoints};
    for (int i = 0; i < c->npoints && i < SKMD_PDB_LINK_POINTS; i++) {
        l.point_bytes[i] = c->point_bytes[i];
        l.point_ms[i] = c->point_ms[i] * k;
    }
    skmd_pdb_put_link(plan_db, plan_info[m].db_id, (enum skmd_pdb_dir)dir,
                      (enum skmd_pdb_mem)mem, &l);
}

/* Member m's link curve or, where it was neither calibrated nor timed, an identical
 * member's that was: a second GPU that seldom moves bytes would otherwise keep the
 * default guess (12 GB/s pinned) where its twin measured 50. Under plan_lock. */
const struct skmd_part_link_curve *plan_link_curve(int m, int dir, int mem)
{
    if (plan_info[m].link_known[dir][mem])
        return &plan_info[m].curve[dir][mem];
    for (int o = 0; o < skmd_state.nmembers; o++)
        if (o != m && plan_twin[m][o] && plan_info[o].link_known[dir][mem])
            return &plan_info[o].curve[dir][mem];
    return &plan_info[m].curve[dir][mem];
}
