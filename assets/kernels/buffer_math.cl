// Integer and float arithmetic over buffers: conversions, shifts, bit
// fields, min/max, 64-bit integer maths, fma and division.
__kernel void buffer_math(__global const int *a, __global const float *b,
                          __global uint *u, __global float *f, __global long *l, int n) {
  int i = get_global_id(0);
  if (i >= n) return;
  int x = a[i];
  float y = b[i];
  uint z = (uint)x * 2654435761u;
  u[i] = (z >> 7) ^ (z << 3) ^ popcount(z) ^ clz(z) ^ (uint)abs(x) ^ rotate(z, 5u);
  u[n + i] = (uint)max(x, 17) + (uint)min(x, -3) + mul_hi(z, 0x1234567u) + ((z >> 4) & 0xff);
  f[i] = fma(y, 3.0f, (float)x) / (y + 1.5f) + sqrt(fabs(y)) + floor(y) + convert_float(z);
  f[n + i] = fmax(y, 0.25f) - fmin(y, -0.75f) + (float)(x % 7) + native_exp2(y * 0.5f);
  long w = (long)x * (long)z + ((long)i << 33);
  l[i] = w / 3 + (w >> 5) + (long)y;
}
