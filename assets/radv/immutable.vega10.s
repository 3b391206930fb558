// The pixel shader RADV/ACO compiled for immutable.vega10 (immutable.vega10.bin), written by
// radv-corpus: gcnrun's disassembly of its words, equal to llvm-mc-19's
// (--disassemble -mcpu=gfx900).
s_wqm_b64 exec, exec                                     // 000000000000: BEFE077E
s_mov_b32 s0, s3                                         // 000000000004: BE800003
s_movk_i32 s3, 0x8000                                    // 000000000008: B0038000
s_load_dwordx8 s[8:15], s[2:3], 0x0                      // 00000000000C: C00E0201 00000000
s_mov_b32 m0, s0                                         // 000000000014: BEFC0000
s_nop 0                                                  // 000000000018: BF800000
v_interp_p1_f32_e32 v2, v0, attr0.y                      // 00000000001C: D4080100
v_interp_p2_f32_e32 v2, v1, attr0.y                      // 000000000020: D4090101
v_interp_p1_f32_e32 v0, v0, attr0.x                      // 000000000024: D4000000
v_interp_p2_f32_e32 v0, v1, attr0.x                      // 000000000028: D4010001
v_mov_b32_e32 v1, v2                                     // 00000000002C: 7E020302
s_mov_b32 s0, 0x88000092                                 // 000000000030: BE8000FF 88000092
s_bfm_b32 s1, 1, 18                                      // 000000000038: 91019281
s_mov_b64 s[2:3], 0x44000000                             // 00000000003C: BE8201FF 44000000
s_waitcnt lgkmcnt(0)                                     // 000000000044: BF8CC07F
image_sample v[0:3], v0, s[8:15], s[0:3] dmask:0xf       // 000000000048: F0800F00 00020000
s_mov_b32 s0, 0x437f0000                                 // 000000000050: BE8000FF 437F0000
v_interp_mov_f32_e32 v4, p0, attr1.x                     // 000000000058: D4120402
v_lshrrev_b32_e32 v5, 8, v4                              // 00000000005C: 200A0888
s_waitcnt vmcnt(0)                                       // 000000000060: BF8C3F70
v_mul_f32_e32 v0, s0, v0                                 // 000000000064: 0A000000
v_mul_f32_e32 v1, s0, v1                                 // 000000000068: 0A020200
v_mul_f32_e32 v2, s0, v2                                 // 00000000006C: 0A040400
v_mul_f32_e32 v3, s0, v3                                 // 000000000070: 0A060600
v_cvt_u32_f32_e32 v0, v0                                 // 000000000074: 7E000F00
v_cvt_u32_f32_e32 v1, v1                                 // 000000000078: 7E020F01
v_cvt_u32_f32_e32 v2, v2                                 // 00000000007C: 7E040F02
v_cvt_u32_f32_sdwa v3, v3 dst_sel:BYTE_0 dst_unused:UNUSED_PAD src0_sel:DWORD // 000000000080: 7E060EF9 00060003
v_xor_b32_sdwa v0, v0, v4 dst_sel:BYTE_0 dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:DWORD // 000000000088: 2A0008F9 06060000
v_xor_b32_sdwa v1, v1, v5 dst_sel:BYTE_0 dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:DWORD // 000000000090: 2A020AF9 06060001
v_xor_b32_sdwa v2, v2, v4 dst_sel:BYTE_0 dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:WORD_1 // 000000000098: 2A0408F9 05060002
v_cvt_pk_u16_u32 v0, v0, v1                              // 0000000000A0: D2970000 00020300
v_cvt_pk_u16_u32 v1, v2, v3                              // 0000000000A8: D2970001 00020702
exp mrt0 v0, v0, v1, v1 done compr vm                    // 0000000000B0: C4001C0F 80800100
s_endpgm                                                 // 0000000000B8: BF810000
