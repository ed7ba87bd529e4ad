/* Unit tests of profiledb/'s guard states: round trip by device ids, another device list
 * or policy, age, malformed rows, bad arguments, the upgrade of a version 1, 2 or 3 file in
 * place (the last two gaining the off-host split), a read-only version 3 file, and several
 * processes upgrading one file and writing guard states at once. */
#include "pdb_test.h"

#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/check.h"

/* A guard in whole mode on position 1 of a 2-device key: the split 1.8 ms, the split
 * without the host's members 2.1 ms, whole 1.2 ms. */
static struct skmd_pdb_guard whole_verdict(void)
{
    struct skmd_pdb_guard g;
    memset(&g, 0, sizeof g);
    g.split_ms = 1.8;
    g.split_n = 5;
    g.offhost_ms = 2.1;
    g.offhost_n = 3;
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
        a->launches != b->launches || a->retry_at != b->retry_at ||
        a->offhost_ms != b->offhost_ms || a->offhost_n != b->offhost_n ||
        a->offhost_mode != b->offhost_mode)
        return 0;
    for (int i = 0; i < n; i++)
        if (a->whole_ms[i] != b->whole_ms[i] || a->whole_n[i] != b->whole_n[i])
            return 0;
    return 1;
}

static int no_offhost(const struct skmd_pdb_guard *g)
{
    return g->offhost_ms == 0.0 && g->offhost_n == 0 && g->offhost_mode == 0;
}

static void test_round_trip(void)
{
    char path[512];
    struct skmd_pdb *db = open_scratch("rt.db", path, sizeof path);
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
    CHECK(query_number(db, "SELECT offhost_n FROM guards") == 3);
    /* A second put replaces the state: now the split without the host's members runs. */
    in.whole_mode = 0;
    in.split_n = 9;
    in.offhost_ms = 1.1;
    in.offhost_n = 4;
    in.offhost_mode = 1;
    CHECK(skmd_pdb_put_guard(db, &key, &in) == SKMD_PDB_OK);
    CHECK(query_number(db, "SELECT count(*) FROM guards") == 1);
    CHECK(query_number(db, "SELECT offhost_mode FROM guards") == 1);
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
    /* Nor off-host figures no libskmd writes: a mode other than 0 or 1, a negative,
     * infinite or text time, the mode on with no sample. Each starts from a good row,
     * found first. */
    static const char *const bad_offhost[] = {
        "UPDATE guards SET offhost_mode = 7",
        "UPDATE guards SET offhost_mode = -1",
        "UPDATE guards SET offhost_ms = -1",
        "UPDATE guards SET offhost_ms = 1e999",
        "UPDATE guards SET offhost_ms = 'slow'",
        "UPDATE guards SET offhost_n = 0",
    };
    for (size_t i = 0; i < sizeof bad_offhost / sizeof bad_offhost[0]; i++) {
        CHECK(skmd_pdb_put_guard(db, &key, &in) == SKMD_PDB_OK);
        CHECK(skmd_pdb_get_guard(db, &key, 0, &out) == SKMD_PDB_OK && same_guard(&in, &out, 2));
        CHECK(run_sql(db, bad_offhost[i]) == SQLITE_OK);
        EXPECT(skmd_pdb_get_guard(db, &key, 0, &out) == SKMD_PDB_NOT_FOUND &&
                   out.whole_dev == -1 && out.split_n == 0 && no_offhost(&out),
               "the malformed row of \"%s\" was found", bad_offhost[i]);
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
    /* The off-host split: a non-finite or negative time, a mode other than 0 or 1, the
     * mode on with no sample. */
    static const struct {
        double ms;
        uint32_t n;
        int mode;
    } bad_offhost[] = {
        {NAN, 3, 0}, {INFINITY, 3, 1}, {-1.0, 3, 0}, {2.1, 3, 7}, {2.1, 3, -1}, {2.1, 0, 1},
    };
    for (size_t i = 0; i < sizeof bad_offhost / sizeof bad_offhost[0]; i++) {
        b = g;
        b.offhost_ms = bad_offhost[i].ms;
        b.offhost_n = bad_offhost[i].n;
        b.offhost_mode = bad_offhost[i].mode;
        EXPECT(skmd_pdb_put_guard(db, &key, &b) == SKMD_PDB_EINVAL,
               "bad off-host split %zu (%g ms, %u samples, mode %d) was taken", i,
               bad_offhost[i].ms, bad_offhost[i].n, bad_offhost[i].mode);
    }
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
    struct skmd_pdb *db = open_upgraded(path, 1, &rep);
    if (!db)
        return;
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
    CHECK(skmd_pdb_get_guard(db, &key, 0, &out) == SKMD_PDB_OK && same_guard(&g, &out, 1));
    skmd_pdb_close(db);
    /* Upgraded once: the next open is quiet, nothing moved aside. */
    rep.count = 0;
    db = skmd_pdb_open(path, collect, &rep);
    CHECK(rep.count == 0);
    CHECK(skmd_pdb_get_guard(db, &key, 0, &out) == SKMD_PDB_OK);
    skmd_pdb_close(db);
    CHECK(!moved_aside("v1.db"));
}

/* A database file of version 2 or 3 at path, as libskmd before schema 4 left it: a perf
 * row and a guard state (whole on device 2) with no off-host split; version 3 adds a host
 * rate. */
static void write_before_offhost(const char *path, int version)
{
    char rows[1024];
    snprintf(rows, sizeof rows,
             "INSERT INTO devices VALUES(1, 'PoCL', 'cpu', '3.1');"
             "INSERT INTO devices VALUES(2, 'NVIDIA', 'H100', '580');"
             "INSERT INTO kernels VALUES('000000000000002a', 'vector_add');"
             "INSERT INTO perf VALUES('000000000000002a', 1, 7, 5, 123.5, 4, 0);"
             "INSERT INTO guards VALUES('000000000000002a', 7, '0000000000000001',"
             " '0000000000000002', '1,2', 'skmd', 1.8, 5, '2:1.2:2', 2, 1, 6, 40, 72, 0);%s",
             version >= 3 ? "INSERT INTO hosts VALUES('1,2', 9e6, 3e6, 0);" : "");
    write_old_schema(path, version, rows);
}

/* The key of write_before_offhost's guard state. */
static const int64_t old_ids[2] = {1, 2};
static const struct skmd_pdb_guard_key old_key = {42, 7, 1, 2, 2, old_ids, "skmd"};

/* write_before_offhost's guard state, read back whole, with no off-host split. */
static int old_guard_kept(struct skmd_pdb *db)
{
    struct skmd_pdb_guard g;
    return skmd_pdb_get_guard(db, &old_key, 0, &g) == SKMD_PDB_OK && g.split_ms == 1.8 &&
           g.split_n == 5 && g.whole_ms[1] == 1.2 && g.whole_n[1] == 2 && g.whole_n[0] == 0 &&
           g.whole_dev == 1 && g.whole_mode && g.backoff == 6 && g.launches == 40 &&
           g.retry_at == 72 && no_offhost(&g);
}

/* The state the guard of old_key reaches next: the split without the CPU device runs. */
static struct skmd_pdb_guard offhost_verdict(void)
{
    struct skmd_pdb_guard g = whole_verdict();
    g.whole_mode = 0;
    g.offhost_ms = 0.9;
    g.offhost_n = 4;
    g.offhost_mode = 1;
    return g;
}

/* A version 2 or 3 file opens as the current version: its guards table gains the offhost
 * columns, its rows stay (their off-host split none), and new states keep theirs. */
static void test_upgrade_to_offhost(int version)
{
    char name[32], path[512];
    snprintf(name, sizeof name, "v%d.db", version);
    path_in(path, sizeof path, name);
    write_before_offhost(path, version);
    struct reports rep = {0};
    struct skmd_pdb *db = open_upgraded(path, version, &rep);
    if (!db)
        return;
    CHECK(query_number(db, "PRAGMA user_version") == SKMD_PDB_SCHEMA_VERSION);
    CHECK(query_number(db, "SELECT count(*) FROM pragma_table_info('guards')"
                           " WHERE name LIKE 'offhost_%'") == 3);
    struct skmd_pdb_perf perf;
    CHECK(skmd_pdb_get_perf(db, 42, 1, 7, &perf) == SKMD_PDB_OK && perf.rate[5] == 123.5);
    EXPECT(old_guard_kept(db), "version %d: the guard state was not kept", version);
    if (version >= 3) {
        struct skmd_pdb_host host;
        CHECK(skmd_pdb_get_host(db, old_ids, 2, 0, &host) == SKMD_PDB_OK &&
              host.idle_bytes_per_ms == 9e6);
    }
    struct skmd_pdb_guard in = offhost_verdict(), out;
    CHECK(skmd_pdb_put_guard(db, &old_key, &in) == SKMD_PDB_OK);
    CHECK(skmd_pdb_get_guard(db, &old_key, 0, &out) == SKMD_PDB_OK && same_guard(&in, &out, 2));
    CHECK(query_number(db, "SELECT count(*) FROM guards") == 1);
    skmd_pdb_close(db);
    /* Upgraded once: the next open is quiet and finds the new state, nothing moved aside. */
    rep.count = 0;
    db = skmd_pdb_open(path, collect, &rep);
    CHECK(rep.count == 0);
    CHECK(skmd_pdb_get_guard(db, &old_key, 0, &out) == SKMD_PDB_OK && same_guard(&in, &out, 2));
    skmd_pdb_close(db);
    CHECK(!moved_aside(name));
}

/* A read-only version 3 file is used as it is: its guard states read with no off-host
 * split, and a new state is not saved. */
static void readonly_version3_child(void)
{
    struct skmd_pdb *db = open_read_only("ro/v3.db");
    if (!db)
        return;
    CHECK(old_guard_kept(db));
    struct skmd_pdb_guard in = offhost_verdict();
    CHECK(skmd_pdb_put_guard(db, &old_key, &in) == SKMD_PDB_NOT_PERSISTED);
    CHECK(old_guard_kept(db));
    /* Bad arguments are still refused as such. */
    in.offhost_mode = 7;
    CHECK(skmd_pdb_put_guard(db, &old_key, &in) == SKMD_PDB_EINVAL);
    skmd_pdb_close(db);
}

static void write_version3(const char *path)
{
    write_before_offhost(path, 3);
}

static void test_read_only_version3(void)
{
    char path[512];
    read_only_file("ro", "v3.db", write_version3, path, sizeof path);
    CHECK(as_nobody(readonly_version3_child) == 0);
    /* And left at version 3, without the offhost columns. */
    CHECK(query_file(path, "PRAGMA user_version") == 3);
    CHECK(query_file(path, "SELECT count(*) FROM pragma_table_info('guards')"
                           " WHERE name LIKE 'offhost_%'") == 0);
}

#define WRITERS 4
#define WRITES 20

/* Writer w's guard states, each read back. */
static int write_guards(struct skmd_pdb *db, int w)
{
    int bad = 0;
    int64_t ids[2] = {1, 2};
    for (int i = 0; i < WRITES && !bad; i++) {
        struct skmd_pdb_guard_key key = {(uint64_t)(w * 1000 + i), 1, 5, 6, 2, ids, "skmd"};
        struct skmd_pdb_guard g = whole_verdict(), out;
        g.launches = (uint64_t)i;
        g.offhost_n = (uint32_t)i + 1;
        bad |= skmd_pdb_put_guard(db, &key, &g) != SKMD_PDB_OK;
        bad |= skmd_pdb_get_guard(db, &key, 0, &out) != SKMD_PDB_OK ||
               !same_guard(&g, &out, 2);
    }
    return bad;
}

/* Processes that open the same file of an older version at once (each upgrading it, or
 * finding it upgraded: from version 3 the second must not add the offhost columns again)
 * and write guard states: every state arrives. */
static void test_several_writers(int version)
{
    char name[32], path[512];
    snprintf(name, sizeof name, "writers-v%d.db", version);
    path_in(path, sizeof path, name);
    if (version == 1)
        write_version1(path);
    else
        write_before_offhost(path, version);
    run_writers(path, WRITERS, write_guards);
    struct skmd_pdb *db = skmd_pdb_open(path, NULL, NULL);
    /* Besides them, a file from version 2 on held one state already. */
    EXPECT(query_number(db, "SELECT count(*) FROM guards") == WRITERS * WRITES + (version > 1),
           "version %d: %lld guard states", version,
           query_number(db, "SELECT count(*) FROM guards"));
    CHECK(query_number(db, "SELECT count(*) FROM perf") == 1);
    CHECK(query_number(db, "PRAGMA user_version") == SKMD_PDB_SCHEMA_VERSION);
    if (version > 1)
        CHECK(old_guard_kept(db));
    skmd_pdb_close(db);
}

int main(void)
{
    if (root_dir_make("pdb-guard") != 0)
        return 1;
    test_round_trip();
    test_bad_arguments();
    test_upgrade();
    test_upgrade_to_offhost(2);
    test_upgrade_to_offhost(3);
    test_read_only_version3();
    test_several_writers(1);
    test_several_writers(3);
    root_dir_remove("test_pdb_guard");
    return check_report("test_pdb_guard");
}
