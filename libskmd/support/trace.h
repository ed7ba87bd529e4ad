/* libskmd/support/trace.h: the Chrome trace (SKMD_TRACE=file.json) of transfers,
 * sub-launches and merges, one track per device, for Perfetto (ui.perfetto.dev) or
 * chrome://tracing.
 *
 * Cheap and thread-safe: a span is copied into a buffer under a mutex and nothing is written
 * until skmd_trace_flush() or exit. When SKMD_TRACE is empty every call returns at once.
 * No OpenCL; the format is described in docs/tools.md.
 */
#ifndef SKMD_TRACE_H
#define SKMD_TRACE_H

#include <stdint.h>

#include "support/clock.h" /* the spans' clock */

/* What a span is; also its "cat" in the JSON and its colour in skmd-trace. */
enum skmd_trace_kind {
    SKMD_TRACE_TRANSFER_IN,  /* "transfer_in": host -> device bytes of one share */
    SKMD_TRACE_KERNEL,       /* "kernel": one device's sub-launch */
    SKMD_TRACE_TRANSFER_OUT, /* "transfer_out": device -> host bytes of one share */
    SKMD_TRACE_MERGE,        /* "merge": the merge of the shares' outputs */
    SKMD_TRACE_OTHER,        /* "other": anything else worth seeing */
};

/* One span. Strings are copied (kernel cut at 63 bytes). */
struct skmd_trace_span {
    int device;                /* member device index; -1 = the host */
    enum skmd_trace_kind kind;
    const char *kernel;        /* kernel name (NULL: none) */
    uint64_t launch;           /* the app's launch number: ties the spans of one launch */
    double share;              /* fraction of the launch's work-groups; < 0: not applicable */
    uint64_t start_ns, end_ns; /* skmd_now_ns() clock */
    uint64_t workgroups;       /* work-groups run (kernel, merge) */
    uint64_t bytes;            /* bytes moved (transfers) */
};

/* Whether SKMD_TRACE is set: callers may skip measuring when it is not. */
int skmd_trace_enabled(void);

/* Names the track of a device ("GPU 0: NVIDIA H100"); call once per member device. */
void skmd_trace_name_device(int device, const char *name);

/* Records one span. A span with no launch number (0), recorded on a thread that
 * skmd_trace_set_thread_launch() tied to a launch, gets that launch's number; with no
 * kernel either, also its kernel and share. */
void skmd_trace_span(const struct skmd_trace_span *span);

/* Ties the calling thread to a launch: the transfers recorded by code that does not know
 * the launch (coherence.c fetching a share's inputs) count for it. launch 0 unties. */
void skmd_trace_set_thread_launch(uint64_t launch, const char *kernel, double share);

/* Writes the whole trace so far to the SKMD_TRACE file (the file always holds valid JSON).
 * Also done at exit. Returns 0, or -1 after logging why the file could not be written. */
int skmd_trace_flush(void);

/* "transfer_in", "kernel", ... */
const char *skmd_trace_kind_name(enum skmd_trace_kind kind);

#endif
