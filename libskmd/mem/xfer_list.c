/* libskmd/mem/xfer_list.c: see xfer_list.h. */
#include <stdlib.h>

#include "mem/coherence.h"
#include "device/api.h"
#include "support/error.h"
#include "support/object.h"
#include "support/config.h"
#include "support/trace.h"
#include "mem/xfer_list.h"

int skmd_xfer_list_add(struct skmd_xfer_list *l, cl_mem root, int m, int to_device,
                       uint64_t b, uint64_t e, void *host)
{
    cl_int err;
    cl_command_queue q = skmd_work_queue(root->context, m, &err);
    cl_mem real = q ? skmd_mem_real(root, m, &err) : NULL;
    if (!real)
        return -1;
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 8;
        struct skmd_xfer_req *grown = realloc(l->reqs, (size_t)cap * sizeof *grown);
        if (!grown)
            return -1;
        l->reqs = grown;
        l->cap = cap;
    }
    l->reqs[l->n++] = (struct skmd_xfer_req){
        .member = m, .context = skmd_member_context(root->context, m), .queue = q,
        .buffer = real, .to_device = to_device, .offset = (size_t)b, .size = (size_t)(e - b),
        .host = host,
        .direct = skmd_coh_member_shares_host(m) && !skmd_config()->transfer_stage_cpu,
    };
    return 0;
}

cl_int skmd_xfer_list_run(const struct skmd_xfer_list *l)
{
    if (!l->n)
        return CL_SUCCESS;
    uint64_t start = skmd_trace_enabled() ? skmd_now_ns() : 0;
    cl_int err = skmd_xfer_run_many(l->reqs, l->n, NULL);
    for (int i = 0; i < l->n && start; i++) {
        if (!l->reqs[i].landed_ns)
            continue; /* never run (a list run_many refused) */
        struct skmd_trace_span span = {
            .device = l->reqs[i].member, .share = -1, .start_ns = start,
            .end_ns = l->reqs[i].landed_ns, .bytes = l->reqs[i].size,
            .kind = l->reqs[i].to_device ? SKMD_TRACE_TRANSFER_IN : SKMD_TRACE_TRANSFER_OUT,
        };
        skmd_trace_span(&span);
    }
    return err;
}

void skmd_xfer_list_free(struct skmd_xfer_list *l)
{
    free(l->reqs);
    l->reqs = NULL;
    l->n = l->cap = 0;
}
