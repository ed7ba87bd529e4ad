/* Unit tests of profiledb/'s guard states: round trip by device ids, another device list
 * or policy, age, malformed rows, bad arguments, the upgrade of a version 1 file in place, and
 * several processes writing guard states at once. */
#include "pdb_test.h"

#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../common/check.h"

/* A guard in whole mode on position 1 of a 2-device key: the split 1.8 ms, whole 1.2 ms. */
static struct skmd_pdb_guard whole_verdict(void)
{
    struct skmd_pdb_guard g;
    memset(&g, 0, sizeof g);
    g.split_ms = 1.8;
    g.split_n = 5;
    g.whole_ms[0] = 2.5;
    g.whole_n[0] = 1;
    g.whole_ms[1] = 1.2;
    g.whole_n[1] = 2;
    g.whole_dev = 1;
    g.whole_mode = 1;
    g.backoff = 6;
    g.launches = 40;
    g.retry_at = 72;
    return g;
}

static int same_guard(const struct skmd_pdb_guard *a, const struct skmd_pdb_guard *b, int n)
{
    if (a->split_ms != b->split_ms || a->split_n != b->split_n || a->whole_dev != b->whole_dev ||
        a->whole_mode != b->whole_mode || a->backoff != b->backoff ||
        a->launches != b->launches || a->retry_at != b->retry_at)
        return 0;
    for (int i = 0; i < n; i++)
        if (a->whole_ms[i] != b->whole_ms[i] || a->whole_n[i] != b->whole_n[i])
            return 0;
    return 1;
}

static void test_round_trip(void)
{
    char path[512];
    path_in(path, sizeof path, "rt.db");
    struct skmd_pdb *db = skmd_pdb_open(path, NULL, NULL);
    CHECK(db && skmd_pdb_persistent(db));
    if (!db)
        return;
    int64_t ids[2] = {3, 7};
    struct skmd_pdb_guard_key key = {0xfeedull, 11, 0x8000000000000001ull, 0x42, 2, ids,
                                     "skmd"};
    struct skmd_pdb_guard in = whole_verdict(), out;
    CHECK(skmd_pdb_get_guard(db, &key, 0, &out) == SKMD_PDB_NOT_FOUND);
    CHECK(out.whole_dev == -1 && !out.whole_mode);
    CHECK(skmd_pdb_put_guard(db, &key, &in) == SKMD_PDB_OK);
    CHECK(skmd_pdb_get_guard(db, &key, 0, &out) == SKMD_PDB_OK);
    CHECK(same_guard(&in, &out, 2));
    CHECK(out.updated > 0);
    /* The device is stored by its id, not its position. */
    CHECK(query_number(db, "SELECT whole_dev FROM guards") == 7);
    /* A second put replaces the state. */
    in.whole_mode = 0;
    in.split_n = 9;
    CHECK(skmd_pdb_put_guard(db, &key, &in) == SKMD_PDB_OK);
    CHECK(query_number(db, "SELECT count(*) FROM guards") == 1);
    skmd_pdb_close(db);

    /* Read back by another handle, as the next process would. */
    db = skmd_pdb_open(path, NULL, NULL);
    CHECK(skmd_pdb_get_guard(db, &key, 3600, &out) == SKMD_PDB_OK);
    CHECK(same_guard(&in, &out, 2));

    /* Another device list, the same devices in another order, one device fewer, another
     * launch: nothing stored for them. */
    int64_t other[2] = {3, 8}, swapped[2] = {7, 3};
    struct skmd_pdb_guard_key k2 = key;
    k2.device = other;
    CHECK(skmd_pdb_get_guard(db, &k2, 0, &out) == SKMD_PDB_NOT_FOUND);
    k2.device = swapped;
    CHECK(skmd_pdb_get_guard(db, &k2, 0, &out) == SKMD_PDB_NOT_FOUND);
    k2 = key;
    k2.ndev = 1;
    CHECK(skmd_pdb_get_guard(db, &k2, 0, &out) == SKMD_PDB_NOT_FOUND);
    k2 = key;
    k2.launch++;
    CHECK(skmd_pdb_get_guard(db, &k2, 0, &out) == SKMD_PDB_NOT_FOUND);
    /* Another policy's split is another split. */
    k2 = key;
    k2.policy = "paper";
    CHECK(skmd_pdb_get_guard(db, &k2, 0, &out) == SKMD_PDB_NOT_FOUND);
    k2.policy = NULL;
    CHECK(skmd_pdb_get_guard(db, &k2, 0, &out) == SKMD_PDB_NOT_FOUND);

    /* Eight days old: ignored under a 7-day limit, found with none. */
    CHECK(sqlite3_exec(skmd_pdb_sqlite(db), "UPDATE guards SET updated = updated - 8 * 86400",
                       NULL, NULL, NULL) == SQLITE_OK);
    CHECK(skmd_pdb_get_guard(db, &key, 7 * 86400, &out) == SKMD_PDB_NOT_FOUND);
    CHECK(out.whole_dev == -1 && out.split_n == 0);
    CHECK(skmd_pdb_get_guard(db, &key, 0, &out) == SKMD_PDB_OK);

    /* Rows no libskmd writes are ignored: a whole figure of a device outside the list, a
     * whole device outside it, text where figures belong, a negative time. */
    static const char *const bad[] = {
        "UPDATE guards SET whole = '3:2.5:1,9:1.2:2'",
        "UPDATE guards SET whole = '3:2.5:1', whole_dev = 9",
        "UPDATE guards SET whole = 'three:2.5:1', whole_dev = 3",
        "UPDATE guards SET whole = '3:-2.5:1', whole_dev = 3",
        "UPDATE guards SET whole = '3:2.5:1', whole_dev = 3, split_ms = -1",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK(sqlite3_exec(skmd_pdb_sqlite(db), bad[i], NULL, NULL, NULL) == SQLITE_OK);
        CHECK(skmd_pdb_get_guard(db, &key, 0, &out) == SKMD_PDB_NOT_FOUND);
    }
    CHECK(skmd_pdb_clear(db) == SKMD_PDB_OK);
    CHECK(query_number(db, "SELECT count(*) FROM guards") == 0);
    skmd_pdb_close(db);
}

static void test_bad_arguments(void)
{
    char path[512];
    path_in(path, sizeof path, "args.db");
    struct skmd_pdb *db = skmd_pdb_open(path, NULL, NULL);
    int64_t ids[2] = {1, 2}, negative[2] = {1, -1};
    struct skmd_pdb_guard_key key = {1, 1, 1, 1, 2, ids, "skmd"};
    struct skmd_pdb_guard g = whole_verdict(), out;
    CHECK(skmd_pdb_put_guard(NULL, &key, &g) == SKMD_PDB_EINVAL);
    CHECK(skmd_pdb_put_guard(db, NULL, &g) == SKMD_PDB_EINVAL);
    CHECK(skmd_pdb_put_guard(db, &key, NULL) == SKMD_PDB_EINVAL);
    CHECK(skmd_pdb_get_guard(db, &key, 0, NULL) == SKMD_PDB_EINVAL);
    CHECK(skmd_pdb_get_guard(db, &key, -1, &out) == SKMD_PDB_EINVAL);
    struct skmd_pdb_guard_key k = key;
    k.ndev = 0;
    CHECK(skmd_pdb_put_guard(db, &k, &g) == SKMD_PDB_EINVAL);
    k.ndev = SKMD_PDB_GUARD_DEVICES + 1;
    CHECK(skmd_pdb_put_guard(db, &k, &g) == SKMD_PDB_EINVAL);
    k = key;
    k.device = negative;
    CHECK(skmd_pdb_put_guard(db, &k, &g) == SKMD_PDB_EINVAL);
    struct skmd_pdb_guard b = g;
    b.split_ms = NAN;
    CHECK(skmd_pdb_put_guard(db, &key, &b) == SKMD_PDB_EINVAL);
    b = g;
    b.whole_ms[1] = INFINITY;
    CHECK(skmd_pdb_put_guard(db, &key, &b) == SKMD_PDB_EINVAL);
    b = g;
    b.whole_dev = 2; /* outside a 2-device list */
    CHECK(skmd_pdb_put_guard(db, &key, &b) == SKMD_PDB_EINVAL);
    b = g;
    b.whole_dev = -1; /* whole mode on no device */
    CHECK(skmd_pdb_put_guard(db, &key, &b) == SKMD_PDB_EINVAL);
    CHECK(query_number(db, "SELECT count(*) FROM guards") == 0);
    skmd_pdb_close(db);
}

/* A version 1 database file at path, as libskmd before schema 2 left it, with a perf row. */
static void write_version1(const char *path)
{
    write_old_schema(path, 1,
                     "INSERT INTO devices VALUES(1, 'PoCL', 'cpu', '3.1');"
                     "INSERT INTO kernels VALUES('000000000000002a', 'vector_add');"
                     "INSERT INTO perf VALUES('000000000000002a', 1, 7, 5, 123.5, 4, 0);");
}

static void test_upgrade(void)
{
    char path[512];
    path_in(path, sizeof path, "v1.db");
    write_version1(path);
    struct reports rep = {0};
    struct skmd_pdb *db = skmd_pdb_open(path, collect, &rep);
    CHECK(db && skmd_pdb_persistent(db));
    if (!db)
        return;
    char upgraded[64];
    snprintf(upgraded, sizeof upgraded, "upgraded from schema version 1 to %d",
             SKMD_PDB_SCHEMA_VERSION);
    CHECK(rep.count == 1 && strstr(rep.all, upgraded));
    CHECK(access(path, F_OK) == 0);
    /* Its rows are kept; the guards table is there; the version is the new one. */
    struct skmd_pdb_perf perf;
    CHECK(skmd_pdb_get_perf(db, 42, 1, 7, &perf) == SKMD_PDB_OK && perf.rate[5] == 123.5);
    CHECK(query_number(db, "PRAGMA user_version") == SKMD_PDB_SCHEMA_VERSION);
    int64_t ids[1] = {1};
    struct skmd_pdb_guard_key key = {42, 7, 1, 2, 1, ids, NULL};
    struct skmd_pdb_guard g = whole_verdict(), out;
    g.whole_dev = 0;
    CHECK(skmd_pdb_put_guard(db, &key, &g) == SKMD_PDB_OK);
    CHECK(skmd_pdb_get_guard(db, &key, 0, &out) == SKMD_PDB_OK && out.whole_mode);
    skmd_pdb_close(db);
    /* Upgraded once: the next open is quiet, nothing moved aside. */
    rep.count = 0;
    db = skmd_pdb_open(path, collect, &rep);
    CHECK(rep.count == 0);
    CHECK(skmd_pdb_get_guard(db, &key, 0, &out) == SKMD_PDB_OK);
    skmd_pdb_close(db);
    char aside[600];
    snprintf(aside, sizeof aside, "ls '%s'/v1.db.corrupt-* >/dev/null 2>&1", root_dir);
    CHECK(system(aside) != 0);
}

#define WRITERS 4
#define WRITES 20

/* Processes that open the same version 1 file at once (each upgrading it, or finding it
 * upgraded) and write guard states: every state arrives. */
static void test_several_writers(void)
{
    char path[512];
    path_in(path, sizeof path, "writers.db");
    write_version1(path);
    pid_t pids[WRITERS];
    fflush(NULL);
    for (int w = 0; w < WRITERS; w++) {
        pids[w] = fork();
        if (pids[w] == 0) {
            int bad = 0;
            struct skmd_pdb *db = skmd_pdb_open(path, collect, &(struct reports){0});
            int64_t ids[2] = {1, 2};
            for (int i = 0; i < WRITES && db && !bad; i++) {
                struct skmd_pdb_guard_key key = {(uint64_t)(w * 1000 + i), 1, 5, 6, 2, ids,
                                                 "skmd"};
                struct skmd_pdb_guard g = whole_verdict(), out;
                g.launches = (uint64_t)i;
                bad |= skmd_pdb_put_guard(db, &key, &g) != SKMD_PDB_OK;
                bad |= skmd_pdb_get_guard(db, &key, 0, &out) != SKMD_PDB_OK ||
                       out.launches != (uint64_t)i;
            }
            skmd_pdb_close(db);
            _exit(bad || !db);
        }
    }
    wait_writers(pids, WRITERS);
    struct skmd_pdb *db = skmd_pdb_open(path, NULL, NULL);
    CHECK(query_number(db, "SELECT count(*) FROM guards") == WRITERS * WRITES);
    CHECK(query_number(db, "SELECT count(*) FROM perf") == 1);
    skmd_pdb_close(db);
}

int main(void)
{
    if (root_dir_make("pdb-guard") != 0)
        return 1;
    test_round_trip();
    test_bad_arguments();
    test_upgrade();
    test_several_writers();
    root_dir_remove("test_pdb_guard");
    return check_report("test_pdb_guard");
}
