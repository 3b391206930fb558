// The pixel shader RADV/ACO compiled for mrt.vega10 (radv-corpus; words of ACO's disassembly).
// llvm-mc-19 -arch=amdgcn -mcpu=gfx900 assembles this back to mrt.vega10.bin.
BB0:
  s_wqm_b64 exec, exec
  s_mov_b32 s0, s3
  s_movk_i32 s3, 0x8000
  s_load_dwordx8 s[8:15], s[2:3], 0x0
  s_load_dwordx4 s[4:7], s[2:3], 0x50
  s_mov_b32 m0, s0
  s_nop 0
  v_interp_p1_f32_e32 v2, v0, attr0.x
  v_interp_p2_f32_e32 v2, v1, attr0.x
  v_interp_p1_f32_e32 v0, v0, attr0.y
  v_interp_p2_f32_e32 v0, v1, attr0.y
  v_mov_b32_e32 v4, v2
  v_mov_b32_e32 v5, v0
  v_mov_b32_e32 v1, v0
  v_mov_b32_e32 v0, v2
  v_mov_b32_e32 v2, 1.0
  s_waitcnt lgkmcnt(0)
  s_mov_b64 s[0:1], s[4:5]
  s_mov_b64 s[2:3], s[6:7]
  v_interp_mov_f32_e32 v7, p0, attr1.y
  v_interp_mov_f32_e32 v6, p0, attr1.x
  s_and_b32 s0, s0, 0xf7ffffff
  image_sample_l v[0:3], v0, s[8:15], s[4:7] dmask:0xf
  image_load v[8:11], v6, s[8:15] dmask:0xf unorm
  image_gather4_lz v[4:7], v4, s[8:15], s[0:3] dmask:0x2
  s_mov_b32 s0, 0x3e800000
  s_waitcnt vmcnt(1)
  v_mac_f32_e32 v0, s0, v8
  v_mac_f32_e32 v1, s0, v9
  v_mac_f32_e32 v2, s0, v10
  v_mac_f32_e32 v3, s0, v11
  v_cvt_pkrtz_f16_f32 v0, v0, v1
  v_cvt_pkrtz_f16_f32 v1, v2, v3
  exp mrt0 v0, v0, v1, v1 compr
  s_waitcnt vmcnt(0)
  exp mrt1 v4, v5, v6, v7 done vm
  s_endpgm
