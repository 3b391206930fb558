// bench_trilinear.s: the `sample_trilinear_derivs` workload of `gcn-run bench`
// (gfx900): a trilinear sample whose LOD comes from the quad's implicit
// derivatives of (v0, v1).
// Regenerate bench_trilinear.bin with assets/regen.sh.

  image_sample v[2:5], v[0:1], s[4:11], s[12:15] dmask:0xf
  s_endpgm
