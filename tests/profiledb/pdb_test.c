/* tests/profiledb/pdb_test.c: helpers of the profiledb unit tests (pdb_test.h). */
#include "pdb_test.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../common/check.h"

char root_dir[256];

int root_dir_make(const char *test)
{
    snprintf(root_dir, sizeof root_dir, "/tmp/skmd-%s-XXXXXX", test);
    if (!mkdtemp(root_dir) || chmod(root_dir, 0755) != 0) {
        fprintf(stderr, "%s: temporary directory %s: ", test, root_dir);
        perror(NULL);
        return -1;
    }
    return 0;
}

void root_dir_remove(const char *test)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "chmod -R u+w '%s' && rm -rf '%s'", root_dir, root_dir);
    if (system(cmd) != 0)
        fprintf(stderr, "%s: could not remove %s\n", test, root_dir);
}

void path_in(char *buf, size_t size, const char *name)
{
    snprintf(buf, size, "%s/%s", root_dir, name);
}

void read_only_file(const char *dir, const char *file, void (*write)(const char *path),
                    char *path, size_t size)
{
    char dir_path[512], name[512];
    path_in(dir_path, sizeof dir_path, dir);
    snprintf(name, sizeof name, "%s/%s", dir, file);
    path_in(path, size, name);
    CHECK(mkdir(dir_path, 0755) == 0);
    write(path);
    CHECK(chmod(path, 0444) == 0 && chmod(dir_path, 0555) == 0);
}

void collect(void *user, const char *message)
{
    struct reports *r = user;
    r->count++;
    size_t used = strlen(r->all);
    snprintf(r->all + used, sizeof(r->all) - used, "%s\n", message);
}

/* Whether rep holds one report, the upgrade from schema `from` to the current one. */
static int upgrade_reported(const struct reports *rep, int from)
{
    char upgraded[64];
    snprintf(upgraded, sizeof upgraded, "upgraded from schema version %d to %d", from,
             SKMD_PDB_SCHEMA_VERSION);
    return rep->count == 1 && strstr(rep->all, upgraded) != NULL;
}

struct skmd_pdb *open_upgraded(const char *path, int from, struct reports *rep)
{
    struct skmd_pdb *db = skmd_pdb_open(path, collect, rep);
    CHECK(db && skmd_pdb_persistent(db));
    if (db)
        EXPECT(upgrade_reported(rep, from), "version %d: reports: %s", from, rep->all);
    return db;
}

struct skmd_pdb *open_scratch(const char *name, char *path, size_t size)
{
    path_in(path, size, name);
    struct skmd_pdb *db = skmd_pdb_open(path, NULL, NULL);
    CHECK(db && skmd_pdb_persistent(db));
    return db;
}

struct skmd_pdb *open_read_only(const char *name)
{
    char path[512];
    path_in(path, sizeof path, name);
    struct reports rep = {0};
    struct skmd_pdb *db = skmd_pdb_open(path, collect, &rep);
    CHECK(db != NULL);
    if (db)
        CHECK(!skmd_pdb_persistent(db) && strstr(rep.all, "read-only"));
    return db;
}

int moved_aside(const char *name)
{
    char ls[600];
    snprintf(ls, sizeof ls, "ls '%s'/%s.corrupt-* >/dev/null 2>&1", root_dir, name);
    return system(ls) == 0;
}

int run_sql(struct skmd_pdb *db, const char *sql)
{
    return sqlite3_exec(skmd_pdb_sqlite(db), sql, NULL, NULL, NULL);
}

/* The first column of sql's first row on conn, or -1 when it fails. */
static long long first_number(sqlite3 *conn, const char *sql)
{
    sqlite3_stmt *st;
    long long n = -1;
    if (sqlite3_prepare_v2(conn, sql, -1, &st, NULL) != SQLITE_OK)
        return -1;
    if (sqlite3_step(st) == SQLITE_ROW)
        n = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return n;
}

long long query_number(struct skmd_pdb *db, const char *sql)
{
    return first_number(skmd_pdb_sqlite(db), sql);
}

long long query_file(const char *path, const char *sql)
{
    sqlite3 *conn;
    long long n = -1;
    if (sqlite3_open_v2(path, &conn, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK)
        n = first_number(conn, sql);
    sqlite3_close(conn);
    return n;
}

void run_writers(const char *path, int count, int (*write)(struct skmd_pdb *db, int writer))
{
    pid_t pids[16];
    CHECK(count <= 16);
    count = count < 16 ? count : 16;
    fflush(NULL);
    for (int w = 0; w < count; w++) {
        pids[w] = fork();
        if (pids[w] == 0) {
            struct skmd_pdb *db = skmd_pdb_open(path, collect, &(struct reports){0});
            int bad = !db || write(db, w) != 0;
            skmd_pdb_close(db);
            _exit(bad);
        }
    }
    for (int w = 0; w < count; w++) {
        int status = 0;
        CHECK(pids[w] > 0 && waitpid(pids[w], &status, 0) == pids[w]);
        CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    }
}

/* Runs fn in a child process as an unprivileged user (so that permissions apply even when
 * the tests run as root); returns the child's failure count. */
int as_nobody(void (*fn)(void))
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        if (geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0))
            _exit(100);
        check_failures = 0;
        fn();
        _exit(check_failures > 99 ? 99 : check_failures);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
        return 1;
    return WEXITSTATUS(status);
}

/* The tables of schema version 1, as a libskmd of that version created them. */
static const char version1_tables[] =
    "CREATE TABLE devices(id INTEGER PRIMARY KEY, vendor TEXT NOT NULL, name TEXT NOT NULL,"
    " driver TEXT NOT NULL, UNIQUE(vendor, name, driver));"
    "CREATE TABLE kernels(hash TEXT PRIMARY KEY, name TEXT NOT NULL);"
    "CREATE TABLE perf(kernel TEXT NOT NULL, device INTEGER NOT NULL REFERENCES devices(id),"
    " shape INTEGER NOT NULL, range INTEGER NOT NULL, rate REAL NOT NULL,"
    " samples INTEGER NOT NULL, updated INTEGER NOT NULL,"
    " PRIMARY KEY(kernel, device, shape, range));"
    "CREATE TABLE links(device INTEGER NOT NULL REFERENCES devices(id),"
    " direction INTEGER NOT NULL, memory INTEGER NOT NULL, point INTEGER NOT NULL,"
    " bytes REAL NOT NULL, ms REAL NOT NULL, PRIMARY KEY(device, direction, memory, point));"
    "CREATE TABLE decisions(id INTEGER PRIMARY KEY, time INTEGER NOT NULL,"
    " kernel TEXT NOT NULL, shape INTEGER NOT NULL, policy TEXT NOT NULL,"
    " total INTEGER NOT NULL, shares TEXT NOT NULL, est_ms REAL NOT NULL, reason TEXT);";

/* What version 2 added (the guards table before version 4's offhost columns). */
static const char version2_tables[] =
    "CREATE TABLE guards(kernel TEXT NOT NULL, shape INTEGER NOT NULL, launch TEXT NOT NULL,"
    " buffers TEXT NOT NULL, devices TEXT NOT NULL, policy TEXT NOT NULL,"
    " split_ms REAL NOT NULL, split_n INTEGER NOT NULL, whole TEXT NOT NULL,"
    " whole_dev INTEGER NOT NULL, whole_mode INTEGER NOT NULL, backoff INTEGER NOT NULL,"
    " launches INTEGER NOT NULL, retry_at INTEGER NOT NULL, updated INTEGER NOT NULL,"
    " PRIMARY KEY(kernel, launch, buffers, devices, policy));";

/* What version 3 added. */
static const char version3_tables[] =
    "CREATE TABLE hosts(devices TEXT PRIMARY KEY, idle REAL NOT NULL, busy REAL NOT NULL,"
    " updated INTEGER NOT NULL);";

/* What version 4 added. */
static const char version4_columns[] =
    "ALTER TABLE guards ADD COLUMN offhost_ms REAL NOT NULL DEFAULT 0;"
    "ALTER TABLE guards ADD COLUMN offhost_n INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE guards ADD COLUMN offhost_mode INTEGER NOT NULL DEFAULT 0;";

void write_old_schema(const char *path, int version, const char *rows_sql)
{
    char pragmas[96];
    snprintf(pragmas, sizeof pragmas, "PRAGMA application_id=%d; PRAGMA user_version=%d;",
             SKMD_PDB_APPLICATION_ID, version);
    sqlite3 *conn;
    CHECK(sqlite3_open(path, &conn) == SQLITE_OK);
    CHECK(sqlite3_exec(conn, version1_tables, NULL, NULL, NULL) == SQLITE_OK);
    if (version >= 2)
        CHECK(sqlite3_exec(conn, version2_tables, NULL, NULL, NULL) == SQLITE_OK);
    if (version >= 3)
        CHECK(sqlite3_exec(conn, version3_tables, NULL, NULL, NULL) == SQLITE_OK);
    if (version >= 4)
        CHECK(sqlite3_exec(conn, version4_columns, NULL, NULL, NULL) == SQLITE_OK);
    CHECK(sqlite3_exec(conn, rows_sql, NULL, NULL, NULL) == SQLITE_OK);
    CHECK(sqlite3_exec(conn, pragmas, NULL, NULL, NULL) == SQLITE_OK);
    sqlite3_close(conn);
}
