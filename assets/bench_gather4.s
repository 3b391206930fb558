// bench_gather4.s: the `gather4` workload of `gcn-run bench` (gfx900): the red
// components of the bilinear footprint at (v0, v1).
// Regenerate bench_gather4.bin with assets/regen.sh.

  image_gather4_lz v[2:5], v[0:1], s[4:11], s[12:15] dmask:0x1
  s_endpgm
