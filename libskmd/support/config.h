/* libskmd/support/config.h: the parsed SKMD_* environment controls (declared in
 * controls.def).
 *
 * Plain C, no OpenCL: also linked into the tools and the tests.
 * The one place in the project that reads SKMD_* variables is config.c.
 */
#ifndef SKMD_CONFIG_H
#define SKMD_CONFIG_H

#include <stddef.h>

/* One enum per choice control, its values in the order of the words, the first the
 * default: enum skmd_mode { SKMD_MODE_SPLIT, SKMD_MODE_SINGLE, SKMD_MODE_PASSTHROUGH }. */
#define SKMD_CONTROL(type, name, def, doc)
#define SKMD_WORD(enumerator, word) enumerator,
#define SKMD_CHOICE(name, words, doc) enum skmd_##name { words };
#include "support/controls.def"
#undef SKMD_CHOICE
#undef SKMD_WORD
#undef SKMD_CONTROL

/* The C type of each control type of controls.def. */
#define SKMD_CTYPE_string const char *
#define SKMD_CTYPE_path const char *
#define SKMD_CTYPE_bool int
#define SKMD_CTYPE_int int
#define SKMD_CTYPE_logspec const char *

/* One field per control; strings are never NULL ("" when empty); a choice holds its
 * enum's value. */
struct skmd_config {
#define SKMD_CONTROL(type, name, def, doc) SKMD_CTYPE_##type name;
#define SKMD_WORD(enumerator, word)
#define SKMD_CHOICE(name, words, doc) enum skmd_##name name;
#include "support/controls.def"
#undef SKMD_CHOICE
#undef SKMD_WORD
#undef SKMD_CONTROL
};

/* The word of each choice's value, for logs and reports: skmd_mode_word(SKMD_MODE_SINGLE)
 * is "single"; "?" for a value out of the enum. */
#define SKMD_CONTROL(type, name, def, doc)
#define SKMD_WORD(enumerator, word)
#define SKMD_CHOICE(name, words, doc) const char *skmd_##name##_word(enum skmd_##name value);
#include "support/controls.def"
#undef SKMD_CHOICE
#undef SKMD_WORD
#undef SKMD_CONTROL

/* The controls of this process, parsed from the environment once (pthread_once) on the
 * first call; never NULL. The first call also logs, once, each bad value and each unknown
 * SKMD_* variable (naming the closest control): config_warnings.c. */
const struct skmd_config *skmd_config(void);

/* The same controls without logging the parse warnings: only for log.c, whose set-up
 * needs SKMD_LOG while skmd_config() is logging them. */
const struct skmd_config *skmd_config_quiet(void);

/* The description of one control, for listings and docs. */
enum skmd_control_type {
    SKMD_CONTROL_TYPE_string,
    SKMD_CONTROL_TYPE_path,
    SKMD_CONTROL_TYPE_choice,
    SKMD_CONTROL_TYPE_bool,
    SKMD_CONTROL_TYPE_int,
    SKMD_CONTROL_TYPE_logspec,
};

struct skmd_control_info {
    const char *name;      /* field name, e.g. "show_real" */
    const char *env;       /* variable, e.g. "SKMD_SHOW_REAL" */
    enum skmd_control_type type;
    const char *type_name; /* "string", "bool", ... */
    const char *def;       /* default as text; for a choice, its words joined by '|' */
    const char *doc;
    size_t offset;         /* of the field in struct skmd_config */
    const char *const *words; /* a choice's words, in the order of its enum; else NULL */
    int nwords;
};

/* The controls in the order of controls.def: skmd_control_at(0 .. skmd_control_count-1). */
extern const size_t skmd_control_count;
const struct skmd_control_info *skmd_control_at(size_t index);

/* The control named `name` ("show_real", "SKMD_SHOW_REAL" or "show-real"), or NULL. */
const struct skmd_control_info *skmd_control_find(const char *name);

/* The known control whose variable name is closest (edit distance) to `env_name`. */
const struct skmd_control_info *skmd_control_closest(const char *env_name);

/* Levenshtein distance between two short names, case-insensitive: how far a typed name
 * (a control, a tool's command) is from a known one. */
size_t skmd_edit_distance(const char *a, const char *b);

/* The value of a choice control that `text` gives: the index of its word, or, where the
 * words hold 0 and 1, the index of "1" or "0" for a yes/no word; -1 when it gives none
 * (or `control` is no choice). */
int skmd_control_choice(const struct skmd_control_info *control, const char *text);

/* The word of a choice control's value; "?" when out of its list. */
const char *skmd_control_word(const struct skmd_control_info *control, int value);

/* Checks `text` as a value of `control`: returns 0 when valid, else -1 and a message
 * (what is wrong and what is accepted) in msg. */
int skmd_control_check(const struct skmd_control_info *control, const char *text, char *msg,
                       size_t msg_size);

/* Problems met while parsing, one message each (without the "libskmd: warn: " prefix). */
#define SKMD_CONFIG_MAX_WARNINGS 16
struct skmd_config_warnings {
    int count;
    char text[SKMD_CONFIG_MAX_WARNINGS][320];
    /* SKMD_* variables far from every control (another program's, e.g. SKMD_LIB):
     * logged at debug level only. */
    int note_count;
    char note[SKMD_CONFIG_MAX_WARNINGS][192];
};

/* Parses the SKMD_* entries of `envp` (a NULL-terminated "NAME=value" array like environ)
 * into `cfg`; a bad value gives a warning and the default. `warnings` may be NULL.
 * The strings of cfg are owned by it: release them with skmd_config_release(). */
void skmd_config_parse(struct skmd_config *cfg, char *const *envp,
                       struct skmd_config_warnings *warnings);
void skmd_config_release(struct skmd_config *cfg);

/* The problems met parsing this process's controls (skmd_config_quiet's parse), for
 * skmd_config() to log. */
const struct skmd_config_warnings *skmd_config_process_warnings(void);

#endif
