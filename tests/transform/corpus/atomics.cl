// A global atomic: other work-groups (on other devices) must see each update, so the kernel
// cannot be split.
// LAUNCH kernel=count_positive dims=1 global=256 local=32 offset=0
// ARG buf float 256 rand
// ARG buf int 1 zero
__kernel void count_positive(__global const float *in, __global int *count)
{
    if (in[get_global_id(0)] > 0.5f)
        atomic_add(count, 1);
}
