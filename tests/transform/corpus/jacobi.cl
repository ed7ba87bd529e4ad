// Polybench jacobi-2d, one sweep: a 5-point stencil on the interior (guards on both
// dimensions), reading neighbours the group does not write.
// LAUNCH kernel=jacobi2d dims=2 global=32,32 local=8,8 offset=0,0
// ARG buf float 1024 rand
// ARG buf float 1024 zero
// ARG int 32
__kernel void jacobi2d(__global const float *A, __global float *B, int n)
{
    int j = get_global_id(0), i = get_global_id(1);
    if (i >= 1 && i < n - 1 && j >= 1 && j < n - 1)
        B[i * n + j] = 0.2f * (A[i * n + j] + A[i * n + j - 1] + A[i * n + j + 1] +
                               A[(i + 1) * n + j] + A[(i - 1) * n + j]);
}
