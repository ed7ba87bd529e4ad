/* tests/profiledb/pdb_test.h: what the profiledb unit tests share: a scratch directory
 * for their files, the reports profiledb makes, opening old and read-only files, a
 * one-number SQL query, writer processes at once, a child run as an unprivileged user,
 * and files of older schemas. */
#ifndef SKMD_PDB_TEST_H
#define SKMD_PDB_TEST_H

#include "skmd_profiledb.h"

#include <stddef.h>

/* The scratch directory: made by root_dir_make, removed (with all in it) by root_dir_remove. */
extern char root_dir[256];

/* Makes /tmp/skmd-TEST-XXXXXX, mode 0755 (children that drop to nobody read it);
 * returns 0, or -1 after printing why. */
int root_dir_make(const char *test);
/* Makes the tree writable again (tests take write access away) and removes it. */
void root_dir_remove(const char *test);
/* root_dir/name into buf. */
void path_in(char *buf, size_t size, const char *name);

/* The messages profiledb reports through its callback, one a line. */
struct reports {
    int count;
    char all[8192];
};
void collect(void *user, const char *message); /* user: a struct reports */
/* Opens the old-schema file at path, its reports into *rep, and checks that it opened
 * for writing with one report: the upgrade from schema `from`. NULL when it did not open. */
struct skmd_pdb *open_upgraded(const char *path, int from, struct reports *rep);
/* Opens root_dir/name (its path into path), made new, and checks that it opened for
 * writing. NULL when it did not open. */
struct skmd_pdb *open_scratch(const char *name, char *path, size_t size);
/* Opens the read-only file root_dir/name and checks that it opened, not for writing, and
 * said "read-only". NULL when it did not open. */
struct skmd_pdb *open_read_only(const char *name);
/* query_number on the file at path, opened read-only with SQLite alone; -1 when it
 * fails. */
long long query_file(const char *path, const char *sql);
/* A database file root_dir/dir/file that write(path) made, then the file and its
 * directory made read-only; its path in path. */
void read_only_file(const char *dir, const char *file, void (*write)(const char *path),
                    char *path, size_t size);
/* Whether root_dir/name was moved aside as corrupt (a name.corrupt-* file is there). */
int moved_aside(const char *name);

/* Runs sql on the database's connection; SQLite's status. */
int run_sql(struct skmd_pdb *db, const char *sql);
/* The first column of the first row of sql, or -1 when it fails. */
long long query_number(struct skmd_pdb *db, const char *sql);

/* Runs write(db, w) for w = 0 .. count-1 (at most 16) in as many processes at once, each
 * on its own connection to path (its reports dropped), and checks that every one opened
 * the file and that its write returned 0. */
void run_writers(const char *path, int count, int (*write)(struct skmd_pdb *db, int writer));

/* Runs fn in a child process as an unprivileged user (so that permissions apply even when
 * the tests run as root); returns the child's failure count. */
int as_nobody(void (*fn)(void));

/* A database file at path as a libskmd of schema `version` (1 to 4) left it: that
 * version's tables, then rows_sql (INSERTs), then its application id and version. */
void write_old_schema(const char *path, int version, const char *rows_sql);

#endif
