/* A row filter that loads a tile with a halo on each side: the first column of tiles
 * starts before the row (a negative element offset), computed in size_t and narrowed to
 * int, as samples of separable convolutions write it. The clang front end folds the
 * narrowed constant to 2^32 - 16; the offsets below must read it as -16 elements. */
#define R 4
#define TW 16
__kernel __attribute__((reqd_work_group_size(TW, 1, 1)))
void halo_rows(__global float *out, __global const float *in, int pitch)
{
    __local float tile[3 * TW];
    const int x0 = (get_group_id(0) - 1) * TW + get_local_id(0);
    const int y = get_group_id(1);
    in += y * pitch + x0;
    out += y * pitch + x0;
    tile[get_local_id(0)] = x0 >= 0 ? in[0] : 0.0f;
    tile[get_local_id(0) + TW] = in[TW];
    tile[get_local_id(0) + 2 * TW] = in[2 * TW];
    barrier(CLK_LOCAL_MEM_FENCE);
    float s = 0.0f;
    for (int j = -R; j <= R; j++)
        s += tile[get_local_id(0) + TW + j];
    out[TW] = s;
}
