/* libskmd/plan/plan_setup.c: the partitioner's process-wide state, set up on the first
 * launch and torn down at exit (see plan_internal.h). Setup reads the policy, opens the
 * profile database and the decision cache, identifies each member in the database
 * (identical devices numbered apart), loads its link curves and works out its rough peaks
 * for the roofline predictor, finds the identical members (twins), loads the host's rates
 * and hooks the transfer engine's observers. At exit what was learnt is written back and
 * the guard's counts and the host's rates are logged. Defines the state plan_internal.h
 * shares. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device/api.h"
#include "support/config.h"
#include "support/log.h"
#include "plan/plan_internal.h"
#include "xfer/transfer.h"

#define PLAN_CPU_GBYTES 20.0   /* predictor's memory bandwidth of a CPU member */
#define PLAN_GPU_GBYTES 500.0

/* The state plan_internal.h shares (described there). */
pthread_mutex_t plan_lock = PTHREAD_MUTEX_INITIALIZER;
struct skmd_pdb *plan_db;
struct skmd_part_cache *plan_cache;
struct member_info plan_info[SKMD_MAX_MEMBERS];
double plan_peer_rate[SKMD_MAX_MEMBERS][SKMD_MAX_MEMBERS];
unsigned char plan_twin[SKMD_MAX_MEMBERS][SKMD_MAX_MEMBERS];
int plan_twin_group[SKMD_MAX_MEMBERS];
unsigned char plan_on_host[SKMD_MAX_MEMBERS];

static pthread_once_t plan_once = PTHREAD_ONCE_INIT;
static enum skmd_part_policy policy; /* SKMD_POLICY */
static pthread_once_t settings_once = PTHREAD_ONCE_INIT;
static struct plan_settings settings;

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
        ids, skmd_state.nmembers, skmd_part_policy_name(policy)};
}

static void plan_at_exit(void)
{
    skmd_xfer_set_observer(NULL);
    skmd_xfer_set_window_observer(NULL);
    skmd_plan_flush();
    pthread_mutex_lock(&plan_lock);
    skmd_plan_guard_forget();
    plan_guard_report();
    if (plan_host_rate > 0 || plan_host_busy_rate > 0)
        skmd_log(SKMD_LOG_INFO, "plan: the host's side carried %.2f GB/s for several "
                 "members at once, %.2f GB/s while a CPU member's share computed (0: not "
                 "seen)", plan_host_rate / 1e6, plan_host_busy_rate / 1e6);
    plan_entries_free();
    skmd_part_cache_free(plan_cache);
    plan_cache = NULL;
    skmd_pdb_close(plan_db);
    plan_db = NULL;
    pthread_mutex_unlock(&plan_lock);
}

/* The partitioner's policy of an SKMD_POLICY value. */
static enum skmd_part_policy part_policy(enum skmd_policy p)
{
    switch (p) {
    case SKMD_POLICY_SKMD:
        return SKMD_PART_POLICY_SKMD;
    case SKMD_POLICY_PAPER:
        return SKMD_PART_POLICY_PAPER;
    case SKMD_POLICY_EQUAL:
        return SKMD_PART_POLICY_EQUAL;
    case SKMD_POLICY_LINEAR:
        return SKMD_PART_POLICY_LINEAR;
    }
    return SKMD_PART_POLICY_SKMD;
}

static void plan_init(void)
{
    const struct skmd_config *cfg = skmd_config();
    policy = part_policy(cfg->policy);
    plan_db = skmd_pdb_open(cfg->profile_db[0] ? cfg->profile_db : NULL, db_report, NULL);
    plan_cache = skmd_part_cache_new(SKMD_PART_HYSTERESIS);
    for (int m = 0; m < skmd_state.nmembers; m++) {
        struct member_info *mi = &plan_info[m];
        const struct skmd_member *mb = &skmd_state.members[m];
        int cpu = (mb->type & CL_DEVICE_TYPE_CPU) != 0;
        plan_on_host[m] = (unsigned char)skmd_member_on_host_cores(mb);
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
    /* 1 + the lowest index among m and its twins; 0 without a twin */
    for (int m = 0; m < skmd_state.nmembers; m++) {
        plan_twin_group[m] = 0;
        for (int o = 0; o < skmd_state.nmembers && !plan_twin_group[m]; o++)
            if (plan_twin[m][o])
                plan_twin_group[m] = 1 + (o < m ? o : m);
    }
    plan_load_host_rates();
    if (cfg->refine || cfg->profile_sweep) {
        skmd_xfer_set_observer(plan_observe_transfer);
        skmd_xfer_set_window_observer(plan_observe_window);
    }
    atexit(plan_at_exit);
}

/* Sets the partitioner's state up once in the process; any thread, any number of times. */
void plan_setup(void)
{
    pthread_once(&plan_once, plan_init);
}

/* The policy decisions are made with (SKMD_POLICY), once plan_setup ran. */
enum skmd_part_policy plan_policy(void)
{
    return policy;
}

static void read_settings(void)
{
    const struct skmd_config *cfg = skmd_config();
    settings.single = cfg->mode == SKMD_MODE_SINGLE;
    settings.forced = cfg->split[0] != '\0';
    settings.sweep = cfg->profile_sweep;
    settings.learn = cfg->refine || cfg->profile_sweep;
    settings.place_always = cfg->place_writes == SKMD_PLACE_WRITES_ALWAYS;
    settings.direct_bytes = (size_t)cfg->transfer_direct_kib << 10;
    settings.flush_every = cfg->profile_flush;
}

/* Needs no plan_setup(): the controls alone. */
const struct plan_settings *plan_settings(void)
{
    pthread_once(&settings_once, read_settings);
    return &settings;
}
