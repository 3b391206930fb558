// sample_d16.s: D16 samples and gathers on gfx9 (gfx900), which packs two 16-bit
// results per VGPR. Run with assets/sample_d16.toml.
//
// s[4:11] T# "quad": 2x1 32_32_32_32 float, texel 0 = (1.0, 0.5, -2.0, 100000.0).
// s[20:27] T# "ints": 4x4 32-bit UINT, 4y + x. s[12:15] point, clamp_last_texel.
// Regenerate sample_d16.bin with assets/regen.sh.

  image_sample_lz v[10:11], v[0:1], s[4:11], s[12:15] dmask:0xf d16    // four halves in two VGPRs
  image_sample_lz v12, v[0:1], s[4:11], s[12:15] dmask:0x5 d16         // X and Z in one VGPR
  image_sample_lz v13, v[0:1], s[4:11], s[12:15] dmask:0x1 d16         // X alone: high half 0
  image_gather4_lz v[15:16], v[2:3], s[20:27], s[12:15] dmask:0x1 d16  // four 16-bit integers
  s_endpgm
