// atomics_float.s: the float image atomics (FCMPSWAP, FMIN, FMAX, 32- and 64-bit)
// of gfx7 (bonaire; gfx8 and gfx9 dropped them), with GLC, each lane on its own
// texel. Same registers as atomics_all.s: s[12:19] 1D 32 FLOAT, s[28:35] 1D
// 32_32 FLOAT. Regenerate atomics_float.bin with assets/regen.sh.

  v_mov_b32 v25, v3
  image_atomic_fmin v25, v0, s[12:19] dmask:0x1 unorm glc
  v_mov_b32 v26, v2
  image_atomic_fmax v26, v0, s[12:19] dmask:0x1 unorm glc
  v_mov_b32 v27, v3
  v_mov_b32 v28, v2
  image_atomic_fcmpswap v[27:28], v0, s[12:19] dmask:0x3 unorm glc
  v_mov_b32 v40, v3
  v_mov_b32 v41, v2
  image_atomic_fmin v[40:41], v0, s[28:35] dmask:0x3 unorm glc
  v_mov_b32 v42, v2
  v_mov_b32 v43, v3
  image_atomic_fmax v[42:43], v0, s[28:35] dmask:0x3 unorm glc
  v_mov_b32 v44, v4
  v_mov_b32 v45, v5
  v_mov_b32 v46, v2
  v_mov_b32 v47, v3
  image_atomic_fcmpswap v[44:47], v0, s[28:35] dmask:0xf unorm glc
  s_waitcnt vmcnt(0)
  s_endpgm
