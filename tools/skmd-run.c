/* tools/skmd-run: runs a program under libskmd, setting the SKMD_* controls from flags.
 *
 *   skmd-run [--devices gpu,cpu] [--mode split] [--trace t.json] [--report] ... -- app args
 *
 * One flag per control of libskmd/support/controls.def; the library is found next to this tool
 * (build tree or install tree) unless --lib names it. */
#include "support/config.h"
#include "support/version.h"

#include <ctype.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void print_help(FILE *out)
{
    fprintf(out,
            "usage: skmd-run [OPTIONS] [--] PROGRAM [ARGS...]\n"
            "Runs PROGRAM with libskmd preloaded (LD_PRELOAD), so that all the OpenCL devices\n"
            "of the machine look like one. Each control of libskmd has a flag that sets its\n"
            "SKMD_* variable: --NAME VALUE or --NAME=VALUE; a yes/no control is turned on by\n"
            "--NAME alone and off by --no-NAME.\n\n"
            "Options:\n"
            "  --lib PATH      the libskmd.so to preload (default: the one next to skmd-run:\n"
            "                  ./libskmd.so, ../libskmd/libskmd.so, ../lib/libskmd.so)\n"
            "  --dry-run       print the variables and the command instead of running it\n"
            "  --controls      list the controls (flag, variable, default, meaning) and exit\n"
            "  --help          this text\n"
            "  --version       the version of libskmd it belongs to\n\n"
            "Controls (details: skmd-run --controls, docs/controls.md):\n");
    for (size_t i = 0; i < skmd_control_count; i++) {
        const struct skmd_control_info *c = skmd_control_at(i);
        char flag[64];
        snprintf(flag, sizeof(flag), "--%s", c->name);
        for (char *p = flag; *p; p++)
            *p = *p == '_' ? '-' : *p;
        fprintf(out, "  %-24s %s\n", flag, c->env);
    }
    fprintf(out, "\nExample: skmd-run --devices gpu,cpu --trace t.json --report -- ./app\n");
}

/* The text wrapped before column 79, indented. */
static void print_wrapped(const char *text, int indent)
{
    int column = indent;
    printf("%*s", indent, "");
    while (*text) {
        text += strspn(text, " ");
        size_t word = strcspn(text, " ");
        if (!word)
            break;
        if (column > indent && column + 1 + (int)word > 78) {
            printf("\n%*s", indent, "");
            column = indent;
        } else if (column > indent) {
            putchar(' ');
            column++;
        }
        printf("%.*s", (int)word, text);
        column += (int)word;
        text += word;
    }
    putchar('\n');
}

static void print_controls(void)
{
    for (size_t i = 0; i < skmd_control_count; i++) {
        const struct skmd_control_info *c = skmd_control_at(i);
        char flag[64];
        snprintf(flag, sizeof(flag), "--%s", c->name);
        for (char *p = flag; *p; p++)
            *p = *p == '_' ? '-' : *p;
        printf("%s  (%s, %s, default: ", flag, c->env, c->type_name);
        if (c->type == SKMD_CONTROL_TYPE_choice)
            printf("%.*s; one of %s)\n", (int)strcspn(c->def, "|"), c->def, c->def);
        else
            printf("%s)\n", c->def[0] ? c->def : "empty");
        print_wrapped(c->doc, 4);
    }
}

/* Whether the control's flag alone turns it on (and --no-NAME off): a bool, or a choice
 * of 0, 1 and more (--report; --report=json for the others). */
static int is_yes_no(const struct skmd_control_info *c)
{
    char msg[160];
    return c->type == SKMD_CONTROL_TYPE_bool ||
           (c->type == SKMD_CONTROL_TYPE_choice &&
            skmd_control_check(c, "1", msg, sizeof msg) == 0 &&
            skmd_control_check(c, "0", msg, sizeof msg) == 0);
}

/* The control a flag such as "show-real" names, or NULL. */
static const struct skmd_control_info *control_of_flag(const char *flag, size_t len)
{
    char name[64];
    if (len >= sizeof(name))
        return NULL;
    snprintf(name, sizeof(name), "%.*s", (int)len, flag);
    return skmd_control_find(name);
}

static int fail_unknown_option(const char *arg)
{
    char env[80] = "SKMD_";
    size_t n = strcspn(arg + 2, "=");
    for (size_t i = 0; i < n && 5 + i < sizeof(env) - 1; i++) {
        char ch = arg[2 + i];
        env[5 + i] = ch == '-' ? '_' : (char)toupper((unsigned char)ch);
        env[6 + i] = '\0';
    }
    const struct skmd_control_info *c = skmd_control_closest(env);
    char flag[64];
    snprintf(flag, sizeof(flag), "--%s", c->name);
    for (char *p = flag; *p; p++)
        *p = *p == '_' ? '-' : *p;
    fprintf(stderr, "skmd-run: unknown option %s; did you mean %s? (skmd-run --help)\n", arg,
            flag);
    return 2;
}

/* Finds libskmd.so relative to this program (build tree, then install tree). */
static int find_library(char *out, size_t size)
{
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
    if (n <= 0)
        return -1;
    self[n] = '\0';
    const char *dir = dirname(self);
    static const char *const candidates[] = {"libskmd.so", "../libskmd/libskmd.so",
                                             "../lib/libskmd.so", "../lib/skmd/libskmd.so"};
    for (size_t i = 0; i < sizeof(candidates) / sizeof(candidates[0]); i++) {
        char path[PATH_MAX + 64];
        snprintf(path, sizeof(path), "%s/%s", dir, candidates[i]);
        if (access(path, R_OK) == 0 && realpath(path, out) && strlen(out) < size)
            return 0;
    }
    fprintf(stderr,
            "skmd-run: cannot find libskmd.so next to %s (looked for ./libskmd.so, "
            "../libskmd/libskmd.so, ../lib/libskmd.so, ../lib/skmd/libskmd.so); build it with "
            "`make` or name it with --lib PATH\n",
            dir);
    return -1;
}

int main(int argc, char **argv)
{
    const char *lib = NULL;
    int dry_run = 0, i = 1;
    for (; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "--") == 0) {
            i++;
            break;
        }
        if (strncmp(arg, "--", 2) != 0)
            break; /* the program */
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            print_help(stdout);
            return 0;
        }
        if (strcmp(arg, "--version") == 0) {
            printf("skmd-run (libskmd) %s\n", SKMD_VERSION);
            return 0;
        }
        if (strcmp(arg, "--controls") == 0) {
            print_controls();
            return 0;
        }
        if (strcmp(arg, "--dry-run") == 0) {
            dry_run = 1;
            continue;
        }
        if (strncmp(arg, "--lib", 5) == 0 && (arg[5] == '\0' || arg[5] == '=')) {
            lib = arg[5] ? arg + 6 : (i + 1 < argc ? argv[++i] : NULL);
            if (!lib || !*lib) {
                fprintf(stderr, "skmd-run: --lib needs the path of libskmd.so\n");
                return 2;
            }
            continue;
        }
        const char *flag = arg + 2, *eq = strchr(flag, '=');
        size_t len = eq ? (size_t)(eq - flag) : strlen(flag);
        int negated = strncmp(flag, "no-", 3) == 0;
        const struct skmd_control_info *c = control_of_flag(flag, len);
        if (!c && negated) {
            c = control_of_flag(flag + 3, len - 3);
            if (!c || !is_yes_no(c) || eq)
                return fail_unknown_option(arg);
        }
        if (!c)
            return fail_unknown_option(arg);
        const char *value;
        if (negated)
            value = "0";
        else if (eq)
            value = eq + 1;
        else if (is_yes_no(c))
            value = "1";
        else if (i + 1 < argc)
            value = argv[++i];
        else {
            fprintf(stderr, "skmd-run: %s needs a value (skmd-run --controls)\n", arg);
            return 2;
        }
        char msg[160];
        if (skmd_control_check(c, value, msg, sizeof(msg)) != 0) {
            fprintf(stderr, "skmd-run: --%.*s %s: %s\n", (int)len, flag, value, msg);
            return 2;
        }
        if (setenv(c->env, value, 1) != 0) {
            fprintf(stderr, "skmd-run: cannot set %s: %s\n", c->env, strerror(errno));
            return 1;
        }
    }
    if (i >= argc) {
        fprintf(stderr, "skmd-run: no program to run; usage: skmd-run [OPTIONS] [--] PROGRAM "
                        "[ARGS...] (skmd-run --help)\n");
        return 2;
    }
    char found[PATH_MAX];
    if (!lib) {
        if (find_library(found, sizeof(found)) != 0)
            return 1;
        lib = found;
    } else if (access(lib, R_OK) != 0) {
        fprintf(stderr, "skmd-run: --lib %s: %s\n", lib, strerror(errno));
        return 1;
    }
    const char *old = getenv("LD_PRELOAD");
    char *preload;
    if (asprintf(&preload, "%s%s%s", lib, old && *old ? ":" : "", old && *old ? old : "") < 0)
        return 1;
    setenv("LD_PRELOAD", preload, 1);
    free(preload);
    if (dry_run) {
        extern char **environ;
        for (char **e = environ; *e; e++)
            if (strncmp(*e, "SKMD_", 5) == 0 || strncmp(*e, "LD_PRELOAD=", 11) == 0)
                printf("%s\n", *e);
        for (int k = i; k < argc; k++)
            printf("%s%s", argv[k], k + 1 < argc ? " " : "\n");
        return 0;
    }
    execvp(argv[i], argv + i);
    fprintf(stderr, "skmd-run: cannot run %s: %s\n", argv[i], strerror(errno));
    return 127;
}
