/* Internal: the database handle shared by profiledb's files. */
#ifndef SKMD_PDB_INTERNAL_H
#define SKMD_PDB_INTERNAL_H

#include "skmd_profiledb.h"

#include <sqlite3.h>

struct skmd_pdb {
    sqlite3 *conn;
    int persistent;
    char path[4096];
    skmd_pdb_report_fn report;
    void *user;
    unsigned reported; /* causes already reported once: bits of enum pdb_cause */
    int version;       /* schema version of the file in use (an older read-only file's) */
};

enum pdb_cause {
    PDB_CAUSE_READONLY = 1u << 0,
    PDB_CAUSE_BUSY = 1u << 1,
    PDB_CAUSE_FULL = 1u << 2,
    PDB_CAUSE_OTHER = 1u << 3,
    PDB_CAUSE_MEMORY = 1u << 4,
};

/* One line to the report callback (or stderr), printf-style. */
void pdb_report(struct skmd_pdb *db, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Turns a failed write's SQLite code into a status, reporting its cause once. */
int pdb_write_failed(struct skmd_pdb *db, int rc, const char *what);
/* The schema, created if missing (inside an IMMEDIATE transaction); on a file of an older
 * version it adds the tables and columns that version lacks and sets the version: the
 * upgrade. */
int pdb_create_schema(sqlite3 *conn);

/* Writes: BEGIN IMMEDIATE; then commit (or roll back after a failure), as a status. */
int pdb_begin_write(struct skmd_pdb *db);
int pdb_end_write(struct skmd_pdb *db, int rc, const char *what);
/* A 64-bit key as the 16 hex digits the tables hold. */
void pdb_hash_text(uint64_t hash, char out[17]);

/* A device list key (guards, hosts): 1..SKMD_PDB_GUARD_DEVICES database ids, none
 * negative; 1 when it is one. */
int pdb_good_devices(const int64_t *device, int ndev);
/* Room for any such list as text: up to 20 characters and a separator per id. */
#define PDB_DEVICE_LIST_SIZE (SKMD_PDB_GUARD_DEVICES * 21)
/* "3,4,7": the ids in their order; -1 when the buffer is too small. */
int pdb_device_list(const int64_t *device, int ndev, char *buf, size_t size);

#endif
