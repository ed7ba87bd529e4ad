// Inclusive scan of each block (Hillis-Steele in local memory) and the block's total:
// out[i] for every element, sums[group] for the group.
// LAUNCH kernel=block_scan dims=1 global=256 local=32 offset=0
// ARG buf int 256 iota
// ARG buf int 256 zero
// ARG buf int 8 zero
// ARG local 128
__kernel void block_scan(__global const int *in, __global int *out, __global int *sums,
                         __local int *tmp)
{
    size_t l = get_local_id(0), n = get_local_size(0);
    tmp[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t off = 1; off < n; off *= 2) {
        int v = l >= off ? tmp[l - off] : 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        tmp[l] += v;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    out[get_global_id(0)] = tmp[l];
    if (l == n - 1)
        sums[get_group_id(0)] = tmp[l];
}
