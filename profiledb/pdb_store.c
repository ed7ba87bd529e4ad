/* Reading and writing profiles: devices, kernels, performance tables, links, decisions. */
#include "pdb_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/* The decision log keeps this many most recent rows. */
#define DECISIONS_KEPT 10000

void pdb_hash_text(uint64_t hash, char out[17])
{
    snprintf(out, 17, "%016llx", (unsigned long long)hash);
}

int pdb_begin_write(struct skmd_pdb *db)
{
    return sqlite3_exec(db->conn, "BEGIN IMMEDIATE", NULL, NULL, NULL);
}

int pdb_end_write(struct skmd_pdb *db, int rc, const char *what)
{
    if (rc == SQLITE_OK || rc == SQLITE_DONE)
        rc = sqlite3_exec(db->conn, "COMMIT", NULL, NULL, NULL);
    if (rc != SQLITE_OK) {
        if (!sqlite3_get_autocommit(db->conn))
            sqlite3_exec(db->conn, "ROLLBACK", NULL, NULL, NULL);
        return pdb_write_failed(db, rc, what);
    }
    return db->persistent ? SKMD_PDB_OK : SKMD_PDB_NOT_PERSISTED;
}

/* Runs one prepared statement to completion; SQLITE_OK or the failing code. */
static int run(sqlite3_stmt *st)
{
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    return rc == SQLITE_DONE || rc == SQLITE_ROW ? SQLITE_OK : rc;
}

static int lookup_device(struct skmd_pdb *db, const struct skmd_pdb_device_id *dev, int64_t *id)
{
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(db->conn,
                                "SELECT id FROM devices WHERE vendor=? AND name=? AND driver=?",
                                -1, &st, NULL);
    if (rc != SQLITE_OK)
        return rc;
    sqlite3_bind_text(st, 1, dev->vendor, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, dev->name, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, dev->driver, -1, SQLITE_STATIC);
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        *id = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return rc;
}

int skmd_pdb_device(struct skmd_pdb *db, const struct skmd_pdb_device_id *dev, int64_t *id)
{
    if (!db || !dev || !dev->vendor || !dev->name || !dev->driver || !id)
        return SKMD_PDB_EINVAL;
    *id = 0;
    int rc = lookup_device(db, dev, id);
    if (rc == SQLITE_ROW)
        return SKMD_PDB_OK;
    if (rc != SQLITE_DONE)
        return pdb_write_failed(db, rc, "device lookup");
    rc = pdb_begin_write(db);
    sqlite3_stmt *st = NULL;
    if (rc == SQLITE_OK)
        rc = sqlite3_prepare_v2(db->conn,
                                "INSERT OR IGNORE INTO devices(vendor, name, driver) "
                                "VALUES(?, ?, ?)", -1, &st, NULL);
    if (rc == SQLITE_OK) {
        sqlite3_bind_text(st, 1, dev->vendor, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 2, dev->name, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 3, dev->driver, -1, SQLITE_STATIC);
        rc = run(st);
    }
    sqlite3_finalize(st);
    if (rc == SQLITE_OK) {
        rc = lookup_device(db, dev, id);
        rc = rc == SQLITE_ROW ? SQLITE_OK : rc;
    }
    return pdb_end_write(db, rc, "device");
}

int skmd_pdb_kernel(struct skmd_pdb *db, uint64_t kernel, const char *name)
{
    if (!db || !name)
        return SKMD_PDB_EINVAL;
    char hash[17];
    pdb_hash_text(kernel, hash);
    sqlite3_stmt *st = NULL;
    int rc = pdb_begin_write(db);
    if (rc == SQLITE_OK)
        rc = sqlite3_prepare_v2(db->conn,
                                "INSERT OR REPLACE INTO kernels(hash, name) VALUES(?, ?)", -1,
                                &st, NULL);
    if (rc == SQLITE_OK) {
        sqlite3_bind_text(st, 1, hash, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
        rc = run(st);
    }
    sqlite3_finalize(st);
    return pdb_end_write(db, rc, "kernel name");
}

static int good_perf(const struct skmd_pdb_perf *perf)
{
    for (int k = 0; k < SKMD_PDB_RANGES; k++)
        if (!isfinite(perf->rate[k]) || perf->rate[k] < 0.0)
            return 0;
    return 1;
}

int skmd_pdb_put_perf(struct skmd_pdb *db, uint64_t kernel, int64_t device, uint32_t shape,
                      const struct skmd_pdb_perf *perf)
{
    if (!db || !perf || !good_perf(perf))
        return SKMD_PDB_EINVAL;
    char hash[17];
    pdb_hash_text(kernel, hash);
    sqlite3_stmt *del = NULL, *ins = NULL;
    int rc = pdb_begin_write(db);
    if (rc == SQLITE_OK)
        rc = sqlite3_prepare_v2(db->conn,
                                "DELETE FROM perf WHERE kernel=? AND device=? AND shape=?", -1,
                                &del, NULL);
    if (rc == SQLITE_OK) {
        sqlite3_bind_text(del, 1, hash, -1, SQLITE_STATIC);
        sqlite3_bind_int64(del, 2, device);
        sqlite3_bind_int64(del, 3, shape);
        rc = run(del);
    }
    if (rc == SQLITE_OK)
        rc = sqlite3_prepare_v2(db->conn,
                                "INSERT INTO perf(kernel, device, shape, range, rate, samples,"
                                " updated) VALUES(?, ?, ?, ?, ?, ?, ?)", -1, &ins, NULL);
    for (int k = 0; rc == SQLITE_OK && k < SKMD_PDB_RANGES; k++) {
        if (perf->rate[k] <= 0.0 && perf->samples[k] == 0)
            continue; /* nothing known: no row */
        sqlite3_bind_text(ins, 1, hash, -1, SQLITE_STATIC);
        sqlite3_bind_int64(ins, 2, device);
        sqlite3_bind_int64(ins, 3, shape);
        sqlite3_bind_int(ins, 4, k);
        sqlite3_bind_double(ins, 5, perf->rate[k]);
        sqlite3_bind_int64(ins, 6, perf->samples[k]);
        sqlite3_bind_int64(ins, 7, (sqlite3_int64)time(NULL));
        rc = run(ins);
    }
    sqlite3_finalize(del);
    sqlite3_finalize(ins);
    return pdb_end_write(db, rc, "performance table");
}

int skmd_pdb_get_perf(struct skmd_pdb *db, uint64_t kernel, int64_t device, uint32_t shape,
                      struct skmd_pdb_perf *perf)
{
    if (!db || !perf)
        return SKMD_PDB_EINVAL;
    memset(perf, 0, sizeof(*perf));
    char hash[17];
    pdb_hash_text(kernel, hash);
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(db->conn,
                                "SELECT range, rate, samples FROM perf WHERE kernel=? AND "
                                "device=? AND shape=?", -1, &st, NULL);
    if (rc != SQLITE_OK)
        return pdb_write_failed(db, rc, "performance table lookup");
    sqlite3_bind_text(st, 1, hash, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, device);
    sqlite3_bind_int64(st, 3, shape);
    int found = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        int k = sqlite3_column_int(st, 0);
        double rate = sqlite3_column_double(st, 1);
        if (k < 0 || k >= SKMD_PDB_RANGES || !isfinite(rate) || rate < 0.0)
            continue; /* a row no libskmd wrote: ignored */
        perf->rate[k] = rate;
        sqlite3_int64 samples = sqlite3_column_int64(st, 2);
        perf->samples[k] = samples < 0 ? 0 : samples > UINT32_MAX ? UINT32_MAX : (uint32_t)samples;
        found = 1;
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return pdb_write_failed(db, rc, "performance table lookup");
    return found ? SKMD_PDB_OK : SKMD_PDB_NOT_FOUND;
}

static int good_link(const struct skmd_pdb_link *l)
{
    if (!isfinite(l->latency_ms) || !isfinite(l->bytes_per_ms) || l->npoints < 0 ||
        l->npoints > SKMD_PDB_LINK_POINTS)
        return 0;
    for (int i = 0; i < l->npoints; i++)
        if (!isfinite(l->point_bytes[i]) || !isfinite(l->point_ms[i]))
            return 0;
    return 1;
}

int skmd_pdb_put_link(struct skmd_pdb *db, int64_t device, enum skmd_pdb_dir dir,
                      enum skmd_pdb_mem mem, const struct skmd_pdb_link *link)
{
    if (!db || !link || !good_link(link) || (dir != SKMD_PDB_H2D && dir != SKMD_PDB_D2H) ||
        (mem != SKMD_PDB_PAGEABLE && mem != SKMD_PDB_PINNED))
        return SKMD_PDB_EINVAL;
    sqlite3_stmt *del = NULL, *ins = NULL;
    int rc = pdb_begin_write(db);
    if (rc == SQLITE_OK)
        rc = sqlite3_prepare_v2(db->conn,
                                "DELETE FROM links WHERE device=? AND direction=? AND memory=?",
                                -1, &del, NULL);
    if (rc == SQLITE_OK) {
        sqlite3_bind_int64(del, 1, device);
        sqlite3_bind_int(del, 2, dir);
        sqlite3_bind_int(del, 3, mem);
        rc = run(del);
    }
    if (rc == SQLITE_OK)
        rc = sqlite3_prepare_v2(db->conn,
                                "INSERT INTO links(device, direction, memory, point, bytes, ms)"
                                " VALUES(?, ?, ?, ?, ?, ?)", -1, &ins, NULL);
    for (int i = -1; rc == SQLITE_OK && i < link->npoints; i++) {
        sqlite3_bind_int64(ins, 1, device);
        sqlite3_bind_int(ins, 2, dir);
        sqlite3_bind_int(ins, 3, mem);
        sqlite3_bind_int(ins, 4, i);
        sqlite3_bind_double(ins, 5, i < 0 ? link->bytes_per_ms : link->point_bytes[i]);
        sqlite3_bind_double(ins, 6, i < 0 ? link->latency_ms : link->point_ms[i]);
        rc = run(ins);
    }
    sqlite3_finalize(del);
    sqlite3_finalize(ins);
    return pdb_end_write(db, rc, "link calibration");
}

int skmd_pdb_get_link(struct skmd_pdb *db, int64_t device, enum skmd_pdb_dir dir,
                      enum skmd_pdb_mem mem, struct skmd_pdb_link *link)
{
    if (!db || !link)
        return SKMD_PDB_EINVAL;
    memset(link, 0, sizeof(*link));
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(db->conn,
                                "SELECT point, bytes, ms FROM links WHERE device=? AND "
                                "direction=? AND memory=? ORDER BY point", -1, &st, NULL);
    if (rc != SQLITE_OK)
        return pdb_write_failed(db, rc, "link lookup");
    sqlite3_bind_int64(st, 1, device);
    sqlite3_bind_int(st, 2, dir);
    sqlite3_bind_int(st, 3, mem);
    int found = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        int point = sqlite3_column_int(st, 0);
        double bytes = sqlite3_column_double(st, 1), ms = sqlite3_column_double(st, 2);
        if (point < 0) {
            link->bytes_per_ms = bytes;
            link->latency_ms = ms;
            found = 1;
        } else if (point == link->npoints && point < SKMD_PDB_LINK_POINTS) {
            link->point_bytes[point] = bytes;
            link->point_ms[point] = ms;
            link->npoints++;
        }
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return pdb_write_failed(db, rc, "link lookup");
    return found ? SKMD_PDB_OK : SKMD_PDB_NOT_FOUND;
}

int skmd_pdb_log_decision(struct skmd_pdb *db, const struct skmd_pdb_decision *dec)
{
    if (!db || !dec || !dec->policy || dec->ndev < 0 || dec->ndev > 64 ||
        (dec->ndev > 0 && (!dec->device || !dec->count)))
        return SKMD_PDB_EINVAL;
    char hash[17], shares[64 * 48] = "";
    size_t used = 0;
    pdb_hash_text(dec->kernel, hash);
    for (int d = 0; d < dec->ndev; d++)
        used += (size_t)snprintf(shares + used, sizeof(shares) - used, "%s%lld:%llu",
                                 d ? "," : "", (long long)dec->device[d],
                                 (unsigned long long)dec->count[d]);
    sqlite3_stmt *st = NULL;
    int rc = pdb_begin_write(db);
    if (rc == SQLITE_OK)
        rc = sqlite3_prepare_v2(db->conn,
                                "INSERT INTO decisions(time, kernel, shape, policy, total,"
                                " shares, est_ms, reason) VALUES(?, ?, ?, ?, ?, ?, ?, ?)",
                                -1, &st, NULL);
    if (rc == SQLITE_OK) {
        sqlite3_bind_int64(st, 1, (sqlite3_int64)time(NULL));
        sqlite3_bind_text(st, 2, hash, -1, SQLITE_STATIC);
        sqlite3_bind_int64(st, 3, dec->shape);
        sqlite3_bind_text(st, 4, dec->policy, -1, SQLITE_STATIC);
        sqlite3_bind_int64(st, 5, (sqlite3_int64)dec->total_wg);
        sqlite3_bind_text(st, 6, shares, -1, SQLITE_STATIC);
        sqlite3_bind_double(st, 7, isfinite(dec->est_ms) ? dec->est_ms : -1.0);
        if (dec->reason)
            sqlite3_bind_text(st, 8, dec->reason, -1, SQLITE_STATIC);
        rc = run(st);
    }
    sqlite3_finalize(st);
    if (rc == SQLITE_OK) {
        char trim[128];
        snprintf(trim, sizeof(trim), "DELETE FROM decisions WHERE id <= "
                 "(SELECT max(id) FROM decisions) - %d", DECISIONS_KEPT);
        rc = sqlite3_exec(db->conn, trim, NULL, NULL, NULL);
    }
    return pdb_end_write(db, rc, "decision");
}

int skmd_pdb_clear(struct skmd_pdb *db)
{
    if (!db)
        return SKMD_PDB_EINVAL;
    int rc = pdb_begin_write(db);
    if (rc == SQLITE_OK)
        rc = sqlite3_exec(db->conn,
                          "DELETE FROM perf; DELETE FROM links; DELETE FROM decisions;"
                          "DELETE FROM kernels; DELETE FROM devices;", NULL, NULL, NULL);
    if (rc == SQLITE_OK && db->version >= 2)
        rc = sqlite3_exec(db->conn, "DELETE FROM guards", NULL, NULL, NULL);
    if (rc == SQLITE_OK && db->version >= 3)
        rc = sqlite3_exec(db->conn, "DELETE FROM hosts", NULL, NULL, NULL);
    if (rc == SQLITE_OK && db->version >= 5)
        rc = sqlite3_exec(db->conn, "DELETE FROM offsets", NULL, NULL, NULL);
    return pdb_end_write(db, rc, "clear");
}
