/* libskmd/launch/launch_merge.c: the merge kernel. When a launch's written bytes are not
 * known exactly per share (bounds that overlap, or unknown), each other member's share is
 * folded into the merge member's (a CPU's) copies: the bytes of the share's write bound are
 * read from its member into a source buffer on the merge member, and the kernel's
 * NAME__skmd_merge runs there for that share's groups, copying just what they store. */
#include <stdlib.h>

#include "support/clock.h"
#include "mem/coherence.h"
#include "launch/launch_enqueue.h"
#include "launch/launch_merge.h"
#include "launch/launch_report.h"

/* Folds share sh's writes (on its member) into the merge member's copies: the merge
 * kernel for sh's groups, with each written buffer's copy from sh's member as source.
 * Only the bytes of the share's write bound are copied into the source: the merge kernel
 * copies just the elements the share's groups store, all inside it. */
cl_int launch_merge_share(struct launch *L, const struct share *sh)
{
    int M = L->merge_member, D = sh->member;
    cl_int err = CL_SUCCESS;
    cl_mem sources[SKMD_MAX_MEMBERS * 4];
    unsigned nsources = 0;
    cl_command_queue mq = skmd_work_queue(L->q->context, M, &err);
    cl_command_queue dq = mq ? skmd_work_queue(L->q->context, D, &err) : NULL;
    if (!dq)
        return err;
    uint64_t start = skmd_trace_enabled() ? skmd_now_ns() : 0;
    for (unsigned p = 0; p < L->rec->nparams && err == CL_SUCCESS; p++) {
        if (L->rec->params[p].kind != SKMD_PARAM_GLOBAL ||
            !(L->rec->params[p].access & SKMD_ACCESS_WRITE))
            continue;
        if (nsources == sizeof sources / sizeof sources[0])
            return CL_OUT_OF_RESOURCES;
        cl_mem mem = L->args[p].mem;
        sources[nsources] = NULL;
        void *bytes = malloc(mem->size);
        cl_mem dreal = skmd_mem_real(mem, D, &err);
        if (!bytes || !dreal) {
            free(bytes);
            err = bytes ? err : CL_OUT_OF_HOST_MEMORY;
            break;
        }
        struct skmd_interval rd[MAX_INTERVALS], wr[MAX_INTERVALS];
        struct skmd_footprint fp = {rd, wr, MAX_INTERVALS, MAX_INTERVALS, 0, 0, 0};
        launch_footprint(L, p, sh->first, sh->count, &fp);
        sources[nsources] = real_clCreateBuffer(skmd_member_context(L->q->context, M),
                                                CL_MEM_READ_ONLY, mem->size, NULL, &err);
        for (size_t i = 0; i < fp.nwrite && err == CL_SUCCESS; i++) {
            size_t at = (size_t)fp.write[i].begin, len = (size_t)(fp.write[i].end - at);
            err = real_clEnqueueReadBuffer(dq, dreal, CL_TRUE, at, len,
                                           (char *)bytes + at, 0, NULL, NULL);
            if (err == CL_SUCCESS)
                err = real_clEnqueueWriteBuffer(mq, sources[nsources], CL_TRUE, at, len,
                                                (char *)bytes + at, 0, NULL, NULL);
            L->moved.to_host += len;
            L->moved.to_devices += len;
        }
        free(bytes);
        if (sources[nsources])
            nsources++;
    }
    size_t global[3] = {sh->count * L->local[0], L->local[1], L->local[2]};
    cl_event ev = NULL;
    if (err == CL_SUCCESS)
        err = launch_enqueue(L, &(struct launch_command){.kernel = L->k->merge[M], .member = M,
                                                         .queue = mq, .hidden = 1,
                                                         .first = sh->first, .sources = sources,
                                                         .nsources = nsources, .global = global,
                                                         .local = L->local, .event = &ev});
    if (err == CL_SUCCESS) {
        struct share tmp = {.ev = ev};
        err = launch_finish_share(&tmp);
        if (tmp.timed)
            launch_widen_span(L, M, tmp.t_start, tmp.t_end);
    }
    for (unsigned s = 0; s < nsources; s++)
        real_clReleaseMemObject(sources[s]);
    launch_trace_span(L, M, SKMD_TRACE_MERGE, start, sh->count);
    return err;
}
