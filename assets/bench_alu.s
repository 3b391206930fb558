// bench_alu.s: the `alu_mix` workload of `gcn-run bench` (gfx900): a
// straight-line run of vector ALU work, the bulk of what compiled kernels
// execute between their memory operations — f32 FMA, multiply, add and
// fract, 32-bit integer multiply, add, xor and shift, conversions — 12
// rounds of 10 dependent instructions on a lane-dependent seed in v0
// (v1 its float image). No branch and no memory: every lane runs every
// instruction, so lane-instructions are waves × 64 × 124.
// Regenerate bench_alu.bin with assets/regen.sh. The rounds are written out
// (not .rept): tests/manifests.rs assembles the file line by line.

  v_mov_b32 v2, 0x3f8ccccd                // 1.1
  v_mov_b32 v3, 0xbe800000                // -0.25
  v_cvt_f32_u32 v1, v0
  v_mul_f32 v1, 0x3b800000, v1            // / 256
  // round 1
  v_fma_f32 v1, v1, v2, v3
  v_mul_f32 v4, v1, v1
  v_xor_b32 v0, v0, v4
  v_mul_lo_u32 v5, v0, v0
  v_add_u32 v0, v0, v5
  v_lshrrev_b32 v6, 9, v0
  v_cvt_f32_u32 v7, v6
  v_mul_f32 v7, 0x34000000, v7            // × 2^-23
  v_add_f32 v1, v1, v7
  v_fract_f32 v1, v1
  // round 2
  v_fma_f32 v1, v1, v2, v3
  v_mul_f32 v4, v1, v1
  v_xor_b32 v0, v0, v4
  v_mul_lo_u32 v5, v0, v0
  v_add_u32 v0, v0, v5
  v_lshrrev_b32 v6, 9, v0
  v_cvt_f32_u32 v7, v6
  v_mul_f32 v7, 0x34000000, v7            // × 2^-23
  v_add_f32 v1, v1, v7
  v_fract_f32 v1, v1
  // round 3
  v_fma_f32 v1, v1, v2, v3
  v_mul_f32 v4, v1, v1
  v_xor_b32 v0, v0, v4
  v_mul_lo_u32 v5, v0, v0
  v_add_u32 v0, v0, v5
  v_lshrrev_b32 v6, 9, v0
  v_cvt_f32_u32 v7, v6
  v_mul_f32 v7, 0x34000000, v7            // × 2^-23
  v_add_f32 v1, v1, v7
  v_fract_f32 v1, v1
  // round 4
  v_fma_f32 v1, v1, v2, v3
  v_mul_f32 v4, v1, v1
  v_xor_b32 v0, v0, v4
  v_mul_lo_u32 v5, v0, v0
  v_add_u32 v0, v0, v5
  v_lshrrev_b32 v6, 9, v0
  v_cvt_f32_u32 v7, v6
  v_mul_f32 v7, 0x34000000, v7            // × 2^-23
  v_add_f32 v1, v1, v7
  v_fract_f32 v1, v1
  // round 5
  v_fma_f32 v1, v1, v2, v3
  v_mul_f32 v4, v1, v1
  v_xor_b32 v0, v0, v4
  v_mul_lo_u32 v5, v0, v0
  v_add_u32 v0, v0, v5
  v_lshrrev_b32 v6, 9, v0
  v_cvt_f32_u32 v7, v6
  v_mul_f32 v7, 0x34000000, v7            // × 2^-23
  v_add_f32 v1, v1, v7
  v_fract_f32 v1, v1
  // round 6
  v_fma_f32 v1, v1, v2, v3
  v_mul_f32 v4, v1, v1
  v_xor_b32 v0, v0, v4
  v_mul_lo_u32 v5, v0, v0
  v_add_u32 v0, v0, v5
  v_lshrrev_b32 v6, 9, v0
  v_cvt_f32_u32 v7, v6
  v_mul_f32 v7, 0x34000000, v7            // × 2^-23
  v_add_f32 v1, v1, v7
  v_fract_f32 v1, v1
  // round 7
  v_fma_f32 v1, v1, v2, v3
  v_mul_f32 v4, v1, v1
  v_xor_b32 v0, v0, v4
  v_mul_lo_u32 v5, v0, v0
  v_add_u32 v0, v0, v5
  v_lshrrev_b32 v6, 9, v0
  v_cvt_f32_u32 v7, v6
  v_mul_f32 v7, 0x34000000, v7            // × 2^-23
  v_add_f32 v1, v1, v7
  v_fract_f32 v1, v1
  // round 8
  v_fma_f32 v1, v1, v2, v3
  v_mul_f32 v4, v1, v1
  v_xor_b32 v0, v0, v4
  v_mul_lo_u32 v5, v0, v0
  v_add_u32 v0, v0, v5
  v_lshrrev_b32 v6, 9, v0
  v_cvt_f32_u32 v7, v6
  v_mul_f32 v7, 0x34000000, v7            // × 2^-23
  v_add_f32 v1, v1, v7
  v_fract_f32 v1, v1
  // round 9
  v_fma_f32 v1, v1, v2, v3
  v_mul_f32 v4, v1, v1
  v_xor_b32 v0, v0, v4
  v_mul_lo_u32 v5, v0, v0
  v_add_u32 v0, v0, v5
  v_lshrrev_b32 v6, 9, v0
  v_cvt_f32_u32 v7, v6
  v_mul_f32 v7, 0x34000000, v7            // × 2^-23
  v_add_f32 v1, v1, v7
  v_fract_f32 v1, v1
  // round 10
  v_fma_f32 v1, v1, v2, v3
  v_mul_f32 v4, v1, v1
  v_xor_b32 v0, v0, v4
  v_mul_lo_u32 v5, v0, v0
  v_add_u32 v0, v0, v5
  v_lshrrev_b32 v6, 9, v0
  v_cvt_f32_u32 v7, v6
  v_mul_f32 v7, 0x34000000, v7            // × 2^-23
  v_add_f32 v1, v1, v7
  v_fract_f32 v1, v1
  // round 11
  v_fma_f32 v1, v1, v2, v3
  v_mul_f32 v4, v1, v1
  v_xor_b32 v0, v0, v4
  v_mul_lo_u32 v5, v0, v0
  v_add_u32 v0, v0, v5
  v_lshrrev_b32 v6, 9, v0
  v_cvt_f32_u32 v7, v6
  v_mul_f32 v7, 0x34000000, v7            // × 2^-23
  v_add_f32 v1, v1, v7
  v_fract_f32 v1, v1
  // round 12
  v_fma_f32 v1, v1, v2, v3
  v_mul_f32 v4, v1, v1
  v_xor_b32 v0, v0, v4
  v_mul_lo_u32 v5, v0, v0
  v_add_u32 v0, v0, v5
  v_lshrrev_b32 v6, 9, v0
  v_cvt_f32_u32 v7, v6
  v_mul_f32 v7, 0x34000000, v7            // × 2^-23
  v_add_f32 v1, v1, v7
  v_fract_f32 v1, v1
  s_endpgm
