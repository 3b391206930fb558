// The pixel shader RADV/ACO compiled for mrt.vega10 (mrt.vega10.bin), written by
// radv-corpus: gcnrun's disassembly of its words, equal to llvm-mc-19's
// (--disassemble -mcpu=gfx900).
s_wqm_b64 exec, exec                                     // 000000000000: BEFE077E
s_mov_b32 s0, s3                                         // 000000000004: BE800003
s_movk_i32 s3, 0x8000                                    // 000000000008: B0038000
s_load_dwordx8 s[8:15], s[2:3], 0x0                      // 00000000000C: C00E0201 00000000
s_load_dwordx4 s[4:7], s[2:3], 0x50                      // 000000000014: C00A0101 00000050
s_mov_b32 m0, s0                                         // 00000000001C: BEFC0000
s_nop 0                                                  // 000000000020: BF800000
v_interp_p1_f32_e32 v2, v0, attr0.x                      // 000000000024: D4080000
v_interp_p2_f32_e32 v2, v1, attr0.x                      // 000000000028: D4090001
v_interp_p1_f32_e32 v0, v0, attr0.y                      // 00000000002C: D4000100
v_interp_p2_f32_e32 v0, v1, attr0.y                      // 000000000030: D4010101
v_mov_b32_e32 v4, v2                                     // 000000000034: 7E080302
v_mov_b32_e32 v5, v0                                     // 000000000038: 7E0A0300
v_mov_b32_e32 v1, v0                                     // 00000000003C: 7E020300
v_mov_b32_e32 v0, v2                                     // 000000000040: 7E000302
v_mov_b32_e32 v2, 1.0                                    // 000000000044: 7E0402F2
s_waitcnt lgkmcnt(0)                                     // 000000000048: BF8CC07F
s_mov_b64 s[0:1], s[4:5]                                 // 00000000004C: BE800104
s_mov_b64 s[2:3], s[6:7]                                 // 000000000050: BE820106
v_interp_mov_f32_e32 v7, p0, attr1.y                     // 000000000054: D41E0502
v_interp_mov_f32_e32 v6, p0, attr1.x                     // 000000000058: D41A0402
s_and_b32 s0, s0, 0xf7ffffff                             // 00000000005C: 8600FF00 F7FFFFFF
image_sample_l v[0:3], v0, s[8:15], s[4:7] dmask:0xf     // 000000000064: F0900F00 00220000
image_load v[8:11], v6, s[8:15] dmask:0xf unorm          // 00000000006C: F0001F00 00020806
image_gather4_lz v[4:7], v4, s[8:15], s[0:3] dmask:0x2   // 000000000074: F11C0200 00020404
s_mov_b32 s0, 0x3e800000                                 // 00000000007C: BE8000FF 3E800000
s_waitcnt vmcnt(1)                                       // 000000000084: BF8C3F71
v_mac_f32_e32 v0, s0, v8                                 // 000000000088: 2C001000
v_mac_f32_e32 v1, s0, v9                                 // 00000000008C: 2C021200
v_mac_f32_e32 v2, s0, v10                                // 000000000090: 2C041400
v_mac_f32_e32 v3, s0, v11                                // 000000000094: 2C061600
v_cvt_pkrtz_f16_f32 v0, v0, v1                           // 000000000098: D2960000 00020300
v_cvt_pkrtz_f16_f32 v1, v2, v3                           // 0000000000A0: D2960001 00020702
exp mrt0 v0, v0, v1, v1 compr                            // 0000000000A8: C400040F 80800100
s_waitcnt vmcnt(0)                                       // 0000000000B0: BF8C3F70
exp mrt1 v4, v5, v6, v7 done vm                          // 0000000000B4: C400181F 07060504
s_endpgm                                                 // 0000000000BC: BF810000
