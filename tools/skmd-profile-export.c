/* skmd-profile export --json: the whole database as one JSON object, a list per table;
 * a read-only file of an older schema version is exported as it is. */
#include "skmd-profile-common.h"
#include "support/json.h"

#include <stdio.h>
#include <string.h>

/* "label [#####     ]  50% (5/10)" redrawn in place. */

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
    sqlite3_stmt *st = db_prepare(conn, "PRAGMA user_version");
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


int cmd_export(struct skmd_pdb *db, int argc, char **argv)
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
            return unexpected_argument(argv[0], argv[i]);
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
        present[t] = db_has_table(conn, export_tables[t].name);
        if (!present[t])
            continue;
        snprintf(sql, sizeof(sql), "SELECT count(*) FROM %s", export_tables[t].name);
        sqlite3_stmt *st = db_prepare(conn, sql);
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
        sqlite3_stmt *st = db_prepare(conn, export_sql(et, version));
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
                    skmd_json_string(out, column_text(st, c));
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
