// gradient_quad.s: the bundled kernel the README's first command runs (gfx6,
// gcn-run's default arch for a bare .bin; it encodes the same on gfx7).
//
// In the default environment (README, "The default environment") every lane is
// one pixel of a 64x64 picture: v[1:2] = (x, y), s[4:11] = the `input` image (a
// gradient: R = x, G = y), s[16:23] = the `output` image, written to PNG by --out.
// The kernel reads R and G of its pixel, sets B and A to 1.0, and stores RGBA.
// Regenerate gradient_quad.bin with assets/regen.sh.

  image_load v[8:9], v[1:2], s[4:11] dmask:0x3 unorm     // v8 = R, v9 = G
  v_mov_b32 v10, 1.0                                     // B
  v_mov_b32 v11, 1.0                                     // A
  s_waitcnt vmcnt(0)
  image_store v[8:11], v[1:2], s[16:23] dmask:0xf unorm
  s_endpgm
