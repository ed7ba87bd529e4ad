/* libskmd/plan/plan_state.c: the partitioner's process-wide state that every plan*.c file
 * shares (plan_state.h), filled by plan_setup.c; the policy and the controls the plan
 * reads, each read once; and the members' ids the guard states are stored under. */
#include <pthread.h>

#include "support/config.h"
#include "plan/plan_state.h"

/* The state plan_state.h shares (described there). */
pthread_mutex_t plan_lock = PTHREAD_MUTEX_INITIALIZER;
struct skmd_pdb *plan_db;
struct skmd_part_cache *plan_cache;
struct member_info plan_info[SKMD_MAX_MEMBERS];
double plan_peer_rate[SKMD_MAX_MEMBERS][SKMD_MAX_MEMBERS];
unsigned char plan_twin[SKMD_MAX_MEMBERS][SKMD_MAX_MEMBERS];
int plan_twin_group[SKMD_MAX_MEMBERS];
unsigned char plan_on_host[SKMD_MAX_MEMBERS];
unsigned char plan_link_timed[SKMD_MAX_MEMBERS];

static enum skmd_part_policy policy; /* SKMD_POLICY */

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

/* Reads SKMD_POLICY once, at setup. */
void plan_read_policy(void)
{
    policy = part_policy(skmd_config()->policy);
}

/* The policy decisions are made with (SKMD_POLICY), once plan_setup ran. */
enum skmd_part_policy plan_policy(void)
{
    return policy;
}

/* The members' database ids and the policy, for the guard states kept in the database. */
struct skmd_plan_guard_members plan_guard_members(int64_t *ids)
{
    for (int m = 0; m < skmd_state.nmembers; m++)
        ids[m] = plan_info[m].db_id;
    return (struct skmd_plan_guard_members){
        ids, skmd_state.nmembers, skmd_part_policy_name(policy)};
}

static pthread_once_t settings_once = PTHREAD_ONCE_INIT;
static struct plan_settings settings;

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
