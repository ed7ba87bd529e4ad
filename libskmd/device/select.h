/* libskmd/device/select.h: which real devices become members (the SKMD_DEVICES terms).
 *
 * Plain C, no OpenCL calls: unit-testable. A spec is a comma-separated list of terms:
 *   cpu | gpu | accelerator   devices of that type
 *   P:D                       device D of real platform P (indices from 0)
 *   N                         the N-th device over all platforms
 *   any other text            a case-insensitive substring of the device or platform name
 *   !term                     excludes what `term` matches
 * With no positive term every device is selected, then the exclusions apply.
 */
#ifndef SKMD_SELECT_H
#define SKMD_SELECT_H

#include <stddef.h>

enum skmd_candidate_kind { SKMD_KIND_CPU = 1, SKMD_KIND_GPU = 2, SKMD_KIND_ACCELERATOR = 4 };

struct skmd_candidate {
    int platform_index;
    int device_index;          /* within its platform */
    unsigned kinds;            /* enum skmd_candidate_kind bits */
    const char *device_name;
    const char *platform_name;
};

/* The n candidates in one line, as SKMD_DEVICES names them: "0 = 0:0 cpu \"name\"
 * (platform), 1 = ...". */
void skmd_describe_candidates(const struct skmd_candidate *cands, int n, char *out,
                              size_t size);

/* Sets selected[i] to 1 or 0 for each of the n candidates. Returns the number selected,
 * or -1 with a message in err for a malformed term (a term that matches nothing is not
 * an error: it is reported in err, and the return value is still the count). */
int skmd_select_members(const char *spec, const struct skmd_candidate *cands, int n,
                        unsigned char *selected, char *err, size_t err_size);

/* The fastest-looking of the members whose bits are set (state.c); -1 for none. */
int skmd_fastest_member(unsigned members);

#endif
