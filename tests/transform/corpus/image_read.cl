// Reading an image (analysis only: the runner has no images): splittable, the image read
// as a whole.
__constant sampler_t smp = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;
__kernel void image_blur(__read_only image2d_t img, __global float4 *out, int width)
{
    int x = get_global_id(0), y = get_global_id(1);
    float4 s = read_imagef(img, smp, (int2)(x, y)) + read_imagef(img, smp, (int2)(x + 1, y));
    out[y * width + x] = s * 0.5f;
}
