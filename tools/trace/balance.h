/* tools/trace/balance.h: how evenly the devices of each split launch finish (docs/tools.md).
 *
 * A split launch is a launch number whose kernel spans lie on two or more lanes. A device's
 * finish is the end of its last span of the launch but merges (its share and the transfers
 * tied to the launch), from the launch's first span; the spread is the latest finish minus
 * the earliest, as a fraction of the latest. */
#ifndef SKMD_BALANCE_H
#define SKMD_BALANCE_H

#include "timeline.h"

#include <stdio.h>

/* Prints every split launch and, per kernel, how many finished with a spread of at most
 * `within` (0.10: 10%), the median and the worst spread: as text, or as one JSON object
 * when `json` is set. Returns 0, or -1 when out of memory or the output failed. */
int balance_write(FILE *out, const struct timeline *timeline, double within, int json);

#endif
