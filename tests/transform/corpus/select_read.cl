/* One load from either of two buffers, chosen per element (array libraries' "where" /
 * if_positive): clang loads through a select of the two pointers. Both buffers are read,
 * at places the analysis does not know: each goes whole to every share. */
__kernel void pick(__global int *out, __global const int *cond, __global const int *a,
                   __global const int *b, int n)
{
    for (int i = get_group_id(0) * get_local_size(0) + get_local_id(0); i < n;
         i += get_global_size(0))
        out[i] = cond[i] > 0 ? a[i] : b[i];
}
