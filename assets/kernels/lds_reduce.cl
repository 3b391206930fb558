// A work-group sum in LDS with barriers, and a prefix exchange through LDS.
__kernel void lds_reduce(__global const float *in, __global float *sums, __global int *perm) {
  __local float tmp[256];
  __local int idx[256];
  int l = get_local_id(0);
  int g = get_global_id(0);
  tmp[l] = in[g];
  idx[l] = g * 7;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (l < s) tmp[l] += tmp[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0) sums[get_group_id(0)] = tmp[0];
  perm[g] = idx[(l * 5 + 3) & 255];
}
