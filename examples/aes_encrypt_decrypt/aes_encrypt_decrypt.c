/* aes_encrypt_decrypt: AES-128 (FIPS-197) in ECB mode over a side x side 8-bit bitmap, one
 * 16-byte block per work-item, 2-D launch of 16x4 groups. The S-boxes come in as __constant
 * buffers and each group stages its S-box in __local memory; the expanded round keys stay
 * in __constant. The image is encrypted, then decrypted by a second kernel that waits on the
 * first one's event; the ciphertext must match a host AES and the decryption the image. */
#include "example.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GROUP_X 16
#define GROUP_Y 4
#define ROUNDS 10
/* The side is rounded up to a multiple of this: GROUP_X blocks of 16 bytes per row. */
#define SIDE_MULTIPLE (GROUP_X * 16)

static const char *source =
    "uchar xtime(uchar x) { return (uchar)((x << 1) ^ ((x >> 7) * 0x1b)); }\n"
    "uchar gmul(uchar a, uchar b)\n"
    "{\n"
    "    uchar p = 0;\n"
    "    for (int i = 0; i < 8; i++, b >>= 1, a = xtime(a))\n"
    "        if (b & 1)\n"
    "            p ^= a;\n"
    "    return p;\n"
    "}\n"
    "\n"
    "/* Copies a 256-byte table into local memory, the whole group sharing the work. */\n"
    "void stage_table(__local uchar *dst, __constant uchar *src)\n"
    "{\n"
    "    uint lid = get_local_id(1) * get_local_size(0) + get_local_id(0);\n"
    "    uint lsize = get_local_size(0) * get_local_size(1);\n"
    "    for (uint i = lid; i < 256; i += lsize)\n"
    "        dst[i] = src[i];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "}\n"
    "\n"
    "__kernel void aes_encrypt(__global const uchar *in, __global uchar *out,\n"
    "                          __constant uchar *sbox_table, __constant uchar *round_keys,\n"
    "                          uint width)\n"
    "{\n"
    "    __local uchar sbox[256];\n"
    "    stage_table(sbox, sbox_table);\n"
    "    size_t base = get_global_id(1) * width + get_global_id(0) * 16;\n"
    "    uchar s[16], t[16];\n"
    "    for (int i = 0; i < 16; i++)\n"
    "        s[i] = in[base + i] ^ round_keys[i];\n"
    "    for (int round = 1; round <= ROUNDS; round++) {\n"
    "        /* SubBytes and ShiftRows: row r of column c comes from column c + r. */\n"
    "        for (int c = 0; c < 4; c++)\n"
    "            for (int r = 0; r < 4; r++)\n"
    "                t[r + 4 * c] = sbox[s[r + 4 * ((c + r) & 3)]];\n"
    "        for (int c = 0; c < 4; c++) {\n"
    "            uchar a0 = t[4 * c], a1 = t[4 * c + 1], a2 = t[4 * c + 2], a3 = t[4 * c + 3];\n"
    "            if (round < ROUNDS) { /* MixColumns */\n"
    "                s[4 * c] = xtime(a0) ^ xtime(a1) ^ a1 ^ a2 ^ a3;\n"
    "                s[4 * c + 1] = a0 ^ xtime(a1) ^ xtime(a2) ^ a2 ^ a3;\n"
    "                s[4 * c + 2] = a0 ^ a1 ^ xtime(a2) ^ xtime(a3) ^ a3;\n"
    "                s[4 * c + 3] = xtime(a0) ^ a0 ^ a1 ^ a2 ^ xtime(a3);\n"
    "            } else {\n"
    "                s[4 * c] = a0; s[4 * c + 1] = a1; s[4 * c + 2] = a2; s[4 * c + 3] = a3;\n"
    "            }\n"
    "        }\n"
    "        for (int i = 0; i < 16; i++)\n"
    "            s[i] ^= round_keys[16 * round + i];\n"
    "    }\n"
    "    for (int i = 0; i < 16; i++)\n"
    "        out[base + i] = s[i];\n"
    "}\n"
    "\n"
    "__kernel void aes_decrypt(__global const uchar *in, __global uchar *out,\n"
    "                          __constant uchar *inv_sbox_table, __constant uchar *round_keys,\n"
    "                          uint width)\n"
    "{\n"
    "    __local uchar inv_sbox[256];\n"
    "    stage_table(inv_sbox, inv_sbox_table);\n"
    "    size_t base = get_global_id(1) * width + get_global_id(0) * 16;\n"
    "    uchar s[16], t[16];\n"
    "    for (int i = 0; i < 16; i++)\n"
    "        s[i] = in[base + i] ^ round_keys[16 * ROUNDS + i];\n"
    "    for (int round = ROUNDS - 1; round >= 0; round--) {\n"
    "        /* InvShiftRows and InvSubBytes: row r of column c goes back to column c + r. */\n"
    "        for (int c = 0; c < 4; c++)\n"
    "            for (int r = 0; r < 4; r++)\n"
    "                t[r + 4 * ((c + r) & 3)] = inv_sbox[s[r + 4 * c]];\n"
    "        for (int i = 0; i < 16; i++)\n"
    "            t[i] ^= round_keys[16 * round + i];\n"
    "        for (int c = 0; c < 4; c++) {\n"
    "            uchar a0 = t[4 * c], a1 = t[4 * c + 1], a2 = t[4 * c + 2], a3 = t[4 * c + 3];\n"
    "            if (round > 0) { /* InvMixColumns */\n"
    "                s[4 * c] = gmul(a0, 14) ^ gmul(a1, 11) ^ gmul(a2, 13) ^ gmul(a3, 9);\n"
    "                s[4 * c + 1] = gmul(a0, 9) ^ gmul(a1, 14) ^ gmul(a2, 11) ^ gmul(a3, 13);\n"
    "                s[4 * c + 2] = gmul(a0, 13) ^ gmul(a1, 9) ^ gmul(a2, 14) ^ gmul(a3, 11);\n"
    "                s[4 * c + 3] = gmul(a0, 11) ^ gmul(a1, 13) ^ gmul(a2, 9) ^ gmul(a3, 14);\n"
    "            } else {\n"
    "                s[4 * c] = a0; s[4 * c + 1] = a1; s[4 * c + 2] = a2; s[4 * c + 3] = a3;\n"
    "            }\n"
    "        }\n"
    "    }\n"
    "    for (int i = 0; i < 16; i++)\n"
    "        out[base + i] = s[i];\n"
    "}\n";

/* ---- Host AES-128, written independently of the kernels: the reference. ---- */

static uint8_t xtime(uint8_t x) { return (uint8_t)((x << 1) ^ ((x >> 7) * 0x1b)); }

static uint8_t rotl8(uint8_t x, int n) { return (uint8_t)((x << n) | (x >> (8 - n))); }

/* The S-box from its definition: multiplicative inverse in GF(2^8), then the affine map.
 * p walks the field by powers of 3 and q by powers of 3^-1, so q = p^-1 at each step. */
static void make_sboxes(uint8_t sbox[256], uint8_t inv_sbox[256])
{
    uint8_t p = 1, q = 1;
    do {
        p = p ^ xtime(p);
        q ^= q << 1;
        q ^= q << 2;
        q ^= q << 4;
        if (q & 0x80)
            q ^= 0x09;
        uint8_t s = q ^ rotl8(q, 1) ^ rotl8(q, 2) ^ rotl8(q, 3) ^ rotl8(q, 4) ^ 0x63;
        sbox[p] = s;
    } while (p != 1);
    sbox[0] = 0x63;
    for (int i = 0; i < 256; i++)
        inv_sbox[sbox[i]] = (uint8_t)i;
}

static void expand_key(const uint8_t key[16], const uint8_t sbox[256], uint8_t rk[16 * (ROUNDS + 1)])
{
    uint8_t rcon = 1;
    memcpy(rk, key, 16);
    for (int i = 4; i < 4 * (ROUNDS + 1); i++) {
        uint8_t t[4];
        memcpy(t, rk + 4 * (i - 1), 4);
        if (i % 4 == 0) {
            uint8_t t0 = t[0];
            t[0] = sbox[t[1]] ^ rcon;
            t[1] = sbox[t[2]];
            t[2] = sbox[t[3]];
            t[3] = sbox[t0];
            rcon = xtime(rcon);
        }
        for (int j = 0; j < 4; j++)
            rk[4 * i + j] = rk[4 * (i - 4) + j] ^ t[j];
    }
}

static void encrypt_block(const uint8_t in[16], uint8_t out[16], const uint8_t sbox[256],
                          const uint8_t rk[16 * (ROUNDS + 1)])
{
    uint8_t s[16], t[16];
    for (int i = 0; i < 16; i++)
        s[i] = in[i] ^ rk[i];
    for (int round = 1; round <= ROUNDS; round++) {
        for (int i = 0; i < 16; i++) /* SubBytes then ShiftRows, as two steps */
            t[i] = sbox[s[i]];
        for (int r = 1; r < 4; r++)
            for (int c = 0; c < 4; c++)
                s[r + 4 * c] = t[r + 4 * ((c + r) % 4)];
        for (int c = 0; c < 4; c++)
            s[4 * c] = t[4 * c];
        if (round < ROUNDS)
            for (int c = 0; c < 4; c++) {
                uint8_t *col = s + 4 * c, all = col[0] ^ col[1] ^ col[2] ^ col[3], first = col[0];
                for (int r = 0; r < 4; r++) /* b_r = a_r ^ all ^ 2(a_r ^ a_{r+1}) */
                    col[r] ^= all ^ xtime(col[r] ^ (r < 3 ? col[r + 1] : first));
            }
        for (int i = 0; i < 16; i++)
            s[i] ^= rk[16 * round + i];
    }
    memcpy(out, s, 16);
}

/* FIPS-197 appendix C.1: proves the host reference is AES before it judges the device. */
static int host_aes_selftest(const uint8_t sbox[256])
{
    static const uint8_t want[16] = {0x69, 0xc4, 0xe0, 0xd8, 0x6a, 0x7b, 0x04, 0x30,
                                     0xd8, 0xcd, 0xb7, 0x80, 0x70, 0xb4, 0xc5, 0x5a};
    uint8_t key[16], plain[16], rk[16 * (ROUNDS + 1)], got[16];
    for (int i = 0; i < 16; i++) {
        key[i] = (uint8_t)i;
        plain[i] = (uint8_t)(i * 0x11);
    }
    expand_key(key, sbox, rk);
    encrypt_block(plain, got, sbox, rk);
    return memcmp(got, want, 16) == 0;
}

static int compare_bytes(const char *what, const uint8_t *got, const uint8_t *want, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (got[i] != want[i]) {
            fprintf(stderr, "%s: mismatch at byte %zu: got %u want %u\n", what, i, got[i], want[i]);
            return 0;
        }
    return 1;
}

struct state {
    struct example_cl *cl;
    cl_kernel encrypt, decrypt;
    cl_mem image, cipher, plain;
    uint8_t *himage, *hcipher, *hplain;
    size_t bytes, global[2], local[2];
};

static void run(void *arg)
{
    struct state *s = arg;
    cl_command_queue q = s->cl->queue;
    cl_event encrypted, decrypted;
    example_check(clEnqueueWriteBuffer(q, s->image, CL_FALSE, 0, s->bytes, s->himage, 0, NULL, NULL),
                  "write image");
    example_check(clEnqueueNDRangeKernel(q, s->encrypt, 2, NULL, s->global, s->local, 0, NULL, &encrypted),
                  "launch aes_encrypt");
    example_check(clEnqueueNDRangeKernel(q, s->decrypt, 2, NULL, s->global, s->local, 1, &encrypted,
                                         &decrypted),
                  "launch aes_decrypt");
    example_check(clEnqueueReadBuffer(q, s->cipher, CL_FALSE, 0, s->bytes, s->hcipher, 1, &encrypted, NULL),
                  "read cipher");
    example_check(clEnqueueReadBuffer(q, s->plain, CL_TRUE, 0, s->bytes, s->hplain, 1, &decrypted, NULL),
                  "read plain");
    clReleaseEvent(encrypted);
    clReleaseEvent(decrypted);
}

static void set_args(cl_kernel k, cl_mem in, cl_mem out, cl_mem table, cl_mem keys, cl_uint width)
{
    example_check(clSetKernelArg(k, 0, sizeof(cl_mem), &in), "arg 0");
    example_check(clSetKernelArg(k, 1, sizeof(cl_mem), &out), "arg 1");
    example_check(clSetKernelArg(k, 2, sizeof(cl_mem), &table), "arg 2");
    example_check(clSetKernelArg(k, 3, sizeof(cl_mem), &keys), "arg 3");
    example_check(clSetKernelArg(k, 4, sizeof(cl_uint), &width), "arg 4");
}

int main(int argc, char **argv)
{
    struct example_opts o;
    example_parse(argc, argv, "bitmap side in bytes, rounded up to a multiple of 256 (default 2048)", &o);
    long side = example_size(&o, 2048, 256);
    if (side < 1 || side > 32768) {
        fprintf(stderr, "aes_encrypt_decrypt: --size %ld out of range (1 to 32768)\nFAILED\n", side);
        return 2;
    }
    side = (side + SIDE_MULTIPLE - 1) / SIDE_MULTIPLE * SIDE_MULTIPLE;

    uint8_t sbox[256], inv_sbox[256], round_keys[16 * (ROUNDS + 1)];
    make_sboxes(sbox, inv_sbox);
    if (!host_aes_selftest(sbox)) {
        fprintf(stderr, "host AES reference fails the FIPS-197 test vector\nFAILED\n");
        return 1;
    }
    static const uint8_t key[16] = {0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae, 0xd2, 0xa6,
                                    0xab, 0xf7, 0x15, 0x88, 0x09, 0xcf, 0x4f, 0x3c};
    expand_key(key, sbox, round_keys);

    struct example_cl cl;
    example_cl_init(&o, &cl);
    struct state s = {.cl = &cl, .bytes = (size_t)side * (size_t)side, .local = {GROUP_X, GROUP_Y}};
    s.global[0] = (size_t)side / 16;
    s.global[1] = (size_t)side;
    s.himage = malloc(s.bytes);
    s.hcipher = malloc(s.bytes);
    s.hplain = malloc(s.bytes);
    uint8_t *want = malloc(s.bytes);
    if (!s.himage || !s.hcipher || !s.hplain || !want)
        example_check(CL_OUT_OF_HOST_MEMORY, "malloc");
    /* A gray-level picture: diagonal gradient plus noise, so equal blocks are rare. */
    unsigned seed = 31;
    for (size_t y = 0; y < (size_t)side; y++)
        for (size_t x = 0; x < (size_t)side; x++)
            s.himage[y * side + x] = (uint8_t)((x + y) / 8 + example_rand(&seed) % 16);

    char options[32];
    snprintf(options, sizeof(options), "-DROUNDS=%d", ROUNDS);
    cl_program program = example_build(&cl, source, options);
    s.encrypt = example_kernel(program, "aes_encrypt");
    s.decrypt = example_kernel(program, "aes_decrypt");
    example_require_group_size(&cl, s.encrypt, GROUP_X * GROUP_Y);
    example_require_group_size(&cl, s.decrypt, GROUP_X * GROUP_Y);
    cl_mem sbox_buf = example_buffer(&cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, 256, sbox);
    cl_mem inv_sbox_buf = example_buffer(&cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, 256, inv_sbox);
    cl_mem keys_buf = example_buffer(&cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(round_keys),
                                     round_keys);
    s.image = example_buffer(&cl, CL_MEM_READ_ONLY, s.bytes, NULL);
    s.cipher = example_buffer(&cl, CL_MEM_READ_WRITE, s.bytes, NULL);
    s.plain = example_buffer(&cl, CL_MEM_WRITE_ONLY, s.bytes, NULL);
    set_args(s.encrypt, s.image, s.cipher, sbox_buf, keys_buf, (cl_uint)side);
    set_args(s.decrypt, s.cipher, s.plain, inv_sbox_buf, keys_buf, (cl_uint)side);

    double best, median;
    example_time(&o, run, &s, &best, &median);

    for (size_t off = 0; off < s.bytes; off += 16)
        encrypt_block(s.himage + off, want + off, sbox, round_keys);
    /* Integer work: both must match exactly. */
    int passed = compare_bytes("ciphertext", s.hcipher, want, s.bytes) &&
                 compare_bytes("decrypted image", s.hplain, s.himage, s.bytes);

    char size[48];
    snprintf(size, sizeof(size), "%ldx%ld", side, side);
    int status = example_report("aes_encrypt_decrypt", size, passed, best, median);
    clReleaseMemObject(sbox_buf);
    clReleaseMemObject(inv_sbox_buf);
    clReleaseMemObject(keys_buf);
    clReleaseMemObject(s.image);
    clReleaseMemObject(s.cipher);
    clReleaseMemObject(s.plain);
    clReleaseKernel(s.encrypt);
    clReleaseKernel(s.decrypt);
    clReleaseProgram(program);
    example_cl_release(&cl);
    free(s.himage);
    free(s.hcipher);
    free(s.hplain);
    free(want);
    return status;
}
