// Helpers declared `inline` without `static` (C99 inline definitions), the common helper
// style of vendor samples: the front end must keep their bodies, or the split program
// calls functions it never defines and PoCL cannot link it (CL_BUILD_PROGRAM_FAILURE).
// An `extern inline` helper (an external definition in C99) alongside.
// LAUNCH kernel=blend dims=1 global=256 local=32 offset=0
// ARG buf float 256 rand
// ARG buf float 256 rand
// ARG buf float 256 zero
inline float lerp3(float a, float b, float t) { return a + (b - a) * t; }
inline int wrap(int i, int n) { return i < n ? i : i - n; }
extern inline float square(float v) { return v * v; }

__kernel void blend(__global const float *x, __global const float *y, __global float *out)
{
    int i = (int)get_global_id(0);
    int n = (int)get_global_size(0);
    out[i] = lerp3(x[i], y[wrap(i + 7, n)], 0.25f) + square(x[i]);
}
