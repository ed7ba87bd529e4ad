// The examples' vector add: c[i] = a[i] + b[i], one element per work-item, with a tail guard.
// LAUNCH kernel=vector_add dims=1 global=1024 local=64 offset=0
// ARG buf float 1000 rand
// ARG buf float 1000 rand
// ARG buf float 1000 zero
// ARG int 1000
__kernel void vector_add(__global const float *a, __global const float *b, __global float *c,
                         int n)
{
    int i = get_global_id(0);
    if (i < n)
        c[i] = a[i] + b[i];
}
