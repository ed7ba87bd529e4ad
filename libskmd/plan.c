/* libskmd/plan.c: the partitioner in the runtime (see plan.h).
 *
 * Per (kernel, launch shape class) an entry holds one performance table per member,
 * read from the profile database the first time the pair is launched, and refined by the
 * measured kernel times of its shares. A launch's problem for partitioner/ is built from
 * those tables, the members' link curves (calibrated by skmd-profile calibrate, else the
 * defaults of plan_links.c) and the bytes a share moves (linear fit of the footprint
 * analysis over two share sizes), less the bytes already current on each member
 * (plan_problem.c). Cold start: a kind of device with no measurement gets a probe share
 * (1/32) on one member and never more; the static features' roofline prediction
 * (skmd_part_predict) only picks who takes the rest when nothing is measured. Whether the
 * app's writes are placed for the launch is plan_place.c's. All state is under one lock
 * (plan_internal.h): any thread may call. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../partitioner/skmd_part.h"
#include "../profiledb/skmd_profiledb.h"
#include "api.h"
#include "config.h"
#include "hash.h"
#include "log.h"
#include "placement.h"
#include "plan.h"
#include "plan_guard_store.h"
#include "plan_internal.h"
#include "share.h"
#include "share_align.h"
#include "transfer.h"

/* A new decision must be 10% faster than the cached one: timings on shared cores are noisy. */
#define PLAN_HYSTERESIS 0.10
#define PLAN_CPU_GBYTES 20.0   /* predictor's memory bandwidth of a CPU member */
#define PLAN_GPU_GBYTES 500.0

/* The state plan_internal.h shares (described there). */
pthread_mutex_t plan_lock = PTHREAD_MUTEX_INITIALIZER;
struct skmd_pdb *plan_db;
struct skmd_part_cache *plan_cache;
struct member_info plan_info[SKMD_MAX_MEMBERS];
double plan_peer_rate[SKMD_MAX_MEMBERS][SKMD_MAX_MEMBERS];
unsigned char plan_twin[SKMD_MAX_MEMBERS][SKMD_MAX_MEMBERS];

static pthread_once_t plan_once = PTHREAD_ONCE_INIT;
static struct entry *entries;
static uint64_t launches_since_flush;
static int policy;
/* Launches per guard verdict (enum skmd_part_run), and the guard's switches (to whole, back
 * to the split, between the splits with and without the host's cores). guard_warmups:
 * launches left out of the guard's samples (a member's first share). */
static uint64_t guard_runs[5], guard_to_whole, guard_to_split, guard_to_offhost,
    guard_to_full, guard_warmups;

static void db_report(void *user, const char *message)
{
    (void)user;
    skmd_log(SKMD_LOG_WARN, "profile database: %s", message);
}

static void device_text(cl_device_id d, cl_device_info what, char *buf, size_t size)
{
    buf[0] = 0;
    if (real_clGetDeviceInfo(d, what, size, buf, NULL) != CL_SUCCESS)
        buf[0] = 0;
    buf[size - 1] = 0;
}

static cl_uint device_uint(cl_device_id d, cl_device_info what)
{
    cl_uint v = 0;
    if (real_clGetDeviceInfo(d, what, sizeof v, &v, NULL) != CL_SUCCESS)
        v = 0;
    return v;
}

/* The database's identity of member m: identical devices get "#2", "#3" after the name
 * so that each keeps its own tables. */
static void device_id(int m, char *vendor, char *name, char *driver, size_t size)
{
    cl_device_id d = skmd_state.members[m].real_device;
    device_text(d, CL_DEVICE_VENDOR, vendor, size);
    device_text(d, CL_DRIVER_VERSION, driver, size);
    int same = 0;
    for (int o = 0; o < m; o++)
        same += !strcmp(skmd_state.members[o].name, skmd_state.members[m].name);
    snprintf(name, size, "%s", skmd_state.members[m].name);
    if (same) {
        size_t at = strlen(name);
        snprintf(name + at, size - at, " #%d", same + 1);
    }
}

/* The members' database ids and the policy, for the guard states kept in the database. */
struct skmd_plan_guard_members plan_guard_members(int64_t *ids)
{
    for (int m = 0; m < skmd_state.nmembers; m++)
        ids[m] = plan_info[m].db_id;
    return (struct skmd_plan_guard_members){
        ids, skmd_state.nmembers, skmd_part_policy_name((enum skmd_part_policy)policy)};
}

static void plan_at_exit(void)
{
    skmd_xfer_set_observer(NULL);
    skmd_xfer_set_window_observer(NULL);
    skmd_plan_flush();
    pthread_mutex_lock(&plan_lock);
    skmd_plan_guard_forget();
    uint64_t guarded = 0;
    for (size_t i = 0; i < sizeof guard_runs / sizeof guard_runs[0]; i++)
        guarded += guard_runs[i];
    if (guarded)
        skmd_log(SKMD_LOG_INFO, "plan guard: %llu split, %llu whole samples, %llu whole "
                 "(the split measured slower), %llu split retries, %llu samples of the other "
                 "split (with or without the host's cores); went whole %llu times, back to "
                 "the split %llu times, to the split without the host's cores %llu times, "
                 "back to the partitioner's %llu times; %llu left out (a member's first "
                 "share)",
                 (unsigned long long)guard_runs[0], (unsigned long long)guard_runs[1],
                 (unsigned long long)guard_runs[2], (unsigned long long)guard_runs[3],
                 (unsigned long long)guard_runs[4], (unsigned long long)guard_to_whole,
                 (unsigned long long)guard_to_split, (unsigned long long)guard_to_offhost,
                 (unsigned long long)guard_to_full, (unsigned long long)guard_warmups);
    if (plan_host_rate > 0 || plan_host_busy_rate > 0)
        skmd_log(SKMD_LOG_INFO, "plan: the host's side carried %.2f GB/s for several "
                 "members at once, %.2f GB/s while a CPU member's share computed (0: not "
                 "seen)", plan_host_rate / 1e6, plan_host_busy_rate / 1e6);
    for (struct entry *e = entries, *next; e; e = next) {
        next = e->next;
        free(e);
    }
    entries = NULL;
    skmd_part_cache_free(plan_cache);
    plan_cache = NULL;
    skmd_pdb_close(plan_db);
    plan_db = NULL;
    pthread_mutex_unlock(&plan_lock);
}

static void plan_init(void)
{
    const struct skmd_config *cfg = skmd_config();
    policy = skmd_part_policy_from_name(cfg->policy);
    if (policy < 0)
        policy = SKMD_PART_POLICY_SKMD;
    plan_db = skmd_pdb_open(cfg->profile_db[0] ? cfg->profile_db : NULL, db_report, NULL);
    plan_cache = skmd_part_cache_new(PLAN_HYSTERESIS);
    for (int m = 0; m < skmd_state.nmembers; m++) {
        struct member_info *mi = &plan_info[m];
        const struct skmd_member *mb = &skmd_state.members[m];
        int cpu = (mb->type & CL_DEVICE_TYPE_CPU) != 0;
        char vendor[256], name[300], driver[256];
        device_id(m, vendor, name, driver, sizeof vendor);
        struct skmd_pdb_device_id id = {vendor, name, driver};
        mi->db_id = -1;
        if (plan_db && skmd_pdb_device(plan_db, &id, &mi->db_id) != SKMD_PDB_OK &&
            !skmd_pdb_persistent(plan_db))
            mi->db_id = -1;
        plan_default_link(mi, m, cpu);
        if (plan_db && mi->db_id >= 0)
            plan_load_links(mi);
        double cu = device_uint(mb->real_device, CL_DEVICE_MAX_COMPUTE_UNITS);
        double mhz = device_uint(mb->real_device, CL_DEVICE_MAX_CLOCK_FREQUENCY);
        cu = cu > 0 ? cu : 1;
        mhz = mhz > 0 ? mhz : 1000;
        mi->peak_rate = cu * mhz;
        /* Rough peaks for the roofline predictor: SIMD width x cores for a CPU, wide
         * compute units with several resident work-groups for a GPU. */
        mi->peaks = (struct skmd_part_peaks){
            .int_gops = cu * mhz * 1e-3 * (cpu ? 8 : 64),
            .float_gflops = cu * mhz * 1e-3 * (cpu ? 16 : 128),
            .mem_gbytes = cpu ? PLAN_CPU_GBYTES : PLAN_GPU_GBYTES,
            .compute_units = cpu ? cu : cu * 4,
            .launch_ms = cpu ? 0.02 : 0.01,
        };
    }
    char driver[SKMD_MAX_MEMBERS][256];
    for (int m = 0; m < skmd_state.nmembers; m++)
        device_text(skmd_state.members[m].real_device, CL_DRIVER_VERSION, driver[m],
                    sizeof driver[m]);
    for (int m = 0; m < skmd_state.nmembers; m++)
        for (int o = 0; o < skmd_state.nmembers; o++)
            plan_twin[m][o] = o != m && !strcmp(driver[m], driver[o]) &&
                              !strcmp(skmd_state.members[m].name, skmd_state.members[o].name);
    plan_load_host_rates();
    if (cfg->refine || cfg->profile_sweep) {
        skmd_xfer_set_observer(plan_observe_transfer);
        skmd_xfer_set_window_observer(plan_observe_window);
    }
    atexit(plan_at_exit);
}

/* Under plan_lock: the entry of a kernel and shape class (NULL: none yet). */
struct entry *plan_entry_find(uint64_t kernel, uint32_t shape)
{
    for (struct entry *e = entries; e; e = e->next)
        if (e->kernel == kernel && e->shape == shape)
            return e;
    return NULL;
}

/* The key of an entry's finish offsets in the database: they hold for this set of
 * members (a member without a database id makes it one the database refuses). */
static struct skmd_pdb_offset_key offset_key(const struct entry *e, int64_t *ids)
{
    struct skmd_plan_guard_members members = plan_guard_members(ids);
    return (struct skmd_pdb_offset_key){e->kernel, e->shape, ids, members.n};
}

/* The finish offsets the last process left for the entry's kernel and shape class, so
 * that this one's first estimated splits are balanced too (SKMD_KEEP_OFFSETS). Under
 * plan_lock. */
static void load_offsets(struct entry *e)
{
    if (!skmd_config()->keep_offsets)
        return;
    int64_t ids[SKMD_MAX_MEMBERS];
    struct skmd_pdb_offset_key key = offset_key(e, ids);
    char said[256] = "";
    size_t used = 0;
    for (int m = 0; m < skmd_state.nmembers && plan_db; m++) {
        if (skmd_pdb_get_offset(plan_db, &key, plan_info[m].db_id, &e->finish_offset[m]) !=
            SKMD_PDB_OK)
            continue;
        e->offset_known[m] = 1;
        int n = snprintf(said + used, sizeof said - used, "%s member %d %+.3f ms",
                         used ? "," : "", m, e->finish_offset[m]);
        used = n > 0 && (size_t)n < sizeof said - used ? used + (size_t)n : used;
    }
    if (used)
        skmd_log(SKMD_LOG_INFO, "plan %s: finish offsets from the profile database:%s",
                 e->name, said);
}

/* Under plan_lock, with the entry's tables. */
static void store_offsets(const struct entry *e)
{
    int64_t ids[SKMD_MAX_MEMBERS];
    struct skmd_pdb_offset_key key = offset_key(e, ids);
    for (int m = 0; m < skmd_state.nmembers; m++)
        if (e->offset_known[m])
            skmd_pdb_put_offset(plan_db, &key, plan_info[m].db_id, e->finish_offset[m]);
}

/* Loads (kernel, shape)'s tables from the database on first use. Under plan_lock. */
static struct entry *entry_for(uint64_t kernel, uint32_t shape, const char *name)
{
    struct entry *e = plan_entry_find(kernel, shape);
    if (e)
        return e;
    e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    e->kernel = kernel;
    e->shape = shape;
    snprintf(e->name, sizeof e->name, "%s", name);
    for (int m = 0; m < skmd_state.nmembers && plan_db; m++) {
        struct skmd_pdb_perf perf;
        if (plan_info[m].db_id < 0 ||
            skmd_pdb_get_perf(plan_db, kernel, plan_info[m].db_id, shape, &perf) != SKMD_PDB_OK)
            continue;
        for (int k = 0; k < SKMD_PART_RANGES; k++) {
            e->table[m].rate[k] = perf.rate[k];
            e->table[m].samples[k] = perf.samples[k];
        }
    }
    load_offsets(e);
    e->next = entries;
    entries = e;
    return e;
}

int plan_has_measurement(const struct skmd_part_table *t)
{
    for (int k = 0; k < SKMD_PART_RANGES; k++)
        if (t->rate[k] > 0 && t->samples[k] > 0)
            return 1;
    return 0;
}

/* Whether the partitioner has a measured rate for member m: its own, or an eligible
 * identical member's (lent by plan_build_problem's table_with_twins). */
static int rated(const struct skmd_plan_request *r, const struct entry *e, int m)
{
    if (plan_has_measurement(&e->table[m]))
        return 1;
    for (int o = 0; o < skmd_state.nmembers; o++)
        if (plan_twin[m][o] && r->eligible[o] && plan_has_measurement(&e->table[o]))
            return 1;
    return 0;
}

/* The member that takes a launch whole when nothing is measured: the queue's member when
 * it is not a CPU, else the first eligible member that is not a CPU (GPUs first), else
 * the queue's member, else the first eligible one. */
static int preferred_member(const struct skmd_plan_request *r)
{
    int exec = r->exec_member, first = -1, gpu = -1;
    for (int m = 0; m < skmd_state.nmembers; m++) {
        if (!r->eligible[m])
            continue;
        first = first < 0 ? m : first;
        if (gpu < 0 && !(skmd_state.members[m].type & CL_DEVICE_TYPE_CPU))
            gpu = m;
    }
    int exec_ok = exec >= 0 && exec < skmd_state.nmembers && r->eligible[exec];
    if (exec_ok && !(skmd_state.members[exec].type & CL_DEVICE_TYPE_CPU))
        return exec;
    return gpu >= 0 ? gpu : exec_ok ? exec : first;
}

/* The fastest member for the whole launch by the tables (measure: measured ones only,
 * else predictions too); -1: no such table. */
static int fastest_member(const struct skmd_plan_request *r, const struct entry *e,
                          int measured)
{
    int best = -1;
    double best_rate = 0;
    for (int m = 0; m < skmd_state.nmembers; m++) {
        if (!r->eligible[m] || (measured && !plan_has_measurement(&e->table[m])))
            continue;
        double rate = skmd_part_rate(&e->table[m], r->total_groups);
        if (rate > best_rate)
            best = m, best_rate = rate;
    }
    return best;
}

/* Sweep step s of a kernel (SKMD_PROFILE_SWEEP=N sizes): step j*n + m gives member m
 * total / 4^j work-groups and the others the rest equally. 0 when the sweep is over. */
static int sweep(const struct skmd_plan_request *r, uint64_t s, uint64_t *count)
{
    int n = skmd_state.nmembers;
    uint64_t sizes = (uint64_t)skmd_config()->profile_sweep;
    if (s >= sizes * (uint64_t)n)
        return 0;
    int m = (int)(s % (uint64_t)n);
    unsigned j = (unsigned)(s / (uint64_t)n);
    if (!r->eligible[m])
        return 0;
    memset(count, 0, sizeof *count * (size_t)n);
    if (j == 0) {
        count[m] = r->total_groups;
        return 1;
    }
    unsigned char others[SKMD_MAX_MEMBERS];
    int nothers = 0;
    for (int o = 0; o < n; o++)
        nothers += others[o] = r->eligible[o] && o != m;
    uint64_t quarter = j < 32 ? r->total_groups >> (2 * j) : 0;
    quarter = !nothers ? r->total_groups : quarter ? quarter : 1;
    if (nothers)
        skmd_shares(r->total_groups - quarter, n, others, count);
    count[m] = quarter;
    return 1;
}

/* A launch's decision-cache key; with placed, the key of its placement's guard
 * (plan_place_measured), apart from the launch's own. */
static void key_of(const struct skmd_plan_request *r, uint64_t kernel, int placed,
                   struct skmd_part_key *key)
{
    key->kernel = kernel;
    uint64_t h0 = skmd_fnv(SKMD_FNV_BASIS, &r->shape->work_dim, sizeof r->shape->work_dim);
    h0 = skmd_fnv(h0, r->shape->global_offset, sizeof r->shape->global_offset);
    h0 = skmd_fnv(h0, r->shape->global_size, sizeof r->shape->global_size);
    key->shape = skmd_fnv(h0, r->shape->local_size, sizeof r->shape->local_size);
    uint64_t h = skmd_fnv(SKMD_FNV_BASIS, r->eligible, (size_t)skmd_state.nmembers);
    for (unsigned p = 0; p < r->rec->nparams; p++)
        if (r->args[p].mem)
            h = skmd_fnv(h, &r->args[p].mem->size, sizeof r->args[p].mem->size);
    key->buffers = placed ? h ^ PLAN_KEY_PLACED : h;
}

/* A launch given whole to one member stays on the member that already holds most of its
 * inputs (its "home"; ties: the preferred member) unless the other is measured clearly
 * faster: moving every input from one GPU to another through the host costs more than a
 * few percent of kernel speed (two alike GPUs would swap a launch back and forth). Once
 * away, it stays while that member is still PLAN_STAY_GAIN faster: rates measured near the
 * threshold would otherwise send the launch home and back. */
#define PLAN_MOVE_GAIN 1.5
#define PLAN_STAY_GAIN 1.2
static void keep_home(const struct skmd_plan_request *r, const struct entry *e, int *away,
                      const struct residency *resident, uint64_t *count)
{
    int whole = -1;
    for (int m = 0; m < skmd_state.nmembers; m++)
        if (count[m] == r->total_groups)
            whole = m;
    if (whole < 0)
        return;
    int home = preferred_member(r);
    for (int m = 0; m < skmd_state.nmembers; m++)
        if (r->eligible[m] && (home < 0 || resident->in[m] > resident->in[home]))
            home = m;
    if (home < 0 || home == whole || !plan_has_measurement(&e->table[home]))
        return;
    double rate_whole = skmd_part_rate(&e->table[whole], r->total_groups);
    double rate_home = skmd_part_rate(&e->table[home], r->total_groups);
    double gain = *away == whole + 1 ? PLAN_STAY_GAIN : PLAN_MOVE_GAIN;
    if (rate_whole < gain * rate_home) {
        count[whole] = 0;
        count[home] = r->total_groups;
        *away = 0;
    } else {
        *away = whole + 1;
    }
}

/* Under plan_lock: the partitioner's decision over the members of r->eligible for
 * r->total_groups work-groups (dev[i] is member map[i]). */
int plan_partition(const struct skmd_plan_request *r, struct entry *e,
                   const struct residency *resident, int use_cache,
                   struct skmd_part_result *res, int *map, int *n)
{
    struct skmd_part_device dev[SKMD_MAX_MEMBERS];
    struct skmd_part_problem p;
    *n = plan_build_problem(r, e, resident, dev, map, &p);
    if (*n <= 0)
        return SKMD_PART_EINVAL;
    /* Shares of whole rows: the problem in units of rows (share_align.h). */
    uint64_t unit = skmd_share_scale_problem(&p, dev, r->unit) ? r->unit : 1;
    if (!use_cache || !plan_cache) {
        int status = skmd_part_decide(&p, (enum skmd_part_policy)policy, res);
        skmd_share_unscale_result(res, unit);
        return status;
    }
    struct skmd_part_key key;
    int replaced = 0;
    key_of(r, e->kernel, 0, &key);
    int status = skmd_part_cache_decide(plan_cache, &key, &p, (enum skmd_part_policy)policy,
                                        res, &replaced);
    skmd_share_unscale_result(res, unit);
    if (status == SKMD_PART_OK && replaced && plan_db) {
        int64_t ids[SKMD_MAX_MEMBERS];
        for (int i = 0; i < *n; i++)
            ids[i] = plan_info[map[i]].db_id;
        struct skmd_pdb_decision d = {e->kernel, e->shape,
                                      skmd_part_policy_name((enum skmd_part_policy)policy),
                                      r->total_groups, *n, ids, res->count, res->overall_ms,
                                      "new decision"};
        skmd_pdb_log_decision(plan_db, &d);
    }
    return status;
}

/* Under plan_lock. Cold start: each kind of eligible device with no measured rate for
 * this kernel gets one probe share (1/32 of the work-groups, at least 1) on one of its
 * members, and never more, so a wrong guess costs at most a probe. Identical devices
 * share what one of them measures (table_with_twins), so the others are not probed: a
 * probe moves the inputs its work-groups read, which is the whole buffer where the
 * footprint is unknown (a gigabyte to three GPUs for 3 of 32 work-groups of mvt_cols).
 * The rest goes to the rated members, as the partitioner splits it among
 * them; when none is rated, to one member: the preferred member when it is not a CPU (a
 * GPU is rarely much slower than the CPU, the CPU often 100 times slower than a GPU, and
 * the roofline's peaks are rough), else the fastest by the static prediction; its twins
 * learn from its run. Where nothing is learnt (learn 0: SKMD_REFINE=0) a probe would
 * measure nothing and be paid again at every launch: the unmeasured members get none. 0
 * when the launch is too small to probe (fewer work-groups than members). measured[m]:
 * whether eligible member m is rated (rated(), worked out once by decide()). */
static int cold_start(const struct skmd_plan_request *r, struct entry *e,
                      const struct residency *resident, const unsigned char *measured,
                      int learn, uint64_t *count)
{
    int n = skmd_state.nmembers, nunmeasured = 0, nmeasured = 0;
    for (int m = 0; m < n; m++) {
        nmeasured += r->eligible[m] && measured[m];
        nunmeasured += r->eligible[m] && !measured[m];
    }
    if (nmeasured + nunmeasured == 0 || r->total_groups < (uint64_t)(nmeasured + nunmeasured))
        return 0;
    uint64_t probe = !learn ? 0 : r->total_groups / 32 ? r->total_groups / 32 : 1;
    int bulk = -1; /* the one member that takes the rest when none is measured */
    int preferred = preferred_member(r), predicted = fastest_member(r, e, 0);
    int gpu_first = preferred >= 0 && !(skmd_state.members[preferred].type & CL_DEVICE_TYPE_CPU);
    if (!nmeasured)
        bulk = gpu_first || predicted < 0 ? preferred : predicted;
    /* One probed member per kind of device, none of the bulk member's kind. */
    unsigned char probed[SKMD_MAX_MEMBERS] = {0};
    int nprobed = 0;
    for (int m = 0; m < n; m++) {
        int covered = m == bulk || (bulk >= 0 && plan_twin[m][bulk]);
        for (int o = 0; o < m && !covered; o++)
            covered = probed[o] && plan_twin[m][o];
        probed[m] = r->eligible[m] && !measured[m] && !covered;
        nprobed += probed[m];
    }
    uint64_t probes = probe * (uint64_t)nprobed;
    if (probes >= r->total_groups)
        return 0;
    memset(count, 0, sizeof *count * (size_t)n);
    for (int m = 0; m < n; m++)
        count[m] = probed[m] ? probe : 0;
    uint64_t rest = r->total_groups - probes;
    if (bulk >= 0) {
        count[bulk] = rest;
        skmd_log(SKMD_LOG_DEBUG, "plan %s: cold start: %d member(s) probed with %llu "
                 "work-groups%s, the rest on member %d (%s)", e->name, nprobed,
                 (unsigned long long)probe, learn ? "" : " (nothing is learnt)", bulk,
                 gpu_first ? "the preferred member, not a CPU"
                           : predicted == bulk ? "fastest by the prediction"
                                               : "the preferred member: no prediction");
        return 1;
    }
    struct skmd_plan_request sub = *r;
    sub.eligible = measured;
    sub.total_groups = rest;
    struct skmd_part_result res;
    int map[SKMD_MAX_MEMBERS], used;
    if (plan_partition(&sub, e, resident, 0, &res, map, &used) != SKMD_PART_OK) {
        skmd_shares(rest, n, measured, count);
        for (int m = 0; m < n; m++)
            count[m] += probed[m] ? probe : 0;
    } else {
        for (int i = 0; i < used; i++)
            count[map[i]] = res.count[i];
    }
    skmd_log(SKMD_LOG_DEBUG, "plan %s: cold start: %d of %d unmeasured member(s) probed "
             "with %llu work-groups%s, the rest split among the rated ones", e->name, nprobed,
             nunmeasured, (unsigned long long)probe, learn ? "" : " (nothing is learnt)");
    return 1;
}

/* The member that would run the launch whole: the fastest measured one, unless the
 * home member holds the inputs and is not much slower (keep_home). -1: none measured. */
static int best_whole(const struct skmd_plan_request *r, const struct entry *e,
                      const struct residency *resident)
{
    uint64_t count[SKMD_MAX_MEMBERS] = {0};
    int fastest = fastest_member(r, e, 1);
    if (fastest < 0)
        return -1;
    count[fastest] = r->total_groups;
    int away = e->away; /* a question, not a decision: the entry's state stays */
    keep_home(r, e, &away, resident, count);
    for (int m = 0; m < skmd_state.nmembers; m++)
        if (count[m] == r->total_groups)
            return m;
    return fastest;
}

/* Whether the split without the members on the host's cores differs from count's: count
 * gives one of them a share, and two or more other members can take the launch (with one,
 * that split is the guard's whole run). */
static int offhost_differs(const struct skmd_plan_request *r, const uint64_t *count)
{
    int host_share = 0, others = 0;
    for (int m = 0; m < skmd_state.nmembers; m++) {
        int on_host = skmd_member_on_host_cores(&skmd_state.members[m]);
        host_share |= count[m] && on_host;
        others += r->eligible[m] && !on_host;
    }
    return host_share && others >= 2;
}

/* Under plan_lock: the partitioner's split among the members not on the host's cores, in
 * count; 0 when it fails (count unchanged). Cached under its own key (the eligible
 * members are part of it). */
static int split_offhost(const struct skmd_plan_request *r, struct entry *e,
                         const struct residency *resident, uint64_t *count)
{
    unsigned char eligible[SKMD_MAX_MEMBERS];
    for (int m = 0; m < skmd_state.nmembers; m++)
        eligible[m] = r->eligible[m] && !skmd_member_on_host_cores(&skmd_state.members[m]);
    struct skmd_plan_request off = *r;
    off.eligible = eligible;
    struct skmd_part_result res;
    int map[SKMD_MAX_MEMBERS], n = 0;
    if (plan_partition(&off, e, resident, 1, &res, map, &n) != SKMD_PART_OK)
        return 0;
    memset(count, 0, sizeof *count * (size_t)skmd_state.nmembers);
    for (int i = 0; i < n; i++)
        count[map[i]] = res.count[i];
    return 1;
}

/* Under plan_lock: the measured guard's word on a decision that splits (skmd_part.h): it
 * may run the launch whole on one member instead, or split without the members on the
 * host's cores. */
static void guard(const struct skmd_plan_request *r, struct entry *e,
                  const struct residency *resident, uint64_t *count,
                  struct skmd_plan_ticket *t)
{
    int shares = 0;
    for (int m = 0; m < skmd_state.nmembers; m++)
        shares += count[m] > 0;
    struct skmd_part_key key;
    key_of(r, e->kernel, 0, &key);
    /* The linear policy stays the blind baseline it is meant to be. */
    int guarded = shares >= 2 && t->learn && policy != SKMD_PART_POLICY_LINEAR;
    struct skmd_part_guard *g = guarded ? skmd_part_cache_guard(plan_cache, &key) : NULL;
    if (!g)
        return;
    int64_t ids[SKMD_MAX_MEMBERS];
    struct skmd_plan_guard_members members = plan_guard_members(ids);
    skmd_plan_guard_meet(plan_db, &members, &key, e->shape, e->name, g);
    /* The member last sampled stays the one to sample unless another is measured clearly
     * faster (near-equal members whose tables cross would spread the samples thin). */
    int best = best_whole(r, e, resident), kept = g->whole_dev;
    if (best >= 0 && kept >= 0 && kept != best && kept < skmd_state.nmembers &&
        r->eligible[kept] && plan_has_measurement(&e->table[kept]) &&
        skmd_part_rate(&e->table[best], r->total_groups) <
            PLAN_MOVE_GAIN * skmd_part_rate(&e->table[kept], r->total_groups))
        best = kept;
    int offhost = offhost_differs(r, count);
    int dev, run = skmd_part_guard_choose(g, best, offhost, &dev);
    t->guard = run + 1;
    t->guard_dev = dev;
    t->guard_offhost = skmd_part_guard_runs_offhost(g, run);
    t->key_shape = key.shape;
    t->key_buffers = key.buffers;
    guard_runs[run]++;
    if (dev >= 0 && (dev >= skmd_state.nmembers || !r->eligible[dev]))
        t->guard = 0; /* its member cannot take the launch now: the split runs, unjudged */
    if (dev < 0 && offhost && t->guard_offhost && !split_offhost(r, e, resident, count))
        t->guard = 0; /* no such split to be had: the partitioner's runs, unjudged */
    if (run == SKMD_PART_RUN_OTHER_SPLIT && t->guard)
        skmd_log(SKMD_LOG_INFO, "plan %s: guard: the split %s the members on the host's cores, "
                 "measured (%.3f ms x%u with them, %.3f ms x%u without)", e->name,
                 t->guard_offhost ? "without" : "with", g->split_ms, g->split_n,
                 g->offhost_ms, g->offhost_n);
    if (dev < 0 || !t->guard)
        return;
    memset(count, 0, sizeof *count * (size_t)skmd_state.nmembers);
    count[dev] = r->total_groups;
    if (run == SKMD_PART_RUN_WHOLE_SAMPLE) {
        uint32_t split_n;
        double split_ms = skmd_part_guard_split_in_use(g, &split_n);
        skmd_log(SKMD_LOG_INFO, "plan %s: guard: whole sample on member %d (split %.3f ms "
                 "x%u, whole there %.3f ms x%u)", e->name, dev, split_ms, split_n,
                 g->whole_ms[dev], g->whole_n[dev]);
    }
}

/* Under plan_lock. A member the decision leaves idle is measured again now and then (1
 * launch in PLAN_PROBE_EVERY of the entry): it takes a probe share from the member with
 * the most work-groups, as large as its table says it runs in half of that member's
 * estimated time (a power of two, at most half the launch), so the probe is large enough
 * to show the member's rate at sizes it would get, and costs the launch little when the
 * table is right. So a kernel kept on one member learns the others' rates as sizes
 * change. Not on the guard's samples and retries, whose times must stay clean. */
#define PLAN_PROBE_EVERY 64
/* A member's first part of a kernel in a process builds it there (PoCL compiles the
 * kernel, NVIDIA builds the share program: tens to hundreds of ms) on the launch's path:
 * a probe that would be the first part on its member, or on the donor, waits until the
 * kernel has had this many launches, when such a cost is small beside theirs. */
#define PLAN_PROBE_UNBUILT_AFTER 1024
static void probe_idle(const struct skmd_plan_request *r, struct entry *e, uint64_t *count,
                       struct skmd_plan_ticket *t)
{
    int n = skmd_state.nmembers, donor = -1, idle = -1;
    if (!t->learn || e->launches % PLAN_PROBE_EVERY != PLAN_PROBE_EVERY - 1 ||
        t->guard == SKMD_PART_RUN_WHOLE_SAMPLE + 1 || t->guard == SKMD_PART_RUN_RETRY + 1 ||
        t->guard == SKMD_PART_RUN_OTHER_SPLIT + 1 || r->total_groups < 2)
        return;
    for (int m = 0; m < n; m++)
        if (count[m] && (donor < 0 || count[m] > count[donor]))
            donor = m;
    for (int i = 0; i < n && idle < 0; i++) {
        int m = (e->probe_turn + i) % n;
        if (r->eligible[m] && !count[m] && plan_has_measurement(&e->table[m]))
            idle = m;
    }
    if (donor < 0 || idle < 0)
        return;
    e->probe_turn = (idle + 1) % n;
    if ((!e->ran_part[idle] || !e->ran_part[donor]) && e->launches < PLAN_PROBE_UNBUILT_AFTER) {
        skmd_log(SKMD_LOG_INFO, "plan %s: no probe of idle member %d: member %d has not run "
                 "a part of this kernel in this process (its first one builds it there, on "
                 "the launch's path); not before launch %d", e->name, idle,
                 e->ran_part[idle] ? donor : idle, PLAN_PROBE_UNBUILT_AFTER);
        return;
    }
    double donor_rate = skmd_part_rate(&e->table[donor], count[donor]);
    if (!(donor_rate > 0))
        return;
    double donor_ms = (double)count[donor] / donor_rate + plan_info[donor].launch_ms;
    /* At a size never measured the member is taken to run at its best measured rate (a
     * GPU measured on a small probe is slow per work-group there, not on larger shares);
     * once measured, that size's own rate counts, so each size is explored once. */
    const struct skmd_part_table *tab = &e->table[idle];
    double best = 0;
    for (int k = 0; k < SKMD_PART_RANGES; k++)
        best = tab->samples[k] > 0 && tab->rate[k] > best ? tab->rate[k] : best;
    uint64_t size = 0;
    double size_ms = 0;
    for (uint64_t next = 1; next <= r->total_groups / 2; next *= 2) {
        double rate = skmd_part_rate(tab, next);
        if (!tab->samples[skmd_part_range_of(next)] && best > rate)
            rate = best;
        double ms = rate > 0 ? (double)next / rate : SKMD_PART_NEVER_MS;
        if (ms + plan_info[idle].launch_ms > donor_ms / 2)
            break;
        size = next;
        size_ms = ms;
    }
    /* A share whose time is mostly the member's fixed launch latency says little about
     * its rate: no probe then. */
    if (!size || size >= count[donor] || size_ms < plan_info[idle].launch_ms) {
        skmd_log(SKMD_LOG_INFO, "plan %s: no probe of idle member %d: no share fits in half "
                 "of member %d's %.3f ms and outweighs its launch latency (%.3f ms)", e->name,
                 idle, donor, donor_ms, plan_info[idle].launch_ms);
        return;
    }
    count[donor] -= size;
    count[idle] = size;
    t->guard = 0; /* neither a split nor a whole sample of the guard's */
    skmd_log(SKMD_LOG_INFO, "plan %s: probe of %llu work-groups on idle member %d "
             "(expected %.3f ms, the largest share that fits in half of member %d's %.3f ms)",
             e->name, (unsigned long long)size, idle, size_ms + plan_info[idle].launch_ms,
             donor, donor_ms);
}

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

/* The partitioner's decision serves the next PLAN_MEMO_LAUNCHES launches of the entry
 * that ask the same (its decision-cache key, its arguments, the inputs' places) while
 * they run whole on one member, by the decision or by the guard, and no measurement moves
 * a table (skmd_plan_observe): the problem and its descent cost tens of microseconds a
 * launch, which short launches chained by events wait for. A launch
 * that runs split ends it: the next split is decided anew with what that one taught (its
 * finish offsets). */
#define PLAN_MEMO_LAUNCHES 8
/* A table moved by more than this at the measured share's size (a 10% miss at alpha 0.3,
 * the decision cache's hysteresis) ends the memo. */
#define PLAN_MEMO_DRIFT 0.03

static uint64_t memo_request(const struct skmd_plan_request *r)
{
    uint64_t h = skmd_fnv(SKMD_FNV_BASIS, &r->exec_member, sizeof r->exec_member);
    h = skmd_fnv(h, &r->unit, sizeof r->unit);
    h = skmd_fnv(h, &r->merge_probe, sizeof r->merge_probe);
    /* Which buffers does not matter beyond their sizes (the key) and places (the
     * residency): jacobi_2d's two grids take turns as input and output. */
    for (unsigned p = 0; r->scalars && p < r->rec->nparams; p++)
        h = skmd_fnv(h, &r->scalars[p], sizeof r->scalars[p]);
    return h;
}

static int same_residency(const struct residency *a, const struct residency *b)
{
    if (a->pieces != b->pieces || a->placed != b->placed)
        return 0;
    for (int m = 0; m < skmd_state.nmembers; m++)
        if (a->in[m] != b->in[m] || a->remote[m] != b->remote[m] || a->from[m] != b->from[m])
            return 0;
    return 1;
}

/* The kept decision when this launch (its decision-cache key: key) asks what it was made
 * for. */
static int memo_take(const struct skmd_plan_request *r, struct entry *e,
                     const struct skmd_part_key *key, const struct residency *resident,
                     struct skmd_part_result *res, int *map, int *n)
{
    struct plan_memo *memo = &e->memo;
    if (memo->left <= 0)
        return 0;
    if (key->shape != memo->key.shape || key->buffers != memo->key.buffers ||
        memo_request(r) != memo->request || !same_residency(resident, &memo->where)) {
        memo->left = 0;
        return 0;
    }
    memo->left--;
    *res = memo->res;
    memcpy(map, memo->map, sizeof memo->map);
    *n = memo->n;
    return 1;
}

/* Keeps the partitioner's decision for the launches after this one (decide drops it
 * again when this one runs split). */
static void memo_keep(const struct skmd_plan_request *r, struct entry *e,
                      const struct skmd_part_key *key, const struct residency *resident,
                      const struct skmd_part_result *res, const int *map, int n)
{
    struct plan_memo *memo = &e->memo;
    memo->key = *key;
    memo->request = memo_request(r);
    memo->where = *resident;
    memo->res = *res;
    memcpy(memo->map, map, sizeof memo->map);
    memo->n = n;
    memo->left = PLAN_MEMO_LAUNCHES;
}

/* The kept decision's estimates are this launch's reason too. */
static void memo_note_keep(struct plan_memo *memo, const struct skmd_plan_ticket *t)
{
    memo->est_whole_ms = t->est_whole_ms;
    memo->est_split_ms = t->est_split_ms;
    memo->est_whole_member = t->est_whole_member;
    memcpy(memo->est_alone_ms, t->est_alone_ms, sizeof memo->est_alone_ms);
}

static void memo_note_take(const struct plan_memo *memo, struct skmd_plan_ticket *t)
{
    t->est_whole_ms = memo->est_whole_ms;
    t->est_split_ms = memo->est_split_ms;
    t->est_whole_member = memo->est_whole_member;
    memcpy(t->est_alone_ms, memo->est_alone_ms, sizeof t->est_alone_ms);
}

/* Under plan_lock: the partitioner's decision (or a cold-start probe, a sweep step,
 * single mode), then the guard's word on it, then now and then a probe of an idle
 * member. */
static void decide(const struct skmd_plan_request *r, struct entry *e,
                   const struct residency *resident, uint64_t *count,
                   struct skmd_plan_ticket *t)
{
    struct skmd_part_result res;
    int map[SKMD_MAX_MEMBERS];
    uint64_t step = e->launches++;
    const char *how = skmd_part_policy_name((enum skmd_part_policy)policy);
    if (!strcmp(skmd_config()->mode, "single")) {
        int m = fastest_member(r, e, 1);
        int whole = m >= 0 ? m : preferred_member(r);
        if (whole < 0)
            return; /* no member can take it: every count stays 0 */
        count[whole] = r->total_groups;
        keep_home(r, e, &e->away, resident, count);
        skmd_log(SKMD_LOG_DEBUG, "plan %s: single mode on member %d (%s)", e->name, whole,
                 m >= 0 ? "fastest in the profile" : "no profile: the preferred member");
        return;
    }
    if (skmd_config()->profile_sweep && sweep(r, step, count)) {
        skmd_log(SKMD_LOG_DEBUG, "plan %s: profiling sweep step %llu", e->name,
                 (unsigned long long)step);
        return;
    }
    int measured = 0, unmeasured = 0;
    unsigned char has_rate[SKMD_MAX_MEMBERS] = {0}; /* eligible members only */
    for (int m = 0; m < skmd_state.nmembers; m++) {
        if (!r->eligible[m])
            continue;
        has_rate[m] = rated(r, e, m);
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
        return;
    }
    if (!e->predicted && measured == 0)
        plan_predict(r, e);
    if ((policy == SKMD_PART_POLICY_SKMD || policy == SKMD_PART_POLICY_PAPER) &&
        unmeasured > 0 && cold_start(r, e, resident, has_rate, t->learn, count))
        return;
    int n = 0;
    struct skmd_part_key key;
    key_of(r, e->kernel, 0, &key);
    int kept = memo_take(r, e, &key, resident, &res, map, &n);
    if (!kept) {
        int status = plan_partition(r, e, resident, 1, &res, map, &n);
        if (status != SKMD_PART_OK) {
            skmd_log(SKMD_LOG_WARN, "plan %s: partitioner: %s; equal shares", e->name,
                     skmd_part_strerror(status));
            skmd_shares(r->total_groups, skmd_state.nmembers, r->eligible, count);
            return;
        }
        memo_keep(r, e, &key, resident, &res, map, n);
    }
    for (int i = 0; i < n; i++)
        count[map[i]] = res.count[i];
    keep_home(r, e, &e->away, resident, count);
    if (kept) {
        memo_note_take(&e->memo, t);
    } else {
        note_whole_vs_split(r, e, resident, &res, n, t);
        memo_note_keep(&e->memo, t);
    }
    skmd_log(SKMD_LOG_DEBUG, "plan %s: %s%s, estimated %.3f ms%s", e->name, how,
             kept ? " (the last decision, kept)" : "", res.overall_ms,
             resident->pieces ? " (shares that move inputs priced in pieces, overlapped)" : "");
    guard(r, e, resident, count, t);
    probe_idle(r, e, count, t);
    note_estimate(r, &res, map, n, count, t);
    int shares = 0;
    for (int m = 0; m < skmd_state.nmembers; m++)
        shares += count[m] > 0;
    if (shares > 1)
        e->memo.left = 0;
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
    const struct skmd_config *cfg = skmd_config();
    char *out = t->why_whole;
    size_t size = sizeof t->why_whole;
    int m = 0;
    while (m < skmd_state.nmembers - 1 && count[m] != r->total_groups)
        m++;
    if (single)
        snprintf(out, size, "SKMD_MODE=single runs every launch on one device");
    else if (cfg->split[0])
        snprintf(out, size, "SKMD_SPLIT gives device %d every work-group", m);
    else if (t->guard == SKMD_PART_RUN_WHOLE + 1 || t->guard == SKMD_PART_RUN_WHOLE_SAMPLE + 1)
        snprintf(out, size, "split launches of this kernel measured slower than whole ones; "
                 "whole on device %d%s", m,
                 t->guard == SKMD_PART_RUN_WHOLE_SAMPLE + 1 ? " (timed again now and then)" : "");
    else if (t->est_alone_ms[m] > 0 && t->est_split_ms > 0)
        snprintf(out, size, "estimated faster whole: %.3f ms on device %d alone, %.3f ms split",
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
    const struct skmd_config *cfg = skmd_config();
    int n = skmd_state.nmembers;
    memset(ticket, 0, sizeof *ticket);
    memset(count, 0, sizeof *count * (size_t)n);
    pthread_once(&plan_once, plan_init);
    ticket->kernel = r->kernel->profile_key;
    size_t global[3], local[3];
    for (int d = 0; d < 3; d++) {
        global[d] = (size_t)r->shape->global_size[d];
        local[d] = (size_t)r->shape->local_size[d];
    }
    ticket->shape = skmd_pdb_shape_class(r->shape->work_dim, global, local);
    ticket->learn = cfg->refine || cfg->profile_sweep;
    int single = !strcmp(cfg->mode, "single");
    if (!single && (cfg->split[0] || policy == SKMD_PART_POLICY_EQUAL)) {
        /* Forced shares, and the equal policy: share.c's rule, exactly. The entry is made
         * now, so that the kernel's name goes with the measured tables. */
        skmd_shares(r->total_groups, n, r->eligible, count);
        if (ticket->learn) {
            pthread_mutex_lock(&plan_lock);
            entry_for(ticket->kernel, ticket->shape, r->kernel->name);
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
        if (app_bytes < (double)((size_t)cfg->transfer_direct_kib << 10))
            app_part = 0;
        resident.placed = app_part > 0 && skmd_placement_intact(r, ticket->kernel,
                                                                ticket->shape,
                                                                resident.placed_count);
        uint64_t place[SKMD_MAX_MEMBERS];
        int verdict = 0;
        pthread_mutex_lock(&plan_lock);
        struct entry *e = entry_for(ticket->kernel, ticket->shape, r->kernel->name);
        /* The app wrote its inputs: a cycle of the placement's guard begins. */
        int cycle = e && app_part > 0;
        struct skmd_part_key placed_key; /* the placement guard's (plan_place_measured) */
        if (cycle)
            key_of(r, e->kernel, 1, &placed_key);
        int sample_on = cycle && !resident.placed
                            ? plan_unplaced_sample_member(r, e, &placed_key)
                            : -1;
        if (sample_on >= 0)
            count[sample_on] = r->total_groups;
        else if (e)
            decide(r, e, &resident, count, ticket);
        else
            skmd_shares(r->total_groups, n, r->eligible, count);
        if (cycle) {
            int auto_placing = strcmp(cfg->place_writes, "always") != 0;
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
    struct entry *e = entry_for(ticket->kernel, ticket->shape, r->kernel->name);
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
                      (measured_at(r->exec_member, ticket, r->total_groups) == 0 ||
                       ticket->guard == SKMD_PART_RUN_WHOLE_SAMPLE + 1 || ticket->cycle.run);
    if (used == 1)
        say_why_whole(r, count, single, ticket);
    for (int m = 0; m < n && used > 1; m++)
        if (ticket->first_share[m])
            ticket->est_whole_ms = 0; /* its time holds a compilation: no fair comparison */
    return used;
}

double skmd_plan_span_ms(cl_event first, cl_event last)
{
    cl_ulong start = 0, end = 0;
    if (!first || !last ||
        real_clGetEventProfilingInfo(first, CL_PROFILING_COMMAND_START, sizeof start, &start,
                                     NULL) != CL_SUCCESS ||
        real_clGetEventProfilingInfo(last, CL_PROFILING_COMMAND_END, sizeof end, &end,
                                     NULL) != CL_SUCCESS || end <= start)
        return -1;
    return (double)(end - start) / 1e6;
}

double skmd_plan_event_ms(cl_event ev)
{
    return skmd_plan_span_ms(ev, ev);
}

/* Under plan_lock: every dirty table and link curve to the database. */
static void flush_locked(void)
{
    launches_since_flush = 0;
    if (!plan_db)
        return;
    for (int m = 0; m < skmd_state.nmembers; m++)
        for (int dir = 0; dir < 2; dir++)
            for (int mem = 0; mem < 2; mem++)
                if (plan_info[m].link_dirty[dir][mem] && plan_info[m].db_id >= 0) {
                    plan_info[m].link_dirty[dir][mem] = 0;
                    plan_store_link(m, dir, mem);
                }
    for (struct entry *e = entries; e; e = e->next) {
        if (!e->dirty)
            continue;
        e->dirty = 0;
        skmd_pdb_kernel(plan_db, e->kernel, e->name);
        store_offsets(e);
        for (int m = 0; m < skmd_state.nmembers; m++) {
            if (plan_info[m].db_id < 0 || !plan_has_measurement(&e->table[m]))
                continue;
            struct skmd_pdb_perf perf;
            for (int k = 0; k < SKMD_PART_RANGES; k++) {
                /* Only measured ranges are stored: predictions are remade at start. */
                int keep = e->table[m].samples[k] > 0;
                perf.rate[k] = keep ? e->table[m].rate[k] : 0;
                perf.samples[k] = keep ? e->table[m].samples[k] : 0;
            }
            skmd_pdb_put_perf(plan_db, e->kernel, plan_info[m].db_id, e->shape, &perf);
        }
    }
    int64_t ids[SKMD_MAX_MEMBERS];
    struct skmd_plan_guard_members members = plan_guard_members(ids);
    plan_store_host_rates(&members);
    skmd_plan_guard_store(plan_db, &members, plan_cache);
}

/* Under plan_lock: a split the partitioner estimated, every share measured and none its
 * member's first (whose time holds one-time costs): each member's finish against the
 * estimate moves its finish offset. */
static void observe_finish(const struct skmd_plan_ticket *t, struct entry *e,
                           const double *ms, const double *finish_ms)
{
    if (!e || !finish_ms || !t->estimated)
        return;
    for (int m = 0; m < skmd_state.nmembers; m++)
        if (t->count[m] && (t->first_share[m] || !(ms[m] > 0) || !(finish_ms[m] > 0)))
            return;
    for (int m = 0; m < skmd_state.nmembers; m++) {
        if (!t->count[m])
            continue;
        double was = e->finish_offset[m];
        if (skmd_part_observe_finish(&e->finish_offset[m], finish_ms[m], ms[m], t->est_ms[m],
                                     t->est_kernel_ms[m], PLAN_ALPHA,
                                     plan_info[m].launch_ms) != SKMD_PART_OK)
            continue;
        e->offset_known[m] = 1;
        e->dirty = 1;
        if (fabs(e->finish_offset[m] - was) > 0.001)
            skmd_log(SKMD_LOG_DEBUG, "plan %s: member %d finished %.3f ms after the start "
                     "(kernel %.3f), estimated %.3f (%.3f): finish offset %+.3f ms", e->name,
                     m, finish_ms[m], ms[m], t->est_ms[m], t->est_kernel_ms[m],
                     e->finish_offset[m]);
    }
}

void skmd_plan_observe(const struct skmd_plan_ticket *ticket, const double *ms,
                       const double *finish_ms)
{
    if (!ticket->learn)
        return;
    pthread_once(&plan_once, plan_init);
    pthread_mutex_lock(&plan_lock);
    struct entry *e = entry_for(ticket->kernel, ticket->shape, "");
    for (int m = 0; e && m < skmd_state.nmembers; m++) {
        if (ticket->count[m] == 0 || !(ms[m] > 0))
            continue;
        /* A member's first share of the kernel in the process carries one-time costs (the
         * program built there, its buffers allocated, a driver's lazy compile: several
         * times the next shares' time). Into a measured table it is no
         * sample; into an empty one it is taken (the cold start needs a rate) until the
         * next sample replaces it. */
        double was = skmd_part_rate(&e->table[m], ticket->count[m]);
        if (ticket->first_share[m]) {
            if (plan_has_measurement(&e->table[m]))
                continue;
            e->unsampled[m] = e->table[m];
            e->provisional[m] = 1;
        } else if (e->provisional[m]) {
            e->table[m] = e->unsampled[m];
            e->provisional[m] = 0;
        }
        if (skmd_part_observe(&e->table[m], ticket->count[m], ms[m], PLAN_ALPHA) ==
            SKMD_PART_OK)
            e->dirty = 1;
        double now = skmd_part_rate(&e->table[m], ticket->count[m]);
        if (!(was > 0) || fabs(now / was - 1) > PLAN_MEMO_DRIFT)
            e->memo.left = 0; /* the model moved: decide anew (memo_take) */
    }
    observe_finish(ticket, e, ms, finish_ms);
    int every = skmd_config()->profile_flush;
    if (every > 0 && ++launches_since_flush >= (uint64_t)every)
        flush_locked();
    pthread_mutex_unlock(&plan_lock);
}

/* Under plan_lock: counts and tells what the guard changed. */
static void log_guard_change(const struct skmd_part_guard *g, const char *name, int was_whole,
                             int was_offhost)
{
    double split_ms = skmd_part_guard_split_in_use(g, NULL);
    if (g->offhost_mode != was_offhost) {
        *(g->offhost_mode ? &guard_to_offhost : &guard_to_full) += 1;
        skmd_log(SKMD_LOG_INFO, "plan %s: guard: the split without the members on the host's "
                 "cores measured %.3f ms, with them %.3f ms: %s from now on", name,
                 g->offhost_ms, g->split_ms, g->offhost_mode ? "without them" : "with them");
    }
    if (g->whole_mode && !was_whole) {
        guard_to_whole++;
        skmd_log(SKMD_LOG_INFO, "plan %s: guard: the split measured %.3f ms, whole on member "
                 "%d %.3f ms: whole from now on, the split retried in %llu launches", name,
                 split_ms, g->whole_dev, g->whole_ms[g->whole_dev],
                 (unsigned long long)(g->retry_at - g->launches));
    } else if (!g->whole_mode && was_whole) {
        guard_to_split++;
        skmd_log(SKMD_LOG_INFO, "plan %s: guard: the retried split measured %.3f ms, whole on "
                 "member %d %.3f ms: back to the split", name, split_ms, g->whole_dev,
                 g->whole_ms[g->whole_dev]);
    }
}

/* Under plan_lock: the name of the ticket's kernel (for the log). */
static const char *name_of(const struct skmd_plan_ticket *t)
{
    struct entry *e = plan_entry_find(t->kernel, t->shape);
    return e ? e->name : "";
}

void skmd_plan_observe_wall(const struct skmd_plan_ticket *t, double ms)
{
    if (!t->guard && !t->cycle.run)
        return;
    /* A member's first share of the kernel in the process carries one-time costs (the
     * program built there, its buffers and staging allocated: several times the next
     * launches' time): no sample of what the split or the launch costs. */
    pthread_mutex_lock(&plan_lock);
    for (int m = 0; m < skmd_state.nmembers; m++)
        if (t->count[m] && t->first_share[m]) {
            guard_warmups++;
            pthread_mutex_unlock(&plan_lock);
            return;
        }
    if (t->cycle.run)
        plan_cycle_launch_ended(t);
    if (!t->guard) {
        pthread_mutex_unlock(&plan_lock);
        return;
    }
    struct skmd_part_key key = {t->kernel, t->key_shape, t->key_buffers};
    struct skmd_part_guard *g = skmd_part_cache_guard(plan_cache, &key);
    int run = t->guard - 1, was_offhost = g ? g->offhost_mode : 0,
        was_whole = g ? g->whole_mode : 0;
    if (g && skmd_part_guard_observe(g, run, t->guard_dev, t->guard_offhost, ms) == 1) {
        log_guard_change(g, name_of(t), was_whole, was_offhost);
    } else if (g && run == SKMD_PART_RUN_RETRY) {
        skmd_log(SKMD_LOG_INFO, "plan: guard: the retried split measured %.3f ms, whole "
                 "%.3f ms: whole again, next retry in %llu launches", ms,
                 g->whole_ms[g->whole_dev],
                 (unsigned long long)(g->retry_at - g->launches));
    }
    pthread_mutex_unlock(&plan_lock);
}

void skmd_plan_observe_peer(int from, int to, uint64_t bytes, double ms)
{
    const struct skmd_config *cfg = skmd_config();
    if (from < 0 || from >= SKMD_MAX_MEMBERS || to < 0 || to >= SKMD_MAX_MEMBERS ||
        !(ms > 0) || !bytes || !(cfg->refine || cfg->profile_sweep))
        return;
    pthread_mutex_lock(&plan_lock);
    plan_smooth(&plan_peer_rate[from][to], (double)bytes / ms);
    pthread_mutex_unlock(&plan_lock);
}

void skmd_plan_observe_latency(int member, double ms)
{
    const struct skmd_config *cfg = skmd_config();
    if (member < 0 || member >= SKMD_MAX_MEMBERS || !(ms >= 0) ||
        !(cfg->refine || cfg->profile_sweep))
        return; /* SKMD_REFINE=0: decisions from the stored tables alone */
    pthread_mutex_lock(&plan_lock);
    plan_smooth(&plan_info[member].launch_ms, ms);
    pthread_mutex_unlock(&plan_lock);
}

void skmd_plan_flush(void)
{
    pthread_mutex_lock(&plan_lock);
    flush_locked();
    pthread_mutex_unlock(&plan_lock);
}
