// A data-dependent condition on a write (stream compaction without the counter): the write
// footprint is only a bound, so a merge kernel copies exactly what was written.
// LAUNCH kernel=keep_large dims=1 global=256 local=32 offset=0
// ARG buf float 256 rand
// ARG buf float 256 zero
__kernel void keep_large(__global const float *in, __global float *out)
{
    size_t i = get_global_id(0);
    float v = in[i];
    if (v > 0.5f)
        out[i] = v;
}
