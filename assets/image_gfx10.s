// image_gfx10.s: loads, stores, an atomic and get_resinfo on gfx10.3 (gfx1030):
// the gfx10 T# (combined FORMAT, split WIDTH), DIM-driven addresses, an NSA form,
// A16 and packed D16. Run with assets/image_gfx10.toml (wave32) and
// assets/image_gfx10_w64.toml (wave64).
//
// v0 = x, v1 = y, v2 = slice, v20 = y for the NSA form, v21 = 0 (mip level),
// v22 = x | y << 16 (A16), v23 = 1 (atomic addend).
// s[4:11] rgba8 4x2 UNORM, s[12:19] 4x2 16_16 UNORM, s[20:27] 1x1 32 UINT,
// s[28:35] 2x2 2d_array (3 layers) 32 UINT.
// Regenerate image_gfx10.bin with assets/regen.sh.

  image_load v[2:5], v[0:1], s[4:11] dmask:0xf dim:SQ_RSRC_IMG_2D unorm
  image_store v[6:7], v[0:1], s[12:19] dmask:0x3 dim:SQ_RSRC_IMG_2D unorm
  s_waitcnt vmcnt(0)
  image_load v[8:9], v[0:1], s[12:19] dmask:0x3 dim:SQ_RSRC_IMG_2D unorm
  image_load v10, [v0, v20], s[4:11] dmask:0x1 dim:SQ_RSRC_IMG_2D unorm   // NSA
  image_atomic_add v23, v21, s[20:27] dmask:0x1 dim:SQ_RSRC_IMG_1D unorm glc
  image_get_resinfo v[12:15], v21, s[28:35] dmask:0xf dim:SQ_RSRC_IMG_2D_ARRAY unorm
  image_load v16, v[24:26], s[28:35] dmask:0x1 dim:SQ_RSRC_IMG_2D_ARRAY unorm
  image_load v17, v22, s[4:11] dmask:0x1 dim:SQ_RSRC_IMG_2D unorm a16
  image_load v18, v[0:1], s[4:11] dmask:0x3 dim:SQ_RSRC_IMG_2D unorm d16
  s_endpgm
