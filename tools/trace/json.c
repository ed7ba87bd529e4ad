/* tools/trace/json.c: recursive-descent JSON reader (RFC 8259), depth-limited. */
#include "json.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 64

struct parser {
    const char *start, *p;
    char *err;
    size_t err_size;
    int failed;
};

static void fail(struct parser *ps, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(struct parser *ps, const char *fmt, ...)
{
    if (ps->failed)
        return;
    ps->failed = 1;
    int line = 1, column = 1;
    for (const char *q = ps->start; q < ps->p; q++) {
        if (*q == '\n')
            line++, column = 1;
        else
            column++;
    }
    char what[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof(what), fmt, ap);
    va_end(ap);
    snprintf(ps->err, ps->err_size, "line %d column %d: %s", line, column, what);
}

static void skip_space(struct parser *ps)
{
    while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r')
        ps->p++;
}

static struct json *new_value(enum json_type type)
{
    struct json *v = calloc(1, sizeof(*v));
    if (v)
        v->type = type;
    return v;
}

static void put_utf8(char *out, size_t *len, unsigned code)
{
    if (code < 0x80) {
        out[(*len)++] = (char)code;
    } else if (code < 0x800) {
        out[(*len)++] = (char)(0xc0 | (code >> 6));
        out[(*len)++] = (char)(0x80 | (code & 0x3f));
    } else if (code < 0x10000) {
        out[(*len)++] = (char)(0xe0 | (code >> 12));
        out[(*len)++] = (char)(0x80 | ((code >> 6) & 0x3f));
        out[(*len)++] = (char)(0x80 | (code & 0x3f));
    } else {
        out[(*len)++] = (char)(0xf0 | (code >> 18));
        out[(*len)++] = (char)(0x80 | ((code >> 12) & 0x3f));
        out[(*len)++] = (char)(0x80 | ((code >> 6) & 0x3f));
        out[(*len)++] = (char)(0x80 | (code & 0x3f));
    }
}

static int read_hex4(struct parser *ps, unsigned *code)
{
    *code = 0;
    for (int i = 0; i < 4; i++) {
        char c = *ps->p++;
        unsigned digit;
        if (c >= '0' && c <= '9')
            digit = (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f')
            digit = (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            digit = (unsigned)(c - 'A' + 10);
        else
            return fail(ps, "bad \\u escape"), -1;
        *code = *code * 16 + digit;
    }
    return 0;
}

/* A string at ps->p (on the opening quote); the result is malloc'd. */
static char *parse_string(struct parser *ps)
{
    ps->p++;
    size_t cap = 32, len = 0;
    char *out = malloc(cap);
    while (out) {
        if (cap - len < 5) {
            char *bigger = realloc(out, cap *= 2);
            if (!bigger)
                break;
            out = bigger;
        }
        unsigned char c = (unsigned char)*ps->p;
        if (c == '"') {
            ps->p++;
            out[len] = '\0';
            return out;
        }
        if (c == '\0')
            return fail(ps, "unterminated string"), free(out), NULL;
        if (c < 0x20)
            return fail(ps, "control character in a string"), free(out), NULL;
        ps->p++;
        if (c != '\\') {
            out[len++] = (char)c;
            continue;
        }
        char e = *ps->p++;
        unsigned code;
        switch (e) {
        case '"': out[len++] = '"'; break;
        case '\\': out[len++] = '\\'; break;
        case '/': out[len++] = '/'; break;
        case 'b': out[len++] = '\b'; break;
        case 'f': out[len++] = '\f'; break;
        case 'n': out[len++] = '\n'; break;
        case 'r': out[len++] = '\r'; break;
        case 't': out[len++] = '\t'; break;
        case 'u':
            if (read_hex4(ps, &code) != 0)
                return free(out), NULL;
            if (code >= 0xd800 && code < 0xdc00 && ps->p[0] == '\\' && ps->p[1] == 'u') {
                unsigned low;
                ps->p += 2;
                if (read_hex4(ps, &low) != 0)
                    return free(out), NULL;
                code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
            }
            put_utf8(out, &len, code);
            break;
        default:
            return fail(ps, "bad escape \\%c", e), free(out), NULL;
        }
    }
    free(out);
    fail(ps, "out of memory");
    return NULL;
}

static struct json *parse_value(struct parser *ps, int depth);

/* Appends `item` (and `key` for objects) to `v`. */
static int append(struct json *v, struct json *item, char *key)
{
    struct json **items = realloc(v->items, (v->count + 1) * sizeof(*items));
    if (!items)
        return -1;
    v->items = items;
    if (v->type == JSON_OBJECT) {
        char **keys = realloc(v->keys, (v->count + 1) * sizeof(*keys));
        if (!keys)
            return -1;
        v->keys = keys;
        v->keys[v->count] = key;
    }
    v->items[v->count++] = item;
    return 0;
}

static struct json *parse_container(struct parser *ps, int depth, enum json_type type)
{
    char close = type == JSON_ARRAY ? ']' : '}';
    struct json *v = new_value(type);
    if (!v)
        return fail(ps, "out of memory"), NULL;
    ps->p++;
    skip_space(ps);
    if (*ps->p == close) {
        ps->p++;
        return v;
    }
    for (;;) {
        char *key = NULL;
        skip_space(ps);
        if (type == JSON_OBJECT) {
            if (*ps->p != '"')
                return fail(ps, "expected a member name in quotes"), json_free(v), NULL;
            if (!(key = parse_string(ps)))
                return json_free(v), NULL;
            skip_space(ps);
            if (*ps->p != ':')
                return fail(ps, "expected ':' after a member name"), free(key), json_free(v), NULL;
            ps->p++;
        }
        struct json *item = parse_value(ps, depth + 1);
        if (!item || append(v, item, key) != 0) {
            fail(ps, "out of memory");
            return free(key), json_free(item), json_free(v), NULL;
        }
        skip_space(ps);
        if (*ps->p == ',') {
            ps->p++;
            continue;
        }
        if (*ps->p == close) {
            ps->p++;
            return v;
        }
        fail(ps, "expected ',' or '%c'", close);
        return json_free(v), NULL;
    }
}

static struct json *parse_value(struct parser *ps, int depth)
{
    if (depth > MAX_DEPTH)
        return fail(ps, "nested deeper than %d", MAX_DEPTH), NULL;
    skip_space(ps);
    struct json *v;
    char c = *ps->p;
    if (c == '{' || c == '[')
        return parse_container(ps, depth, c == '{' ? JSON_OBJECT : JSON_ARRAY);
    if (c == '"') {
        char *s = parse_string(ps);
        if (!s)
            return NULL;
        if (!(v = new_value(JSON_STRING)))
            return free(s), fail(ps, "out of memory"), NULL;
        v->string = s;
        return v;
    }
    static const struct { const char *word; enum json_type type; int boolean; } words[] = {
        {"true", JSON_BOOL, 1}, {"false", JSON_BOOL, 0}, {"null", JSON_NULL, 0}};
    for (size_t i = 0; i < 3; i++) {
        size_t n = strlen(words[i].word);
        if (strncmp(ps->p, words[i].word, n) == 0) {
            ps->p += n;
            if (!(v = new_value(words[i].type)))
                return fail(ps, "out of memory"), NULL;
            v->boolean = words[i].boolean;
            return v;
        }
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
        char *end;
        double number = strtod(ps->p, &end);
        if (end == ps->p)
            return fail(ps, "bad number"), NULL;
        ps->p = end;
        if (!(v = new_value(JSON_NUMBER)))
            return fail(ps, "out of memory"), NULL;
        v->number = number;
        return v;
    }
    if (c == '\0')
        fail(ps, "unexpected end of the text");
    else
        fail(ps, "unexpected '%c'", c);
    return NULL;
}

struct json *json_parse(const char *text, char *err, size_t err_size)
{
    struct parser ps = {text, text, err, err_size, 0};
    struct json *v = parse_value(&ps, 0);
    if (v) {
        skip_space(&ps);
        if (*ps.p) {
            fail(&ps, "text after the end of the value");
            json_free(v);
            v = NULL;
        }
    }
    return v;
}

void json_free(struct json *v)
{
    if (!v)
        return;
    for (size_t i = 0; i < v->count; i++) {
        json_free(v->items[i]);
        if (v->keys)
            free(v->keys[i]);
    }
    free(v->items);
    free(v->keys);
    free(v->string);
    free(v);
}

const struct json *json_get(const struct json *object, const char *key)
{
    if (!object || object->type != JSON_OBJECT)
        return NULL;
    for (size_t i = 0; i < object->count; i++)
        if (strcmp(object->keys[i], key) == 0)
            return object->items[i];
    return NULL;
}

double json_get_number(const struct json *object, const char *key, double fallback)
{
    const struct json *v = json_get(object, key);
    return v && v->type == JSON_NUMBER ? v->number : fallback;
}

const char *json_get_string(const struct json *object, const char *key, const char *fallback)
{
    const struct json *v = json_get(object, key);
    return v && v->type == JSON_STRING ? v->string : fallback;
}
