// degamma_sweep.s: eleven point samples with one S# (FORCE_DEGAMMA in
// tests/gpu_degamma.rs) on eleven T#s, on gfx9 (gfx900): the kernel of the
// sweep of every code of every tabulated width through the GPU's sRGB tables.
//
// s[4:7]   S#, point + FORCE_DEGAMMA (set by the test)
// s[8+8k : 15+8k], k = 0..10: T# of image k, sampled into v[4+4k : 7+4k]
// v[0:1]   normalized coordinates of the lane's texel centre
// Regenerate degamma_sweep.bin with assets/regen.sh.

  image_sample_lz v[4:7], v[0:1], s[8:15], s[4:7] dmask:0xf
  image_sample_lz v[8:11], v[0:1], s[16:23], s[4:7] dmask:0xf
  image_sample_lz v[12:15], v[0:1], s[24:31], s[4:7] dmask:0xf
  image_sample_lz v[16:19], v[0:1], s[32:39], s[4:7] dmask:0xf
  image_sample_lz v[20:23], v[0:1], s[40:47], s[4:7] dmask:0xf
  image_sample_lz v[24:27], v[0:1], s[48:55], s[4:7] dmask:0xf
  image_sample_lz v[28:31], v[0:1], s[56:63], s[4:7] dmask:0xf
  image_sample_lz v[32:35], v[0:1], s[64:71], s[4:7] dmask:0xf
  image_sample_lz v[36:39], v[0:1], s[72:79], s[4:7] dmask:0xf
  image_sample_lz v[40:43], v[0:1], s[80:87], s[4:7] dmask:0xf
  image_sample_lz v[44:47], v[0:1], s[88:95], s[4:7] dmask:0xf
  s_endpgm
