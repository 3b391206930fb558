// The pixel shader RADV/ACO compiled for tex.navi21 (radv-corpus; words of ACO's disassembly).
// llvm-mc-19 -arch=amdgcn -mcpu=gfx1030 assembles this back to tex.navi21.bin.
BB0:
  s_wqm_b64 exec, exec
  s_mov_b32 s0, s3
  s_movk_i32 s3, 0x8000
  s_clause 0x1
  s_load_dwordx8 s[8:15], s[2:3], null
  s_load_dwordx4 s[4:7], s[2:3], 0x50
  s_mov_b32 m0, s0
  v_interp_p1_f32_e32 v2, v0, attr0.y
  v_interp_p2_f32_e32 v2, v1, attr0.y
  v_interp_p1_f32_e32 v3, v0, attr0.x
  v_interp_p2_f32_e32 v3, v1, attr0.x
  s_waitcnt lgkmcnt(0)
  image_sample v[4:7], [v3, v2], s[8:15], s[4:7] dmask:0xf dim:SQ_RSRC_IMG_2D
  v_interp_p1_f32_e32 v2, v0, attr0.z
  v_interp_p2_f32_e32 v2, v1, attr0.z
  v_interp_p1_f32_e32 v3, v0, attr0.w
  v_interp_p2_f32_e32 v3, v1, attr0.w
  v_interp_p1_f32_e32 v8, v0, attr1.x
  v_interp_p2_f32_e32 v8, v1, attr1.x
  v_interp_p1_f32_e32 v0, v0, attr1.y
  v_interp_p2_f32_e32 v0, v1, attr1.y
  s_waitcnt vmcnt(0)
  v_mul_f32_e32 v4, v4, v2
  v_mul_f32_e32 v5, v5, v3
  v_mul_f32_e32 v6, v6, v8
  v_mul_f32_e32 v0, v7, v0
  v_cvt_pkrtz_f16_f32_e32 v1, v4, v5
  v_cvt_pkrtz_f16_f32_e32 v0, v6, v0
  exp mrt0 v1, v1, v0, v0 done compr vm
  s_endpgm
