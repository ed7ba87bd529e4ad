/* libskmd/plan/plan_links.h: the members' link curves and the host's rates (plan_links.c). */
#ifndef SKMD_PLAN_LINKS_H
#define SKMD_PLAN_LINKS_H

#include "plan/plan_state.h"

/* Smoothed bytes/ms the host's side carried for several members' transfers at once
 * (the transfer engine's windows, placed writes among them; 0: none seen). */
extern double plan_host_rate;
/* The same while a CPU member's share held the host's cores (0: none seen). */
extern double plan_host_busy_rate;

/* At init (plan_setup): */
void plan_default_link(struct member_info *mi, int m, int cpu);
void plan_load_links(struct member_info *mi);
void plan_load_host_rates(void);

/* The transfer engine's observers, which take plan_lock themselves: */
void plan_observe_transfer(int member, int to_device, int pinned, uint64_t bytes, double ms);
void plan_observe_window(uint64_t bytes, double ms, int members);
/* Under plan_lock: */
void plan_smooth(double *figure, double measured);
void plan_store_host_rates(const struct skmd_plan_guard_members *members);
void plan_store_link(int m, int dir, int mem);
const struct skmd_part_link_curve *plan_link_curve(int m, int dir, int mem);

#endif
