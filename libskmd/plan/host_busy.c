/* Recent shares on the host's cores as time intervals, in a small ring: a transfer window
 * asks how much of it they covered right after it closes, so only the last few matter. */
#include "plan/host_busy.h"

#include <pthread.h>

#include "support/clock.h"

#define HOST_BUSY_SLOTS 32

static struct {
    pthread_mutex_t lock;
    uint64_t begin_ns[HOST_BUSY_SLOTS];
    uint64_t end_ns[HOST_BUSY_SLOTS]; /* 0 while the share runs */
    unsigned next;
} busy = {.lock = PTHREAD_MUTEX_INITIALIZER};

unsigned skmd_host_busy_begin(uint64_t since_ns)
{
    pthread_mutex_lock(&busy.lock);
    unsigned id = busy.next++;
    busy.begin_ns[id % HOST_BUSY_SLOTS] = since_ns;
    busy.end_ns[id % HOST_BUSY_SLOTS] = 0;
    pthread_mutex_unlock(&busy.lock);
    return id;
}

void skmd_host_busy_end(unsigned id)
{
    pthread_mutex_lock(&busy.lock);
    if (busy.next - id <= HOST_BUSY_SLOTS) /* its slot not taken by a later share */
        busy.end_ns[id % HOST_BUSY_SLOTS] = skmd_now_ns();
    pthread_mutex_unlock(&busy.lock);
}

double skmd_host_busy_ms(uint64_t start_ns, uint64_t end_ns)
{
    uint64_t b[HOST_BUSY_SLOTS], e[HOST_BUSY_SLOTS];
    int n = 0;
    pthread_mutex_lock(&busy.lock);
    unsigned used = busy.next < HOST_BUSY_SLOTS ? busy.next : HOST_BUSY_SLOTS;
    for (unsigned s = 0; s < used; s++) {
        uint64_t from = busy.begin_ns[s] > start_ns ? busy.begin_ns[s] : start_ns;
        uint64_t to = busy.end_ns[s] && busy.end_ns[s] < end_ns ? busy.end_ns[s] : end_ns;
        if (from < to) {
            b[n] = from;
            e[n++] = to;
        }
    }
    pthread_mutex_unlock(&busy.lock);
    /* The union of the clipped intervals: sorted by start (a handful), then swept. */
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && b[j] < b[j - 1]; j--) {
            uint64_t tb = b[j], te = e[j];
            b[j] = b[j - 1], e[j] = e[j - 1];
            b[j - 1] = tb, e[j - 1] = te;
        }
    uint64_t covered = 0, reach = start_ns;
    for (int i = 0; i < n; i++) {
        uint64_t from = b[i] > reach ? b[i] : reach;
        if (e[i] > from)
            covered += e[i] - from;
        if (e[i] > reach)
            reach = e[i];
    }
    return (double)covered / 1e6;
}
