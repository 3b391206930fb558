// Integer dot products through clang's builtins (AMD's v_dot* instructions),
// with and without CLAMP: three input dwords a, b, c per work-item, twelve
// results. gfx1030 has the signed and unsigned 4-, 8- and 16-bit forms
// (gfx906 has them too, but gcnrun's decoder reads gfx906 as gfx900:
// docs/decoder.md); gfx1100 has the unsigned ones and the mixed-sign v_dot4_i32_iu8 /
// v_dot8_i32_iu4 (NEG_LO says which source is signed). dot.toml and
// dot_gfx1100.toml hold the hand-derived values; tests/hsa.rs checks them and
// tests/gpu_kernels.rs the GPU against the CPU. (The byte dot products LLVM
// forms from plain sums are in hostdiff.cl, against the host.)
__kernel void dot(__global const uint *in, __global uint *out) {
  uint i = get_global_id(0);
  uint a = in[3 * i], b = in[3 * i + 1], c = in[3 * i + 2];
  __global uint *o = out + 12 * i;
  o[0] = __builtin_amdgcn_udot4(a, b, c, false);
  o[1] = __builtin_amdgcn_udot4(a, b, c, true);
  o[2] = __builtin_amdgcn_udot8(a, b, c, false);
  o[3] = __builtin_amdgcn_udot8(a, b, c, true);
#if defined(__gfx1100__)
  // Signed × signed as the mixed form with both signs set, then the mixed
  // signs themselves.
  o[4] = __builtin_amdgcn_sudot4(true, a, true, b, c, false);
  o[5] = __builtin_amdgcn_sudot4(true, a, true, b, c, true);
  o[6] = __builtin_amdgcn_sudot8(true, a, true, b, c, false);
  o[7] = __builtin_amdgcn_sudot8(true, a, true, b, c, true);
  o[8] = __builtin_amdgcn_sudot4(false, a, true, b, c, false);
  o[9] = __builtin_amdgcn_sudot4(true, a, false, b, c, true);
  o[10] = __builtin_amdgcn_sudot8(false, a, true, b, c, false);
  o[11] = __builtin_amdgcn_sudot8(true, a, false, b, c, true);
#else
  o[4] = __builtin_amdgcn_sdot4(a, b, c, false);
  o[5] = __builtin_amdgcn_sdot4(a, b, c, true);
  o[6] = __builtin_amdgcn_sdot8(a, b, c, false);
  o[7] = __builtin_amdgcn_sdot8(a, b, c, true);
  o[8] = __builtin_amdgcn_sdot2(as_short2(a), as_short2(b), c, false);
  o[9] = __builtin_amdgcn_sdot2(as_short2(a), as_short2(b), c, true);
  o[10] = __builtin_amdgcn_udot2(as_ushort2(a), as_ushort2(b), c, false);
  o[11] = __builtin_amdgcn_udot2(as_ushort2(a), as_ushort2(b), c, true);
#endif
}
