/* monte_carlo: prices one European call option by Monte-Carlo simulation of geometric
 * Brownian motion. Compute-bound: each work-item simulates PATHS_PER_ITEM paths of STEPS
 * log-normal steps, the normals from a counter-based generator (Philox4x32-10, counter =
 * (step / 4, path), Box-Muller) computed in the kernel, so nothing but the scalar arguments
 * goes in; each work-group sums its payoffs and their squares in local memory and writes one
 * float2 at partial[get_group_id(0)]; the host adds the partial sums. */
#include "example.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define GROUP 128
#define PATHS_PER_ITEM 4
#define PATHS_PER_GROUP (GROUP * PATHS_PER_ITEM)
#define STEPS 256        /* time steps per path, a multiple of 4 (one Philox call each 4) */
#define SPOT 100.0
#define STRIKE 110.0
#define RATE 0.05
#define SIGMA 0.20
#define YEARS 1.0
#define SEED 0x5eed2024u
#define CHECK_GROUPS 64  /* work-groups the host recomputes path by path (all when fewer) */

static const char *source =
    "#define PHILOX_M0 0xD2511F53u\n"
    "#define PHILOX_M1 0xCD9E8D57u\n"
    "#define PHILOX_W0 0x9E3779B9u\n"
    "#define PHILOX_W1 0xBB67AE85u\n"
    "#define TWO_PI 6.28318530717958647692f\n"
    "uint4 philox4x32_10(uint4 c, uint2 k)\n"
    "{\n"
    "    for (int r = 0; r < 10; r++) {\n"
    "        if (r > 0) {\n"
    "            k.x += PHILOX_W0;\n"
    "            k.y += PHILOX_W1;\n"
    "        }\n"
    "        uint hi0 = mul_hi(PHILOX_M0, c.x), lo0 = PHILOX_M0 * c.x;\n"
    "        uint hi1 = mul_hi(PHILOX_M1, c.z), lo1 = PHILOX_M1 * c.z;\n"
    "        c = (uint4)(hi1 ^ c.y ^ k.x, lo1, hi0 ^ c.w ^ k.y, lo0);\n"
    "    }\n"
    "    return c;\n"
    "}\n"
    "/* Two normals from two words: 23-bit uniforms in (0,1), exact in float. */\n"
    "float2 box_muller(uint a, uint b)\n"
    "{\n"
    "    float u1 = ((float)(a >> 9) + 0.5f) * (1.0f / 8388608.0f);\n"
    "    float u2 = ((float)(b >> 9) + 0.5f) * (1.0f / 8388608.0f);\n"
    "    float r = sqrt(-2.0f * log(u1)), theta = TWO_PI * u2;\n"
    "    return (float2)(r * cos(theta), r * sin(theta));\n"
    "}\n"
    "__kernel void monte_carlo(__global float2 *partial, float spot, float strike,\n"
    "                          float drift, float vol, uint seed)\n"
    "{\n"
    "    __local float2 scratch[GROUP];\n"
    "    uint lid = get_local_id(0);\n"
    "    float sum = 0.0f, sumsq = 0.0f;\n"
    "    for (uint p = 0; p < PATHS_PER_ITEM; p++) {\n"
    "        uint path = (uint)get_global_id(0) * PATHS_PER_ITEM + p;\n"
    "        float x = 0.0f; /* log(S_t / S_0) */\n"
    "        for (uint s = 0; s < STEPS / 4; s++) {\n"
    "            uint4 r = philox4x32_10((uint4)(s, path, 0u, 0u), (uint2)(seed, 0u));\n"
    "            float2 z0 = box_muller(r.x, r.y), z1 = box_muller(r.z, r.w);\n"
    "            x += drift + vol * z0.x;\n"
    "            x += drift + vol * z0.y;\n"
    "            x += drift + vol * z1.x;\n"
    "            x += drift + vol * z1.y;\n"
    "        }\n"
    "        float payoff = fmax(spot * exp(x) - strike, 0.0f);\n"
    "        sum += payoff;\n"
    "        sumsq += payoff * payoff;\n"
    "    }\n"
    "    scratch[lid] = (float2)(sum, sumsq);\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (uint stride = GROUP / 2; stride > 0; stride /= 2) {\n"
    "        if (lid < stride)\n"
    "            scratch[lid] += scratch[lid + stride];\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    }\n"
    "    if (lid == 0)\n"
    "        partial[get_group_id(0)] = scratch[0];\n"
    "}\n";

/* The same float constant as the kernel's TWO_PI, so that the host's angle differs from the
 * kernel's only by the kernel's rounding of the product. */
static const float two_pi_f = 6.28318530717958647692f;

struct state {
    struct example_cl *cl;
    cl_kernel kernel;
    cl_mem partial;
    float *host_partial; /* 2 per group: sum of payoffs, sum of their squares */
    size_t groups, global, local;
};

static void run(void *arg)
{
    struct state *s = arg;
    example_check(clEnqueueNDRangeKernel(s->cl->queue, s->kernel, 1, NULL, &s->global, &s->local,
                                         0, NULL, NULL),
                  "launch monte_carlo");
    example_check(clEnqueueReadBuffer(s->cl->queue, s->partial, CL_TRUE, 0,
                                      s->groups * 2 * sizeof(float), s->host_partial, 0, NULL,
                                      NULL),
                  "read partial sums");
}

/* Philox4x32-10 (Salmon et al., SC'11), as in the kernel. */
static void philox(const uint32_t ctr[4], const uint32_t key[2], uint32_t out[4])
{
    uint32_t c[4] = {ctr[0], ctr[1], ctr[2], ctr[3]}, k0 = key[0], k1 = key[1];
    for (int r = 0; r < 10; r++) {
        if (r > 0) {
            k0 += 0x9E3779B9u;
            k1 += 0xBB67AE85u;
        }
        uint64_t p0 = (uint64_t)0xD2511F53u * c[0], p1 = (uint64_t)0xCD9E8D57u * c[2];
        uint32_t n[4] = {(uint32_t)(p1 >> 32) ^ c[1] ^ k0, (uint32_t)p1,
                         (uint32_t)(p0 >> 32) ^ c[3] ^ k1, (uint32_t)p0};
        for (int i = 0; i < 4; i++)
            c[i] = n[i];
    }
    for (int i = 0; i < 4; i++)
        out[i] = c[i];
}

/* Random123's known-answer vectors for Philox4x32-10. */
static int philox_ok(void)
{
    static const uint32_t kat[3][10] = {
        {0, 0, 0, 0, 0, 0, 0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8},
        {0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0x408f276d,
         0x41c83b0e, 0xa20bc7c6, 0x6d5451fd},
        {0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344, 0xa4093822, 0x299f31d0, 0xd16cfe09,
         0x94fdcceb, 0x5001e420, 0x24126ea1},
    };
    for (int t = 0; t < 3; t++) {
        uint32_t out[4];
        philox(kat[t], kat[t] + 4, out);
        for (int i = 0; i < 4; i++)
            if (out[i] != kat[t][6 + i]) {
                fprintf(stderr, "host Philox4x32-10 fails known-answer vector %d\n", t);
                return 0;
            }
    }
    return 1;
}

/* One work-group's sums in double from the same random words, and how far the kernel's
 * float sums may be from them (bound[0] for the sum, bound[1] for the sum of squares).
 * u = FLT_EPSILON/2. Each normal z = r cos(theta) is within 32u * r of the exact one (log
 * and sqrt 3 ulp, cos and sin 4 ulp, theta's rounding up to 2 pi u), so each increment
 * drift + vol*z within 34u * vol * r + 2u |drift|, and x, their float sum, within that
 * summed plus u * sum|x_k| (one rounding per add, in the kernel's order). S_T = spot e^x
 * adds 8u (exp's 3 ulp, the product), the payoff's subtraction u; the work-item's and the
 * tree's sums (PATHS_PER_ITEM + log2(GROUP) adds of non-negative terms) u each per add.
 * The bounds are doubled. */
static void reference_group(size_t g, float drift, float vol, double out[2], double bound[2])
{
    const double u = FLT_EPSILON / 2;
    double sum = 0, sumsq = 0, err = 0, errsq = 0;
    for (size_t item = g * GROUP; item < (g + 1) * GROUP; item++) {
        for (uint32_t p = 0; p < PATHS_PER_ITEM; p++) {
            uint32_t path = (uint32_t)item * PATHS_PER_ITEM + p, key[2] = {SEED, 0};
            double x = 0, ex = 0, abs_x = 0;
            for (uint32_t s = 0; s < STEPS / 4; s++) {
                uint32_t ctr[4] = {s, path, 0, 0}, w[4];
                philox(ctr, key, w);
                for (int h = 0; h < 2; h++) {
                    double u1 = ((double)(w[2 * h] >> 9) + 0.5) / 8388608.0;
                    double u2 = ((double)(w[2 * h + 1] >> 9) + 0.5) / 8388608.0;
                    double r = sqrt(-2.0 * log(u1)), theta = (double)two_pi_f * u2;
                    double z[2] = {r * cos(theta), r * sin(theta)};
                    for (int i = 0; i < 2; i++) {
                        x += (double)drift + (double)vol * z[i];
                        ex += 34 * u * vol * r + 2 * u * fabs(drift);
                        abs_x += fabs(x);
                    }
                }
            }
            ex += u * abs_x;
            double st = SPOT * exp(x), payoff = fmax(st - STRIKE, 0.0);
            double e = st * (expm1(ex) + 8 * u) + u * payoff; /* payoff's error */
            sum += payoff;
            sumsq += payoff * payoff;
            err += e;
            errsq += 2 * payoff * e + e * e + u * payoff * payoff;
        }
    }
    const double adds = PATHS_PER_ITEM + 7; /* log2(GROUP) = 7 */
    out[0] = sum;
    out[1] = sumsq;
    bound[0] = 2 * (err + adds * u * sum);
    bound[1] = 2 * (errsq + adds * u * sumsq);
}

/* The Black-Scholes price of the call (what the simulation estimates). */
static double black_scholes(void)
{
    double sd = SIGMA * sqrt(YEARS);
    double d1 = (log(SPOT / STRIKE) + (RATE + SIGMA * SIGMA / 2) * YEARS) / sd, d2 = d1 - sd;
    return SPOT * 0.5 * erfc(-d1 / sqrt(2.0)) - STRIKE * exp(-RATE * YEARS) * 0.5 * erfc(-d2 / sqrt(2.0));
}

int main(int argc, char **argv)
{
    struct example_opts o;
    example_parse(argc, argv,
                  "number of paths, rounded up to a multiple of 512 (default 4194304; 256 steps each)",
                  &o);
    long wanted = example_size(&o, 4194304, 16384);
    if (wanted < 1 || wanted > (1L << 31)) { /* path numbers are 32-bit counters */
        fprintf(stderr, "monte_carlo: --size %ld out of range (1 to 2147483648)\nFAILED\n", wanted);
        return 2;
    }
    struct example_cl cl;
    example_cl_init(&o, &cl);

    struct state s = {.cl = &cl, .local = GROUP};
    s.groups = ((size_t)wanted + PATHS_PER_GROUP - 1) / PATHS_PER_GROUP;
    s.global = s.groups * GROUP;
    size_t paths = s.groups * PATHS_PER_GROUP;
    s.host_partial = malloc(s.groups * 2 * sizeof(float));
    if (!s.host_partial)
        example_check(CL_OUT_OF_HOST_MEMORY, "malloc");
    double dt = YEARS / STEPS;
    float drift = (float)((RATE - SIGMA * SIGMA / 2) * dt), vol = (float)(SIGMA * sqrt(dt));
    float spot = (float)SPOT, strike = (float)STRIKE;
    cl_uint seed = SEED;

    char options[96];
    snprintf(options, sizeof(options), "-DGROUP=%d -DPATHS_PER_ITEM=%d -DSTEPS=%d", GROUP,
             PATHS_PER_ITEM, STEPS);
    cl_program program = example_build(&cl, source, options);
    s.kernel = example_kernel(program, "monte_carlo");
    example_require_group_size(&cl, s.kernel, GROUP);
    s.partial = example_buffer(&cl, CL_MEM_WRITE_ONLY, s.groups * 2 * sizeof(float), NULL);
    example_check(clSetKernelArg(s.kernel, 0, sizeof(cl_mem), &s.partial), "arg 0");
    example_check(clSetKernelArg(s.kernel, 1, sizeof(float), &spot), "arg 1");
    example_check(clSetKernelArg(s.kernel, 2, sizeof(float), &strike), "arg 2");
    example_check(clSetKernelArg(s.kernel, 3, sizeof(float), &drift), "arg 3");
    example_check(clSetKernelArg(s.kernel, 4, sizeof(float), &vol), "arg 4");
    example_check(clSetKernelArg(s.kernel, 5, sizeof(cl_uint), &seed), "arg 5");

    double best, median;
    example_time(&o, run, &s, &best, &median);

    int passed = philox_ok();
    /* Path by path: every work-group of small runs, else CHECK_GROUPS spread evenly (the
     * first and last included). */
    size_t checks = s.groups <= CHECK_GROUPS ? s.groups : CHECK_GROUPS;
    for (size_t k = 0; passed && k < checks; k++) {
        size_t g = checks > 1 ? k * (s.groups - 1) / (checks - 1) : 0;
        double want[2], bound[2];
        reference_group(g, drift, vol, want, bound);
        for (int i = 0; i < 2; i++) {
            double got = s.host_partial[2 * g + i];
            if (!(fabs(got - want[i]) <= bound[i])) {
                fprintf(stderr, "group %zu %s: got %.9g want %.9g (+-%.3g)\n", g,
                        i ? "sum of squares" : "sum", got, want[i], bound[i]);
                passed = 0;
            }
        }
    }
    /* Every group and the whole: the simulation estimates the Black-Scholes price. Each
     * group's mean payoff must lie within 8 standard errors of the undiscounted price, the
     * overall price within 6 (no time-step bias: log-normal steps are exact). A group
     * that wrote nothing, or garbage, lands far outside. */
    double sum = 0, sumsq = 0;
    for (size_t g = 0; g < s.groups; g++) {
        sum += s.host_partial[2 * g];
        sumsq += s.host_partial[2 * g + 1];
    }
    double mean = sum / paths, sd = sqrt(fmax(sumsq / paths - mean * mean, 0.0));
    double bs = black_scholes(), discount = exp(-RATE * YEARS), price = discount * mean;
    double group_tol = 8 * sd / sqrt((double)PATHS_PER_GROUP);
    for (size_t g = 0; passed && g < s.groups; g++) {
        double m = s.host_partial[2 * g] / PATHS_PER_GROUP;
        if (!(fabs(m - bs / discount) <= group_tol)) {
            fprintf(stderr, "group %zu: mean payoff %.6g, expected %.6g +- %.3g\n", g, m,
                    bs / discount, group_tol);
            passed = 0;
        }
    }
    double se = discount * sd / sqrt((double)paths);
    if (!(fabs(price - bs) <= 6 * se)) {
        fprintf(stderr, "price %.6f, Black-Scholes %.6f (standard error %.3g)\n", price, bs, se);
        passed = 0;
    }
    printf("price %.6f (Black-Scholes %.6f, standard error %.2g)\n", price, bs, se);

    char size[32];
    snprintf(size, sizeof(size), "%zu", paths);
    int status = example_report("monte_carlo", size, passed, best, median);
    clReleaseMemObject(s.partial);
    clReleaseKernel(s.kernel);
    clReleaseProgram(program);
    example_cl_release(&cl);
    free(s.host_partial);
    return status;
}
