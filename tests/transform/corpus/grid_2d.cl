// A 2-D stencil-free map; the width comes from get_global_size, so a share must see the
// whole launch's size. 6x5 groups: uneven shares cut rows of groups.
// LAUNCH kernel=scale2d dims=2 global=48,20 local=8,4 offset=0,0
// ARG buf float 960 rand
// ARG buf float 960 zero
// LAUNCH kernel=scale2d dims=2 global=40,16 local=8,4 offset=8,4
// ARG buf float 960 rand
// ARG buf float 960 zero
__kernel void scale2d(__global const float *in, __global float *out)
{
    size_t x = get_global_id(0), y = get_global_id(1);
    size_t w = get_global_size(0) + get_global_offset(0);
    out[y * w + x] = in[y * w + x] * 2.0f + (float)(x - y);
}
