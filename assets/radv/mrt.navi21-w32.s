// The pixel shader RADV/ACO compiled for mrt.navi21-w32 (mrt.navi21-w32.bin), written by
// radv-corpus: gcnrun's disassembly of its words, equal to llvm-mc-19's
// (--disassemble -mcpu=gfx1030).
s_wqm_b32 exec_lo, exec_lo                               // 000000000000: BEFE097E
s_mov_b32 s0, s3                                         // 000000000004: BE800303
s_movk_i32 s3, 0x8000                                    // 000000000008: B0038000
s_clause 0x1                                             // 00000000000C: BFA10001
s_load_dwordx8 s[8:15], s[2:3], null                     // 000000000010: F40C0201 FA000000
s_load_dwordx4 s[4:7], s[2:3], 0x50                      // 000000000018: F4080101 FA000050
s_mov_b32 m0, s0                                         // 000000000020: BEFC0300
v_interp_p1_f32_e32 v2, v0, attr0.x                      // 000000000024: C8080000
v_interp_p2_f32_e32 v2, v1, attr0.x                      // 000000000028: C8090001
v_interp_p1_f32_e32 v0, v0, attr0.y                      // 00000000002C: C8000100
v_interp_p2_f32_e32 v0, v1, attr0.y                      // 000000000030: C8010101
v_mov_b32_e32 v1, 1.0                                    // 000000000034: 7E0202F2
s_waitcnt lgkmcnt(0)                                     // 000000000038: BF8CC07F
s_mov_b64 s[0:1], s[4:5]                                 // 00000000003C: BE800404
s_mov_b64 s[2:3], s[6:7]                                 // 000000000040: BE820406
v_interp_mov_f32_e32 v5, p0, attr1.y                     // 000000000044: C8160502
v_interp_mov_f32_e32 v4, p0, attr1.x                     // 000000000048: C8120402
image_sample_l v[8:11], [v2, v0, v1], s[8:15], s[4:7] dmask:0xf dim:SQ_RSRC_IMG_2D // 00000000004C: F0900F0A 00220802 00000100
s_and_b32 s0, s0, 0xf7ffffff                             // 000000000058: 8700FF00 F7FFFFFF
s_clause 0x1                                             // 000000000060: BFA10001
image_load v[4:7], v[4:5], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D unorm // 000000000064: F0001F08 00020404
image_gather4_lz v[0:3], [v2, v0], s[8:15], s[0:3] dmask:0x2 dim:SQ_RSRC_IMG_2D // 00000000006C: F11C020A 00020002 00000000
s_mov_b32 s0, 0x3e800000                                 // 000000000078: BE8003FF 3E800000
s_waitcnt vmcnt(1)                                       // 000000000080: BF8C3F71
v_fmac_f32_e32 v8, s0, v4                                // 000000000084: 56100800
v_fmac_f32_e32 v9, s0, v5                                // 000000000088: 56120A00
v_fmac_f32_e32 v10, s0, v6                               // 00000000008C: 56140C00
v_fmac_f32_e32 v11, s0, v7                               // 000000000090: 56160E00
v_cvt_pkrtz_f16_f32_e32 v4, v8, v9                       // 000000000094: 5E081308
v_cvt_pkrtz_f16_f32_e32 v5, v10, v11                     // 000000000098: 5E0A170A
exp mrt0 v4, v4, v5, v5 compr                            // 00000000009C: F800040F 80800504
s_waitcnt vmcnt(0)                                       // 0000000000A4: BF8C3F70
exp mrt1 v0, v1, v2, v3 done vm                          // 0000000000A8: F800181F 03020100
s_endpgm                                                 // 0000000000B0: BF810000
