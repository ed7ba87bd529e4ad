/* libskmd/plan/plan_problem.c: the partitioner's problem for a launch (see plan.h).
 *
 * From the runtime's state: the bytes a share moves (the footprint analysis), where the
 * launch's inputs are current, whether its shares may run in pieces, each member's table
 * (an identical member's rates where it measured nothing) and link curves, and the
 * roofline prediction of the members a kernel never ran on. */
#include <math.h>
#include <string.h>

#include "mem/coherence.h"
#include "mem/inflight.h"
#include "plan/pieces_plan.h"
#include "plan/plan_links.h"
#include "plan/plan_problem.h"
#include "plan/plan_state.h"
#include "plan/share_align.h"

#define PLAN_MERGE_BYTES_PER_MS 2e6 /* host merge: 2 GB/s, 50 us per merged share */
#define PLAN_MERGE_FIXED_MS 0.05

/* Bytes read and written by groups [first, first + count) over every buffer argument;
 * *exact becomes 0 when a write footprint is not exact. */
void plan_share_bytes(const struct skmd_plan_request *r, uint64_t first, uint64_t count,
                      double *in, double *out, int *exact)
{
    struct skmd_interval rd[64], wr[64];
    *in = *out = 0;
    for (unsigned p = 0; p < r->rec->nparams; p++) {
        enum skmd_param_kind kind = r->rec->params[p].kind;
        if ((kind != SKMD_PARAM_GLOBAL && kind != SKMD_PARAM_CONSTANT) || !r->args[p].mem)
            continue;
        uint64_t size = r->args[p].mem->size;
        unsigned access = r->rec->params[p].access;
        struct skmd_footprint fp = {rd, wr, 64, 64, 0, 0, 0};
        if (skmd_footprint(r->rec, p, r->shape, r->scalars, first, count, &fp) != 0) {
            fp.nread = fp.nwrite = 1;
            fp.read[0] = fp.write[0] = (struct skmd_interval){0, size};
            fp.write_exact = 0;
        }
        for (size_t i = 0; i < fp.nread && (access & SKMD_ACCESS_READ); i++)
            *in += (double)((fp.read[i].end > size ? size : fp.read[i].end) -
                            (fp.read[i].begin > size ? size : fp.read[i].begin));
        if (!(access & SKMD_ACCESS_WRITE))
            continue;
        *exact &= fp.write_exact;
        for (size_t i = 0; i < fp.nwrite; i++)
            *out += (double)((fp.write[i].end > size ? size : fp.write[i].end) -
                             (fp.write[i].begin > size ? size : fp.write[i].begin));
    }
}

/* Bytes of [b, e) (root offsets) current on member m. */
static double held_on(cl_mem root, int m, uint64_t b, uint64_t e)
{
    double bytes = 0;
    uint64_t at = b;
    struct skmd_range h;
    while (skmd_ranges_next_hit(&root->valid[m], b, e, &at, &h))
        bytes += (double)(h.end - h.begin);
    return bytes;
}

/* Where the launch's read bytes are: the fraction already current on each member (left
 * there by earlier launches; those do not cross its link), and the fraction current only
 * on other members, not on the host (those come through the member that holds them).
 * Takes each buffer's lock in turn, so it is called before plan_lock is taken. */
void plan_resident_inputs(const struct skmd_plan_request *r, struct residency *where)
{
    struct skmd_interval rd[64], wr[64];
    int n = skmd_state.nmembers;
    double total = 0, hit[SKMD_MAX_MEMBERS] = {0}, away[SKMD_MAX_MEMBERS] = {0};
    double off_host[SKMD_MAX_MEMBERS] = {0};
    for (unsigned p = 0; p < r->rec->nparams; p++) {
        enum skmd_param_kind kind = r->rec->params[p].kind;
        cl_mem mem = r->args[p].mem;
        if ((kind != SKMD_PARAM_GLOBAL && kind != SKMD_PARAM_CONSTANT) || !mem ||
            !(r->rec->params[p].access & SKMD_ACCESS_READ))
            continue;
        struct skmd_footprint fp = {rd, wr, 64, 64, 0, 0, 0};
        if (skmd_footprint(r->rec, p, r->shape, r->scalars, 0, r->total_groups, &fp) != 0) {
            fp.nread = 1;
            fp.read[0] = (struct skmd_interval){0, mem->size};
        }
        cl_mem root = skmd_mem_root(mem);
        uint64_t base = mem == root ? 0 : mem->origin;
        skmd_buffer_lock(mem);
        for (size_t i = 0; i < fp.nread; i++) {
            uint64_t b = fp.read[i].begin < mem->size ? fp.read[i].begin : mem->size;
            uint64_t e = fp.read[i].end < mem->size ? fp.read[i].end : mem->size;
            total += (double)(e - b);
            for (int m = 0; m < n && e > b; m++)
                hit[m] += held_on(root, m, base + b, base + e);
            /* Bytes the host copy lacks are current on some member (coherence keeps
             * every byte current somewhere): for the others they are remote. */
            uint64_t at = base + b;
            struct skmd_range gap;
            while (e > b && skmd_ranges_next_gap(&root->valid[SKMD_HOST], base + b, base + e,
                                                 &at, &gap)) {
                for (int m = 0; m < n; m++) {
                    double held = held_on(root, m, gap.begin, gap.end);
                    off_host[m] += held;
                    away[m] += (double)(gap.end - gap.begin) - held;
                }
                at = gap.end;
            }
        }
        skmd_buffer_unlock(mem);
    }
    for (int m = 0; m < n; m++) {
        where->in[m] = total > 0 ? fmin(1.0, hit[m] / total) : 0;
        where->remote[m] = total > 0 ? fmin(1.0 - where->in[m], away[m] / total) : 0;
        where->from[m] = -1;
        for (int o = 0; o < n; o++)
            if (o != m && off_host[o] > 0 &&
                (where->from[m] < 0 || off_host[o] > off_host[where->from[m]]))
                where->from[m] = o;
        if (where->from[m] < 0)
            where->remote[m] = 0;
    }
}

/* Whether the launch's shares can run in pieces (pieces.h): only asked when an eligible
 * member would run them so, since the check evaluates footprints piece by piece. */
int plan_pieces_allowed(const struct skmd_plan_request *r)
{
    int any = 0;
    for (int m = 0; m < skmd_state.nmembers && !any; m++) {
        int k;
        double bytes;
        skmd_pieces_limits(m, &k, &bytes);
        any = r->eligible[m] && k > 1;
    }
    struct skmd_pieces_share whole = {r->rec, r->args, r->scalars, r->shape, -1, 0,
                                      r->total_groups};
    return any && skmd_pieces_launch_allows(&whole);
}

/* A member's table for one decision: where it has measured nothing at a size, the rate
 * an identical member measured there (the most samples wins). A second GPU probed only on
 * a small share is otherwise taken at its small-share rate for any size, and never gets
 * work again. Its own measurements replace the borrowed ones as they come. */
static struct skmd_part_table table_with_twins(const struct entry *e, int m,
                                               const unsigned char *eligible)
{
    struct skmd_part_table t = e->table[m];
    for (int k = 0; k < SKMD_PART_RANGES; k++) {
        uint32_t best = 0;
        for (int o = 0; o < skmd_state.nmembers && !e->table[m].samples[k]; o++)
            if (plan_twin[m][o] && eligible[o] && e->table[o].samples[k] > best &&
                e->table[o].rate[k] > 0) {
                best = e->table[o].samples[k];
                t.rate[k] = e->table[o].rate[k];
            }
    }
    return t;
}

/* The problem over the eligible members (dev[i] is member map[i]). Under plan_lock. */
int plan_build_problem(const struct skmd_plan_request *r, const struct entry *e,
                       const struct residency *resident, struct skmd_part_device *dev,
                       int *map, struct skmd_part_problem *p)
{
    int n = 0;
    memset(p, 0, sizeof *p);
    p->host_dev = -1;
    for (int m = 0; m < skmd_state.nmembers; m++) {
        if (!r->eligible[m])
            continue;
        dev[n] = (struct skmd_part_device){.table = table_with_twins(e, m, r->eligible),
                                           .link = plan_info[m].link,
                                           .on_host_cores = skmd_member_on_host_cores(
                                               &skmd_state.members[m]),
                                           .peak_rate = plan_info[m].peak_rate,
                                           .resident_in = resident->in[m],
                                           .launch_ms = plan_info[m].launch_ms,
                                           .split_ms = fmax(-plan_info[m].launch_ms,
                                                            e->finish_offset[m]),
                                           .twin_group = plan_twin_group[m]};
        for (int dir = 0; dir < 2; dir++)
            for (int mem = 0; mem < 2; mem++)
                dev[n].curve[dir][mem] = *plan_link_curve(m, dir, mem);
        /* A share in pieces costs what skmd_pieces_share_ms says, not transfer + kernel. */
        if (resident->pieces)
            skmd_pieces_limits(m, &dev[n].max_pieces, &dev[n].piece_bytes);
        if (p->host_dev < 0 && plan_info[m].link < 0 && r->kernel->merge[m])
            p->host_dev = n;
        map[n++] = m;
    }
    /* Inputs current only on another member come through it (or by a timed peer copy);
     * a source that is not in the problem is priced as host bytes. */
    for (int i = 0; i < n; i++) {
        int src = resident->from[map[i]];
        for (int j = 0; j < n && src >= 0 && resident->remote[map[i]] > 0; j++)
            if (map[j] == src) {
                dev[i].remote_in = resident->remote[map[i]];
                dev[i].remote_from = j;
                dev[i].peer_bytes_per_ms = plan_peer_rate[src][map[i]];
            }
    }
    if (!n)
        return 0;
    p->ndev = n;
    p->dev = dev;
    p->total_wg = r->total_groups;
    /* transfer.c stages every transfer but small ones through pinned buffers. */
    p->mem = SKMD_PART_PINNED;
    /* Linear fit of the bytes over two share sizes: a fixed part (unknown footprints:
     * whole buffers) and a part per work-group. */
    uint64_t half = r->total_groups / 2 ? r->total_groups / 2 : 1;
    if (r->unit > 1 && half >= r->unit)
        half = half / r->unit * r->unit; /* a cut the shares can have */
    double in_all, out_all, in_half, out_half;
    int exact = 1;
    plan_share_bytes(r, 0, r->total_groups, &in_all, &out_all, &exact);
    plan_share_bytes(r, 0, half, &in_half, &out_half, &exact);
    uint64_t rest = r->total_groups - half;
    p->in_per_wg = rest ? fmax(0, (in_all - in_half) / (double)rest) : 0;
    p->out_per_wg = rest ? fmax(0, (out_all - out_half) / (double)rest) : 0;
    p->in_fixed = fmax(0, in_all - p->in_per_wg * (double)r->total_groups);
    p->out_fixed = fmax(0, out_all - p->out_per_wg * (double)r->total_groups);
    /* Merged or not: as launch_plan.c will find for shares of this launch (share_align.h),
     * from the probe it made with the unit (also for a cold start's problem over fewer
     * members: one probe a launch). */
    struct skmd_share_view view = {r->rec, r->args, r->scalars, r->shape};
    int merge = r->merge_probe >= 0 ? r->merge_probe
                                    : skmd_share_probe_merge(&view, r->total_groups, n,
                                                             r->unit ? r->unit : 1);
    p->output_contiguous = n < 2 ? exact && !r->rec->needs_merge : !merge;
    p->merge_fixed_ms = PLAN_MERGE_FIXED_MS;
    p->merge_ms_per_byte = 1.0 / PLAN_MERGE_BYTES_PER_MS;
    p->outputs_stay = 1; /* launch_commit.c leaves written bytes where they were written */
    p->host_bytes_per_ms = plan_host_rate;
    p->host_busy_bytes_per_ms = plan_host_busy_rate;
    return n;
}

/* Cold start: the roofline prediction of every member without a measurement. */
void plan_predict(const struct skmd_plan_request *r, struct entry *e)
{
    const struct skmd_features *f = &r->rec->features;
    double items = (double)(r->shape->local_size[0] * r->shape->local_size[1] *
                            r->shape->local_size[2]);
    struct skmd_part_features pf = {
        .int_ops = f->int_ops + f->branches,
        .float_ops = f->float_ops + f->vector_ops * 4 + f->math_calls * 8,
        .mem_bytes = (f->global_loads + f->global_stores) * 4,
        .items_per_group = items > 0 ? items : 1,
    };
    e->predicted = 1;
    for (int m = 0; m < skmd_state.nmembers; m++)
        if (!skmd_part_table_measured(&e->table[m]))
            skmd_part_predict(&pf, &plan_info[m].peaks, &e->table[m]);
}
