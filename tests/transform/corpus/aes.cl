// AES-like rounds (after the AMD AES sample, reduced): each work-item encrypts one 16-byte
// block with uchar4 state, S-box lookups in a __constant table and a local copy of the key.
// LAUNCH kernel=aes_encrypt dims=1 global=64 local=16 offset=0
// ARG buf uchar 1024 rand
// ARG buf uchar 1024 zero
// ARG buf uchar 256 rand
// ARG buf uchar 176 rand
__kernel void aes_encrypt(__global const uchar *in, __global uchar *out,
                          __constant uchar *sbox, __global const uchar *keys)
{
    __local uchar key[176];
    size_t l = get_local_id(0);
    for (size_t k = l; k < 176; k += get_local_size(0))
        key[k] = keys[k];
    barrier(CLK_LOCAL_MEM_FENCE);
    size_t blk = get_global_id(0);
    uchar4 s[4];
    for (int c = 0; c < 4; c++)
        s[c] = vload4(blk * 4 + c, in) ^ vload4(c, key);
    for (int round = 1; round < 10; round++)
        for (int c = 0; c < 4; c++) {
            uchar4 t = (uchar4)(sbox[s[c].x], sbox[s[(c + 1) % 4].y], sbox[s[(c + 2) % 4].z],
                                sbox[s[(c + 3) % 4].w]);
            s[c] = t ^ vload4(round * 4 + c, key);
        }
    for (int c = 0; c < 4; c++)
        vstore4(s[c], blk * 4 + c, out);
}
