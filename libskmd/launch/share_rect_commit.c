/* libskmd/launch/share_rect_commit.c: a share's box of written bytes made current where the
 * app reads, with rectangular copies (see share_rect.h). */
#include "device/api.h"
#include "device/event_time.h"
#include "support/error.h"
#include "support/object.h"
#include "support/config.h"
#include "mem/inflight.h"
#include "support/log.h"
#include "mem/member_health.h"
#include "support/ranges_merge.h"
#include "plan/share_rect.h"
#include "support/trace.h"

/* The box's rows as a set of byte ranges of mem's root (ascending: a slice's rows end
 * before the next slice's begin). */
static cl_int box_set(cl_mem mem, const struct skmd_rect *r, struct skmd_ranges *set)
{
    uint64_t at = r->offset + (mem->parent ? mem->origin : 0);
    *set = (struct skmd_ranges){0, r->rows * r->slices, NULL};
    set->r = malloc(set->cap * sizeof *set->r);
    if (!set->r)
        return CL_OUT_OF_HOST_MEMORY;
    for (uint64_t k = 0; k < r->slices; k++)
        for (uint64_t j = 0; j < r->rows; j++) {
            uint64_t b = at + k * r->slice_pitch + j * r->pitch;
            if (set->n && set->r[set->n - 1].end == b) /* touching: one range */
                set->r[set->n - 1].end = b + r->len;
            else
                set->r[set->n++] = (struct skmd_range){b, b + r->len};
        }
    return CL_SUCCESS;
}

/* As skmd_coh_written over every row of the box at once: the rows are current on copy
 * `owner` alone. */
static cl_int box_written(cl_mem root, int owner, const struct skmd_ranges *box)
{
    for (int i = 0; i <= SKMD_HOST; i++)
        if ((i < skmd_state.nmembers || i == SKMD_HOST) && i != owner &&
            skmd_ranges_subtract(&root->valid[i], box) != 0)
            return CL_OUT_OF_HOST_MEMORY;
    return skmd_ranges_union(&root->valid[owner], box) == 0 ? CL_SUCCESS
                                                            : CL_OUT_OF_HOST_MEMORY;
}

/* As skmd_coh_also_valid over every row of the box. */
static cl_int box_valid(cl_mem root, int who, const struct skmd_ranges *box)
{
    return skmd_ranges_union(&root->valid[who], box) == 0 ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
}

/* Whether the box's slices can go in one rectangular command (the specification wants
 * the slice pitch a multiple of the row pitch, at least a slice of rows). */
static int one_command(const struct skmd_rect *r)
{
    return r->slices == 1 ||
           (r->slice_pitch % r->pitch == 0 && r->slice_pitch >= r->pitch * r->rows);
}

enum rect_op { RECT_READ, RECT_WRITE, RECT_COPY };

/* One rectangular transfer of the box (`at` = the box's offset in the root buffer) on
 * queue q: read from buffer `a` into host, write host into `a`, or copy `a` into `b`.
 * Complete when it returns. */
static cl_int rect_transfer(enum rect_op op, cl_command_queue q, cl_mem a, cl_mem b,
                            unsigned char *host, uint64_t at, const struct skmd_rect *r)
{
    int one = one_command(r);
    uint64_t nslices = one ? 1 : r->slices;
    size_t region[3] = {(size_t)r->len, (size_t)r->rows, one ? (size_t)r->slices : 1};
    size_t row = (size_t)r->pitch, slice = one && r->slices > 1 ? (size_t)r->slice_pitch : 0;
    cl_int err = CL_SUCCESS;
    for (uint64_t k = 0; k < nslices && err == CL_SUCCESS; k++) {
        size_t origin[3] = {(size_t)(at + k * r->slice_pitch), 0, 0};
        cl_event ev = NULL;
        if (op == RECT_READ)
            err = real_clEnqueueReadBufferRect(q, a, CL_TRUE, origin, origin, region, row, slice,
                                               row, slice, host, 0, NULL, NULL);
        else if (op == RECT_WRITE)
            err = real_clEnqueueWriteBufferRect(q, a, CL_TRUE, origin, origin, region, row,
                                                slice, row, slice, host, 0, NULL, NULL);
        else
            err = real_clEnqueueCopyBufferRect(q, a, b, origin, origin, region, row, slice, row,
                                               slice, 0, NULL, &ev);
        if (ev) {
            if (err == CL_SUCCESS)
                err = skmd_event_wait_status(ev);
            real_clReleaseEvent(ev);
        }
    }
    return err;
}

static void trace_rect(int device, enum skmd_trace_kind kind, uint64_t start, uint64_t bytes)
{
    if (!skmd_trace_enabled())
        return;
    struct skmd_trace_span span = {
        .device = device, .kind = kind, .kernel = "rect", .share = -1,
        .start_ns = start, .end_ns = skmd_now_ns(), .bytes = bytes,
    };
    skmd_trace_span(&span);
}

/* After a rectangular transfer for member m: a failure is the member's fault (`what` it
 * failed at); a success is traced from `start` and its bytes added to *count. */
static cl_int rect_done(cl_int err, int m, const char *what, cl_mem root,
                        enum skmd_trace_kind kind, uint64_t start, uint64_t bytes,
                        uint64_t *count)
{
    if (err != CL_SUCCESS) {
        skmd_member_fault(m, err, what, root);
        return err;
    }
    trace_rect(m, kind, start, bytes);
    *count += bytes;
    return CL_SUCCESS;
}

/* Box r of mem from member `from` (which alone holds it) to member `to`, see
 * skmd_rect_commit. Called with the buffer's lock held. */
static cl_int move_box(cl_mem mem, int from, int to, const struct skmd_rect *r,
                       const struct skmd_ranges *box, struct skmd_moved *moved)
{
    cl_mem root = skmd_mem_root(mem);
    uint64_t at = r->offset + (mem != root ? mem->origin : 0);
    uint64_t bytes = r->len * r->rows * r->slices;
    cl_int err;
    cl_command_queue qf, qt;
    cl_mem bf, bt;
    if (!skmd_mem_pair(root, from, to, &qf, &qt, &bf, &bt, &err))
        return err;
    int zf = (root->zero_copy >> from) & 1, zt = (root->zero_copy >> to) & 1;
    err = real_clFinish(qf); /* the share's kernel, done already: its writes settled */
    if (err != CL_SUCCESS)
        return err;
    uint64_t start = skmd_trace_enabled() ? skmd_now_ns() : 0;
    if (!zf && !zt && skmd_config()->peer_copy &&
        skmd_member_context(root->context, from) == skmd_member_context(root->context, to)) {
        /* One driver copy between members of one real context. */
        err = rect_done(rect_transfer(RECT_COPY, qt, bf, bt, NULL, at, r), to,
                        "a rectangular peer copy on its queue", root, SKMD_TRACE_TRANSFER_IN,
                        start, bytes, &moved->to_devices);
        if (err != CL_SUCCESS)
            return err;
        moved->peer += bytes;
        return box_valid(root, to, box);
    }
    unsigned char *host = skmd_coh_host_copy(root);
    if (!host)
        return CL_OUT_OF_HOST_MEMORY;
    if (!zf) { /* a zero-copy member wrote straight into the host copy */
        err = rect_done(rect_transfer(RECT_READ, qf, bf, NULL, host, at, r), from,
                        "a rectangular read from it", root, SKMD_TRACE_TRANSFER_OUT, start,
                        bytes, &moved->to_host);
        if (err != CL_SUCCESS)
            return err;
    }
    err = box_valid(root, SKMD_HOST, box);
    if (err == CL_SUCCESS && !zt) {
        start = skmd_trace_enabled() ? skmd_now_ns() : 0;
        err = rect_done(rect_transfer(RECT_WRITE, qt, bt, NULL, host, at, r), to,
                        "a rectangular write to it", root, SKMD_TRACE_TRANSFER_IN, start, bytes,
                        &moved->to_devices);
        if (err != CL_SUCCESS)
            return err;
    }
    return err == CL_SUCCESS ? box_valid(root, to, box) : err;
}

cl_int skmd_rect_commit(cl_mem mem, int owner, int home, const struct skmd_rect *r,
                        struct skmd_moved *moved)
{
    struct skmd_ranges box;
    cl_int err = box_set(mem, r, &box);
    if (err != CL_SUCCESS)
        return err;
    skmd_buffer_lock(mem);
    err = box_written(skmd_mem_root(mem), owner, &box);
    cl_int moved_err = CL_SUCCESS;
    if (err == CL_SUCCESS && home >= 0 && home != owner && !skmd_member_is_lost(home))
        moved_err = move_box(mem, owner, home, r, &box, moved);
    skmd_buffer_unlock(mem);
    skmd_ranges_free(&box);
    /* Not fatal: the bytes stay current on the owner (marked only after each transfer). */
    if (moved_err != CL_SUCCESS)
        skmd_log(SKMD_LOG_WARN, "rectangular copy of %llu rows from member %d to member %d "
                 "failed (%d); they stay on member %d", (unsigned long long)(r->rows * r->slices),
                 owner, home, moved_err, owner);
    return err;
}
