// The pixel shader RADV/ACO compiled for push.gfx1100-w32 (push.gfx1100-w32.bin), written by
// radv-corpus: gcnrun's disassembly of its words, equal to llvm-mc-19's
// (--disassemble -mcpu=gfx1100).
s_wqm_b32 exec_lo, exec_lo                               // 000000000000: BEFE1C7E
s_mov_b32 m0, s10                                        // 000000000004: BEFD000A
lds_param_load v3, attr0.x wait_vdst:15                  // 000000000008: CE0F0003
v_interp_p10_f32 v4, v3, v0, v3 wait_exp:0               // 00000000000C: CD000004 040E0103
v_interp_p2_f32 v3, v3, v1, v4 wait_exp:7                // 000000000014: CD010703 04120303
lds_param_load v4, attr0.y wait_vdst:0                   // 00000000001C: CE000104
v_interp_p10_f32 v5, v4, v0, v4 wait_exp:0               // 000000000020: CD000005 04120104
v_interp_p2_f32 v4, v4, v1, v5 wait_exp:7                // 000000000028: CD010704 04160304
lds_param_load v5, attr0.z wait_vdst:0                   // 000000000030: CE000205
v_interp_p10_f32 v6, v5, v0, v5 wait_exp:0               // 000000000034: CD000006 04160105
v_interp_p2_f32 v5, v5, v1, v6 wait_exp:7                // 00000000003C: CD010705 041A0305
lds_param_load v6, attr0.w wait_vdst:0                   // 000000000044: CE000306
v_interp_p10_f32 v0, v6, v0, v6 wait_exp:0               // 000000000048: CD000000 041A0106
v_interp_p2_f32 v0, v6, v1, v0 wait_exp:7                // 000000000050: CD010700 04020306
v_fma_f32 v1, s2, v3, s6                                 // 000000000058: D6130001 001A0602
v_fma_f32 v3, s3, v4, s7                                 // 000000000060: D6130003 001E0803
v_fma_f32 v4, s4, v5, s8                                 // 000000000068: D6130004 00220A04
v_fma_f32 v0, s5, v0, s9                                 // 000000000070: D6130000 00260005
v_cmp_ne_u32_e32 vcc_lo, 0, v2                           // 000000000078: 7C9A0480
v_cndmask_b32_e32 v2, v4, v1, vcc_lo                     // 00000000007C: 02040304
v_cndmask_b32_e32 v1, v1, v4, vcc_lo                     // 000000000080: 02020901
v_cvt_pk_rtz_f16_f32_e32 v2, v2, v3                      // 000000000084: 5E040702
v_cvt_pk_rtz_f16_f32_e32 v0, v1, v0                      // 000000000088: 5E000101
exp mrt0 v2, v0, off, off done                           // 00000000008C: F8000803 80800002
s_endpgm                                                 // 000000000094: BFB00000
