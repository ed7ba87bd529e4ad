/* libskmd/launch/launch_report.h: what a launch tells: bytes, span, trace, log line, report
 * row (launch_report.c). */
#ifndef SKMD_LAUNCH_REPORT_H
#define SKMD_LAUNCH_REPORT_H

#include "launch/launch_state.h"
#include "support/trace.h"

void launch_add_moved(struct launch *L, const struct skmd_moved *m);
void launch_widen_span(struct launch *L, int m, cl_ulong start, cl_ulong end);
void launch_trace_span(const struct launch *L, int device, enum skmd_trace_kind kind,
                       uint64_t start, uint64_t groups);
void launch_report(const struct launch *L, const char *why, const struct share *shares,
                   int nshares, uint64_t t0);

#endif
