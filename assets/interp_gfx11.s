// interp_gfx11.s: gfx11 (gfx1100) LDSDIR + VINTERP. Run it with
// assets/interp_gfx11.toml (wave32) or assets/interp_gfx11_w64.toml (wave64);
// every expected value is computed by hand in the manifest.
//
// M0 = 0x00030080 for lds_param_load: lds_param_offset 0x80 (bits 6:0 zero, as
// the RDNA3 guide requires), NEWPRIMMASK 0b11 -> quad 0 is primitive 0, quad 1
// primitive 1, quads 2+ primitive 2 (three primitives).
// v0 = I, v1 = J, v2 = the I of the fused-multiply-add case.
// Regenerate interp_gfx11.bin with assets/regen.sh.

  s_mov_b32 m0, 0x30080
  lds_param_load v10, attr1.y wait_vdst:0     // f32 P0/P10/P20/0 per quad
  lds_param_load v11, attr0.x                 // packed f16 pairs
  lds_param_load v22, attr2.x                 // the fused-vs-unfused operands
  v_interp_p10_f32 v12, v10, v0, v10 wait_exp:0   // P10 * I + P0
  v_interp_p2_f32 v12, v10, v1, v12 wait_exp:7    // P20 * J + v12
  v_interp_p10_f32 v13, v22, v2, v22              // one ulp from a*b+c
  v_interp_p10_f16_f32 v14, v11, v0, v11          // low halves
  v_interp_p10_f16_f32 v15, v11, v0, v11 op_sel:[1,0,1,0]   // high halves
  v_interp_p2_f16_f32 v16, v11, v1, v14           // f16 into the low half
  v_interp_p2_f16_f32 v16, v11, v1, v15 op_sel:[1,0,0,1]    // high P20, high half
  v_interp_p2_f16_f32 v23, v11, v1, v14           // keeps v23's high half
  v_interp_p10_f32 v17, -v10, v0, -v10            // neg on P10 and P0
  v_interp_p2_f32 v17, v10, -v1, v17              // neg on J
  v_interp_p10_f32 v18, v10, v0, v10 clamp
  v_interp_p10_f32 v24, v10, v0, -v10 clamp
  s_mov_b32 m0, 0x20040                       // DWORD (type 2) at byte 0x40
  lds_direct_load v19
  s_mov_b32 m0, 0x30080
  s_mov_b32 exec_lo, 0x10                     // lane 4 only
  s_mov_b32 exec_hi, 0
  lds_param_load v20, attr1.y                 // writes all of quad 1
  v_interp_p10_f32 v21, v20, v0, v20          // reads inactive lanes 5 and 4's quad
  s_endpgm
