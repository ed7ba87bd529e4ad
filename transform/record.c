/* transform/record.c: the analysis record's storage and its two serialisations: the
 * line-oriented text the runtime reads back, and JSON for people and tests. */
#include "record.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "support/json.h"

static const char *const kind_names[] = {"scalar", "global", "constant", "local",
                                         "image",  "sampler", "other"};

const char *skmd_param_kind_name(enum skmd_param_kind k)
{
    return (unsigned)k < sizeof kind_names / sizeof kind_names[0] ? kind_names[k] : "other";
}

unsigned skmd_type_float_bits(const char *type_name)
{
    /* The base type: no pointer star, no vector width ("float4*" is float). */
    size_t n = strcspn(type_name, "* ");
    while (n > 0 && isdigit((unsigned char)type_name[n - 1]))
        n--;
    static const struct { const char *name; unsigned bits; } kinds[] = {
        {"half", 16}, {"float", 32}, {"double", 64}};
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
        if (n == strlen(kinds[k].name) && !strncmp(type_name, kinds[k].name, n))
            return kinds[k].bits;
    return 0;
}

static int kind_from_name(const char *s, enum skmd_param_kind *k)
{
    for (unsigned i = 0; i < sizeof kind_names / sizeof kind_names[0]; i++)
        if (!strcmp(s, kind_names[i])) {
            *k = (enum skmd_param_kind)i;
            return 1;
        }
    return 0;
}

void skmd_record_init(struct skmd_program_record *r)
{
    memset(r, 0, sizeof *r);
}

static void free_kernel(struct skmd_kernel_record *k)
{
    for (unsigned i = 0; i < k->nparams; i++)
        free(k->params[i].name);
    free(k->params);
    free(k->accesses);
    free(k->loops);
    free(k->name);
    free(k->reason);
}

void skmd_record_free(struct skmd_program_record *r)
{
    for (unsigned i = 0; i < r->nkernels; i++)
        free_kernel(&r->kernels[i]);
    free(r->kernels);
    skmd_record_init(r);
}

/* Grows *arr (elements of size sz) by one zeroed element; NULL when out of memory. */
static void *grow_one(void *arr_ptr, unsigned *n, size_t sz)
{
    void **arr = arr_ptr;
    char *grown = realloc(*arr, (*n + 1) * sz);
    if (!grown)
        return NULL;
    *arr = grown;
    memset(grown + *n * sz, 0, sz);
    return grown + (*n)++ * sz;
}

struct skmd_kernel_record *skmd_record_add_kernel(struct skmd_program_record *r,
                                                  const char *name)
{
    char *copy = strdup(name);
    char *reason = strdup("");
    struct skmd_kernel_record *k = copy && reason ? grow_one(&r->kernels, &r->nkernels,
                                                             sizeof *k)
                                                  : NULL;
    if (!k) {
        free(copy);
        free(reason);
        return NULL;
    }
    k->name = copy;
    k->reason = reason;
    k->splittable = 1;
    return k;
}

const struct skmd_kernel_record *skmd_record_find(const struct skmd_program_record *r,
                                                  const char *kernel)
{
    for (unsigned i = 0; i < r->nkernels; i++)
        if (!strcmp(r->kernels[i].name, kernel))
            return &r->kernels[i];
    return NULL;
}

int skmd_kernel_set_reason(struct skmd_kernel_record *k, unsigned line, const char *reason)
{
    char *copy = strdup(reason);
    if (!copy)
        return -1;
    free(k->reason);
    k->reason = copy;
    k->reason_line = line;
    return 0;
}

struct skmd_access_record *skmd_kernel_add_access(struct skmd_kernel_record *k)
{
    return grow_one(&k->accesses, &k->naccesses, sizeof(struct skmd_access_record));
}

struct skmd_loop_record *skmd_kernel_add_loop(struct skmd_kernel_record *k)
{
    return grow_one(&k->loops, &k->nloops, sizeof(struct skmd_loop_record));
}

/* ---- text format ---- */

/* Names and reasons are written to the end of the line: no newlines inside. */
static void put_line_text(FILE *f, const char *s)
{
    for (; *s; s++)
        fputc(*s == '\n' || *s == '\r' ? ' ' : *s, f);
    fputc('\n', f);
}

static const char *access_name(unsigned a)
{
    static const char *const names[] = {"none", "read", "write", "readwrite"};
    return names[a & 3];
}

int skmd_record_write(FILE *f, const struct skmd_program_record *r)
{
    fprintf(f, "skmd-record 1\n");
    for (unsigned i = 0; i < r->nkernels; i++) {
        const struct skmd_kernel_record *k = &r->kernels[i];
        fprintf(f, "kernel ");
        put_line_text(f, k->name);
        fprintf(f, "splittable %d %u ", k->splittable, k->reason_line);
        put_line_text(f, k->reason);
        fprintf(f, "merge %d disjoint %d groupfree %d\n", k->needs_merge, k->writes_disjoint,
                k->group_free);
        fprintf(f, "features");
#define SKMD_FEATURE_TEXT(name) fprintf(f, " %.17g", k->features.name);
        SKMD_FEATURES(SKMD_FEATURE_TEXT)
#undef SKMD_FEATURE_TEXT
        fputc('\n', f);
        for (unsigned p = 0; p < k->nparams; p++) {
            const struct skmd_param_record *pr = &k->params[p];
            fprintf(f, "param %s %s %u %u %d ", skmd_param_kind_name(pr->kind),
                    access_name(pr->access), pr->elem_size, pr->scalar_bytes,
                    pr->scalar_signed);
            put_line_text(f, pr->name);
            if (pr->float_bits)
                fprintf(f, "param_float %u\n", pr->float_bits);
        }
        for (unsigned l = 0; l < k->nloops; l++) {
            const struct skmd_loop_record *lr = &k->loops[l];
            fprintf(f, "loop %lld %d %lld ", (long long)lr->step, lr->at_least_once,
                    (long long)lr->bound_div);
            skmd_poly_print(f, &lr->start);
            fputc(' ', f);
            skmd_poly_print(f, &lr->bound);
            fputc('\n', f);
        }
        for (unsigned a = 0; a < k->naccesses; a++) {
            const struct skmd_access_record *ar = &k->accesses[a];
            fprintf(f, "access %u %s %u %u %d %d %d ", ar->param, access_name(ar->flags),
                    ar->size, ar->line, ar->affine, ar->conditional, ar->has_clip);
            skmd_poly_print(f, &ar->offset);
            fputc(' ', f);
            skmd_poly_print(f, &ar->clip);
            fputc('\n', f);
            for (unsigned i = 0; i < ar->nlimits; i++) {
                fprintf(f, "limit ");
                skmd_poly_print(f, &ar->limit[i]);
                fputc('\n', f);
            }
        }
        fprintf(f, "end\n");
    }
    return ferror(f) ? -1 : 0;
}

static int access_from_name(const char *s, unsigned *a)
{
    for (unsigned i = 0; i < 4; i++)
        if (!strcmp(s, access_name(i))) {
            *a = i;
            return 1;
        }
    return 0;
}

/* Reads one line into a malloc'd buffer without its newline; NULL at end of file. */
static char *read_line(FILE *f, char **buf, size_t *cap)
{
    ssize_t n = getline(buf, cap, f);
    if (n < 0)
        return NULL;
    if (n && (*buf)[n - 1] == '\n')
        (*buf)[n - 1] = 0;
    return *buf;
}

/* The text after the n-th space-separated field (for names and reasons). */
static const char *after_fields(const char *s, int n)
{
    while (n-- > 0) {
        const char *sp = strchr(s, ' ');
        if (!sp)
            return s + strlen(s);
        s = sp + 1;
    }
    return s;
}

static int parse_two_polys(const char *s, struct skmd_poly *a, struct skmd_poly *b)
{
    int used = skmd_poly_parse(a, s);
    if (used < 0 || s[used] != ' ')
        return 0;
    s += used + 1;
    used = skmd_poly_parse(b, s);
    return used >= 0 && s[used] == 0;
}

static int parse_kernel_line(struct skmd_kernel_record *k, const char *line)
{
    char word[32], word2[32];
    int n = 0;
    if (!strncmp(line, "splittable ", 11)) {
        if (sscanf(line, "splittable %d %u %n", &k->splittable, &k->reason_line, &n) < 2 || !n)
            return 0;
        return skmd_kernel_set_reason(k, k->reason_line, line + n) == 0;
    }
    if (!strncmp(line, "merge ", 6))
        return sscanf(line, "merge %d disjoint %d groupfree %d", &k->needs_merge,
                      &k->writes_disjoint, &k->group_free) >= 2; /* older: no groupfree */
    if (!strncmp(line, "features", 8)) {
        const char *s = line + 8;
        char *end;
#define SKMD_FEATURE_PARSE(name)                                                            \
    k->features.name = strtod(s, &end);                                                     \
    if (end == s)                                                                           \
        return 0;                                                                           \
    s = end;
        SKMD_FEATURES(SKMD_FEATURE_PARSE)
#undef SKMD_FEATURE_PARSE
        return *s == 0;
    }
    if (!strncmp(line, "param ", 6)) {
        struct skmd_param_record pr = {0};
        if (sscanf(line, "param %31s %31s %u %u %d", word, word2, &pr.elem_size,
                   &pr.scalar_bytes, &pr.scalar_signed) != 5 ||
            !kind_from_name(word, &pr.kind) || !access_from_name(word2, &pr.access))
            return 0;
        struct skmd_param_record *slot = grow_one(&k->params, &k->nparams, sizeof *slot);
        if (!slot || !(pr.name = strdup(after_fields(line, 6)))) {
            if (slot)
                k->nparams--;
            return 0;
        }
        *slot = pr;
        return 1;
    }
    if (!strncmp(line, "param_float ", 12)) { /* of the parameter just read */
        unsigned bits;
        if (k->nparams == 0 || sscanf(line, "param_float %u", &bits) != 1 ||
            (bits != 16 && bits != 32 && bits != 64))
            return 0;
        k->params[k->nparams - 1].float_bits = bits;
        return 1;
    }
    if (!strncmp(line, "loop ", 5)) {
        long long step, div;
        struct skmd_loop_record lr = {0};
        if (sscanf(line, "loop %lld %d %lld %n", &step, &lr.at_least_once, &div, &n) < 3 ||
            !n || div < 1 || !parse_two_polys(line + n, &lr.start, &lr.bound))
            return 0;
        lr.step = step;
        lr.bound_div = div;
        struct skmd_loop_record *slot = skmd_kernel_add_loop(k);
        if (!slot)
            return 0;
        *slot = lr;
        return 1;
    }
    if (!strncmp(line, "access ", 7)) {
        struct skmd_access_record ar = {0};
        if (sscanf(line, "access %u %31s %u %u %d %d %d %n", &ar.param, word, &ar.size,
                   &ar.line, &ar.affine, &ar.conditional, &ar.has_clip, &n) < 7 || !n ||
            !access_from_name(word, &ar.flags) ||
            !parse_two_polys(line + n, &ar.offset, &ar.clip))
            return 0;
        struct skmd_access_record *slot = skmd_kernel_add_access(k);
        if (!slot)
            return 0;
        *slot = ar;
        return 1;
    }
    if (!strncmp(line, "limit ", 6)) { /* of the access before it */
        struct skmd_access_record *ar = k->naccesses ? &k->accesses[k->naccesses - 1] : NULL;
        if (!ar || ar->nlimits == SKMD_ACCESS_MAX_LIMITS)
            return 0;
        n = skmd_poly_parse(&ar->limit[ar->nlimits], line + 6);
        if (n < 0 || line[6 + n] != 0)
            return 0;
        ar->nlimits++;
        return 1;
    }
    return 0;
}

int skmd_record_read(FILE *f, struct skmd_program_record *r, char *err, size_t err_size)
{
    char *buf = NULL;
    size_t cap = 0;
    unsigned lineno = 1;
    struct skmd_kernel_record *k = NULL;
    const char *why = NULL;

    skmd_record_init(r);
    if (!read_line(f, &buf, &cap) || strcmp(buf, "skmd-record 1") != 0) {
        why = "not an skmd record (expected 'skmd-record 1')";
        goto fail;
    }
    while (read_line(f, &buf, &cap)) {
        lineno++;
        if (!k) {
            if (strncmp(buf, "kernel ", 7) != 0) {
                why = "expected 'kernel NAME'";
                goto fail;
            }
            if (!(k = skmd_record_add_kernel(r, buf + 7))) {
                why = "out of memory";
                goto fail;
            }
        } else if (!strcmp(buf, "end")) {
            for (unsigned a = 0; a < k->naccesses; a++)
                if (k->accesses[a].param >= k->nparams) {
                    why = "access to a parameter that does not exist";
                    goto fail;
                }
            k = NULL;
        } else if (!parse_kernel_line(k, buf)) {
            why = "malformed line";
            goto fail;
        }
    }
    if (k) {
        why = "missing 'end'";
        goto fail;
    }
    free(buf);
    return 0;
fail:
    if (err && err_size)
        snprintf(err, err_size, "record line %u: %s", lineno, why);
    free(buf);
    skmd_record_free(r);
    return -1;
}

/* ---- JSON ---- */


static void json_poly(FILE *f, const struct skmd_poly *p)
{
    fputc('"', f);
    skmd_poly_print(f, p);
    fputc('"', f);
}

int skmd_record_write_json(FILE *f, const struct skmd_program_record *r)
{
    fprintf(f, "{\"kernels\": [");
    for (unsigned i = 0; i < r->nkernels; i++) {
        const struct skmd_kernel_record *k = &r->kernels[i];
        fprintf(f, "%s\n {\"name\": ", i ? "," : "");
        skmd_json_string(f, k->name);
        fprintf(f, ", \"splittable\": %s, \"reason\": ", k->splittable ? "true" : "false");
        skmd_json_string(f, k->reason);
        fprintf(f, ", \"reason_line\": %u, \"needs_merge\": %s, \"writes_disjoint\": %s,",
                k->reason_line, k->needs_merge ? "true" : "false",
                k->writes_disjoint ? "true" : "false");
        fprintf(f, "\n  \"params\": [");
        for (unsigned p = 0; p < k->nparams; p++) {
            const struct skmd_param_record *pr = &k->params[p];
            fprintf(f, "%s\n   {\"name\": ", p ? "," : "");
            skmd_json_string(f, pr->name);
            fprintf(f, ", \"kind\": \"%s\", \"access\": \"%s\", \"elem_size\": %u",
                    skmd_param_kind_name(pr->kind), access_name(pr->access), pr->elem_size);
            if (pr->kind == SKMD_PARAM_SCALAR)
                fprintf(f, ", \"scalar_bytes\": %u, \"signed\": %s", pr->scalar_bytes,
                        pr->scalar_signed ? "true" : "false");
            if (pr->float_bits)
                fprintf(f, ", \"float_bits\": %u", pr->float_bits);
            fputc('}', f);
        }
        fprintf(f, "],\n  \"loops\": [");
        for (unsigned l = 0; l < k->nloops; l++) {
            const struct skmd_loop_record *lr = &k->loops[l];
            fprintf(f, "%s\n   {\"counter\": \"t%u\", \"start\": ", l ? "," : "", l);
            json_poly(f, &lr->start);
            fprintf(f, ", \"step\": %lld, \"bound\": ", (long long)lr->step);
            json_poly(f, &lr->bound);
            if (lr->bound_div > 1)
                fprintf(f, ", \"bound_div\": %lld", (long long)lr->bound_div);
            fprintf(f, ", \"at_least_once\": %s}", lr->at_least_once ? "true" : "false");
        }
        fprintf(f, "],\n  \"accesses\": [");
        for (unsigned a = 0; a < k->naccesses; a++) {
            const struct skmd_access_record *ar = &k->accesses[a];
            fprintf(f, "%s\n   {\"param\": %u, \"kind\": \"%s\", \"size\": %u, \"line\": %u, ",
                    a ? "," : "", ar->param, access_name(ar->flags), ar->size, ar->line);
            if (ar->affine) {
                fprintf(f, "\"offset\": ");
                json_poly(f, &ar->offset);
            } else {
                fprintf(f, "\"offset\": null");
            }
            fprintf(f, ", \"conditional\": %s", ar->conditional ? "true" : "false");
            if (ar->has_clip) {
                fprintf(f, ", \"clip\": ");
                json_poly(f, &ar->clip);
            }
            if (ar->nlimits) {
                fprintf(f, ", \"limits\": [");
                for (unsigned i = 0; i < ar->nlimits; i++) {
                    fprintf(f, "%s", i ? ", " : "");
                    json_poly(f, &ar->limit[i]);
                }
                fputc(']', f);
            }
            fputc('}', f);
        }
        fprintf(f, "],\n  \"features\": {");
        const char *sep = "";
#define SKMD_FEATURE_JSON(name)                                                             \
    fprintf(f, "%s\"" #name "\": %.4g", sep, k->features.name);                             \
    sep = ", ";
        SKMD_FEATURES(SKMD_FEATURE_JSON)
#undef SKMD_FEATURE_JSON
        fprintf(f, "}}");
    }
    fprintf(f, "\n]}\n");
    return ferror(f) ? -1 : 0;
}
