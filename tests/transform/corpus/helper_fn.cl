// Work-item functions called inside helper functions, and a kernel calling another kernel.
// LAUNCH kernel=outer dims=1 global=256 local=16 offset=32
// ARG buf int 600 zero
// ARG buf int 600 iota
// LAUNCH kernel=inner dims=1 global=128 local=8 offset=0
// ARG buf int 600 zero
// ARG buf int 600 iota
static size_t my_index(void) { return get_global_id(0); }
static int twice(int v) { return 2 * v + (int)get_group_id(0); }

__kernel void inner(__global int *out, __global const int *in)
{
    out[my_index()] = twice(in[my_index()]);
}

__kernel void outer(__global int *out, __global const int *in)
{
    inner(out, in);
    out[my_index() + 256] = (int)get_num_groups(0);
}
