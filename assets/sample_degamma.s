// sample_degamma.s: the S#'s FORCE_DEGAMMA on UNORM images whose components are
// not 8 bits wide, on gfx9 (gfx900). Run with assets/sample_degamma.toml; every
// expected value is derived there.
//
// T#s, each 2x1 UNORM: s[4:11] 5_6_5   s[16:23] 2_10_10_10   s[24:31] 10_10_10_2
// s[32:39] 4_4_4_4   s[40:47] 16_16_16_16   s[52:59] 5_5_5_1   s[60:67] 11_11_10
// S#s: s[12:15] point + FORCE_DEGAMMA   s[48:51] bilinear + FORCE_DEGAMMA
// Regenerate sample_degamma.bin with assets/regen.sh.

  image_load v[8:11], v[4:5], s[4:11] dmask:0xf unorm            // loads read no S#: plain UNORM
  image_load v[12:15], v[4:5], s[40:47] dmask:0xf unorm
  image_sample_lz v[16:19], v[0:1], s[4:11], s[12:15] dmask:0xf  // point: one texel, decoded
  image_sample_lz v[20:23], v[0:1], s[16:23], s[12:15] dmask:0xf
  image_sample_lz v[24:27], v[0:1], s[24:31], s[12:15] dmask:0xf
  image_sample_lz v[28:31], v[0:1], s[32:39], s[12:15] dmask:0xf
  image_sample_lz v[32:35], v[0:1], s[40:47], s[12:15] dmask:0xf
  image_sample_lz v[36:39], v[0:1], s[52:59], s[12:15] dmask:0xf
  image_sample_lz v[40:43], v[0:1], s[60:67], s[12:15] dmask:0xf
  image_sample_lz v[44:47], v[2:3], s[4:11], s[48:51] dmask:0xf  // bilinear: decode, then filter
  image_sample_lz v[48:51], v[2:3], s[16:23], s[48:51] dmask:0xf
  image_sample_lz v[52:55], v[2:3], s[40:47], s[48:51] dmask:0xf
  s_endpgm
