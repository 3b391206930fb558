// The pixel shader RADV/ACO compiled for trilinear.vega10 (trilinear.vega10.bin), written by
// radv-corpus: gcnrun's disassembly of its words, equal to llvm-mc-19's
// (--disassemble -mcpu=gfx900).
s_wqm_b64 exec, exec                                     // 000000000000: BEFE077E
s_mov_b32 s0, s3                                         // 000000000004: BE800003
s_movk_i32 s3, 0x8000                                    // 000000000008: B0038000
s_load_dwordx8 s[8:15], s[2:3], 0x0                      // 00000000000C: C00E0201 00000000
s_load_dwordx4 s[4:7], s[2:3], 0x50                      // 000000000014: C00A0101 00000050
s_load_dwordx8 s[16:23], s[2:3], 0x60                    // 00000000001C: C00E0401 00000060
s_load_dwordx4 s[24:27], s[2:3], 0xb0                    // 000000000024: C00A0601 000000B0
s_mov_b32 m0, s0                                         // 00000000002C: BEFC0000
s_nop 0                                                  // 000000000030: BF800000
v_interp_p1_f32_e32 v2, v0, attr0.y                      // 000000000034: D4080100
v_interp_p2_f32_e32 v2, v1, attr0.y                      // 000000000038: D4090101
v_interp_p1_f32_e32 v0, v0, attr0.x                      // 00000000003C: D4000000
v_interp_p2_f32_e32 v0, v1, attr0.x                      // 000000000040: D4010001
v_mov_b32_e32 v4, v0                                     // 000000000044: 7E080300
v_mov_b32_e32 v5, v2                                     // 000000000048: 7E0A0302
v_mov_b32_e32 v6, 0x3e800000                             // 00000000004C: 7E0C02FF 3E800000
v_mov_b32_e32 v7, 0                                      // 000000000054: 7E0E0280
v_mov_b32_e32 v8, 0                                      // 000000000058: 7E100280
v_mov_b32_e32 v9, 0x3e000000                             // 00000000005C: 7E1202FF 3E000000
v_mov_b32_e32 v10, v0                                    // 000000000064: 7E140300
v_mov_b32_e32 v11, v2                                    // 000000000068: 7E160302
s_waitcnt lgkmcnt(0)                                     // 00000000006C: BF8CC07F
image_sample v[4:5], v4, s[8:15], s[4:7] dmask:0x9       // 000000000070: F0800900 00220404
image_sample_d v[6:7], v[6:7], s[8:15], s[4:7] dmask:0xa // 000000000078: F0880A00 00220606
v_mov_b32_e32 v1, v0                                     // 000000000080: 7E020300
v_mov_b32_e32 v0, 0.5                                    // 000000000084: 7E0002F0
image_sample_c v0, v[0:1], s[16:23], s[24:27] dmask:0x1  // 000000000088: F0A00100 00C40000
s_waitcnt vmcnt(1)                                       // 000000000090: BF8C3F71
v_mul_f32_e32 v5, v5, v7                                 // 000000000094: 0A0A0F05
s_waitcnt vmcnt(0)                                       // 000000000098: BF8C3F70
exp mrt0 v4, v6, v0, v5 done vm                          // 00000000009C: C400180F 05000604
s_endpgm                                                 // 0000000000A4: BF810000
