// sample_filter.s: IMAGE_SAMPLE point and bilinear filtering on gfx9 (gfx900).
// Run with assets/sample_filter.toml; every expected value is derived there.
//
// s[4:11]  T# "ramp": 4x4 32-bit float, texel (x, y) = 4y + x, one level
// s[24:31] T# "rgba": 2x2 8_8_8_8 UNORM        s[32:39] T# "srgb": 2x1 8_8_8_8 SRGB
// s[56:63] T# "tiny": 2x1 float denormals 0x00000001, 0x80000001
// s[12:15] S# point, clamp_last_texel         s[16:19] S# bilinear, clamp_last_texel
// s[44:47] bilinear unnormalized  s[48:51] min reduction  s[52:55] max reduction
// s[64:67] point with FORCE_DEGAMMA
// s[68:75] T# "mipped": 4x4 float 4y + x, level 1 2x2 100 + 2y + x, level 2 200; s[76:79] trilinear
// Regenerate sample_filter.bin with assets/regen.sh.

  image_sample_lz v10, v[0:1], s[4:11], s[12:15] dmask:0x1          // point at texel centres
  image_sample_lz v11, v[2:3], s[4:11], s[16:19] dmask:0x1          // bilinear along row 1
  image_sample_lz v12, v[4:5], s[4:11], s[16:19] dmask:0x1          // bilinear at (1.75, 2.25) texels
  image_sample_lz v13, v[6:7], s[4:11], s[16:19] dmask:0x1          // 1/1024 texel: below the 1/256 grid
  image_sample_lz_o v14, v[20:22], s[4:11], s[16:19] dmask:0x1      // texel offsets
  image_sample_lz v[15:18], v[0:1], s[24:31], s[12:15] dmask:0xf    // RGBA8 point
  image_sample_lz v[23:26], v[8:9], s[24:31], s[16:19] dmask:0xb tfe // RGBA8 bilinear centre: X, Y, W, TFE
  image_sample_lz v29, v[8:9], s[24:31], s[16:19] dmask:0x0         // DMASK 0: one zero VGPR
  image_sample_lz v[27:28], v[8:9], s[32:39], s[16:19] dmask:0x9    // sRGB: decode, then filter
  image_sample_lz v30, v[40:41], s[4:11], s[16:19] dmask:0x1 unorm  // UNORM bit: coordinates in texels
  image_sample_lz v31, v[40:41], s[4:11], s[44:47] dmask:0x1        // S# FORCE_UNNORMALIZED
  image_sample_lz v32, v[4:5], s[4:11], s[48:51] dmask:0x1          // FILTER_MODE min
  image_sample_lz v33, v[4:5], s[4:11], s[52:55] dmask:0x1          // FILTER_MODE max
  image_sample_lz v[34:37], v[0:1], s[24:31], s[64:67] dmask:0xf    // FORCE_DEGAMMA on UNORM
  image_sample_lz v38, v[42:43], s[56:63], s[12:15] dmask:0x1       // denormal texels flush
  image_load v39, v[44:45], s[56:63] dmask:0x1 unorm                // ... loads keep them
  image_sample_l v46, v[4:6], s[68:75], s[76:79] dmask:0x1         // trilinear: bilinear on two levels
  s_endpgm
