// A hand-written gfx9 pixel shader for a draw (assets/draw_f16.toml): the
// f16 interpolation forms on an attribute that holds two f16 per dword
// (FP16_INTERP_MODE), low half then high half, each widened to f32 for the
// 32-bit export; attribute 1's P0 read flat.
  s_mov_b32 m0, s2
  v_interp_p1ll_f16 v2, v0, attr0.x
  v_interp_p2_f16 v2, v1, attr0.x, v2
  v_interp_p1ll_f16 v3, v0, attr0.x high
  v_interp_p2_f16 v3, v1, attr0.x, v3 high
  v_interp_mov_f32 v4, p0, attr1.x
  v_cvt_f32_f16 v2, v2
  v_cvt_f32_f16 v3, v3
  v_mov_b32 v5, 1.0
  exp mrt0 v2, v3, v4, v5 done vm
  s_endpgm
