// atomics64.s: every 64-bit image atomic of gfx7 (bonaire), one instruction
// each, with GLC. tests/gpu_atomic64.rs runs each instruction alone (it and the
// final s_endpgm) with many lanes of several waves on a few texels, on the
// native 64-bit path and on the portable fallback, and diffs GPU against CPU.
//
// v0 = the lane's texel (x); v[2:3] = data, v[4:5] = compare value (the
// compare-swaps), and the old value returns to v[2:3]. s[4:11]: 1D 32_32 UINT
// image, s[12:19]: 1D 32_32 FLOAT image.
// Regenerate atomics64.bin with assets/regen.sh.

  image_atomic_swap v[2:3], v0, s[4:11] dmask:0x3 unorm glc
  image_atomic_cmpswap v[2:5], v0, s[4:11] dmask:0xf unorm glc
  image_atomic_add v[2:3], v0, s[4:11] dmask:0x3 unorm glc
  image_atomic_sub v[2:3], v0, s[4:11] dmask:0x3 unorm glc
  image_atomic_rsub v[2:3], v0, s[4:11] dmask:0x3 unorm glc
  image_atomic_smin v[2:3], v0, s[4:11] dmask:0x3 unorm glc
  image_atomic_umin v[2:3], v0, s[4:11] dmask:0x3 unorm glc
  image_atomic_smax v[2:3], v0, s[4:11] dmask:0x3 unorm glc
  image_atomic_umax v[2:3], v0, s[4:11] dmask:0x3 unorm glc
  image_atomic_and v[2:3], v0, s[4:11] dmask:0x3 unorm glc
  image_atomic_or v[2:3], v0, s[4:11] dmask:0x3 unorm glc
  image_atomic_xor v[2:3], v0, s[4:11] dmask:0x3 unorm glc
  image_atomic_inc v[2:3], v0, s[4:11] dmask:0x3 unorm glc
  image_atomic_dec v[2:3], v0, s[4:11] dmask:0x3 unorm glc
  image_atomic_fcmpswap v[2:5], v0, s[12:19] dmask:0xf unorm glc
  image_atomic_fmin v[2:3], v0, s[12:19] dmask:0x3 unorm glc
  image_atomic_fmax v[2:3], v0, s[12:19] dmask:0x3 unorm glc
  s_endpgm
