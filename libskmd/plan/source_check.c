/* libskmd/plan/source_check.c: a small scanner over OpenCL C text (see source_check.h). It
 * does not preprocess: #include'd files are not read (a header that redefines the names
 * makes the build fail or, at worst, is not caught). */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "plan/source_check.h"

static const char *const names[] = {
    "get_group_id", "get_num_groups", "get_global_size", "get_global_offset",
    "get_global_linear_id",
};

static int is_ident(int c)
{
    return isalnum(c) || c == '_';
}

/* Whether the identifier [s, s+n) is one the prelude owns. */
static int reserved(const char *s, size_t n)
{
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strlen(names[i]) == n && memcmp(s, names[i], n) == 0)
            return 1;
    return (n > 7 && (memcmp(s, "__skmd_", 7) == 0 || memcmp(s, "__SKMD_", 7) == 0));
}

/* Keywords that may stand right before a call. */
static int call_context(const char *s, size_t n)
{
    static const char *const words[] = {"return", "case", "sizeof", "else", "do"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strlen(words[i]) == n && memcmp(s, words[i], n) == 0)
            return 1;
    return 0;
}

int skmd_source_check(const char *source, const char *options, char *why, size_t why_size)
{
    for (size_t i = 0; options && i < sizeof names / sizeof names[0]; i++)
        if (strstr(options, names[i])) {
            snprintf(why, why_size, "the build options name %s", names[i]);
            return -1;
        }
    if (options && (strstr(options, "__skmd_") || strstr(options, "__SKMD_"))) {
        snprintf(why, why_size, "the build options use libskmd's __skmd_ names");
        return -1;
    }
    /* In a directive: its word (define, undef, ...) and how many identifiers follow it. */
    int line = 1, directive = 0, at_line_start = 1, dir_idents = 0;
    const char *dir_word = "";
    const char *prev = NULL; /* the previous identifier token, if the last token was one */
    size_t prev_len = 0;
    for (const char *p = source; *p;) {
        if (p[0] == '\\' && p[1] == '\n') { /* continuation: the directive goes on */
            p += 2, line++;
            continue;
        }
        if (*p == '\n') {
            line++, p++, directive = 0, at_line_start = 1;
            continue;
        }
        if (isspace((unsigned char)*p)) {
            p++;
            continue;
        }
        if (p[0] == '/' && p[1] == '/') {
            while (*p && *p != '\n')
                p++;
            continue;
        }
        if (p[0] == '/' && p[1] == '*') {
            for (p += 2; *p && !(p[0] == '*' && p[1] == '/'); p++)
                line += *p == '\n';
            p += *p ? 2 : 0;
            continue;
        }
        if (*p == '"' || *p == '\'') {
            char q = *p++;
            for (; *p && *p != q && *p != '\n'; p++)
                if (*p == '\\' && p[1])
                    p++;
            p += *p == q;
            prev = NULL, at_line_start = 0;
            continue;
        }
        if (*p == '#' && at_line_start)
            directive = 1, dir_idents = -1, dir_word = "";
        at_line_start = 0;
        if (!is_ident((unsigned char)*p) || isdigit((unsigned char)*p)) {
            /* A number or punctuation. */
            if (isdigit((unsigned char)*p))
                while (is_ident((unsigned char)*p) || *p == '.')
                    p++;
            else
                p++;
            prev = NULL;
            continue;
        }
        const char *id = p;
        while (is_ident((unsigned char)*p))
            p++;
        size_t n = (size_t)(p - id);
        if (directive && dir_idents++ < 0)
            dir_word = id;
        if (reserved(id, n)) {
            const char *next = p;
            while (*next == ' ' || *next == '\t')
                next++;
            const char *what = NULL;
            if (n > 7 && (memcmp(id, "__skmd_", 7) == 0 || memcmp(id, "__SKMD_", 7) == 0))
                what = "uses a name reserved by libskmd";
            else if (directive && (strncmp(dir_word, "undef", 5) == 0 ||
                                   strncmp(dir_word, "ifdef", 5) == 0 ||
                                   strncmp(dir_word, "ifndef", 6) == 0 ||
                                   (strncmp(dir_word, "define", 6) == 0 && dir_idents == 1) ||
                                   (prev && prev_len == 7 && memcmp(prev, "defined", 7) == 0)))
                what = "defines or tests it in a directive";
            else if (!directive && prev && !call_context(prev, prev_len))
                what = "declares it";
            else if (*next != '(')
                what = "uses it other than as a call";
            if (what) {
                snprintf(why, why_size, "%.*s: the source %s (line %d)", (int)n, id, what,
                         line);
                return -1;
            }
        }
        prev = id, prev_len = n;
    }
    return 0;
}
