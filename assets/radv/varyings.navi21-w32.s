// The pixel shader RADV/ACO compiled for varyings.navi21-w32 (varyings.navi21-w32.bin), written by
// radv-corpus: gcnrun's disassembly of its words, equal to llvm-mc-19's
// (--disassemble -mcpu=gfx1030).
s_mov_b32 m0, s2                                         // 000000000000: BEFC0302
v_interp_p1_f32_e32 v6, v2, attr2.x                      // 000000000004: C8180802
v_interp_p2_f32_e32 v6, v3, attr2.x                      // 000000000008: C8190803
v_cmp_lt_f32_e32 vcc_lo, 0x3f400000, v6                  // 00000000000C: 7C020CFF 3F400000
s_andn2_b32 exec_lo, exec_lo, vcc_lo                     // 000000000014: 8A7E6A7E
s_cbranch_scc0 39                                        // 000000000018: BF840027
v_mul_f32_e32 v4, 0x3e800000, v4                         // 00000000001C: 100808FF 3E800000
v_mul_f32_e32 v5, 0x3e800000, v5                         // 000000000024: 100A0AFF 3E800000
v_floor_f32_e32 v4, v4                                   // 00000000002C: 7E084904
v_floor_f32_e32 v5, v5                                   // 000000000030: 7E0A4905
v_add_f32_e32 v4, v4, v5                                 // 000000000034: 06080B04
v_mul_f32_e32 v5, 0.5, v4                                // 000000000038: 100A08F0
v_floor_f32_e64 v5, v5 mul:2                             // 00000000003C: D5A40005 08000105
v_sub_f32_e32 v4, v4, v5                                 // 000000000044: 08080B04
v_interp_mov_f32_e32 v5, p0, attr1.x                     // 000000000048: C8160402
v_interp_p1_f32_e32 v6, v0, attr0.x                      // 00000000004C: C8180000
v_interp_p2_f32_e32 v6, v1, attr0.x                      // 000000000050: C8190001
v_sub_f32_e32 v5, v5, v6                                 // 000000000054: 080A0D05
v_fmac_f32_e32 v6, v4, v5                                // 000000000058: 560C0B04
v_interp_mov_f32_e32 v5, p0, attr1.y                     // 00000000005C: C8160502
v_interp_p1_f32_e32 v7, v0, attr0.y                      // 000000000060: C81C0100
v_interp_p2_f32_e32 v7, v1, attr0.y                      // 000000000064: C81D0101
v_sub_f32_e32 v5, v5, v7                                 // 000000000068: 080A0F05
v_fmac_f32_e32 v7, v4, v5                                // 00000000006C: 560E0B04
v_interp_mov_f32_e32 v5, p0, attr1.z                     // 000000000070: C8160602
v_interp_p1_f32_e32 v8, v0, attr0.z                      // 000000000074: C8200200
v_interp_p2_f32_e32 v8, v1, attr0.z                      // 000000000078: C8210201
v_sub_f32_e32 v5, v5, v8                                 // 00000000007C: 080A1105
v_fmac_f32_e32 v8, v4, v5                                // 000000000080: 56100B04
v_interp_mov_f32_e32 v5, p0, attr1.w                     // 000000000084: C8160702
v_interp_p1_f32_e32 v0, v0, attr0.w                      // 000000000088: C8000300
v_interp_p2_f32_e32 v0, v1, attr0.w                      // 00000000008C: C8010301
v_sub_f32_e32 v1, v5, v0                                 // 000000000090: 08020105
v_fmac_f32_e32 v0, v4, v1                                // 000000000094: 56000304
v_interp_p1_f32_e32 v1, v2, attr2.y                      // 000000000098: C8040902
v_interp_p2_f32_e32 v1, v3, attr2.y                      // 00000000009C: C8050903
v_mul_f32_e32 v1, v8, v1                                 // 0000000000A0: 10020308
v_cvt_pkrtz_f16_f32_e32 v2, v6, v7                       // 0000000000A4: 5E040F06
v_cvt_pkrtz_f16_f32_e32 v0, v1, v0                       // 0000000000A8: 5E000101
exp mrt0 v2, v2, v0, v0 done compr vm                    // 0000000000AC: F8001C0F 80800002
s_endpgm                                                 // 0000000000B4: BF810000
exp null off, off, off, off done vm                      // 0000000000B8: F8001890 80808080
s_endpgm                                                 // 0000000000C0: BF810000
