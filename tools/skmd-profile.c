/* skmd-profile: look at, export and clear libskmd's profile database, and fill it.
 *
 *   skmd-profile [--db PATH] list | show KERNEL | export --json | clear | run | calibrate
 *
 * `run` (skmd-profile-run.c) runs an application under libskmd's profiling sweep;
 * `calibrate` (skmd-profile-calibrate.c) measures the links through the real loader.
 */
#include "skmd-profile.h"
#include "support/version.h"
#include "support/config.h"
#include "support/json.h"

#include <errno.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- Summary table printer: columns sized to their widest cell ---------------------- */

#define TABLE_MAX_COLS 8
#define TABLE_CELL 64

struct table {
    int ncols, nrows, cap;
    const char *header[TABLE_MAX_COLS];
    int right[TABLE_MAX_COLS]; /* numbers are right-aligned */
    char (*cells)[TABLE_MAX_COLS][TABLE_CELL];
};

static void table_row(struct table *t, ...)
{
    if (t->nrows == t->cap) {
        int cap = t->cap ? t->cap * 2 : 16;
        void *cells = realloc(t->cells, sizeof(t->cells[0]) * (size_t)cap);
        if (!cells) {
            fprintf(stderr, "skmd-profile: out of memory\n");
            exit(1);
        }
        t->cells = cells;
        t->cap = cap;
    }
    va_list ap;
    va_start(ap, t);
    for (int c = 0; c < t->ncols; c++)
        snprintf(t->cells[t->nrows][c], TABLE_CELL, "%s", va_arg(ap, const char *));
    va_end(ap);
    t->nrows++;
}

static void table_print(FILE *out, struct table *t)
{
    int width[TABLE_MAX_COLS];
    for (int c = 0; c < t->ncols; c++) {
        width[c] = (int)strlen(t->header[c]);
        for (int r = 0; r < t->nrows; r++)
            if ((int)strlen(t->cells[r][c]) > width[c])
                width[c] = (int)strlen(t->cells[r][c]);
    }
    for (int r = -1; r < t->nrows; r++) {
        for (int c = 0; c < t->ncols; c++) {
            const char *s = r < 0 ? t->header[c] : t->cells[r][c];
            int w = c == t->ncols - 1 && !t->right[c] ? 0 : width[c];
            fprintf(out, "%s%*s", c ? "  " : "", t->right[c] ? w : -w, s);
        }
        fputc('\n', out);
    }
    free(t->cells);
    t->cells = NULL;
    t->nrows = t->cap = 0;
}

/* ---- Progress bar: "label [#####     ]  50% (5/10)" redrawn in place ----------------- */

static void progress_bar(FILE *out, const char *label, long long done, long long total)
{
    const int width = 30;
    int pct = total > 0 ? (int)(done * 100 / total) : 100;
    int filled = total > 0 ? (int)(done * width / total) : width;
    fprintf(out, "\r%s [", label);
    for (int i = 0; i < width; i++)
        fputc(i < filled ? '#' : ' ', out);
    fprintf(out, "] %3d%% (%lld/%lld)", pct, done, total);
    if (done >= total)
        fputc('\n', out);
    fflush(out);
}

/* ---- Helpers --------------------------------------------------------------------------- */

static const char *text(sqlite3_stmt *st, int col)
{
    const unsigned char *t = sqlite3_column_text(st, col);
    return t ? (const char *)t : "";
}

static sqlite3_stmt *prepare(sqlite3 *conn, const char *sql)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(conn, sql, -1, &st, NULL) != SQLITE_OK) {
        fprintf(stderr, "skmd-profile: query failed: %s\n", sqlite3_errmsg(conn));
        return NULL;
    }
    return st;
}

static int wants_help(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
            return 1;
    return 0;
}

/* ---- Commands ------------------------------------------------------------------------- */

static const char list_help[] =
    "usage: skmd-profile [--db PATH] list\n"
    "Lists the kernels that have performance tables: hash, name, devices, shape classes,\n"
    "measurements and the decisions logged for them.\n";

static int cmd_list(struct skmd_pdb *db, int argc, char **argv)
{
    if (wants_help(argc, argv)) {
        fputs(list_help, stdout);
        return 0;
    }
    if (argc > 1) {
        fprintf(stderr, "skmd-profile list: unexpected argument '%s'"
                        " (skmd-profile list --help)\n", argv[1]);
        return EXIT_USAGE;
    }
    sqlite3_stmt *st = prepare(
        skmd_pdb_sqlite(db),
        "SELECT p.kernel, coalesce(k.name, '?'), count(DISTINCT p.device),"
        " count(DISTINCT p.shape), sum(p.samples),"
        " (SELECT count(*) FROM decisions d WHERE d.kernel = p.kernel)"
        " FROM perf p LEFT JOIN kernels k ON k.hash = p.kernel"
        " GROUP BY p.kernel ORDER BY 2, 1");
    if (!st)
        return 1;
    struct table t = {6, 0, 0, {"KERNEL", "NAME", "DEVICES", "SHAPES", "SAMPLES", "DECISIONS"},
                      {0, 0, 1, 1, 1, 1}, NULL};
    while (sqlite3_step(st) == SQLITE_ROW)
        table_row(&t, text(st, 0), text(st, 1), text(st, 2), text(st, 3), text(st, 4),
                  text(st, 5));
    sqlite3_finalize(st);
    if (t.nrows == 0) {
        free(t.cells);
        printf("no profiles in %s\n", skmd_pdb_path(db));
        return 0;
    }
    table_print(stdout, &t);
    return 0;
}

static const char show_help[] =
    "usage: skmd-profile [--db PATH] show KERNEL\n"
    "Prints the performance tables of one kernel (KERNEL: its hash, a unique prefix of it,\n"
    "or its name): per device and shape class, the work-groups/ms of each size range;\n"
    "then the measured guard's stored states: split or whole on one device, the split's\n"
    "and each device's whole wall times, when the split is retried; and how much later\n"
    "than the model's estimate each device's shares of its split launches finish.\n";

/* "VENDOR NAME" of device id (or "device ID" when it has no row). */
static void device_name(sqlite3 *conn, long long id, char *buf, size_t size)
{
    snprintf(buf, size, "device %lld", id);
    sqlite3_stmt *st = prepare(conn, "SELECT vendor || ' ' || name FROM devices WHERE id = ?");
    if (!st)
        return;
    sqlite3_bind_int64(st, 1, id);
    if (sqlite3_step(st) == SQLITE_ROW)
        snprintf(buf, size, "%s", text(st, 0));
    sqlite3_finalize(st);
}

/* The names of a member list ("1,2": device ids in member order), ", " between them. */
static void member_names(sqlite3 *conn, const char *list, char *names, size_t size)
{
    char name[300];
    size_t used = 0;
    names[0] = '\0';
    for (const char *p = list; *p;) {
        char *end;
        long long id = strtoll(p, &end, 10);
        if (end == p)
            break;
        device_name(conn, id, name, sizeof name);
        used += (size_t)snprintf(names + used, size - used, "%s%s", used ? ", " : "", name);
        used = used < size ? used : size - 1;
        p = *end == ',' ? end + 1 : end;
    }
}

static int has_table(sqlite3 *conn, const char *name);

/* The stored finish offsets of kernel `hash` (profiledb's offsets table): one line per
 * shape class and member list. A read-only file older than schema version 5 has none. */
static void show_offsets(sqlite3 *conn, const char *hash)
{
    if (!has_table(conn, "offsets"))
        return;
    sqlite3_stmt *st = prepare(conn, "SELECT shape, devices, device, ms FROM offsets WHERE"
                                     " kernel = ? ORDER BY shape, devices, device");
    if (!st)
        return;
    sqlite3_bind_text(st, 1, hash, -1, SQLITE_STATIC);
    char shape[32] = "", devices[200] = "", name[300], names[1200];
    while (sqlite3_step(st) == SQLITE_ROW) {
        if (strcmp(shape, text(st, 0)) || strcmp(devices, text(st, 1))) {
            snprintf(shape, sizeof shape, "%s", text(st, 0));
            snprintf(devices, sizeof devices, "%s", text(st, 1));
            member_names(conn, devices, names, sizeof names);
            printf("\nfinish offsets, shape %s, members %s (beyond the model's estimate, in "
                   "split launches):\n", shape, names);
        }
        device_name(conn, sqlite3_column_int64(st, 2), name, sizeof name);
        printf("  %s %+.3f ms\n", name, sqlite3_column_double(st, 3));
    }
    sqlite3_finalize(st);
}

/* The stored guard states of kernel `hash` (profiledb's guards table), one paragraph
 * each. */
static void show_guards(sqlite3 *conn, const char *hash)
{
    sqlite3_stmt *st = prepare(conn,
                               "SELECT shape, devices, split_ms, split_n, whole, whole_dev,"
                               " whole_mode, backoff, launches, retry_at,"
                               " datetime(updated, 'unixepoch'), policy FROM guards WHERE"
                               " kernel = ? ORDER BY shape, devices, policy, launch, buffers");
    if (!st)
        return;
    sqlite3_bind_text(st, 1, hash, -1, SQLITE_STATIC);
    while (sqlite3_step(st) == SQLITE_ROW) {
        char name[300], names[1200], whole[1200] = "";
        member_names(conn, text(st, 1), names, sizeof names);
        size_t used = 0;
        for (const char *p = text(st, 4); *p;) { /* "id:ms:samples,..." */
            char *end;
            long long id = strtoll(p, &end, 10);
            double ms = *end == ':' ? strtod(end + 1, &end) : 0;
            long long n = *end == ':' ? strtoll(end + 1, &end, 10) : 0;
            if (end == p)
                break;
            device_name(conn, id, name, sizeof name);
            used += (size_t)snprintf(whole + used, sizeof whole - used, "%s%s %.3f ms x%lld",
                                     used ? ", " : "", name, ms, n);
            used = used < sizeof whole - 1 ? used : sizeof whole - 1;
            p = *end == ',' ? end + 1 : end;
        }
        long long whole_dev = sqlite3_column_int64(st, 5);
        long long launches = sqlite3_column_int64(st, 8), retry_at = sqlite3_column_int64(st, 9);
        printf("\nguard state, shape %s, members %s, policy %s (stored %s UTC, %lld "
               "launches guarded):\n", text(st, 0), names, text(st, 11), text(st, 10),
               launches);
        if (sqlite3_column_int(st, 6)) {
            device_name(conn, whole_dev, name, sizeof name);
            printf("  whole on %s: the split measured %.3f ms (%lld samples); the split is "
                   "retried in %lld launches (each retry that loses doubles the wait, now "
                   "2^%d)\n", name, sqlite3_column_double(st, 2), sqlite3_column_int64(st, 3),
                   retry_at > launches ? retry_at - launches : 0, sqlite3_column_int(st, 7));
        } else {
            printf("  split: the split measured %.3f ms (%lld samples)\n",
                   sqlite3_column_double(st, 2), sqlite3_column_int64(st, 3));
        }
        printf("  whole: %s\n", whole[0] ? whole : "not measured");
    }
    sqlite3_finalize(st);
}

static int cmd_show(struct skmd_pdb *db, int argc, char **argv)
{
    if (wants_help(argc, argv)) {
        fputs(show_help, stdout);
        return 0;
    }
    if (argc != 2) {
        fprintf(stderr, "skmd-profile show: expected one KERNEL (skmd-profile show --help)\n");
        return EXIT_USAGE;
    }
    sqlite3 *conn = skmd_pdb_sqlite(db);
    sqlite3_stmt *st = prepare(conn,
                               "SELECT DISTINCT p.kernel FROM perf p LEFT JOIN kernels k ON"
                               " k.hash = p.kernel WHERE p.kernel LIKE ?1 || '%' OR k.name = ?1");
    if (!st)
        return 1;
    sqlite3_bind_text(st, 1, argv[1], -1, SQLITE_STATIC);
    char hash[32] = "";
    int matches = 0;
    while (sqlite3_step(st) == SQLITE_ROW)
        if (matches++ == 0)
            snprintf(hash, sizeof(hash), "%s", text(st, 0));
    sqlite3_finalize(st);
    if (matches != 1) {
        fprintf(stderr, "skmd-profile show: %s kernel matches '%s'\n",
                matches ? "more than one" : "no", argv[1]);
        return 1;
    }
    st = prepare(conn, "SELECT d.vendor || ' ' || d.name, p.shape, p.range, p.rate,"
                       " p.samples FROM perf p LEFT JOIN devices d ON d.id = p.device"
                       " WHERE p.kernel = ? ORDER BY p.device, p.shape, p.range");
    if (!st)
        return 1;
    sqlite3_bind_text(st, 1, hash, -1, SQLITE_STATIC);
    struct table t = {5, 0, 0, {"DEVICE", "SHAPE", "WORK-GROUPS", "WG/MS", "SAMPLES"},
                      {0, 1, 1, 1, 1}, NULL};
    while (sqlite3_step(st) == SQLITE_ROW) {
        char range[48], rate[32];
        int k = sqlite3_column_int(st, 2);
        if (k >= SKMD_PDB_RANGES - 1)
            snprintf(range, sizeof(range), ">= %d", 1 << k);
        else
            snprintf(range, sizeof(range), "%d-%d", 1 << k, (2 << k) - 1);
        snprintf(rate, sizeof(rate), "%.3f", sqlite3_column_double(st, 3));
        table_row(&t, text(st, 0), text(st, 1), range, rate, text(st, 4));
    }
    sqlite3_finalize(st);
    printf("kernel %s\n", hash);
    table_print(stdout, &t);
    show_guards(conn, hash);
    show_offsets(conn, hash);
    return 0;
}

static const char export_help[] =
    "usage: skmd-profile [--db PATH] export --json [--output FILE] [--progress]\n"
    "Writes the whole database as one JSON object (devices, kernels, perf, links,\n"
    "decisions, guards, hosts, offsets) to standard output or FILE; --progress draws a\n"
    "progress bar on stderr.\n";

#define EXPORT_FIELDS 20

struct export_table {
    const char *name, *sql;
    const char *fields[EXPORT_FIELDS]; /* column names; a leading '#' marks a number */
};

static const struct export_table export_tables[] = {
    {"devices", "SELECT id, vendor, name, driver FROM devices ORDER BY id",
     {"#id", "vendor", "name", "driver"}},
    {"kernels", "SELECT hash, name FROM kernels ORDER BY hash", {"hash", "name"}},
    {"perf", "SELECT kernel, device, shape, range, rate, samples, updated FROM perf"
             " ORDER BY kernel, device, shape, range",
     {"kernel", "#device", "#shape", "#range", "#rate", "#samples", "#updated"}},
    {"links", "SELECT device, direction, memory, point, bytes, ms FROM links"
              " ORDER BY device, direction, memory, point",
     {"#device", "#direction", "#memory", "#point", "#bytes", "#ms"}},
    {"decisions", "SELECT id, time, kernel, shape, policy, total, shares, est_ms, reason"
                  " FROM decisions ORDER BY id",
     {"#id", "#time", "kernel", "#shape", "policy", "#total", "shares", "#est_ms", "reason"}},
    /* launch and buffers are 64-bit hashes: text, as the kernel's. */
    {"guards", "SELECT kernel, shape, launch, buffers, devices, policy, split_ms, split_n,"
               " whole, whole_dev, whole_mode, backoff, launches, retry_at, updated,"
               " offhost_ms, offhost_n, offhost_mode FROM guards"
               " ORDER BY kernel, shape, devices, policy, launch, buffers",
     {"kernel", "#shape", "launch", "buffers", "devices", "policy", "#split_ms", "#split_n",
      "whole", "#whole_dev", "#whole_mode", "#backoff", "#launches", "#retry_at",
      "#updated", "#offhost_ms", "#offhost_n", "#offhost_mode"}},
    {"hosts", "SELECT devices, idle, busy, updated FROM hosts ORDER BY devices",
     {"devices", "#idle", "#busy", "#updated"}},
    {"offsets", "SELECT kernel, shape, devices, device, ms, updated FROM offsets"
                " ORDER BY kernel, shape, devices, device",
     {"kernel", "#shape", "devices", "#device", "#ms", "#updated"}},
};
#define EXPORT_TABLES (sizeof(export_tables) / sizeof(export_tables[0]))

/* A table whose columns grew: a read-only file older than schema version `since` (not
 * upgraded by skmd_pdb_open) is read with `sql`, the same fields with 0 for the columns
 * it lacks. */
static const struct {
    const char *name;
    int since;
    const char *sql;
} older_exports[] = {
    {"guards", 4, "SELECT kernel, shape, launch, buffers, devices, policy, split_ms, split_n,"
                  " whole, whole_dev, whole_mode, backoff, launches, retry_at, updated,"
                  " 0, 0, 0 FROM guards ORDER BY kernel, shape, devices, policy, launch,"
                  " buffers"},
};

/* The file's schema version (PRAGMA user_version). */
static long long schema_version(sqlite3 *conn)
{
    long long version = SKMD_PDB_SCHEMA_VERSION;
    sqlite3_stmt *st = prepare(conn, "PRAGMA user_version");
    if (st && sqlite3_step(st) == SQLITE_ROW)
        version = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return version;
}

/* The query that exports table et from a file of schema `version`. */
static const char *export_sql(const struct export_table *et, long long version)
{
    for (size_t i = 0; i < sizeof(older_exports) / sizeof(older_exports[0]); i++)
        if (!strcmp(older_exports[i].name, et->name) && version < older_exports[i].since)
            return older_exports[i].sql;
    return et->sql;
}

/* 0 for a table that a read-only file of an older schema version lacks (skmd_pdb_open
 * upgrades a writable one): it exports as empty. */
static int has_table(sqlite3 *conn, const char *name)
{
    sqlite3_stmt *st = prepare(conn, "SELECT 1 FROM sqlite_master WHERE type = 'table'"
                                     " AND name = ?");
    if (!st)
        return 0;
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    int found = sqlite3_step(st) == SQLITE_ROW;
    sqlite3_finalize(st);
    return found;
}

static int cmd_export(struct skmd_pdb *db, int argc, char **argv)
{
    int json = 0, progress = 0;
    const char *output = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(export_help, stdout);
            return 0;
        } else if (!strcmp(argv[i], "--json")) {
            json = 1;
        } else if (!strcmp(argv[i], "--progress")) {
            progress = 1;
        } else if (!strcmp(argv[i], "--output") && i + 1 < argc) {
            output = argv[++i];
        } else {
            fprintf(stderr, "skmd-profile export: unexpected argument '%s'"
                            " (skmd-profile export --help)\n", argv[i]);
            return EXIT_USAGE;
        }
    }
    if (!json) {
        fprintf(stderr, "skmd-profile export: say --json (the only format)"
                        " (skmd-profile export --help)\n");
        return EXIT_USAGE;
    }
    FILE *out = output ? fopen(output, "w") : stdout;
    if (!out) {
        perror(output);
        return 1;
    }
    sqlite3 *conn = skmd_pdb_sqlite(db);
    long long total = 0, done = 0, version = schema_version(conn);
    int present[EXPORT_TABLES];
    for (size_t t = 0; t < EXPORT_TABLES; t++) {
        char sql[96];
        long long n = 0;
        present[t] = has_table(conn, export_tables[t].name);
        if (!present[t])
            continue;
        snprintf(sql, sizeof(sql), "SELECT count(*) FROM %s", export_tables[t].name);
        sqlite3_stmt *st = prepare(conn, sql);
        if (st && sqlite3_step(st) == SQLITE_ROW)
            n = sqlite3_column_int64(st, 0);
        sqlite3_finalize(st);
        total += n;
    }
    fprintf(out, "{\"schema_version\": %d", SKMD_PDB_SCHEMA_VERSION);
    int status = 0;
    for (size_t t = 0; t < EXPORT_TABLES && status == 0; t++) {
        const struct export_table *et = &export_tables[t];
        if (!present[t]) {
            fprintf(out, ",\n \"%s\": []", et->name);
            continue;
        }
        sqlite3_stmt *st = prepare(conn, export_sql(et, version));
        if (!st) {
            status = 1;
            break;
        }
        fprintf(out, ",\n \"%s\": [", et->name);
        for (int row = 0; sqlite3_step(st) == SQLITE_ROW; row++) {
            fprintf(out, "%s\n  {", row ? "," : "");
            for (int c = 0; c < sqlite3_column_count(st) && c < EXPORT_FIELDS && et->fields[c];
                 c++) {
                int number = et->fields[c][0] == '#';
                fprintf(out, "%s\"%s\": ", c ? ", " : "", et->fields[c] + number);
                if (sqlite3_column_type(st, c) == SQLITE_NULL)
                    fputs("null", out);
                else if (number)
                    fprintf(out, "%.17g", sqlite3_column_double(st, c));
                else
                    skmd_json_string(out, text(st, c));
            }
            fputc('}', out);
            if (progress)
                progress_bar(stderr, "export", ++done, total);
        }
        fputs("]", out);
        sqlite3_finalize(st);
    }
    fputs("}\n", out);
    if (progress && total == 0)
        progress_bar(stderr, "export", 0, 0);
    if (output && fclose(out) != 0) {
        perror(output);
        return 1;
    }
    return status;
}

static const char clear_help[] =
    "usage: skmd-profile [--db PATH] clear\n"
    "Deletes every profile, link calibration and logged decision (the file stays).\n";

static int cmd_clear(struct skmd_pdb *db, int argc, char **argv)
{
    if (wants_help(argc, argv)) {
        fputs(clear_help, stdout);
        return 0;
    }
    if (argc > 1) {
        fprintf(stderr, "skmd-profile clear: unexpected argument '%s'"
                        " (skmd-profile clear --help)\n", argv[1]);
        return EXIT_USAGE;
    }
    int status = skmd_pdb_clear(db);
    if (status != SKMD_PDB_OK) {
        fprintf(stderr, "skmd-profile clear: %s\n", skmd_pdb_strstatus(status));
        return 1;
    }
    printf("cleared %s\n", skmd_pdb_path(db));
    return 0;
}

static const char run_help[] =
    "usage: skmd-profile [--db PATH] run [--launches N] -- APP [ARGS...]\n"
    "Runs APP under libskmd with the profiling sweep: each kernel's first launches run on\n"
    "each device alone, then with each device at N-1 smaller shares (N share sizes,\n"
    "default 3: all, a quarter, a sixteenth), recording the rates; shows progress, then\n"
    "prints the measured work-groups/ms per kernel, device and size range. libskmd.so is\n"
    "found next to skmd-profile, or given by SKMD_PROFILE_LIB. Exits with APP's status.\n";

static const char calibrate_help[] =
    "usage: skmd-profile [--db PATH] calibrate [--device N] [--sizes MIN:MAX]\n"
    "Measures every device's link (host to device and back, pageable and pinned memory)\n"
    "at up to 8 sizes from MIN to MAX bytes (default 4096:268435456) through the real\n"
    "OpenCL loader and stores latency, bandwidth and the curve; --device N: device N\n"
    "only (numbered over every platform, as libskmd numbers its members).\n";

/* The database's own word on a problem (cannot create it, moved a corrupt one aside). */
static void say_db_problem(void *user, const char *line)
{
    (void)user;
    fprintf(stderr, "skmd-profile: %s\n", line);
}

/* The database at `path`; NULL, said in one line, when it cannot be used as a file (the
 * library would carry on in memory, which is no use to a tool that reads or fills it).
 * run and calibrate open it themselves: their --help needs none. */
static struct skmd_pdb *open_db(const char *path)
{
    struct skmd_pdb *db = skmd_pdb_open(path, say_db_problem, NULL);
    if (!db) {
        fprintf(stderr, "skmd-profile: out of memory\n");
        return NULL;
    }
    if (!skmd_pdb_from_file(db)) { /* a read-only file is fine to read */
        fprintf(stderr, "skmd-profile: the profile database %s cannot be used\n",
                path && *path ? path : "(no path)");
        skmd_pdb_close(db);
        return NULL;
    }
    return db;
}

static int positive_number(const char *s, long long *value)
{
    char *end;
    long long v = strtoll(s, &end, 10);
    if (!*s || *end || v <= 0)
        return 0;
    *value = v;
    return 1;
}

static int cmd_run(const char *db_path, int argc, char **argv)
{
    long long launches = 3;
    int i = 1;
    for (; i < argc && strcmp(argv[i], "--"); i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(run_help, stdout);
            return 0;
        } else if (!strcmp(argv[i], "--launches") && i + 1 < argc) {
            if (!positive_number(argv[++i], &launches)) {
                fprintf(stderr, "skmd-profile run: --launches wants a positive number\n");
                return EXIT_USAGE;
            }
        } else {
            fprintf(stderr, "skmd-profile run: unexpected argument '%s'"
                            " (skmd-profile run --help)\n", argv[i]);
            return EXIT_USAGE;
        }
    }
    if (i + 1 >= argc) {
        fprintf(stderr, "skmd-profile run: give the application after --"
                        " (skmd-profile run --help)\n");
        return EXIT_USAGE;
    }
    struct skmd_pdb *db = open_db(db_path);
    if (!db)
        return 1;
    int status = skmd_profile_run(db, launches, argv + i + 1);
    skmd_pdb_close(db);
    return status;
}

static int cmd_calibrate(const char *db_path, int argc, char **argv)
{
    long long device = -1, lo = 4096, hi = 268435456;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(calibrate_help, stdout);
            return 0;
        } else if (!strcmp(argv[i], "--device") && i + 1 < argc) {
            char *end;
            device = strtoll(argv[++i], &end, 10);
            if (!*argv[i] || *end || device < 0) {
                fprintf(stderr, "skmd-profile calibrate: --device wants a device number\n");
                return EXIT_USAGE;
            }
        } else if (!strcmp(argv[i], "--sizes") && i + 1 < argc) {
            if (sscanf(argv[++i], "%lld:%lld", &lo, &hi) != 2 || lo <= 0 || hi < lo) {
                fprintf(stderr, "skmd-profile calibrate: --sizes wants MIN:MAX bytes\n");
                return EXIT_USAGE;
            }
        } else {
            fprintf(stderr, "skmd-profile calibrate: unexpected argument '%s'"
                            " (skmd-profile calibrate --help)\n", argv[i]);
            return EXIT_USAGE;
        }
    }
    struct skmd_pdb *db = open_db(db_path);
    if (!db)
        return 1;
    int status = skmd_profile_calibrate(db, device, lo, hi);
    skmd_pdb_close(db);
    return status;
}

static const char main_help[] =
    "usage: skmd-profile [--db PATH] COMMAND [ARGS]\n"
    "Looks at and fills libskmd's profile database (default: the one libskmd uses,\n"
    "SKMD_PROFILE_DB, else $SKMD_CACHE_DIR/profile.db, else\n"
    "$XDG_CACHE_HOME/skmd/profile.db or ~/.cache/skmd/profile.db).\n"
    "\n"
    "commands:\n"
    "  list              kernels with profiles\n"
    "  show KERNEL       one kernel's performance tables\n"
    "  export --json     the whole database as JSON\n"
    "  clear             delete every profile\n"
    "  run -- APP ARGS   profile an application's kernels on every device\n"
    "  calibrate         measure every device's link (latency, bandwidth)\n"
    "\n"
    "`skmd-profile COMMAND --help` describes one command; --version gives the version\n"
    "of libskmd it belongs to.\n";

/* Takes `--db PATH` (or `--db=PATH`) out of the arguments wherever it is, up to `--`. */
static int take_db_option(int *argc, char **argv, const char **db_path)
{
    int out = 1;
    for (int i = 1; i < *argc; i++) {
        if (!strcmp(argv[i], "--")) {
            while (i < *argc)
                argv[out++] = argv[i++];
            break;
        }
        if (!strcmp(argv[i], "--db")) {
            if (i + 1 >= *argc)
                return -1;
            *db_path = argv[++i];
        } else if (!strncmp(argv[i], "--db=", 5)) {
            *db_path = argv[i] + 5;
        } else {
            argv[out++] = argv[i];
        }
    }
    *argc = out;
    argv[out] = NULL;
    return 0;
}

static const char command_list[] = "list, show, export, clear, run, calibrate";

/* The command one or two letters away from `word` (a typo), or NULL. */
static const char *closest_command(const char *word)
{
    static const char *const commands[] = {"list", "show", "export", "clear", "run",
                                           "calibrate"};
    const char *best = NULL;
    size_t best_d = 3;
    for (size_t c = 0; c < sizeof commands / sizeof commands[0]; c++) {
        /* Levenshtein distance over short words */
        const char *a = word, *b = commands[c];
        size_t la = strlen(a), lb = strlen(b), row[16];
        if (la >= 16 || lb >= 16)
            continue;
        for (size_t j = 0; j <= lb; j++)
            row[j] = j;
        for (size_t x = 1; x <= la; x++) {
            size_t diag = row[0];
            row[0] = x;
            for (size_t j = 1; j <= lb; j++) {
                size_t up = row[j], v = diag + (a[x - 1] != b[j - 1]);
                if (up + 1 < v)
                    v = up + 1;
                if (row[j - 1] + 1 < v)
                    v = row[j - 1] + 1;
                row[j] = v;
                diag = up;
            }
        }
        if (row[lb] < best_d) {
            best_d = row[lb];
            best = b;
        }
    }
    return best;
}

int main(int argc, char **argv)
{
    const char *db_path = NULL;
    if (take_db_option(&argc, argv, &db_path) != 0) {
        fprintf(stderr, "skmd-profile: --db wants a path (skmd-profile --help)\n");
        return EXIT_USAGE;
    }
    int explicit_db = db_path != NULL;
    if (!db_path && skmd_config()->profile_db[0])
        db_path = skmd_config()->profile_db; /* the one libskmd uses */
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(main_help, stdout);
            return 0;
        }
        if (!strcmp(argv[i], "--version")) {
            printf("skmd-profile (libskmd) %s\n", SKMD_VERSION);
            return 0;
        }
        fprintf(stderr, "skmd-profile: unknown option '%s' (skmd-profile --help)\n", argv[i]);
        return EXIT_USAGE;
    }
    if (i >= argc) {
        fprintf(stderr, "skmd-profile: give a command: %s (skmd-profile --help)\n",
                command_list);
        return EXIT_USAGE;
    }
    const char *cmd = argv[i];
    int cargc = argc - i;
    char **cargv = argv + i;
    if (!strcmp(cmd, "run"))
        return cmd_run(db_path, cargc, cargv);
    if (!strcmp(cmd, "calibrate"))
        return cmd_calibrate(db_path, cargc, cargv);
    if (!strcmp(cmd, "help")) {
        fputs(main_help, stdout);
        return 0;
    }
    int (*fn)(struct skmd_pdb *, int, char **) = !strcmp(cmd, "list")     ? cmd_list
                                                 : !strcmp(cmd, "show")   ? cmd_show
                                                 : !strcmp(cmd, "export") ? cmd_export
                                                 : !strcmp(cmd, "clear")  ? cmd_clear
                                                                          : NULL;
    if (!fn) {
        const char *near = closest_command(cmd);
        if (near)
            fprintf(stderr, "skmd-profile: unknown command '%s'; did you mean '%s'? "
                    "(skmd-profile --help)\n", cmd, near);
        else
            fprintf(stderr, "skmd-profile: unknown command '%s'; the commands: %s "
                    "(skmd-profile --help)\n", cmd, command_list);
        return EXIT_USAGE;
    }
    if (wants_help(cargc, cargv))
        return fn(NULL, cargc, cargv);
    /* Reading commands never make a database: a path that names none is an error. */
    if (fn != cmd_clear && access(db_path ? db_path : "", F_OK) != 0) {
        if (!explicit_db && errno == ENOENT) {
            printf("no profiles yet: %s does not exist (skmd-profile run or calibrate, or "
                   "libskmd's first use, makes it)\n", db_path ? db_path : "(none)");
            return 0;
        }
        fprintf(stderr, "skmd-profile: %s: %s\n", db_path ? db_path : "(no path)",
                strerror(errno));
        return 1;
    }
    struct skmd_pdb *db = open_db(db_path);
    if (!db)
        return 1;
    int status = fn(db, cargc, cargv);
    skmd_pdb_close(db);
    return status;
}
