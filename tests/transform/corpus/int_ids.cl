// Work-item ids kept in `int` and `uint`, with no bound check before the store, as
// conformance tests and many apps write them: instcombine turns the int's sign extension
// into a shift pair (`ashr (shl x, 32), 32`) and the uint's into a mask
// (`and x, 0xffffffff`). Both read as the id itself (an in-bounds index fits its type), so
// the writes are exact by group and no merge is needed; 16-wide 64-bit elements too.
// LAUNCH kernel=copy_int dims=1 global=512 local=32 offset=0
// ARG buf uint 512 rand
// ARG buf uint 512 zero
// LAUNCH kernel=copy_uint dims=1 global=384 local=32 offset=64
// ARG buf uint 512 rand
// ARG buf uint 512 zero
// LAUNCH kernel=wide dims=1 global=64 local=8 offset=0
// ARG buf uint 2048 rand
// ARG buf uint 2048 rand
// ARG buf uint 2048 zero
__kernel void copy_int(__global const uint *in, __global uint *out)
{
    int tid = get_global_id(0);
    out[tid] = in[tid] * 3u + 1u;
}

__kernel void copy_uint(__global const uint *in, __global uint *out)
{
    uint tid = get_global_id(0);
    out[tid] = in[tid] ^ 0x5a5a5a5au;
}

__kernel void wide(__global const ulong16 *a, __global const ulong16 *b, __global ulong16 *out)
{
    int tid = get_global_id(0);
    out[tid] = bitselect(a[tid], b[tid], a[tid] ^ b[tid]);
}
