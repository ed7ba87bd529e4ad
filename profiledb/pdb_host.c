/* Host rates: the transfer rate of the host's side of the machine for a set of member
 * devices, kept across processes (the hosts table, schema version 3). */
#include "pdb_internal.h"

#include <math.h>
#include <string.h>
#include <time.h>

static int good_rate(double bytes_per_ms)
{
    return isfinite(bytes_per_ms) && bytes_per_ms >= 0.0;
}

/* Both rates usable, and at least one measured. */
static int good_host(const struct skmd_pdb_host *h)
{
    return good_rate(h->idle_bytes_per_ms) && good_rate(h->busy_bytes_per_ms) &&
           (h->idle_bytes_per_ms > 0.0 || h->busy_bytes_per_ms > 0.0);
}

int skmd_pdb_put_host(struct skmd_pdb *db, const int64_t *device, int ndev,
                      const struct skmd_pdb_host *host)
{
    if (!db || !pdb_good_devices(device, ndev) || !host || !good_host(host))
        return SKMD_PDB_EINVAL;
    if (db->version < 3)
        return SKMD_PDB_NOT_PERSISTED; /* a read-only file of an older version: no hosts */
    char devices[PDB_DEVICE_LIST_SIZE];
    if (pdb_device_list(device, ndev, devices, sizeof devices) != 0)
        return SKMD_PDB_EINVAL;
    sqlite3_stmt *st = NULL;
    int rc = pdb_begin_write(db);
    if (rc == SQLITE_OK)
        rc = sqlite3_prepare_v2(db->conn,
                                "INSERT OR REPLACE INTO hosts(devices, idle, busy, updated)"
                                " VALUES(?, ?, ?, ?)",
                                -1, &st, NULL);
    if (rc == SQLITE_OK) {
        sqlite3_bind_text(st, 1, devices, -1, SQLITE_STATIC);
        sqlite3_bind_double(st, 2, host->idle_bytes_per_ms);
        sqlite3_bind_double(st, 3, host->busy_bytes_per_ms);
        sqlite3_bind_int64(st, 4, (sqlite3_int64)time(NULL));
        rc = sqlite3_step(st);
        rc = rc == SQLITE_DONE ? SQLITE_OK : rc;
    }
    sqlite3_finalize(st);
    return pdb_end_write(db, rc, "host rate");
}

/* A rate column as a number; NaN (refused later) when the row holds text or a blob there. */
static double column_rate(sqlite3_stmt *st, int col)
{
    int type = sqlite3_column_type(st, col);
    if (type != SQLITE_FLOAT && type != SQLITE_INTEGER)
        return NAN;
    return sqlite3_column_double(st, col);
}

int skmd_pdb_get_host(struct skmd_pdb *db, const int64_t *device, int ndev, int64_t max_age_s,
                      struct skmd_pdb_host *host)
{
    if (!host)
        return SKMD_PDB_EINVAL;
    memset(host, 0, sizeof *host);
    if (!db || !pdb_good_devices(device, ndev) || max_age_s < 0)
        return SKMD_PDB_EINVAL;
    if (db->version < 3)
        return SKMD_PDB_NOT_FOUND;
    char devices[PDB_DEVICE_LIST_SIZE];
    if (pdb_device_list(device, ndev, devices, sizeof devices) != 0)
        return SKMD_PDB_EINVAL;
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(db->conn,
                                "SELECT idle, busy, updated FROM hosts WHERE devices=?", -1,
                                &st, NULL);
    if (rc != SQLITE_OK)
        return pdb_write_failed(db, rc, "host rate lookup");
    sqlite3_bind_text(st, 1, devices, -1, SQLITE_STATIC);
    int found = 0;
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        host->idle_bytes_per_ms = column_rate(st, 0);
        host->busy_bytes_per_ms = column_rate(st, 1);
        host->updated = sqlite3_column_int64(st, 2);
        int64_t age = (int64_t)time(NULL) - host->updated;
        /* A row that does not make rates is ignored as if absent: another process's bad
         * write must not steer this one. */
        found = (max_age_s == 0 || age <= max_age_s) && good_host(host);
        rc = SQLITE_DONE;
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return pdb_write_failed(db, rc, "host rate lookup");
    if (!found) {
        memset(host, 0, sizeof *host);
        return SKMD_PDB_NOT_FOUND;
    }
    return SKMD_PDB_OK;
}
