// Float math builtins over their whole domain, as bit patterns: exp, log, sqrt and pown
// (the ones the NVPTX lowering writes out as NVIDIA's compiler emits them), scalar and
// vector, on ordinary values, zeros, denormals, infinities, NaNs, negative numbers and
// values near overflow; pown with exponents from -40 to 40 and large ones.
// LAUNCH kernel=unary_math dims=1 global=8192 local=64 offset=0
// ARG buf float 8192 rand
// ARG buf uint 8192 zero
// ARG buf uint 8192 zero
// ARG buf uint 8192 zero
// ARG buf uint 98304 zero
// LAUNCH kernel=pown_math dims=1 global=8192 local=64 offset=0
// ARG buf float 8192 rand
// ARG buf uint 8192 zero
// ARG buf uint 16384 zero

// Value number i: ordinary values in a range chosen by i (r in [0, 1)), and every 16th one
// a special value.
float test_value(uint i, float r)
{
    const uint special[16] = {0x00000000, 0x80000000, 0x00000001, 0x807fffff, 0x00800000,
                              0x7f800000, 0xff800000, 0x7fc00000, 0x7f7fffff, 0xff7fffff,
                              0x3f800000, 0xbf800000, 0x42b17218, 0xc2ce8ed0, 0x3f7fffff,
                              0x3f800001};
    switch (i % 8) {
    case 0: return special[(i / 8) % 16];
    case 1: return r;                         // [0, 1)
    case 2: return (r - 0.5f) * 200.0f;       // (-100, 100)
    case 3: return r * 1.0e-38f;              // denormals and small normals
    case 4: return (r + 0.5f) * 1.0e30f;      // large
    case 5: return -r * 10.0f;                // negative
    case 6: return 0.5f + r;                  // near 1
    default: return r * 90.0f;                // exp up to overflow
    }
}

__kernel void unary_math(__global const float *rand, __global uint *e, __global uint *l,
                         __global uint *s, __global uint *v)
{
    size_t i = get_global_id(0);
    float x = test_value((uint)i, rand[i]);
    e[i] = as_uint(exp(x));
    l[i] = as_uint(log(x));
    s[i] = as_uint(sqrt(x));
    float4 x4 = (float4)(x, -x, x * 0.5f, x + 1.0f);
    vstore4(as_uint4(exp(x4)), 3 * i, v);
    vstore4(as_uint4(log(x4)), 3 * i + 1, v);
    vstore4(as_uint4(sqrt(x4)), 3 * i + 2, v);
}

__kernel void pown_math(__global const float *rand, __global uint *p, __global uint *p2)
{
    size_t i = get_global_id(0);
    float x = test_value((uint)i, rand[i]);
    int n = (int)(i / 8 % 81) - 40;
    p[i] = as_uint(pown(x, n));
    // large exponents (split into 16-bit halves inside), vector form
    int2 big = (int2)(n * 70001, 65536 + n);
    vstore2(as_uint2(pown((float2)(x, 1.0f + x * 1.0e-6f), big)), i, p2);
}
