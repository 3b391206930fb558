// image_bcn.s: image_load from block-compressed images on gfx9 (gfx900).
// Run with assets/image_bcn.toml (every block built and decoded by hand there).
// v0 = x, v1 = y. s[4:11] BC1 6x6, s[12:19] BC2, s[20:27] BC3, s[28:35] BC4
// SNORM, s[36:43] BC5, s[44:51] BC7 (4x4 each, UNORM unless noted).
// Regenerate image_bcn.bin with assets/regen.sh.

  image_load v[2:5], v[0:1], s[4:11] dmask:0xf unorm     // BC1, lane 2
  image_load v[6:9], v[0:1], s[4:11] dmask:0xf unorm     // BC1, lane 32 (transparent)
  image_load v[10:13], v[0:1], s[4:11] dmask:0xf unorm   // BC1, lane 5 (green)
  image_load v[14:17], v[0:1], s[4:11] dmask:0xf unorm   // BC1, lane 7 (out of bounds)
  image_load v[18:21], v[0:1], s[12:19] dmask:0xf unorm  // BC2
  image_load v[22:25], v[0:1], s[20:27] dmask:0xf unorm  // BC3
  image_load v[26:29], v[0:1], s[28:35] dmask:0xf unorm  // BC4 SNORM, lane 1
  image_load v[30:33], v[0:1], s[28:35] dmask:0xf unorm  // BC4 SNORM, lane 2
  image_load v[34:37], v[0:1], s[36:43] dmask:0xf unorm  // BC5
  image_load v[38:41], v[0:1], s[44:51] dmask:0xf unorm  // BC7
  s_endpgm
