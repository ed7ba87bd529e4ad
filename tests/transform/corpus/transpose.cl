// Transpose through a local tile (AMD sample): reads rows, writes columns of blocks; the
// write footprint of a group is TILE short row segments of the output.
// LAUNCH kernel=transpose dims=2 global=32,16 local=8,8 offset=0,0
// ARG buf float 512 zero
// ARG buf float 512 rand
// ARG int 32
// ARG int 16
#define TILE 8
__kernel void transpose(__global float *out, __global const float *in, int width, int height)
{
    __local float tile[TILE][TILE + 1];
    int gx = get_group_id(0), gy = get_group_id(1);
    int lx = get_local_id(0), ly = get_local_id(1);
    tile[ly][lx] = in[(gy * TILE + ly) * width + gx * TILE + lx];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[(gx * TILE + ly) * height + gy * TILE + lx] = tile[lx][ly];
}
