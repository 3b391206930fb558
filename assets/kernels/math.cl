// The device libraries' float functions over a buffer: exp, exp2, log, log2,
// pow, sin, cos (ROCm's OCML: range reductions around v_exp_f32, v_log_f32,
// v_fract, v_ldexp, polynomials), the native_ forms (v_exp_f32, v_log_f32,
// v_sin_f32, v_cos_f32 directly), division and square root.
// tests/gpu_kernels.rs: within OpenCL C's ulp bounds of the host's f64
// functions, and CPU = GPU, on gfx900, gfx1030 and gfx1100.
#define OUTS 12

__kernel void math(__global const float *x, __global float *out) {
  int i = get_global_id(0);
  float v = x[i];
  float a = fabs(v);
  __global float *o = out + OUTS * i;
  o[0] = exp(v);
  o[1] = exp2(v);
  o[2] = log(a);
  o[3] = log2(a);
  o[4] = pow(a, 1.5f);
  o[5] = sin(v);
  o[6] = cos(v);
  o[7] = native_exp2(v);
  o[8] = native_log2(a);
  o[9] = native_sin(v);
  o[10] = native_cos(v);
  o[11] = 1.0f / v + sqrt(a);
}
