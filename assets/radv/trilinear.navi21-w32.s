// The pixel shader RADV/ACO compiled for trilinear.navi21-w32 (trilinear.navi21-w32.bin), written by
// radv-corpus: gcnrun's disassembly of its words, equal to llvm-mc-19's
// (--disassemble -mcpu=gfx1030).
s_wqm_b32 exec_lo, exec_lo                               // 000000000000: BEFE097E
s_mov_b32 s0, s3                                         // 000000000004: BE800303
s_movk_i32 s3, 0x8000                                    // 000000000008: B0038000
s_clause 0x3                                             // 00000000000C: BFA10003
s_load_dwordx8 s[8:15], s[2:3], null                     // 000000000010: F40C0201 FA000000
s_load_dwordx4 s[4:7], s[2:3], 0x50                      // 000000000018: F4080101 FA000050
s_load_dwordx8 s[16:23], s[2:3], 0x60                    // 000000000020: F40C0401 FA000060
s_load_dwordx4 s[24:27], s[2:3], 0xb0                    // 000000000028: F4080601 FA0000B0
s_mov_b32 m0, s0                                         // 000000000030: BEFC0300
v_interp_p1_f32_e32 v2, v0, attr0.y                      // 000000000034: C8080100
v_interp_p2_f32_e32 v2, v1, attr0.y                      // 000000000038: C8090101
v_interp_p1_f32_e32 v0, v0, attr0.x                      // 00000000003C: C8000000
v_interp_p2_f32_e32 v0, v1, attr0.x                      // 000000000040: C8010001
v_mov_b32_e32 v4, v0                                     // 000000000044: 7E080300
v_mov_b32_e32 v5, v2                                     // 000000000048: 7E0A0302
v_mov_b32_e32 v1, 0x3e800000                             // 00000000004C: 7E0202FF 3E800000
v_mov_b32_e32 v3, 0                                      // 000000000054: 7E060280
v_mov_b32_e32 v6, 0x3e000000                             // 000000000058: 7E0C02FF 3E000000
s_waitcnt lgkmcnt(0)                                     // 000000000060: BF8CC07F
s_clause 0x1                                             // 000000000064: BFA10001
image_sample v[8:9], v[4:5], s[8:15], s[4:7] dmask:0x9 dim:SQ_RSRC_IMG_2D // 000000000068: F0800908 00220804
image_sample_d v[0:1], [v1, v3, v3, v6, v0, v2], s[8:15], s[4:7] dmask:0xa dim:SQ_RSRC_IMG_2D // 000000000070: F0880A0C 00220001 00060303 00000002
v_mov_b32_e32 v3, 0.5                                    // 000000000080: 7E0602F0
image_sample_c v2, v[3:5], s[16:23], s[24:27] dmask:0x1 dim:SQ_RSRC_IMG_2D // 000000000084: F0A00108 00C40203
s_waitcnt vmcnt(1)                                       // 00000000008C: BF8C3F71
v_mul_f32_e32 v1, v9, v1                                 // 000000000090: 10020309
s_waitcnt vmcnt(0)                                       // 000000000094: BF8C3F70
exp mrt0 v8, v0, v2, v1 done vm                          // 000000000098: F800180F 01020008
s_endpgm                                                 // 0000000000A0: BF810000
