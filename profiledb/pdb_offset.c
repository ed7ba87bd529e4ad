/* Finish offsets: how much later than the model's estimate a member's shares of a
 * kernel's split launches finish, kept across processes (the offsets table, schema
 * version 5), so that a process's first estimated splits are balanced as well as its
 * later ones. */
#include "pdb_internal.h"

#include <math.h>
#include <string.h>
#include <time.h>

/* The key's devices form a list, and `device` is one of them. */
static int good_key(const struct skmd_pdb_offset_key *key, int64_t device)
{
    if (!key || !pdb_good_devices(key->devices, key->ndev))
        return 0;
    for (int i = 0; i < key->ndev; i++)
        if (key->devices[i] == device)
            return 1;
    return 0;
}

static int good_offset(double ms)
{
    return isfinite(ms) && fabs(ms) <= SKMD_PDB_MAX_OFFSET_MS;
}

/* The statement's parameters 1-4: kernel, shape, devices, device. */
static void bind_key(sqlite3_stmt *st, const struct skmd_pdb_offset_key *key, int64_t device,
                     char *kernel, const char *devices)
{
    pdb_hash_text(key->kernel, kernel);
    sqlite3_bind_text(st, 1, kernel, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, key->shape);
    sqlite3_bind_text(st, 3, devices, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 4, device);
}

int skmd_pdb_put_offset(struct skmd_pdb *db, const struct skmd_pdb_offset_key *key,
                        int64_t device, double ms)
{
    char devices[PDB_DEVICE_LIST_SIZE], kernel[17];
    if (!db || !good_key(key, device) || !good_offset(ms) ||
        pdb_device_list(key->devices, key->ndev, devices, sizeof devices) != 0)
        return SKMD_PDB_EINVAL;
    if (db->version < 5)
        return SKMD_PDB_NOT_PERSISTED; /* a read-only file of an older version: no offsets */
    sqlite3_stmt *st = NULL;
    int rc = pdb_begin_write(db);
    if (rc == SQLITE_OK)
        rc = sqlite3_prepare_v2(db->conn,
                                "INSERT OR REPLACE INTO offsets(kernel, shape, devices, device,"
                                " ms, updated) VALUES(?, ?, ?, ?, ?, ?)",
                                -1, &st, NULL);
    if (rc == SQLITE_OK) {
        bind_key(st, key, device, kernel, devices);
        sqlite3_bind_double(st, 5, ms);
        sqlite3_bind_int64(st, 6, (sqlite3_int64)time(NULL));
        rc = sqlite3_step(st);
        rc = rc == SQLITE_DONE ? SQLITE_OK : rc;
    }
    sqlite3_finalize(st);
    return pdb_end_write(db, rc, "finish offset");
}

int skmd_pdb_get_offset(struct skmd_pdb *db, const struct skmd_pdb_offset_key *key,
                        int64_t device, double *ms)
{
    if (!ms)
        return SKMD_PDB_EINVAL;
    *ms = 0.0;
    char devices[PDB_DEVICE_LIST_SIZE], kernel[17];
    if (!db || !good_key(key, device) ||
        pdb_device_list(key->devices, key->ndev, devices, sizeof devices) != 0)
        return SKMD_PDB_EINVAL;
    if (db->version < 5)
        return SKMD_PDB_NOT_FOUND;
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(db->conn,
                                "SELECT ms FROM offsets WHERE kernel=? AND shape=? AND"
                                " devices=? AND device=?",
                                -1, &st, NULL);
    if (rc != SQLITE_OK)
        return pdb_write_failed(db, rc, "finish offset lookup");
    bind_key(st, key, device, kernel, devices);
    double found = NAN;
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        int type = sqlite3_column_type(st, 0);
        if (type == SQLITE_FLOAT || type == SQLITE_INTEGER)
            found = sqlite3_column_double(st, 0);
        rc = SQLITE_DONE;
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return pdb_write_failed(db, rc, "finish offset lookup");
    /* A row that does not make an offset is ignored as if absent: another process's bad
     * write must not steer this one. */
    if (!good_offset(found))
        return SKMD_PDB_NOT_FOUND;
    *ms = found;
    return SKMD_PDB_OK;
}
