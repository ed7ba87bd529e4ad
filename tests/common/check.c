/* tests/common/check.c: the counter behind CHECK (check.h). */
#include "check.h"

#include <stdarg.h>
#include <stdio.h>

int check_failures;

void check_that(int ok, const char *what, const char *file, int line, const char *func)
{
    if (ok)
        return;
    fprintf(stderr, "%s:%d: %s: check failed: %s\n", file, line, func, what);
    check_failures++;
}

void check_failed_because(const char *file, int line, const char *func, const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    fprintf(stderr, "%s:%d: %s: check failed: ", file, line, func);
    vfprintf(stderr, format, ap);
    fputc('\n', stderr);
    va_end(ap);
    check_failures++;
}

int check_report(const char *test)
{
    if (!check_failures) {
        printf("%s: all checks passed\n", test);
        return 0;
    }
    fprintf(stderr, "%s: %d check(s) failed\n", test, check_failures);
    return 1;
}
