/* libskmd/launch/launch_state.c: the end of a launch's state (launch_state.h): what it
 * took when it began, let go by whichever thread ends it (the app's, or the launcher's for
 * a split or deferred launch). */
#include <stdlib.h>

#include "launch/launch_state.h"

/* Lets go of what the launch holds: the snapshot, the buffers and the kernel. */
void launch_free(struct launch *L)
{
    for (cl_uint a = 0; a < L->k->nargs; a++) {
        free(L->args[a].value);
        if (L->args[a].mem)
            skmd_object_put(&L->args[a].mem->obj);
    }
    free(L->args);
    skmd_gather_free(&L->gather);
    skmd_object_put(&L->k->obj);
    pthread_mutex_destroy(&L->moved_lock);
    free(L);
}
