/* libskmd/plan/plan_entries.c: the partitioner's entries, one per (kernel, launch shape
 * class) met by the process (see plan_state.h's struct entry): found or made on a
 * launch, their members' tables and finish offsets read from the profile database when they
 * are made, written back when they changed (plan_entries_store), freed at exit; and a
 * launch with its entry's tables handed to partitioner/'s launch policy (plan_launch_of).
 * Everything here is under plan_lock. */
#include <stdio.h>
#include <stdlib.h>

#include "support/config.h"
#include "support/log.h"
#include "plan/plan_entries.h"
#include "plan/plan_state.h"

/* Every entry the process made, newest first. */
static struct entry *entries;

/* Under plan_lock: the entry of a kernel and shape class (NULL: none yet). */
uint32_t plan_shape_class(const struct skmd_plan_request *r)
{
    size_t global[3], local[3];
    for (int d = 0; d < 3; d++) {
        global[d] = (size_t)r->shape->global_size[d];
        local[d] = (size_t)r->shape->local_size[d];
    }
    return skmd_pdb_shape_class(r->shape->work_dim, global, local);
}

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
struct entry *plan_entry_for(uint64_t kernel, uint32_t shape, const char *name)
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

/* The launch with the entry's tables, as partitioner/'s launch policy sees it. */
struct skmd_part_launch plan_launch_of(const struct skmd_plan_request *r,
                                       const struct entry *e)
{
    for (int m = 0; m < skmd_state.nmembers; m++)
        plan_link_timed[m] = plan_info[m].link_known[SKMD_PART_H2D][SKMD_PART_PINNED] ||
                             plan_info[m].link_known[SKMD_PART_H2D][SKMD_PART_PAGEABLE];
    return (struct skmd_part_launch){skmd_state.nmembers, r->total_groups, r->eligible,
                                     plan_on_host, plan_twin_group, e->table,
                                     r->exec_member, plan_link_timed};
}

/* Under plan_lock, with a database: every entry's tables and finish offsets learnt since
 * they were stored, to the database. */
void plan_entries_store(void)
{
    for (struct entry *e = entries; e; e = e->next) {
        if (!e->dirty)
            continue;
        e->dirty = 0;
        skmd_pdb_kernel(plan_db, e->kernel, e->name);
        store_offsets(e);
        for (int m = 0; m < skmd_state.nmembers; m++) {
            if (plan_info[m].db_id < 0 || !skmd_part_table_measured(&e->table[m]))
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
}

/* Under plan_lock, at exit: every entry freed. */
void plan_entries_free(void)
{
    for (struct entry *e = entries, *next; e; e = next) {
        next = e->next;
        free(e);
    }
    entries = NULL;
}
