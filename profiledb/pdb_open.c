/* Opening the profile database: path, checks, recovery from bad files, memory fallback. */
#include "pdb_internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

void pdb_report(struct skmd_pdb *db, const char *fmt, ...)
{
    char line[4600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    if (db->report)
        db->report(db->user, line);
    else
        fprintf(stderr, "skmd: %s\n", line);
}

const char *skmd_pdb_strstatus(int status)
{
    switch (status) {
    case SKMD_PDB_OK:
        return "success";
    case SKMD_PDB_NOT_FOUND:
        return "not found";
    case SKMD_PDB_NOT_PERSISTED:
        return "not saved (database read-only, locked, or disk full)";
    case SKMD_PDB_EINVAL:
        return "invalid argument";
    case SKMD_PDB_ERROR:
        return "database error";
    default:
        return "unknown status";
    }
}

int skmd_pdb_default_path(const char *path, char *buf, size_t size)
{
    if (!buf || size == 0)
        return -1;
    buf[0] = '\0';
    int n;
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (path && *path)
        n = snprintf(buf, size, "%s", path);
    else if (xdg && *xdg)
        n = snprintf(buf, size, "%s/skmd/profile.db", xdg);
    else if (home && *home)
        n = snprintf(buf, size, "%s/.cache/skmd/profile.db", home);
    else
        return -1;
    if (n < 0 || (size_t)n >= size) {
        buf[0] = '\0';
        return -1;
    }
    return 0;
}

/* mkdir -p of the directory that holds `path`. */
static int make_parent_dirs(const char *path)
{
    char dir[4096];
    snprintf(dir, sizeof(dir), "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash || slash == dir)
        return 0;
    *slash = '\0';
    for (char *p = dir + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(dir, 0700) != 0 && errno != EEXIST)
            return -1;
        *p = '/';
    }
    if (mkdir(dir, 0700) != 0 && errno != EEXIST)
        return -1;
    return 0;
}

static int query_int(sqlite3 *conn, const char *sql, long long *value, char *text, size_t len)
{
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(conn, sql, -1, &st, NULL);
    if (rc != SQLITE_OK)
        return rc;
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        if (value)
            *value = sqlite3_column_int64(st, 0);
        if (text) {
            const unsigned char *t = sqlite3_column_text(st, 0);
            snprintf(text, len, "%s", t ? (const char *)t : "");
        }
        rc = SQLITE_OK;
    }
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* Renames a bad file (and its WAL, which must not be replayed into the new one) aside. */
static int move_aside(struct skmd_pdb *db)
{
    char aside[4200], from[4200], to[4300], stamp[32];
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
    snprintf(aside, sizeof(aside), "%s.corrupt-%s", db->path, stamp);
    for (int n = 2; access(aside, F_OK) == 0 && n < 1000; n++)
        snprintf(aside, sizeof(aside), "%s.corrupt-%s-%d", db->path, stamp, n);
    if (rename(db->path, aside) != 0) {
        pdb_report(db, "profile database %s: cannot move it aside: %s", db->path,
                   strerror(errno));
        return -1;
    }
    static const char *const suffixes[] = {"-wal", "-shm"};
    for (size_t i = 0; i < 2; i++) {
        snprintf(from, sizeof(from), "%s%s", db->path, suffixes[i]);
        snprintf(to, sizeof(to), "%s%s", aside, suffixes[i]);
        if (rename(from, to) != 0 && errno != ENOENT)
            unlink(from);
    }
    pdb_report(db, "profile database %s: moved aside to %s; starting a new one", db->path,
               aside);
    return 0;
}

enum open_outcome { OPEN_OK, OPEN_BAD_FILE, OPEN_UNUSABLE };

/* WAL mode, which several processes may ask for at once on a new file: when the switch
 * finds the file "locked", it is tried again for up to the busy timeout. */
static int set_wal(sqlite3 *conn)
{
    int rc = SQLITE_BUSY;
    for (int waited_ms = 0; waited_ms <= SKMD_PDB_DEFAULT_BUSY_MS; waited_ms += 10) {
        rc = query_int(conn, "PRAGMA journal_mode=WAL", NULL, NULL, 0);
        if (rc != SQLITE_BUSY && rc != SQLITE_LOCKED)
            break;
        nanosleep(&(struct timespec){0, 10 * 1000 * 1000}, NULL);
    }
    return rc;
}

static enum open_outcome check_and_prepare(struct skmd_pdb *db)
{
    long long app = 0, version = 0, tables = 0;
    char check[256] = "";
    /* One read transaction: another process may be creating the schema right now, and
     * its header fields and tables must be seen together (an id of 0 next to its tables
     * read as "another application's file"). */
    int snapshot = sqlite3_exec(db->conn, "BEGIN", NULL, NULL, NULL) == SQLITE_OK;
    int rc = query_int(db->conn, "PRAGMA application_id", &app, NULL, 0);
    if (rc == SQLITE_OK)
        rc = query_int(db->conn, "PRAGMA user_version", &version, NULL, 0);
    if (rc == SQLITE_OK)
        rc = query_int(db->conn, "SELECT count(*) FROM sqlite_master", &tables, NULL, 0);
    if (rc == SQLITE_OK)
        rc = query_int(db->conn, "PRAGMA quick_check(1)", NULL, check, sizeof(check));
    if (snapshot)
        sqlite3_exec(db->conn, "COMMIT", NULL, NULL, NULL);
    if (rc == SQLITE_NOTADB || rc == SQLITE_CORRUPT || (rc == SQLITE_OK && strcmp(check, "ok"))) {
        pdb_report(db, "profile database %s is corrupt or not a database (%s)", db->path,
                   rc == SQLITE_OK ? check : sqlite3_errstr(rc));
        return OPEN_BAD_FILE;
    }
    if (rc != SQLITE_OK) {
        pdb_report(db, "profile database %s cannot be read (%s); profiles are kept in memory "
                   "only", db->path, sqlite3_errstr(rc));
        return OPEN_UNUSABLE;
    }
    if (tables > 0 || app != 0 || version != 0) {
        if (app != SKMD_PDB_APPLICATION_ID) {
            pdb_report(db, "profile database %s belongs to another application "
                       "(application_id %lld)", db->path, app);
            return OPEN_BAD_FILE;
        }
        if (version < SKMD_PDB_OLDEST_VERSION || version > SKMD_PDB_SCHEMA_VERSION) {
            pdb_report(db, "profile database %s has schema version %lld; this libskmd uses "
                       "version %d", db->path, version, SKMD_PDB_SCHEMA_VERSION);
            return OPEN_BAD_FILE;
        }
    }
    db->version = tables > 0 ? (int)version : SKMD_PDB_SCHEMA_VERSION;
    if (sqlite3_db_readonly(db->conn, "main") == 1) {
        pdb_report(db, "profile database %s is read-only; new measurements are not saved",
                   db->path);
        db->persistent = 0;
        db->reported |= PDB_CAUSE_READONLY;
        return tables > 0 ? OPEN_OK : OPEN_UNUSABLE;
    }
    rc = set_wal(db->conn);
    /* A new file gets the schema; an older version's file gets the tables and columns it
     * lacks (its rows stay), in one transaction that processes upgrading at once take in
     * turn. */
    if (rc == SQLITE_OK && (tables == 0 || db->version < SKMD_PDB_SCHEMA_VERSION))
        rc = pdb_create_schema(db->conn);
    if (rc == SQLITE_OK && tables > 0 && db->version < SKMD_PDB_SCHEMA_VERSION) {
        pdb_report(db, "profile database %s upgraded from schema version %d to %d",
                   db->path, db->version, SKMD_PDB_SCHEMA_VERSION);
        db->version = SKMD_PDB_SCHEMA_VERSION;
    }
    if (rc != SQLITE_OK) {
        pdb_report(db, "profile database %s cannot be written (%s); profiles are kept in "
                   "memory only", db->path, sqlite3_errstr(rc));
        if (tables == 0)
            return OPEN_UNUSABLE;
        db->persistent = 0; /* an existing profile can still be read */
        db->reported |= PDB_CAUSE_READONLY;
        return OPEN_OK;
    }
    return OPEN_OK;
}

static enum open_outcome open_file(struct skmd_pdb *db)
{
    int rc = sqlite3_open_v2(db->path, &db->conn,
                             SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX,
                             NULL);
    if (rc != SQLITE_OK) {
        pdb_report(db, "profile database %s cannot be opened (%s); profiles are kept in "
                   "memory only", db->path, sqlite3_errstr(rc));
        return OPEN_UNUSABLE;
    }
    sqlite3_busy_timeout(db->conn, SKMD_PDB_DEFAULT_BUSY_MS);
    db->persistent = 1;
    return check_and_prepare(db);
}

static int open_memory(struct skmd_pdb *db)
{
    db->persistent = 0;
    db->version = SKMD_PDB_SCHEMA_VERSION;
    if (sqlite3_open_v2(":memory:", &db->conn,
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX,
                        NULL) != SQLITE_OK)
        return -1;
    return pdb_create_schema(db->conn) == SQLITE_OK ? 0 : -1;
}

struct skmd_pdb *skmd_pdb_open(const char *path, skmd_pdb_report_fn report, void *user)
{
    struct skmd_pdb *db = calloc(1, sizeof(*db));
    if (!db)
        return NULL;
    db->report = report;
    db->user = user;
    if (skmd_pdb_default_path(path, db->path, sizeof(db->path)) != 0) {
        pdb_report(db, "no profile database path (path too long, or neither XDG_CACHE_HOME "
                   "nor HOME is set); profiles are kept in memory only");
    } else if (make_parent_dirs(db->path) != 0) {
        pdb_report(db, "cannot create the directory of %s (%s); profiles are kept in memory "
                   "only", db->path, strerror(errno));
    } else {
        for (int attempt = 0; attempt < 2; attempt++) {
            enum open_outcome outcome = open_file(db);
            if (outcome == OPEN_OK)
                return db;
            sqlite3_close(db->conn);
            db->conn = NULL;
            if (outcome == OPEN_UNUSABLE || move_aside(db) != 0)
                break;
        }
    }
    if (open_memory(db) != 0) {
        sqlite3_close(db->conn);
        free(db);
        return NULL;
    }
    return db;
}

void skmd_pdb_close(struct skmd_pdb *db)
{
    if (!db)
        return;
    sqlite3_close(db->conn);
    free(db);
}

int skmd_pdb_persistent(const struct skmd_pdb *db) { return db && db->persistent; }

int skmd_pdb_from_file(const struct skmd_pdb *db)
{
    const char *file = db && db->conn ? sqlite3_db_filename(db->conn, "main") : NULL;
    return file && *file;
}

const char *skmd_pdb_path(const struct skmd_pdb *db) { return db ? db->path : ""; }

void skmd_pdb_set_busy_timeout(struct skmd_pdb *db, int ms)
{
    if (db)
        sqlite3_busy_timeout(db->conn, ms > 0 ? ms : 0);
}

struct sqlite3 *skmd_pdb_sqlite(struct skmd_pdb *db) { return db ? db->conn : NULL; }

int pdb_write_failed(struct skmd_pdb *db, int rc, const char *what)
{
    unsigned cause;
    const char *why;
    switch (rc & 0xff) {
    case SQLITE_READONLY:
    case SQLITE_CANTOPEN:
    case SQLITE_PERM:
        cause = PDB_CAUSE_READONLY;
        why = "the database is read-only";
        break;
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
        cause = PDB_CAUSE_BUSY;
        why = "the database is locked by another process";
        break;
    case SQLITE_FULL:
        cause = PDB_CAUSE_FULL;
        why = "the disk is full";
        break;
    case SQLITE_NOMEM:
        cause = PDB_CAUSE_MEMORY;
        why = "out of memory";
        break;
    default:
        cause = PDB_CAUSE_OTHER;
        why = sqlite3_errstr(rc);
        break;
    }
    if (!(db->reported & cause)) {
        db->reported |= cause;
        pdb_report(db, "profile database %s: %s not saved: %s; carrying on without saving",
                   db->path, what, why);
    }
    return cause == PDB_CAUSE_OTHER || cause == PDB_CAUSE_MEMORY ? SKMD_PDB_ERROR
                                                                 : SKMD_PDB_NOT_PERSISTED;
}
