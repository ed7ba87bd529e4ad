// Black-Scholes (after the AMD/NVIDIA samples): math builtins, two outputs per option.
// LAUNCH kernel=blackscholes dims=1 global=512 local=64 offset=0
// ARG buf float 512 rand
// ARG buf float 512 rand
// ARG buf float 512 rand
// ARG buf float 512 zero
// ARG buf float 512 zero
// ARG float 0.02
// ARG float 0.30
float cnd(float d)
{
    const float a1 = 0.31938153f, a2 = -0.356563782f, a3 = 1.781477937f,
                a4 = -1.821255978f, a5 = 1.330274429f;
    float k = 1.0f / (1.0f + 0.2316419f * fabs(d));
    float c = 0.39894228040143267794f * exp(-0.5f * d * d) *
              (k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5)))));
    return d > 0 ? 1.0f - c : c;
}

__kernel void blackscholes(__global const float *price, __global const float *strike,
                           __global const float *years, __global float *call,
                           __global float *put, float r, float v)
{
    size_t i = get_global_id(0);
    float s = price[i] * 30.0f + 5.0f, x = strike[i] * 99.0f + 1.0f,
          t = years[i] * 9.75f + 0.25f;
    float sq = sqrt(t);
    float d1 = (log(s / x) + (r + 0.5f * v * v) * t) / (v * sq);
    float d2 = d1 - v * sq;
    float e = exp(-r * t);
    call[i] = s * cnd(d1) - x * e * cnd(d2);
    put[i] = x * e * (1.0f - cnd(d2)) - s * (1.0f - cnd(d1));
}
