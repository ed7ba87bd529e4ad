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
    CHECK(cfg.mode == SKMD_MODE_SPLIT);
    CHECK(strcmp(cfg.devices, "") == 0);
    CHECK(strcmp(cfg.split, "") == 0);
    CHECK(cfg.show_real == 0 && cfg.report == SKMD_REPORT_OFF && cfg.refine == 1);
    CHECK(cfg.place_writes == SKMD_PLACE_WRITES_OFF && cfg.policy == SKMD_POLICY_SKMD);
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
    CHECK(cfg.mode == SKMD_MODE_SINGLE);
    CHECK(strcmp(cfg.split, "0.3,0.7") == 0);
    CHECK(cfg.show_real == 1 && cfg.report == SKMD_REPORT_TABLE && cfg.refine == 0); /* On: 1 */
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
    CHECK(cfg.mode == SKMD_MODE_SPLIT);
    CHECK(cfg.report == SKMD_REPORT_OFF && cfg.show_real == 0);
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

/* The value a parse of "SKMD_<NAME>=text" gives the choice control c, or -1 when it warned
 * (then the field must hold the default, 0); `warning` gets the warning's text. */
static int parse_choice(const struct skmd_control_info *c, const char *text, char *warning,
                        size_t size)
{
    char var[192];
    snprintf(var, sizeof var, "%s=%s", c->env, text);
    char *env[] = {var, NULL};
    struct skmd_config cfg;
    struct skmd_config_warnings w;
    skmd_config_parse(&cfg, env, &w);
    int value = *(const int *)(const void *)((const char *)&cfg + c->offset);
    snprintf(warning, size, "%s", w.count ? w.text[0] : "");
    CHECK(w.count <= 1);
    if (w.count)
        CHECK(value == 0);
    skmd_config_release(&cfg);
    return w.count ? -1 : value;
}

/* Every choice: each word parses to its enum value and back, an unknown word is refused
 * with the accepted words, and yes/no words map to 1 and 0 where the list holds both. */
static void test_choices(void)
{
    static const char *const yes[] = {"1", "yes", "TRUE", "On"}, *const no[] = {"0", "No",
                                                                               "false", "off"};
    char warning[320], expected[320];
    size_t nchoices = 0;
    for (size_t i = 0; i < skmd_control_count; i++) {
        const struct skmd_control_info *c = skmd_control_at(i);
        if (c->type != SKMD_CONTROL_TYPE_choice) {
            CHECK(c->words == NULL && c->nwords == 0 && skmd_control_choice(c, "0") == -1);
            continue;
        }
        nchoices++;
        CHECK(c->nwords >= 2);
        /* def: the words joined by '|', as the listings print it */
        char joined[256] = "", listed[256] = "";
        int one = -1, zero = -1;
        for (int v = 0; v < c->nwords; v++) {
            const char *word = c->words[v];
            snprintf(joined + strlen(joined), sizeof joined - strlen(joined), "%s%s",
                     v ? "|" : "", word);
            snprintf(listed + strlen(listed), sizeof listed - strlen(listed), "%s%s",
                     v ? ", " : "", word);
            one = strcmp(word, "1") == 0 ? v : one;
            zero = strcmp(word, "0") == 0 ? v : zero;
            CHECK(parse_choice(c, word, warning, sizeof warning) == v);
            CHECK(skmd_control_choice(c, word) == v);
            CHECK(strcmp(skmd_control_word(c, v), word) == 0);
        }
        CHECK(strcmp(c->def, joined) == 0);
        CHECK(strcmp(skmd_control_word(c, c->nwords), "?") == 0);
        CHECK(strcmp(skmd_control_word(c, -1), "?") == 0);
        /* unset: the first word */
        char *none[] = {NULL};
        struct skmd_config cfg;
        skmd_config_parse(&cfg, none, NULL);
        CHECK(*(const int *)(const void *)((const char *)&cfg + c->offset) == 0);
        skmd_config_release(&cfg);
        /* an unknown word: refused, naming every accepted word and the default */
        CHECK(parse_choice(c, "bogus", warning, sizeof warning) == -1);
        snprintf(expected, sizeof expected,
                 "%s=bogus: not one of: %s; using the default \"%s\"", c->env, listed,
                 c->words[0]);
        CHECK(strcmp(warning, expected) == 0);
        CHECK(parse_choice(c, "", warning, sizeof warning) == -1);
        if (c->words[0][0] != '0' && c->words[0][0] != '1') /* words are case-sensitive */
            CHECK(parse_choice(c, "AUTO", warning, sizeof warning) == -1);
        /* yes/no words: only where the list holds both 0 and 1 */
        for (int k = 0; k < 4; k++) {
            CHECK(parse_choice(c, yes[k], warning, sizeof warning) ==
                  (one >= 0 && zero >= 0 ? one : strcmp(yes[k], "1") == 0 ? one : -1));
            CHECK(parse_choice(c, no[k], warning, sizeof warning) ==
                  (one >= 0 && zero >= 0 ? zero : strcmp(no[k], "0") == 0 ? zero : -1));
        }
    }
    CHECK(nchoices >= 9);

    /* the enums follow the lists' order; the typed words */
    CHECK(SKMD_MODE_SPLIT == 0 && SKMD_MODE_SINGLE == 1 && SKMD_MODE_PASSTHROUGH == 2);
    CHECK(SKMD_REPORT_OFF == 0 && SKMD_REPORT_TABLE == 1 && SKMD_REPORT_JSON == 2);
    CHECK(SKMD_PINNED_HOST_COPY_AUTO == 0 && SKMD_PINNED_HOST_COPY_ON == 1);
    CHECK(strcmp(skmd_mode_word(SKMD_MODE_PASSTHROUGH), "passthrough") == 0);
    CHECK(strcmp(skmd_report_word(SKMD_REPORT_JSON), "json") == 0);
    CHECK(strcmp(skmd_place_writes_word(SKMD_PLACE_WRITES_OFF), "0") == 0);
    CHECK(strcmp(skmd_stream_outputs_word(SKMD_STREAM_OUTPUTS_ON), "1") == 0);
    CHECK(strcmp(skmd_policy_word((enum skmd_policy)42), "?") == 0);
    char *env[] = {"SKMD_STREAM_OUTPUTS=no", "SKMD_PINNED_HOST_COPY=yes",
                   "SKMD_PLACE_WRITES=always", "SKMD_APP_TRANSFERS=driver",
                   "SKMD_CONTEXTS=platform", "SKMD_SHARE_BUILD=ir", "SKMD_POLICY=linear",
                   "SKMD_REPORT=json", "SKMD_MODE=passthrough", "SKMD_PLACE_WRITE=1", NULL};
    struct skmd_config cfg;
    struct skmd_config_warnings w;
    skmd_config_parse(&cfg, env, &w);
    CHECK(w.count == 1); /* the misspelt one */
    CHECK(cfg.stream_outputs == SKMD_STREAM_OUTPUTS_OFF);
    CHECK(cfg.pinned_host_copy == SKMD_PINNED_HOST_COPY_ON);
    CHECK(cfg.place_writes == SKMD_PLACE_WRITES_ALWAYS);
    CHECK(cfg.app_transfers == SKMD_APP_TRANSFERS_DRIVER);
    CHECK(cfg.contexts == SKMD_CONTEXTS_PLATFORM);
    CHECK(cfg.share_build == SKMD_SHARE_BUILD_IR);
    CHECK(cfg.policy == SKMD_POLICY_LINEAR);
    CHECK(cfg.report == SKMD_REPORT_JSON);
    CHECK(cfg.mode == SKMD_MODE_PASSTHROUGH);
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
    test_choices();
    test_typos();
    test_table();
    test_process(argv[0]);
    return check_report("test-controls");
}
