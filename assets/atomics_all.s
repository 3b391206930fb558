// atomics_all.s: every integer image atomic of gfx9 (gfx900), 32- and 64-bit, with GLC,
// each lane on its own texel (uncontended, so the returned values do not
// depend on the order of lanes). tests/gpu_diff.rs runs it on CPU and GPU.
//
// v0 = the lane's texel (x). s[4:11]: 1D 32 UINT image, s[20:27]: 1D 32_32 UINT
// (s[12:19] and s[28:35]: float images for atomics_float.s). v[2:3], v[4:5] = operands.
// Regenerate atomics_all.bin with assets/regen.sh.

  v_mov_b32 v10, v2
  image_atomic_swap v10, v0, s[4:11] dmask:0x1 unorm glc
  v_mov_b32 v11, v2
  v_mov_b32 v12, v3
  image_atomic_cmpswap v[11:12], v0, s[4:11] dmask:0x3 unorm glc
  v_mov_b32 v13, v3
  image_atomic_add v13, v0, s[4:11] dmask:0x1 unorm glc
  v_mov_b32 v14, v2
  image_atomic_sub v14, v0, s[4:11] dmask:0x1 unorm glc
  v_mov_b32 v15, v3
  image_atomic_smin v15, v0, s[4:11] dmask:0x1 unorm glc
  v_mov_b32 v16, v2
  image_atomic_umin v16, v0, s[4:11] dmask:0x1 unorm glc
  v_mov_b32 v17, v3
  image_atomic_smax v17, v0, s[4:11] dmask:0x1 unorm glc
  v_mov_b32 v18, v2
  image_atomic_umax v18, v0, s[4:11] dmask:0x1 unorm glc
  v_mov_b32 v19, v3
  image_atomic_and v19, v0, s[4:11] dmask:0x1 unorm glc
  v_mov_b32 v20, v2
  image_atomic_or v20, v0, s[4:11] dmask:0x1 unorm glc
  v_mov_b32 v21, v3
  image_atomic_xor v21, v0, s[4:11] dmask:0x1 unorm glc
  v_mov_b32 v22, v4
  image_atomic_inc v22, v0, s[4:11] dmask:0x1 unorm glc
  v_mov_b32 v23, v4
  image_atomic_dec v23, v0, s[4:11] dmask:0x1 unorm glc
  v_mov_b32 v30, v2
  v_mov_b32 v31, v3
  image_atomic_add v[30:31], v0, s[20:27] dmask:0x3 unorm glc
  v_mov_b32 v32, v3
  v_mov_b32 v33, v2
  image_atomic_smax v[32:33], v0, s[20:27] dmask:0x3 unorm glc
  v_mov_b32 v34, v4
  v_mov_b32 v35, v5
  image_atomic_dec v[34:35], v0, s[20:27] dmask:0x3 unorm glc
  v_mov_b32 v36, v2
  v_mov_b32 v37, v3
  v_mov_b32 v38, v4
  v_mov_b32 v39, v5
  image_atomic_cmpswap v[36:39], v0, s[20:27] dmask:0xf unorm glc
  s_waitcnt vmcnt(0)
  s_endpgm
