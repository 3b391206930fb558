// The pixel shader RADV/ACO compiled for immutable.gfx1100 (immutable.gfx1100.bin), written by
// radv-corpus: gcnrun's disassembly of its words, equal to llvm-mc-19's
// (--disassemble -mcpu=gfx1100).
s_wqm_b64 exec, exec                                     // 000000000000: BEFE1D7E
s_mov_b32 s0, s3                                         // 000000000004: BE800003
s_movk_i32 s3, 0x8000                                    // 000000000008: B0038000
s_load_b256 s[8:15], s[2:3], null                        // 00000000000C: F40C0201 F8000000
s_mov_b32 m0, s0                                         // 000000000014: BEFD0000
lds_param_load v2, attr0.y wait_vdst:15                  // 000000000018: CE0F0102
v_interp_p10_f32 v3, v2, v0, v2 wait_exp:0               // 00000000001C: CD000003 040A0102
v_interp_p2_f32 v2, v2, v1, v3 wait_exp:7                // 000000000024: CD010702 040E0302
lds_param_load v3, attr0.x wait_vdst:0                   // 00000000002C: CE000003
v_interp_p10_f32 v0, v3, v0, v3 wait_exp:0               // 000000000030: CD000000 040E0103
v_interp_p2_f32 v0, v3, v1, v0 wait_exp:7                // 000000000038: CD010700 04020303
s_mov_b32 s0, 0x8000092                                  // 000000000040: BE8000FF 08000092
s_bfm_b32 s1, 1, 18                                      // 000000000048: 95019281
s_mov_b64 s[2:3], 0x4000000                              // 00000000004C: BE8201FF 04000000
s_waitcnt lgkmcnt(0)                                     // 000000000054: BF89FC07
image_sample v[0:3], [v0, v2], s[8:15], s[0:3] dmask:0xf dim:SQ_RSRC_IMG_2D // 000000000058: F06C0F05 00020000 00000002
s_mov_b32 s0, 0x437f0000                                 // 000000000064: BE8000FF 437F0000
lds_param_load v4, attr1.x wait_vdst:15                  // 00000000006C: CE0F0404
s_waitcnt expcnt(0)                                      // 000000000070: BF89FFF0
v_mov_b32_dpp v4, v4 quad_perm:[0,0,0,0] row_mask:0xf bank_mask:0xf bound_ctrl:1 fi:1 // 000000000074: 7E0802FA FF0C0004
v_lshrrev_b32_e32 v5, 8, v4                              // 00000000007C: 320A0888
v_lshrrev_b32_e32 v6, 16, v4                             // 000000000080: 320C0890
s_waitcnt vmcnt(0)                                       // 000000000084: BF8903F7
v_mul_f32_e32 v0, s0, v0                                 // 000000000088: 10000000
v_mul_f32_e32 v1, s0, v1                                 // 00000000008C: 10020200
v_mul_f32_e32 v2, s0, v2                                 // 000000000090: 10040400
v_mul_f32_e32 v3, s0, v3                                 // 000000000094: 10060600
v_cvt_u32_f32_e32 v0, v0                                 // 000000000098: 7E000F00
v_cvt_u32_f32_e32 v1, v1                                 // 00000000009C: 7E020F01
v_cvt_u32_f32_e32 v2, v2                                 // 0000000000A0: 7E040F02
v_cvt_u32_f32_e32 v3, v3                                 // 0000000000A4: 7E060F03
v_xor_b32_e32 v0, v0, v4                                 // 0000000000A8: 3A000900
v_xor_b32_e32 v1, v1, v5                                 // 0000000000AC: 3A020B01
v_xor_b32_e32 v2, v2, v6                                 // 0000000000B0: 3A040D02
v_bfe_u32 v0, v0, 0, 8                                   // 0000000000B4: D6100000 02210100
v_bfe_u32 v1, v1, 0, 8                                   // 0000000000BC: D6100001 02210101
v_bfe_u32 v2, v2, 0, 8                                   // 0000000000C4: D6100002 02210102
v_bfe_u32 v3, v3, 0, 8                                   // 0000000000CC: D6100003 02210103
v_cvt_pk_u16_u32 v0, v0, v1                              // 0000000000D4: D7230000 00020300
v_cvt_pk_u16_u32 v1, v2, v3                              // 0000000000DC: D7230001 00020702
exp mrt0 v0, v1, off, off done                           // 0000000000E4: F8000803 80800100
s_endpgm                                                 // 0000000000EC: BFB00000
