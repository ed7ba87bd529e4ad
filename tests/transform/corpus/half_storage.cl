// half as a storage type (core OpenCL C, no cl_khr_fp16 needed): vload_half/vstore_half
// move 2 bytes per element, vload_half4/vstore_half4_rte 8, vloada_half3/vstorea_half3 6
// bytes with a step of 8. The second kernel writes under a data condition: merged.
// LAUNCH kernel=halves dims=1 global=128 local=16 offset=0
// ARG buf ushort 1024 rand
// ARG buf ushort 1024 zero
// ARG buf ushort 1024 zero
// LAUNCH kernel=some_halves dims=1 global=64 local=8 offset=0
// ARG buf ushort 256 rand
// ARG buf ushort 256 zero
__kernel void halves(__global const half *in, __global half *out, __global half *out3)
{
    size_t i = get_global_id(0);
    vstore_half(vload_half(i, in) * 2.0f, i, out + 512);
    vstore_half4_rte(vload_half4(i, in) + (float4)(1.0f), i, out);
    vstorea_half3(vloada_half3(i, in), i, out3);
}

__kernel void some_halves(__global const half *in, __global half *out)
{
    size_t i = get_global_id(0);
    float v = vload_half(i, in);
    if (v > 0.5f)
        vstore_half4(vload_half4(i, in) * 3.0f, i, out);
}
