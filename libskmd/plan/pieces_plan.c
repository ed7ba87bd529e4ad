/* libskmd/plan/pieces_plan.c: how many pieces a share runs in, and what the partitioner
 * needs to price shares in pieces (see pieces_plan.h). */
#include <stdlib.h>

#include "mem/coherence.h"
#include "mem/inflight.h"
#include "plan/launch_memo.h"
#include "plan/pieces_plan.h"
#include "plan/share_align.h"
#include "support/config.h"
#include "support/ranges.h"

#define MAX_INTERVALS SKMD_SHARE_INTERVALS

/* ---- How many pieces ---- */

void skmd_pieces_range(const struct skmd_pieces_share *s, int k, int i, uint64_t *first,
                       uint64_t *count)
{
    uint64_t b = s->count * (uint64_t)i / (uint64_t)k;
    uint64_t e = s->count * (uint64_t)(i + 1) / (uint64_t)k;
    *first = s->first + b;
    *count = e - b;
}

/* The share as share_align.h's footprint evaluator sees it. */
static struct skmd_share_view view_of(const struct skmd_pieces_share *s)
{
    return (struct skmd_share_view){s->rec, s->args, s->scalars, s->shape};
}

static int is_buffer(const struct skmd_pieces_share *s, unsigned p)
{
    struct skmd_share_view v = view_of(s);
    return skmd_share_is_buffer(&v, p);
}

/* Param p's footprint for groups [first, first+count), clamped to the buffer and to the
 * parameter's access. 0, or -1 when it is not known (the whole buffer would move). */
static int footprint(const struct skmd_pieces_share *s, unsigned p, uint64_t first,
                     uint64_t count, struct skmd_footprint *fp)
{
    struct skmd_share_view v = view_of(s);
    return skmd_share_footprint(&v, p, first, count, fp);
}

/* Offset of mem's bytes in its root buffer. */
static uint64_t root_offset(cl_mem mem)
{
    return mem->parent ? mem->origin : 0;
}

/* Param p's footprint, where an unknown one of a parameter the kernel only reads is the
 * whole buffer (piece 0 then fetches it all); -1 when a written parameter's is unknown. */
static int footprint_or_whole(const struct skmd_pieces_share *s, unsigned p, uint64_t first,
                              uint64_t count, struct skmd_footprint *fp)
{
    if (footprint(s, p, first, count, fp) == 0)
        return 0;
    if (s->rec->params[p].access & SKMD_ACCESS_WRITE)
        return -1;
    fp->nread = 1;
    fp->read[0] = (struct skmd_interval){0, s->args[p].mem->size};
    fp->nwrite = 0;
    fp->write_exact = 1;
    return 0;
}

/* Whether the share can run in k pieces: every written buffer's footprint known and exact,
 * and no piece reads (in any argument on the same root buffer) bytes that an earlier
 * piece writes: its fetch could bring stale bytes over them. Walks the pieces in order,
 * keeping per root the bytes the pieces so far write. */
static int safe_in_pieces(const struct skmd_pieces_share *s, int k)
{
    unsigned n = s->rec->nparams;
    cl_mem roots[256];
    struct skmd_ranges written[256];
    unsigned nroots = 0;
    int ok = n <= 256;
    struct skmd_interval rd[MAX_INTERVALS], wr[MAX_INTERVALS];
    for (int i = 0; i < k && ok; i++) {
        uint64_t first, count;
        skmd_pieces_range(s, k, i, &first, &count);
        /* Reads of piece i against what pieces 0..i-1 wrote. */
        for (unsigned p = 0; p < n && ok; p++) {
            if (!is_buffer(s, p))
                continue;
            struct skmd_footprint fp = {rd, wr, MAX_INTERVALS, MAX_INTERVALS, 0, 0, 0};
            if (footprint_or_whole(s, p, first, count, &fp) != 0 || !fp.write_exact) {
                ok = 0;
                break;
            }
            cl_mem root = skmd_mem_root(s->args[p].mem);
            uint64_t shift = root_offset(s->args[p].mem);
            for (unsigned r = 0; r < nroots && ok; r++) {
                if (roots[r] != root)
                    continue;
                for (size_t j = 0; j < fp.nread && ok; j++) {
                    uint64_t at = fp.read[j].begin + shift;
                    struct skmd_range hit;
                    ok = !skmd_ranges_next_hit(&written[r], fp.read[j].begin + shift,
                                               fp.read[j].end + shift, &at, &hit);
                }
            }
        }
        /* Then piece i's writes join the set. */
        for (unsigned p = 0; p < n && ok; p++) {
            if (!is_buffer(s, p))
                continue;
            struct skmd_footprint fp = {rd, wr, MAX_INTERVALS, MAX_INTERVALS, 0, 0, 0};
            if (footprint_or_whole(s, p, first, count, &fp) != 0 || fp.nwrite == 0)
                continue;
            cl_mem root = skmd_mem_root(s->args[p].mem);
            uint64_t shift = root_offset(s->args[p].mem);
            unsigned r = 0;
            while (r < nroots && roots[r] != root)
                r++;
            if (r == nroots) {
                roots[nroots] = root;
                written[nroots++] = (struct skmd_ranges){0};
            }
            for (size_t j = 0; j < fp.nwrite && ok; j++)
                ok = skmd_ranges_add(&written[r], fp.write[j].begin + shift,
                                     fp.write[j].end + shift) == 0;
        }
    }
    for (unsigned r = 0; r < nroots; r++)
        skmd_ranges_free(&written[r]);
    return ok;
}

/* Bytes that groups [first, first+count) read and member m does not hold. */
static uint64_t stale_bytes(const struct skmd_pieces_share *s, uint64_t first, uint64_t count)
{
    struct skmd_interval rd[MAX_INTERVALS], wr[MAX_INTERVALS];
    uint64_t stale = 0;
    for (unsigned p = 0; p < s->rec->nparams; p++) {
        if (!is_buffer(s, p))
            continue;
        cl_mem mem = s->args[p].mem;
        struct skmd_footprint fp = {rd, wr, MAX_INTERVALS, MAX_INTERVALS, 0, 0, 0};
        if (footprint(s, p, first, count, &fp) != 0) {
            fp.nread = 1;
            fp.read[0] = (struct skmd_interval){0, mem->size};
            fp.nwrite = 0;
        }
        cl_mem root = skmd_mem_root(mem);
        uint64_t shift = root_offset(mem);
        skmd_buffer_lock(mem);
        if (!(root->zero_copy & (1u << s->member)))
            for (size_t j = 0; j < fp.nread; j++) {
                uint64_t at = fp.read[j].begin + shift;
                struct skmd_range gap;
                while (skmd_ranges_next_gap(&root->valid[s->member], fp.read[j].begin + shift,
                                            fp.read[j].end + shift, &at, &gap)) {
                    stale += gap.end - gap.begin;
                    at = gap.end;
                }
            }
        skmd_buffer_unlock(mem);
    }
    return stale;
}

static uint64_t min_piece_bytes(void)
{
    uint64_t kib = (uint64_t)skmd_config()->piece_min_kib;
    return kib ? kib << 10 : 1;
}

/* SKMD_PIECES, at most SKMD_PIECES_MAX: 0 chooses from the bytes, 1 never, more forces. */
static int forced_pieces(void)
{
    int forced = skmd_config()->pieces;
    return forced < SKMD_PIECES_MAX ? forced : SKMD_PIECES_MAX;
}

int skmd_pieces_expected(int m, uint64_t bytes)
{
    int forced = forced_pieces();
    if (forced == 1 || m < 0 || m >= skmd_state.nmembers)
        return 1;
    if (forced > 1)
        return forced;
    if (skmd_coh_member_shares_host(m))
        return 1;
    uint64_t k = bytes / min_piece_bytes();
    return k < 2 ? 1 : k > SKMD_PIECES_AUTO_MAX ? SKMD_PIECES_AUTO_MAX : (int)k;
}

double skmd_pieces_share_ms(double transfer_ms, double kernel_ms, int pieces)
{
    return skmd_part_pieces_ms(transfer_ms, kernel_ms, pieces); /* the partitioner's own */
}

void skmd_pieces_limits(int m, int *max_pieces, double *piece_bytes)
{
    int forced = forced_pieces();
    *max_pieces = 1;
    *piece_bytes = 0;
    if (forced == 1 || m < 0 || m >= skmd_state.nmembers)
        return;
    if (forced > 1) {
        *max_pieces = forced;
        return;
    }
    if (skmd_coh_member_shares_host(m))
        return;
    *max_pieces = SKMD_PIECES_AUTO_MAX;
    *piece_bytes = (double)min_piece_bytes();
}

int skmd_pieces_launch_allows(const struct skmd_pieces_share *s)
{
    /* A check costs every piece's footprints: the answer for a recent launch like this
     * one is kept (launch_memo.h). */
    static _Thread_local struct skmd_launch_memo memo;
    int forced = forced_pieces();
    if (forced == 1 || !s->rec || s->count < 2 || s->rec->nparams > 256)
        return 0;
    int k = forced > 1 ? forced : SKMD_PIECES_AUTO_MAX;
    if ((uint64_t)k > s->count)
        k = (int)s->count;
    uint64_t extra[3] = {s->first, s->count, (uint64_t)k};
    uint64_t key = skmd_launch_key(s->rec, s->shape, s->args, s->scalars, extra, sizeof extra);
    int64_t allows;
    if (!skmd_launch_memo_find(&memo, key, &allows)) {
        allows = safe_in_pieces(s, k);
        skmd_launch_memo_keep(&memo, key, allows);
    }
    return (int)allows;
}

int skmd_pieces_plan(const struct skmd_pieces_share *s)
{
    int forced = forced_pieces();
    if (forced == 1 || !s->rec || s->count < 2 || s->member < 0 ||
        s->member >= skmd_state.nmembers)
        return 1;
    int k;
    uint64_t stale = 0; /* the share's input bytes not current on its member */
    if (forced > 1) {
        k = forced;
    } else {
        if (skmd_coh_member_shares_host(s->member))
            return 1;
        stale = stale_bytes(s, s->first, s->count);
        k = skmd_pieces_expected(s->member, stale);
        if (k < 2)
            return 1;
    }
    if ((uint64_t)k > s->count)
        k = (int)s->count;
    if (!safe_in_pieces(s, k))
        return 1;
    if (forced > 1)
        return k;
    /* It only pays when the inputs really come piece by piece: not when the first piece
     * already needs most of them (e.g. a buffer every group reads whole). */
    uint64_t first, count;
    skmd_pieces_range(s, k, 0, &first, &count);
    return stale_bytes(s, first, count) * 2 > stale ? 1 : k;
}
