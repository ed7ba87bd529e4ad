// Strided writes: each work-item writes every 4th int of its own 16-int block (not
// contiguous: one interval per element), plus a loop with a constant trip count.
// LAUNCH kernel=strided dims=1 global=64 local=16 offset=0
// ARG buf int 1024 zero
__kernel void strided(__global int *out)
{
    size_t i = get_global_id(0);
    for (int k = 0; k < 4; k++)
        out[i * 16 + k * 4] = (int)i * 10 + k;
}
