/* libskmd/mem/queues.c: libskmd's own queues on each member of an app context: the work
 * queue (transfers, shares) and the transfer queue (a share in pieces moves its next
 * piece's inputs on it). */
#include "mem/queues.h"
#include "device/api.h"

/* Lazy creation of work queues: launches and app threads race to it. */
static pthread_mutex_t work_queue_lock = PTHREAD_MUTEX_INITIALIZER;

cl_command_queue skmd_work_queue(cl_context ctx, int m, cl_int *err)
{
    cl_command_queue made = __atomic_load_n(&ctx->work[m], __ATOMIC_ACQUIRE);
    if (made) { /* made once, then only read: no lock on every share and transfer */
        *err = CL_SUCCESS;
        return made;
    }
    pthread_mutex_lock(&work_queue_lock);
    /* Profiling on: a split launch's event spans its shares' device times. */
    if (!ctx->work[m])
        __atomic_store_n(&ctx->work[m],
                         real_clCreateCommandQueue(skmd_member_context(ctx, m),
                                                   skmd_state.members[m].real_device,
                                                   CL_QUEUE_PROFILING_ENABLE, err),
                         __ATOMIC_RELEASE);
    else
        *err = CL_SUCCESS;
    cl_command_queue q = ctx->work[m];
    pthread_mutex_unlock(&work_queue_lock);
    return q;
}

/* ---- Which transfers go on the transfer queue ---- */

/* Set while this thread fetches a piece's inputs (pieces are run by one thread). */
static _Thread_local struct {
    cl_context ctx;
    int member;
    cl_command_queue q;
} fetching;

void skmd_pieces_queue_set(cl_context ctx, int m, cl_command_queue q)
{
    fetching.ctx = ctx;
    fetching.member = m;
    fetching.q = q;
}

cl_command_queue skmd_pieces_queue(cl_context ctx, int m)
{
    return fetching.q && fetching.ctx == ctx && fetching.member == m ? fetching.q : NULL;
}

static pthread_mutex_t xfer_queue_lock = PTHREAD_MUTEX_INITIALIZER;

cl_command_queue skmd_transfer_queue(cl_context ctx, int m, cl_int *err)
{
    pthread_mutex_lock(&xfer_queue_lock);
    *err = CL_SUCCESS;
    if (!ctx->xfer[m])
        ctx->xfer[m] = real_clCreateCommandQueue(skmd_member_context(ctx, m),
                                                 skmd_state.members[m].real_device, 0, err);
    cl_command_queue q = ctx->xfer[m];
    pthread_mutex_unlock(&xfer_queue_lock);
    return q;
}

void skmd_pieces_release(cl_context ctx)
{
    for (int m = 0; m < SKMD_MAX_MEMBERS; m++)
        if (ctx->xfer[m]) {
            real_clReleaseCommandQueue(ctx->xfer[m]);
            ctx->xfer[m] = NULL;
        }
}
