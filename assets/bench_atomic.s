// bench_atomic.s: the `atomic_add_contended` workload of `gcn-run bench`
// (gfx900): every lane adds v2 to texel v0 of a 1D R32 UINT image (the bench
// puts many lanes on each texel) and gets the old value back.
// Regenerate bench_atomic.bin with assets/regen.sh.

  image_atomic_add v2, v0, s[4:11] dmask:0x1 unorm glc
  s_endpgm
