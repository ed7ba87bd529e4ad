/* tools/skmd-trace: draws a libskmd trace (SKMD_TRACE) as an SVG/PNG timeline with one lane
 * per device, sums it up per kernel and device, and says how evenly each split launch's
 * devices finish; with --decisions, checks the partitioner's model against a decision log
 * (SKMD_DECISIONS). */
#include "balance.h"
#include "decisions.h"
#include "summary.h"
#include "svg.h"
#include "timeline.h"
#include "../../libskmd/support/version.h"

#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static void print_help(FILE *out)
{
    fprintf(out,
            "usage: skmd-trace [OPTIONS] TRACE.json\n"
            "usage: skmd-trace --decisions LOG.jsonl [--json] [--within PERCENT]\n"
            "Reads a Chrome trace written by libskmd (SKMD_TRACE=TRACE.json) and draws it: one\n"
            "lane per device, transfer in / kernel / transfer out / merge in their own colours,\n"
            "with a time axis. Prints a summary per kernel and device when nothing else is asked\n"
            "for, or with --summary.\n\n"
            "Options:\n"
            "  -o, --svg FILE   write the timeline as SVG\n"
            "  --png FILE       write it as PNG (needs rsvg-convert, Debian's librsvg2-bin)\n"
            "  --summary        print the per-kernel, per-device summary (columns: docs/tools.md)\n"
            "  --balance        per split launch: each device's finish time and the spread\n"
            "                   between them; per kernel: launches within --within, median\n"
            "                   and worst spread\n"
            "  --decisions LOG  read a decision log (SKMD_DECISIONS=LOG) instead of a trace:\n"
            "                   per kernel, launches and split launches; the model's\n"
            "                   split estimate against the measured wall time and slowest\n"
            "                   share (median and worst ratio); the first split launch\n"
            "                   whose shares' kernel times are within --within of each\n"
            "                   other (per process, the worst one shown) and how many are\n"
            "                   (columns: docs/tools.md)\n"
            "  --json           with --balance or --decisions: the same as one JSON object,\n"
            "                   alone on stdout\n"
            "  --within PERCENT the spread a balanced launch (--balance), or a split launch\n"
            "                   within (--decisions), may have (default 10)\n"
            "  --launch N       only the spans of the app's launch number N (args.launch)\n"
            "  --rows           one row per launch, each from its own start (many short\n"
            "                   launches, or a long first one)\n"
            "  --title TEXT     the picture's title (default: the trace's file name)\n"
            "  --width PIXELS   the picture's width, 400 to 20000 (default 1200)\n"
            "  --help           this text\n"
            "  --version        the version of libskmd it belongs to\n\n"
            "Example: SKMD_TRACE=t.json ./app && skmd-trace --svg t.svg --summary t.json\n"
            "         SKMD_DECISIONS=d.jsonl ./app && skmd-trace --decisions d.jsonl\n");
}

/* rsvg-convert SVG -> PNG; returns 0 or -1 after saying why. */
static int convert_to_png(const char *svg, const char *png)
{
    char *argv[] = {"rsvg-convert", "--format", "png", "--output", (char *)png, (char *)svg, NULL};
    pid_t pid;
    int rc = posix_spawnp(&pid, "rsvg-convert", NULL, NULL, argv, environ);
    if (rc != 0) {
        fprintf(stderr, "skmd-trace: cannot run rsvg-convert (%s): install librsvg2-bin "
                        "(`make deps` does) or use --svg\n", strerror(rc));
        return -1;
    }
    int status;
    if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "skmd-trace: rsvg-convert could not convert %s to %s\n", svg, png);
        return -1;
    }
    return 0;
}

static int rows_view; /* --rows */

static int write_svg_file(const char *path, const struct timeline *t, const char *title, int width)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "skmd-trace: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    int rc = rows_view ? svg_write_rows(f, t, title, width) : svg_write(f, t, title, width);
    if (fclose(f) != 0 || rc != 0) {
        fprintf(stderr, "skmd-trace: error writing %s\n", path);
        return -1;
    }
    return 0;
}

/* --decisions LOG: the model's check, alone (nothing of a trace goes with it). */
static int decisions_main(const char *log, const char *input, int trace_options, double within,
                          int json)
{
    if (input || trace_options) {
        fprintf(stderr, "skmd-trace: --decisions reads a decision log, not a trace: it goes "
                        "with --json and --within only (skmd-trace --help)\n");
        return 2;
    }
    char err[4400];
    if (decisions_write(stdout, log, within, json, err, sizeof(err)) != 0) {
        fprintf(stderr, "skmd-trace: %s\n", err);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *svg = NULL, *png = NULL, *title = NULL, *input = NULL, *decisions = NULL;
    int summary = 0, balance = 0, json = 0, width = 1200;
    double within = 0.10;
    long launch = -1;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        int has_value = i + 1 < argc;
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            print_help(stdout);
            return 0;
        } else if (strcmp(arg, "--version") == 0) {
            printf("skmd-trace (libskmd) %s\n", SKMD_VERSION);
            return 0;
        } else if (strcmp(arg, "--rows") == 0) {
            rows_view = 1;
        } else if (strcmp(arg, "--summary") == 0) {
            summary = 1;
        } else if (strcmp(arg, "--balance") == 0) {
            balance = 1;
        } else if (strcmp(arg, "--decisions") == 0 && has_value) {
            decisions = argv[++i];
        } else if (strcmp(arg, "--json") == 0) {
            json = 1;
        } else if (strcmp(arg, "--within") == 0 && has_value) {
            char *end;
            within = strtod(argv[++i], &end) / 100;
            if (*end || end == argv[i] || !(within > 0 && within <= 1)) {
                fprintf(stderr, "skmd-trace: --within %s: give a percentage above 0, up to "
                                "100\n", argv[i]);
                return 2;
            }
        } else if ((strcmp(arg, "-o") == 0 || strcmp(arg, "--svg") == 0) && has_value) {
            svg = argv[++i];
        } else if (strcmp(arg, "--png") == 0 && has_value) {
            png = argv[++i];
        } else if (strcmp(arg, "--title") == 0 && has_value) {
            title = argv[++i];
        } else if (strcmp(arg, "--width") == 0 && has_value) {
            char *end;
            long w = strtol(argv[++i], &end, 10);
            if (*end || w < 400 || w > 20000) {
                fprintf(stderr, "skmd-trace: --width %s: give a number of pixels from 400 to "
                                "20000\n", argv[i]);
                return 2;
            }
            width = (int)w;
        } else if (strcmp(arg, "--launch") == 0 && has_value) {
            char *end;
            launch = strtol(argv[++i], &end, 10);
            if (*end || launch < 0) {
                fprintf(stderr, "skmd-trace: --launch %s: give a launch number >= 0\n", argv[i]);
                return 2;
            }
        } else if (arg[0] == '-' && arg[1]) {
            fprintf(stderr, "skmd-trace: %s %s (skmd-trace --help)\n", arg,
                    has_value ? "is not an option" : "is not an option or lacks its value");
            return 2;
        } else if (!input) {
            input = arg;
        } else {
            fprintf(stderr, "skmd-trace: one trace at a time (got %s and %s)\n", input, arg);
            return 2;
        }
    }
    if (decisions)
        return decisions_main(decisions, input, svg || png || summary || balance || rows_view ||
                                                    title || launch >= 0 || width != 1200,
                              within, json);
    if (json && (!balance || summary)) {
        fprintf(stderr, "skmd-trace: --json goes with --balance, without --summary, or with "
                        "--decisions (the JSON object alone on stdout; skmd-trace --help)\n");
        return 2;
    }
    if (!input) {
        fprintf(stderr, "skmd-trace: no trace given; usage: skmd-trace [OPTIONS] TRACE.json "
                        "(skmd-trace --help)\n");
        return 2;
    }
    struct timeline t;
    char err[512];
    if (timeline_load(input, launch, &t, err, sizeof(err)) != 0) {
        fprintf(stderr, "skmd-trace: %s\n", err);
        return 1;
    }
    if (!title)
        title = input;
    int rc = 0;
    if (svg && write_svg_file(svg, &t, title, width) != 0)
        rc = 1;
    if (png && rc == 0) {
        char tmp[] = "/tmp/skmd-trace-XXXXXX.svg";
        const char *source = svg;
        if (!source) {
            int fd = mkstemps(tmp, 4);
            if (fd < 0) {
                fprintf(stderr, "skmd-trace: cannot make a temporary file: %s\n", strerror(errno));
                rc = 1;
            } else {
                close(fd);
                source = tmp;
                if (write_svg_file(tmp, &t, title, width) != 0)
                    rc = 1;
            }
        }
        if (rc == 0 && convert_to_png(source, png) != 0)
            rc = 1;
        if (!svg && source)
            unlink(tmp);
    }
    if ((summary || (!svg && !png && !balance)) && summary_write(stdout, &t) != 0)
        rc = 1;
    if (balance && balance_write(stdout, &t, within, json) != 0)
        rc = 1;
    timeline_free(&t);
    return rc;
}
