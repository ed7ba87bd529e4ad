// Builtins on vectors wider than 256 bits (ulong16, double16, float16). PoCL takes split
// programs as SPIR bitcode, and its SPIR wrapper gets such results back wrongly on x86-64
// and passes such operands wrongly too (PoCL 5 on an AVX-512 host: zeros). The PoCL
// lowering cuts each call into calls on 256-bit pieces (element-wise builtins,
// conversions, relationals, any/all, the vload and vstore families) or writes it out
// element by element (shuffle); the split runs must match the whole ones.
// LAUNCH kernel=select_bits dims=1 global=64 local=8 offset=0
// ARG buf ulong 1024 rand
// ARG buf ulong 1024 rand
// ARG buf ulong 1024 rand
// ARG buf ulong 1024 zero
// LAUNCH kernel=clamp_scalar dims=1 global=64 local=8 offset=0
// ARG buf double 1024 rand
// ARG buf double 1024 zero
// LAUNCH kernel=round_up dims=1 global=64 local=8 offset=0
// ARG buf double 1024 rand
// ARG buf long 1024 zero
// LAUNCH kernel=compare dims=1 global=64 local=8 offset=0
// ARG buf double 1024 rand
// ARG buf long 1024 zero
// LAUNCH kernel=load_store dims=1 global=64 local=8 offset=0
// ARG buf double 1024 rand
// ARG buf double 1024 zero
// LAUNCH kernel=halves dims=1 global=64 local=8 offset=0
// ARG buf ushort 1024 rand
// ARG buf float 1024 zero
// LAUNCH kernel=reverse dims=1 global=64 local=8 offset=0
// ARG buf ulong 1024 rand
// ARG buf ulong 1024 zero
// LAUNCH kernel=larger dims=1 global=64 local=8 offset=0
// ARG buf float 1024 rand
// ARG buf float 1024 rand
// ARG buf float 1024 zero
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

__kernel void select_bits(__global const ulong16 *a, __global const ulong16 *b,
                          __global const ulong16 *c, __global ulong16 *out)
{
    int i = get_global_id(0);
    out[i] = bitselect(a[i], b[i], c[i]);
}

__kernel void clamp_scalar(__global const double16 *a, __global double16 *out)
{
    int i = get_global_id(0);
    out[i] = clamp(a[i], 0.25, 0.75);
}

__kernel void round_up(__global const double16 *a, __global long16 *out)
{
    int i = get_global_id(0);
    out[i] = convert_long16_rtp(a[i] * 1000.0);
}

__kernel void compare(__global const double16 *a, __global long16 *out)
{
    int i = get_global_id(0);
    long16 above = isgreater(a[i], (double16)0.5);
    out[i] = above + (long16)(any(above) + 2 * all(above));
}

__kernel void load_store(__global const double *a, __global double *out)
{
    size_t i = get_global_id(0);
    vstore16(vload16(i, a) * 3.0, i, out);
}

__kernel void halves(__global const half *a, __global float *out)
{
    size_t i = get_global_id(0);
    vstore16(vload_half16(i, a), i, out);
}

__kernel void reverse(__global const ulong16 *a, __global ulong16 *out)
{
    int i = get_global_id(0);
    out[i] = shuffle(a[i], (ulong16)(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0));
}

__kernel void larger(__global const float16 *a, __global const float16 *b,
                     __global float16 *out)
{
    int i = get_global_id(0);
    out[i] = fmax(a[i], b[i]);
}
