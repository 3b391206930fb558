// The pixel shader RADV/ACO compiled for trilinear.gfx1100-w32 (trilinear.gfx1100-w32.bin), written by
// radv-corpus: gcnrun's disassembly of its words, equal to llvm-mc-19's
// (--disassemble -mcpu=gfx1100).
s_wqm_b32 exec_lo, exec_lo                               // 000000000000: BEFE1C7E
s_mov_b32 s0, s3                                         // 000000000004: BE800003
s_movk_i32 s3, 0x8000                                    // 000000000008: B0038000
s_clause 0x3                                             // 00000000000C: BF850003
s_load_b256 s[8:15], s[2:3], null                        // 000000000010: F40C0201 F8000000
s_load_b128 s[4:7], s[2:3], 0x50                         // 000000000018: F4080101 F8000050
s_load_b256 s[16:23], s[2:3], 0x60                       // 000000000020: F40C0401 F8000060
s_load_b128 s[24:27], s[2:3], 0xb0                       // 000000000028: F4080601 F80000B0
s_mov_b32 m0, s0                                         // 000000000030: BEFD0000
lds_param_load v2, attr0.y wait_vdst:15                  // 000000000034: CE0F0102
v_interp_p10_f32 v3, v2, v0, v2 wait_exp:0               // 000000000038: CD000003 040A0102
v_interp_p2_f32 v2, v2, v1, v3 wait_exp:7                // 000000000040: CD010702 040E0302
lds_param_load v3, attr0.x wait_vdst:0                   // 000000000048: CE000003
v_interp_p10_f32 v0, v3, v0, v3 wait_exp:0               // 00000000004C: CD000000 040E0103
v_interp_p2_f32 v0, v3, v1, v0 wait_exp:7                // 000000000054: CD010700 04020303
v_mov_b32_e32 v4, v0                                     // 00000000005C: 7E080300
v_mov_b32_e32 v5, v2                                     // 000000000060: 7E0A0302
v_lshrrev_b64 v[6:7], 0, 0x3e800000                      // 000000000064: D73D0006 0001FE80 3E800000
v_mov_b32_e32 v8, 0                                      // 000000000070: 7E100280
v_mov_b32_e32 v9, 0x3e000000                             // 000000000074: 7E1202FF 3E000000
v_mov_b32_e32 v10, v0                                    // 00000000007C: 7E140300
v_mov_b32_e32 v11, v2                                    // 000000000080: 7E160302
s_waitcnt lgkmcnt(0)                                     // 000000000084: BF89FC07
s_clause 0x1                                             // 000000000088: BF850001
image_sample v[0:1], v[4:5], s[8:15], s[4:7] dmask:0x9 dim:SQ_RSRC_IMG_2D // 00000000008C: F06C0904 04020004
image_sample_d v[2:3], v[6:11], s[8:15], s[4:7] dmask:0xa dim:SQ_RSRC_IMG_2D // 000000000094: F0700A04 04020206
v_mov_b32_e32 v6, 0.5                                    // 00000000009C: 7E0C02F0
image_sample_c v4, [v6, v4, v5], s[16:23], s[24:27] dmask:0x1 dim:SQ_RSRC_IMG_2D // 0000000000A0: F0800105 18040406 00000504
s_waitcnt vmcnt(1)                                       // 0000000000AC: BF8907F7
v_mul_f32_e32 v1, v1, v3                                 // 0000000000B0: 10020701
s_waitcnt vmcnt(0)                                       // 0000000000B4: BF8903F7
exp mrt0 v0, v2, v4, v1 done                             // 0000000000B8: F800080F 01040200
s_endpgm                                                 // 0000000000C0: BFB00000
