/* skmd-profile's access to the profile database shared by its commands: opening it as a
 * file, preparing a query, reading a column, asking whether a table exists. */
#include "skmd-profile-common.h"

#include <stdio.h>
#include <string.h>

/* The database's own word on a problem (cannot create it, moved a corrupt one aside). */
static void say_db_problem(void *user, const char *line)
{
    (void)user;
    fprintf(stderr, "skmd-profile: %s\n", line);
}

/* The library would carry on in memory with a database it cannot use as a file, which is
 * no use to a tool that reads or fills it. */
struct skmd_pdb *open_db(const char *path)
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

sqlite3_stmt *db_prepare(sqlite3 *conn, const char *sql)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(conn, sql, -1, &st, NULL) != SQLITE_OK) {
        fprintf(stderr, "skmd-profile: query failed: %s\n", sqlite3_errmsg(conn));
        return NULL;
    }
    return st;
}

const char *column_text(sqlite3_stmt *st, int col)
{
    const unsigned char *t = sqlite3_column_text(st, col);
    return t ? (const char *)t : "";
}

/* export writes a missing table as empty; show skips it. */
int db_has_table(sqlite3 *conn, const char *name)
{
    sqlite3_stmt *st = db_prepare(conn, "SELECT 1 FROM sqlite_master WHERE type = 'table'"
                                        " AND name = ?");
    if (!st)
        return 0;
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    int found = sqlite3_step(st) == SQLITE_ROW;
    sqlite3_finalize(st);
    return found;
}
