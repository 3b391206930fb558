// Packed 16-bit math (VOP3P: v_pk_fma_f16, v_pk_mul_lo_u16, …), which
// gcnrun does not execute yet: tests/cli_robust.rs lists its refusals with
// `gcn-run --check`.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__kernel void packed(__global half2 *h, __global ushort2 *u) {
  int i = get_global_id(0);
  h[i] = h[i] * h[i] + (half2)(1.0h, 2.0h);
  u[i] = u[i] * (ushort2)(3, 5);
}
