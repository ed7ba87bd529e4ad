/* libskmd/plan/stream_hist.c: what is learnt per root buffer from the app's calls, for
 * streamed outputs (launch/stream_out.h) and the placement (placement.h). */
#include <string.h>

#include "mem/coherence.h"
#include "plan/stream_hist.h"
#include "support/config.h"

/* What is learnt per root buffer (cl_mem stream_hist), in the app's order of calls. */
enum {
    WRITTEN_UNREAD = 1, /* a kernel wrote it and the app has not read it since */
    NOT_READ_BACK = 2,  /* a kernel used that output before the app read it: no stream */
    FEEDS_KERNELS = 4,  /* a kernel once read what a kernel wrote before the app read it
                           (an app write in between counts as no read: a wrong "feeds"
                           only leaves the launch's writes unplaced); kept (placement.h) */
};

static enum skmd_stream_outputs control(void)
{
    return skmd_config()->stream_outputs;
}

void skmd_stream_note_app_read(cl_mem mem)
{
    if (mem->mtype != CL_MEM_OBJECT_BUFFER)
        return;
    __atomic_and_fetch(&skmd_mem_root(mem)->stream_hist,
                       (unsigned char)~(WRITTEN_UNREAD | NOT_READ_BACK), __ATOMIC_RELAXED);
}

int skmd_stream_note_launch(cl_mem mem, int reads, int writes)
{
    if (mem->mtype != CL_MEM_OBJECT_BUFFER || !(reads || writes))
        return 0;
    unsigned char *hist = &skmd_mem_root(mem)->stream_hist;
    unsigned char was = __atomic_load_n(hist, __ATOMIC_RELAXED), now;
    do {
        now = was;
        /* The previous kernel's output is used on the device before the app read it. */
        if (was & WRITTEN_UNREAD)
            now |= NOT_READ_BACK | (reads ? FEEDS_KERNELS : 0);
        if (writes)
            now |= WRITTEN_UNREAD;
    } while (!__atomic_compare_exchange_n(hist, &was, now, 0, __ATOMIC_RELAXED,
                                          __ATOMIC_RELAXED));
    if (!writes || control() == SKMD_STREAM_OUTPUTS_OFF)
        return 0;
    return control() == SKMD_STREAM_OUTPUTS_ON || !(now & NOT_READ_BACK);
}

int skmd_stream_feeds_kernels(cl_mem mem)
{
    return mem->mtype == CL_MEM_OBJECT_BUFFER &&
           (__atomic_load_n(&skmd_mem_root(mem)->stream_hist, __ATOMIC_RELAXED) &
            FEEDS_KERNELS);
}
