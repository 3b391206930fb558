// A dot product of four byte pairs (v_dot4_u32_u8 on gfx1030), which gcnrun
// does not execute yet: tests/cli_robust.rs lists its refusal with
// `gcn-run --check`.
__kernel void dot(__global const uint *a, __global const uint *b, __global uint *out) {
  int i = get_global_id(0);
  out[i] = __builtin_amdgcn_udot4(a[i], b[i], out[i], false);
}
