// The pixel shader RADV/ACO compiled for varyings.vega10 (varyings.vega10.bin), written by
// radv-corpus: gcnrun's disassembly of its words, equal to llvm-mc-19's
// (--disassemble -mcpu=gfx900).
s_mov_b32 m0, s2                                         // 000000000000: BEFC0002
s_nop 0                                                  // 000000000004: BF800000
v_interp_p1_f32_e32 v6, v2, attr2.x                      // 000000000008: D4180802
v_interp_p2_f32_e32 v6, v3, attr2.x                      // 00000000000C: D4190803
v_cmp_lt_f32_e32 vcc, 0x3f400000, v6                     // 000000000010: 7C820CFF 3F400000
s_andn2_b64 exec, exec, vcc                              // 000000000018: 89FE6A7E
s_cbranch_scc0 41                                        // 00000000001C: BF840029
v_mul_f32_e32 v4, 0x3e800000, v4                         // 000000000020: 0A0808FF 3E800000
v_mul_f32_e32 v5, 0x3e800000, v5                         // 000000000028: 0A0A0AFF 3E800000
v_floor_f32_e32 v4, v4                                   // 000000000030: 7E083F04
v_floor_f32_e32 v5, v5                                   // 000000000034: 7E0A3F05
v_add_f32_e32 v4, v4, v5                                 // 000000000038: 02080B04
v_mul_f32_e32 v5, 0.5, v4                                // 00000000003C: 0A0A08F0
v_floor_f32_e64 v5, v5 mul:2                             // 000000000040: D15F0005 08000105
v_sub_f32_e32 v4, v4, v5                                 // 000000000048: 04080B04
v_interp_mov_f32_e32 v5, p0, attr1.x                     // 00000000004C: D4160402
v_interp_p1_f32_e32 v6, v0, attr0.x                      // 000000000050: D4180000
v_interp_p2_f32_e32 v6, v1, attr0.x                      // 000000000054: D4190001
v_sub_f32_e32 v5, v5, v6                                 // 000000000058: 040A0D05
v_mac_f32_e32 v6, v4, v5                                 // 00000000005C: 2C0C0B04
v_interp_mov_f32_e32 v5, p0, attr1.y                     // 000000000060: D4160502
v_interp_p1_f32_e32 v7, v0, attr0.y                      // 000000000064: D41C0100
v_interp_p2_f32_e32 v7, v1, attr0.y                      // 000000000068: D41D0101
v_sub_f32_e32 v5, v5, v7                                 // 00000000006C: 040A0F05
v_mac_f32_e32 v7, v4, v5                                 // 000000000070: 2C0E0B04
v_interp_mov_f32_e32 v5, p0, attr1.z                     // 000000000074: D4160602
v_interp_p1_f32_e32 v8, v0, attr0.z                      // 000000000078: D4200200
v_interp_p2_f32_e32 v8, v1, attr0.z                      // 00000000007C: D4210201
v_sub_f32_e32 v5, v5, v8                                 // 000000000080: 040A1105
v_mac_f32_e32 v8, v4, v5                                 // 000000000084: 2C100B04
v_interp_mov_f32_e32 v5, p0, attr1.w                     // 000000000088: D4160702
v_interp_p1_f32_e32 v0, v0, attr0.w                      // 00000000008C: D4000300
v_interp_p2_f32_e32 v0, v1, attr0.w                      // 000000000090: D4010301
v_sub_f32_e32 v1, v5, v0                                 // 000000000094: 04020105
v_mac_f32_e32 v0, v4, v1                                 // 000000000098: 2C000304
v_interp_p1_f32_e32 v1, v2, attr2.y                      // 00000000009C: D4040902
v_interp_p2_f32_e32 v1, v3, attr2.y                      // 0000000000A0: D4050903
v_mul_f32_e32 v1, v8, v1                                 // 0000000000A4: 0A020308
v_cvt_pkrtz_f16_f32 v2, v6, v7                           // 0000000000A8: D2960002 00020F06
v_cvt_pkrtz_f16_f32 v0, v1, v0                           // 0000000000B0: D2960000 00020101
exp mrt0 v2, v2, v0, v0 done compr vm                    // 0000000000B8: C4001C0F 80800002
s_endpgm                                                 // 0000000000C0: BF810000
exp null off, off, off, off done vm                      // 0000000000C4: C4001890 80808080
s_endpgm                                                 // 0000000000CC: BF810000
