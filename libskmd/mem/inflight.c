/* libskmd/mem/inflight.c: the registry of split launches in flight, and striped locks keyed
 * by address (one per root buffer, one per real kernel). See inflight.h for the rule. */
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#include "mem/inflight.h"

struct skmd_inflight {
    struct skmd_inflight *prev, *next;
    int gated;       /* may wait for an app's user event: not yet sure to end by itself */
    unsigned nroots;
    struct {
        cl_mem root;
        int writes;
    } roots[];
};

/* Registry state; the lock is held only for list walks, never across a real call. */
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t registry_changed = PTHREAD_COND_INITIALIZER;
static struct skmd_inflight *head, *tail; /* in registration order */
static atomic_int gated_entries;            /* 0: skmd_inflight_gated takes no lock */
_Thread_local const struct skmd_inflight *skmd_inflight_self;

/* Two launches conflict on a buffer both touch where one of them writes it. */
static int conflicts(const struct skmd_inflight *a, const struct skmd_inflight *b)
{
    for (unsigned i = 0; i < a->nroots; i++)
        for (unsigned j = 0; j < b->nroots; j++)
            if (a->roots[i].root == b->roots[j].root &&
                (a->roots[i].writes || b->roots[j].writes))
                return 1;
    return 0;
}

/* Index of root in t, or -1. */
static int find_root(const struct skmd_inflight *t, cl_mem root)
{
    for (unsigned i = 0; i < t->nroots; i++)
        if (t->roots[i].root == root)
            return (int)i;
    return -1;
}

struct skmd_inflight *skmd_inflight_begin(const cl_mem *mems, const unsigned char *writes,
                                          unsigned n, int gated)
{
    struct skmd_inflight *t = calloc(1, sizeof *t + (n ? n : 1) * sizeof t->roots[0]);
    if (!t)
        return NULL;
    for (unsigned i = 0; i < n; i++) {
        if (!mems[i])
            continue;
        cl_mem root = skmd_mem_root(mems[i]);
        int at = find_root(t, root);
        if (at < 0) {
            at = (int)t->nroots++;
            t->roots[at].root = root;
        }
        t->roots[at].writes |= writes[i] != 0;
    }
    pthread_mutex_lock(&registry_lock);
    /* Behind a gated launch on a common buffer, it waits for that one: gated too. */
    for (const struct skmd_inflight *o = head; o && !gated; o = o->next)
        gated = o->gated && conflicts(o, t);
    t->gated = gated;
    if (gated)
        atomic_fetch_add(&gated_entries, 1);
    t->prev = tail;
    if (tail)
        tail->next = t;
    else
        head = t;
    tail = t;
    pthread_mutex_unlock(&registry_lock);
    return t;
}

void skmd_inflight_wait_earlier(const struct skmd_inflight *t)
{
    pthread_mutex_lock(&registry_lock);
    for (;;) {
        int blocked = 0;
        /* The list is in registration order: only entries before t are earlier. */
        for (const struct skmd_inflight *o = head; o && o != t && !blocked; o = o->next)
            blocked = conflicts(o, t);
        if (!blocked)
            break;
        pthread_cond_wait(&registry_changed, &registry_lock);
    }
    pthread_mutex_unlock(&registry_lock);
}

void skmd_inflight_ungate(struct skmd_inflight *t)
{
    pthread_mutex_lock(&registry_lock);
    if (t->gated)
        atomic_fetch_sub(&gated_entries, 1);
    t->gated = 0;
    pthread_mutex_unlock(&registry_lock);
}

int skmd_inflight_gated(cl_mem mem, int writes)
{
    if (atomic_load(&gated_entries) == 0)
        return 0;
    cl_mem root = skmd_mem_root(mem);
    int gated = 0;
    pthread_mutex_lock(&registry_lock);
    for (const struct skmd_inflight *o = head; o && !gated; o = o->next) {
        int at = o->gated ? find_root(o, root) : -1;
        gated = at >= 0 && (writes || o->roots[at].writes);
    }
    pthread_mutex_unlock(&registry_lock);
    return gated;
}

void skmd_inflight_end(struct skmd_inflight *t)
{
    skmd_inflight_ungate(t);
    pthread_mutex_lock(&registry_lock);
    if (t->prev)
        t->prev->next = t->next;
    else
        head = t->next;
    if (t->next)
        t->next->prev = t->prev;
    else
        tail = t->prev;
    pthread_cond_broadcast(&registry_changed);
    pthread_mutex_unlock(&registry_lock);
    free(t);
}

void skmd_inflight_wait_mem(cl_mem mem, int writes)
{
    cl_mem root = skmd_mem_root(mem);
    const struct skmd_inflight *self = skmd_inflight_self;
    pthread_mutex_lock(&registry_lock);
    for (;;) {
        int blocked = 0;
        /* A deferred command waits only for those registered before it. */
        for (const struct skmd_inflight *o = head; o && o != self && !blocked; o = o->next) {
            int at = find_root(o, root);
            blocked = at >= 0 && (writes || o->roots[at].writes);
        }
        if (!blocked)
            break;
        pthread_cond_wait(&registry_changed, &registry_lock);
    }
    pthread_mutex_unlock(&registry_lock);
}

/* Striped locks: a fixed table, the stripe chosen by the key's address. */
#define STRIPES 64
static pthread_mutex_t buffer_stripes[STRIPES] = {[0 ... STRIPES - 1] =
                                                      PTHREAD_MUTEX_INITIALIZER};
static pthread_mutex_t key_stripes[STRIPES] = {[0 ... STRIPES - 1] =
                                                   PTHREAD_MUTEX_INITIALIZER};

static unsigned stripe_of(const void *key)
{
    uintptr_t a = (uintptr_t)key;
    return (unsigned)((a >> 4) ^ (a >> 12)) % STRIPES;
}

void skmd_buffer_lock(cl_mem mem)
{
    pthread_mutex_lock(&buffer_stripes[stripe_of(skmd_mem_root(mem))]);
}

void skmd_buffer_unlock(cl_mem mem)
{
    pthread_mutex_unlock(&buffer_stripes[stripe_of(skmd_mem_root(mem))]);
}

void skmd_key_lock(const void *key)
{
    pthread_mutex_lock(&key_stripes[stripe_of(key)]);
}

void skmd_key_unlock(const void *key)
{
    pthread_mutex_unlock(&key_stripes[stripe_of(key)]);
}
