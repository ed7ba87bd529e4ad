// Binomial option pricing (AMD sample): one option per work-group, the tree in local memory,
// a loop with barriers; one result per group: out[get_group_id(0)].
// LAUNCH kernel=binomial_option dims=1 global=256 local=32 offset=0
// ARG buf float 8 rand
// ARG buf float 8 zero
// ARG local 132
#define STEPS 31
__kernel void binomial_option(__global const float *rand, __global float *out,
                              __local float *tree)
{
    size_t g = get_group_id(0), l = get_local_id(0);
    float s = rand[g] * 20.0f + 10.0f;
    float up = 1.01f, down = 1.0f / up, pu = 0.52f, pd = 1.0f - pu;
    if (l <= STEPS)
        tree[l] = fmax(s * pown(up, (int)l) * pown(down, STEPS - (int)l) - 15.0f, 0.0f);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int j = STEPS; j > 0; j--) {
        float v = 0.0f;
        if (l < (size_t)j)
            v = pu * tree[l + 1] + pd * tree[l];
        barrier(CLK_LOCAL_MEM_FENCE);
        if (l < (size_t)j)
            tree[l] = v;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0)
        out[g] = tree[0];
}
