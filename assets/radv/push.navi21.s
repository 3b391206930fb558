// The pixel shader RADV/ACO compiled for push.navi21 (push.navi21.bin), written by
// radv-corpus: gcnrun's disassembly of its words, equal to llvm-mc-19's
// (--disassemble -mcpu=gfx1030).
s_mov_b32 m0, s10                                        // 000000000000: BEFC030A
v_interp_p1_f32_e32 v3, v0, attr0.x                      // 000000000004: C80C0000
v_interp_p2_f32_e32 v3, v1, attr0.x                      // 000000000008: C80D0001
v_interp_p1_f32_e32 v4, v0, attr0.y                      // 00000000000C: C8100100
v_interp_p2_f32_e32 v4, v1, attr0.y                      // 000000000010: C8110101
v_interp_p1_f32_e32 v5, v0, attr0.z                      // 000000000014: C8140200
v_interp_p2_f32_e32 v5, v1, attr0.z                      // 000000000018: C8150201
v_interp_p1_f32_e32 v0, v0, attr0.w                      // 00000000001C: C8000300
v_interp_p2_f32_e32 v0, v1, attr0.w                      // 000000000020: C8010301
v_fma_f32 v1, s2, v3, s6                                 // 000000000024: D54B0001 001A0602
v_fma_f32 v3, s3, v4, s7                                 // 00000000002C: D54B0003 001E0803
v_fma_f32 v4, s4, v5, s8                                 // 000000000034: D54B0004 00220A04
v_fma_f32 v0, s5, v0, s9                                 // 00000000003C: D54B0000 00260005
v_cmp_ne_u32_e32 vcc_lo, 0, v2                           // 000000000044: 7D8A0480
v_cndmask_b32_e32 v2, v4, v1, vcc_lo                     // 000000000048: 02040304
v_cndmask_b32_e32 v1, v1, v4, vcc_lo                     // 00000000004C: 02020901
v_cvt_pkrtz_f16_f32_e32 v2, v2, v3                       // 000000000050: 5E040702
v_cvt_pkrtz_f16_f32_e32 v0, v1, v0                       // 000000000054: 5E000101
exp mrt0 v2, v2, v0, v0 done compr vm                    // 000000000058: F8001C0F 80800002
s_endpgm                                                 // 000000000060: BF810000
