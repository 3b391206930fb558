// A float dot product (v_dot2_f32_f16 on gfx1030), which gcnrun does not
// execute: no public source gives its intermediate rounding.
// tests/cli_robust.rs lists its refusal with `gcn-run --check`.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__kernel void fdot2(__global const half2 *a, __global const half2 *b, __global float *out) {
  int i = get_global_id(0);
  out[i] = __builtin_amdgcn_fdot2(a[i], b[i], out[i], false);
}
