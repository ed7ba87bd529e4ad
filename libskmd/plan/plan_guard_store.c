/* libskmd/plan/plan_guard_store.c: the guard's state per decision-cache key, read from the
 * profile database when a process first meets the key and written back with the tables
 * (see plan_guard_store.h). Short processes run again and again (and every benchmark
 * run) otherwise pay the split again each time and end before the guard's verdict. */
#include "plan/plan_guard_store.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "support/log.h"

/* A key met by this process, and its guard as last read from or written to the
 * database (a guard that still equals it is not written again). */
struct met {
    struct skmd_part_key key;
    uint32_t shape;
    struct skmd_part_guard stored;
};

static struct met *met;
static size_t nmet, capmet;

static int same_key(const struct skmd_part_key *a, const struct skmd_part_key *b)
{
    return a->kernel == b->kernel && a->shape == b->shape && a->buffers == b->buffers;
}

static int usable(const struct skmd_plan_guard_members *members)
{
    if (!members || members->n < 1 || members->n > SKMD_PDB_GUARD_DEVICES ||
        members->n > SKMD_PART_MAX_DEVICES)
        return 0;
    for (int m = 0; m < members->n; m++)
        if (members->ids[m] < 0)
            return 0; /* a member the database could not name: no identity to key on */
    return 1;
}

static struct skmd_pdb_guard_key pdb_key(const struct skmd_plan_guard_members *members,
                                         const struct skmd_part_key *key, uint32_t shape)
{
    return (struct skmd_pdb_guard_key){key->kernel,  shape,      key->shape,    key->buffers,
                                       members->n,   members->ids, members->policy};
}

/* Member m of the guard is position m of the members' id list. */
static void to_pdb(const struct skmd_part_guard *g, int n, struct skmd_pdb_guard *out)
{
    memset(out, 0, sizeof *out);
    out->split_ms = g->split_ms;
    out->split_n = g->split_n;
    out->offhost_ms = g->offhost_ms;
    out->offhost_n = g->offhost_n;
    out->offhost_mode = g->offhost_mode && g->offhost_n > 0;
    for (int m = 0; m < n; m++) {
        out->whole_ms[m] = g->whole_ms[m];
        out->whole_n[m] = g->whole_n[m];
    }
    out->whole_dev = g->whole_dev >= 0 && g->whole_dev < n ? g->whole_dev : -1;
    out->whole_mode = g->whole_mode && out->whole_dev >= 0;
    out->backoff = g->backoff;
    out->launches = g->launches;
    out->retry_at = g->retry_at;
}

static void from_pdb(const struct skmd_pdb_guard *s, int n, struct skmd_part_guard *g)
{
    skmd_part_guard_init(g);
    g->split_ms = s->split_ms;
    g->split_n = s->split_n;
    g->offhost_ms = s->offhost_ms;
    g->offhost_n = s->offhost_n;
    g->offhost_mode = s->offhost_mode;
    for (int m = 0; m < n; m++) {
        g->whole_ms[m] = s->whole_ms[m];
        g->whole_n[m] = s->whole_n[m];
    }
    g->whole_dev = s->whole_dev;
    g->whole_mode = s->whole_mode;
    g->backoff = s->backoff;
    g->launches = s->launches;
    g->retry_at = s->retry_at;
    skmd_part_guard_bound(g);
}

static struct met *find(const struct skmd_part_key *key)
{
    for (size_t i = 0; i < nmet; i++)
        if (same_key(&met[i].key, key))
            return &met[i];
    return NULL;
}

static struct met *add(const struct skmd_part_key *key, uint32_t shape)
{
    if (nmet == capmet) {
        size_t cap = capmet ? capmet * 2 : 16;
        struct met *grown = realloc(met, cap * sizeof *grown);
        if (!grown)
            return NULL;
        met = grown;
        capmet = cap;
    }
    struct met *e = &met[nmet++];
    e->key = *key;
    e->shape = shape;
    skmd_part_guard_init(&e->stored);
    return e;
}

int skmd_plan_guard_meet(struct skmd_pdb *db, const struct skmd_plan_guard_members *members,
                         const struct skmd_part_key *key, uint32_t shape, const char *name,
                         struct skmd_part_guard *g)
{
    if (!db || !key || !g || !usable(members) || find(key))
        return 0;
    struct met *e = add(key, shape);
    if (!e)
        return 0; /* out of memory: this guard starts from nothing and is not stored */
    e->stored = *g;
    struct skmd_pdb_guard_key k = pdb_key(members, key, shape);
    struct skmd_pdb_guard s;
    if (skmd_pdb_get_guard(db, &k, SKMD_PLAN_GUARD_MAX_AGE_S, &s) != SKMD_PDB_OK)
        return 0;
    from_pdb(&s, members->n, g);
    e->stored = *g;
    long long age = (long long)(time(NULL) - s.updated);
    int dev = g->whole_dev;
    if (g->whole_mode)
        skmd_log(SKMD_LOG_INFO, "plan %s: guard: state from the profile database (stored "
                 "%lld s ago): whole on member %d (the split measured %.3f ms, whole %.3f "
                 "ms), the split retried in %llu launches", name, age, dev,
                 skmd_part_guard_split_in_use(g, NULL), g->whole_ms[dev],
                 (unsigned long long)(g->retry_at > g->launches ? g->retry_at - g->launches
                                                                : 0));
    else
        skmd_log(SKMD_LOG_INFO, "plan %s: guard: state from the profile database (stored "
                 "%lld s ago): the split (%.3f ms x%u), without the members on the host's "
                 "cores (%.3f ms x%u)%s, whole on member %d %.3f ms x%u", name, age,
                 g->split_ms, g->split_n, g->offhost_ms, g->offhost_n,
                 g->offhost_mode ? ": the split runs without them" : "", dev,
                 dev >= 0 ? g->whole_ms[dev] : 0.0, dev >= 0 ? g->whole_n[dev] : 0);
    return 1;
}

void skmd_plan_guard_store(struct skmd_pdb *db, const struct skmd_plan_guard_members *members,
                           struct skmd_part_cache *cache)
{
    if (!db || !cache || !usable(members))
        return;
    for (size_t i = 0; i < nmet; i++) {
        const struct skmd_part_guard *g = skmd_part_cache_guard(cache, &met[i].key);
        if (!g || !memcmp(g, &met[i].stored, sizeof *g) || g->launches == 0)
            continue;
        struct skmd_pdb_guard_key k = pdb_key(members, &met[i].key, met[i].shape);
        struct skmd_pdb_guard s;
        to_pdb(g, members->n, &s);
        /* Not persisted (read-only, locked): reported by profiledb, tried again later. */
        if (skmd_pdb_put_guard(db, &k, &s) == SKMD_PDB_OK)
            met[i].stored = *g;
    }
}

void skmd_plan_guard_forget(void)
{
    free(met);
    met = NULL;
    nmet = capmet = 0;
}
