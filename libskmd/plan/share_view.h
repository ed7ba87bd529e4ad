/* libskmd/plan/share_view.h: one launch as the share rules see it (share_align.h: write
 * modes and units; share_rect.h: boxes), and which of its parameters are buffers. */
#ifndef SKMD_SHARE_VIEW_H
#define SKMD_SHARE_VIEW_H

#include <stdint.h>

#include "../../transform/record.h"
#include "support/object.h"

/* One launch as the footprint evaluator sees it. */
struct skmd_share_view {
    const struct skmd_kernel_record *rec;
    const struct skmd_arg *args;      /* rec->nparams argument snapshots */
    const int64_t *scalars;           /* skmd_scalar_value of each scalar argument */
    const struct skmd_launch *shape;
};

/* 1 when parameter p is a buffer argument (global or constant, a libskmd buffer). */
static inline int skmd_share_is_buffer(const struct skmd_share_view *v, unsigned p)
{
    enum skmd_param_kind kind = v->rec->params[p].kind;
    return (kind == SKMD_PARAM_GLOBAL || kind == SKMD_PARAM_CONSTANT) && v->args[p].mem;
}

#endif
