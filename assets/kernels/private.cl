// A private array indexed by run-time values, which clang places in scratch:
// MUBUF through the private segment buffer's swizzled, ADD_TID V# on gfx6–
// gfx10, scratch_* instructions on gfx11 (and on gfx9/gfx10 built with
// +enable-flat-scratch: private_fs_*.hsaco).
__kernel void priv(__global const uint *in, __global uint *out) {
  uint gid = get_global_id(0);
  uint a[32];
  for (int i = 0; i < 32; i++)
    a[i] = in[(gid + i) % 64] * i;
  out[gid] = a[in[gid] % 32] + a[(gid * 7) % 32];
}
