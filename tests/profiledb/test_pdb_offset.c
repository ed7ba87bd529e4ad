/* Unit tests of profiledb/'s finish offsets: round trip by kernel, shape, device list and
 * device, replacement, malformed rows, bad arguments, clear, the upgrade of a version 4
 * file in place and a read-only version 4 file. */
#include "pdb_test.h"

#include <math.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../common/check.h"

static const int64_t ids[2] = {3, 7};

static struct skmd_pdb_offset_key key_of(uint64_t kernel, uint32_t shape,
                                         const int64_t *devices, int ndev)
{
    return (struct skmd_pdb_offset_key){kernel, shape, devices, ndev};
}

/* The offset stored for device under key, or NAN when none is found. */
static double offset_of(struct skmd_pdb *db, struct skmd_pdb_offset_key key, int64_t device)
{
    double ms = -7.0;
    int status = skmd_pdb_get_offset(db, &key, device, &ms);
    if (status != SKMD_PDB_OK)
        return status == SKMD_PDB_NOT_FOUND && ms == 0.0 ? NAN : -99.0;
    return ms;
}

static void test_round_trip(void)
{
    char path[512];
    struct skmd_pdb *db = open_scratch("rt.db", path, sizeof path);
    if (!db)
        return;
    struct skmd_pdb_offset_key key = key_of(42, 9, ids, 2);
    CHECK(isnan(offset_of(db, key, 3)));
    CHECK(skmd_pdb_put_offset(db, &key, 3, 0.125) == SKMD_PDB_OK);
    CHECK(skmd_pdb_put_offset(db, &key, 7, -0.04) == SKMD_PDB_OK);
    CHECK(offset_of(db, key, 3) == 0.125 && offset_of(db, key, 7) == -0.04);
    CHECK(query_number(db, "SELECT count(*) FROM offsets WHERE devices = '3,7' AND "
                           "kernel = '000000000000002a' AND shape = 9") == 2);
    /* A second put replaces the device's offset; zero is an offset too. */
    CHECK(skmd_pdb_put_offset(db, &key, 3, 0.0) == SKMD_PDB_OK);
    CHECK(query_number(db, "SELECT count(*) FROM offsets") == 2);
    CHECK(offset_of(db, key, 3) == 0.0);
    skmd_pdb_close(db);

    /* Read back by another handle, as the next process would. */
    db = skmd_pdb_open(path, NULL, NULL);
    CHECK(offset_of(db, key, 7) == -0.04);
    /* Another kernel, shape, member list (order, subset, other device): nothing. */
    int64_t swapped[2] = {7, 3}, other[2] = {3, 8}, more[3] = {3, 7, 9};
    CHECK(isnan(offset_of(db, key_of(43, 9, ids, 2), 7)));
    CHECK(isnan(offset_of(db, key_of(42, 10, ids, 2), 7)));
    CHECK(isnan(offset_of(db, key_of(42, 9, swapped, 2), 7)));
    CHECK(isnan(offset_of(db, key_of(42, 9, other, 2), 3)));
    CHECK(isnan(offset_of(db, key_of(42, 9, more, 3), 7)));
    CHECK(isnan(offset_of(db, key_of(42, 9, ids + 1, 1), 7)));

    /* Rows no libskmd writes are ignored: infinite, beyond the limit, text. */
    static const char *const bad[] = {
        "UPDATE offsets SET ms = 1e999 WHERE device = 7",
        "UPDATE offsets SET ms = -1e5 WHERE device = 7",
        "UPDATE offsets SET ms = 'late' WHERE device = 7",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK(run_sql(db, "UPDATE offsets SET ms = 0.5 WHERE device = 7") == SQLITE_OK);
        CHECK(offset_of(db, key, 7) == 0.5);
        CHECK(run_sql(db, bad[i]) == SQLITE_OK);
        EXPECT(isnan(offset_of(db, key, 7)), "the malformed row of \"%s\" was found", bad[i]);
    }

    /* clear empties the table. */
    CHECK(skmd_pdb_clear(db) == SKMD_PDB_OK);
    CHECK(query_number(db, "SELECT count(*) FROM offsets") == 0);
    CHECK(isnan(offset_of(db, key, 3)));
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
    int64_t many[SKMD_PDB_GUARD_DEVICES + 1], negative[2] = {3, -1};
    for (int i = 0; i <= SKMD_PDB_GUARD_DEVICES; i++)
        many[i] = i;
    struct skmd_pdb_offset_key key = key_of(42, 9, ids, 2);
    double ms;
    /* The arguments are good: each case below changes one. */
    CHECK(skmd_pdb_put_offset(db, &key, 7, 1.0) == SKMD_PDB_OK);
    CHECK(run_sql(db, "DELETE FROM offsets") == SQLITE_OK);

    const struct skmd_pdb_offset_key bad_keys[] = {
        key_of(42, 9, NULL, 2), key_of(42, 9, ids, 0), key_of(42, 9, ids, -1),
        key_of(42, 9, many, SKMD_PDB_GUARD_DEVICES + 1), key_of(42, 9, negative, 2),
    };
    for (size_t i = 0; i < sizeof bad_keys / sizeof bad_keys[0]; i++) {
        ms = -7.0;
        EXPECT(skmd_pdb_put_offset(db, &bad_keys[i], 3, 1.0) == SKMD_PDB_EINVAL &&
                   skmd_pdb_get_offset(db, &bad_keys[i], 3, &ms) == SKMD_PDB_EINVAL &&
                   ms == 0.0,
               "bad key %zu was taken", i);
    }
    CHECK(skmd_pdb_put_offset(NULL, &key, 3, 1.0) == SKMD_PDB_EINVAL);
    CHECK(skmd_pdb_put_offset(db, NULL, 3, 1.0) == SKMD_PDB_EINVAL);
    CHECK(skmd_pdb_put_offset(db, &key, 5, 1.0) == SKMD_PDB_EINVAL); /* not in the list */
    static const double bad_ms[] = {NAN, INFINITY, -INFINITY, 1e5, -1e5};
    for (size_t i = 0; i < sizeof bad_ms / sizeof bad_ms[0]; i++)
        EXPECT(skmd_pdb_put_offset(db, &key, 3, bad_ms[i]) == SKMD_PDB_EINVAL,
               "offset %g was taken", bad_ms[i]);
    CHECK(query_number(db, "SELECT count(*) FROM offsets") == 0);
    CHECK(skmd_pdb_get_offset(db, &key, 3, NULL) == SKMD_PDB_EINVAL);
    ms = -7.0;
    CHECK(skmd_pdb_get_offset(NULL, &key, 3, &ms) == SKMD_PDB_EINVAL && ms == 0.0);
    ms = -7.0;
    CHECK(skmd_pdb_get_offset(db, &key, 5, &ms) == SKMD_PDB_EINVAL && ms == 0.0);
    skmd_pdb_close(db);
}

/* A version 4 database file at path, as libskmd before schema 5 left it, with a host
 * rate. */
static void write_version4(const char *path)
{
    write_old_schema(path, 4,
                     "INSERT INTO devices VALUES(3, 'PoCL', 'cpu', '3.1');"
                     "INSERT INTO devices VALUES(7, 'NVIDIA', 'H100', '580');"
                     "INSERT INTO hosts VALUES('3,7', 9e6, 3e6, 72);");
}

static int host_kept(struct skmd_pdb *db)
{
    struct skmd_pdb_host h;
    return skmd_pdb_get_host(db, ids, 2, 0, &h) == SKMD_PDB_OK && h.idle_bytes_per_ms == 9e6;
}

static void test_upgrade(void)
{
    char path[512];
    path_in(path, sizeof path, "v4.db");
    write_version4(path);
    struct reports rep = {0};
    struct skmd_pdb *db = open_upgraded(path, 4, &rep);
    if (!db)
        return;
    CHECK(query_number(db, "PRAGMA user_version") == SKMD_PDB_SCHEMA_VERSION);
    CHECK(host_kept(db));
    struct skmd_pdb_offset_key key = key_of(42, 9, ids, 2);
    CHECK(isnan(offset_of(db, key, 7)));
    CHECK(skmd_pdb_put_offset(db, &key, 7, 0.25) == SKMD_PDB_OK);
    skmd_pdb_close(db);
    /* Upgraded once: the next open is quiet and finds the offset, nothing moved aside. */
    rep.count = 0;
    db = skmd_pdb_open(path, collect, &rep);
    CHECK(rep.count == 0);
    CHECK(offset_of(db, key, 7) == 0.25);
    skmd_pdb_close(db);
    CHECK(!moved_aside("v4.db"));
}

/* A read-only version 4 file is used as it is: no offsets table, so offsets are not found
 * and not saved, while its host rate is still read. */
static void readonly_version4_child(void)
{
    struct skmd_pdb *db = open_read_only("ro/v4.db");
    if (!db)
        return;
    CHECK(host_kept(db));
    struct skmd_pdb_offset_key key = key_of(42, 9, ids, 2);
    CHECK(skmd_pdb_put_offset(db, &key, 7, 0.25) == SKMD_PDB_NOT_PERSISTED);
    CHECK(isnan(offset_of(db, key, 7)));
    CHECK(skmd_pdb_put_offset(db, &key, 5, 0.25) == SKMD_PDB_EINVAL);
    skmd_pdb_close(db);
}

static void test_read_only_version4(void)
{
    char path[512];
    read_only_file("ro", "v4.db", write_version4, path, sizeof path);
    CHECK(as_nobody(readonly_version4_child) == 0);
    CHECK(query_file(path, "PRAGMA user_version") == 4);
}

int main(void)
{
    if (root_dir_make("pdb-offset") != 0)
        return 1;
    test_round_trip();
    test_bad_arguments();
    test_upgrade();
    test_read_only_version4();
    root_dir_remove("test_pdb_offset");
    return check_report("test_pdb_offset");
}
