// Two kernels (regen.sh builds both into one code object), for launches in
// up to three dimensions with partial work-groups.

// ids: per work-item, 8 dwords at its flat global index: the global,
// local and group ids and the local size in x and y.
__kernel void ids(__global uint *out) {
  size_t gx = get_global_id(0), gy = get_global_id(1), gz = get_global_id(2);
  size_t i = (gz * get_global_size(1) + gy) * get_global_size(0) + gx;
  __global uint *o = out + 8 * i;
  o[0] = gx;
  o[1] = gy;
  o[2] = gz;
  o[3] = get_local_id(0) | get_local_id(1) << 10 | get_local_id(2) << 20;
  o[4] = get_group_id(0);
  o[5] = get_group_id(1) | get_group_id(2) << 16;
  o[6] = get_local_size(0);
  o[7] = get_local_size(1);
}

// grid: the dispatch packet's grid and work-group sizes, read through the
// dispatch pointer, scaled by a float argument.
__kernel void grid(__global float *out, float scale) {
  __constant ushort *p = (__constant ushort *)__builtin_amdgcn_dispatch_ptr();
  __constant uint *q = (__constant uint *)p;
  if (get_global_id(0) == 0) {
    out[0] = q[3] * scale;  // grid_size_x
    out[1] = p[2] * scale;  // workgroup_size_x
  }
}
