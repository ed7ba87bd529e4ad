// Per-group counting with the cl_khr_local_int32_base_atomics names (atom_inc, atom_add on
// __local uint) and the 1.0 fences (mem_fence, read_mem_fence, write_mem_fence). clang's
// header declares them; PoCL's kernel library has them only under other names, which its
// own front end substitutes by macros: the split program must call those names, or PoCL
// cannot link it.
// LAUNCH kernel=bucket_count dims=1 global=256 local=32 offset=0
// ARG buf uint 256 rand
// ARG buf uint 64 zero
// ARG local 16
#pragma OPENCL EXTENSION cl_khr_local_int32_base_atomics : enable
__kernel void bucket_count(__global const uint *keys, __global uint *counts,
                           __local uint *bins)
{
    size_t l = get_local_id(0);
    if (l < 4)
        bins[l] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    uint k = keys[get_global_id(0)];
    atom_inc(&bins[k & 3]);
    if ((k & 4) != 0)
        atom_add(&bins[(k >> 3) & 3], 2u);
    mem_fence(CLK_LOCAL_MEM_FENCE);
    read_mem_fence(CLK_LOCAL_MEM_FENCE);
    write_mem_fence(CLK_GLOBAL_MEM_FENCE);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < 4)
        counts[get_group_id(0) * 4 + l] = bins[l];
}
