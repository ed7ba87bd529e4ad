/* tests/native-source/source_check.c: unit test of libskmd/plan/source_check.c: sources that
 * only call the names the prelude redefines are accepted (also through the app's own
 * macros, and with the names in comments and strings); sources that define, #undef,
 * test, declare or take the address of one, or use a __skmd_ name, are refused, as are
 * options that name one. */
#include <stdio.h>

#include "../../libskmd/plan/source_check.h"

struct check {
    const char *source, *options;
    int safe;
};

static const struct check checks[] = {
    {"kernel void k(global int *a) { a[get_group_id(0)] = get_num_groups (1); }", "", 1},
    {"#define GID get_group_id(0)\nkernel void k(global int *a) { a[GID] = 1; }", "", 1},
    {"// get_group_id\n/* #define get_group_id 0 */\nkernel void k() {\n"
     "  printf(\"get_global_size %d\", 1); }", "", 1},
    {"size_t f(void) { return get_global_offset(0) + (size_t)get_global_linear_id(); }",
     "-DN=4 -cl-mad-enable", 1},
    {"kernel void k(global int *a) { a[0] = 1; }", NULL, 1},
    {"#define get_group_id(d) 0\n", "", 0},
    {"#undef get_global_size\n", "", 0},
    {"#if defined(get_num_groups)\n#endif\n", "", 0},
    {"#ifdef \\\n get_num_groups\n#endif\n", "", 0},
    {"int x;\nsize_t get_group_id(uint d);\n", "", 0},
    {"int __skmd_x;", "", 0},
    {"void *p = &get_global_size;", "", 0},
    {"kernel void k(global int *a) { a[0] = 1; }", "-Dget_group_id=g", 0},
};

int main(void)
{
    int failures = 0;
    for (size_t i = 0; i < sizeof checks / sizeof checks[0]; i++) {
        char why[256] = "";
        int safe = skmd_source_check(checks[i].source, checks[i].options, why,
                                     sizeof why) == 0;
        if (safe != checks[i].safe || (!safe && !why[0])) {
            printf("FAIL source-check %zu: %s (%s)\n", i, safe ? "accepted" : "refused",
                   why);
            failures++;
        }
    }
    if (failures)
        return 1;
    printf("PASS source-check: %zu sources accepted or refused as expected\n",
           sizeof checks / sizeof checks[0]);
    return 0;
}
