/* tools/trace/timeline.h: the spans and lanes of a Chrome trace file (as libskmd writes it,
 * see docs/tools.md), ready to draw or sum up. */
#ifndef SKMD_TIMELINE_H
#define SKMD_TIMELINE_H

#include <stddef.h>

struct timeline_lane {
    long pid, tid;
    double sort_index;
    char name[128];
};

struct timeline_span {
    size_t lane;         /* index into lanes */
    char name[128];
    char category[32];   /* "transfer_in", "kernel", "transfer_out", "merge", other */
    char kernel[128];    /* args.kernel, else the name */
    double start_us, duration_us;
    double work_groups, bytes;
    long launch;         /* args.launch, -1 when absent */
};

struct timeline {
    struct timeline_lane *lanes;
    size_t lane_count;
    struct timeline_span *spans;
    size_t span_count;
    double start_us, end_us; /* of all spans */
};

/* Reads the complete ("X") spans and the lane names of a trace, keeping only launch
 * `launch` when it is >= 0. Returns 0, or -1 with the reason in err. */
int timeline_load(const char *path, long launch, struct timeline *out, char *err,
                  size_t err_size);
void timeline_free(struct timeline *timeline);

#endif
