/* libskmd/launch/launch_commit.c: where a launch's bytes are, under each buffer's lock. It
 * fetches the bytes a share reads to its member, and after the shares records where their
 * writes are: exact footprints and disjoint bounds as the writing member's alone, boxes
 * with rectangular copies (share_rect.h), merged buffers as the merge member's. Written
 * bytes the app reads back stream into the host copy as each share ends
 * (stream_out.h), and buffers read on several members are remembered for the app's next
 * write of them. */
#include "mem/coherence.h"
#include "mem/inflight.h"
#include "launch/launch_commit.h"
#include "launch/launch_merge.h"
#include "launch/launch_report.h"
#include "plan/share_rect.h"
#include "launch/stream_out.h"

/* The fetch of coherence.h under the buffer's lock, counting into the launch. */
cl_int launch_fetch_locked(struct launch *L, cl_mem mem, int dst, uint64_t b, uint64_t e)
{
    struct skmd_moved moved = {0, 0, 0};
    skmd_buffer_lock(mem);
    cl_int err = skmd_gather_take(&L->gather, mem, dst, &moved);
    if (err == CL_SUCCESS)
        err = skmd_coh_fetch(mem, dst, b, e, &moved);
    skmd_buffer_unlock(mem);
    launch_add_moved(L, &moved);
    return err;
}

/* The written mark of coherence.h (bytes [b, e) current on `owner` alone), under the
 * buffer's lock. */
cl_int launch_written_locked(cl_mem mem, int owner, uint64_t b, uint64_t e)
{
    skmd_buffer_lock(mem);
    cl_int err = skmd_coh_written(mem, owner, b, e);
    skmd_buffer_unlock(mem);
    return err;
}

/* The share's box of p on its member, then also on the queue's member (share_rect.h). */
static cl_int commit_rect(struct launch *L, const struct share *sh, unsigned p)
{
    struct skmd_share_view view = {L->rec, L->args, L->scalars, &L->shape};
    struct skmd_rect box;
    if (!skmd_rect_of_share(&view, p, sh->first, sh->count, &box))
        return CL_INVALID_VALUE; /* decided from the same shares in launch_plan(): never */
    struct skmd_moved moved = {0, 0, 0};
    cl_int err = skmd_rect_commit(L->args[p].mem, sh->member, L->q->member, &box, &moved);
    launch_add_moved(L, &moved);
    return err;
}

/* Records where the share's writes are: exact ones on the member alone. */
static cl_int commit_share(struct launch *L, const struct share *sh)
{
    struct skmd_interval rd[MAX_INTERVALS], wr[MAX_INTERVALS];
    for (unsigned p = 0; p < L->rec->nparams; p++) {
        if (!launch_is_buffer_param(L, p) || L->merge_param[p])
            continue;
        if (L->rect_param[p]) {
            cl_int err = commit_rect(L, sh, p);
            if (err != CL_SUCCESS)
                return err;
            continue;
        }
        struct skmd_footprint fp = {rd, wr, MAX_INTERVALS, MAX_INTERVALS, 0, 0, 0};
        launch_footprint(L, p, sh->first, sh->count, &fp);
        for (size_t i = 0; i < fp.nwrite; i++) {
            cl_int err = launch_written_locked(L->args[p].mem, sh->member,
                                               fp.write[i].begin, fp.write[i].end);
            if (err == CL_SUCCESS && sh->streamed[p])
                err = skmd_stream_commit(L->args[p].mem, fp.write[i].begin, fp.write[i].end);
            if (err != CL_SUCCESS)
                return err;
        }
    }
    return CL_SUCCESS;
}

/* Tells stream_out.h what the launch reads and writes, in the app's order, and keeps
 * which written buffers this launch streams. */
void launch_note_streams(struct launch *L)
{
    for (cl_uint a = 0; a < L->k->nargs && a < 256; a++)
        if (L->args[a].mem)
            L->stream_param[a] = (unsigned char)skmd_stream_note_launch(
                L->args[a].mem, !L->rec || (L->rec->params[a].access & SKMD_ACCESS_READ),
                launch_arg_written(L, a));
}

/* Whether some argument of the launch reads the root buffer that argument p is on. */
static int root_read(const struct launch *L, unsigned p)
{
    cl_mem root = skmd_mem_root(L->args[p].mem);
    for (unsigned q = 0; q < L->rec->nparams; q++)
        if (launch_is_buffer_param(L, q) && skmd_mem_root(L->args[q].mem) == root &&
            (L->rec->params[q].access & SKMD_ACCESS_READ))
            return 1;
    return 0;
}

/* The share's writes of the buffers the app reads back, into the host copy now, while
 * other shares still compute (stream_out.h). Not in a launch with a merge: its written
 * bytes end on the merge member. */
void launch_stream_share(struct launch *L, struct share *sh)
{
    struct skmd_interval rd[MAX_INTERVALS], wr[MAX_INTERVALS];
    struct skmd_moved out = {0, 0, 0};
    for (unsigned p = 0; L->merge_member < 0 && p < L->rec->nparams; p++) {
        /* Not a buffer the launch also reads: another share's fetch of bytes it reads
         * (a bound) could pass through the host copy while this share streams there. Nor
         * one written as boxes: its footprint is the boxes' bounds, bytes the share did
         * not write among them (share_rect.h commits the boxes themselves). */
        if (!launch_is_buffer_param(L, p) || !L->stream_param[p] || L->merge_param[p] ||
            L->rect_param[p] || root_read(L, p))
            continue;
        struct skmd_footprint fp = {rd, wr, MAX_INTERVALS, MAX_INTERVALS, 0, 0, 0};
        launch_footprint(L, p, sh->first, sh->count, &fp);
        int all = 1;
        for (size_t i = 0; i < fp.nwrite && all; i++)
            all = skmd_stream_share(L->args[p].mem, sh->member, fp.write[i].begin,
                                    fp.write[i].end, &out.to_host);
        sh->streamed[p] = (unsigned char)all;
    }
    launch_add_moved(L, &out);
}

/* Remembers, per buffer the kernel reads, whether this launch read it on two or more
 * members with copies of their own: the app's next write of it then goes to the host
 * copy (enqueue.c), from which each member fetches only its part over its own link. */
static void note_readers(const struct launch *L, const struct share *shares, int nshares)
{
    for (unsigned p = 0; L->rec && p < L->rec->nparams; p++) {
        if (!launch_is_buffer_param(L, p) || !(L->rec->params[p].access & SKMD_ACCESS_READ))
            continue;
        cl_mem root = skmd_mem_root(L->args[p].mem);
        skmd_buffer_lock(root);
        int readers = 0;
        for (int s = 0; s < nshares; s++)
            readers += shares[s].count > 0 && !(root->zero_copy & (1u << shares[s].member));
        __atomic_store_n(&root->spread, readers >= 2, __ATOMIC_RELAXED);
        skmd_buffer_unlock(root);
    }
}

/* Records where every share's writes are, after the shares (launch_shares.c): each share
 * committed as its write modes say, then merged into the merge member's copies when the
 * launch has one (launch_merge.c), the merged buffers left as that member's alone. */
cl_int launch_commit_shares(struct launch *L)
{
    struct share *shares = L->shares;
    int nshares = L->nshares;
    cl_int err = CL_SUCCESS;
    for (int s = 0; s < nshares; s++) {
        if (shares[s].timed)
            launch_widen_span(L, shares[s].member, shares[s].t_start, shares[s].t_end);
        err = commit_share(L, &shares[s]);
        if (err == CL_SUCCESS && L->merge_member >= 0 && shares[s].member != L->merge_member)
            err = launch_merge_share(L, &shares[s]);
        if (err != CL_SUCCESS)
            return err;
    }
    if (L->merge_member >= 0)
        for (unsigned p = 0; p < L->rec->nparams && err == CL_SUCCESS; p++)
            if (L->merge_param[p])
                err = launch_written_locked(L->args[p].mem, L->merge_member, 0,
                                            L->args[p].mem->size);
    if (err == CL_SUCCESS)
        note_readers(L, shares, nshares);
    return err;
}
