// Local memory and barriers: each group sums its slice; one output per group.
// LAUNCH kernel=group_sum dims=1 global=512 local=32 offset=0
// ARG buf float 512 rand
// ARG buf float 16 zero
// ARG local 128
__kernel void group_sum(__global const float *in, __global float *sums, __local float *tmp)
{
    size_t l = get_local_id(0);
    tmp[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t s = get_local_size(0) / 2; s > 0; s /= 2) {
        if (l < s)
            tmp[l] += tmp[l + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0)
        sums[get_group_id(0)] = tmp[0];
}
