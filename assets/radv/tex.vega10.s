// The pixel shader RADV/ACO compiled for tex.vega10 (tex.vega10.bin), written by
// radv-corpus: gcnrun's disassembly of its words, equal to llvm-mc-19's
// (--disassemble -mcpu=gfx900).
s_wqm_b64 exec, exec                                     // 000000000000: BEFE077E
s_mov_b32 s0, s3                                         // 000000000004: BE800003
s_movk_i32 s3, 0x8000                                    // 000000000008: B0038000
s_load_dwordx8 s[8:15], s[2:3], 0x0                      // 00000000000C: C00E0201 00000000
s_load_dwordx4 s[4:7], s[2:3], 0x50                      // 000000000014: C00A0101 00000050
s_mov_b32 m0, s0                                         // 00000000001C: BEFC0000
s_nop 0                                                  // 000000000020: BF800000
v_interp_p1_f32_e32 v2, v0, attr0.y                      // 000000000024: D4080100
v_interp_p2_f32_e32 v2, v1, attr0.y                      // 000000000028: D4090101
v_interp_p1_f32_e32 v3, v0, attr0.x                      // 00000000002C: D40C0000
v_interp_p2_f32_e32 v3, v1, attr0.x                      // 000000000030: D40D0001
v_mov_b32_e32 v4, v2                                     // 000000000034: 7E080302
s_waitcnt lgkmcnt(0)                                     // 000000000038: BF8CC07F
image_sample v[2:4], v3, s[8:15], s[4:7] dmask:0x7       // 00000000003C: F0800700 00220203
v_interp_p1_f32_e32 v5, v0, attr0.z                      // 000000000044: D4140200
v_interp_p2_f32_e32 v5, v1, attr0.z                      // 000000000048: D4150201
v_interp_p1_f32_e32 v6, v0, attr0.w                      // 00000000004C: D4180300
v_interp_p2_f32_e32 v6, v1, attr0.w                      // 000000000050: D4190301
v_interp_p1_f32_e32 v7, v0, attr1.x                      // 000000000054: D41C0400
v_interp_p2_f32_e32 v7, v1, attr1.x                      // 000000000058: D41D0401
v_interp_p1_f32_e32 v0, v0, attr1.y                      // 00000000005C: D4000500
v_interp_p2_f32_e32 v0, v1, attr1.y                      // 000000000060: D4010501
s_waitcnt vmcnt(0)                                       // 000000000064: BF8C3F70
v_mul_f32_e32 v5, v2, v5                                 // 000000000068: 0A0A0B02
v_mul_f32_e32 v6, v3, v6                                 // 00000000006C: 0A0C0D03
v_mul_f32_e32 v4, v4, v7                                 // 000000000070: 0A080F04
v_cvt_pkrtz_f16_f32 v1, v5, v6                           // 000000000074: D2960001 00020D05
v_cvt_pkrtz_f16_f32 v0, v4, v0                           // 00000000007C: D2960000 00020104
exp mrt0 v1, v1, v0, v0 done compr vm                    // 000000000084: C4001C0F 80800001
s_endpgm                                                 // 00000000008C: BF810000
