// Polybench gesummv: y = alpha*A*x + beta*B*x, one row per work-item, two outputs.
// LAUNCH kernel=gesummv dims=1 global=64 local=16 offset=0
// ARG buf float 4096 rand
// ARG buf float 4096 rand
// ARG buf float 64 rand
// ARG buf float 64 zero
// ARG buf float 64 zero
// ARG float 1.5
// ARG float 0.5
// ARG int 64
__kernel void gesummv(__global const float *A, __global const float *B,
                      __global const float *x, __global float *y, __global float *tmp,
                      float alpha, float beta, int n)
{
    int i = get_global_id(0);
    if (i < n) {
        float t = 0.0f, u = 0.0f;
        for (int j = 0; j < n; j++) {
            t += A[i * n + j] * x[j];
            u += B[i * n + j] * x[j];
        }
        tmp[i] = t;
        y[i] = alpha * t + beta * u;
    }
}
