// The pixel shader RADV/ACO compiled for tex.navi21-w32 (tex.navi21-w32.bin), written by
// radv-corpus: gcnrun's disassembly of its words, equal to llvm-mc-19's
// (--disassemble -mcpu=gfx1030).
s_wqm_b32 exec_lo, exec_lo                               // 000000000000: BEFE097E
s_mov_b32 s0, s3                                         // 000000000004: BE800303
s_movk_i32 s3, 0x8000                                    // 000000000008: B0038000
s_clause 0x1                                             // 00000000000C: BFA10001
s_load_dwordx8 s[8:15], s[2:3], null                     // 000000000010: F40C0201 FA000000
s_load_dwordx4 s[4:7], s[2:3], 0x50                      // 000000000018: F4080101 FA000050
s_mov_b32 m0, s0                                         // 000000000020: BEFC0300
v_interp_p1_f32_e32 v2, v0, attr0.y                      // 000000000024: C8080100
v_interp_p2_f32_e32 v2, v1, attr0.y                      // 000000000028: C8090101
v_interp_p1_f32_e32 v3, v0, attr0.x                      // 00000000002C: C80C0000
v_interp_p2_f32_e32 v3, v1, attr0.x                      // 000000000030: C80D0001
s_waitcnt lgkmcnt(0)                                     // 000000000034: BF8CC07F
image_sample v[2:4], [v3, v2], s[8:15], s[4:7] dmask:0x7 dim:SQ_RSRC_IMG_2D // 000000000038: F080070A 00220203 00000002
v_interp_p1_f32_e32 v5, v0, attr0.z                      // 000000000044: C8140200
v_interp_p2_f32_e32 v5, v1, attr0.z                      // 000000000048: C8150201
v_interp_p1_f32_e32 v6, v0, attr0.w                      // 00000000004C: C8180300
v_interp_p2_f32_e32 v6, v1, attr0.w                      // 000000000050: C8190301
v_interp_p1_f32_e32 v7, v0, attr1.x                      // 000000000054: C81C0400
v_interp_p2_f32_e32 v7, v1, attr1.x                      // 000000000058: C81D0401
v_interp_p1_f32_e32 v0, v0, attr1.y                      // 00000000005C: C8000500
v_interp_p2_f32_e32 v0, v1, attr1.y                      // 000000000060: C8010501
s_waitcnt vmcnt(0)                                       // 000000000064: BF8C3F70
v_mul_f32_e32 v5, v2, v5                                 // 000000000068: 100A0B02
v_mul_f32_e32 v6, v3, v6                                 // 00000000006C: 100C0D03
v_mul_f32_e32 v4, v4, v7                                 // 000000000070: 10080F04
v_cvt_pkrtz_f16_f32_e32 v1, v5, v6                       // 000000000074: 5E020D05
v_cvt_pkrtz_f16_f32_e32 v0, v4, v0                       // 000000000078: 5E000104
exp mrt0 v1, v1, v0, v0 done compr vm                    // 00000000007C: F8001C0F 80800001
s_endpgm                                                 // 000000000084: BF810000
