/* A struct read whole from global into private memory, as password crackers and particle
 * codes do: clang makes it one llvm.memcpy out of global memory, which is a read of the
 * source's bytes (not a block copy into global memory). */
typedef struct { uint w[8]; float scale; int pad[3]; } params_t;

__kernel void struct_copy(__global const params_t *in, __global float *out)
{
    const size_t i = get_global_id(0);
    params_t p = in[i];
    uint acc = 0;
    for (int k = 0; k < 8; k++)
        acc ^= p.w[k] << k;
    out[i] = (float)acc * p.scale;
}
