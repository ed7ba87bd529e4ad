/* skmd-profile: look at, export and clear libskmd's profile database, and fill it.
 *
 *   skmd-profile [--db PATH] list | show KERNEL | export --json | clear | run | calibrate
 *
 * This file is the command line: the --db option, the global flags and the dispatch to the
 * commands (one file each, skmd-profile-COMMAND.c; the argument checks they share are in
 * skmd-profile-common.c).
 * list, show, export and clear get the database opened here; run and calibrate open it
 * themselves.
 */
#include "skmd-profile-common.h"
#include "support/version.h"
#include "support/config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

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
        size_t d = skmd_edit_distance(word, commands[c]);
        if (d < best_d) {
            best_d = d;
            best = commands[c];
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
