// Sub-group collectives, which the device libraries build from DPP,
// ds_swizzle, ds_permute and readlane: per work-item, the sub-group's sum,
// the inclusive prefix sum, lane 3's value and the maximum.
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
__kernel void subgroups(__global const uint *in, __global uint *out) {
  uint gid = get_global_id(0);
  uint x = in[gid];
  out[4 * gid + 0] = sub_group_reduce_add(x);
  out[4 * gid + 1] = sub_group_scan_inclusive_add(x);
  out[4 * gid + 2] = sub_group_broadcast(x, 3);
  out[4 * gid + 3] = sub_group_reduce_max(x);
}
