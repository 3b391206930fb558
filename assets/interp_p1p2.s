// interp_p1p2.s: VINTRP on gfx9 (gfx900). Run it with assets/interp_p1p2.toml.
//
// M0 = 0x00030000: LDS offset 0, NEWPRIMMASK = 0b11 — quad 0 (lanes 0-3) is
// primitive 0, quad 1 (lanes 4-7) primitive 1, quads 2+ (lanes 8-63) primitive 2;
// three primitives, so each attribute holds 3 x 12 dwords.
// v0 = I and v1 = J come from the manifest; attr1 channel y is interpolated.
// Regenerate interp_p1p2.bin with assets/regen.sh.

  s_mov_b32 m0, 0x30000
  v_interp_p1_f32 v2, v0, attr1.y       // v2 = P0.y + I * P10.y
  v_interp_p2_f32 v2, v1, attr1.y       // v2 = v2 + J * P20.y
  v_interp_mov_f32 v3, p0, attr1.y      // v3 = P0.y
  s_movk_i32 s0, 0xfff0                 // s0 = -16 (sign-extended)
  s_endpgm
