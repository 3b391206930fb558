// resinfo.s: IMAGE_GET_RESINFO on gfx9 (gfx900). Run with assets/resinfo.toml.
//
// s[4:11] = a 16x8 2D array of 3 layers with a full mip chain, s[12:19] = an
// 8x4x2 3D image with a full mip chain; v0 and v1 hold the mip level (= lane).
// Regenerate resinfo.bin with assets/regen.sh.

  image_get_resinfo v[2:5], v0, s[4:11] dmask:0xf unorm    // width, height, layers, mips
  image_get_resinfo v[6:9], v1, s[12:19] dmask:0xf unorm   // width, height, depth, mips
  image_get_resinfo v10, v0, s[4:11] dmask:0x8 unorm       // the mip count alone
  s_endpgm
