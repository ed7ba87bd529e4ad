// Polybench syrk: C = alpha*A*A^T + beta*C, 2-D, in place.
// LAUNCH kernel=syrk dims=2 global=16,16 local=8,8 offset=0,0
// ARG buf float 256 rand
// ARG buf float 256 rand
// ARG float 1.5
// ARG float 0.5
// ARG int 16
// ARG int 16
__kernel void syrk(__global const float *A, __global float *C, float alpha, float beta, int n,
                   int m)
{
    int j = get_global_id(0), i = get_global_id(1);
    if (i < n && j < n) {
        float acc = C[i * n + j] * beta;
        for (int k = 0; k < m; k++)
            acc += alpha * A[i * m + k] * A[j * m + k];
        C[i * n + j] = acc;
    }
}
