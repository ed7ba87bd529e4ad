// Tiled matrix multiply C = A * B (square n x n, 16x8 tiles... here 8x8): local tiles,
// barriers, a loop over tiles whose bound is n / TILE. Each group writes an 8x8 block of C.
// LAUNCH kernel=matrix_mul dims=2 global=32,32 local=8,8 offset=0,0
// ARG buf float 1024 rand
// ARG buf float 1024 rand
// ARG buf float 1024 zero
// ARG int 32
#define TILE 8
__kernel void matrix_mul(__global const float *A, __global const float *B, __global float *C,
                         int n)
{
    __local float As[TILE][TILE], Bs[TILE][TILE];
    int row = get_global_id(1), col = get_global_id(0);
    int ly = get_local_id(1), lx = get_local_id(0);
    float acc = 0.0f;
    for (int t = 0; t < n / TILE; t++) {
        As[ly][lx] = A[row * n + t * TILE + lx];
        Bs[ly][lx] = B[(t * TILE + ly) * n + col];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < TILE; k++)
            acc += As[ly][k] * Bs[k][lx];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    C[row * n + col] = acc;
}
