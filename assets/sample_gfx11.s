// sample_gfx11.s: IMAGE_SAMPLE, GATHER4 and GET_LOD on gfx11 (gfx1100): gfx11's
// renumbered opcodes and moved MIMG bits (A16 16, D16 17), its one-bit NSA with
// the partial-NSA form (the last address operand a tuple), and the gfx11 S# and
// T# (an 8_8_8_8 UNORM image: FORMAT 42, gfx10 56). Run with
// assets/sample_gfx11.toml (wave32) and assets/sample_gfx11_w64.toml (wave64).
//
// s[4:11] T# "rows": 16x2 32 FLOAT, texel 16y + x. s[12:15] bilinear,
// clamp_last_texel. s[16:23] "quad": 2x2 8_8_8_8 UNORM. s[24:27] point sampler.
// Regenerate sample_gfx11.bin with assets/regen.sh.

  image_sample_lz v10, [v0, v5], s[4:11], s[12:15] dmask:0x1 dim:SQ_RSRC_IMG_2D   // NSA
  image_sample_lz v11, v[0:1], s[4:11], s[12:15] dmask:0x1 dim:SQ_RSRC_IMG_2D
  image_gather4_lz v[12:15], [v0, v5], s[4:11], s[12:15] dmask:0x1 dim:SQ_RSRC_IMG_2D
  image_sample_d v16, [v30, v31, v32, v33, v[0:1]], s[4:11], s[12:15] dmask:0x1 dim:SQ_RSRC_IMG_2D  // partial NSA
  image_sample_lz v17, v[0:1], s[4:11], s[12:15] dmask:0x3 dim:SQ_RSRC_IMG_2D d16
  image_sample_lz v18, v23, s[4:11], s[12:15] dmask:0x1 dim:SQ_RSRC_IMG_2D a16
  image_get_lod v[24:25], v[26:27], s[4:11], s[12:15] dmask:0x3 dim:SQ_RSRC_IMG_2D
  image_sample_lz v[34:37], v[38:39], s[16:23], s[12:15] dmask:0xf dim:SQ_RSRC_IMG_2D
  image_sample_lz v40, v[38:39], s[16:23], s[24:27] dmask:0x2 dim:SQ_RSRC_IMG_2D
  image_gather4_lz v[41:44], v[38:39], s[16:23], s[24:27] dmask:0x4 dim:SQ_RSRC_IMG_2D
  s_endpgm
