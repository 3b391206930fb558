// The pixel shader RADV/ACO compiled for tex.gfx1100-w32 (tex.gfx1100-w32.bin), written by
// radv-corpus: gcnrun's disassembly of its words, equal to llvm-mc-19's
// (--disassemble -mcpu=gfx1100).
s_wqm_b32 exec_lo, exec_lo                               // 000000000000: BEFE1C7E
s_mov_b32 s0, s3                                         // 000000000004: BE800003
s_movk_i32 s3, 0x8000                                    // 000000000008: B0038000
s_clause 0x1                                             // 00000000000C: BF850001
s_load_b256 s[8:15], s[2:3], null                        // 000000000010: F40C0201 F8000000
s_load_b128 s[4:7], s[2:3], 0x50                         // 000000000018: F4080101 F8000050
s_mov_b32 m0, s0                                         // 000000000020: BEFD0000
lds_param_load v2, attr0.y wait_vdst:15                  // 000000000024: CE0F0102
v_interp_p10_f32 v3, v2, v0, v2 wait_exp:0               // 000000000028: CD000003 040A0102
v_interp_p2_f32 v2, v2, v1, v3 wait_exp:7                // 000000000030: CD010702 040E0302
lds_param_load v3, attr0.x wait_vdst:0                   // 000000000038: CE000003
v_interp_p10_f32 v4, v3, v0, v3 wait_exp:0               // 00000000003C: CD000004 040E0103
v_interp_p2_f32 v3, v3, v1, v4 wait_exp:7                // 000000000044: CD010703 04120303
s_waitcnt lgkmcnt(0)                                     // 00000000004C: BF89FC07
image_sample v[2:4], [v3, v2], s[8:15], s[4:7] dmask:0x7 dim:SQ_RSRC_IMG_2D // 000000000050: F06C0705 04020203 00000002
lds_param_load v5, attr0.z wait_vdst:15                  // 00000000005C: CE0F0205
v_interp_p10_f32 v6, v5, v0, v5 wait_exp:0               // 000000000060: CD000006 04160105
v_interp_p2_f32 v5, v5, v1, v6 wait_exp:7                // 000000000068: CD010705 041A0305
lds_param_load v6, attr0.w wait_vdst:0                   // 000000000070: CE000306
v_interp_p10_f32 v7, v6, v0, v6 wait_exp:0               // 000000000074: CD000007 041A0106
v_interp_p2_f32 v6, v6, v1, v7 wait_exp:7                // 00000000007C: CD010706 041E0306
lds_param_load v7, attr1.x wait_vdst:0                   // 000000000084: CE000407
v_interp_p10_f32 v8, v7, v0, v7 wait_exp:0               // 000000000088: CD000008 041E0107
v_interp_p2_f32 v7, v7, v1, v8 wait_exp:7                // 000000000090: CD010707 04220307
lds_param_load v8, attr1.y wait_vdst:0                   // 000000000098: CE000508
v_interp_p10_f32 v0, v8, v0, v8 wait_exp:0               // 00000000009C: CD000000 04220108
v_interp_p2_f32 v0, v8, v1, v0 wait_exp:7                // 0000000000A4: CD010700 04020308
s_waitcnt vmcnt(0)                                       // 0000000000AC: BF8903F7
v_mul_f32_e32 v5, v2, v5                                 // 0000000000B0: 100A0B02
v_mul_f32_e32 v6, v3, v6                                 // 0000000000B4: 100C0D03
v_mul_f32_e32 v4, v4, v7                                 // 0000000000B8: 10080F04
v_cvt_pk_rtz_f16_f32_e32 v1, v5, v6                      // 0000000000BC: 5E020D05
v_cvt_pk_rtz_f16_f32_e32 v0, v4, v0                      // 0000000000C0: 5E000104
exp mrt0 v1, v0, off, off done                           // 0000000000C4: F8000803 80800001
s_endpgm                                                 // 0000000000CC: BFB00000
