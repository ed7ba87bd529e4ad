// __constant arguments: a coefficient table read by every work-item (a small 1-D filter),
// and a guard against reading past the end.
// LAUNCH kernel=filter dims=1 global=256 local=32 offset=0
// ARG buf float 260 rand
// ARG buf float 5 rand
// ARG buf float 256 zero
__kernel void filter(__global const float *in, __constant float *coef, __global float *out)
{
    size_t i = get_global_id(0);
    float acc = 0.0f;
    for (int k = 0; k < 5; k++)
        acc += coef[k] * in[i + k];
    out[i] = acc;
}
