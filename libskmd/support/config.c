/* libskmd/support/config.c: parses the SKMD_* environment controls declared in
 * controls.def. The only file of the project that reads SKMD_* variables. */
#include "support/config.h"

#include "support/log_level.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

extern char **environ;

#define SKMD_CONTROL(type, name, def, doc)                                                     \
    {#name, NULL, SKMD_CONTROL_TYPE_##type, #type, def, doc, offsetof(struct skmd_config, name), \
     NULL, 0},
/* A choice's def, its words joined by '|', is made with its env name (make_names). */
#define SKMD_WORD(enumerator, word) #word,
#define SKMD_CHOICE(name, words, doc)                                                          \
    {#name, NULL, SKMD_CONTROL_TYPE_choice, "choice", NULL, doc,                               \
     offsetof(struct skmd_config, name), (const char *const[]){words},                         \
     (int)(sizeof((const char *const[]){words}) / sizeof(const char *))},
static struct skmd_control_info control_table[] = {
#include "support/controls.def"
};
#undef SKMD_CHOICE
#undef SKMD_WORD
#undef SKMD_CONTROL

/* A choice's field is written as an int (store()). */
#define SKMD_CONTROL(type, name, def, doc)
#define SKMD_WORD(enumerator, word)
#define SKMD_CHOICE(name, words, doc)                                                          \
    _Static_assert(sizeof(enum skmd_##name) == sizeof(int), "enum skmd_" #name " is an int");
#include "support/controls.def"
#undef SKMD_CHOICE
#undef SKMD_WORD
#undef SKMD_CONTROL

#define CONTROL_COUNT (sizeof(control_table) / sizeof(control_table[0]))
const size_t skmd_control_count = CONTROL_COUNT;

/* The preprocessor cannot upper-case, so "show_real" becomes "SKMD_SHOW_REAL" here, once;
 * nor join words, so a choice's words become its def "split|single|passthrough". */
static char env_names[CONTROL_COUNT][64];
static char choice_lists[CONTROL_COUNT][128];
static pthread_once_t names_once = PTHREAD_ONCE_INIT;
static void make_names(void)
{
    for (size_t i = 0; i < CONTROL_COUNT; i++) {
        struct skmd_control_info *c = &control_table[i];
        snprintf(env_names[i], sizeof(env_names[i]), "SKMD_%s", c->name);
        for (char *p = env_names[i]; *p; p++)
            *p = (char)toupper((unsigned char)*p);
        c->env = env_names[i];
        if (c->type != SKMD_CONTROL_TYPE_choice)
            continue;
        for (int w = 0; w < c->nwords; w++) {
            size_t used = strlen(choice_lists[i]);
            snprintf(choice_lists[i] + used, sizeof(choice_lists[i]) - used, "%s%s",
                     w ? "|" : "", c->words[w]);
        }
        c->def = choice_lists[i];
    }
}

const struct skmd_control_info *skmd_control_at(size_t index)
{
    pthread_once(&names_once, make_names);
    return index < CONTROL_COUNT ? &control_table[index] : NULL;
}

const struct skmd_control_info *skmd_control_find(const char *name)
{
    if (!name)
        return NULL;
    if (strncasecmp(name, "SKMD_", 5) == 0)
        name += 5;
    for (size_t i = 0; i < CONTROL_COUNT; i++) {
        const char *b = control_table[i].name;
        size_t n = strlen(b);
        if (strlen(name) != n)
            continue;
        size_t k = 0;
        for (; k < n; k++) {
            char c = (char)tolower((unsigned char)name[k]);
            if (c == '-')
                c = '_';
            if (c != b[k])
                break;
        }
        if (k == n)
            return skmd_control_at(i);
    }
    return NULL;
}

size_t skmd_edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 63 || lb > 63)
        return (la > lb ? la - lb : lb - la) + 64;
    size_t row[64];
    for (size_t j = 0; j <= lb; j++)
        row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j];
            int same = toupper((unsigned char)a[i - 1]) == toupper((unsigned char)b[j - 1]);
            size_t best = diag + (same ? 0 : 1);
            if (row[j] + 1 < best)
                best = row[j] + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

const struct skmd_control_info *skmd_control_closest(const char *env_name)
{
    const struct skmd_control_info *best = NULL;
    size_t best_distance = (size_t)-1;
    for (size_t i = 0; i < CONTROL_COUNT; i++) {
        const struct skmd_control_info *c = skmd_control_at(i);
        size_t d = skmd_edit_distance(env_name, c->env);
        if (d < best_distance) {
            best_distance = d;
            best = c;
        }
    }
    return best;
}

/* A typo of `control` rather than someone else's variable that shares the SKMD_ prefix
 * (SKMD_LIB is 2 edits from SKMD_LOG, but so is any three-letter word): at most one edit
 * in three letters of the name after the prefix, and at least one. */
static int is_near_miss(const char *name, const char *control)
{
    size_t len = strlen(name) > 5 ? strlen(name) - 5 : 0, allowed = len / 3;
    return skmd_edit_distance(name, control) <= (allowed ? allowed : 1);
}

static int parse_bool(const char *text, int *out)
{
    static const char *const yes[] = {"1", "yes", "true", "on"};
    static const char *const no[] = {"0", "no", "false", "off"};
    for (size_t i = 0; i < 4; i++) {
        if (strcasecmp(text, yes[i]) == 0)
            return *out = 1, 0;
        if (strcasecmp(text, no[i]) == 0)
            return *out = 0, 0;
    }
    return -1;
}

static int parse_int(const char *text, int *out)
{
    if (!isdigit((unsigned char)text[0]))
        return -1;
    errno = 0;
    char *end;
    long v = strtol(text, &end, 10);
    if (errno || *end || v > INT_MAX)
        return -1;
    *out = (int)v;
    return 0;
}

/* The index of `word` among the choice's words (case counts), or -1. */
static int word_index(const struct skmd_control_info *control, const char *word)
{
    for (int w = 0; w < control->nwords; w++)
        if (strcmp(control->words[w], word) == 0)
            return w;
    return -1;
}

int skmd_control_choice(const struct skmd_control_info *control, const char *text)
{
    if (!control || control->type != SKMD_CONTROL_TYPE_choice || !text)
        return -1;
    int value = word_index(control, text), yes;
    if (value >= 0)
        return value;
    /* a yes/no word, where the list holds 0 and 1 */
    int one = word_index(control, "1"), zero = word_index(control, "0");
    if (one < 0 || zero < 0 || parse_bool(text, &yes) != 0)
        return -1;
    return yes ? one : zero;
}

const char *skmd_control_word(const struct skmd_control_info *control, int value)
{
    if (!control || control->type != SKMD_CONTROL_TYPE_choice || value < 0 ||
        value >= control->nwords)
        return "?";
    return control->words[value];
}

#define SKMD_CONTROL(type, name, def, doc)
#define SKMD_WORD(enumerator, word)
#define SKMD_CHOICE(name, words, doc)                                                          \
    const char *skmd_##name##_word(enum skmd_##name value)                                      \
    {                                                                                          \
        return skmd_control_word(skmd_control_find(#name), (int)value);                        \
    }
#include "support/controls.def"
#undef SKMD_CHOICE
#undef SKMD_WORD
#undef SKMD_CONTROL

int skmd_control_check(const struct skmd_control_info *control, const char *text, char *msg,
                       size_t msg_size)
{
    int ignored;
    enum skmd_log_level level;
    const char *file;
    switch (control->type) {
    case SKMD_CONTROL_TYPE_string:
    case SKMD_CONTROL_TYPE_path:
        return 0;
    case SKMD_CONTROL_TYPE_choice:
        if (skmd_control_choice(control, text) >= 0)
            return 0;
        snprintf(msg, msg_size, "not one of: ");
        for (int w = 0; w < control->nwords; w++) {
            size_t used = strlen(msg);
            snprintf(msg + used, msg_size - used, "%s%s", w ? ", " : "", control->words[w]);
        }
        return -1;
    case SKMD_CONTROL_TYPE_bool:
        if (parse_bool(text, &ignored) == 0)
            return 0;
        snprintf(msg, msg_size, "not a yes/no value (1, 0, yes, no, true, false, on, off)");
        return -1;
    case SKMD_CONTROL_TYPE_int:
        if (parse_int(text, &ignored) == 0)
            return 0;
        snprintf(msg, msg_size, "not a whole number >= 0");
        return -1;
    case SKMD_CONTROL_TYPE_logspec:
        if (skmd_log_parse(text, &level, &file) == 0)
            return 0;
        snprintf(msg, msg_size, "not a log level (error, warn, info, debug), optionally :FILE");
        return -1;
    }
    snprintf(msg, msg_size, "unknown control type");
    return -1;
}

static const char *env_lookup(char *const *envp, const char *name)
{
    size_t n = strlen(name);
    for (char *const *e = envp; e && *e; e++)
        if (strncmp(*e, name, n) == 0 && (*e)[n] == '=')
            return *e + n + 1;
    return NULL;
}

/* "$XDG_CACHE_HOME/skmd" and "$SKMD_CACHE_DIR/profile.db" in path defaults. */
static char *expand_default_path(const char *def, const struct skmd_config *cfg,
                                 char *const *envp)
{
    static const char xdg[] = "$XDG_CACHE_HOME", cache[] = "$SKMD_CACHE_DIR";
    char *out = NULL;
    if (strncmp(def, xdg, sizeof(xdg) - 1) == 0) {
        const char *base = env_lookup(envp, "XDG_CACHE_HOME");
        if (base && *base) {
            if (asprintf(&out, "%s%s", base, def + sizeof(xdg) - 1) < 0)
                out = NULL;
        } else {
            const char *home = env_lookup(envp, "HOME");
            if (asprintf(&out, "%s/.cache%s", home && *home ? home : "/tmp",
                         def + sizeof(xdg) - 1) < 0)
                out = NULL;
        }
    } else if (strncmp(def, cache, sizeof(cache) - 1) == 0 && cfg->cache_dir) {
        if (asprintf(&out, "%s%s", cfg->cache_dir, def + sizeof(cache) - 1) < 0)
            out = NULL;
    } else {
        out = strdup(def);
    }
    return out;
}

static void add_warning(struct skmd_config_warnings *w, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void add_warning(struct skmd_config_warnings *w, const char *fmt, ...)
{
    if (!w || w->count >= SKMD_CONFIG_MAX_WARNINGS)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->text[w->count++], sizeof(w->text[0]), fmt, ap);
    va_end(ap);
}

static char out_of_memory_empty[1];

/* Stores `text` (already checked) into the field of `control`. */
static void store(struct skmd_config *cfg, const struct skmd_control_info *control,
                  const char *text, int is_default, char *const *envp)
{
    void *field = (char *)cfg + control->offset;
    switch (control->type) {
    case SKMD_CONTROL_TYPE_bool:
        parse_bool(text, field);
        return;
    case SKMD_CONTROL_TYPE_int:
        parse_int(text, field);
        return;
    case SKMD_CONTROL_TYPE_choice:
        /* the default is the list: its first word */
        *(int *)field = is_default ? 0 : skmd_control_choice(control, text);
        return;
    case SKMD_CONTROL_TYPE_path:
        *(char **)field = is_default ? expand_default_path(text, cfg, envp) : strdup(text);
        break;
    case SKMD_CONTROL_TYPE_string:
    case SKMD_CONTROL_TYPE_logspec:
        *(char **)field = strdup(text);
        break;
    }
    if (!*(char **)field) /* out of memory: still never NULL */
        *(char **)field = out_of_memory_empty;
}

/* Read by the stub ICD of tests/stub-icd (a fake driver, not libskmd): not typos. */
static const char foreign_prefix[] = "SKMD_STUB_";

static int is_owned_string(const struct skmd_control_info *c)
{
    return c->type != SKMD_CONTROL_TYPE_bool && c->type != SKMD_CONTROL_TYPE_int &&
           c->type != SKMD_CONTROL_TYPE_choice;
}

void skmd_config_parse(struct skmd_config *cfg, char *const *envp,
                       struct skmd_config_warnings *warnings)
{
    memset(cfg, 0, sizeof(*cfg));
    if (warnings)
        warnings->count = warnings->note_count = 0;
    for (size_t i = 0; i < skmd_control_count; i++) {
        const struct skmd_control_info *c = skmd_control_at(i);
        const char *value = env_lookup(envp, c->env);
        char msg[160];
        if (value && skmd_control_check(c, value, msg, sizeof(msg)) != 0) {
            add_warning(warnings, "%s=%s: %s; using the default \"%s\"", c->env, value, msg,
                        c->type == SKMD_CONTROL_TYPE_choice ? c->words[0] : c->def);
            value = NULL;
        }
        store(cfg, c, value ? value : c->def, value == NULL, envp);
    }
    /* Unknown SKMD_* variables: most often a typo of a real one. */
    for (char *const *e = envp; e && *e; e++) {
        if (strncmp(*e, "SKMD_", 5) != 0 ||
            strncmp(*e, foreign_prefix, sizeof(foreign_prefix) - 1) == 0)
            continue;
        char name[128];
        size_t n = strcspn(*e, "=");
        snprintf(name, sizeof(name), "%.*s", (int)(n < sizeof(name) ? n : sizeof(name) - 1), *e);
        const struct skmd_control_info *c = skmd_control_find(name);
        if (c && strcmp(c->env, name) == 0)
            continue;
        c = skmd_control_closest(name);
        if (is_near_miss(name, c->env)) {
            add_warning(warnings,
                        "%s is not a libskmd control and is ignored; did you mean %s? "
                        "(skmd-run --controls lists them all)",
                        name, c->env);
        } else if (warnings && warnings->note_count < SKMD_CONFIG_MAX_WARNINGS) {
            snprintf(warnings->note[warnings->note_count++], sizeof(warnings->note[0]),
                     "%s is not a libskmd control (ignored)", name);
        }
    }
}

void skmd_config_release(struct skmd_config *cfg)
{
    for (size_t i = 0; i < skmd_control_count; i++) {
        const struct skmd_control_info *c = skmd_control_at(i);
        if (!is_owned_string(c))
            continue;
        char **field = (char **)((char *)cfg + c->offset);
        if (*field != out_of_memory_empty)
            free(*field);
        *field = NULL;
    }
}

static struct skmd_config process_config;
static struct skmd_config_warnings process_warnings;
static pthread_once_t parse_once = PTHREAD_ONCE_INIT;

static void parse_process_config(void)
{
    skmd_config_parse(&process_config, environ, &process_warnings);
}

const struct skmd_config *skmd_config_quiet(void)
{
    pthread_once(&parse_once, parse_process_config);
    return &process_config;
}

const struct skmd_config_warnings *skmd_config_process_warnings(void)
{
    pthread_once(&parse_once, parse_process_config);
    return &process_warnings;
}
