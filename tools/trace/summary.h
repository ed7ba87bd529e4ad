/* tools/trace/summary.h: per kernel, per device: launches, work-groups, time, bytes moved. */
#ifndef SKMD_SUMMARY_H
#define SKMD_SUMMARY_H

#include "timeline.h"

#include <stdio.h>

/* Prints the table (columns in docs/tools.md); returns 0, or -1 when out of memory. */
int summary_write(FILE *out, const struct timeline *timeline);

#endif
