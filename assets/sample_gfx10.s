// sample_gfx10.s: IMAGE_SAMPLE on gfx10 (gfx1010): the address layout comes from
// the instruction's DIM, and NSA forms name each address VGPR. Run with
// assets/sample_gfx10.toml.
//
// s[4:11] T# "rows": 16x2 float, 16y + x (16 texels wide: a width gfx10's derived
// pitch and gcnrun's placement agree on). s[12:15] bilinear, clamp_last_texel.
// Regenerate sample_gfx10.bin with assets/regen.sh.

  image_sample_lz v10, [v0, v5], s[4:11], s[12:15] dmask:0x1 dim:SQ_RSRC_IMG_2D   // NSA: s in v0, t in v5
  image_sample_lz v11, v[0:1], s[4:11], s[12:15] dmask:0x1 dim:SQ_RSRC_IMG_2D     // contiguous: s, t in v0, v1
  image_gather4_lz v[12:15], [v0, v5], s[4:11], s[12:15] dmask:0x1 dim:SQ_RSRC_IMG_2D
  s_endpgm
