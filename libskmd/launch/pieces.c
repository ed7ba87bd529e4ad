/* libskmd/launch/pieces.c: a share launched in pieces whose inputs move while the piece
 * before computes (see pieces.h). */
#include <stdatomic.h>
#include <stdlib.h>

#include "mem/coherence.h"
#include "device/api.h"
#include "support/config.h"
#include "device/event_time.h"
#include "mem/inflight.h"
#include "plan/launch_memo.h"
#include "support/log.h"
#include "launch/pieces.h"
#include "plan/plan.h"
#include "support/ranges.h"
#include "plan/share_align.h"
#include "xfer/transfer.h"

#define MAX_INTERVALS SKMD_SHARE_INTERVALS
/* ---- Running the pieces ---- */

struct piece {
    cl_event ev;          /* the piece's last command */
    cl_event timing[2];   /* its first and last command (NULL: ev) */
};

/* Waits for a piece; its status, and adds its kernel time to *ms (-1 stays -1). */
static cl_int finish_piece(struct piece *pc, double *ms)
{
    cl_int status = CL_COMPLETE;
    cl_int err = real_clWaitForEvents(1, &pc->ev);
    real_clGetEventInfo(pc->ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status,
                        NULL);
    double t = skmd_event_span_ms(pc->timing[0] ? pc->timing[0] : pc->ev,
                                 pc->timing[1] ? pc->timing[1] : pc->ev);
    *ms = *ms < 0 || t < 0 ? -1 : *ms + t;
    return err != CL_SUCCESS ? err : status < 0 ? status : CL_SUCCESS;
}

cl_int skmd_pieces_run(const struct skmd_pieces_share *s, int k, cl_context ctx,
                       cl_command_queue wq, const struct skmd_pieces_ops *ops, void *opctx,
                       int fail_at, struct skmd_pieces_result *out)
{
    out->first = out->last = NULL;
    out->kernel_ms = 0;
    if (k < 1 || k > SKMD_PIECES_MAX)
        return CL_INVALID_VALUE;
    cl_int err;
    cl_command_queue xq = skmd_transfer_queue(ctx, s->member, &err);
    if (!xq)
        return err;
    struct piece pieces[SKMD_PIECES_MAX];
    int n = 0;
    for (int i = 0; i < k && err == CL_SUCCESS; i++) {
        uint64_t first, count;
        skmd_pieces_range(s, k, i, &first, &count);
        /* While piece i-1 computes on wq, its successor's inputs go on xq. */
        skmd_pieces_queue_set(ctx, s->member, xq);
        err = ops->fetch(opctx, first, count);
        skmd_pieces_queue_set(NULL, -1, NULL);
        if (err == CL_SUCCESS && i == fail_at)
            err = CL_OUT_OF_RESOURCES; /* the documented test hook */
        if (err != CL_SUCCESS)
            break;
        struct piece *pc = &pieces[n];
        *pc = (struct piece){NULL, {NULL, NULL}};
        err = ops->launch(opctx, wq, first, count, &pc->ev, pc->timing);
        if (pc->ev)
            n++;
        if (err == CL_SUCCESS)
            err = real_clFlush(wq); /* start it now: the next fetch overlaps it */
    }
    /* Every piece enqueued is waited for, failed or not: none may still run when the
     * caller forgets or redoes the share. */
    for (int i = 0; i < n; i++) {
        cl_int e = finish_piece(&pieces[i], &out->kernel_ms);
        if (err == CL_SUCCESS)
            err = e;
    }
    if (n > 0 && err == CL_SUCCESS) {
        out->first = pieces[0].timing[0] ? pieces[0].timing[0] : pieces[0].ev;
        out->last = pieces[n - 1].timing[1] ? pieces[n - 1].timing[1] : pieces[n - 1].ev;
        real_clRetainEvent(out->first);
        real_clRetainEvent(out->last);
    }
    for (int i = 0; i < n; i++) {
        real_clReleaseEvent(pieces[i].ev);
        for (int t = 0; t < 2; t++)
            if (pieces[i].timing[t])
                real_clReleaseEvent(pieces[i].timing[t]);
    }
    if (err != CL_SUCCESS)
        real_clFinish(wq); /* a launch that failed halfway may have left commands */
    skmd_log(SKMD_LOG_DEBUG, "share of %llu work-groups on member %d in %d pieces: %s",
             (unsigned long long)s->count, s->member, k, err == CL_SUCCESS ? "done" : "failed");
    return err;
}
