// gather4_gfx8.s: IMAGE_GATHER4 on gfx8 (gfx803), where integer images gather
// the footprint that starts at floor(u), not floor(u - 0.5) (Mesa
// lower_gather4_integer). Run with assets/gather4_gfx8.toml.
//
// s[4:11] T# "pair": 4x4 32_32 float; s[20:27] T# "ints": 4x4 32-bit UINT, 4y + x;
// s[28:35] T# "quad": 2x1 32_32_32_32 float (1.0, 0.5, -2.0, 100000.0), for D16.
// Regenerate gather4_gfx8.bin with assets/regen.sh.

  image_gather4_lz v[10:13], v[0:1], s[4:11], s[12:15] dmask:0x1     // float: the usual footprint
  image_gather4_lz v[14:17], v[0:1], s[20:27], s[12:15] dmask:0x1    // UINT: shifted by half a texel
  image_sample_lz v[20:23], v[2:3], s[28:35], s[12:15] dmask:0xf d16   // D16, unpacked: one half per VGPR
  s_endpgm
