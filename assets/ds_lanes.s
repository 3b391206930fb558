// ds_lanes.s: LDS-free lane exchanges on gfx900 (assets/ds_lanes.toml):
// ds_swizzle_b32 in quad-permute and bit-mask modes, ds_permute_b32 with a
// conflict, and both with an inactive lane. v0 = lane, v2 = 4 × (63 − lane),
// v9 = 4 × (lane / 2).
  ds_swizzle_b32 v3, v0 offset:swizzle(QUAD_PERM,3,2,1,0)
  ds_swizzle_b32 v4, v0 offset:swizzle(BITMASK_PERM,"01pip")
  ds_swizzle_b32 v5, v0 offset:swizzle(SWAP,16)
  ds_swizzle_b32 v6, v0 offset:swizzle(BROADCAST,8,5)
  ds_permute_b32 v7, v2, v0
  ds_permute_b32 v8, v9, v0
  s_mov_b32 exec_lo, 0xfffffffe
  ds_swizzle_b32 v10, v0 offset:swizzle(SWAP,1)
  ds_permute_b32 v11, v2, v0
  s_mov_b32 exec_lo, -1
  s_waitcnt lgkmcnt(0)
  s_endpgm
