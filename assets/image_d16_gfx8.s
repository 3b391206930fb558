// image_d16_gfx8.s: D16 on gfx8.0 (tonga), where each 16-bit component takes a
// whole VGPR (low half). Run with assets/image_d16_gfx8.toml.
// s[4:11] = 1x1 8_8_8_8 UNORM, s[12:19] = 1x1 16_16 UNORM; v0 = v1 = 0.
// Regenerate image_d16_gfx8.bin with assets/regen.sh.

  image_load v[10:13], v[0:1], s[4:11] dmask:0xf unorm d16   // one half per VGPR
  image_store v[14:15], v[0:1], s[12:19] dmask:0x3 unorm d16 // low halves stored
  s_waitcnt vmcnt(0)
  image_load v[16:17], v[0:1], s[12:19] dmask:0x3 unorm
  s_endpgm
