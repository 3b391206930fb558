// packed_gfx10.s: 16-bit and mixed-precision math on gfx1030 (assets/
// packed_gfx10.toml): v_fma_mix* (fused), VOP2 v_pk_fmac_f16, VOP3 op_sel and
// clamp on v_add_nc_u16, a 32-bit literal in packed math. v0 = (1.5, -2.0)
// and v1 = (0.25, 3.0) as f16 pairs; v20 = (3, 32767), v21 = (65534, 2).
  v_fma_mix_f32 v2, v0, v4, v5 op_sel_hi:[1,0,0]
  v_fma_mixlo_f16 v6, v0, v1, v0 op_sel:[1,1,0] op_sel_hi:[1,1,1]
  v_pk_fmac_f16 v7, v0, v1
  v_add_nc_u16 v8, v20, v21 op_sel:[1,0,1] clamp
  v_pk_add_f16 v9, v0, 0x3c004000
  s_endpgm
