// Polybench gemm: C = alpha*A*B + beta*C, one element of C per work-item (2-D), read and
// written in place, a loop over k with a scalar bound.
// LAUNCH kernel=gemm dims=2 global=16,24 local=8,4 offset=0,0
// ARG buf float 480 rand
// ARG buf float 320 rand
// ARG buf float 384 rand
// ARG float 1.5
// ARG float 0.5
// ARG int 24
// ARG int 16
// ARG int 20
__kernel void gemm(__global const float *A, __global const float *B, __global float *C,
                   float alpha, float beta, int ni, int nj, int nk)
{
    int j = get_global_id(0), i = get_global_id(1);
    if (i < ni && j < nj) {
        float acc = C[i * nj + j] * beta;
        for (int k = 0; k < nk; k++)
            acc += alpha * A[i * nk + k] * B[k * nj + j];
        C[i * nj + j] = acc;
    }
}
