// sample_g16.s: 16-bit derivatives on gfx10.3 (gfx1030). The _g16 opcodes read
// the derivatives as f16, the d/dh group then the d/dv group, each packed two per
// VGPR low half first and padded to whole VGPRs (1D: dx alone; 3D: dz alone);
// A16 alone (without _g16) leaves them 32-bit on gfx10. Run with
// assets/sample_g16.toml, which derives every expected value. Regenerate the
// .bin with assets/regen.sh.
//
// T#s: s[4:11] "lv1d" (1D, 4 texels, levels 1.0, 2.0, 4.0), s[20:27] "levels"
// (2D 4x4, levels 1.0, 2.0, 4.0), s[28:35] "vol" (3D 4x4x4, the same);
// s[16:19] trilinear, clamp_last_texel.

  image_sample_d_g16 v40, v[0:2], s[4:11], s[16:19] dmask:0x1 dim:SQ_RSRC_IMG_1D          // (dx/dh), (dx/dv), s
  image_sample_d v41, v[3:7], s[20:27], s[16:19] dmask:0x1 dim:SQ_RSRC_IMG_2D a16         // 4 x f32, (s, t)
  image_sample_d_g16 v42, v[8:11], s[20:27], s[16:19] dmask:0x1 dim:SQ_RSRC_IMG_2D        // (ds, dt/dh), (ds, dt/dv), s, t
  image_sample_d_g16 v43, [v12, v13, v14], s[20:27], s[16:19] dmask:0x1 dim:SQ_RSRC_IMG_2D a16 // NSA, all 16-bit
  image_sample_d_g16 v44, v[16:22], s[28:35], s[16:19] dmask:0x1 dim:SQ_RSRC_IMG_3D       // (dx, dy/dh), (dz/dh), (dx, dy/dv), (dz/dv), s, t, r
  image_sample_lz v45, v14, s[20:27], s[16:19] dmask:0x1 dim:SQ_RSRC_IMG_2D a16 lwe       // status dword in v46
  s_endpgm
