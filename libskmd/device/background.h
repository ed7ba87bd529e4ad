/* libskmd/device/background.h: work that runs on a thread of its own while the app goes
 * on (a program's split version, a launch shape's build from the source). The process
 * waits for such work at exit (up to a minute), so that none is still inside a driver
 * while the drivers' own exit handlers take it down. */
#ifndef SKMD_BACKGROUND_H
#define SKMD_BACKGROUND_H

/* Runs fn(arg) on a new detached thread. Returns 1, or 0 when no thread could be made
 * (fn is not run: the caller does the work itself or goes without). fn must not touch
 * what its waiters free once it has told them it is done: the count the exit waits for
 * drops only after fn returns. */
int skmd_background_start(void (*fn)(void *), void *arg);

#endif
