// sample_lod.s: LOD selection on gfx9 (gfx900): implicit derivatives from 2x2
// quads (with a helper lane), GET_LOD, explicit LOD (_l), shader bias (_b), LOD
// clamp (_cl, _b_cl), sampler bias and MIN/MAX_LOD, user derivatives (_d) and
// anisotropy. Run with assets/sample_lod.toml; every expected value is derived there.
//
// s[4:11] T# "levels": 4x4 float, full mip chain: level 0 all 1.0, level 1 all
// 2.0, level 2 all 4.0 (so a result tells which levels were read, and how much).
// s[12:15] trilinear  s[16:19] point mips  s[20:23] biased/clamped  s[24:27] aniso 4x
// Regenerate sample_lod.bin with assets/regen.sh.

  image_sample v10, v[0:1], s[4:11], s[12:15] dmask:0x1          // implicit LOD per quad
  image_get_lod v[11:12], v[0:1], s[4:11], s[12:15] dmask:0x3    // (clamped, unclamped)
  image_sample_l v13, v[2:4], s[4:11], s[12:15] dmask:0x1        // explicit LOD, trilinear
  image_sample_l v14, v[2:4], s[4:11], s[16:19] dmask:0x1        // explicit LOD, point mip
  image_sample_b v15, v[5:7], s[4:11], s[12:15] dmask:0x1        // bias +1
  image_sample_l v16, v[2:4], s[4:11], s[20:23] dmask:0x1        // S# bias +0.5, LOD in [0.25, 1.5]
  image_sample_cl v17, v[20:22], s[4:11], s[12:15] dmask:0x1     // clamp 1.0
  image_sample_b_cl v18, v[23:26], s[4:11], s[12:15] dmask:0x1   // bias -1, clamp 0.5
  image_sample_d v19, v[27:32], s[4:11], s[12:15] dmask:0x1      // user derivatives
  image_sample_d v33, v[27:32], s[4:11], s[24:27] dmask:0x1      // the same, anisotropic 4x
  image_sample_lz v34, v[2:3], s[4:11], s[20:23] dmask:0x1       // _lz through S# bias and clamps
  image_sample_cd v35, v[27:32], s[4:11], s[12:15] dmask:0x1     // _cd: the same derivatives
  s_endpgm
