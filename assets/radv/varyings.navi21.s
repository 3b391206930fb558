// The pixel shader RADV/ACO compiled for varyings.navi21 (radv-corpus; words of ACO's disassembly).
// llvm-mc-19 -arch=amdgcn -mcpu=gfx1030 assembles this back to varyings.navi21.bin.
BB0:
  s_mov_b32 m0, s2
  v_interp_p1_f32_e32 v6, v2, attr2.x
  v_interp_p2_f32_e32 v6, v3, attr2.x
  v_cmp_lt_f32_e32 vcc, 0x3f400000, v6
  s_andn2_b64 exec, exec, vcc
  s_cbranch_scc0 BB1
  v_mul_f32_e32 v4, 0x3e800000, v4
  v_mul_f32_e32 v5, 0x3e800000, v5
  v_floor_f32_e32 v4, v4
  v_floor_f32_e32 v5, v5
  v_add_f32_e32 v4, v4, v5
  v_mul_f32_e32 v5, 0.5, v4
  v_floor_f32_e64 v5, v5 mul:2
  v_sub_f32_e32 v4, v4, v5
  v_interp_mov_f32_e32 v5, p0, attr1.x
  v_interp_p1_f32_e32 v6, v0, attr0.x
  v_interp_p2_f32_e32 v6, v1, attr0.x
  v_sub_f32_e32 v5, v5, v6
  v_fmac_f32_e32 v6, v4, v5
  v_interp_mov_f32_e32 v5, p0, attr1.y
  v_interp_p1_f32_e32 v7, v0, attr0.y
  v_interp_p2_f32_e32 v7, v1, attr0.y
  v_sub_f32_e32 v5, v5, v7
  v_fmac_f32_e32 v7, v4, v5
  v_interp_mov_f32_e32 v5, p0, attr1.z
  v_interp_p1_f32_e32 v8, v0, attr0.z
  v_interp_p2_f32_e32 v8, v1, attr0.z
  v_sub_f32_e32 v5, v5, v8
  v_fmac_f32_e32 v8, v4, v5
  v_interp_mov_f32_e32 v5, p0, attr1.w
  v_interp_p1_f32_e32 v0, v0, attr0.w
  v_interp_p2_f32_e32 v0, v1, attr0.w
  v_sub_f32_e32 v1, v5, v0
  v_fmac_f32_e32 v0, v4, v1
  v_interp_p1_f32_e32 v1, v2, attr2.y
  v_interp_p2_f32_e32 v1, v3, attr2.y
  v_mul_f32_e32 v1, v8, v1
  v_cvt_pkrtz_f16_f32_e32 v2, v6, v7
  v_cvt_pkrtz_f16_f32_e32 v0, v1, v0
  exp mrt0 v2, v2, v0, v0 done compr vm
  s_endpgm
BB1:
  exp null off, off, off, off done vm
  s_endpgm
