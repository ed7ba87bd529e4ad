/* Unit tests of profiledb/: round trips, keys, recovery from bad files, read-only and
 * locked databases, a full disk, and several processes writing at once. */
#include "pdb_test.h"

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../common/check.h"

static long long count_rows(struct skmd_pdb *db, const char *table)
{
    char sql[128];
    snprintf(sql, sizeof(sql), "SELECT count(*) FROM %s", table);
    return query_number(db, sql);
}

static int count_aside(const char *path)
{
    char pattern[600];
    glob_t g;
    snprintf(pattern, sizeof(pattern), "%s.corrupt-*", path);
    int n = glob(pattern, 0, NULL, &g) == 0 ? (int)g.gl_pathc : 0;
    globfree(&g);
    return n;
}

static const struct skmd_pdb_device_id gpu = {"NVIDIA", "H100", "580.1"};
static const struct skmd_pdb_device_id cpu = {"PoCL", "cpu-pthread", "3.1"};

static struct skmd_pdb_perf sample_perf(double base)
{
    struct skmd_pdb_perf p;
    memset(&p, 0, sizeof(p));
    for (int k = 4; k < 7; k++) {
        p.rate[k] = base * (k + 1);
        p.samples[k] = (uint32_t)k;
    }
    return p;
}

/* Fills a database with one device and a table; returns its device id. */
static int64_t fill(const char *path)
{
    struct skmd_pdb *db = skmd_pdb_open(path, NULL, NULL);
    int64_t dev = 0;
    CHECK(db && skmd_pdb_device(db, &gpu, &dev) == SKMD_PDB_OK);
    struct skmd_pdb_perf p = sample_perf(2.0);
    CHECK(skmd_pdb_put_perf(db, 42, dev, 7, &p) == SKMD_PDB_OK);
    skmd_pdb_close(db);
    return dev;
}

static void test_round_trip(void)
{
    char path[512];
    path_in(path, sizeof(path), "rt/sub/profile.db");
    struct reports rep = {0};
    struct skmd_pdb *db = skmd_pdb_open(path, collect, &rep);
    CHECK(db != NULL);
    if (!db)
        return;
    CHECK(skmd_pdb_persistent(db) == 1);
    CHECK(rep.count == 0);
    CHECK(strcmp(skmd_pdb_path(db), path) == 0);
    int64_t g1, g2, c1;
    CHECK(skmd_pdb_device(db, &gpu, &g1) == SKMD_PDB_OK);
    CHECK(skmd_pdb_device(db, &gpu, &g2) == SKMD_PDB_OK);
    CHECK(skmd_pdb_device(db, &cpu, &c1) == SKMD_PDB_OK);
    CHECK(g1 == g2 && g1 != c1 && g1 > 0);
    CHECK(skmd_pdb_kernel(db, 42, "vector_add") == SKMD_PDB_OK);

    struct skmd_pdb_perf in = sample_perf(3.0), out;
    CHECK(skmd_pdb_put_perf(db, 42, g1, 7, &in) == SKMD_PDB_OK);
    CHECK(skmd_pdb_get_perf(db, 42, g1, 7, &out) == SKMD_PDB_OK);
    CHECK(memcmp(&in, &out, sizeof(in)) == 0);
    CHECK(skmd_pdb_get_perf(db, 42, c1, 7, &out) == SKMD_PDB_NOT_FOUND);
    CHECK(skmd_pdb_get_perf(db, 43, g1, 7, &out) == SKMD_PDB_NOT_FOUND);
    in.rate[5] = 99.0; /* a second put replaces the table */
    CHECK(skmd_pdb_put_perf(db, 42, g1, 7, &in) == SKMD_PDB_OK);

    struct skmd_pdb_link link = {0.01, 12e6, 3, {4096, 1e6, 1e7}, {0.02, 0.1, 0.9}}, lout;
    CHECK(skmd_pdb_put_link(db, g1, SKMD_PDB_H2D, SKMD_PDB_PINNED, &link) == SKMD_PDB_OK);
    CHECK(skmd_pdb_get_link(db, g1, SKMD_PDB_H2D, SKMD_PDB_PINNED, &lout) == SKMD_PDB_OK);
    CHECK(memcmp(&link, &lout, sizeof(link)) == 0);
    CHECK(skmd_pdb_get_link(db, g1, SKMD_PDB_D2H, SKMD_PDB_PINNED, &lout) == SKMD_PDB_NOT_FOUND);

    int64_t devs[2] = {c1, g1};
    uint64_t counts[2] = {100, 900};
    struct skmd_pdb_decision dec = {42, 7, "skmd", 1000, 2, devs, counts, 1.5, "split"};
    CHECK(skmd_pdb_log_decision(db, &dec) == SKMD_PDB_OK);
    skmd_pdb_close(db);

    /* Everything is still there after reopening, in WAL mode with the schema version. */
    db = skmd_pdb_open(path, collect, &rep);
    CHECK(rep.count == 0);
    CHECK(skmd_pdb_get_perf(db, 42, g1, 7, &out) == SKMD_PDB_OK);
    CHECK(out.rate[5] == 99.0 && out.samples[6] == 6);
    CHECK(count_rows(db, "decisions") == 1);
    CHECK(count_rows(db, "kernels") == 1);
    sqlite3_stmt *st;
    CHECK(sqlite3_prepare_v2(skmd_pdb_sqlite(db), "PRAGMA journal_mode", -1, &st, NULL) == 0);
    CHECK(sqlite3_step(st) == SQLITE_ROW &&
          strcmp((const char *)sqlite3_column_text(st, 0), "wal") == 0);
    sqlite3_finalize(st);
    CHECK(sqlite3_prepare_v2(skmd_pdb_sqlite(db), "PRAGMA user_version", -1, &st, NULL) == 0);
    CHECK(sqlite3_step(st) == SQLITE_ROW &&
          sqlite3_column_int(st, 0) == SKMD_PDB_SCHEMA_VERSION);
    sqlite3_finalize(st);
    CHECK(skmd_pdb_clear(db) == SKMD_PDB_OK);
    CHECK(count_rows(db, "perf") == 0 && count_rows(db, "devices") == 0);
    skmd_pdb_close(db);
}

static void test_bad_arguments(void)
{
    char path[512];
    path_in(path, sizeof(path), "args.db");
    struct skmd_pdb *db = skmd_pdb_open(path, NULL, NULL);
    struct skmd_pdb_perf p = sample_perf(1.0);
    int64_t id;
    CHECK(skmd_pdb_put_perf(NULL, 1, 1, 1, &p) == SKMD_PDB_EINVAL);
    CHECK(skmd_pdb_put_perf(db, 1, 1, 1, NULL) == SKMD_PDB_EINVAL);
    p.rate[3] = NAN;
    CHECK(skmd_pdb_put_perf(db, 1, 1, 1, &p) == SKMD_PDB_EINVAL);
    struct skmd_pdb_device_id half = {"v", NULL, "d"};
    CHECK(skmd_pdb_device(db, &half, &id) == SKMD_PDB_EINVAL);
    struct skmd_pdb_link l = {0.0, 1.0, 9, {0}, {0}};
    CHECK(skmd_pdb_put_link(db, 1, SKMD_PDB_H2D, SKMD_PDB_PINNED, &l) == SKMD_PDB_EINVAL);
    struct skmd_pdb_decision dec = {1, 1, NULL, 1, 0, NULL, NULL, 0.0, NULL};
    CHECK(skmd_pdb_log_decision(db, &dec) == SKMD_PDB_EINVAL);
    CHECK(strlen(skmd_pdb_strstatus(SKMD_PDB_NOT_PERSISTED)) > 10);
    skmd_pdb_close(db);
}

static void test_default_path(void)
{
    char buf[512], small[8];
    char *xdg = getenv("XDG_CACHE_HOME") ? strdup(getenv("XDG_CACHE_HOME")) : NULL;
    char *home = getenv("HOME") ? strdup(getenv("HOME")) : NULL;
    setenv("XDG_CACHE_HOME", "/x/cache", 1);
    setenv("HOME", "/h", 1);
    CHECK(skmd_pdb_default_path(NULL, buf, sizeof(buf)) == 0);
    CHECK(strcmp(buf, "/x/cache/skmd/profile.db") == 0);
    CHECK(skmd_pdb_default_path("/given.db", buf, sizeof(buf)) == 0);
    CHECK(strcmp(buf, "/given.db") == 0);
    unsetenv("XDG_CACHE_HOME");
    CHECK(skmd_pdb_default_path(NULL, buf, sizeof(buf)) == 0);
    CHECK(strcmp(buf, "/h/.cache/skmd/profile.db") == 0);
    CHECK(skmd_pdb_default_path(NULL, small, sizeof(small)) == -1 && small[0] == '\0');
    unsetenv("HOME");
    CHECK(skmd_pdb_default_path(NULL, buf, sizeof(buf)) == -1);
    /* No path at all: reported, works in memory. */
    struct reports rep = {0};
    struct skmd_pdb *db = skmd_pdb_open(NULL, collect, &rep);
    CHECK(db && !skmd_pdb_persistent(db) && rep.count == 1);
    int64_t id;
    CHECK(skmd_pdb_device(db, &gpu, &id) == SKMD_PDB_NOT_PERSISTED);
    skmd_pdb_close(db);
    if (xdg)
        setenv("XDG_CACHE_HOME", xdg, 1);
    if (home)
        setenv("HOME", home, 1);
    free(xdg);
    free(home);
}

static void test_keys(void)
{
    const char *src = "kernel void k(global int *a) { a[0] = 1; }";
    uint64_t h = skmd_pdb_kernel_hash(src, strlen(src), "-O2", "k");
    CHECK(h == skmd_pdb_kernel_hash(src, strlen(src), "-O2", "k"));
    CHECK(h != skmd_pdb_kernel_hash(src, strlen(src), "-O1", "k"));
    CHECK(h != skmd_pdb_kernel_hash(src, strlen(src), "-O2", "j"));
    CHECK(h != skmd_pdb_kernel_hash(src, strlen(src) - 1, "-O2", "k"));
    CHECK(skmd_pdb_kernel_hash("ab", 2, "c", "k") != skmd_pdb_kernel_hash("a", 1, "bc", "k"));
    CHECK(skmd_pdb_kernel_hash(NULL, 5, NULL, NULL) == skmd_pdb_kernel_hash("", 0, "", ""));
    size_t g1[2] = {1024, 1024}, g2[2] = {1100, 1024}, g3[2] = {4096, 1024};
    size_t l1[2] = {16, 16}, l2[2] = {32, 8};
    uint32_t s = skmd_pdb_shape_class(2, g1, l1);
    CHECK(s == skmd_pdb_shape_class(2, g2, l1)); /* 69 x 64 groups: 2^12 as 64 x 64 */
    CHECK(s != skmd_pdb_shape_class(2, g3, l1));
    CHECK(s != skmd_pdb_shape_class(2, g1, l2));
    CHECK(s != skmd_pdb_shape_class(1, g1, l1));
    CHECK(skmd_pdb_shape_class(9, NULL, NULL) == skmd_pdb_shape_class(3, NULL, NULL));
}

/* A bad file is reported, moved aside, and a working empty database takes its place. */
static void expect_recovered(const char *path, const char *phrase)
{
    struct reports rep = {0};
    struct skmd_pdb *db = skmd_pdb_open(path, collect, &rep);
    CHECK(db != NULL);
    if (!db)
        return;
    CHECK(rep.count >= 2);
    CHECK(strstr(rep.all, phrase) != NULL);
    CHECK(strstr(rep.all, "moved aside") != NULL);
    CHECK(count_aside(path) == 1);
    CHECK(skmd_pdb_persistent(db));
    struct skmd_pdb_perf out;
    CHECK(skmd_pdb_get_perf(db, 42, 1, 7, &out) == SKMD_PDB_NOT_FOUND);
    int64_t id;
    CHECK(skmd_pdb_device(db, &cpu, &id) == SKMD_PDB_OK);
    skmd_pdb_close(db);
    /* The rebuilt file opens quietly next time. */
    rep.count = 0;
    db = skmd_pdb_open(path, collect, &rep);
    CHECK(rep.count == 0 && skmd_pdb_persistent(db));
    skmd_pdb_close(db);
}

static void overwrite(const char *path, off_t at, const char *bytes, size_t len)
{
    int fd = open(path, O_WRONLY);
    CHECK(fd >= 0);
    if (fd < 0)
        return;
    CHECK(pwrite(fd, bytes, len, at) == (ssize_t)len);
    close(fd);
}

static void test_corrupt_header(void)
{
    char path[512];
    path_in(path, sizeof(path), "corrupt-header.db");
    fill(path);
    char garbage[100];
    memset(garbage, 0x5a, sizeof(garbage));
    overwrite(path, 0, garbage, sizeof(garbage));
    expect_recovered(path, "corrupt or not a database");
}

static void test_corrupt_page(void)
{
    char path[512];
    path_in(path, sizeof(path), "corrupt-page.db");
    struct skmd_pdb *db = skmd_pdb_open(path, NULL, NULL);
    int64_t devs[1] = {1};
    uint64_t counts[1] = {5};
    char reason[600];
    memset(reason, 'r', sizeof(reason) - 1);
    reason[sizeof(reason) - 1] = '\0';
    for (int i = 0; i < 100; i++) {
        struct skmd_pdb_decision dec = {(uint64_t)i, 1, "skmd", 5, 1, devs, counts, 1.0, reason};
        CHECK(skmd_pdb_log_decision(db, &dec) == SKMD_PDB_OK);
    }
    /* Fold the WAL into the file so that the damage below hits the real pages. */
    CHECK(sqlite3_exec(skmd_pdb_sqlite(db), "PRAGMA wal_checkpoint(TRUNCATE)", NULL, NULL,
                       NULL) == SQLITE_OK);
    skmd_pdb_close(db);
    char garbage[4096];
    memset(garbage, 0xa5, sizeof(garbage));
    overwrite(path, 4096 * 3, garbage, sizeof(garbage));
    expect_recovered(path, "corrupt or not a database");
}

static void test_text_file(void)
{
    char path[512];
    path_in(path, sizeof(path), "text.db");
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f)
        return;
    for (int i = 0; i < 200; i++)
        fputs("this is a text file, not a database\n", f);
    fclose(f);
    expect_recovered(path, "corrupt or not a database");
}

static void make_foreign(const char *path, int app_id, int version)
{
    sqlite3 *conn;
    char sql[200];
    CHECK(sqlite3_open(path, &conn) == SQLITE_OK);
    snprintf(sql, sizeof(sql), "CREATE TABLE foo(x); PRAGMA application_id=%d;"
             " PRAGMA user_version=%d;", app_id, version);
    CHECK(sqlite3_exec(conn, sql, NULL, NULL, NULL) == SQLITE_OK);
    sqlite3_close(conn);
}

static void test_foreign_and_newer(void)
{
    char path[512];
    path_in(path, sizeof(path), "foreign.db");
    make_foreign(path, 0, 0);
    expect_recovered(path, "another application");
    path_in(path, sizeof(path), "newer.db");
    make_foreign(path, SKMD_PDB_APPLICATION_ID, SKMD_PDB_SCHEMA_VERSION + 1);
    char phrase[64];
    snprintf(phrase, sizeof(phrase), "schema version %d", SKMD_PDB_SCHEMA_VERSION + 1);
    expect_recovered(path, phrase);
    /* Older than any version this libskmd can upgrade: rebuilt too. */
    path_in(path, sizeof(path), "older.db");
    make_foreign(path, SKMD_PDB_APPLICATION_ID, SKMD_PDB_OLDEST_VERSION - 1);
    expect_recovered(path, "schema version 0");
}

static void readonly_dir_child(void)
{
    char path[512];
    path_in(path, sizeof(path), "ro/profile.db");
    struct reports rep = {0};
    struct skmd_pdb *db = skmd_pdb_open(path, collect, &rep);
    CHECK(db != NULL);
    if (!db)
        return;
    CHECK(!skmd_pdb_persistent(db));
    CHECK(rep.count == 1 && strstr(rep.all, "memory only") != NULL);
    int64_t id;
    CHECK(skmd_pdb_device(db, &gpu, &id) == SKMD_PDB_NOT_PERSISTED);
    struct skmd_pdb_perf in = sample_perf(1.0), out;
    CHECK(skmd_pdb_put_perf(db, 42, id, 7, &in) == SKMD_PDB_NOT_PERSISTED);
    CHECK(skmd_pdb_get_perf(db, 42, id, 7, &out) == SKMD_PDB_OK); /* kept in memory */
    CHECK(access(path, F_OK) != 0);
    skmd_pdb_close(db);
}

static void readonly_file_child(void)
{
    char path[512];
    path_in(path, sizeof(path), "rofile/profile.db");
    struct reports rep = {0};
    struct skmd_pdb *db = skmd_pdb_open(path, collect, &rep);
    CHECK(db != NULL);
    if (!db)
        return;
    CHECK(!skmd_pdb_persistent(db));
    CHECK(rep.count >= 1);
    struct skmd_pdb_perf in = sample_perf(1.0), out;
    CHECK(skmd_pdb_put_perf(db, 43, 1, 7, &in) == SKMD_PDB_NOT_PERSISTED);
    int st = skmd_pdb_get_perf(db, 42, 1, 7, &out);
    CHECK(st == SKMD_PDB_OK || st == SKMD_PDB_NOT_FOUND);
    skmd_pdb_close(db);
}

static void write_filled(const char *path)
{
    fill(path);
}

static void test_read_only(void)
{
    char dir[512], path[512];
    path_in(dir, sizeof(dir), "ro");
    CHECK(mkdir(dir, 0555) == 0);
    CHECK(as_nobody(readonly_dir_child) == 0);
    /* An existing profile in a read-only directory, itself read-only. */
    read_only_file("rofile", "profile.db", write_filled, path, sizeof path);
    CHECK(as_nobody(readonly_file_child) == 0);
}

static void test_locked(void)
{
    char path[512];
    path_in(path, sizeof(path), "locked.db");
    int64_t dev = fill(path);
    int ready[2], done[2];
    CHECK(pipe(ready) == 0 && pipe(done) == 0);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        /* Another process holds the write lock until told to let go. */
        sqlite3 *conn;
        char c = 'x';
        int ok = sqlite3_open(path, &conn) == SQLITE_OK &&
                 sqlite3_exec(conn, "BEGIN EXCLUSIVE; DELETE FROM decisions;", NULL, NULL,
                              NULL) == SQLITE_OK;
        if (write(ready[1], &c, 1) != 1 || read(done[0], &c, 1) != 1)
            ok = 0;
        sqlite3_exec(conn, "ROLLBACK", NULL, NULL, NULL);
        sqlite3_close(conn);
        _exit(ok ? 0 : 1);
    }
    char c;
    CHECK(read(ready[0], &c, 1) == 1);
    struct reports rep = {0};
    struct skmd_pdb *db = skmd_pdb_open(path, collect, &rep);
    CHECK(db != NULL);
    skmd_pdb_set_busy_timeout(db, 100);
    struct skmd_pdb_perf in = sample_perf(5.0), out;
    CHECK(skmd_pdb_get_perf(db, 42, dev, 7, &out) == SKMD_PDB_OK); /* readers still read */
    CHECK(skmd_pdb_put_perf(db, 42, dev, 7, &in) == SKMD_PDB_NOT_PERSISTED);
    CHECK(skmd_pdb_put_perf(db, 42, dev, 7, &in) == SKMD_PDB_NOT_PERSISTED);
    CHECK(rep.count == 1 && strstr(rep.all, "locked") != NULL); /* reported once */
    CHECK(write(done[1], "x", 1) == 1);
    int status = 0;
    CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0);
    CHECK(skmd_pdb_put_perf(db, 42, dev, 7, &in) == SKMD_PDB_OK); /* the lock is gone */
    skmd_pdb_close(db);
    close(ready[0]);
    close(ready[1]);
    close(done[0]);
    close(done[1]);
}

static void test_disk_full(void)
{
    char path[512];
    path_in(path, sizeof(path), "full.db");
    struct reports rep = {0};
    struct skmd_pdb *db = skmd_pdb_open(path, collect, &rep);
    sqlite3 *conn = skmd_pdb_sqlite(db);
    /* The file may not grow any more: what a full disk looks like to SQLite. */
    CHECK(sqlite3_exec(conn, "PRAGMA max_page_count = 8", NULL, NULL, NULL) == SQLITE_OK);
    char reason[2000];
    memset(reason, 'f', sizeof(reason) - 1);
    reason[sizeof(reason) - 1] = '\0';
    int64_t devs[1] = {1};
    uint64_t counts[1] = {1};
    int status = SKMD_PDB_OK;
    for (int i = 0; i < 200 && status == SKMD_PDB_OK; i++) {
        struct skmd_pdb_decision dec = {(uint64_t)i, 1, "skmd", 1, 1, devs, counts, 1.0, reason};
        status = skmd_pdb_log_decision(db, &dec);
    }
    CHECK(status == SKMD_PDB_NOT_PERSISTED);
    CHECK(strstr(rep.all, "disk is full") != NULL);
    struct skmd_pdb_perf out; /* reads still work */
    CHECK(skmd_pdb_get_perf(db, 1, 1, 1, &out) == SKMD_PDB_NOT_FOUND);
    skmd_pdb_close(db);
}

#define WRITERS 4
#define WRITES 25

/* Writer w's device, perf rows and decisions. */
static int write_perf(struct skmd_pdb *db, int w)
{
    int64_t dev = 0;
    int bad = skmd_pdb_device(db, &gpu, &dev) != SKMD_PDB_OK;
    for (int i = 0; i < WRITES && !bad; i++) {
        struct skmd_pdb_perf p = sample_perf(w + i);
        uint64_t kernel = (uint64_t)(w * 1000 + i);
        uint64_t count[1] = {(uint64_t)i};
        struct skmd_pdb_decision dec = {kernel, 1, "skmd", (uint64_t)i, 1, &dev, count, 1.0,
                                        NULL};
        bad |= skmd_pdb_put_perf(db, kernel, dev, 1, &p) != SKMD_PDB_OK;
        bad |= skmd_pdb_log_decision(db, &dec) != SKMD_PDB_OK;
    }
    return bad;
}

static void test_several_writers(void)
{
    char path[512];
    path_in(path, sizeof(path), "writers/profile.db");
    run_writers(path, WRITERS, write_perf);
    struct skmd_pdb *db = skmd_pdb_open(path, NULL, NULL);
    CHECK(count_rows(db, "devices") == 1);
    CHECK(count_rows(db, "perf") == WRITERS * WRITES * 3);
    CHECK(count_rows(db, "decisions") == WRITERS * WRITES);
    skmd_pdb_close(db);
}

int main(void)
{
    if (root_dir_make("profiledb") != 0)
        return 1;
    test_round_trip();
    test_bad_arguments();
    test_default_path();
    test_keys();
    test_corrupt_header();
    test_corrupt_page();
    test_text_file();
    test_foreign_and_newer();
    test_read_only();
    test_locked();
    test_disk_full();
    test_several_writers();
    root_dir_remove("test_profiledb");
    return check_report("test_profiledb");
}
