/* tools/trace/svg.h: a timeline as SVG, one lane per device (like Fig. 10 of the SKMD
 * paper): transfer in, kernel, transfer out and merge in their own colours, a time axis. */
#ifndef SKMD_SVG_H
#define SKMD_SVG_H

#include "timeline.h"

#include <stdio.h>

/* Writes the picture; returns 0 or -1 when writing failed. */
int svg_write(FILE *out, const struct timeline *timeline, const char *title, int width);
/* The same as one row per launch, each from its own start (skmd-trace --rows). */
int svg_write_rows(FILE *out, const struct timeline *timeline, const char *title, int width);

#endif
