// dpp.s: DPP16 lane shuffles on gfx900 (assets/dpp.toml): quad_perm,
// row_shl with BOUND_CTRL, row_shr without, row_bcast:15 under a row mask,
// wave_ror on an add, row_ror onto its own source, row_mirror on a reversed
// subtract, and an inactive source lane. v0 = lane, v1 = 10 × lane.
  v_mov_b32_dpp v2, v0 quad_perm:[3,2,1,0] row_mask:0xf bank_mask:0xf
  v_mov_b32_dpp v3, v0 row_shl:1 row_mask:0xf bank_mask:0xf bound_ctrl:1
  v_mov_b32_dpp v4, v0 row_shr:1 row_mask:0xf bank_mask:0xf
  v_mov_b32_dpp v5, v0 row_bcast:15 row_mask:0xa bank_mask:0xf
  v_add_u32_dpp v6, v0, v1 wave_ror:1 row_mask:0xf bank_mask:0xf
  v_mov_b32_dpp v7, v7 row_ror:1 row_mask:0xf bank_mask:0xf
  v_subrev_u32_dpp v8, v0, v1 row_mirror row_mask:0xf bank_mask:0xf
  s_mov_b32 exec_lo, 0xffffffef
  v_mov_b32_dpp v9, v0 row_shl:1 row_mask:0xf bank_mask:0xf bound_ctrl:1
  s_mov_b32 exec_lo, -1
  s_endpgm
