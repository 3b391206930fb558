// Loops with data-dependent trip counts and divergent branches.
__kernel void loops(__global const int *in, __global int *out, __global float *acc, int n) {
  int i = get_global_id(0);
  int v = in[i];
  int s = 0;
  float f = 0.0f;
  for (int k = 0; k < (v & 15); k++) {
    if ((k ^ v) & 1)
      s += k * v;
    else
      s -= k;
    f = f * 0.5f + (float)k;
  }
  while (v > 1 && s < 100000) {
    v = (v & 1) ? 3 * v + 1 : v >> 1;
    s++;
  }
  out[i] = s;
  acc[i] = f;
}
