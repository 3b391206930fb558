// f64.s: f64 arithmetic on gfx900 (assets/f64.toml): sums and products that
// round to even at a tie, overflow and underflow to denormals, fma's single
// rounding, min/max with NaNs, compares, class, roundings to integers,
// fract, frexp, ldexp, conversions and the output modifiers. Inputs in
// v[0:1], v[2:3], v[4:5] (a, b, c), v6 (an i32 n) and v7 (an f32), loaded
// per lane from the manifest's `data`; v8 = the class mask 0x3f0.
  buffer_load_dwordx4 v[0:3], v9, s[8:11], 0 offen
  buffer_load_dwordx4 v[4:7], v9, s[8:11], 0 offen offset:16
  s_waitcnt vmcnt(0)
  v_add_f64 v[10:11], v[0:1], v[2:3]
  v_mul_f64 v[12:13], v[0:1], v[2:3]
  v_fma_f64 v[14:15], v[0:1], v[2:3], v[4:5]
  v_add_f64 v[16:17], v[0:1], -v[2:3]
  v_min_f64 v[18:19], v[0:1], v[2:3]
  v_max_f64 v[20:21], v[0:1], v[2:3]
  v_cmp_lt_f64 vcc, v[0:1], v[2:3]
  v_cndmask_b32 v22, 0, 1, vcc
  v_cmp_class_f64 vcc, v[0:1], v8
  v_cndmask_b32 v23, 0, 1, vcc
  v_floor_f64 v[24:25], v[0:1]
  v_rndne_f64 v[26:27], v[0:1]
  v_fract_f64 v[28:29], v[0:1]
  v_frexp_mant_f64 v[30:31], v[0:1]
  v_frexp_exp_i32_f64 v32, v[0:1]
  v_ldexp_f64 v[34:35], v[0:1], v6
  v_cvt_f32_f64 v36, v[0:1]
  v_cvt_i32_f64 v37, v[0:1]
  v_cvt_f64_f32 v[38:39], v7
  v_cvt_f64_i32 v[40:41], v6
  v_mul_f64 v[42:43], v[0:1], v[2:3] clamp
  v_add_f64 v[44:45], v[0:1], v[2:3] mul:2
  v_trunc_f64 v[46:47], v[0:1]
  v_ceil_f64 v[48:49], v[0:1]
  v_rcp_f64 v[50:51], v[0:1]
  v_sqrt_f64 v[52:53], v[0:1]
  v_rsq_f64 v[54:55], v[0:1]
  // a / b through LLVM's f64 division sequence (clang-19 -O2, gfx900).
  v_div_scale_f64 v[56:57], s[12:13], v[2:3], v[2:3], v[0:1]
  v_rcp_f64 v[58:59], v[56:57]
  v_fma_f64 v[60:61], -v[56:57], v[58:59], 1.0
  v_fma_f64 v[58:59], v[58:59], v[60:61], v[58:59]
  v_div_scale_f64 v[60:61], vcc, v[0:1], v[2:3], v[0:1]
  v_fma_f64 v[62:63], -v[56:57], v[58:59], 1.0
  v_fma_f64 v[58:59], v[58:59], v[62:63], v[58:59]
  v_mul_f64 v[62:63], v[60:61], v[58:59]
  v_fma_f64 v[56:57], -v[56:57], v[62:63], v[60:61]
  v_div_fmas_f64 v[56:57], v[56:57], v[58:59], v[62:63]
  v_div_fixup_f64 v[64:65], v[56:57], v[2:3], v[0:1]
  s_endpgm
