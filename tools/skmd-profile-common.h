/* tools/skmd-profile-common.h: what skmd-profile's files share: the commands, one file
 * each, and the helpers for the command line, the database and the tables they print. */
#ifndef SKMD_PROFILE_COMMON_H
#define SKMD_PROFILE_COMMON_H

#include <sqlite3.h>
#include <stdio.h>

#include "skmd_profiledb.h"

#define EXIT_USAGE 2

/* ---- The commands: argv[0] is the command's name; each returns the exit status -------- */

/* list, show, export and clear work on the database main opened (NULL for --help). */
int cmd_list(struct skmd_pdb *db, int argc, char **argv);   /* skmd-profile-list.c */
int cmd_show(struct skmd_pdb *db, int argc, char **argv);   /* skmd-profile-show.c */
int cmd_export(struct skmd_pdb *db, int argc, char **argv); /* skmd-profile-export.c */
int cmd_clear(struct skmd_pdb *db, int argc, char **argv);  /* skmd-profile-clear.c */
/* run and calibrate open the database at `db_path` themselves: their --help needs none. */
int cmd_run(const char *db_path, int argc, char **argv);       /* skmd-profile-run.c */
int cmd_calibrate(const char *db_path, int argc, char **argv); /* skmd-profile-calibrate.c */

/* ---- The command line (skmd-profile-common.c) ----------------------------------------- */

/* 1 when --help or -h is among the arguments. */
int wants_help(int argc, char **argv);
/* For a command that takes no arguments: 0 after printing `help` for --help, EXIT_USAGE
 * after saying which argument is unexpected, -1 when there are none (carry on). */
int no_arguments(const char *help, int argc, char **argv);
/* Says that `command` does not take `arg`; EXIT_USAGE. */
int unexpected_argument(const char *command, const char *arg);

/* ---- The database (skmd-profile-db.c) ------------------------------------------------- */

/* The database at `path`; NULL, said in one line, when it cannot be used as a file. */
struct skmd_pdb *open_db(const char *path);
/* A prepared statement, or NULL with the error said on stderr. */
sqlite3_stmt *db_prepare(sqlite3 *conn, const char *sql);
/* Column `col` of the current row as text ("" for NULL). */
const char *column_text(sqlite3_stmt *st, int col);
/* 0 for a table that a read-only file of an older schema version lacks (skmd_pdb_open
 * upgrades a writable one). */
int db_has_table(sqlite3 *conn, const char *name);

/* ---- Summary tables (skmd-profile-table.c): columns sized to their widest cell -------- */

#define TABLE_MAX_COLS 8
#define TABLE_CELL 64

struct table {
    int ncols, nrows, cap;
    const char *header[TABLE_MAX_COLS];
    int right[TABLE_MAX_COLS]; /* numbers are right-aligned */
    char (*cells)[TABLE_MAX_COLS][TABLE_CELL];
};

/* Adds a row of t->ncols strings. */
void table_row(struct table *t, ...);
/* Prints the header and the rows, then frees the rows. */
void table_print(FILE *out, struct table *t);

#endif
