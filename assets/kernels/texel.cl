// texel_buffers: image1d_buffer_t arguments, which clang reads with
// buffer_load_format_xyzw and writes with buffer_store_format_xyzw (IDXEN)
// through the V# the image object holds (assets/kernels/texel.toml).
__kernel void texel_buffers(__read_only image1d_buffer_t rgba,
                            __read_only image1d_buffer_t words,
                            __write_only image1d_buffer_t dst,
                            __global float4 *f, __global uint4 *u) {
  int i = get_global_id(0);
  float4 c = read_imagef(rgba, i);
  f[i] = c;
  write_imagef(dst, i, (float4)(c.w, c.z, c.y, c.x));
  // Elements 4..11 of an 8-element buffer: the last four are past it.
  u[i] = read_imageui(words, i + 4);
}
