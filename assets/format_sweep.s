// format_sweep.s: every data format x number format through IMAGE_LOAD and
// IMAGE_STORE on gfx9 (gfx900). tests/gpu_diff.rs builds one manifest per format
// pair around it and checks that the GPU backend gives the CPU's bits.
//
// v[0:1] = (x, y) of the lane's texel. s[4:11] = a noise-filled image of the
// format under test; s[16:23] = a zeroed image of the same format; v[8:11] =
// values to store (random bits, values around [-1, 1], exact UNORM8 ties).
// Regenerate format_sweep.bin with assets/regen.sh.

  image_load v[4:7], v[0:1], s[4:11] dmask:0xf unorm        // every component
  image_load v[16:18], v[0:1], s[4:11] dmask:0x9 unorm tfe  // X, W and the TFE dword
  image_store v[8:11], v[0:1], s[16:23] dmask:0xf unorm     // pack the lane's values
  s_waitcnt vmcnt(0)
  image_load v[12:15], v[0:1], s[16:23] dmask:0xf unorm     // and read them back
  s_endpgm
