// A store whose place is read from a buffer the same kernel writes: the merge kernel could
// not recompute it, so the kernel is not splittable.
// LAUNCH kernel=chase dims=1 global=64 local=16 offset=0
// ARG buf int 64 iota
// ARG buf int 64 zero
__kernel void chase(__global int *next, __global int *out)
{
    size_t i = get_global_id(0);
    next[i] = (next[i] + 1) % 64;
    out[next[(i + 1) % 64]] = (int)i;
}
