// sample_address.s: the eight SQ_TEX_CLAMP address modes and the border colours on
// gfx9 (gfx900), point and linear, at and past both edges of a 1D image.
// Run with assets/sample_address.toml; every expected value is derived there.
//
// s[4:11] T# "line": 1D, 4 texels of 32-bit float (10, 20, 30, 40).
// s[12:43] point samplers, one per mode 0..7; s[44:67] linear samplers for modes
// 0, 1, 4, 5, 6, 7; s[68:71] point clamp_border opaque_black; s[72:75] linear
// clamp_border opaque_white. v0 = s of the lane.
// Regenerate sample_address.bin with assets/regen.sh.

  image_sample_lz v10, v0, s[4:11], s[12:15] dmask:0x1   // point, wrap
  image_sample_lz v11, v0, s[4:11], s[16:19] dmask:0x1   // point, mirror
  image_sample_lz v12, v0, s[4:11], s[20:23] dmask:0x1   // point, clamp_last_texel
  image_sample_lz v13, v0, s[4:11], s[24:27] dmask:0x1   // point, mirror_once_last_texel
  image_sample_lz v14, v0, s[4:11], s[28:31] dmask:0x1   // point, clamp_half_border
  image_sample_lz v15, v0, s[4:11], s[32:35] dmask:0x1   // point, mirror_once_half_border
  image_sample_lz v16, v0, s[4:11], s[36:39] dmask:0x1   // point, clamp_border
  image_sample_lz v17, v0, s[4:11], s[40:43] dmask:0x1   // point, mirror_once_border
  image_sample_lz v20, v0, s[4:11], s[44:47] dmask:0x1   // linear, wrap
  image_sample_lz v21, v0, s[4:11], s[48:51] dmask:0x1   // linear, mirror
  image_sample_lz v22, v0, s[4:11], s[52:55] dmask:0x1   // linear, clamp_half_border
  image_sample_lz v23, v0, s[4:11], s[56:59] dmask:0x1   // linear, mirror_once_half_border
  image_sample_lz v24, v0, s[4:11], s[60:63] dmask:0x1   // linear, clamp_border
  image_sample_lz v25, v0, s[4:11], s[64:67] dmask:0x1   // linear, mirror_once_border
  image_sample_lz v[30:31], v0, s[4:11], s[36:39] dmask:0x9  // point clamp_border, transparent black: X, W
  image_sample_lz v[32:33], v0, s[4:11], s[68:71] dmask:0x9  // point clamp_border, opaque black
  image_sample_lz v[34:35], v0, s[4:11], s[72:75] dmask:0x9  // linear clamp_border, opaque white
  s_endpgm
