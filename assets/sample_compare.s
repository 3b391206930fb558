// sample_compare.s: depth compare (_c) on gfx9 (gfx900): all eight functions,
// percentage-closer filtering (compare each texel, then filter), the UNORM
// reference clamp, and gather4_c. Run with assets/sample_compare.toml.
//
// s[4:11] T# "depth": 2x2 float depths (0.25, 0.5 / 0.75, 1.0);
// s[44:51] T# "d16": 2x1 16-bit UNORM depths (1.0, 0.5); s[52:59] T# "d32":
// 2x1 float depths (1.0, 0.5). s[12:43]: point samplers with compare functions
// 0..7; s[60:63] bilinear LESS; s[64:67] point LESS_EQUAL.
// Regenerate sample_compare.bin with assets/regen.sh.

  image_sample_c_lz v10, v[0:2], s[4:11], s[12:15] dmask:0x1   // never
  image_sample_c_lz v11, v[0:2], s[4:11], s[16:19] dmask:0x1   // less
  image_sample_c_lz v12, v[0:2], s[4:11], s[20:23] dmask:0x1   // equal
  image_sample_c_lz v13, v[0:2], s[4:11], s[24:27] dmask:0x1   // less_equal
  image_sample_c_lz v14, v[0:2], s[4:11], s[28:31] dmask:0x1   // greater
  image_sample_c_lz v15, v[0:2], s[4:11], s[32:35] dmask:0x1   // not_equal
  image_sample_c_lz v16, v[0:2], s[4:11], s[36:39] dmask:0x1   // greater_equal
  image_sample_c_lz v17, v[0:2], s[4:11], s[40:43] dmask:0x1   // always
  image_sample_c_lz v20, v[3:5], s[4:11], s[60:63] dmask:0x1   // PCF: compare then filter
  image_sample_c_lz v21, v[6:8], s[44:51], s[64:67] dmask:0x1  // UNORM depth: reference clamped to 1
  image_sample_c_lz v22, v[6:8], s[52:59], s[64:67] dmask:0x1  // float depth: not clamped
  image_gather4_c_lz v[24:27], v[3:5], s[4:11], s[60:63] dmask:0x1 // four compare results
  image_sample_c_d_cl_o v23, v[30:38], s[4:11], s[60:63] dmask:0x1 // every operand at once
  s_endpgm
