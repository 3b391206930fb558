// bench_sample.s: the `sample_bilinear_rgba8` workload of `gcn-run bench`
// (gfx900): a bilinear sample at LOD 0 of s[4:11] through s[12:15] at (v0, v1).
// Regenerate bench_sample.bin with assets/regen.sh.

  image_sample_lz v[2:5], v[0:1], s[4:11], s[12:15] dmask:0xf
  s_endpgm
