/* skmd-profile run: runs an application under libskmd with the profiling sweep
 * (SKMD_PROFILE_SWEEP: the first launches of each kernel run on each member alone, then
 * with each member at smaller shares), the tables written to the database after every
 * launch so that progress can be shown, then prints the measured rates. */
#include <errno.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "skmd-profile-common.h"

/* libskmd.so next to this program: the build tree, then the install tree. */
static int find_libskmd(char *out, size_t size)
{
    const char *given = getenv("SKMD_PROFILE_LIB");
    if (given && *given) {
        snprintf(out, size, "%s", given);
        return access(out, R_OK) == 0 ? 0 : -1;
    }
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        return -1;
    self[n] = 0;
    char *slash = strrchr(self, '/');
    if (slash)
        *slash = 0;
    static const char *const candidates[] = {"libskmd.so", "../libskmd/libskmd.so",
                                             "../lib/libskmd.so", "../lib/skmd/libskmd.so"};
    for (size_t i = 0; i < sizeof candidates / sizeof candidates[0]; i++) {
        if (snprintf(out, size, "%.3000s/%s", self, candidates[i]) >= (int)size)
            continue;
        if (access(out, R_OK) == 0)
            return 0;
    }
    return -1;
}

/* Measurements stored so far (the sum of samples over every table). */
static long long measurements(struct skmd_pdb *db)
{
    sqlite3_stmt *st = NULL;
    long long n = 0;
    if (sqlite3_prepare_v2(skmd_pdb_sqlite(db), "SELECT coalesce(sum(samples), 0) FROM perf",
                           -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
        n = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return n;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The tables as they were before the run, to print only what it measured. */
static void remember_tables(struct skmd_pdb *db)
{
    sqlite3_exec(skmd_pdb_sqlite(db),
                 "DROP TABLE IF EXISTS temp.before;"
                 "CREATE TEMP TABLE before AS SELECT kernel, device, shape, range, samples"
                 " FROM perf", NULL, NULL, NULL);
}

/* KERNEL  DEVICE  WORK-GROUPS  WG/MS  SAMPLES for every range this run measured. */
static void summary(struct skmd_pdb *db)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(skmd_pdb_sqlite(db),
                           "SELECT coalesce(k.name, p.kernel), d.name, p.range, max(p.rate),"
                           " sum(p.samples - coalesce(b.samples, 0))"
                           " FROM perf p JOIN devices d ON d.id = p.device"
                           " LEFT JOIN kernels k ON k.hash = p.kernel"
                           " LEFT JOIN temp.before b ON b.kernel = p.kernel"
                           "  AND b.device = p.device AND b.shape = p.shape"
                           "  AND b.range = p.range"
                           " WHERE p.samples > coalesce(b.samples, 0)"
                           " GROUP BY 1, p.device, p.range ORDER BY 1, p.device, p.range",
                           -1, &st, NULL) != SQLITE_OK) {
        fprintf(stderr, "skmd-profile run: %s\n", sqlite3_errmsg(skmd_pdb_sqlite(db)));
        return;
    }
    int rows = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        if (rows++ == 0)
            printf("%-24s  %-50s  %13s  %12s  %7s\n", "KERNEL", "DEVICE", "WORK-GROUPS",
                   "WG/MS", "SAMPLES");
        int k = sqlite3_column_int(st, 2);
        char range[32];
        if (k >= SKMD_PDB_RANGES - 1)
            snprintf(range, sizeof range, ">= %d", 1 << k);
        else
            snprintf(range, sizeof range, "%d-%d", 1 << k, (2 << k) - 1);
        printf("%-24s  %-50s  %13s  %12.3f  %7d\n",
               (const char *)sqlite3_column_text(st, 0),
               (const char *)sqlite3_column_text(st, 1), range, sqlite3_column_double(st, 3),
               sqlite3_column_int(st, 4));
    }
    sqlite3_finalize(st);
    if (!rows)
        printf("no kernel launch was measured (was any launch split-capable?)\n");
}

/* Runs `app` with the sweep of `sizes` share sizes; APP's exit status. */
static int profile_app(struct skmd_pdb *db, long long sizes, char **app)
{
    char lib[4096], sweep[32];
    if (find_libskmd(lib, sizeof lib) != 0) {
        fprintf(stderr, "skmd-profile run: cannot find libskmd.so next to skmd-profile "
                "(set SKMD_PROFILE_LIB)\n");
        return 1;
    }
    if (!skmd_pdb_persistent(db)) {
        fprintf(stderr, "skmd-profile run: the database %s cannot be written\n",
                skmd_pdb_path(db));
        return 1;
    }
    snprintf(sweep, sizeof sweep, "%lld", sizes);
    remember_tables(db);
    long long before = measurements(db);
    double t0 = now_s();
    /* The child tells a failed exec through this pipe (closed on a good one): a program
     * that cannot be run gets one line, not a run of nothing. */
    int report[2];
    if (pipe2(report, O_CLOEXEC) != 0) {
        perror("skmd-profile run: pipe");
        return 1;
    }
    pid_t pid = fork();
    if (pid < 0) {
        perror("skmd-profile run: fork");
        return 1;
    }
    if (pid == 0) {
        close(report[0]);
        setenv("LD_PRELOAD", lib, 1);
        setenv("SKMD_PROFILE_SWEEP", sweep, 1);
        setenv("SKMD_PROFILE_FLUSH", "1", 1);
        setenv("SKMD_PROFILE_DB", skmd_pdb_path(db), 1);
        execvp(app[0], app);
        int err = errno;
        if (write(report[1], &err, sizeof err) != (ssize_t)sizeof err)
            _exit(126);
        _exit(127);
    }
    close(report[1]);
    int exec_errno = 0;
    ssize_t got_errno = read(report[0], &exec_errno, sizeof exec_errno);
    close(report[0]);
    if (got_errno == (ssize_t)sizeof exec_errno) {
        waitpid(pid, NULL, 0);
        fprintf(stderr, "skmd-profile run: cannot run %s: %s\n", app[0], strerror(exec_errno));
        return 127;
    }
    int tty = isatty(STDERR_FILENO), status = 0;
    for (;;) {
        pid_t done = waitpid(pid, &status, WNOHANG);
        if (done == pid || (done < 0 && errno != EINTR))
            break;
        if (tty)
            fprintf(stderr, "\rprofiling %s: %.1f s, %lld measurements", app[0],
                    now_s() - t0, measurements(db) - before);
        usleep(200000);
    }
    long long got = measurements(db) - before;
    fprintf(stderr, "%sprofiled %s in %.2f s: %lld measurements\n", tty ? "\r" : "", app[0],
            now_s() - t0, got);
    summary(db);
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    fprintf(stderr, "skmd-profile run: %s was killed by signal %d\n", app[0],
            WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    return 1;
}

static const char run_help[] =
    "usage: skmd-profile [--db PATH] run [--launches N] -- APP [ARGS...]\n"
    "Runs APP under libskmd with the profiling sweep: each kernel's first launches run on\n"
    "each device alone, then with each device at N-1 smaller shares (N share sizes,\n"
    "default 3: all, a quarter, a sixteenth), recording the rates; shows progress, then\n"
    "prints the measured work-groups/ms per kernel, device and size range. libskmd.so is\n"
    "found next to skmd-profile, or given by SKMD_PROFILE_LIB. Exits with APP's status.\n";

static int positive_number(const char *s, long long *value)
{
    char *end;
    long long v = strtoll(s, &end, 10);
    if (!*s || *end || v <= 0)
        return 0;
    *value = v;
    return 1;
}

int cmd_run(const char *db_path, int argc, char **argv)
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
            return unexpected_argument(argv[0], argv[i]);
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
    int status = profile_app(db, launches, argv + i + 1);
    skmd_pdb_close(db);
    return status;
}
