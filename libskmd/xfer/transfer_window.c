/* libskmd/xfer/transfer_window.c: what the transfer engine tells its observers: each
 * link's timed transfers, and the windows in which several members' transfers ran at once
 * (see transfer.h). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "support/clock.h"
#include "support/object.h"
#include "xfer/transfer.h"
#include "xfer/transfer_internal.h"

static _Atomic(skmd_xfer_observer) observer;

void skmd_xfer_set_observer(skmd_xfer_observer fn)
{
    atomic_store(&observer, fn);
}

int skmd_xfer_observing(void)
{
    return atomic_load(&observer) != NULL;
}

/* ---- Transfers of several members at once (timed ones: while an observer is set) ----
 * Their host side goes through the same memory. A window opens when the first timed
 * transfer starts and closes when the last one ends; a window in which two members'
 * transfers overlapped tells the window observer its bytes and length: what the host
 * carries for all links together. A transfer that overlapped another member's is not one
 * link's own rate: the link observer does not hear of it. */
static _Atomic(skmd_xfer_window_observer) window_observer;
static struct {
    pthread_mutex_t lock;
    int active[SKMD_MAX_MEMBERS]; /* timed transfers in flight per member */
    int nactive;
    uint64_t overlaps;            /* transfers started beside another member's */
    unsigned members;             /* members that moved bytes in the window */
    int overlapped;
    uint64_t bytes, start_ns;
} window = {.lock = PTHREAD_MUTEX_INITIALIZER};

void skmd_xfer_set_window_observer(skmd_xfer_window_observer fn)
{
    atomic_store(&window_observer, fn);
}

/* A timed transfer of member m starts; *mark for window_leave. */
static void window_enter(int m, uint64_t *mark)
{
    pthread_mutex_lock(&window.lock);
    int beside = window.nactive - window.active[m] > 0;
    if (window.nactive == 0) {
        window.members = 0;
        window.overlapped = 0;
        window.bytes = 0;
        window.start_ns = skmd_now_ns();
    }
    window.overlaps += beside;
    window.overlapped |= beside;
    window.active[m]++;
    window.nactive++;
    window.members |= 1u << m;
    /* Overlapped from its start, or by any transfer started beside another meanwhile. */
    *mark = beside ? UINT64_MAX : window.overlaps;
    pthread_mutex_unlock(&window.lock);
}

/* It ends (`bytes` moved, 0 when it failed); whether it ran beside another member's. */
static int window_leave(int m, uint64_t bytes, uint64_t mark)
{
    skmd_xfer_window_observer fn = NULL;
    uint64_t wbytes = 0;
    double ms = 0;
    int members = 0;
    pthread_mutex_lock(&window.lock);
    int beside = mark == UINT64_MAX || mark != window.overlaps;
    window.active[m]--;
    window.nactive--;
    window.bytes += bytes;
    if (window.nactive == 0 && window.overlapped) {
        fn = atomic_load(&window_observer);
        wbytes = window.bytes;
        ms = (double)(skmd_now_ns() - window.start_ns) / 1e6;
        for (unsigned bits = window.members; bits; bits &= bits - 1)
            members++;
    }
    pthread_mutex_unlock(&window.lock);
    if (fn && wbytes && ms > 0)
        fn(wbytes, ms, members);
    return beside;
}

uint64_t skmd_xfer_timing_start(int member, uint64_t t0, uint64_t *mark)
{
    if (!t0)
        return 0;
    window_enter(member, mark);
    return skmd_now_ns();
}

void skmd_xfer_observed(const struct skmd_xfer_req *req, int pinned, uint64_t t0,
                        uint64_t mark, int ok)
{
    if (!t0)
        return;
    int beside = window_leave(req->member, ok ? req->size : 0, mark);
    skmd_xfer_observer fn = atomic_load(&observer);
    if (fn && ok && !beside)
        fn(req->member, req->to_device, pinned, req->size, (double)(skmd_now_ns() - t0) / 1e6);
}
