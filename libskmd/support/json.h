/* libskmd/support/json.h: JSON text as libskmd's files and its tools write it (the report, the
 * trace, the decision log, skmd-profile's export). */
#ifndef SKMD_JSON_H
#define SKMD_JSON_H

#include <stdio.h>

/* `text` as a JSON string, quotes included: quotes, backslashes and control characters
 * escaped, other bytes as they are (UTF-8 stays UTF-8). NULL is written as "". */
void skmd_json_string(FILE *out, const char *text);

#endif
