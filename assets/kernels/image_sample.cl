// Samples a 2D image with a normalized, linear, clamping sampler at the centre
// of each work-item's texel and writes the colour to a buffer and to an image.
__constant sampler_t smp = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_LINEAR;

__kernel void image_sample(__read_only image2d_t src, __write_only image2d_t dst,
                           __global float4 *out, int width, int height) {
  int x = get_global_id(0);
  int y = get_global_id(1);
  if (x >= width || y >= height) return;
  float2 uv = (float2)((x + 0.5f) / width, (y + 0.5f) / height);
  float4 c = read_imagef(src, smp, uv);
  out[y * width + x] = c;
  write_imagef(dst, (int2)(x, y), c * 0.5f);
  uint4 u = read_imageui(src, (int2)(x, y));
  out[width * height + y * width + x] = convert_float4(u);
}
