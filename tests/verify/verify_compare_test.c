/* tests/verify/verify_compare_test.c: libskmd/launch/verify_compare.c alone (no driver): element
 * kinds from type names, the first difference byte for byte and within the float and
 * double tolerances. */
#include <math.h>
#include <string.h>

#include "../common/check.h"
#include "launch/verify_compare.h"

static void kinds(void)
{
    CHECK(skmd_verify_elem_of("float*") == SKMD_VERIFY_FLOAT);
    CHECK(skmd_verify_elem_of("float4*") == SKMD_VERIFY_FLOAT);
    CHECK(skmd_verify_elem_of("double16*") == SKMD_VERIFY_DOUBLE);
    CHECK(skmd_verify_elem_of("int*") == SKMD_VERIFY_BYTES);
    CHECK(skmd_verify_elem_of("floatx*") == SKMD_VERIFY_BYTES);
    CHECK(skmd_verify_elem_of("half*") == SKMD_VERIFY_BYTES);
    CHECK(skmd_verify_elem_of("unsigned int*") == SKMD_VERIFY_BYTES);
    CHECK(skmd_verify_elem_of(NULL) == SKMD_VERIFY_BYTES);
}

static void bytes(void)
{
    unsigned char a[10] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, b[10];
    struct skmd_verify_diff d;
    memcpy(b, a, sizeof b);
    CHECK(!skmd_verify_compare(a, b, sizeof a, SKMD_VERIFY_BYTES, &d));
    b[6] ^= 1;
    b[9] ^= 0x80;
    CHECK(skmd_verify_compare(a, b, sizeof a, SKMD_VERIFY_BYTES, &d));
    CHECK(d.offset == 6 && d.elements == 2 && !d.valued);
}

static void floats(void)
{
    float a[5] = {1.0f, 1000.0f, 0.0f, NAN, 3.0f}, b[5];
    memcpy(b, a, sizeof b);
    struct skmd_verify_diff d;
    b[1] = 1000.05f; /* 5e-5 relative: within 1e-4 */
    b[2] = 5e-6f;    /* within the absolute 1e-5 */
    b[3] = -NAN;     /* any NaN matches a NaN */
    CHECK(!skmd_verify_compare((void *)a, (void *)b, sizeof a, SKMD_VERIFY_FLOAT, &d));
    /* Byte for byte they differ. */
    CHECK(skmd_verify_compare((void *)a, (void *)b, sizeof a, SKMD_VERIFY_BYTES, &d));
    b[4] = 3.01f; /* 3e-3 relative: a difference, in element 4 */
    CHECK(skmd_verify_compare((void *)a, (void *)b, sizeof a, SKMD_VERIFY_FLOAT, &d));
    CHECK(d.offset >= 16 && d.offset < 20 && d.elements == 1 && d.valued);
    CHECK(d.split_value == 3.0 && fabs(d.whole_value - 3.01) < 1e-6);
    /* A tail shorter than one element is compared byte for byte. */
    unsigned char c[6] = {0}, e[6] = {0};
    e[5] = 1;
    CHECK(skmd_verify_compare(c, e, sizeof c, SKMD_VERIFY_FLOAT, &d) && d.offset == 5);
}

static void doubles(void)
{
    double a[2] = {1.0, INFINITY}, b[2] = {1.0 + 1e-12, INFINITY};
    struct skmd_verify_diff d;
    CHECK(!skmd_verify_compare((void *)a, (void *)b, sizeof a, SKMD_VERIFY_DOUBLE, &d));
    b[1] = -INFINITY;
    CHECK(skmd_verify_compare((void *)a, (void *)b, sizeof a, SKMD_VERIFY_DOUBLE, &d));
    CHECK(d.offset >= 8 && d.elements == 1);
    b[1] = INFINITY;
    b[0] = 1.0 + 1e-8;
    CHECK(skmd_verify_compare((void *)a, (void *)b, sizeof a, SKMD_VERIFY_DOUBLE, &d));
    CHECK(!skmd_verify_close(1.0, NAN, 1e-4, 1e-5));
}

int main(void)
{
    kinds();
    bytes();
    floats();
    doubles();
    return check_report("verify_compare_test");
}
