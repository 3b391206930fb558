// copy_img: a sampled read of src at each pixel centre (sampler smp),
// written to dst; work-item (0, 0) also stores src's width, channel data
// type and channel order (read from the image object beside the T#).
__kernel void copy_img(__read_only image2d_t src, __write_only image2d_t dst,
                       sampler_t smp, __global int *info) {
  int x = get_global_id(0), y = get_global_id(1);
  float4 c = read_imagef(src, smp, (float2)(x + 0.5f, y + 0.5f));
  write_imagef(dst, (int2)(x, y), c);
  if (x == 0 && y == 0) {
    info[0] = get_image_width(src);
    info[1] = get_image_channel_data_type(src);
    info[2] = get_image_channel_order(src);
  }
}
