// Loops around image reads: a trip count that differs per work-item
// (divergent backward branch) and one that is the same for every work-item
// (a kernel argument: uniform backward branch). `#pragma unroll 1` keeps
// IGC from unrolling them, so the dumps hold the backward branches.

__kernel void loop_divergent(read_only image2d_t img, sampler_t s, __global float *out) {
  int gid = get_global_id(0);
  float acc = 0.0f;
#pragma unroll 1
  for (int k = 0; k <= gid % 4; k++)
    acc += read_imagef(img, s, (int2)(k, gid % 4)).x;
  out[gid] = acc;
}

__kernel void loop_uniform(read_only image2d_t img, sampler_t s, __global float *out, int n) {
  int gid = get_global_id(0);
  float acc = 0.0f;
#pragma unroll 1
  for (int k = 0; k < n; k++)
    acc += read_imagef(img, s, (int2)(gid % 8, k)).x;
  out[gid] = acc;
}
