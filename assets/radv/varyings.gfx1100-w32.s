// The pixel shader RADV/ACO compiled for varyings.gfx1100-w32 (varyings.gfx1100-w32.bin), written by
// radv-corpus: gcnrun's disassembly of its words, equal to llvm-mc-19's
// (--disassemble -mcpu=gfx1100).
s_mov_b32 s0, exec_lo                                    // 000000000000: BE80007E
s_wqm_b32 exec_lo, s0                                    // 000000000004: BEFE1C00
s_mov_b32 m0, s2                                         // 000000000008: BEFD0002
lds_param_load v6, attr2.x wait_vdst:15                  // 00000000000C: CE0F0806
v_interp_p10_f32 v7, v6, v2, v6 wait_exp:0               // 000000000010: CD000007 041A0506
v_interp_p2_f32 v6, v6, v3, v7 wait_exp:7                // 000000000018: CD010706 041E0706
v_cmp_lt_f32_e32 vcc_lo, 0x3f400000, v6                  // 000000000020: 7C220CFF 3F400000
s_and_not1_b32 exec_lo, s0, vcc_lo                       // 000000000028: 917E6A00
s_cbranch_scc0 93                                        // 00000000002C: BFA1005D
v_mul_f32_e32 v4, 0x3e800000, v4                         // 000000000030: 100808FF 3E800000
v_mul_f32_e32 v5, 0x3e800000, v5                         // 000000000038: 100A0AFF 3E800000
v_floor_f32_e32 v4, v4                                   // 000000000040: 7E084904
v_floor_f32_e32 v5, v5                                   // 000000000044: 7E0A4905
v_add_f32_e32 v4, v4, v5                                 // 000000000048: 06080B04
v_mul_f32_e32 v5, 0.5, v4                                // 00000000004C: 100A08F0
v_floor_f32_e64 v5, v5 mul:2                             // 000000000050: D5A40005 08000105
v_sub_f32_e32 v4, v4, v5                                 // 000000000058: 08080B04
s_mov_b32 s0, exec_lo                                    // 00000000005C: BE80007E
s_wqm_b32 exec_lo, exec_lo                               // 000000000060: BEFE1C7E
lds_param_load v5, attr1.x wait_vdst:0                   // 000000000064: CE000405
s_mov_b32 exec_lo, s0                                    // 000000000068: BEFE0000
s_waitcnt expcnt(0)                                      // 00000000006C: BF89FFF0
v_mov_b32_dpp v6, v5 quad_perm:[0,0,0,0] row_mask:0xf bank_mask:0xf bound_ctrl:1 fi:1 // 000000000070: 7E0C02FA FF0C0005
s_mov_b32 s0, exec_lo                                    // 000000000078: BE80007E
s_wqm_b32 exec_lo, exec_lo                               // 00000000007C: BEFE1C7E
lds_param_load v5, attr0.x wait_vdst:0                   // 000000000080: CE000005
s_mov_b32 exec_lo, s0                                    // 000000000084: BEFE0000
v_interp_p10_f32 v7, v5, v0, v5 wait_exp:0               // 000000000088: CD000007 04160105
v_interp_p2_f32 v7, v5, v1, v7 wait_exp:7                // 000000000090: CD010707 041E0305
v_sub_f32_e32 v5, v6, v7                                 // 000000000098: 080A0F06
v_fmac_f32_e32 v7, v4, v5                                // 00000000009C: 560E0B04
s_mov_b32 s0, exec_lo                                    // 0000000000A0: BE80007E
s_wqm_b32 exec_lo, exec_lo                               // 0000000000A4: BEFE1C7E
lds_param_load v5, attr1.y wait_vdst:0                   // 0000000000A8: CE000505
s_mov_b32 exec_lo, s0                                    // 0000000000AC: BEFE0000
s_waitcnt expcnt(0)                                      // 0000000000B0: BF89FFF0
v_mov_b32_dpp v6, v5 quad_perm:[0,0,0,0] row_mask:0xf bank_mask:0xf bound_ctrl:1 fi:1 // 0000000000B4: 7E0C02FA FF0C0005
s_mov_b32 s0, exec_lo                                    // 0000000000BC: BE80007E
s_wqm_b32 exec_lo, exec_lo                               // 0000000000C0: BEFE1C7E
lds_param_load v5, attr0.y wait_vdst:0                   // 0000000000C4: CE000105
s_mov_b32 exec_lo, s0                                    // 0000000000C8: BEFE0000
v_interp_p10_f32 v8, v5, v0, v5 wait_exp:0               // 0000000000CC: CD000008 04160105
v_interp_p2_f32 v8, v5, v1, v8 wait_exp:7                // 0000000000D4: CD010708 04220305
v_sub_f32_e32 v5, v6, v8                                 // 0000000000DC: 080A1106
v_fmac_f32_e32 v8, v4, v5                                // 0000000000E0: 56100B04
s_mov_b32 s0, exec_lo                                    // 0000000000E4: BE80007E
s_wqm_b32 exec_lo, exec_lo                               // 0000000000E8: BEFE1C7E
lds_param_load v5, attr1.z wait_vdst:0                   // 0000000000EC: CE000605
s_mov_b32 exec_lo, s0                                    // 0000000000F0: BEFE0000
s_waitcnt expcnt(0)                                      // 0000000000F4: BF89FFF0
v_mov_b32_dpp v6, v5 quad_perm:[0,0,0,0] row_mask:0xf bank_mask:0xf bound_ctrl:1 fi:1 // 0000000000F8: 7E0C02FA FF0C0005
s_mov_b32 s0, exec_lo                                    // 000000000100: BE80007E
s_wqm_b32 exec_lo, exec_lo                               // 000000000104: BEFE1C7E
lds_param_load v5, attr0.z wait_vdst:0                   // 000000000108: CE000205
s_mov_b32 exec_lo, s0                                    // 00000000010C: BEFE0000
v_interp_p10_f32 v9, v5, v0, v5 wait_exp:0               // 000000000110: CD000009 04160105
v_interp_p2_f32 v9, v5, v1, v9 wait_exp:7                // 000000000118: CD010709 04260305
v_sub_f32_e32 v5, v6, v9                                 // 000000000120: 080A1306
v_fmac_f32_e32 v9, v4, v5                                // 000000000124: 56120B04
s_mov_b32 s0, exec_lo                                    // 000000000128: BE80007E
s_wqm_b32 exec_lo, exec_lo                               // 00000000012C: BEFE1C7E
lds_param_load v5, attr1.w wait_vdst:0                   // 000000000130: CE000705
s_mov_b32 exec_lo, s0                                    // 000000000134: BEFE0000
s_waitcnt expcnt(0)                                      // 000000000138: BF89FFF0
v_mov_b32_dpp v6, v5 quad_perm:[0,0,0,0] row_mask:0xf bank_mask:0xf bound_ctrl:1 fi:1 // 00000000013C: 7E0C02FA FF0C0005
s_mov_b32 s0, exec_lo                                    // 000000000144: BE80007E
s_wqm_b32 exec_lo, exec_lo                               // 000000000148: BEFE1C7E
lds_param_load v5, attr0.w wait_vdst:0                   // 00000000014C: CE000305
s_mov_b32 exec_lo, s0                                    // 000000000150: BEFE0000
v_interp_p10_f32 v0, v5, v0, v5 wait_exp:0               // 000000000154: CD000000 04160105
v_interp_p2_f32 v0, v5, v1, v0 wait_exp:7                // 00000000015C: CD010700 04020305
v_sub_f32_e32 v1, v6, v0                                 // 000000000164: 08020106
v_fmac_f32_e32 v0, v4, v1                                // 000000000168: 56000304
s_mov_b32 s0, exec_lo                                    // 00000000016C: BE80007E
s_wqm_b32 exec_lo, exec_lo                               // 000000000170: BEFE1C7E
lds_param_load v1, attr2.y wait_vdst:0                   // 000000000174: CE000901
s_mov_b32 exec_lo, s0                                    // 000000000178: BEFE0000
v_interp_p10_f32 v2, v1, v2, v1 wait_exp:0               // 00000000017C: CD000002 04060501
v_interp_p2_f32 v2, v1, v3, v2 wait_exp:7                // 000000000184: CD010702 040A0701
v_mul_f32_e32 v1, v9, v2                                 // 00000000018C: 10020509
v_cvt_pk_rtz_f16_f32_e32 v2, v7, v8                      // 000000000190: 5E041107
v_cvt_pk_rtz_f16_f32_e32 v0, v1, v0                      // 000000000194: 5E000101
exp mrt0 v2, v0, off, off done                           // 000000000198: F8000803 80800002
s_endpgm                                                 // 0000000001A0: BFB00000
exp mrt0 off, off, off, off done                         // 0000000001A4: F8000800 80808080
s_endpgm                                                 // 0000000001AC: BFB00000
