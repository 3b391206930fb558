// gather4.s: IMAGE_GATHER4 on gfx9 (gfx900): footprint order, the component
// DMASK selects (after DST_SEL), address modes at the edge, offsets, and an
// integer image. Run with assets/gather4.toml; every expected value is derived there.
//
// s[4:11] T# "pair": 4x4 32_32 float, X = 4y + x, Y = 100 + 4y + x.
// s[20:27] T# "ints": 4x4 32-bit UINT, 4y + x. s[12:15] clamp_last_texel, s[16:19] wrap.
// Regenerate gather4.bin with assets/regen.sh.

  image_gather4_lz v[10:13], v[0:1], s[4:11], s[12:15] dmask:0x1     // X at (1, 1) texels
  image_gather4_lz v[14:17], v[0:1], s[4:11], s[12:15] dmask:0x2     // Y
  image_gather4_lz v[18:21], v[2:3], s[4:11], s[12:15] dmask:0x1     // right edge, clamp
  image_gather4_lz v[22:25], v[2:3], s[4:11], s[16:19] dmask:0x1     // right edge, wrap
  image_gather4_lz v[26:29], v[7:8], s[4:11], s[16:19] dmask:0x1     // top-left corner, wrap
  image_gather4_lz_o v[30:33], v[4:6], s[4:11], s[12:15] dmask:0x1   // offset (+1, +2)
  image_gather4_lz v[34:37], v[0:1], s[4:11], s[12:15] dmask:0x8     // W: DST_SEL SEL_1
  image_gather4_lz v[38:41], v[0:1], s[20:27], s[12:15] dmask:0x1    // UINT
  s_endpgm
