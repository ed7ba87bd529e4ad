/* libskmd/cl/bring_up.h: members made ready only when a launch could use them.
 *
 * A GPU's real context takes its driver a tenth of a second, a CPU member's build of the
 * app's program tens of milliseconds: a short program that never launches anything worth
 * splitting should not pay them. So a context starts "up" only on the platform slots its
 * queues run on (the executing members'); the other slots come up together, once, when a
 * launch could use them (launch_plan.c asks through ctx->bring_up), or when the app asks
 * for something every member must answer (a program from a binary, a compile or link, a
 * sampler, an image, a program's binaries). Bringing a slot up makes its real context,
 * each live program's real program (from the kept source, built with the last build's
 * options), its split program (from the kept compiler output) and each live kernel's real,
 * partition-ready and merge kernels; arguments need no replay (every launch sets all of
 * them on the kernels it runs). A launch that could use them starts the bring-up on a thread
 * of its own and runs with the members up (SKMD_BRING_UP=launch); forced shares wait for
 * it, as SKMD_BRING_UP=wait does; SKMD_BRING_UP=context brings every slot up at once. */
#ifndef SKMD_BRING_UP_H
#define SKMD_BRING_UP_H

#include "support/object.h"

/* Every platform slot, as bits. */
unsigned skmd_all_slots(void);

/* Makes the real contexts of `slots` (bits) at once (a GPU's takes its driver a tenth of
 * a second or more). Returns the slots whose context was made; the others are NULL. */
unsigned skmd_context_make_slots(cl_context ctx, unsigned slots, cl_int *first_err);

/* The slots a new context starts with: those of its devices' executing members and of
 * the process's, or every slot (SKMD_BRING_UP=context). */
unsigned skmd_context_first_slots(cl_context ctx);

/* Brings every slot of ctx up (see above); `why` is logged. Returns at once when all
 * are up; a slot whose context cannot be made stays down, its members unused. */
void skmd_context_bring_up(cl_context ctx, const char *why);
/* ctx->bring_up: skmd_context_bring_up when `wait`, else the same on a thread of its own
 * (once per context; the context is kept alive meanwhile, the process waits for it at
 * exit), returning at once. */
void skmd_context_bring_up_hook(cl_context ctx, const char *why, int wait);

/* Adds a new program to (removes one from) its context's list, under the locks the
 * bring-up reads the list with; the caller holds up_lock for reading. */
void skmd_context_add_program(cl_program p);
void skmd_context_remove_program(cl_program p);
void skmd_program_add_kernel(cl_kernel k);
void skmd_program_remove_kernel(cl_kernel k);

#endif
