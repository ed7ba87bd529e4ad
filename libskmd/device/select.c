/* libskmd/device/select.c: the SKMD_DEVICES term parser (see select.h). */
#include "device/select.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int contains_nocase(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; hay++)
        if (strncasecmp(hay, needle, n) == 0)
            return 1;
    return 0;
}

static int all_digits(const char *s, size_t len)
{
    if (len == 0)
        return 0;
    for (size_t i = 0; i < len; i++)
        if (!isdigit((unsigned char)s[i]))
            return 0;
    return 1;
}

/* Whether candidate c (the global-th device overall) matches one term. */
static int term_matches(const char *term, const struct skmd_candidate *c, int global)
{
    const char *colon = strchr(term, ':');
    if (strcasecmp(term, "cpu") == 0)
        return (c->kinds & SKMD_KIND_CPU) != 0;
    if (strcasecmp(term, "gpu") == 0)
        return (c->kinds & SKMD_KIND_GPU) != 0;
    if (strcasecmp(term, "accelerator") == 0)
        return (c->kinds & SKMD_KIND_ACCELERATOR) != 0;
    if (colon && all_digits(term, (size_t)(colon - term)) &&
        all_digits(colon + 1, strlen(colon + 1)))
        return atoi(term) == c->platform_index && atoi(colon + 1) == c->device_index;
    if (all_digits(term, strlen(term)))
        return atoi(term) == global;
    return contains_nocase(c->device_name, term) || contains_nocase(c->platform_name, term);
}

int skmd_select_members(const char *spec, const struct skmd_candidate *cands, int n,
                        unsigned char *selected, char *err, size_t err_size)
{
    char terms[512];
    int any_positive = 0, count = 0;
    if (err_size)
        err[0] = '\0';
    if (strlen(spec) >= sizeof terms) {
        snprintf(err, err_size, "SKMD_DEVICES is too long (%zu characters, at most %zu)",
                 strlen(spec), sizeof terms - 1);
        return -1;
    }
    /* Validate every term, and see whether there is a positive one. */
    strcpy(terms, spec);
    for (char *save = NULL, *t = strtok_r(terms, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        while (isspace((unsigned char)*t))
            t++;
        if (*t == '!' ? t[1] == '\0' : *t == '\0') {
            snprintf(err, err_size, "SKMD_DEVICES: empty term in \"%s\"", spec);
            return -1;
        }
        if (*t != '!')
            any_positive = 1;
    }
    for (int i = 0; i < n; i++)
        selected[i] = !any_positive;

    /* Inclusions first, then exclusions, whatever their order in the list. */
    for (int pass = 0; pass < 2; pass++) {
        strcpy(terms, spec);
        for (char *save = NULL, *t = strtok_r(terms, ",", &save); t;
             t = strtok_r(NULL, ",", &save)) {
            while (isspace((unsigned char)*t))
                t++;
            char *end = t + strlen(t);
            while (end > t && isspace((unsigned char)end[-1]))
                *--end = '\0';
            int exclude = *t == '!';
            if (exclude != pass)
                continue;
            const char *term = t + exclude;
            int matched = 0;
            for (int i = 0; i < n; i++) {
                if (term_matches(term, &cands[i], i)) {
                    selected[i] = !exclude;
                    matched = 1;
                }
            }
            if (!matched && err_size && !err[0])
                snprintf(err, err_size, "SKMD_DEVICES: the term \"%s\" matches no device", t);
        }
    }
    for (int i = 0; i < n; i++)
        count += selected[i];
    return count;
}

void skmd_describe_candidates(const struct skmd_candidate *cands, int n, char *out,
                              size_t size)
{
    size_t at = 0;
    if (size)
        out[0] = '\0';
    for (int i = 0; i < n && at + 1 < size; i++) {
        unsigned k = cands[i].kinds;
        const char *kind = k & SKMD_KIND_GPU           ? "gpu"
                           : k & SKMD_KIND_CPU         ? "cpu"
                           : k & SKMD_KIND_ACCELERATOR ? "accelerator"
                                                       : "other";
        int w = snprintf(out + at, size - at, "%s%d = %d:%d %s \"%s\" (%s)", i ? ", " : "", i,
                         cands[i].platform_index, cands[i].device_index, kind,
                         cands[i].device_name ? cands[i].device_name : "",
                         cands[i].platform_name ? cands[i].platform_name : "");
        if (w < 0)
            break;
        at += (size_t)w;
    }
}
