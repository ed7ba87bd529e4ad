// A loop counting down (negative step, `>=` compare) and a do-while loop (checked at the
// latch): both become counters of the record.
// LAUNCH kernel=countdown dims=1 global=64 local=8 offset=0
// ARG buf int 512 zero
// ARG int 8
__kernel void countdown(__global int *out, int m)
{
    size_t i = get_global_id(0);
    for (int k = m - 1; k >= 0; k--)
        out[i * 8 + k] = k;
    int j = 0;
    do {
        out[i * 8 + j] += 1;
        j += 2;
    } while (j < m);
}
