/* libskmd/report.h: the per-kernel table that SKMD_REPORT=1 prints to stderr at exit.
 *
 * The runtime calls skmd_report_launch() once per app launch; the report adds launches up
 * per kernel. Thread-safe, no OpenCL. Columns are documented in docs/tools.md:
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
};

/* Whether SKMD_REPORT is on: callers may skip gathering figures when it is not. */
int skmd_report_enabled(void);

/* Names member device `device` in the report's header. */
void skmd_report_name_device(int device, const char *name);

/* Names every member device in the report and the trace ("GPU 0: NVIDIA H100"); called
 * once by skmd_init() when the members are known (member_names.c). */
void skmd_name_members(void);

/* Adds one launch. */
void skmd_report_launch(const struct skmd_report_launch *launch);

/* Prints the table to `out` (also done on stderr at exit when SKMD_REPORT=1). Works
 * whether SKMD_REPORT is on or not, for tests and tools. */
void skmd_report_print(FILE *out);

#endif
