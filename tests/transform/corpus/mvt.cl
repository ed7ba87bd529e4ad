// Polybench mvt, kernel 2: x2 += A^T * y2 (column walk: A read with stride n), in place.
// LAUNCH kernel=mvt_kernel2 dims=1 global=64 local=16 offset=0
// ARG buf float 4096 rand
// ARG buf float 64 rand
// ARG buf float 64 rand
// ARG int 64
__kernel void mvt_kernel2(__global const float *a, __global float *x2, __global const float *y2,
                          int n)
{
    int i = get_global_id(0);
    if (i < n)
        for (int j = 0; j < n; j++)
            x2[i] += a[j * n + i] * y2[j];
}
