/* libskmd/launch/launch_plan.c: whether a launch is split, and its shares. Checks what
 * rules a split out (mode, members, the kernel's analysis record, local size, arguments),
 * fills the launch's shape and scalars, asks plan.c (the partitioner) for each eligible
 * member's count of work-groups, rounds them to whole rows of groups where that spares the
 * merge (share_align.h), and decides per written buffer how its bytes are put together
 * (exact, bounds, boxes or the merge kernel, and on which member). A launch that runs whole
 * gets the reason, logged once per kernel when the user forced a split. */
#include <stdio.h>
#include <string.h>

#include "support/config.h"
#include "launch/launch_plan.h"
#include "support/hash.h"
#include "support/log.h"
#include "mem/member_health.h"
#include "launch/pieces.h"
#include "plan/plan.h"
#include "plan/share_source.h"

/* Whether member m's real kernel takes work-groups of the launch's size (a member
 * brought up after the kernel's limit was first asked may take fewer). */
static int group_fits(const struct launch *L, int m)
{
    if (!L->k->real[m])
        return 0;
    size_t items = L->local[0] * L->local[1] * L->local[2];
    size_t max = __atomic_load_n(&L->k->member_group_max[m], __ATOMIC_RELAXED);
    if (!max && real_clGetKernelWorkGroupInfo(L->k->real[m], skmd_state.members[m].real_device,
                                              CL_KERNEL_WORK_GROUP_SIZE, sizeof max, &max,
                                              NULL) == CL_SUCCESS)
        __atomic_store_n(&L->k->member_group_max[m], max, __ATOMIC_RELAXED);
    return !max || items <= max;
}

/* Member m may run this launch's kernel: up, healthy, built the program, holds its
 * buffers. */
int launch_member_may_run(const struct launch *L, int m)
{
    /* A queue of a sub-device runs on that sub-device's members only. */
    if ((L->q && !skmd_device_has(L->q->device, m)) ||
        !skmd_member_up(L->k->program->context, m) || !skmd_member_runs_kernels(m) ||
        !skmd_program_on_member(L->k->program, m))
        return 0;
    for (cl_uint a = 0; a < L->k->nargs; a++)
        if (L->args[a].mem && skmd_mem_refused(L->args[a].mem, m))
            return 0;
    return 1;
}

/* A local size for a launch that gave none, the same for every member: the largest
 * divisor of global[0] up to 64 along dimension 0 (1 along the others). Only for kernels
 * whose results do not depend on it (record's group_free). 0 when global[0] is 0. */
static int choose_local(unsigned dims, const size_t *global, size_t *local)
{
    if (global[0] == 0)
        return 0;
    local[0] = 64;
    while (global[0] % local[0] != 0)
        local[0]--;
    for (unsigned d = 1; d < 3; d++)
        local[d] = 1;
    (void)dims;
    return 1;
}

/* The user forced shares (SKMD_SPLIT, or a fixed policy) and this kernel still runs whole:
 * why, at warn level, since the user asked for a split and is not getting one; once per
 * kernel name and reason, since apps often make the same kernel many times. Launches that
 * the partitioner keeps whole say why at info level (launch_report()). */
void launch_tell_whole_once(struct launch *L, const char *why)
{
    /* Once per kernel either way: a run without forced shares has nothing to tell, and
     * every later whole launch of the kernel returns at the first test. */
    int expected = 0;
    if (!why || !__atomic_compare_exchange_n(&L->k->told_whole, &expected, 1, 0,
                                             __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        return;
    const struct skmd_config *cfg = skmd_config();
    int forced = cfg->split[0] || cfg->policy == SKMD_POLICY_EQUAL ||
                 cfg->policy == SKMD_POLICY_LINEAR;
    if (!forced || !L->q || __builtin_popcount(L->q->device->members) < 2 ||
        cfg->mode != SKMD_MODE_SPLIT)
        return;
    uint64_t key = skmd_fnv(SKMD_FNV_BASIS, L->k->name, strlen(L->k->name) + 1);
    if (skmd_log_first(skmd_fnv(key, why, strlen(why))))
        skmd_log(SKMD_LOG_WARN, "kernel %s runs whole on one device, not split as forced: %s",
                 L->k->name, why);
}

/* `why` the launch runs whole, its stable word `code` kept with the launch. */
static const char *whole_because(struct launch *L, const char *code, const char *why)
{
    L->why_code = code;
    return why;
}

/* The context's other members are brought up (cl/bring_up.h) when this launch could use
 * them: its policy wants every member, or it is measured to take SKMD_BRING_UP_US or
 * more whole on the queue's member. A kernel with no measured time runs whole first (a
 * timed share), which gives its next launch the figure. */
static void bring_up_if_worth(const struct launch *L, const struct skmd_plan_request *req)
{
    cl_context ctx = L->k->program->context;
    unsigned down = L->q->device->members & ~skmd_members_up(ctx);
    int worth = 0; /* a member down could take shares */
    for (int m = 0; m < skmd_state.nmembers && down && !worth; m++)
        worth = (down >> m & 1u) && skmd_member_takes_shares(m);
    if (!worth)
        return;
    if (skmd_plan_wants_every_member()) {
        ctx->bring_up(ctx, "the first split launch", 1);
        return;
    }
    if (atomic_load_explicit(&ctx->bring_up_started, memory_order_relaxed))
        return; /* on its way in the background: no estimate needed */
    double ms = skmd_plan_alone_ms(req, L->q->member);
    if (ms * 1000.0 >= (double)skmd_config()->bring_up_us) {
        char why[160];
        snprintf(why, sizeof why, "kernel %s measured %.2f ms whole", L->k->name, ms);
        ctx->bring_up(ctx, why, 0);
    }
}

/* Why this launch runs whole (NULL: it is split); fills the shares. */
const char *launch_plan(struct launch *L, const size_t *offset, const size_t *global,
                        const size_t *local, struct share *shares, int *nshares)
{
    const struct skmd_config *cfg = skmd_config();
    if (cfg->mode != SKMD_MODE_SPLIT && cfg->mode != SKMD_MODE_SINGLE)
        return whole_because(L, "mode", "mode is not split");
    if (skmd_state.nmembers < 2 || (L->q && __builtin_popcount(L->q->device->members) < 2))
        return whole_because(L, "one_member", "one member device");
    if (!L->rec)
        return whole_because(L, "not_analysed", "kernel not analysed (no split program)");
    if (!L->rec->splittable)
        return whole_because(L, "not_splittable",
                     L->rec->reason && L->rec->reason[0] ? L->rec->reason : "not splittable");
    size_t chosen[3];
    if (!local) {
        if (!L->rec->group_free)
            return whole_because(L, "no_local_size",
                         "no local size given and the kernel depends on the work-group size");
        if (!choose_local(L->shape.work_dim, global, chosen))
            return whole_because(L, "no_local_size",
                                 "no local size given and none divides the global size");
        local = chosen;
    }
    if (L->rec->nparams > 256)
        return whole_because(L, "too_many_params", "too many parameters");
    L->shape.work_dim = L->q ? L->shape.work_dim : 0;
    L->total_groups = 1;
    for (unsigned d = 0; d < 3; d++) {
        int used = d < L->shape.work_dim;
        L->local[d] = used ? local[d] : 1;
        if (used && (local[d] == 0 || global[d] % local[d] != 0))
            return whole_because(L, "uneven_local_size",
                                 "global size not a multiple of the local size");
        L->shape.local_size[d] = L->local[d];
        L->shape.global_size[d] = used ? global[d] : 1;
        L->shape.global_offset[d] = used && offset ? offset[d] : 0;
        L->ngroups[d] = L->shape.global_size[d] / L->local[d];
        L->total_groups *= L->ngroups[d];
    }
    if (L->total_groups < (uint64_t)cfg->min_split_workgroups)
        return whole_because(L, "too_few_groups",
                     "too few work-groups to pay for splitting (SKMD_MIN_SPLIT_WORKGROUPS)");
    for (unsigned p = 0; p < L->rec->nparams; p++) {
        const struct skmd_arg *arg = &L->args[p];
        enum skmd_param_kind kind = L->rec->params[p].kind;
        if (!arg->set)
            return whole_because(L, "arg_not_set", "an argument is not set");
        if (arg->other_handle || kind == SKMD_PARAM_IMAGE || kind == SKMD_PARAM_SAMPLER)
            return whole_because(L, "image_arg", "an image or sampler argument");
        if ((kind == SKMD_PARAM_GLOBAL || kind == SKMD_PARAM_CONSTANT) && !arg->mem &&
            arg->value)
            return whole_because(L, "foreign_pointer",
                                 "a pointer argument that is not a libskmd buffer");
        L->scalars[p] = kind == SKMD_PARAM_SCALAR && arg->value
                            ? skmd_scalar_value(&L->rec->params[p], arg->value)
                            : 0;
    }
    struct skmd_plan_request req = {L->k, L->rec, L->args, L->scalars, &L->shape,
                                    L->total_groups, NULL, L->q->member, 0, 0};
    bring_up_if_worth(L, &req);
    unsigned char eligible[SKMD_MAX_MEMBERS] = {0};
    uint64_t count[SKMD_MAX_MEMBERS];
    int candidates = 0;
    for (int m = 0; m < skmd_state.nmembers; m++) {
        eligible[m] = skmd_member_takes_shares(m) && launch_member_may_run(L, m) &&
                      group_fits(L, m);
        candidates += eligible[m];
    }
    /* One member alone runs the app's kernel whole (a timed share at most): its split
     * kernel, which may take a build of the launch's shape, is not needed. */
    for (int m = 0; m < skmd_state.nmembers && candidates >= 2; m++)
        eligible[m] = eligible[m] && skmd_share_ready(L->k, m, &L->shape);
    /* Whole rows (planes) of groups when that spares the merge (share_align.h). */
    struct skmd_share_view view = {L->rec, L->args, L->scalars, &L->shape};
    int neligible = 0;
    for (int m = 0; m < skmd_state.nmembers; m++)
        neligible += eligible[m];
    L->unit = skmd_share_unit_merge(&view, L->total_groups, neligible, &L->merge_probe);
    req.eligible = eligible;
    req.unit = L->unit;
    req.merge_probe = L->merge_probe;
    int used = skmd_plan_shares(&req, count, &L->ticket);
    skmd_share_round(count, skmd_state.nmembers, L->total_groups, L->unit);
    for (int m = 0; m < skmd_state.nmembers; m++)
        L->ticket.count[m] = count[m]; /* the measured times are of these shares */
    /* Whole on the queue's member, but its inputs must move there first: as one share in
     * pieces, its transfers overlap its kernel (pieces.h). */
    struct skmd_pieces_share whole = {L->rec, L->args, L->scalars, &L->shape, L->q->member,
                                      0, L->total_groups};
    int in_pieces = used == 1 && count[L->q->member] == L->total_groups &&
                    eligible[L->q->member] && skmd_pieces_plan(&whole) > 1 &&
                    (candidates >= 2 || skmd_share_ready(L->k, L->q->member, &L->shape));
    if (used < 1 || (count[L->q->member] == L->total_groups && !L->ticket.measure && !in_pieces))
        return used < 1 ? whole_because(L, "no_member",
                                        "fewer than two devices can take a share of this kernel")
               : L->ticket.why_whole[0]
                   ? whole_because(L, L->ticket.code, L->ticket.why_whole)
                   : whole_because(L, "partitioner",
                                   "the partitioner gives every work-group to one device");
    /* Written bytes whose bounds overlap (or are unknown) need the merge kernel on a CPU
     * member; disjoint bounds are fetched before and committed after each share. */
    uint64_t first = 0, firsts[SKMD_MAX_MEMBERS], counts[SKMD_MAX_MEMBERS];
    unsigned char mode[256];
    *nshares = 0;
    for (int m = 0; m < skmd_state.nmembers; m++) {
        if (!count[m])
            continue;
        firsts[*nshares] = first;
        counts[*nshares] = count[m];
        shares[(*nshares)++] =
            (struct share){.member = m, .first = first, .count = count[m], .ms = -1};
        first += count[m];
    }
    int need_merge = skmd_share_write_modes(&view, firsts, counts, *nshares, mode);
    for (unsigned p = 0; p < L->rec->nparams; p++) {
        L->merge_param[p] = mode[p] == SKMD_WRITE_MERGE;
        L->bound_param[p] = mode[p] == SKMD_WRITE_BOUND;
        L->rect_param[p] = mode[p] == SKMD_WRITE_RECT;
    }
    /* One share alone runs the app's kernel whole (launch_shares.c start_whole): its
     * member gets whole copies first, as a merge member does, and merges nothing. */
    L->merge_member = need_merge && *nshares == 1 ? shares[0].member : -1;
    if (need_merge) {
        for (int m = 0; m < skmd_state.nmembers && L->merge_member < 0; m++)
            if (L->k->merge[m] && skmd_member_takes_shares(m) &&
                launch_member_may_run(L, m))
                L->merge_member = m;
        if (L->merge_member < 0)
            return whole_because(L, "no_merge_member",
                         "written bytes not exactly known and no CPU member has the merge kernel");
    }
    return NULL;
}
