// The pixel shader RADV/ACO compiled for varyings.gfx1100 (radv-corpus; words of ACO's disassembly).
// llvm-mc-19 -arch=amdgcn -mcpu=gfx1100 assembles this back to varyings.gfx1100.bin.
BB0:
  s_mov_b64 s[0:1], exec
  s_wqm_b64 exec, s[0:1]
  s_mov_b32 m0, s2
  lds_param_load v6, attr2.x wait_vdst:15
  v_interp_p10_f32 v7, v6, v2, v6
  v_interp_p2_f32 v6, v6, v3, v7 wait_exp:7
  v_cmp_lt_f32_e32 vcc, 0x3f400000, v6
  s_and_not1_b64 exec, s[0:1], vcc
  s_cbranch_scc0 BB1
  v_mul_f32_e32 v4, 0x3e800000, v4
  v_mul_f32_e32 v5, 0x3e800000, v5
  v_floor_f32_e32 v4, v4
  v_floor_f32_e32 v5, v5
  v_add_f32_e32 v4, v4, v5
  v_mul_f32_e32 v5, 0.5, v4
  v_floor_f32_e64 v5, v5 mul:2
  v_sub_f32_e32 v4, v4, v5
  s_mov_b64 s[0:1], exec
  s_wqm_b64 exec, exec
  lds_param_load v5, attr1.x
  s_mov_b64 exec, s[0:1]
  s_waitcnt expcnt(0)
  v_mov_b32_dpp v6, v5 quad_perm:[0,0,0,0] row_mask:0xf bank_mask:0xf bound_ctrl:1 fi:1
  s_mov_b64 s[0:1], exec
  s_wqm_b64 exec, exec
  lds_param_load v5, attr0.x
  s_mov_b64 exec, s[0:1]
  v_interp_p10_f32 v7, v5, v0, v5
  v_interp_p2_f32 v7, v5, v1, v7 wait_exp:7
  v_sub_f32_e32 v5, v6, v7
  v_fmac_f32_e32 v7, v4, v5
  s_mov_b64 s[0:1], exec
  s_wqm_b64 exec, exec
  lds_param_load v5, attr1.y
  s_mov_b64 exec, s[0:1]
  s_waitcnt expcnt(0)
  v_mov_b32_dpp v6, v5 quad_perm:[0,0,0,0] row_mask:0xf bank_mask:0xf bound_ctrl:1 fi:1
  s_mov_b64 s[0:1], exec
  s_wqm_b64 exec, exec
  lds_param_load v5, attr0.y
  s_mov_b64 exec, s[0:1]
  v_interp_p10_f32 v8, v5, v0, v5
  v_interp_p2_f32 v8, v5, v1, v8 wait_exp:7
  v_sub_f32_e32 v5, v6, v8
  v_fmac_f32_e32 v8, v4, v5
  s_mov_b64 s[0:1], exec
  s_wqm_b64 exec, exec
  lds_param_load v5, attr1.z
  s_mov_b64 exec, s[0:1]
  s_waitcnt expcnt(0)
  v_mov_b32_dpp v6, v5 quad_perm:[0,0,0,0] row_mask:0xf bank_mask:0xf bound_ctrl:1 fi:1
  s_mov_b64 s[0:1], exec
  s_wqm_b64 exec, exec
  lds_param_load v5, attr0.z
  s_mov_b64 exec, s[0:1]
  v_interp_p10_f32 v9, v5, v0, v5
  v_interp_p2_f32 v9, v5, v1, v9 wait_exp:7
  v_sub_f32_e32 v5, v6, v9
  v_fmac_f32_e32 v9, v4, v5
  s_mov_b64 s[0:1], exec
  s_wqm_b64 exec, exec
  lds_param_load v5, attr1.w
  s_mov_b64 exec, s[0:1]
  s_waitcnt expcnt(0)
  v_mov_b32_dpp v6, v5 quad_perm:[0,0,0,0] row_mask:0xf bank_mask:0xf bound_ctrl:1 fi:1
  s_mov_b64 s[0:1], exec
  s_wqm_b64 exec, exec
  lds_param_load v5, attr0.w
  s_mov_b64 exec, s[0:1]
  v_interp_p10_f32 v0, v5, v0, v5
  v_interp_p2_f32 v0, v5, v1, v0 wait_exp:7
  v_sub_f32_e32 v1, v6, v0
  v_fmac_f32_e32 v0, v4, v1
  s_mov_b64 s[0:1], exec
  s_wqm_b64 exec, exec
  lds_param_load v1, attr2.y
  s_mov_b64 exec, s[0:1]
  v_interp_p10_f32 v2, v1, v2, v1
  v_interp_p2_f32 v2, v1, v3, v2 wait_exp:7
  v_mul_f32_e32 v1, v9, v2
  v_cvt_pk_rtz_f16_f32_e32 v2, v7, v8
  v_cvt_pk_rtz_f16_f32_e32 v0, v1, v0
  exp mrt0 v2, v0, off, off done
  s_endpgm
BB1:
  exp mrt0 off, off, off, off done
  s_endpgm
