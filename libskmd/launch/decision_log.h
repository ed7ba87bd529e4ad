/* libskmd/launch/decision_log.h: SKMD_DECISIONS=FILE, one JSON line per launch as it ends: its
 * shape, each member's share, the decision in words and as a stable reason code, the
 * estimates behind it, its times and the bytes it moved (fields in docs/tools.md).
 *
 * Lines are appended to FILE (opened on the first launch) with one write each, under one
 * lock: launches that end on several threads, or in several processes, never mix their
 * lines. Reason codes are set where the reasons are made: launch_plan.c and launch.c
 * (struct launch's why_code), plan.c, plan_cold.c (struct skmd_plan_ticket's code). */
#ifndef SKMD_DECISION_LOG_H
#define SKMD_DECISION_LOG_H

#include <stdint.h>

struct launch;
struct share;

/* Whether SKMD_DECISIONS names a file. */
int skmd_decision_log_enabled(void);

/* The record of launch L, which ended: `why` it ran whole (NULL: its nshares shares ran),
 * `decision` in the report's words, `wall_ms` from the app's call to now. */
void skmd_decision_log_launch(const struct launch *L, const char *why, const char *decision,
                              const struct share *shares, int nshares, double wall_ms);

#endif
