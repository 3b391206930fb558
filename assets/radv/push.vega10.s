// The pixel shader RADV/ACO compiled for push.vega10 (push.vega10.bin), written by
// radv-corpus: gcnrun's disassembly of its words, equal to llvm-mc-19's
// (--disassemble -mcpu=gfx900).
s_mov_b32 m0, s10                                        // 000000000000: BEFC000A
s_nop 0                                                  // 000000000004: BF800000
v_interp_p1_f32_e32 v3, v0, attr0.x                      // 000000000008: D40C0000
v_interp_p2_f32_e32 v3, v1, attr0.x                      // 00000000000C: D40D0001
v_mul_f32_e32 v3, s2, v3                                 // 000000000010: 0A060602
v_interp_p1_f32_e32 v4, v0, attr0.y                      // 000000000014: D4100100
v_interp_p2_f32_e32 v4, v1, attr0.y                      // 000000000018: D4110101
v_mul_f32_e32 v4, s3, v4                                 // 00000000001C: 0A080803
v_interp_p1_f32_e32 v5, v0, attr0.z                      // 000000000020: D4140200
v_interp_p2_f32_e32 v5, v1, attr0.z                      // 000000000024: D4150201
v_mul_f32_e32 v5, s4, v5                                 // 000000000028: 0A0A0A04
v_interp_p1_f32_e32 v0, v0, attr0.w                      // 00000000002C: D4000300
v_interp_p2_f32_e32 v0, v1, attr0.w                      // 000000000030: D4010301
v_mul_f32_e32 v0, s5, v0                                 // 000000000034: 0A000005
v_add_f32_e32 v1, s6, v3                                 // 000000000038: 02020606
v_add_f32_e32 v3, s7, v4                                 // 00000000003C: 02060807
v_add_f32_e32 v4, s8, v5                                 // 000000000040: 02080A08
v_add_f32_e32 v0, s9, v0                                 // 000000000044: 02000009
v_cmp_ne_u32_e32 vcc, 0, v2                              // 000000000048: 7D9A0480
v_cndmask_b32_e32 v2, v4, v1, vcc                        // 00000000004C: 00040304
v_cndmask_b32_e32 v1, v1, v4, vcc                        // 000000000050: 00020901
v_cvt_pkrtz_f16_f32 v2, v2, v3                           // 000000000054: D2960002 00020702
v_cvt_pkrtz_f16_f32 v0, v1, v0                           // 00000000005C: D2960000 00020101
exp mrt0 v2, v2, v0, v0 done compr vm                    // 000000000064: C4001C0F 80800002
s_endpgm                                                 // 00000000006C: BF810000
