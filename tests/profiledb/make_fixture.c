/* Writes a small known profile database for the skmd-profile tests: two devices, one
 * kernel "vector_add" with a table per device, a link curve, one logged decision, one
 * guard state, one host rate and two finish offsets. */
#include "skmd_profiledb.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: make_fixture DB\n");
        return 64;
    }
    struct skmd_pdb *db = skmd_pdb_open(argv[1], NULL, NULL);
    const struct skmd_pdb_device_id cpu = {"PoCL", "cpu", "3.1"};
    const struct skmd_pdb_device_id gpu = {"NVIDIA", "H100", "580"};
    int64_t dev[2];
    const char *src = "kernel void vector_add() {}";
    uint64_t kernel = skmd_pdb_kernel_hash(src, strlen(src), "", "vector_add");
    int bad = !db || skmd_pdb_device(db, &cpu, &dev[0]) || skmd_pdb_device(db, &gpu, &dev[1]);
    bad |= skmd_pdb_kernel(db, kernel, "vector_add") != SKMD_PDB_OK;
    for (int d = 0; d < 2 && !bad; d++) {
        struct skmd_pdb_perf perf;
        memset(&perf, 0, sizeof(perf));
        perf.rate[10] = d ? 500.0 : 25.5;
        perf.samples[10] = 3;
        perf.rate[12] = d ? 800.0 : 26.0;
        perf.samples[12] = 1;
        bad |= skmd_pdb_put_perf(db, kernel, dev[d], 77, &perf) != SKMD_PDB_OK;
    }
    struct skmd_pdb_link link = {0.01, 12e6, 2, {4096, 1e7}, {0.02, 0.85}};
    bad |= skmd_pdb_put_link(db, dev[1], SKMD_PDB_H2D, SKMD_PDB_PINNED, &link) != SKMD_PDB_OK;
    uint64_t count[2] = {100, 3996};
    struct skmd_pdb_decision dec = {kernel, 77, "skmd", 4096, 2, dev, count, 5.25,
                                    "split: \"output contiguous\""};
    bad |= skmd_pdb_log_decision(db, &dec) != SKMD_PDB_OK;
    /* The guard went whole on the GPU: the split 1.8 ms, the split without the CPU
     * 2.1 ms, whole 1.2 ms there. */
    struct skmd_pdb_guard_key key = {kernel, 77, 0x1234, 0x5678, 2, dev, "skmd"};
    struct skmd_pdb_guard guard = {.split_ms = 1.8, .split_n = 5, .offhost_ms = 2.1,
                                   .offhost_n = 3, .whole_ms = {2.5, 1.2},
                                   .whole_n = {1, 2}, .whole_dev = 1, .whole_mode = 1,
                                   .backoff = 6, .launches = 40, .retry_at = 72};
    bad |= skmd_pdb_put_guard(db, &key, &guard) != SKMD_PDB_OK;
    struct skmd_pdb_host host = {.idle_bytes_per_ms = 9.5e6, .busy_bytes_per_ms = 4.25e6};
    bad |= skmd_pdb_put_host(db, dev, 2, &host) != SKMD_PDB_OK;
    struct skmd_pdb_offset_key offsets = {kernel, 77, dev, 2};
    bad |= skmd_pdb_put_offset(db, &offsets, dev[0], -0.015) != SKMD_PDB_OK;
    bad |= skmd_pdb_put_offset(db, &offsets, dev[1], 0.06) != SKMD_PDB_OK;
    skmd_pdb_close(db);
    if (bad)
        fprintf(stderr, "make_fixture: could not write %s\n", argv[1]);
    else
        printf("%016llx\n", (unsigned long long)kernel);
    return bad;
}
