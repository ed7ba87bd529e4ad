/* tools/trace/decisions.h: the partitioner's model against what happened, read from
 * libskmd's decision log (SKMD_DECISIONS, one JSON object per launch; docs/tools.md).
 *
 * Per kernel, all processes of the log together: its launches, its split launches, and of
 * those with an estimate, measured / estimated as ratios (the launch's wall_ms over the
 * estimate's split_ms, and the slowest share's kernel_ms over it): median, and the worst,
 * the one furthest from 1 either way. Convergence is per process, since launch numbers
 * count from 1 in each: the first split launch whose shares' kernel times lie within
 * `within` of each other ((max - min) / max), reported for the worst process (one that
 * never gets there, else the one that takes the most split launches). */
#ifndef SKMD_DECISIONS_H
#define SKMD_DECISIONS_H

#include <stddef.h>
#include <stdio.h>

/* Reads the log at `path` and prints the report, as text or as one JSON object when `json`
 * is set. Returns 0, or -1 with the reason in err: the log cannot be read, a line is not a
 * launch record, out of memory, or the output failed. */
int decisions_write(FILE *out, const char *path, double within, int json, char *err,
                    size_t err_size);

#endif
