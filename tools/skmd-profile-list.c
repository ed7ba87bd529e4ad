/* skmd-profile list: the kernels that have performance tables, one line each. */
#include "skmd-profile-common.h"

#include <stdio.h>
#include <stdlib.h>

static const char list_help[] =
    "usage: skmd-profile [--db PATH] list\n"
    "Lists the kernels that have performance tables: hash, name, devices, shape classes,\n"
    "measurements and the decisions logged for them.\n";

int cmd_list(struct skmd_pdb *db, int argc, char **argv)
{
    int usage = no_arguments(list_help, argc, argv);
    if (usage >= 0)
        return usage;
    sqlite3_stmt *st = db_prepare(
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
        table_row(&t, column_text(st, 0), column_text(st, 1), column_text(st, 2),
                  column_text(st, 3), column_text(st, 4), column_text(st, 5));
    sqlite3_finalize(st);
    if (t.nrows == 0) {
        free(t.cells);
        printf("no profiles in %s\n", skmd_pdb_path(db));
        return 0;
    }
    table_print(stdout, &t);
    return 0;
}
