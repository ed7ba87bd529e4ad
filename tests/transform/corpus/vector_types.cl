// Vector types: float4 loads and stores through float4 pointers, and vload4/vstore4 on a
// float pointer (16 bytes per access).
// LAUNCH kernel=vec4 dims=1 global=64 local=16 offset=0
// ARG buf float 256 rand
// ARG buf float 256 rand
// ARG buf float 256 zero
__kernel void vec4(__global const float4 *a, __global const float *b, __global float *c)
{
    size_t i = get_global_id(0);
    float4 v = a[i] * vload4(i, b);
    vstore4(v + (float4)(1.0f), i, c);
}
