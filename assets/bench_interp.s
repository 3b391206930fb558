// bench_interp.s: the `interp_p1p2` workload of `gcn-run bench` (gfx900): the
// x and y channels of attribute 0 at barycentrics (v0, v1).
// Regenerate bench_interp.bin with assets/regen.sh.

  v_interp_p1_f32 v2, v0, attr0.x
  v_interp_p2_f32 v2, v1, attr0.x
  v_interp_p1_f32 v3, v0, attr0.y
  v_interp_p2_f32 v3, v1, attr0.y
  s_endpgm
