// Indirect (scatter) writes out[perm(idx[i])]: the place comes from a buffer the kernel
// only reads, so the merge kernel can recompute it: splittable, with a merge.
// LAUNCH kernel=scatter dims=1 global=256 local=32 offset=0
// ARG buf int 256 iota
// ARG buf float 256 rand
// ARG buf float 256 zero
__kernel void scatter(__global const int *idx, __global const float *in, __global float *out)
{
    size_t i = get_global_id(0);
    out[(idx[i] * 7) % 256] = in[i] * 2.0f;
}
