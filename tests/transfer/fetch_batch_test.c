/* tests/transfer/fetch_batch_test.c: libskmd/mem/fetch_batch.c alone, with stand-ins for
 * the transfer engine, the buffer locks and the trace. A share's inputs as another
 * member's rectangular writes leave them: thousands of ranges of one buffer, asked for
 * again in part (a buffer given as two arguments), for two members and two buffers. The
 * batch must move each asked byte to each member exactly once, nothing more, and make
 * every moved range current (landed) only when it runs; a dropped batch moves and lands
 * nothing. (`make test-fetch-batch`) */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem/fetch_batch.h"
#include "support/log.h"
#include "support/trace.h"

#include "../common/check.h"

#define BYTES 600000u
#define RANGES 3000u /* ranges per member and buffer */

/* Stand-in buffers: only their addresses matter to the batch. */
static struct _cl_mem *buffer_a = (struct _cl_mem *)0x1000, *buffer_b = (struct _cl_mem *)0x2000;

/* How often each byte was moved / landed, per member (0, 1) and buffer (a, b). */
static unsigned char moved[2][2][BYTES], landed[2][2][BYTES];
static int runs, requests;

static int which(cl_mem root)
{
    return root == buffer_b;
}

cl_int skmd_xfer_run_many(struct skmd_xfer_req *reqs, int n, struct skmd_xfer_stats *stats)
{
    (void)stats;
    runs++;
    requests += n;
    for (int i = 0; i < n; i++) {
        /* The host pointer of each request is the buffer's own bytes at its offset. */
        int b = reqs[i].buffer == (cl_mem)buffer_b;
        for (size_t k = 0; k < reqs[i].size; k++)
            moved[reqs[i].member][b][reqs[i].offset + k]++;
        reqs[i].landed_ns = 1;
    }
    return CL_SUCCESS;
}

static cl_int note_landed(cl_mem root, int member, uint64_t b, uint64_t e)
{
    for (uint64_t k = b; k < e; k++)
        landed[member][which(root)][k]++;
    return CL_SUCCESS;
}

void skmd_buffer_lock(cl_mem mem) { (void)mem; }
void skmd_buffer_unlock(cl_mem mem) { (void)mem; }
int skmd_trace_enabled(void) { return 0; }
void skmd_trace_span(const struct skmd_trace_span *span) { (void)span; }
void skmd_log(enum skmd_log_level level, const char *fmt, ...) { (void)level; (void)fmt; }

static unsigned char host_bytes[BYTES];

/* Asks for [b, e) of root on member m; returns the bytes the batch took. */
static uint64_t ask(cl_mem root, int m, uint64_t b, uint64_t e)
{
    struct skmd_xfer_req req = {
        .member = m, .buffer = root, .to_device = 1, .offset = (size_t)b,
        .size = (size_t)(e - b), .host = host_bytes + b, .direct = 1,
    };
    uint64_t queued = 0;
    EXPECT(skmd_fetch_batch_add(&req, root, note_landed, &queued) == 1,
           "request [%llu, %llu) on member %d not taken", (unsigned long long)b,
           (unsigned long long)e, m);
    return queued;
}

int main(void)
{
    /* Every other stripe of 100 bytes, as a rectangular share leaves them. */
    const uint64_t stride = BYTES / RANGES, len = stride / 2;
    uint64_t expect_bytes = 0, took = 0;
    skmd_fetch_batch_begin();
    for (int m = 0; m < 2; m++)
        for (int b = 0; b < 2; b++)
            for (uint64_t r = 0; r < RANGES; r++) {
                cl_mem root = b ? buffer_b : buffer_a;
                took += ask(root, m, r * stride, r * stride + len);
                expect_bytes += len;
            }
    CHECK(took == expect_bytes);
    /* Asked again, each stripe widened into the gap after it: only the gap is new. */
    uint64_t again = 0;
    for (uint64_t r = 0; r < RANGES; r++)
        again += ask(buffer_a, 0, r * stride, r * stride + len + 10);
    EXPECT(again == RANGES * 10, "second ask took %llu bytes, want %u (the new ones)",
           (unsigned long long)again, RANGES * 10);
    /* Nothing has moved or landed before the batch runs. */
    CHECK(runs == 0 && landed[0][0][0] == 0);
    CHECK(skmd_fetch_batch_end(1) == CL_SUCCESS);
    CHECK(runs == 1);
    int twice = 0, wrong = 0;
    for (int m = 0; m < 2; m++)
        for (int b = 0; b < 2; b++)
            for (uint64_t k = 0; k < BYTES; k++) {
                uint64_t in = k % stride;
                int asked = in < len || (m == 0 && b == 0 && in < len + 10);
                twice += moved[m][b][k] > 1;
                wrong += moved[m][b][k] != (unsigned char)asked ||
                         landed[m][b][k] != (unsigned char)asked;
            }
    EXPECT(twice == 0, "%d bytes moved twice", twice);
    EXPECT(wrong == 0, "%d bytes moved or landed where not asked, or not where asked", wrong);
    printf("fetch_batch_test: %d requests for %u asks\n", requests, 4 * RANGES + RANGES);

    /* A dropped batch moves and lands nothing; a new batch starts empty. */
    memset(moved, 0, sizeof moved);
    memset(landed, 0, sizeof landed);
    skmd_fetch_batch_begin();
    CHECK(ask(buffer_a, 1, 0, 1000) == 1000);
    CHECK(skmd_fetch_batch_end(0) == CL_SUCCESS);
    CHECK(runs == 1 && moved[1][0][0] == 0 && landed[1][0][0] == 0);
    skmd_fetch_batch_begin();
    CHECK(ask(buffer_a, 1, 0, 1000) == 1000);
    CHECK(skmd_fetch_batch_end(1) == CL_SUCCESS);
    CHECK(runs == 2 && moved[1][0][999] == 1 && landed[1][0][999] == 1);
    return check_report("fetch_batch_test");
}
