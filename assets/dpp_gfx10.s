// dpp_gfx10.s: gfx10.3 DPP on wave32 (assets/dpp_gfx10.toml): DPP8,
// row_share, row_xmask, FI on an inactive source, and DPP8 reading an
// inactive lane without FI. v0 = lane.
  v_mov_b32_dpp v2, v0 dpp8:[7,6,5,4,3,2,1,0]
  v_mov_b32_dpp v3, v0 row_share:3 row_mask:0xf bank_mask:0xf
  v_mov_b32_dpp v4, v0 row_xmask:5 row_mask:0xf bank_mask:0xf
  s_mov_b32 exec_lo, 0xffffffef
  v_mov_b32_dpp v5, v0 row_shl:1 row_mask:0xf bank_mask:0xf fi:1
  v_mov_b32_dpp v6, v0 dpp8:[4,4,4,4,4,4,4,4]
  s_mov_b32 exec_lo, -1
  s_endpgm
