/* tests/common/check.h: counted checks for the unit-test programs. A failed check prints
 * where it is and what it asserted (or its message), and the test goes on, so that one
 * run lists every failure; check_report() turns the count into the exit status. */
#ifndef SKMD_TEST_CHECK_H
#define SKMD_TEST_CHECK_H

/* Failed checks so far (a forked child may reset it and report its own). */
extern int check_failures;

void check_that(int ok, const char *what, const char *file, int line, const char *func);

#define CHECK(cond) check_that(!!(cond), #cond, __FILE__, __LINE__, __func__)

/* A check that says what went wrong in its own words, printf-style; the message's
 * arguments are evaluated only when the check fails. */
#define EXPECT(cond, ...)                                                                   \
    do {                                                                                    \
        if (!(cond))                                                                        \
            check_failed_because(__FILE__, __LINE__, __func__, __VA_ARGS__);                \
    } while (0)

void check_failed_because(const char *file, int line, const char *func, const char *format,
                          ...) __attribute__((format(printf, 4, 5)));

/* Prints "TEST: N check(s) failed" (stderr) or "TEST: all checks passed" (stdout);
 * returns the exit status, 1 when any check failed. */
int check_report(const char *test);

#endif
