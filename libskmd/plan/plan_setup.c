/* libskmd/plan/plan_setup.c: the partitioner's process-wide state (plan_state.h), set up on
 * the first launch and torn down at exit. Setup reads the policy, opens the
 * profile database and the decision cache, identifies each member in the database
 * (identical devices numbered apart), loads its link curves and works out its rough peaks
 * for the roofline predictor, finds the identical members (twins), loads the host's rates
 * and hooks the transfer engine's observers. At exit what was learnt is written back and
 * the guard's counts and the host's rates are logged: the one file that knows the whole
 * plan's life, so it stands above every step it sets up or tears down (only plan.c and
 * plan_observe.c, the entry points, call it). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device/api.h"
#include "support/config.h"
#include "support/log.h"
#include "plan/plan_entries.h"
#include "plan/plan_guard.h"
#include "plan/plan_links.h"
#include "plan/plan_setup.h"
#include "plan/plan_state.h"
#include "plan/plan_store.h"
#include "xfer/transfer.h"

#define PLAN_CPU_GBYTES 20.0   /* predictor's memory bandwidth of a CPU member */
#define PLAN_GPU_GBYTES 500.0

static pthread_once_t plan_once = PTHREAD_ONCE_INIT;

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

static void plan_at_exit(void)
{
    skmd_xfer_set_observer(NULL);
    skmd_xfer_set_window_observer(NULL);
    pthread_mutex_lock(&plan_lock); /* as skmd_plan_flush: what was learnt, stored */
    plan_store_locked();
    pthread_mutex_unlock(&plan_lock);
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

static void plan_init(void)
{
    const struct skmd_config *cfg = skmd_config();
    plan_read_policy();
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

