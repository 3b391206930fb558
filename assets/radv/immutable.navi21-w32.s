// The pixel shader RADV/ACO compiled for immutable.navi21-w32 (immutable.navi21-w32.bin), written by
// radv-corpus: gcnrun's disassembly of its words, equal to llvm-mc-19's
// (--disassemble -mcpu=gfx1030).
s_wqm_b32 exec_lo, exec_lo                               // 000000000000: BEFE097E
s_mov_b32 s0, s3                                         // 000000000004: BE800303
s_movk_i32 s3, 0x8000                                    // 000000000008: B0038000
s_load_dwordx8 s[8:15], s[2:3], null                     // 00000000000C: F40C0201 FA000000
s_mov_b32 m0, s0                                         // 000000000014: BEFC0300
v_interp_p1_f32_e32 v2, v0, attr0.y                      // 000000000018: C8080100
v_interp_p2_f32_e32 v2, v1, attr0.y                      // 00000000001C: C8090101
v_interp_p1_f32_e32 v0, v0, attr0.x                      // 000000000020: C8000000
v_interp_p2_f32_e32 v0, v1, attr0.x                      // 000000000024: C8010001
s_mov_b32 s0, 0x8000092                                  // 000000000028: BE8003FF 08000092
s_bfm_b32 s1, 1, 18                                      // 000000000030: 92019281
s_mov_b64 s[2:3], 0x4000000                              // 000000000034: BE8204FF 04000000
s_waitcnt lgkmcnt(0)                                     // 00000000003C: BF8CC07F
image_sample v[0:3], [v0, v2], s[8:15], s[0:3] dmask:0xf dim:SQ_RSRC_IMG_2D // 000000000040: F0800F0A 00020000 00000002
s_mov_b32 s0, 0x437f0000                                 // 00000000004C: BE8003FF 437F0000
v_interp_mov_f32_e32 v4, p0, attr1.x                     // 000000000054: C8120402
v_lshrrev_b32_e32 v5, 8, v4                              // 000000000058: 2C0A0888
s_waitcnt vmcnt(0)                                       // 00000000005C: BF8C3F70
v_mul_f32_e32 v0, s0, v0                                 // 000000000060: 10000000
v_mul_f32_e32 v1, s0, v1                                 // 000000000064: 10020200
v_mul_f32_e32 v2, s0, v2                                 // 000000000068: 10040400
v_mul_f32_e32 v3, s0, v3                                 // 00000000006C: 10060600
v_cvt_u32_f32_e32 v0, v0                                 // 000000000070: 7E000F00
v_cvt_u32_f32_e32 v1, v1                                 // 000000000074: 7E020F01
v_cvt_u32_f32_e32 v2, v2                                 // 000000000078: 7E040F02
v_cvt_u32_f32_sdwa v3, v3 dst_sel:BYTE_0 dst_unused:UNUSED_PAD src0_sel:DWORD // 00000000007C: 7E060EF9 00060003
v_xor_b32_sdwa v0, v0, v4 dst_sel:BYTE_0 dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:DWORD // 000000000084: 3A0008F9 06060000
v_xor_b32_sdwa v1, v1, v5 dst_sel:BYTE_0 dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:DWORD // 00000000008C: 3A020AF9 06060001
v_xor_b32_sdwa v2, v2, v4 dst_sel:BYTE_0 dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:WORD_1 // 000000000094: 3A0408F9 05060002
v_cvt_pk_u16_u32 v0, v0, v1                              // 00000000009C: D76A0000 00020300
v_cvt_pk_u16_u32 v1, v2, v3                              // 0000000000A4: D76A0001 00020702
exp mrt0 v0, v0, v1, v1 done compr vm                    // 0000000000AC: F8001C0F 80800100
s_endpgm                                                 // 0000000000B4: BF810000
