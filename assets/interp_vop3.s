// interp_vop3.s: the VOP3 interps on gfx9 (gfx900): f32 forms with source and
// output modifiers, and the f16 forms (p1ll, p1lv, p2) with `high`.
// Run with assets/interp_vop3.toml (every value derived there).
//
// M0 = 0: LDS offset 0, one primitive; attribute 0 occupies dwords 0-11.
// v0 = I = 0.25, v1 = J = -0.5, v11 = J = 0.5, v5 = an f16 pair for p1lv.
// Regenerate interp_vop3.bin with assets/regen.sh.

  s_mov_b32 m0, 0
  v_interp_p1_f32_e64 v2, -v0, attr0.y mul:2     // (1 - 0.25*2) * 2
  v_interp_p2_f32_e64 v3, |v1|, attr0.y          // v3 + 0.5 * 8
  v_interp_p1_f32_e64 v4, v0, attr0.y clamp      // 1.5 clamped
  v_interp_p1ll_f16 v6, v0, attr0.x              // low halves
  v_interp_p1ll_f16 v7, v0, attr0.x high         // high halves
  v_interp_p1lv_f16 v8, v0, attr0.x, v5          // P0 from v5's low half
  v_interp_p1lv_f16 v9, v0, attr0.x, v5 high     // ... and its high half
  v_interp_p2_f16 v10, v11, attr0.x, v6          // f16 result in the low half
  v_interp_p2_f16 v12, v11, attr0.x, v7 high
  v_interp_p2_f16 v13, v11, attr0.x, -v6         // negated second source
  s_endpgm
