// The pixel shader RADV/ACO compiled for tex.gfx1100 (radv-corpus; words of ACO's disassembly).
// llvm-mc-19 -arch=amdgcn -mcpu=gfx1100 assembles this back to tex.gfx1100.bin.
BB0:
  s_wqm_b64 exec, exec
  s_mov_b32 s0, s3
  s_movk_i32 s3, 0x8000
  s_clause 0x1
  s_load_b256 s[8:15], s[2:3], null
  s_load_b128 s[4:7], s[2:3], 0x50
  s_mov_b32 m0, s0
  lds_param_load v2, attr0.y wait_vdst:15
  v_interp_p10_f32 v3, v2, v0, v2
  v_interp_p2_f32 v2, v2, v1, v3 wait_exp:7
  lds_param_load v3, attr0.x
  v_interp_p10_f32 v4, v3, v0, v3
  v_interp_p2_f32 v3, v3, v1, v4 wait_exp:7
  s_waitcnt lgkmcnt(0)
  image_sample v[4:7], [v3, v2], s[8:15], s[4:7] dmask:0xf dim:SQ_RSRC_IMG_2D
  s_waitcnt_depctr 0xffe3
  lds_param_load v2, attr0.z wait_vdst:15
  v_interp_p10_f32 v3, v2, v0, v2
  v_interp_p2_f32 v2, v2, v1, v3 wait_exp:7
  lds_param_load v3, attr0.w
  v_interp_p10_f32 v8, v3, v0, v3
  v_interp_p2_f32 v3, v3, v1, v8 wait_exp:7
  lds_param_load v8, attr1.x
  v_interp_p10_f32 v9, v8, v0, v8
  v_interp_p2_f32 v8, v8, v1, v9 wait_exp:7
  lds_param_load v9, attr1.y
  v_interp_p10_f32 v0, v9, v0, v9
  v_interp_p2_f32 v0, v9, v1, v0 wait_exp:7
  s_waitcnt vmcnt(0)
  v_mul_f32_e32 v4, v4, v2
  v_mul_f32_e32 v5, v5, v3
  v_mul_f32_e32 v6, v6, v8
  v_mul_f32_e32 v0, v7, v0
  v_cvt_pk_rtz_f16_f32_e32 v1, v4, v5
  v_cvt_pk_rtz_f16_f32_e32 v0, v6, v0
  exp mrt0 v1, v0, off, off done
  s_endpgm
