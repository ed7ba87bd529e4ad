/* libskmd/launch/verify_compare.c: element kinds and first differences for SKMD_VERIFY
 * (verify_compare.h). */
#include "launch/verify_compare.h"

#include <math.h>
#include <string.h>

#include "../../transform/record.h"

enum skmd_verify_elem skmd_verify_elem_of(const char *type_name)
{
    unsigned bits = type_name ? skmd_type_float_bits(type_name) : 0;
    return bits == 32 ? SKMD_VERIFY_FLOAT : bits == 64 ? SKMD_VERIFY_DOUBLE : SKMD_VERIFY_BYTES;
}

int skmd_verify_close(double a, double b, double rel, double abs)
{
    if (isnan(a) || isnan(b))
        return isnan(a) && isnan(b);
    if (isinf(a) || isinf(b))
        return a == b;
    double big = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
    return fabs(a - b) <= abs + rel * big;
}

/* Element i's values as doubles. */
static void values(const unsigned char *split, const unsigned char *whole, size_t at,
                   enum skmd_verify_elem kind, double *s, double *w)
{
    if (kind == SKMD_VERIFY_FLOAT) {
        float fs, fw;
        memcpy(&fs, split + at, sizeof fs);
        memcpy(&fw, whole + at, sizeof fw);
        *s = fs;
        *w = fw;
    } else {
        memcpy(s, split + at, sizeof *s);
        memcpy(w, whole + at, sizeof *w);
    }
}

int skmd_verify_compare(const unsigned char *split, const unsigned char *whole, size_t n,
                        enum skmd_verify_elem kind, struct skmd_verify_diff *d)
{
    size_t size = kind == SKMD_VERIFY_FLOAT ? 4 : kind == SKMD_VERIFY_DOUBLE ? 8 : 1;
    double rel = kind == SKMD_VERIFY_FLOAT ? SKMD_VERIFY_FLOAT_REL : SKMD_VERIFY_DOUBLE_REL;
    double abs = kind == SKMD_VERIFY_FLOAT ? SKMD_VERIFY_FLOAT_ABS : SKMD_VERIFY_DOUBLE_ABS;
    memset(d, 0, sizeof *d);
    int found = 0;
    for (size_t at = 0; at < n; at += size) {
        size_t len = n - at < size ? n - at : size;
        if (!memcmp(split + at, whole + at, len))
            continue;
        double s = 0, w = 0;
        int valued = size > 1 && len == size;
        if (valued) {
            values(split, whole, at, kind, &s, &w);
            if (skmd_verify_close(s, w, rel, abs))
                continue;
        }
        if (!found) {
            size_t b = at;
            while (split[b] == whole[b])
                b++;
            d->offset = b;
            d->valued = valued;
            d->split_value = s;
            d->whole_value = w;
            found = 1;
        }
        d->elements++;
    }
    return found;
}
