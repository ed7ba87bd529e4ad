// Writing an image (analysis only): the bytes written cannot be copied back or merged by
// libskmd, so the kernel is not splittable.
__kernel void image_fill(__write_only image2d_t img, __global const float4 *in, int width)
{
    int x = get_global_id(0), y = get_global_id(1);
    write_imagef(img, (int2)(x, y), in[y * width + x]);
}
