// Quasi-random (Sobol-like, after the NVIDIA sample): 2-D launch, dimension in y, a loop
// over the bits of the index with a __constant direction table.
// LAUNCH kernel=quasi_random dims=2 global=64,2 local=16,1 offset=0,0
// ARG buf uint 64 iota
// ARG buf float 128 zero
// ARG int 64
__kernel void quasi_random(__constant uint *dirs, __global float *out, int n)
{
    uint i = get_global_id(0), dim = get_global_id(1);
    uint res = 0;
    for (int bit = 0; bit < 31; bit++)
        if ((i >> bit) & 1)
            res ^= dirs[(dim * 32 + bit) % 64] << 1;
    out[dim * n + i] = (float)res * (1.0f / 4294967296.0f);
}
