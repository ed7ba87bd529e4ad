/* tests/controls: the SKMD_* parser (libskmd/support/config.c) and the log (libskmd/support/log.c).
 *
 * Parses explicit environments, then re-runs itself as a child with a real environment to
 * check what a process prints: one warning per misspelt variable, log levels, log file. */
#include "support/config.h"
#include "support/log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../common/check.h"

static int warnings_mention(const struct skmd_config_warnings *w, const char *a, const char *b)
{
    for (int i = 0; i < w->count; i++)
        if (strstr(w->text[i], a) && (!b || strstr(w->text[i], b)))
            return 1;
    return 0;
}

static void test_defaults(void)
{
    char *env[] = {"HOME=/home/u", NULL};
    struct skmd_config cfg;
    struct skmd_config_warnings w;
    skmd_config_parse(&cfg, env, &w);
    CHECK(w.count == 0);
    CHECK(strcmp(cfg.mode, "split") == 0);
    CHECK(strcmp(cfg.devices, "") == 0);
    CHECK(strcmp(cfg.split, "") == 0);
    CHECK(cfg.show_real == 0 && strcmp(cfg.report, "0") == 0 && cfg.refine == 1);
    CHECK(cfg.min_split_workgroups == 16);
    CHECK(strcmp(cfg.log, "warn") == 0);
    CHECK(strcmp(cfg.trace, "") == 0);
    CHECK(strcmp(cfg.cache_dir, "/home/u/.cache/skmd") == 0);
    CHECK(strcmp(cfg.profile_db, "/home/u/.cache/skmd/profile.db") == 0);
    skmd_config_release(&cfg);
}

static void test_values(void)
{
    char *env[] = {"SKMD_DEVICES=gpu,cpu", "SKMD_MODE=single",  "SKMD_SPLIT=0.3,0.7",
                   "SKMD_SHOW_REAL=yes",   "SKMD_REPORT=On",    "SKMD_REFINE=false",
                   "SKMD_LOG=debug:/tmp/x.log", "SKMD_TRACE=t.json", "SKMD_MIN_SPLIT_WORKGROUPS=0",
                   "XDG_CACHE_HOME=/xdg",  "SKMD_PROFILE_DB=/p.db", "OTHER=1", NULL};
    struct skmd_config cfg;
    struct skmd_config_warnings w;
    skmd_config_parse(&cfg, env, &w);
    CHECK(w.count == 0);
    CHECK(strcmp(cfg.devices, "gpu,cpu") == 0);
    CHECK(strcmp(cfg.mode, "single") == 0);
    CHECK(strcmp(cfg.split, "0.3,0.7") == 0);
    CHECK(cfg.show_real == 1 && strcmp(cfg.report, "1") == 0 && cfg.refine == 0); /* On: 1 */
    CHECK(strcmp(cfg.log, "debug:/tmp/x.log") == 0);
    CHECK(strcmp(cfg.trace, "t.json") == 0);
    CHECK(cfg.min_split_workgroups == 0);
    CHECK(strcmp(cfg.cache_dir, "/xdg/skmd") == 0);
    CHECK(strcmp(cfg.profile_db, "/p.db") == 0);
    skmd_config_release(&cfg);

    /* the profile DB follows a chosen cache directory */
    char *env2[] = {"SKMD_CACHE_DIR=/c", NULL};
    skmd_config_parse(&cfg, env2, &w);
    CHECK(strcmp(cfg.profile_db, "/c/profile.db") == 0);
    skmd_config_release(&cfg);
}

static void test_bad_values(void)
{
    char *env[] = {"SKMD_MODE=fastest", "SKMD_REPORT=maybe", "SKMD_MIN_SPLIT_WORKGROUPS=-4",
                   "SKMD_LOG=loud", "SKMD_SHOW_REAL=", "SKMD_MIN_SPLIT_WORKGROUPS_X=1", NULL};
    struct skmd_config cfg;
    struct skmd_config_warnings w;
    skmd_config_parse(&cfg, env, &w);
    CHECK(strcmp(cfg.mode, "split") == 0);
    CHECK(strcmp(cfg.report, "0") == 0 && cfg.show_real == 0);
    CHECK(cfg.min_split_workgroups == 16);
    CHECK(strcmp(cfg.log, "warn") == 0);
    CHECK(warnings_mention(&w, "SKMD_MODE=fastest", "split, single, passthrough"));
    CHECK(warnings_mention(&w, "SKMD_MODE=fastest", "default \"split\""));
    CHECK(warnings_mention(&w, "SKMD_REPORT=maybe", "not one of: 0, 1, json"));
    CHECK(warnings_mention(&w, "SKMD_MIN_SPLIT_WORKGROUPS=-4", "default \"16\""));
    CHECK(warnings_mention(&w, "SKMD_LOG=loud", "log level"));
    CHECK(warnings_mention(&w, "SKMD_SHOW_REAL=", "yes/no"));
    CHECK(warnings_mention(&w, "SKMD_MIN_SPLIT_WORKGROUPS_X is not", "SKMD_MIN_SPLIT_WORKGROUPS?"));
    CHECK(w.count == 6);
    skmd_config_release(&cfg);
}

static void test_typos(void)
{
    char *env[] = {"SKMD_DEVICE=gpu", "SKMD_TRACEE=x", "SKMD_reprot=1", "SKMDX_MODE=1",
                   "SKMD_STUB_DEVICES=3", NULL};
    struct skmd_config cfg;
    struct skmd_config_warnings w;
    skmd_config_parse(&cfg, env, &w);
    CHECK(w.count == 3); /* SKMDX_ is not ours, SKMD_STUB_ is the stub ICD's */
    CHECK(warnings_mention(&w, "SKMD_DEVICE is not", "did you mean SKMD_DEVICES?"));
    CHECK(warnings_mention(&w, "SKMD_TRACEE is not", "did you mean SKMD_TRACE?"));
    CHECK(warnings_mention(&w, "SKMD_reprot is not", "did you mean SKMD_REPORT?"));
    CHECK(strcmp(cfg.devices, "") == 0); /* a typo does not set anything */
    skmd_config_release(&cfg);

    /* Another program's SKMD_* variables, far from every control: a debug note each. */
    char *foreign[] = {"SKMD_LIB=/opt/skmd/lib", "SKMD_HOME=/opt/skmd", "SKMD_LOGG=info", NULL};
    skmd_config_parse(&cfg, foreign, &w);
    CHECK(w.count == 1); /* SKMD_LOGG is one edit from SKMD_LOG */
    CHECK(warnings_mention(&w, "SKMD_LOGG is not", "did you mean SKMD_LOG?"));
    CHECK(w.note_count == 2);
    CHECK(strstr(w.note[0], "SKMD_LIB") && strstr(w.note[1], "SKMD_HOME"));
    skmd_config_release(&cfg);

    CHECK(strcmp(skmd_control_closest("SKMD_SHOWREAL")->env, "SKMD_SHOW_REAL") == 0);
    CHECK(strcmp(skmd_control_closest("SKMD_PROFILEDB")->env, "SKMD_PROFILE_DB") == 0);
}

static void test_table(void)
{
    CHECK(skmd_control_count >= 8);
    CHECK(skmd_control_find("show-real") == skmd_control_find("SKMD_SHOW_REAL"));
    CHECK(skmd_control_find("show_real") && !skmd_control_find("show"));
    CHECK(skmd_control_at(skmd_control_count) == NULL);
    for (size_t i = 0; i < skmd_control_count; i++) {
        const struct skmd_control_info *c = skmd_control_at(i);
        char msg[160];
        /* every default is a valid value of its own control, every doc says something */
        if (c->type != SKMD_CONTROL_TYPE_choice)
            CHECK(skmd_control_check(c, c->def, msg, sizeof(msg)) == 0);
        CHECK(strlen(c->doc) > 20);
        CHECK(strncmp(c->env, "SKMD_", 5) == 0 && strlen(c->env) == 5 + strlen(c->name));
    }
    enum skmd_log_level level;
    const char *file;
    CHECK(skmd_log_parse("info", &level, &file) == 0 && level == SKMD_LOG_INFO && !file);
    CHECK(skmd_log_parse("ERROR:/a/b", &level, &file) == 0 && level == SKMD_LOG_ERROR &&
          strcmp(file, "/a/b") == 0);
    CHECK(skmd_log_parse("debug:", &level, &file) != 0);
    CHECK(skmd_log_parse("verbose", &level, &file) != 0);
}

/* Runs this program as `--child` with `env`; returns its stderr (caller frees). */
static char *run_child(const char *self, char *const *env)
{
    int fds[2];
    if (pipe(fds) != 0)
        return NULL;
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fds[1], STDERR_FILENO);
        close(fds[0]);
        close(fds[1]);
        execle(self, self, "--child", (char *)NULL, env);
        _exit(127);
    }
    close(fds[1]);
    size_t size = 0, cap = 4096;
    char *out = malloc(cap);
    ssize_t n;
    while (out && (n = read(fds[0], out + size, cap - size - 1)) > 0) {
        size += (size_t)n;
        if (cap - size < 2) {
            char *bigger = realloc(out, cap *= 2);
            if (!bigger) {
                free(out);
                out = NULL;
            }
            out = bigger;
        }
    }
    close(fds[0]);
    int status;
    waitpid(pid, &status, 0);
    if (out)
        out[size] = '\0';
    return out;
}

static int count(const char *haystack, const char *needle)
{
    int n = 0;
    for (const char *p = haystack; (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

static void test_process(const char *self)
{
    char *env[] = {"SKMD_DEVICSE=gpu", "SKMD_LOG=info", NULL};
    char *err = run_child(self, env);
    CHECK(err != NULL);
    if (err) {
        CHECK(count(err, "libskmd: warn: SKMD_DEVICSE is not a libskmd control") == 1);
        CHECK(count(err, "did you mean SKMD_DEVICES?") == 1);
        CHECK(count(err, "libskmd: info: child info") == 1);
        CHECK(count(err, "child debug") == 0);
        free(err);
    }

    char path[] = "/tmp/skmd-test-log-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    close(fd);
    char spec[64];
    snprintf(spec, sizeof(spec), "SKMD_LOG=debug:%s", path);
    char *env2[] = {spec, NULL};
    err = run_child(self, env2);
    CHECK(err && count(err, "child") == 0); /* all went to the file */
    free(err);
    FILE *f = fopen(path, "r");
    char text[4096] = "";
    if (f) {
        text[fread(text, 1, sizeof(text) - 1, f)] = '\0';
        fclose(f);
    }
    CHECK(count(text, "libskmd: info: child info\n") == 1);
    CHECK(count(text, "libskmd: debug: child debug 42\n") == 1);
    unlink(path);

    char *env3[] = {"SKMD_LOG=error", "SKMD_MODE=bogus", NULL};
    err = run_child(self, env3);
    CHECK(err && count(err, "child") == 0 && count(err, "SKMD_MODE") == 0); /* warn is off */
    free(err);
}

static int child(void)
{
    for (int i = 0; i < 3; i++)
        CHECK(skmd_config() == skmd_config());
    skmd_log(SKMD_LOG_INFO, "child info");
    skmd_log(SKMD_LOG_DEBUG, "child debug %d", 42);
    return check_failures != 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--child") == 0)
        return child();
    test_defaults();
    test_values();
    test_bad_values();
    test_typos();
    test_table();
    test_process(argv[0]);
    return check_report("test-controls");
}
