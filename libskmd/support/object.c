/* libskmd/support/object.c: the common header of every handle. */
#include "support/object.h"

const cl_icd_dispatch *skmd_object_dispatch;

void skmd_object_set_dispatch(const cl_icd_dispatch *dispatch)
{
    skmd_object_dispatch = dispatch;
}

void skmd_object_init(struct skmd_object *obj, enum skmd_type type)
{
    obj->dispatch = skmd_object_dispatch;
    obj->magic = SKMD_MAGIC;
    obj->type = type;
    atomic_init(&obj->refcount, 1);
    pthread_mutex_init(&obj->lock, NULL);
}

cl_int skmd_object_put(struct skmd_object *obj)
{
    return obj->release(obj);
}

void skmd_object_retain(struct skmd_object *obj)
{
    atomic_fetch_add_explicit(&obj->refcount, 1, memory_order_relaxed);
}

int skmd_object_release(struct skmd_object *obj)
{
    return atomic_fetch_sub_explicit(&obj->refcount, 1, memory_order_acq_rel) == 1;
}

/* Called just before the object's memory is freed: a stale handle then fails
 * SKMD_VALID instead of being used (as long as the memory is not reused). */
void skmd_object_finish(struct skmd_object *obj)
{
    obj->magic = 0;
    pthread_mutex_destroy(&obj->lock);
}
