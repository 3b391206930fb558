// image_ext.s: D16, A16, TFE/LWE, MSAA and cube loads/stores on gfx9 (gfx900).
// Run with assets/image_ext.toml (every expected value derived there).
//
// v0 = x, v1 = y, v2 = sample / face / layer, v3 = sample (MSAA array).
// s[4:11] rgba8 2x2 UNORM, s[12:19] 2x2 16_16_16_16 FLOAT, s[20:27] 2x2 2d_msaa
// (4 samples) 32 UINT, s[28:35] 2x2 cube 32 UINT, s[36:43] 2x2 2d_msaa_array
// (2 layers, 2 samples) 32 UINT.
// Regenerate image_ext.bin with assets/regen.sh.

  image_load v[10:11], v[0:1], s[4:11] dmask:0xf unorm d16       // 4 halves, packed
  image_store v[12:13], v[0:1], s[12:19] dmask:0xf unorm d16     // 4 halves in
  s_waitcnt vmcnt(0)
  image_load v[14:17], v[0:1], s[12:19] dmask:0xf unorm          // read back as f32
  image_load v[18:19], v[0:1], s[4:11] dmask:0x7 unorm d16       // 3 halves: high half of v19
  image_load v20, v21, s[4:11] dmask:0x1 unorm a16               // x | y << 16 in v21
  image_load v22, v[0:1], s[4:11] dmask:0x1 unorm lwe            // + status dword v23 (errata S6)
  image_load v[24:26], v[0:1], s[4:11] dmask:0xf unorm tfe d16   // 2 data dwords + status
  image_load v27, v[0:2], s[20:27] dmask:0x1 unorm               // MSAA: x, y, sample
  image_store v28, v[0:2], s[20:27] dmask:0x1 unorm
  s_waitcnt vmcnt(0)
  image_load v29, v[0:2], s[20:27] dmask:0x1 unorm
  image_load v30, v[0:2], s[28:35] dmask:0x1 unorm da            // cube: x, y, face
  image_store v28, v[0:2], s[28:35] dmask:0x1 unorm da
  s_waitcnt vmcnt(0)
  image_load v31, v[0:2], s[28:35] dmask:0x1 unorm da
  image_load v32, v[0:3], s[36:43] dmask:0x1 unorm da            // x, y, layer, sample
  image_atomic_add v[42:43], v[0:2], s[28:35] dmask:0x1 unorm glc tfe da  // + status
  image_get_resinfo v[44:48], v49, s[20:27] dmask:0xf unorm tfe  // MSAA sizes + status
  image_get_resinfo v[50:53], v54, s[36:43] dmask:0xf unorm a16 da // level in v54's low half
  s_endpgm
