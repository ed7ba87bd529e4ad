/* Guard states: the measured guard of a cached decision, kept across processes (the
 * guards table, schema version 2; its off-host split, version 4). */
#include "pdb_internal.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int good_key(const struct skmd_pdb_guard_key *key)
{
    return key && pdb_good_devices(key->device, key->ndev);
}

/* The off-host split: a usable time, and a mode of 0 or 1 that runs it only once it was
 * measured. */
static int good_offhost(const struct skmd_pdb_guard *g)
{
    return isfinite(g->offhost_ms) && g->offhost_ms >= 0.0 &&
           (g->offhost_mode == 0 || g->offhost_mode == 1) &&
           !(g->offhost_mode && g->offhost_n == 0);
}

static int good_guard(const struct skmd_pdb_guard *g, int ndev)
{
    if (!good_offhost(g))
        return 0;
    if (!isfinite(g->split_ms) || g->split_ms < 0.0 || g->whole_dev < -1 ||
        g->whole_dev >= ndev || g->backoff < 0 || g->backoff > 62 ||
        (g->whole_mode && g->whole_dev < 0) || g->launches > INT64_MAX ||
        g->retry_at > INT64_MAX)
        return 0;
    for (int i = 0; i < ndev; i++)
        if (!isfinite(g->whole_ms[i]) || g->whole_ms[i] < 0.0)
            return 0;
    return 1;
}

/* The statement's key parameters 1-5: kernel, launch, buffers, devices, policy. */
static void bind_key(sqlite3_stmt *st, const struct skmd_pdb_guard_key *key, char *kernel,
                     char *launch, char *buffers, const char *devices)
{
    pdb_hash_text(key->kernel, kernel);
    pdb_hash_text(key->launch, launch);
    pdb_hash_text(key->buffers, buffers);
    sqlite3_bind_text(st, 1, kernel, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, launch, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, buffers, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 4, devices, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 5, key->policy ? key->policy : "", -1, SQLITE_STATIC);
}

int skmd_pdb_put_guard(struct skmd_pdb *db, const struct skmd_pdb_guard_key *key,
                       const struct skmd_pdb_guard *guard)
{
    if (!db || !good_key(key) || !guard || !good_guard(guard, key->ndev))
        return SKMD_PDB_EINVAL;
    /* A read-only file of an older version: no guards table (1), or one without the
     * offhost columns (2, 3). */
    if (db->version < 4)
        return SKMD_PDB_NOT_PERSISTED;
    char devices[PDB_DEVICE_LIST_SIZE], whole[SKMD_PDB_GUARD_DEVICES * 64] = "";
    if (pdb_device_list(key->device, key->ndev, devices, sizeof devices) != 0)
        return SKMD_PDB_EINVAL;
    size_t used = 0;
    for (int i = 0; i < key->ndev; i++)
        if (guard->whole_n[i] > 0)
            used += (size_t)snprintf(whole + used, sizeof whole - used, "%s%" PRId64 ":%.17g:%u",
                                     used ? "," : "", key->device[i], guard->whole_ms[i],
                                     guard->whole_n[i]);
    char kernel[17], launch[17], buffers[17];
    sqlite3_stmt *st = NULL;
    int rc = pdb_begin_write(db);
    if (rc == SQLITE_OK)
        rc = sqlite3_prepare_v2(db->conn,
                                "INSERT OR REPLACE INTO guards(kernel, launch, buffers,"
                                " devices, policy, shape, split_ms, split_n, whole,"
                                " whole_dev, whole_mode, backoff, launches, retry_at,"
                                " updated, offhost_ms, offhost_n, offhost_mode)"
                                " VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                                -1, &st, NULL);
    if (rc == SQLITE_OK) {
        bind_key(st, key, kernel, launch, buffers, devices);
        sqlite3_bind_int64(st, 6, key->shape);
        sqlite3_bind_double(st, 7, guard->split_ms);
        sqlite3_bind_int64(st, 8, guard->split_n);
        sqlite3_bind_text(st, 9, whole, -1, SQLITE_STATIC);
        sqlite3_bind_int64(st, 10, guard->whole_dev >= 0 ? key->device[guard->whole_dev] : -1);
        sqlite3_bind_int(st, 11, guard->whole_mode != 0);
        sqlite3_bind_int(st, 12, guard->backoff);
        sqlite3_bind_int64(st, 13, (sqlite3_int64)guard->launches);
        sqlite3_bind_int64(st, 14, (sqlite3_int64)guard->retry_at);
        sqlite3_bind_int64(st, 15, (sqlite3_int64)time(NULL));
        sqlite3_bind_double(st, 16, guard->offhost_ms);
        sqlite3_bind_int64(st, 17, guard->offhost_n);
        sqlite3_bind_int(st, 18, guard->offhost_mode);
        rc = sqlite3_step(st);
        rc = rc == SQLITE_DONE ? SQLITE_OK : rc;
    }
    sqlite3_finalize(st);
    return pdb_end_write(db, rc, "guard state");
}

/* The position of device id in the key's list, -1: not there. */
static int position_of(const struct skmd_pdb_guard_key *key, int64_t id)
{
    for (int i = 0; i < key->ndev; i++)
        if (key->device[i] == id)
            return i;
    return -1;
}

/* A sample count column as a count: negative reads 0, too many the most a count holds. */
static uint32_t column_count(sqlite3_stmt *st, int col)
{
    sqlite3_int64 n = sqlite3_column_int64(st, col);
    return n < 0 ? 0 : n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
}

/* A time column as a number; NaN (refused later) when the row holds text or a blob there. */
static double column_ms(sqlite3_stmt *st, int col)
{
    int type = sqlite3_column_type(st, col);
    if (type != SQLITE_FLOAT && type != SQLITE_INTEGER)
        return NAN;
    return sqlite3_column_double(st, col);
}

/* Parses "id:ms:n,..." into per-position figures; -1 on anything else. */
static int parse_whole(const char *text, const struct skmd_pdb_guard_key *key,
                       struct skmd_pdb_guard *g)
{
    const char *p = text;
    while (*p) {
        char *end;
        long long id = strtoll(p, &end, 10);
        if (end == p || *end != ':')
            return -1;
        p = end + 1;
        double ms = strtod(p, &end);
        if (end == p || *end != ':')
            return -1;
        p = end + 1;
        unsigned long long n = strtoull(p, &end, 10);
        if (end == p || (*end && *end != ',') || n > UINT32_MAX)
            return -1;
        p = *end ? end + 1 : end;
        int at = position_of(key, id);
        if (at < 0 || !isfinite(ms) || ms < 0.0)
            return -1;
        g->whole_ms[at] = ms;
        g->whole_n[at] = (uint32_t)n;
    }
    return 0;
}

int skmd_pdb_get_guard(struct skmd_pdb *db, const struct skmd_pdb_guard_key *key,
                       int64_t max_age_s, struct skmd_pdb_guard *guard)
{
    if (!guard)
        return SKMD_PDB_EINVAL;
    memset(guard, 0, sizeof *guard);
    guard->whole_dev = -1;
    if (!db || !good_key(key) || max_age_s < 0)
        return SKMD_PDB_EINVAL;
    if (db->version < 2)
        return SKMD_PDB_NOT_FOUND;
    char devices[PDB_DEVICE_LIST_SIZE], kernel[17], launch[17], buffers[17];
    if (pdb_device_list(key->device, key->ndev, devices, sizeof devices) != 0)
        return SKMD_PDB_EINVAL;
    /* A read-only file of version 2 or 3 lacks the offhost columns: its states have no
     * off-host split. */
    char sql[512];
    snprintf(sql, sizeof sql,
             "SELECT split_ms, split_n, whole, whole_dev, whole_mode, backoff, launches,"
             " retry_at, updated, %s FROM guards WHERE kernel=? AND launch=? AND buffers=?"
             " AND devices=? AND policy=?",
             db->version >= 4 ? "offhost_ms, offhost_n, offhost_mode" : "0, 0, 0");
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(db->conn, sql, -1, &st, NULL);
    if (rc != SQLITE_OK)
        return pdb_write_failed(db, rc, "guard state lookup");
    bind_key(st, key, kernel, launch, buffers, devices);
    int found = 0;
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        const unsigned char *whole = sqlite3_column_text(st, 2);
        sqlite3_int64 whole_dev = sqlite3_column_int64(st, 3);
        sqlite3_int64 launches = sqlite3_column_int64(st, 6), retry_at = sqlite3_column_int64(st, 7);
        sqlite3_int64 offhost_mode = sqlite3_column_int64(st, 11);
        guard->split_ms = sqlite3_column_double(st, 0);
        guard->split_n = column_count(st, 1);
        guard->whole_dev = whole_dev < 0 ? -1 : position_of(key, whole_dev);
        guard->whole_mode = sqlite3_column_int(st, 4) != 0;
        guard->backoff = sqlite3_column_int(st, 5);
        guard->launches = launches < 0 ? 0 : (uint64_t)launches;
        guard->retry_at = retry_at < 0 ? 0 : (uint64_t)retry_at;
        guard->updated = sqlite3_column_int64(st, 8);
        guard->offhost_ms = column_ms(st, 9);
        guard->offhost_n = column_count(st, 10);
        /* Any mode but 0 or 1 is refused by good_guard, as -1. */
        guard->offhost_mode = offhost_mode == 0 || offhost_mode == 1 ? (int)offhost_mode : -1;
        int64_t age = (int64_t)time(NULL) - guard->updated;
        /* A row that does not make a state is ignored as if absent: another process's
         * bad write must not steer this one. */
        found = (max_age_s == 0 || age <= max_age_s) &&
                parse_whole(whole ? (const char *)whole : "", key, guard) == 0 &&
                (whole_dev < 0 || guard->whole_dev >= 0) && good_guard(guard, key->ndev);
        rc = SQLITE_DONE;
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return pdb_write_failed(db, rc, "guard state lookup");
    if (!found) {
        memset(guard, 0, sizeof *guard);
        guard->whole_dev = -1;
        return SKMD_PDB_NOT_FOUND;
    }
    return SKMD_PDB_OK;
}
