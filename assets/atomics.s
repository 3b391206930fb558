// atomics.s: contended image atomics on gfx9 (gfx900). Run with assets/atomics.toml.
//
// Every lane of every wave hits the same three texels of a 4-texel 1D R32 UINT
// image at s[4:11]; with GLC each lane gets the value before its own operation.
// Regenerate atomics.bin with assets/regen.sh.

  v_mov_b32 v2, 0
  image_atomic_add v1, v2, s[4:11] dmask:0x1 unorm glc    // texel 0 += lane + 1
  v_mov_b32 v3, 1
  image_atomic_sub v4, v3, s[4:11] dmask:0x1 unorm glc    // texel 1 -= 1
  v_mov_b32 v5, 2
  image_atomic_inc v6, v5, s[4:11] dmask:0x1 unorm glc    // texel 2 = old >= 3 ? 0 : old + 1
  s_waitcnt vmcnt(0)
  image_load v7, v2, s[4:11] dmask:0x1 unorm              // read the three texels back
  image_load v8, v3, s[4:11] dmask:0x1 unorm
  image_load v9, v5, s[4:11] dmask:0x1 unorm
  s_endpgm
