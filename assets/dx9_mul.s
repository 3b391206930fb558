// dx9_mul.s: the DX9 ("legacy") multiplies on gfx900 (assets/dx9_mul.toml):
// a factor of ±0 makes the product +0 whatever the other factor is (∞ and
// NaN too), and v_mad_legacy_f32 then gives the addend.
// v0 = +0, v1 = +inf, v2 = -0, v3 = quiet NaN, v4 = 2.5, v5 = 10.0.
  v_mul_legacy_f32 v10, v0, v1
  v_mul_legacy_f32 v11, v3, v2
  v_mul_legacy_f32 v12, v4, v5
  v_mul_f32 v13, v0, v1
  v_mad_legacy_f32 v14, v0, v1, v4
  v_mad_legacy_f32 v15, v4, v5, v4
  v_mad_legacy_f32 v16, v2, v3, v16
  s_endpgm
