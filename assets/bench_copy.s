// bench_copy.s: the `load_store_copy` workload of `gcn-run bench` (gfx900):
// every lane copies its texel (x, y) = (v0, v1) from s[4:11] to s[16:23].
// Regenerate bench_copy.bin with assets/regen.sh.

  image_load v[2:5], v[0:1], s[4:11] dmask:0xf unorm
  s_waitcnt vmcnt(0)
  image_store v[2:5], v[0:1], s[16:23] dmask:0xf unorm
  s_endpgm
