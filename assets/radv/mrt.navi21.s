// The pixel shader RADV/ACO compiled for mrt.navi21 (radv-corpus; words of ACO's disassembly).
// llvm-mc-19 -arch=amdgcn -mcpu=gfx1030 assembles this back to mrt.navi21.bin.
BB0:
  s_wqm_b64 exec, exec
  s_mov_b32 s0, s3
  s_movk_i32 s3, 0x8000
  s_clause 0x1
  s_load_dwordx8 s[8:15], s[2:3], null
  s_load_dwordx4 s[4:7], s[2:3], 0x50
  s_mov_b32 m0, s0
  v_interp_p1_f32_e32 v2, v0, attr0.x
  v_interp_p2_f32_e32 v2, v1, attr0.x
  v_interp_p1_f32_e32 v0, v0, attr0.y
  v_interp_p2_f32_e32 v0, v1, attr0.y
  v_mov_b32_e32 v1, 1.0
  s_waitcnt lgkmcnt(0)
  s_mov_b64 s[0:1], s[4:5]
  s_mov_b64 s[2:3], s[6:7]
  v_interp_mov_f32_e32 v5, p0, attr1.y
  v_interp_mov_f32_e32 v4, p0, attr1.x
  image_sample_l v[8:11], [v2, v0, v1], s[8:15], s[4:7] dmask:0xf dim:SQ_RSRC_IMG_2D
  s_and_b32 s0, s0, 0xf7ffffff
  s_clause 0x1
  image_load v[4:7], v[4:5], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D unorm
  image_gather4_lz v[0:3], [v2, v0], s[8:15], s[0:3] dmask:0x2 dim:SQ_RSRC_IMG_2D
  s_mov_b32 s0, 0x3e800000
  s_waitcnt vmcnt(1)
  v_fmac_f32_e32 v8, s0, v4
  v_fmac_f32_e32 v9, s0, v5
  v_fmac_f32_e32 v10, s0, v6
  v_fmac_f32_e32 v11, s0, v7
  v_cvt_pkrtz_f16_f32_e32 v4, v8, v9
  v_cvt_pkrtz_f16_f32_e32 v5, v10, v11
  exp mrt0 v4, v4, v5, v5 compr
  s_waitcnt vmcnt(0)
  exp mrt1 v0, v1, v2, v3 done vm
  s_endpgm
