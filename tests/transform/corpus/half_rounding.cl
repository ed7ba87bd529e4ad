// half conversions at their edges: every 16-bit pattern loaded by vload_half (NaNs with
// payloads, infinities, half denormals), and floats and doubles stored by every rounding mode
// of vstore_half/vstorea_half, scalar and vector: out of half's range, NaNs with payloads,
// float and half denormals, values on and next to a rounding boundary. Results are bit
// patterns, so a NaN's payload and the sign of a zero count.
// LAUNCH kernel=load_halves dims=1 global=16384 local=64 offset=0
// ARG buf ushort 65536 iota
// ARG buf uint 65536 zero
// ARG buf uint 65536 zero
// LAUNCH kernel=load_half_vectors dims=1 global=4096 local=32 offset=0
// ARG buf ushort 65536 iota
// ARG buf uint 65536 zero
// ARG buf uint 65536 zero
// ARG buf uint 65536 zero
// ARG buf uint 65536 zero
// LAUNCH kernel=store_halves dims=1 global=32768 local=128 offset=0
// ARG buf ushort 32768 zero
// ARG buf ushort 32768 zero
// ARG buf ushort 32768 zero
// ARG buf ushort 32768 zero
// ARG buf ushort 32768 zero
// ARG buf ushort 32768 zero
// LAUNCH kernel=store_half_vectors dims=1 global=2048 local=32 offset=0
// ARG buf ushort 32768 zero
// ARG buf ushort 32768 zero
// ARG buf ushort 32768 zero
// ARG buf ushort 24576 zero
// ARG buf ushort 32768 zero
// ARG buf ushort 32768 zero
// LAUNCH kernel=store_halves_from_double dims=1 global=16384 local=64 offset=0
// ARG buf ushort 16384 zero
// ARG buf ushort 16384 zero
// ARG buf ushort 16384 zero
// ARG buf ushort 16384 zero
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

// The 10 mantissa bits a half keeps, and the 13 bits of a float it drops (0x1000: halfway).
__constant uint heads[8] = {0, 1, 0x155, 0x1ff, 0x200, 0x2aa, 0x3fe, 0x3ff};
__constant uint tails[8] = {0, 1, 0x7ff, 0x800, 0xfff, 0x1000, 0x1001, 0x1fff};

// Float number i of 32768: sign, every exponent (zeros, float denormals, half denormals,
// half's range and past it, infinities, NaNs), 8 heads, 8 tails.
float edge_float(uint i)
{
    uint sign = (i >> 14) & 1, exponent = (i >> 6) & 0xff;
    return as_float(sign << 31 | exponent << 23 | heads[(i >> 3) & 7] << 13 | tails[i & 7]);
}

// Every 16-bit pattern, 4 per work-item: vload_half4, vload_half and vloada_half2; the
// floats' bits are stored.
__kernel void load_halves(__global const half *in, __global uint *out4, __global uint *mixed)
{
    size_t i = get_global_id(0);
    vstore4(as_uint4(vload_half4(i, in)), i, out4);
    mixed[4 * i] = as_uint(vload_half(4 * i, in));
    mixed[4 * i + 1] = as_uint(vload_half(4 * i + 1, in));
    vstore2(as_uint2(vloada_half2(2 * i + 1, in)), 2 * i + 1, mixed);
}

// Every 16-bit pattern, 16 per work-item: vload_half16, vload_half8/vloada_half8,
// vloada_half3 (a step of 4 halves) and vload_half3 (a step of 3: 15 of the 16).
__kernel void load_half_vectors(__global const half *in, __global uint *w16,
                                __global uint *w8, __global uint *w3a, __global uint *w3)
{
    size_t j = get_global_id(0);
    vstore16(as_uint16(vload_half16(j, in)), j, w16);
    vstore8(as_uint8(vload_half8(2 * j, in)), 2 * j, w8);
    vstore8(as_uint8(vloada_half8(2 * j + 1, in)), 2 * j + 1, w8);
    for (uint q = 0; q < 4; q++) {
        uint3 a = as_uint3(vloada_half3(4 * j + q, in));
        w3a[16 * j + 4 * q] = a.x;
        w3a[16 * j + 4 * q + 1] = a.y;
        w3a[16 * j + 4 * q + 2] = a.z;
    }
    for (uint q = 0; q < 5; q++)
        vstore3(as_uint3(vload_half3(5 * j + q, in)), 0, w3 + 16 * j + 3 * q);
}

// Each rounding mode of the scalar store, a round trip through vload_half, and a store
// into private memory.
__kernel void store_halves(__global half *plain, __global half *rte, __global half *rtz,
                           __global half *rtp, __global half *rtn, __global ushort *trip)
{
    size_t i = get_global_id(0);
    float x = edge_float((uint)i);
    vstore_half(x, i, plain);
    vstore_half_rte(x, i, rte);
    vstore_half_rtz(x, i, rtz);
    vstore_half_rtp(x, i, rtp);
    ushort mine;
    vstore_half_rtn(x, 0, (half *)&mine);
    vstore_half_rtn(x, i, rtn);
    // the half stored rounding down, loaded back and stored again: a NaN's payload shows
    ushort again;
    vstore_half(vload_half(0, (const half *)&mine), 0, (half *)&again);
    trip[i] = again;
}

// 16 values per work-item through every vector width, aligned or not, in every mode.
__kernel void store_half_vectors(__global half *o16, __global half *o8, __global half *o4,
                                 __global half *o3, __global half *o3a, __global half *o2)
{
    size_t i = get_global_id(0);
    float v[16];
    for (uint k = 0; k < 16; k++)
        v[k] = edge_float((uint)i * 16 + k);
    float16 x = vload16(0, v);
    vstore_half16_rtz(x, i, o16);
    vstore_half8_rtp(x.lo, 2 * i, o8);
    vstorea_half8_rtn(x.hi, 2 * i + 1, o8);
    vstore_half4(x.s0123, 4 * i, o4);
    vstorea_half4_rte(x.s4567, 4 * i + 1, o4);
    vstore_half4_rtz(x.s89ab, 4 * i + 2, o4);
    vstorea_half4_rtp(x.scdef, 4 * i + 3, o4);
    vstore_half3(x.s012, 4 * i, o3);
    vstore_half3_rte(x.s345, 4 * i + 1, o3);
    vstore_half3_rtz(x.s678, 4 * i + 2, o3);
    vstore_half3_rtn(x.s9ab, 4 * i + 3, o3);
    vstorea_half3_rtn(x.s012, 4 * i, o3a);
    vstorea_half3(x.s456, 4 * i + 1, o3a);
    vstorea_half3_rte(x.s89a, 4 * i + 2, o3a);
    vstorea_half3_rtp(x.scde, 4 * i + 3, o3a);
    vstore_half2(x.s01, 8 * i, o2);
    vstore_half2_rte(x.s23, 8 * i + 1, o2);
    vstore_half2_rtz(x.s45, 8 * i + 2, o2);
    vstore_half2_rtp(x.s67, 8 * i + 3, o2);
    vstorea_half2_rtn(x.s89, 8 * i + 4, o2);
    vstorea_half2(x.sab, 8 * i + 5, o2);
    vstorea_half2_rtz(x.scd, 8 * i + 6, o2);
    vstorea_half2_rtp(x.sef, 8 * i + 7, o2);
}

// Double number i of 16384: sign, 64 exponents (half's range and around it, zero and
// denormals, infinity and NaN), 8 heads, 16 tails of the 42 bits a half drops.
double edge_double(uint i)
{
    const ulong halfway = 1ul << 41;
    const ulong tail[16] = {0, 1, 2, halfway - 1, halfway, halfway + 1, halfway * 2 - 1,
                            halfway / 2, halfway * 3 / 2, 0x15555555555ul, 0x2aaaaaaaaaaul,
                            halfway - 2, halfway + 2, 3, halfway / 4, halfway * 2 - 2};
    ulong sign = (i >> 13) & 1, e = (i >> 7) & 63;
    const ulong special[4] = {0, 1, 2046, 2047};
    ulong exponent = e < 60 ? 1023 - 30 + e : special[e - 60];
    return as_double(sign << 63 | exponent << 52 | (ulong)heads[(i >> 4) & 7] << 42 |
                     tail[i & 15]);
}

__kernel void store_halves_from_double(__global half *rte, __global half *rtz,
                                       __global half *rtp, __global half *rtn)
{
    size_t i = get_global_id(0);
    double x = edge_double((uint)i);
    vstore_half(x, i, rte);
    vstore_half_rtz(x, i, rtz);
    vstore_half_rtp(x, i, rtp);
    vstore_half_rtn(x, i, rtn);
}
