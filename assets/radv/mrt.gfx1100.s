// The pixel shader RADV/ACO compiled for mrt.gfx1100 (radv-corpus; words of ACO's disassembly).
// llvm-mc-19 -arch=amdgcn -mcpu=gfx1100 assembles this back to mrt.gfx1100.bin.
BB0:
  s_wqm_b64 exec, exec
  s_mov_b32 s0, s3
  s_movk_i32 s3, 0x8000
  s_clause 0x1
  s_load_b256 s[8:15], s[2:3], null
  s_load_b128 s[4:7], s[2:3], 0x50
  s_mov_b32 m0, s0
  lds_param_load v2, attr0.x wait_vdst:15
  v_interp_p10_f32 v3, v2, v0, v2
  v_interp_p2_f32 v2, v2, v1, v3 wait_exp:7
  lds_param_load v3, attr0.y
  v_interp_p10_f32 v0, v3, v0, v3
  v_interp_p2_f32 v0, v3, v1, v0 wait_exp:7
  v_mov_b32_e32 v1, 1.0
  s_waitcnt lgkmcnt(0)
  s_mov_b64 s[0:1], s[4:5]
  s_mov_b64 s[2:3], s[6:7]
  lds_param_load v3, attr1.y wait_vdst:1
  s_waitcnt expcnt(0)
  v_mov_b32_dpp v3, v3 quad_perm:[0,0,0,0] row_mask:0xf bank_mask:0xf bound_ctrl:1 fi:1
  lds_param_load v4, attr1.x wait_vdst:15
  s_waitcnt expcnt(0)
  v_mov_b32_dpp v4, v4 quad_perm:[0,0,0,0] row_mask:0xf bank_mask:0xf bound_ctrl:1 fi:1
  image_sample_l v[8:11], [v2, v0, v1], s[8:15], s[4:7] dmask:0xf dim:SQ_RSRC_IMG_2D
  s_and_b32 s0, s0, 0xf7ffffff
  image_load v[4:7], [v4, v3], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D unorm
  image_gather4_lz v[0:3], [v2, v0], s[8:15], s[0:3] dmask:0x2 dim:SQ_RSRC_IMG_2D
  s_mov_b32 s0, 0x3e800000
  s_waitcnt vmcnt(1)
  v_fmac_f32_e32 v8, s0, v4
  v_fmac_f32_e32 v9, s0, v5
  v_fmac_f32_e32 v10, s0, v6
  v_fmac_f32_e32 v11, s0, v7
  v_cvt_pk_rtz_f16_f32_e32 v4, v8, v9
  v_cvt_pk_rtz_f16_f32_e32 v5, v10, v11
  exp mrt0 v4, v5, off, off
  s_waitcnt vmcnt(0)
  exp mrt1 v0, v1, v2, v3 done
  s_endpgm
