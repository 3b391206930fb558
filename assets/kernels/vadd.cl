// c[i] = a[i] + b[i] for i < n: global buffers and a by-value argument.
// Built by regen.sh for gfx900, gfx1030 (wave32 and wave64) and gfx1100, and
// as code object V4 for gfx900.
__kernel void vadd(__global const uint *a, __global const uint *b,
                   __global uint *c, uint n) {
  uint i = get_global_id(0);
  if (i < n)
    c[i] = a[i] + b[i];
}
