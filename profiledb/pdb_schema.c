/* The schema of the profile database, version SKMD_PDB_SCHEMA_VERSION. */
#include "pdb_internal.h"

#include <stdio.h>

static const char schema_sql[] =
    "CREATE TABLE IF NOT EXISTS devices("
    " id INTEGER PRIMARY KEY, vendor TEXT NOT NULL, name TEXT NOT NULL,"
    " driver TEXT NOT NULL, UNIQUE(vendor, name, driver));"
    "CREATE TABLE IF NOT EXISTS kernels("
    " hash TEXT PRIMARY KEY, name TEXT NOT NULL);"
    /* One row per (kernel, device, shape class, size range). */
    "CREATE TABLE IF NOT EXISTS perf("
    " kernel TEXT NOT NULL, device INTEGER NOT NULL REFERENCES devices(id),"
    " shape INTEGER NOT NULL, range INTEGER NOT NULL, rate REAL NOT NULL,"
    " samples INTEGER NOT NULL, updated INTEGER NOT NULL,"
    " PRIMARY KEY(kernel, device, shape, range));"
    /* point -1 holds latency (ms) and bandwidth (bytes/ms); 0.. the calibrated points. */
    "CREATE TABLE IF NOT EXISTS links("
    " device INTEGER NOT NULL REFERENCES devices(id), direction INTEGER NOT NULL,"
    " memory INTEGER NOT NULL, point INTEGER NOT NULL, bytes REAL NOT NULL,"
    " ms REAL NOT NULL, PRIMARY KEY(device, direction, memory, point));"
    "CREATE TABLE IF NOT EXISTS decisions("
    " id INTEGER PRIMARY KEY, time INTEGER NOT NULL, kernel TEXT NOT NULL,"
    " shape INTEGER NOT NULL, policy TEXT NOT NULL, total INTEGER NOT NULL,"
    " shares TEXT NOT NULL, est_ms REAL NOT NULL, reason TEXT);"
    /* Version 2. One guard state per decision-cache key, member list ("3,4": device ids
     * in member order) and policy; whole: "id:ms:samples,..." per device with whole
     * samples; whole_dev: a device id, -1: none. Version 4 added the offhost columns
     * (see offhost_columns_sql). */
    "CREATE TABLE IF NOT EXISTS guards("
    " kernel TEXT NOT NULL, shape INTEGER NOT NULL, launch TEXT NOT NULL,"
    " buffers TEXT NOT NULL, devices TEXT NOT NULL, policy TEXT NOT NULL,"
    " split_ms REAL NOT NULL,"
    " split_n INTEGER NOT NULL, whole TEXT NOT NULL, whole_dev INTEGER NOT NULL,"
    " whole_mode INTEGER NOT NULL, backoff INTEGER NOT NULL, launches INTEGER NOT NULL,"
    " retry_at INTEGER NOT NULL, updated INTEGER NOT NULL,"
    " offhost_ms REAL NOT NULL DEFAULT 0, offhost_n INTEGER NOT NULL DEFAULT 0,"
    " offhost_mode INTEGER NOT NULL DEFAULT 0,"
    " PRIMARY KEY(kernel, launch, buffers, devices, policy));"
    /* Version 3. The host's transfer rate (bytes/ms) per member list ("3,4", as guards):
     * idle with several devices' transfers at once, busy while a CPU device's kernel held
     * the host's cores; 0: not measured. */
    "CREATE TABLE IF NOT EXISTS hosts("
    " devices TEXT PRIMARY KEY, idle REAL NOT NULL, busy REAL NOT NULL,"
    " updated INTEGER NOT NULL);"
    /* Version 5. A member device's finish offset (ms) per kernel, shape class and member
     * list ("3,4", as guards); device is one of the list's ids. */
    "CREATE TABLE IF NOT EXISTS offsets("
    " kernel TEXT NOT NULL, shape INTEGER NOT NULL, devices TEXT NOT NULL,"
    " device INTEGER NOT NULL, ms REAL NOT NULL, updated INTEGER NOT NULL,"
    " PRIMARY KEY(kernel, shape, devices, device));";

/* Version 4. The guard's off-host split (the split without the members on the host's
 * cores): its smoothed wall time (ms, 0: none), its samples, and 1 when the guard runs it.
 * A guards table made by version 2 or 3 gets them with their defaults, so its rows read
 * as having no off-host split. */
static const char offhost_columns_sql[] =
    "ALTER TABLE guards ADD COLUMN offhost_ms REAL NOT NULL DEFAULT 0;"
    "ALTER TABLE guards ADD COLUMN offhost_n INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE guards ADD COLUMN offhost_mode INTEGER NOT NULL DEFAULT 0;";

/* Adds version 4's columns to a guards table that lacks them. Run inside the upgrade's
 * transaction, after the tables exist: a process that upgraded the file first has added
 * them already (all three at once), and this one finds them. */
static int add_offhost_columns(sqlite3 *conn)
{
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(conn,
                                "SELECT count(*) FROM pragma_table_info('guards')"
                                " WHERE name = 'offhost_ms'",
                                -1, &st, NULL);
    if (rc != SQLITE_OK)
        return rc;
    rc = sqlite3_step(st);
    int present = rc == SQLITE_ROW && sqlite3_column_int(st, 0) > 0;
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW)
        return rc;
    return present ? SQLITE_OK : sqlite3_exec(conn, offhost_columns_sql, NULL, NULL, NULL);
}

int pdb_create_schema(sqlite3 *conn)
{
    char pragmas[128];
    snprintf(pragmas, sizeof(pragmas), "PRAGMA application_id=%d; PRAGMA user_version=%d;",
             SKMD_PDB_APPLICATION_ID, SKMD_PDB_SCHEMA_VERSION);
    int rc = sqlite3_exec(conn, "BEGIN IMMEDIATE", NULL, NULL, NULL);
    if (rc != SQLITE_OK)
        return rc;
    rc = sqlite3_exec(conn, schema_sql, NULL, NULL, NULL);
    if (rc == SQLITE_OK)
        rc = add_offhost_columns(conn);
    if (rc == SQLITE_OK)
        rc = sqlite3_exec(conn, pragmas, NULL, NULL, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_exec(conn, "COMMIT", NULL, NULL, NULL);
    if (rc != SQLITE_OK)
        sqlite3_exec(conn, "ROLLBACK", NULL, NULL, NULL);
    return rc;
}
