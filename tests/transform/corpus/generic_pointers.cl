// OpenCL C 2.0: helpers whose pointer parameters name no address space (generic) are given
// global buffers, and vload3/vstore3 take generic pointers; after inlining, the loads and
// stores go through casts to the generic space. Each access is still its parameter's:
// `out` and `acc` written (under a condition: merged), `in` read; a generic pointer that
// may point anywhere (selected from a global and a private one) is refused.
// OPTIONS -cl-std=CL2.0
void put(float *p, int i, float v) { if (v > 0.25f) p[i] = v; }
float get(const float *p, int i) { return p[i]; }

__kernel void spread(__global const float *in, __global float *out, __global float *acc)
{
    int i = get_global_id(0);
    put(out, 2 * i, get(in, i));
    vstore3(vload3(i, in) * 2.0f, i, acc);
}

__kernel void anywhere(__global float *out, int k)
{
    float mine[4] = {1.0f, 2.0f, 3.0f, 4.0f};
    int i = get_global_id(0);
    float *p = k > 0 ? (float *)(out + i) : (float *)(mine + (i & 3));
    *p = 5.0f;
    out[i + 64] = mine[k & 3];
}
