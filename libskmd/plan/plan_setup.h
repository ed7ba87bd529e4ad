/* libskmd/plan/plan_setup.h: the partitioner's state set up once in the process, torn down
 * at exit (plan_setup.c). */
#ifndef SKMD_PLAN_SETUP_H
#define SKMD_PLAN_SETUP_H


/* Any thread, any number of times; no lock held. */
void plan_setup(void);

#endif
