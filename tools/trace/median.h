/* tools/trace/median.h: the median of a set of figures, for the balance and decision
 * summaries. */
#ifndef SKMD_TRACE_MEDIAN_H
#define SKMD_TRACE_MEDIAN_H

#include <stddef.h>

/* Sorts v[0..n) and returns its median (the mean of the middle two when n is even); 0
 * when n is 0. */
double median_of(double *v, size_t n);

#endif
