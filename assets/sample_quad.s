// sample_quad.s: the bundled example kernel of gcnrun (gfx7 / GCN 1.1, "bonaire").
//
// One wave of 64 lanes covers an 8x8 pixel tile laid out as 2x2 quads, the way a
// pixel shader's lanes are: lane = 4*quad + 2*dy + dx, quad = 4*qy + qx. Each lane
// samples the bound image at its pixel centre and stores the texel to the storage
// image at the same pixel.
//
// Register interface (the default environment the CPU interpreter will provide):
//   v0       lane id (0..63)
//   s[4:11]  T# of the sampled image      s[12:15]  S# of its sampler
//   s[16:23] T# of the storage image
// Every instruction below encodes identically for gfx6 (tahiti, gcn-run's default
// arch for a raw .bin) and gfx7; tests/cli.rs checks this with llvm-mc-19.
//
// Regenerate assets/sample_quad.bin with assets/regen.sh.

  s_mov_b32 m0, -1                  // M0 = LDS limit (unused here; keeps the kernel self-contained)
  v_and_b32 v1, 1, v0               // dx = lane & 1
  v_bfe_u32 v2, v0, 1, 1            // dy = (lane >> 1) & 1
  v_bfe_u32 v3, v0, 2, 2            // qx = (lane >> 2) & 3
  v_lshrrev_b32 v4, 4, v0           // qy = lane >> 4
  v_lshlrev_b32 v3, 1, v3
  v_or_b32 v1, v1, v3               // x = 2*qx + dx
  v_lshlrev_b32 v4, 1, v4
  v_or_b32 v2, v2, v4               // y = 2*qy + dy
  v_cvt_f32_u32 v5, v1
  v_cvt_f32_u32 v6, v2
  v_add_f32 v5, 0.5, v5             // pixel centre
  v_add_f32 v6, 0.5, v6
  v_mul_f32 v5, 0x3e000000, v5      // u = (x + 0.5) / 8  (0.125 is a 32-bit literal)
  v_mul_f32 v6, 0x3e000000, v6      // v = (y + 0.5) / 8
  image_sample v[8:11], v[5:6], s[4:11], s[12:15] dmask:0xf
  s_waitcnt vmcnt(0)
  image_store v[8:11], v[1:2], s[16:23] dmask:0xf unorm
  s_endpgm
