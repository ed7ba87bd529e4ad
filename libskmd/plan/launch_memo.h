/* libskmd/plan/launch_memo.h: answers that depend only on a launch's shape and arguments,
 * remembered for the launches that follow.
 *
 * Footprint questions (may shares be whole rows; may they run in pieces) cost tens of
 * microseconds a launch, and an app asks them about the same launches again and
 * again: the same kernels, on the same buffers, of the same sizes, each iteration. A key
 * over everything the answers depend on (the kernel's record, the shape, per buffer
 * argument its size, root and offset in the root, per scalar its value) finds a recent
 * answer; a few per thread, so kernels launched in turn (encrypt, decrypt) keep theirs.
 * No lock: each thread has its own. A program's record freed (its memory may hold another
 * program's record next, at the same address) makes every thread forget its answers. */
#ifndef SKMD_LAUNCH_MEMO_H
#define SKMD_LAUNCH_MEMO_H

#include <stdint.h>

#include "../../transform/record.h"
#include "support/object.h"

/* Slots per thread and per question. */
#define SKMD_LAUNCH_MEMO_SLOTS 8

/* The launch's key, with `extra` (what else the answer depends on) mixed in. Every buffer
 * parameter's argument must be set (a libskmd buffer). */
uint64_t skmd_launch_key(const struct skmd_kernel_record *rec, const struct skmd_launch *shape,
                         const struct skmd_arg *args, const int64_t *scalars,
                         const void *extra, size_t extra_size);

/* Remembered answers to one question, most recent first out of the slots. */
struct skmd_launch_memo {
    uint64_t key[SKMD_LAUNCH_MEMO_SLOTS];
    int64_t value[SKMD_LAUNCH_MEMO_SLOTS];
    int used, next;
    uint64_t generation; /* skmd_launch_memo_forget_all calls seen when they were kept */
};

/* 1 and *value when key is remembered; 0 when not. */
int skmd_launch_memo_find(const struct skmd_launch_memo *m, uint64_t key, int64_t *value);

/* Remembers key's answer (the oldest slot goes when all are used). */
void skmd_launch_memo_keep(struct skmd_launch_memo *m, uint64_t key, int64_t value);

/* Every thread's answers become stale (a program's record is about to be freed). */
void skmd_launch_memo_forget_all(void);

#endif
