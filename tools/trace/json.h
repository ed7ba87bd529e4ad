/* tools/trace/json.h: a small JSON reader (a tree of values), enough for trace files. */
#ifndef SKMD_TRACE_JSON_H
#define SKMD_TRACE_JSON_H

#include <stddef.h>

enum json_type { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT };

struct json {
    enum json_type type;
    int boolean;
    double number;
    char *string;        /* JSON_STRING, UTF-8 */
    struct json **items; /* JSON_ARRAY, JSON_OBJECT values */
    char **keys;         /* JSON_OBJECT keys, parallel to items */
    size_t count;
};

/* Parses `text`; NULL on error with "line L column C: what" in err. */
struct json *json_parse(const char *text, char *err, size_t err_size);
void json_free(struct json *value);

/* The member `key` of an object, or NULL (also when `object` is not an object). */
const struct json *json_get(const struct json *object, const char *key);
/* The number or string of the member, or `fallback`. */
double json_get_number(const struct json *object, const char *key, double fallback);
const char *json_get_string(const struct json *object, const char *key, const char *fallback);

#endif
