// dx9_mul_gfx10.s: the fused DX9 multiply-add of gfx10.3 (assets/
// dx9_mul_gfx10.toml). v0 = +0, v1 = quiet NaN, v2 = -0, v4 = 2.0, v5 = 0.25.
  v_fma_legacy_f32 v10, v0, v1, v2
  v_fma_legacy_f32 v11, v4, v5, v4
  v_fmac_legacy_f32 v12, v4, v5
  v_mul_legacy_f32 v13, v1, v0
  s_endpgm
