// A hand-written gfx9 pixel shader for a draw (assets/draw_interp.toml):
// attribute 0 interpolated perspective-correct (persp_center in v0, v1; the
// primitive mask in s2), attribute 1's P0 read flat, exported as four f32.
  s_mov_b32 m0, s2
  v_interp_p1_f32 v2, v0, attr0.x
  v_interp_p2_f32 v2, v1, attr0.x
  v_interp_p1_f32 v3, v0, attr0.y
  v_interp_p2_f32 v3, v1, attr0.y
  v_interp_mov_f32 v4, p0, attr1.x
  v_mov_b32 v5, 1.0
  exp mrt0 v2, v3, v4, v5 done vm
  s_endpgm
