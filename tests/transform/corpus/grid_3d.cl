// 3-D: every dimension's global id, size and offset.
// LAUNCH kernel=fill3d dims=3 global=8,6,4 local=2,3,2 offset=1,2,3
// ARG buf int 1024 zero
// LAUNCH kernel=fill3d dims=3 global=4,4,4 local=2,2,1 offset=0,0,0
// ARG buf int 1024 zero
__kernel void fill3d(__global int *out)
{
    size_t x = get_global_id(0) - get_global_offset(0);
    size_t y = get_global_id(1) - get_global_offset(1);
    size_t z = get_global_id(2) - get_global_offset(2);
    size_t sx = get_global_size(0), sy = get_global_size(1);
    out[(z * sy + y) * sx + x] = (int)(x + 100 * y + 10000 * z);
}
