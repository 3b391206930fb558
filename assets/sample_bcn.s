// sample_bcn.s: IMAGE_SAMPLE and IMAGE_GATHER4 on block-compressed images on
// gfx9 (gfx900). Run with assets/sample_bcn.toml; every expected value is
// derived there.
//
// s[4:11]  T# "bc1": 8x4 BC1 UNORM, block 0 red, block 1 blue
// s[20:27] T# "bc6": 4x4 BC6 UFLOAT (BC6H mode 11)
// s[12:15] S# bilinear, clamp_last_texel      s[16:19] S# point, clamp_last_texel
// Regenerate sample_bcn.bin with assets/regen.sh.

  image_sample_lz v[10:13], v[0:1], s[4:11], s[12:15] dmask:0xf   // bilinear across the block edge
  image_gather4_lz v[14:17], v[0:1], s[4:11], s[12:15] dmask:0x1  // gather X across the edge
  image_sample_lz v[18:21], v[2:3], s[4:11], s[16:19] dmask:0xf   // point inside block 1
  image_sample_lz v[22:25], v[4:5], s[20:27], s[16:19] dmask:0xf  // BC6H point
  image_sample_lz v[26:28], v[6:7], s[20:27], s[12:15] dmask:0x7  // BC6H bilinear
  s_endpgm
