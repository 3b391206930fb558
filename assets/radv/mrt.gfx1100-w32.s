// The pixel shader RADV/ACO compiled for mrt.gfx1100-w32 (mrt.gfx1100-w32.bin), written by
// radv-corpus: gcnrun's disassembly of its words, equal to llvm-mc-19's
// (--disassemble -mcpu=gfx1100).
s_wqm_b32 exec_lo, exec_lo                               // 000000000000: BEFE1C7E
s_mov_b32 s0, s3                                         // 000000000004: BE800003
s_movk_i32 s3, 0x8000                                    // 000000000008: B0038000
s_clause 0x1                                             // 00000000000C: BF850001
s_load_b256 s[8:15], s[2:3], null                        // 000000000010: F40C0201 F8000000
s_load_b128 s[4:7], s[2:3], 0x50                         // 000000000018: F4080101 F8000050
s_mov_b32 m0, s0                                         // 000000000020: BEFD0000
lds_param_load v2, attr0.x wait_vdst:15                  // 000000000024: CE0F0002
v_interp_p10_f32 v3, v2, v0, v2 wait_exp:0               // 000000000028: CD000003 040A0102
v_interp_p2_f32 v2, v2, v1, v3 wait_exp:7                // 000000000030: CD010702 040E0302
lds_param_load v3, attr0.y wait_vdst:0                   // 000000000038: CE000103
v_interp_p10_f32 v0, v3, v0, v3 wait_exp:0               // 00000000003C: CD000000 040E0103
v_interp_p2_f32 v0, v3, v1, v0 wait_exp:7                // 000000000044: CD010700 04020303
v_mov_b32_e32 v1, 1.0                                    // 00000000004C: 7E0202F2
s_waitcnt lgkmcnt(0)                                     // 000000000050: BF89FC07
s_mov_b64 s[0:1], s[4:5]                                 // 000000000054: BE800104
s_mov_b64 s[2:3], s[6:7]                                 // 000000000058: BE820106
lds_param_load v3, attr1.y wait_vdst:1                   // 00000000005C: CE010503
s_waitcnt expcnt(0)                                      // 000000000060: BF89FFF0
v_mov_b32_dpp v3, v3 quad_perm:[0,0,0,0] row_mask:0xf bank_mask:0xf bound_ctrl:1 fi:1 // 000000000064: 7E0602FA FF0C0003
lds_param_load v4, attr1.x wait_vdst:15                  // 00000000006C: CE0F0404
s_waitcnt expcnt(0)                                      // 000000000070: BF89FFF0
v_mov_b32_dpp v4, v4 quad_perm:[0,0,0,0] row_mask:0xf bank_mask:0xf bound_ctrl:1 fi:1 // 000000000074: 7E0802FA FF0C0004
image_sample_l v[8:11], [v2, v0, v1], s[8:15], s[4:7] dmask:0xf dim:SQ_RSRC_IMG_2D // 00000000007C: F0740F05 04020802 00000100
s_and_b32 s0, s0, 0xf7ffffff                             // 000000000088: 8B00FF00 F7FFFFFF
image_load v[4:7], [v4, v3], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D unorm // 000000000090: F0000F85 00020404 00000003
image_gather4_lz v[0:3], [v2, v0], s[8:15], s[0:3] dmask:0x2 dim:SQ_RSRC_IMG_2D // 00000000009C: F0C80205 00020002 00000000
s_mov_b32 s0, 0x3e800000                                 // 0000000000A8: BE8000FF 3E800000
s_waitcnt vmcnt(1)                                       // 0000000000B0: BF8907F7
v_fmac_f32_e32 v8, s0, v4                                // 0000000000B4: 56100800
v_fmac_f32_e32 v9, s0, v5                                // 0000000000B8: 56120A00
v_fmac_f32_e32 v10, s0, v6                               // 0000000000BC: 56140C00
v_fmac_f32_e32 v11, s0, v7                               // 0000000000C0: 56160E00
v_cvt_pk_rtz_f16_f32_e32 v4, v8, v9                      // 0000000000C4: 5E081308
v_cvt_pk_rtz_f16_f32_e32 v5, v10, v11                    // 0000000000C8: 5E0A170A
exp mrt0 v4, v5, off, off                                // 0000000000CC: F8000003 80800504
s_waitcnt vmcnt(0)                                       // 0000000000D4: BF8903F7
exp mrt1 v0, v1, v2, v3 done                             // 0000000000D8: F800081F 03020100
s_endpgm                                                 // 0000000000E0: BFB00000
