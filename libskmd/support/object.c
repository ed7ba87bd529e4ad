/* libskmd/support/object.c: the common header of every handle. */
#include <stdlib.h>

#include "support/error.h"
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

void skmd_object_free(void *handle)
{
    struct skmd_object *obj = handle; /* the first member of every handle */
    skmd_object_finish(obj);
    free(handle);
}

void *skmd_object_made(void *handle, cl_int errcode, cl_int *errcode_ret)
{
    if (errcode != CL_SUCCESS && handle) {
        skmd_object_free(handle);
        handle = NULL;
    }
    if (errcode_ret)
        *errcode_ret = errcode;
    return handle;
}

cl_int skmd_object_add_callback(struct skmd_object *obj, struct skmd_callback **list,
                                void (CL_CALLBACK *fn)(void), void *user_data)
{
    struct skmd_callback *cb = malloc(sizeof *cb);
    SKMD_RETURN_ERROR_IF(!cb, CL_OUT_OF_HOST_MEMORY);
    cb->fn = fn;
    cb->user_data = user_data;
    pthread_mutex_lock(&obj->lock);
    cb->next = *list;
    *list = cb;
    pthread_mutex_unlock(&obj->lock);
    return CL_SUCCESS;
}
