/* tests/transfer/copy_pool_test.c: libskmd/xfer/copy_pool.c from several posting threads at once
 * (as several members' staged transfers copy at once): odd sizes and offsets, every byte
 * checked, more posters than the job table has room for pieces (the poster copies the
 * rest), and copies after the pool was shut down (it starts again). Built plain and under
 * ThreadSanitizer (`make test-copy-pool`). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xfer/copy_pool.h"

#include "../common/check.h"

#define POSTERS 6
#define ROUNDS 40
#define MAX_BYTES ((size_t)5 << 20)

struct poster {
    int id;
    unsigned seed;
    unsigned char *src, *dst;
    int bad; /* copies that came out wrong */
};

static unsigned next_rand(unsigned *seed)
{
    *seed = *seed * 1103515245u + 12345u;
    return *seed >> 8;
}

static void *post_copies(void *arg)
{
    struct poster *p = arg;
    for (int r = 0; r < ROUNDS; r++) {
        size_t n = 1 + next_rand(&p->seed) % MAX_BYTES;
        size_t from = next_rand(&p->seed) % 64, to = next_rand(&p->seed) % 64;
        int threads = 1 + (int)(next_rand(&p->seed) % 12);
        for (size_t i = 0; i < n; i++)
            p->src[from + i] = (unsigned char)(i * 7 + (size_t)r + (size_t)p->id);
        memset(p->dst, 0xa5, MAX_BYTES + 128);
        skmd_copy_pool_copy(p->dst + to, p->src + from, n, threads);
        int ok = memcmp(p->dst + to, p->src + from, n) == 0;
        for (size_t i = 0; ok && i < to; i++)
            ok = p->dst[i] == 0xa5;
        for (size_t i = to + n; ok && i < MAX_BYTES + 128; i++)
            ok = p->dst[i] == 0xa5;
        p->bad += !ok;
    }
    return NULL;
}

/* POSTERS threads copying at once; returns the copies that came out wrong. */
static int copy_from_threads(unsigned seed)
{
    struct poster p[POSTERS];
    pthread_t t[POSTERS];
    int bad = 0;
    for (int i = 0; i < POSTERS; i++) {
        p[i] = (struct poster){.id = i, .seed = seed + (unsigned)i,
                               .src = malloc(MAX_BYTES + 128),
                               .dst = malloc(MAX_BYTES + 128)};
        CHECK(p[i].src && p[i].dst);
        if (!p[i].src || !p[i].dst)
            exit(check_report("copy_pool_test"));
    }
    for (int i = 0; i < POSTERS; i++)
        CHECK(pthread_create(&t[i], NULL, post_copies, &p[i]) == 0);
    for (int i = 0; i < POSTERS; i++) {
        pthread_join(t[i], NULL);
        bad += p[i].bad;
        free(p[i].src);
        free(p[i].dst);
    }
    return bad;
}

int main(void)
{
    EXPECT(skmd_copy_pool_cores() >= 1, "cores online: %d", skmd_copy_pool_cores());
    int bad = copy_from_threads(1);
    EXPECT(bad == 0, "%d of %d copies wrong", bad, POSTERS * ROUNDS);
    skmd_copy_pool_shutdown();
    bad = copy_from_threads(99); /* the pool starts again */
    EXPECT(bad == 0, "after shutdown: %d of %d copies wrong", bad, POSTERS * ROUNDS);
    skmd_copy_pool_shutdown();
    return check_report("copy_pool_test");
}
