// sample_a16.s: A16 samples on gfx9 (gfx900), whose 16-bit operands the
// hardware reads as f16: coordinates and LOD/clamp two per VGPR, low half first,
// an odd last one alone in the low half; the bias an f16 in the low half of its
// own VGPR; the offset and the z-compare 32-bit; on gfx9 the _d/_cd derivatives
// follow A16 (packed per d/dh and d/dv group). Run with assets/sample_a16.toml,
// which derives every expected value. Regenerate the .bin with assets/regen.sh.
//
// s[4:11] T# "ramp" (1D, 64 texels, texel i = i), s[20:27] T# "levels" (2D 4x4,
// levels 1.0, 2.0, 4.0); s[12:15] bilinear clamp_last_texel, s[16:19] trilinear.

  image_sample v10, v0, s[4:11], s[12:15] dmask:0x1 a16            // s = f16, high half padding
  image_sample v11, v1, s[4:11], s[12:15] dmask:0x1                 // the 32-bit twin, s = 0.3f32
  image_get_lod v[12:13], v2, s[4:11], s[12:15] dmask:0x3 a16       // quad differences of f16 s
  image_sample_b v14, v[3:4], s[20:27], s[16:19] dmask:0x1 a16      // bias alone, then (s, t)
  image_sample_d v15, v[5:7], s[20:27], s[16:19] dmask:0x1 a16      // (ds, dt/dh), (ds, dt/dv), (s, t)
  image_sample_l v16, v[8:9], s[20:27], s[16:19] dmask:0x1 a16      // (s, t), (lod, padding)
  image_sample_lz v17, v0, s[4:11], s[12:15] dmask:0x1 a16 lwe      // LWE: status dword in v18
  image_sample_lz v[19:20], v0, s[4:11], s[12:15] dmask:0x1 a16 tfe // TFE: status dword in v20
  s_endpgm
