// Writes what the work-item functions return, for each work-item: group ids, numbers of
// groups, offsets, local ids, the work dimension, and dimensions given at run time
// (including 3, out of range: the specification's values).
// LAUNCH kernel=ids dims=2 global=12,9 local=3,3 offset=5,7
// ARG buf uint 2048 zero
// ARG int 2
__kernel void ids(__global uint *out, int extra_dim)
{
    size_t lin = (get_global_id(1) - get_global_offset(1)) * get_global_size(0) +
                 (get_global_id(0) - get_global_offset(0));
    __global uint *o = out + lin * 14;
    o[0] = get_group_id(0);
    o[1] = get_group_id(1);
    o[2] = get_num_groups(0);
    o[3] = get_num_groups(1);
    o[4] = get_global_offset(0);
    o[5] = get_global_offset(1);
    o[6] = get_local_id(0) + 10 * get_local_id(1);
    o[7] = get_work_dim();
    o[8] = get_group_id(extra_dim);
    o[9] = get_num_groups(extra_dim + 1);
    o[10] = get_global_size(extra_dim);
    o[11] = get_global_id(extra_dim + 1);
    o[12] = get_group_id(lin % 3);
    o[13] = get_global_offset(extra_dim - 1);
}
