/* skmd-profile show KERNEL: one kernel's performance tables, then the measured guard's
 * stored states and the stored finish offsets, devices by name. */
#include "skmd-profile-common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    sqlite3_stmt *st = db_prepare(conn, "SELECT vendor || ' ' || name FROM devices WHERE id = ?");
    if (!st)
        return;
    sqlite3_bind_int64(st, 1, id);
    if (sqlite3_step(st) == SQLITE_ROW)
        snprintf(buf, size, "%s", column_text(st, 0));
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

/* The stored finish offsets of kernel `hash` (profiledb's offsets table): one line per
 * shape class and member list. A read-only file older than schema version 5 has none. */
static void show_offsets(sqlite3 *conn, const char *hash)
{
    if (!db_has_table(conn, "offsets"))
        return;
    sqlite3_stmt *st = db_prepare(conn, "SELECT shape, devices, device, ms FROM offsets WHERE"
                                        " kernel = ? ORDER BY shape, devices, device");
    if (!st)
        return;
    sqlite3_bind_text(st, 1, hash, -1, SQLITE_STATIC);
    char shape[32] = "", devices[200] = "", name[300], names[1200];
    while (sqlite3_step(st) == SQLITE_ROW) {
        if (strcmp(shape, column_text(st, 0)) || strcmp(devices, column_text(st, 1))) {
            snprintf(shape, sizeof shape, "%s", column_text(st, 0));
            snprintf(devices, sizeof devices, "%s", column_text(st, 1));
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
    sqlite3_stmt *st =
        db_prepare(conn, "SELECT shape, devices, split_ms, split_n, whole, whole_dev,"
                         " whole_mode, backoff, launches, retry_at,"
                         " datetime(updated, 'unixepoch'), policy FROM guards WHERE"
                         " kernel = ? ORDER BY shape, devices, policy, launch, buffers");
    if (!st)
        return;
    sqlite3_bind_text(st, 1, hash, -1, SQLITE_STATIC);
    while (sqlite3_step(st) == SQLITE_ROW) {
        char name[300], names[1200], whole[1200] = "";
        member_names(conn, column_text(st, 1), names, sizeof names);
        size_t used = 0;
        for (const char *p = column_text(st, 4); *p;) { /* "id:ms:samples,..." */
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
               "launches guarded):\n", column_text(st, 0), names, column_text(st, 11),
               column_text(st, 10), launches);
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

int cmd_show(struct skmd_pdb *db, int argc, char **argv)
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
    sqlite3_stmt *st = db_prepare(conn, "SELECT DISTINCT p.kernel FROM perf p LEFT JOIN"
                                        " kernels k ON k.hash = p.kernel"
                                        " WHERE p.kernel LIKE ?1 || '%' OR k.name = ?1");
    if (!st)
        return 1;
    sqlite3_bind_text(st, 1, argv[1], -1, SQLITE_STATIC);
    char hash[32] = "";
    int matches = 0;
    while (sqlite3_step(st) == SQLITE_ROW)
        if (matches++ == 0)
            snprintf(hash, sizeof(hash), "%s", column_text(st, 0));
    sqlite3_finalize(st);
    if (matches != 1) {
        fprintf(stderr, "skmd-profile show: %s kernel matches '%s'\n",
                matches ? "more than one" : "no", argv[1]);
        return 1;
    }
    st = db_prepare(conn, "SELECT d.vendor || ' ' || d.name, p.shape, p.range, p.rate,"
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
        table_row(&t, column_text(st, 0), column_text(st, 1), range, rate, column_text(st, 4));
    }
    sqlite3_finalize(st);
    printf("kernel %s\n", hash);
    table_print(stdout, &t);
    show_guards(conn, hash);
    show_offsets(conn, hash);
    return 0;
}
