// Histogram of bytes (AMD sample, partial histograms): local atomics per group, then each
// group writes its own 256 bins: partial[group * 256 + bin].
// LAUNCH kernel=histogram256 dims=1 global=256 local=64 offset=0
// ARG buf uchar 4096 rand
// ARG buf uint 1024 zero
__kernel void histogram256(__global const uchar *data, __global uint *partial)
{
    __local uint bins[256];
    size_t l = get_local_id(0), g = get_group_id(0);
    for (size_t b = l; b < 256; b += get_local_size(0))
        bins[b] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < 16; k++)
        atomic_inc(&bins[data[get_global_id(0) * 16 + k]]);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t b = l; b < 256; b += get_local_size(0))
        partial[g * 256 + b] = bins[b];
}
