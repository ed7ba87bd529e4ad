// A write whose place comes through local memory filled from a read-only buffer: the merge
// kernel recomputes it (splittable, merged).
// LAUNCH kernel=via_local dims=1 global=128 local=16 offset=0
// ARG buf int 128 iota
// ARG buf int 128 zero
__kernel void via_local(__global const int *idx, __global int *out)
{
    __local int tmp[16];
    size_t l = get_local_id(0);
    tmp[l] = idx[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[tmp[15 - l]] = (int)l;
}
