// printf is allowed: the order of lines across work-groups is not defined anyway; the merge
// kernel does not print.
// LAUNCH kernel=say dims=1 global=4 local=2 offset=0
// ARG buf int 4 zero
__kernel void say(__global int *out)
{
    size_t i = get_global_id(0);
    if (i == 100)
        printf("never %d\n", (int)i);
    out[i] = (int)i * 3;
}
