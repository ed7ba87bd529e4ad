// Global offsets in 2-D: the kernel indexes with get_global_id, so the written rows move with
// the offset; the footprint includes it.
// LAUNCH kernel=shifted dims=2 global=16,8 local=4,4 offset=4,2
// ARG buf int 512 zero
// ARG int 24
__kernel void shifted(__global int *out, int width)
{
    size_t x = get_global_id(0), y = get_global_id(1);
    out[y * width + x] = (int)(x * 100 + y);
}
