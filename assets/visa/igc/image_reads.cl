// Image reads IGC lowers to the 3D sampler: normalized float coordinates on
// 1D/2D/3D/array images (sample_lz), an explicit LOD on a mip-mapped image,
// integer coordinates, integer formats, an inline sampler, and the size
// queries (IGC answers those from implicit arguments, not with resinfo).

__kernel void read_1d(read_only image1d_t img, sampler_t s, __global float4 *out) {
  int gid = get_global_id(0);
  out[gid] = read_imagef(img, s, gid * 0.01f);
}

__kernel void read_1d_array(read_only image1d_array_t img, sampler_t s, __global float4 *out) {
  int gid = get_global_id(0);
  out[gid] = read_imagef(img, s, (float2)(gid * 0.01f, 1.0f));
}

__kernel void read_2d_array_int_coords(read_only image2d_array_t img, sampler_t s, __global float4 *out) {
  int gid = get_global_id(0);
  out[gid] = read_imagef(img, s, (int4)(gid, 2, 1, 0));
}

__kernel void read_3d(read_only image3d_t img, sampler_t s, __global float4 *out) {
  int gid = get_global_id(0);
  out[gid] = read_imagef(img, s, (float4)(gid * 0.01f, 0.25f, 0.75f, 0.0f));
}

__kernel void read_2d_lod(read_only image2d_t img, sampler_t s, __global float4 *out, float lod) {
  int gid = get_global_id(0);
  out[gid] = read_imagef(img, s, (float2)(gid * 0.01f, 0.5f), lod);
}

__kernel void read_2d_ui(read_only image2d_t img, sampler_t s, __global uint4 *out) {
  int gid = get_global_id(0);
  out[gid] = read_imageui(img, s, (float2)(gid * 0.01f, 0.5f));
}

__kernel void read_2d_i_nosampler(read_only image2d_t img, __global int4 *out) {
  int gid = get_global_id(0);
  out[gid] = read_imagei(img, (int2)(gid, 3));
}

__kernel void image_size(read_only image3d_t img, __global int4 *out) {
  int gid = get_global_id(0);
  out[gid] = (int4)(get_image_width(img), get_image_height(img), get_image_depth(img), gid);
}

__constant sampler_t linear_repeat = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_LINEAR;

__kernel void read_2d_inline_sampler(read_only image2d_t img, __global float4 *out) {
  int gid = get_global_id(0);
  out[gid] = read_imagef(img, linear_repeat, (float2)(gid * 0.01f, 0.5f));
}
