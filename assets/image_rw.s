// image_rw.s: IMAGE_LOAD / IMAGE_STORE on gfx9 (gfx900). Run with assets/image_rw.toml.
//
// v0 = x, v1 = y (from the manifest). s[4:11] = T# of a 4x4 8_8_8_8 UNORM image,
// s[12:19] = T# of a 4x4 16_16 UNORM image, v6 = 0.5 and v7 = 1.0 to store;
// s[20:27] = an all-zero T#, s[28:35] = radeonsi's null texture T#.
// Regenerate image_rw.bin with assets/regen.sh.

  image_load v[2:5], v[0:1], s[4:11] dmask:0xf unorm        // RGBA of texel (x, y)
  image_store v[6:7], v[0:1], s[12:19] dmask:0x3 unorm      // (0.5, 1.0) as UNORM16
  s_waitcnt vmcnt(0)
  image_load v[8:9], v[0:1], s[12:19] dmask:0x3 unorm       // read it back
  image_load v[10:12], v[0:1], s[4:11] dmask:0x9 unorm tfe  // X, W and the TFE dword
  image_load v[13:16], v[0:1], s[20:27] dmask:0xf unorm     // unbound (all-zero) T#
  image_load v[17:20], v[0:1], s[28:35] dmask:0xf unorm     // null view: DST_SEL constants
  image_load_pck v[25:28], v[0:1], s[4:11] dmask:0xf unorm  // raw component bits
  image_load_pck_sgn v[29:32], v[0:1], s[4:11] dmask:0xf unorm // raw, sign-extended
  image_store_pck v[21:22], v[0:1], s[12:19] dmask:0x3 unorm // raw bits, truncated
  s_waitcnt vmcnt(0)
  image_load_pck v[23:24], v[0:1], s[12:19] dmask:0x3 unorm
  image_store v[6:7], v[0:1], s[4:11] dmask:0x9 unorm       // X = 0.5, W = 1.0; Y, Z zero-filled
  s_waitcnt vmcnt(0)
  image_load_pck v[33:36], v[0:1], s[4:11] dmask:0xf unorm
  s_endpgm
