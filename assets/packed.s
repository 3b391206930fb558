// packed.s: 16-bit math on gfx900 (assets/packed.toml): VOP3P packed f16 and
// integer operations with op_sel, op_sel_hi, neg_lo, neg_hi, clamp and
// inline constants; integer clamp (saturation) on 32-bit adds; VOP3 op_sel
// on a 16-bit fma; mixed precision (v_mad_mix*: f16 halves into f32 math). v0 = (1.5, -2.0) and v1 = (0.25, 3.0) as f16 pairs
// (low, high); v20 = (3, 32767) and v21 = (65534, 2) as u16 pairs.
  v_pk_add_f16 v2, v0, v1
  v_pk_add_f16 v3, v0, 1.0
  v_pk_add_f16 v4, v0, 1.0 op_sel_hi:[1,0]
  v_pk_mul_f16 v5, v0, v1 neg_lo:[1,0] neg_hi:[0,1]
  v_pk_fma_f16 v6, v0, v1, v0 op_sel:[1,1,0] op_sel_hi:[0,0,0] clamp
  v_pk_add_u16 v7, v20, v21 clamp
  v_pk_sub_i16 v8, v20, v21 clamp
  v_pk_mad_u16 v9, v20, v21, 5
  v_pk_lshlrev_b16 v10, 3, v20 op_sel_hi:[0,1]
  v_pk_ashrrev_i16 v11, 1, v21 op_sel_hi:[0,1]
  v_pk_max_i16 v12, v20, v21
  v_pk_min_f16 v13, v0, v1
  v_pk_mul_lo_u16 v14, v20, v21 op_sel:[1,0]
  v_add_u32_e64 v15, -1, v20 clamp
  v_sub_u32_e64 v16, v21, v20 clamp
  v_fma_f16 v17, v0, v1, v0 op_sel:[1,0,1,1]
  v_pk_max_f16 v18, v0, v19
  v_pk_add_i16 v22, v20, v21 clamp
  v_pk_sub_u16 v23, v20, v21 clamp
  v_pk_sub_u16 v24, v20, v21
  v_pk_mad_i16 v25, v20, v21, 5 clamp
  v_pk_max_u16 v26, v20, v21
  v_mad_mix_f32 v27, v0, v1, v28 op_sel:[1,0,0] op_sel_hi:[1,1,0]
  v_mad_mixlo_f16 v29, v0, v1, v0 op_sel_hi:[1,1,1]
  v_mad_mixhi_f16 v30, -v0, |v1|, v28 op_sel:[0,1,0] op_sel_hi:[1,1,0] clamp
  v_mad_u32_u16 v31, v20, v21, v28 op_sel:[1,0,0,0]
  v_mad_i32_i16 v32, v21, v21, -1
  s_endpgm
