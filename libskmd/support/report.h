/* libskmd/support/report.h: the exit summary line and the per-kernel table that
 * SKMD_REPORT=1 prints (SKMD_REPORT=json: the same as one JSON object) at exit.
 *
 * The runtime calls skmd_report_launch() once per app launch; the report adds launches up
 * per kernel. Thread-safe, no OpenCL. Columns and keys are documented in docs/tools.md:
 *   kernel launches split shares time_ms est_ms est_err% moved decision
 */
#ifndef SKMD_REPORT_H
#define SKMD_REPORT_H

#include <stdint.h>
#include <stdio.h>

#define SKMD_REPORT_MAX_DEVICES 16

/* One launch of the app, after it completed. Strings are copied. */
struct skmd_report_launch {
    const char *kernel;
    int split;                   /* 1: shared among several devices */
    const char *decision;        /* why it was (not) split, e.g. "global atomics"; may be NULL */
    int ndevices;                /* entries used in workgroups[] (member devices) */
    uint64_t workgroups[SKMD_REPORT_MAX_DEVICES]; /* each member device's share */
    uint64_t bytes_moved;        /* host <-> devices, all devices together */
    double estimated_ms;         /* what the partitioner predicted; < 0: no prediction */
    double measured_ms;          /* wall time of the launch, transfers and merge included */
    /* The model's estimates of the launch whole on its fastest device and split; <= 0:
     * none. A split launch's est_whole_ms - measured_ms is the time it saved. */
    double est_whole_ms, est_split_ms;
};

/* Whether SKMD_REPORT is on (the table or JSON at exit). Launches are reported either
 * way: the exit summary line needs their totals. */
int skmd_report_enabled(void);

/* Names member device `device` in the report's header. */
void skmd_report_name_device(int device, const char *name);

/* Names every member device in the report and the trace ("GPU 0: NVIDIA H100"); called
 * once by skmd_init() when the members are known (member_names.c). */
void skmd_name_members(void);

/* Members brought up in a context (bit m), and the milliseconds that took when it was a
 * bring-up after clCreateContext (cl/bring_up.h): the JSON report's "up" per device and
 * "bring_up_ms". */
void skmd_report_members_up(unsigned members, double ms);

/* Adds one launch. */
void skmd_report_launch(const struct skmd_report_launch *launch);

/* Prints the summary line and the table to `out` (done at exit when SKMD_REPORT=1, to
 * SKMD_REPORT_FILE or stderr). Works whether SKMD_REPORT is on or not, for tests. */
void skmd_report_print(FILE *out);

/* The same as one JSON object on one line (SKMD_REPORT=json); keys in docs/tools.md. */
void skmd_report_print_json(FILE *out);

/* The one-line summary (no newline): launches, split launches, bytes moved, and the time
 * the split launches saved (or lost) against the best single device, as estimated. */
void skmd_report_summary(char *line, size_t size);

#endif
