/* Unit tests of profiledb/'s host rates: round trip by device list, another device list,
 * replacement, age, malformed rows, bad arguments, clear, the upgrade of a version 2 file in
 * place, a read-only version 2 file, and several processes upgrading one file at once. */
#include "pdb_test.h"

#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "../common/check.h"

static int zeroed(const struct skmd_pdb_host *h)
{
    return h->idle_bytes_per_ms == 0.0 && h->busy_bytes_per_ms == 0.0 && h->updated == 0;
}

/* Garbage in every field, so that a get that leaves it alone is seen. */
static struct skmd_pdb_host garbage(void)
{
    return (struct skmd_pdb_host){-7.0, -7.0, -7};
}

static void test_round_trip(void)
{
    char path[512];
    struct skmd_pdb *db = open_scratch("rt.db", path, sizeof path);
    if (!db)
        return;
    int64_t ids[2] = {3, 7};
    struct skmd_pdb_host in = {9.5e6, 4.25e6, 0}, out = garbage();
    CHECK(skmd_pdb_get_host(db, ids, 2, 0, &out) == SKMD_PDB_NOT_FOUND);
    CHECK(zeroed(&out));
    int64_t before = (int64_t)time(NULL);
    CHECK(skmd_pdb_put_host(db, ids, 2, &in) == SKMD_PDB_OK);
    int64_t after = (int64_t)time(NULL);
    out = garbage();
    CHECK(skmd_pdb_get_host(db, ids, 2, 0, &out) == SKMD_PDB_OK);
    CHECK(out.idle_bytes_per_ms == 9.5e6 && out.busy_bytes_per_ms == 4.25e6);
    CHECK(out.updated >= before && out.updated <= after);
    /* The key is the ids' text in member order, as the guards table's. */
    CHECK(query_number(db, "SELECT count(*) FROM hosts WHERE devices = '3,7'") == 1);

    /* A second put replaces the rates; one of them may be unmeasured. */
    struct skmd_pdb_host second = {8e6, 0.0, 0};
    CHECK(skmd_pdb_put_host(db, ids, 2, &second) == SKMD_PDB_OK);
    CHECK(query_number(db, "SELECT count(*) FROM hosts") == 1);
    CHECK(skmd_pdb_get_host(db, ids, 2, 0, &out) == SKMD_PDB_OK);
    CHECK(out.idle_bytes_per_ms == 8e6 && out.busy_bytes_per_ms == 0.0);
    skmd_pdb_close(db);

    /* Read back by another handle, as the next process would. */
    db = skmd_pdb_open(path, NULL, NULL);
    out = garbage();
    CHECK(skmd_pdb_get_host(db, ids, 2, 3600, &out) == SKMD_PDB_OK);
    CHECK(out.idle_bytes_per_ms == 8e6 && out.busy_bytes_per_ms == 0.0 && out.updated > 0);

    /* The same devices in another order, another device, a subset, a superset: nothing
     * stored for them. */
    int64_t swapped[2] = {7, 3}, other[2] = {3, 8}, more[3] = {3, 7, 9};
    const struct {
        const int64_t *device;
        int ndev;
    } absent[] = {{swapped, 2}, {other, 2}, {ids, 1}, {ids + 1, 1}, {more, 3}};
    for (size_t i = 0; i < sizeof absent / sizeof absent[0]; i++) {
        out = garbage();
        EXPECT(skmd_pdb_get_host(db, absent[i].device, absent[i].ndev, 0, &out) ==
                   SKMD_PDB_NOT_FOUND && zeroed(&out),
               "device list %zu of the absent ones was found", i);
    }

    /* An hour old: ignored under a one-minute limit, found with none or a longer one. */
    CHECK(run_sql(db, "UPDATE hosts SET updated = updated - 3600") == SQLITE_OK);
    out = garbage();
    CHECK(skmd_pdb_get_host(db, ids, 2, 60, &out) == SKMD_PDB_NOT_FOUND && zeroed(&out));
    CHECK(skmd_pdb_get_host(db, ids, 2, 0, &out) == SKMD_PDB_OK &&
          out.idle_bytes_per_ms == 8e6);
    CHECK(skmd_pdb_get_host(db, ids, 2, 7200, &out) == SKMD_PDB_OK);

    /* Rows no libskmd writes are ignored: a negative, infinite or text rate, none
     * measured. Each starts from a good row, found first. */
    static const char *const bad[] = {
        "UPDATE hosts SET idle = -1",
        "UPDATE hosts SET busy = -1",
        "UPDATE hosts SET idle = 1e999",
        "UPDATE hosts SET busy = 'fast'",
        "UPDATE hosts SET idle = 0, busy = 0",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK(run_sql(db, "UPDATE hosts SET idle = 5e6, busy = 2e6") == SQLITE_OK);
        CHECK(skmd_pdb_get_host(db, ids, 2, 0, &out) == SKMD_PDB_OK);
        CHECK(run_sql(db, bad[i]) == SQLITE_OK);
        out = garbage();
        EXPECT(skmd_pdb_get_host(db, ids, 2, 0, &out) == SKMD_PDB_NOT_FOUND && zeroed(&out),
               "the malformed row of \"%s\" was found", bad[i]);
    }

    /* clear empties the table. */
    CHECK(skmd_pdb_put_host(db, other, 2, &in) == SKMD_PDB_OK);
    CHECK(query_number(db, "SELECT count(*) FROM hosts") == 2);
    CHECK(skmd_pdb_clear(db) == SKMD_PDB_OK);
    CHECK(query_number(db, "SELECT count(*) FROM hosts") == 0);
    CHECK(skmd_pdb_get_host(db, other, 2, 0, &out) == SKMD_PDB_NOT_FOUND);
    skmd_pdb_close(db);
}

static void test_bad_arguments(void)
{
    char path[512];
    path_in(path, sizeof path, "args.db");
    struct skmd_pdb *db = skmd_pdb_open(path, NULL, NULL);
    CHECK(db != NULL);
    if (!db)
        return;
    int64_t ids[SKMD_PDB_GUARD_DEVICES + 1], negative[2] = {1, -1};
    for (int i = 0; i <= SKMD_PDB_GUARD_DEVICES; i++)
        ids[i] = i;
    const struct skmd_pdb_host good = {1e6, 5e5, 0};
    struct skmd_pdb_host out;
    /* The arguments are good: each case below changes one. */
    CHECK(skmd_pdb_put_host(db, ids, SKMD_PDB_GUARD_DEVICES, &good) == SKMD_PDB_OK);
    CHECK(skmd_pdb_get_host(db, ids, SKMD_PDB_GUARD_DEVICES, 0, &out) == SKMD_PDB_OK);
    CHECK(run_sql(db, "DELETE FROM hosts") == SQLITE_OK);

    CHECK(skmd_pdb_put_host(NULL, ids, 2, &good) == SKMD_PDB_EINVAL);
    CHECK(skmd_pdb_put_host(db, NULL, 2, &good) == SKMD_PDB_EINVAL);
    CHECK(skmd_pdb_put_host(db, ids, 0, &good) == SKMD_PDB_EINVAL);
    CHECK(skmd_pdb_put_host(db, ids, -1, &good) == SKMD_PDB_EINVAL);
    CHECK(skmd_pdb_put_host(db, ids, SKMD_PDB_GUARD_DEVICES + 1, &good) == SKMD_PDB_EINVAL);
    CHECK(skmd_pdb_put_host(db, negative, 2, &good) == SKMD_PDB_EINVAL);
    CHECK(skmd_pdb_put_host(db, ids, 2, NULL) == SKMD_PDB_EINVAL);
    static const struct skmd_pdb_host bad_rates[] = {
        {NAN, 1e6, 0}, {1e6, NAN, 0}, {INFINITY, 1e6, 0}, {1e6, INFINITY, 0},
        {-1.0, 1e6, 0}, {1e6, -1.0, 0}, {0.0, 0.0, 0},
    };
    for (size_t i = 0; i < sizeof bad_rates / sizeof bad_rates[0]; i++)
        EXPECT(skmd_pdb_put_host(db, ids, 2, &bad_rates[i]) == SKMD_PDB_EINVAL,
               "bad rates %zu (%g, %g) were taken", i, bad_rates[i].idle_bytes_per_ms,
               bad_rates[i].busy_bytes_per_ms);
    CHECK(query_number(db, "SELECT count(*) FROM hosts") == 0);

    CHECK(skmd_pdb_get_host(db, ids, 2, 0, NULL) == SKMD_PDB_EINVAL);
    static const struct {
        int null_db, null_device, ndev, negative_id;
        int64_t max_age_s;
    } bad_gets[] = {
        {1, 0, 2, 0, 0}, {0, 1, 2, 0, 0}, {0, 0, 0, 0, 0},
        {0, 0, SKMD_PDB_GUARD_DEVICES + 1, 0, 0}, {0, 0, 2, 1, 0}, {0, 0, 2, 0, -1},
    };
    for (size_t i = 0; i < sizeof bad_gets / sizeof bad_gets[0]; i++) {
        const int64_t *device = bad_gets[i].null_device ? NULL
                                : bad_gets[i].negative_id ? negative
                                                          : ids;
        out = (struct skmd_pdb_host){-7.0, -7.0, -7};
        EXPECT(skmd_pdb_get_host(bad_gets[i].null_db ? NULL : db, device, bad_gets[i].ndev,
                                 bad_gets[i].max_age_s, &out) == SKMD_PDB_EINVAL &&
                   out.idle_bytes_per_ms == 0.0 && out.updated == 0,
               "bad get %zu was not refused with the rates zeroed", i);
    }
    skmd_pdb_close(db);
}

/* A version 2 database file at path, as libskmd before schema 3 left it, with a perf row
 * and a guard state. */
static void write_version2(const char *path)
{
    write_old_schema(path, 2,
                     "INSERT INTO devices VALUES(1, 'PoCL', 'cpu', '3.1');"
                     "INSERT INTO devices VALUES(2, 'NVIDIA', 'H100', '580');"
                     "INSERT INTO kernels VALUES('000000000000002a', 'vector_add');"
                     "INSERT INTO perf VALUES('000000000000002a', 1, 7, 5, 123.5, 4, 0);"
                     "INSERT INTO guards VALUES('000000000000002a', 7, '0000000000000001',"
                     " '0000000000000002', '1,2', 'skmd', 1.8, 5, '2:1.2:2', 2, 1, 6, 40,"
                     " 72, 0);");
}

/* The version 2 file's guard state: key {42, 7, 1, 2, {1, 2}, "skmd"}, with no off-host
 * split (version 4's). */
static int guard_kept(struct skmd_pdb *db)
{
    int64_t ids[2] = {1, 2};
    struct skmd_pdb_guard_key key = {42, 7, 1, 2, 2, ids, "skmd"};
    struct skmd_pdb_guard g;
    return skmd_pdb_get_guard(db, &key, 0, &g) == SKMD_PDB_OK && g.whole_mode &&
           g.whole_dev == 1 && g.whole_ms[1] == 1.2 && g.offhost_ms == 0.0 &&
           g.offhost_n == 0 && g.offhost_mode == 0;
}

static void test_upgrade(void)
{
    char path[512];
    path_in(path, sizeof path, "v2.db");
    write_version2(path);
    struct reports rep = {0};
    struct skmd_pdb *db = open_upgraded(path, 2, &rep);
    if (!db)
        return;
    CHECK(query_number(db, "PRAGMA user_version") == SKMD_PDB_SCHEMA_VERSION);
    /* Its rows are kept, and the hosts table is there. */
    struct skmd_pdb_perf perf;
    CHECK(skmd_pdb_get_perf(db, 42, 1, 7, &perf) == SKMD_PDB_OK && perf.rate[5] == 123.5);
    CHECK(guard_kept(db));
    int64_t ids[2] = {1, 2};
    struct skmd_pdb_host in = {9e6, 3e6, 0}, out;
    CHECK(skmd_pdb_get_host(db, ids, 2, 0, &out) == SKMD_PDB_NOT_FOUND);
    CHECK(skmd_pdb_put_host(db, ids, 2, &in) == SKMD_PDB_OK);
    CHECK(skmd_pdb_get_host(db, ids, 2, 0, &out) == SKMD_PDB_OK &&
          out.idle_bytes_per_ms == 9e6 && out.busy_bytes_per_ms == 3e6);
    skmd_pdb_close(db);
    /* Upgraded once: the next open is quiet and finds the rates, nothing moved aside. */
    rep.count = 0;
    db = skmd_pdb_open(path, collect, &rep);
    CHECK(rep.count == 0);
    CHECK(skmd_pdb_get_host(db, ids, 2, 0, &out) == SKMD_PDB_OK &&
          out.idle_bytes_per_ms == 9e6);
    skmd_pdb_close(db);
    CHECK(!moved_aside("v2.db"));
}

/* A read-only version 2 file is used as it is: no hosts table, so rates are not found and
 * not saved, while its guard state is still read. */
static void readonly_version2_child(void)
{
    struct skmd_pdb *db = open_read_only("ro/v2.db");
    if (!db)
        return;
    CHECK(guard_kept(db));
    int64_t ids[2] = {1, 2};
    struct skmd_pdb_host in = {9e6, 3e6, 0}, out = garbage();
    CHECK(skmd_pdb_put_host(db, ids, 2, &in) == SKMD_PDB_NOT_PERSISTED);
    CHECK(skmd_pdb_get_host(db, ids, 2, 0, &out) == SKMD_PDB_NOT_FOUND && zeroed(&out));
    /* Bad arguments are still refused as such. */
    CHECK(skmd_pdb_put_host(db, ids, 0, &in) == SKMD_PDB_EINVAL);
    CHECK(skmd_pdb_get_host(db, ids, 2, -1, &out) == SKMD_PDB_EINVAL);
    skmd_pdb_close(db);
}

static void test_read_only_version2(void)
{
    char path[512];
    read_only_file("ro", "v2.db", write_version2, path, sizeof path);
    CHECK(as_nobody(readonly_version2_child) == 0);
    /* And left at version 2. */
    CHECK(query_file(path, "PRAGMA user_version") == 2);
}

#define WRITERS 4
#define WRITES 20

/* Writer w's host rates, each read back. */
static int write_hosts(struct skmd_pdb *db, int w)
{
    int bad = 0;
    for (int i = 0; i < WRITES && !bad; i++) {
        int64_t ids[2] = {w, 100 + i};
        struct skmd_pdb_host in = {1e6 + i, 0.0, 0}, out;
        bad |= skmd_pdb_put_host(db, ids, 2, &in) != SKMD_PDB_OK;
        bad |= skmd_pdb_get_host(db, ids, 2, 0, &out) != SKMD_PDB_OK ||
               out.idle_bytes_per_ms != 1e6 + i;
    }
    return bad;
}

/* Processes that open the same version 2 file at once (each upgrading it, or finding it
 * upgraded) and write host rates: every rate arrives. */
static void test_several_writers(void)
{
    char path[512];
    path_in(path, sizeof path, "writers.db");
    write_version2(path);
    run_writers(path, WRITERS, write_hosts);
    struct skmd_pdb *db = skmd_pdb_open(path, NULL, NULL);
    CHECK(query_number(db, "SELECT count(*) FROM hosts") == WRITERS * WRITES);
    CHECK(guard_kept(db));
    skmd_pdb_close(db);
}

int main(void)
{
    if (root_dir_make("pdb-host") != 0)
        return 1;
    test_round_trip();
    test_bad_arguments();
    test_upgrade();
    test_read_only_version2();
    test_several_writers();
    root_dir_remove("test_pdb_host");
    return check_report("test_pdb_host");
}
