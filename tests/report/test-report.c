/* tests/report: libskmd/support/report.c adds launches up per kernel and prints fixed columns.
 *
 *   test-report            checks the table printed by skmd_report_print()
 *   test-report --at-exit  records one launch and exits: with SKMD_REPORT=1 the table must
 *                          appear on stderr, with SKMD_REPORT=json one JSON object
 *                          (checked by tests/report/test-report-json.sh)
 *   test-report --lost     records split launches slower than the single-device estimate
 *                          and exits: the summary line comes at warn level without
 *                          SKMD_REPORT */
#include "support/report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/check.h"

/* The line of `table` that starts with `start`, copied into line; 0 when none. */
static int find_line(const char *table, const char *start, char *line, size_t size)
{
    for (const char *p = table; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
        if (strncmp(p, start, strlen(start)) == 0) {
            size_t n = strcspn(p, "\n");
            snprintf(line, size, "%.*s", (int)n, p);
            return 1;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    skmd_report_name_device(0, "GPU 0: fast");
    skmd_report_name_device(1, "CPU: pthread");
    if (argc > 1 && strcmp(argv[1], "--at-exit") == 0) {
        struct skmd_report_launch one = {"at_exit_kernel", 1, "split by the partitioner", 2,
                                         {300, 700}, 1024, 2.0, 2.5, 4.0, 2.0};
        skmd_report_launch(&one);
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "--lost") == 0) {
        for (int i = 0; i < 4; i++) {
            struct skmd_report_launch slow = {"slow_split", 1, "split", 2, {50, 50}, 0,
                                              5.0, 20.0, 6.0, 5.0};
            skmd_report_launch(&slow);
        }
        return 0;
    }

    /* sgemm: 3 split launches, 25%/75% of the work-groups; estimates 10% low */
    for (int i = 0; i < 3; i++) {
        struct skmd_report_launch l = {"sgemm", 1, "split by the partitioner", 2,
                                       {256, 768}, 3u << 20, 9.0, 10.0, 12.0, 9.0};
        skmd_report_launch(&l);
    }
    /* histogram: never split, whole on device 1; no estimate */
    for (int i = 0; i < 2; i++) {
        struct skmd_report_launch l = {"histogram", 0, "global atomics", 2, {0, 64}, 1000,
                                       -1, 1.5, 0, 0};
        skmd_report_launch(&l);
    }
    /* mixed: one split launch then one too small to split: the reason why not is kept */
    struct skmd_report_launch a = {"mixed", 1, "split by the partitioner", 2, {8, 8}, 0, -1, 0.5,
                                   0, 0};
    struct skmd_report_launch b = {"mixed", 0, "4 work-groups < SKMD_MIN_SPLIT_WORKGROUPS",
                                   2, {4, 0}, 0, -1, 0.5, 0, 0};
    struct skmd_report_launch c = {"mixed", 1, "split by the partitioner", 2, {4, 4}, 0, -1, 0.5,
                                   0, 0};
    skmd_report_launch(&a);
    skmd_report_launch(&b);
    skmd_report_launch(&c);

    char *table = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&table, &size);
    if (!out)
        return 1;
    skmd_report_print(out);
    fclose(out);
    printf("%s", table);

    char line[512];
    /* the summary first: the 3 sgemm splits took 30 ms, estimated 36 ms on one device */
    CHECK(strncmp(table, "libskmd: 8 launches of 3 kernels, 5 split over 2 devices, 9.0 MiB "
                  "moved; the splits took 30.0 ms, estimated 36.0 ms on the best single "
                  "device: 6.0 ms saved\n", 140) == 0);
    char summary[320];
    skmd_report_summary(summary, sizeof summary);
    CHECK(strncmp(table + strlen("libskmd: "), summary, strlen(summary)) == 0);
    CHECK(find_line(table, "libskmd report: 8 launches of 3 kernels on 2 devices", line,
                    sizeof(line)));
    CHECK(find_line(table, "  device 1: CPU: pthread", line, sizeof(line)));
    CHECK(find_line(table, "kernel ", line, sizeof(line)));
    CHECK(strstr(line, "launches") && strstr(line, "shares") && strstr(line, "est_err%"));
    CHECK(find_line(table, "sgemm ", line, sizeof(line)));
    CHECK(strstr(line, " 3 ") && strstr(line, " 3/3 ") && strstr(line, " 0.25/0.75 "));
    CHECK(strstr(line, " 30.000 ") && strstr(line, " 27.000 ") && strstr(line, " -10.0 "));
    CHECK(strstr(line, " 9.0 MiB ") && strstr(line, "split by the partitioner"));
    CHECK(find_line(table, "histogram ", line, sizeof(line)));
    CHECK(strstr(line, " 0/2 ") && strstr(line, " 0.00/1.00 ") && strstr(line, "global atomics"));
    CHECK(strstr(line, " 3.000 ") && strstr(line, " 2.0 KiB "));
    CHECK(find_line(table, "mixed ", line, sizeof(line)));
    CHECK(strstr(line, " 2/3 ") && strstr(line, "< SKMD_MIN_SPLIT_WORKGROUPS"));
    CHECK(strstr(line, " 0.57/0.43 "));
    CHECK(find_line(table, "(all kernels) ", line, sizeof(line)));
    CHECK(strstr(line, " 8 ") && strstr(line, " 5/8 "));
    /* rows come by time, longest first */
    CHECK(strstr(table, "sgemm") < strstr(table, "histogram") &&
          strstr(table, "histogram") < strstr(table, "mixed "));
    free(table);
    return check_report("test-report");
}
