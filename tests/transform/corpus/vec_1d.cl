// A 1-D kernel indexed by get_global_id: the simplest split.
// LAUNCH kernel=saxpy dims=1 global=960 local=32 offset=0
// ARG buf float 960 rand
// ARG buf float 960 rand
// ARG buf float 960 zero
// ARG float 1.5
// LAUNCH kernel=saxpy dims=1 global=640 local=64 offset=128
// ARG buf float 960 rand
// ARG buf float 960 rand
// ARG buf float 960 zero
// ARG float -0.25
__kernel void saxpy(__global const float *x, __global const float *y, __global float *out,
                    float a)
{
    size_t i = get_global_id(0);
    out[i] = a * x[i] + y[i];
}
