// image_gfx11.s: loads, stores, an atomic and get_resinfo on gfx11 (gfx1100):
// the gfx11 T# (8-bit renumbered FORMAT: 8_8_8_8_UNORM is 42 where gfx10 had 56;
// MIN_LOD split over W5/W6; no RESOURCE_LEVEL), gfx11's MIMG encoding (A16 bit
// 16, D16 bit 17, NSA one bit), DIM-driven addresses, NSA forms, A16 and packed
// D16 loads and stores. Run with assets/image_gfx11.toml (wave32) and
// assets/image_gfx11_w64.toml (wave64).
//
// v0 = x, v1 = y, v20 = y for the NSA form, v21 = 0 (mip level), v22 = x | y << 16
// (A16), v23 = 1 (atomic addend), v[24:26] = array x, y, slice, v27 = packed f16
// pair (1.0, -0.5).
// s[4:11] rgba8 4x2 UNORM, s[12:19] 4x2 16_16 UNORM, s[20:27] 1x1 32 UINT,
// s[28:35] 2x2 2d_array (3 layers) 32 UINT, s[36:43] 4x2 16_16 FLOAT, s[44:51]
// 6x6 BC1 UNORM (v37 = x, v38 = y).
// Regenerate image_gfx11.bin with assets/regen.sh.

  image_load v[2:5], v[0:1], s[4:11] dmask:0xf dim:SQ_RSRC_IMG_2D unorm
  image_store v[6:7], v[0:1], s[12:19] dmask:0x3 dim:SQ_RSRC_IMG_2D unorm
  image_store v27, v[0:1], s[36:43] dmask:0x3 dim:SQ_RSRC_IMG_2D unorm d16
  s_waitcnt vmcnt(0)
  image_load v[8:9], v[0:1], s[12:19] dmask:0x3 dim:SQ_RSRC_IMG_2D unorm
  image_load v10, [v0, v20], s[4:11] dmask:0x1 dim:SQ_RSRC_IMG_2D unorm   // NSA
  image_atomic_add v23, v21, s[20:27] dmask:0x1 dim:SQ_RSRC_IMG_1D unorm glc
  image_get_resinfo v[12:15], v21, s[28:35] dmask:0xf dim:SQ_RSRC_IMG_2D_ARRAY unorm
  image_load v16, [v24, v25, v26], s[28:35] dmask:0x1 dim:SQ_RSRC_IMG_2D_ARRAY unorm   // NSA
  image_load v17, v22, s[4:11] dmask:0x1 dim:SQ_RSRC_IMG_2D unorm a16
  image_load v18, v[0:1], s[4:11] dmask:0x3 dim:SQ_RSRC_IMG_2D unorm d16
  image_load v28, v[0:1], s[36:43] dmask:0x3 dim:SQ_RSRC_IMG_2D unorm d16
  image_load v[29:30], v[0:1], s[36:43] dmask:0x3 dim:SQ_RSRC_IMG_2D unorm
  image_load v[31:32], v[0:1], s[36:43] dmask:0x5 dim:SQ_RSRC_IMG_2D unorm
  image_load v[33:36], v[37:38], s[44:51] dmask:0xf dim:SQ_RSRC_IMG_2D unorm   // BC1
  s_endpgm
