/* libskmd profile database: performance tables, link calibration and the decision log,
 * kept in one SQLite file shared by every process that uses libskmd.
 *
 * Plain C, no OpenCL. The runtime opens the database once (skmd_pdb_open never fails
 * except for lack of memory: when the file cannot be used it says why through the report
 * callback and works in memory), reads the tables of a kernel when it is built, and writes
 * measurements back. A write that cannot be persisted (read-only file or directory,
 * another process holding the lock past the busy timeout, full disk) returns
 * SKMD_PDB_NOT_PERSISTED and is reported once per cause; the caller carries on.
 *
 * A file that is not a libskmd profile (not SQLite, corrupt, another application's
 * schema, a newer schema version) is reported, moved aside to
 * `<path>.corrupt-<YYYYmmdd-HHMMSS>` and rebuilt empty.
 *
 * One handle may be used from several threads (SQLite's serialized mode); several
 * processes may write the same file at once (WAL journal, busy timeout, every write in its
 * own IMMEDIATE transaction).
 */
#ifndef SKMD_PROFILEDB_H
#define SKMD_PROFILEDB_H

#include <stddef.h>
#include <stdint.h>

/* Schema version, stored in PRAGMA user_version; application_id is 'SKMD'. A file of
 * an older version from SKMD_PDB_OLDEST_VERSION on is upgraded in place when opened (its
 * rows kept); one outside that span is moved aside and rebuilt. */
#define SKMD_PDB_SCHEMA_VERSION 5
#define SKMD_PDB_OLDEST_VERSION 1
#define SKMD_PDB_APPLICATION_ID 0x534B4D44
/* Matches partitioner/'s SKMD_PART_RANGES and SKMD_PART_LINK_POINTS. */
#define SKMD_PDB_RANGES 16
#define SKMD_PDB_LINK_POINTS 8
#define SKMD_PDB_DEFAULT_BUSY_MS 5000

enum skmd_pdb_status {
    SKMD_PDB_OK = 0,
    SKMD_PDB_NOT_FOUND = 1,     /* nothing stored under that key */
    SKMD_PDB_NOT_PERSISTED = 2, /* kept in memory only: read-only, locked, or disk full */
    SKMD_PDB_EINVAL = -1,       /* a NULL or malformed argument */
    SKMD_PDB_ERROR = -2,        /* any other SQLite failure (reported) */
};

const char *skmd_pdb_strstatus(int status);

/* Receives one line per problem (no trailing newline). NULL: lines go to stderr. */
typedef void (*skmd_pdb_report_fn)(void *user, const char *message);

struct skmd_pdb;

/* Writes the database path into buf: `path` itself when not NULL, else
 * $XDG_CACHE_HOME/skmd/profile.db, else $HOME/.cache/skmd/profile.db. Returns 0, or -1
 * when buf is too small or neither variable is set (buf then holds ""). */
int skmd_pdb_default_path(const char *path, char *buf, size_t size);

/* Opens (creating it and its directory if needed) the database at `path` (NULL: the
 * default path). Returns NULL only when out of memory. */
struct skmd_pdb *skmd_pdb_open(const char *path, skmd_pdb_report_fn report, void *user);
void skmd_pdb_close(struct skmd_pdb *db);
/* 1 when writes go to the file, 0 when the handle works in memory only. */
int skmd_pdb_persistent(const struct skmd_pdb *db);
/* 1 when a file backs it, written to or read-only (0: kept in memory only). */
int skmd_pdb_from_file(const struct skmd_pdb *db);
/* The file in use ("" when no file could be named). */
const char *skmd_pdb_path(const struct skmd_pdb *db);
/* How long a write waits for another process's lock before giving up. */
void skmd_pdb_set_busy_timeout(struct skmd_pdb *db, int ms);
/* The SQLite connection, for skmd-profile's queries and for tests; do not close it. */
struct sqlite3 *skmd_pdb_sqlite(struct skmd_pdb *db);

/* ---- Keys ---------------------------------------------------------------------------- */

/* Kernel identity: 64-bit FNV-1a over the source, the build options and the kernel name,
 * each followed by a separator byte so that ("ab", "c") and ("a", "bc") differ. NULL
 * strings hash as empty ones. */
uint64_t skmd_pdb_kernel_hash(const char *source, size_t source_len, const char *options,
                              const char *kernel_name);
/* Launch shape class: the dimensions, the exact local size, and the number of work-groups
 * rounded to a power of two (launches of one class share a performance table). */
uint32_t skmd_pdb_shape_class(unsigned work_dim, const size_t *global, const size_t *local);

struct skmd_pdb_device_id {
    const char *vendor;
    const char *name;
    const char *driver; /* driver version string */
};

/* Finds or adds a device; *id receives its number in this database. */
int skmd_pdb_device(struct skmd_pdb *db, const struct skmd_pdb_device_id *dev, int64_t *id);
/* Records a kernel's name under its hash (for listings; optional). */
int skmd_pdb_kernel(struct skmd_pdb *db, uint64_t kernel, const char *name);

/* ---- Performance tables -------------------------------------------------------------- */

struct skmd_pdb_perf {
    double rate[SKMD_PDB_RANGES];      /* work-groups per ms; 0: not measured */
    uint32_t samples[SKMD_PDB_RANGES]; /* measurements folded in */
};

int skmd_pdb_put_perf(struct skmd_pdb *db, uint64_t kernel, int64_t device, uint32_t shape,
                      const struct skmd_pdb_perf *perf);
/* SKMD_PDB_NOT_FOUND (and *perf zeroed) when nothing is stored. */
int skmd_pdb_get_perf(struct skmd_pdb *db, uint64_t kernel, int64_t device, uint32_t shape,
                      struct skmd_pdb_perf *perf);

/* ---- Link calibration ---------------------------------------------------------------- */

enum skmd_pdb_dir { SKMD_PDB_H2D = 0, SKMD_PDB_D2H = 1 };
enum skmd_pdb_mem { SKMD_PDB_PAGEABLE = 0, SKMD_PDB_PINNED = 1 };

struct skmd_pdb_link {
    double latency_ms;
    double bytes_per_ms;
    int npoints;
    double point_bytes[SKMD_PDB_LINK_POINTS];
    double point_ms[SKMD_PDB_LINK_POINTS];
};

int skmd_pdb_put_link(struct skmd_pdb *db, int64_t device, enum skmd_pdb_dir dir,
                      enum skmd_pdb_mem mem, const struct skmd_pdb_link *link);
int skmd_pdb_get_link(struct skmd_pdb *db, int64_t device, enum skmd_pdb_dir dir,
                      enum skmd_pdb_mem mem, struct skmd_pdb_link *link);

/* ---- Decision log --------------------------------------------------------------------- */

struct skmd_pdb_decision {
    uint64_t kernel;
    uint32_t shape;
    const char *policy; /* "skmd", "equal", ... */
    uint64_t total_wg;
    int ndev;
    const int64_t *device; /* ndev device ids */
    const uint64_t *count; /* ndev shares */
    double est_ms;
    const char *reason; /* why it was (not) split; may be NULL */
};

int skmd_pdb_log_decision(struct skmd_pdb *db, const struct skmd_pdb_decision *dec);

/* ---- Guard states ---------------------------------------------------------------------- */

/* The measured guard of one cached decision (partitioner/'s struct skmd_part_guard), kept
 * so that a later process starts from its verdict. Devices are named by their database
 * ids: the key's device list (the members, in member order) and the whole figures per
 * position in that list; a state stored under another device list or policy is not
 * found. */
#define SKMD_PDB_GUARD_DEVICES 16

struct skmd_pdb_guard_key {
    uint64_t kernel;
    uint32_t shape;         /* launch shape class (for listings) */
    uint64_t launch;        /* exact launch shape hash of the decision cache */
    uint64_t buffers;       /* buffer-size hash of the decision cache */
    int ndev;               /* 1..SKMD_PDB_GUARD_DEVICES */
    const int64_t *device;  /* ndev device ids, in member order */
    const char *policy;     /* the partitioner's policy that made the split (NULL: "") */
};

struct skmd_pdb_guard {
    double split_ms;                        /* smoothed wall time of the split */
    uint32_t split_n;                       /* samples behind it */
    double offhost_ms;                      /* smoothed wall time of the split without the
                                             * members on the host's cores, 0: none */
    uint32_t offhost_n;                     /* samples behind it */
    int offhost_mode;                       /* 1: the guard runs the split without them */
    double whole_ms[SKMD_PDB_GUARD_DEVICES]; /* per position of key->device */
    uint32_t whole_n[SKMD_PDB_GUARD_DEVICES];
    int whole_dev;                          /* position in key->device, -1: none */
    int whole_mode;                         /* 1: launches run whole on whole_dev */
    int backoff;                            /* the next whole period lasts 2^backoff */
    uint64_t launches;                      /* launches the guard chose for */
    uint64_t retry_at;                      /* whole mode: launch number of the retry */
    int64_t updated;                        /* get: Unix time it was stored */
};

int skmd_pdb_put_guard(struct skmd_pdb *db, const struct skmd_pdb_guard_key *key,
                       const struct skmd_pdb_guard *guard);
/* SKMD_PDB_NOT_FOUND (and *guard zeroed, whole_dev -1) when nothing is stored under the
 * key, when the state is older than max_age_s seconds (0: any age), or when the stored
 * row does not make a state (a device outside the key's list, a bad figure). A state
 * stored before schema version 4 reads with the offhost fields 0. */
int skmd_pdb_get_guard(struct skmd_pdb *db, const struct skmd_pdb_guard_key *key,
                       int64_t max_age_s, struct skmd_pdb_guard *guard);

/* ---- Host rates ------------------------------------------------------------------------ */

/* The rate of the host's side of the machine for a set of member devices, named by their
 * database ids in member order: a rate stored under another device list (other devices,
 * another order, a subset) is not found. */
struct skmd_pdb_host {
    double idle_bytes_per_ms; /* several devices' transfers at once; 0: not measured */
    double busy_bytes_per_ms; /* the same while a CPU device's kernel ran; 0: not measured */
    int64_t updated;          /* get: Unix time it was stored */
};

/* SKMD_PDB_EINVAL for 0 or more than SKMD_PDB_GUARD_DEVICES devices, a negative id, a
 * negative or non-finite rate, or no rate measured. */
int skmd_pdb_put_host(struct skmd_pdb *db, const int64_t *device, int ndev,
                      const struct skmd_pdb_host *host);
/* SKMD_PDB_NOT_FOUND (and *host zeroed) when nothing is stored under the device list, when
 * the rates are older than max_age_s seconds (0: any age), or when the stored row does not
 * make rates (negative, non-finite, none measured). */
int skmd_pdb_get_host(struct skmd_pdb *db, const int64_t *device, int ndev, int64_t max_age_s,
                      struct skmd_pdb_host *host);

/* ---- Finish offsets -------------------------------------------------------------------- */

/* How much later (ms; earlier when negative) than the model's estimate a member device's
 * shares of a kernel's split launches finish, beyond the kernel's own error: per kernel,
 * shape class and set of member devices (database ids in member order, as the host
 * rates), one figure per device of the set. */
struct skmd_pdb_offset_key {
    uint64_t kernel;
    uint32_t shape;
    const int64_t *devices;
    int ndev;
};
/* Offsets beyond this are refused (put) or ignored (get): no launch waits a minute. */
#define SKMD_PDB_MAX_OFFSET_MS 60000.0

/* SKMD_PDB_EINVAL for a bad device list (as the host rates'), a device not in it, or an
 * offset that is not finite or beyond SKMD_PDB_MAX_OFFSET_MS. */
int skmd_pdb_put_offset(struct skmd_pdb *db, const struct skmd_pdb_offset_key *key,
                        int64_t device, double ms);
/* SKMD_PDB_NOT_FOUND (and *ms 0) when nothing is stored under the key and device, or the
 * stored row does not make an offset. */
int skmd_pdb_get_offset(struct skmd_pdb *db, const struct skmd_pdb_offset_key *key,
                        int64_t device, double *ms);

/* Deletes every row (devices, kernels, tables, links, decisions, guards, hosts, offsets);
 * keeps the schema. */
int skmd_pdb_clear(struct skmd_pdb *db);

#endif
