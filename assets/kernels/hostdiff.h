// The builtins hostdiff.cl uses, for the device (OpenCL C) and for the host
// (C, tests/host_diff.rs compiles hostdiff.cl with -include hostdiff.h): the
// kernel body is the same source on both sides.
#ifndef HOSTDIFF_H
#define HOSTDIFF_H
#ifdef __OPENCL_C_VERSION__
#define GID() ((uint)get_global_id(0))
#define AS_FLOAT(x) as_float(x)
// Doubles from two words (low first) and back.
#define AS_DOUBLE(lo, hi) as_double((uint2)((uint)(lo), (uint)(hi)))
#define LO(d) as_uint2(d).x
#define HI(d) as_uint2(d).y
#define FMA_D(a, b, c) fma(a, b, c)
#define SQRT_D(x) sqrt(x)
#define FABS_D(x) fabs(x)
#define AS_UINT(x) as_uint(x)
#define MULHI_U(a, b) mul_hi((uint)(a), (uint)(b))
#define MULHI_S(a, b) mul_hi((int)(a), (int)(b))
#define POPCOUNT(x) popcount((uint)(x))
#define CLZ(x) clz((uint)(x))
#define ROTATE(a, b) rotate((uint)(a), (uint)(b))
#define FMA(a, b, c) fma(a, b, c)
#define FMIN(a, b) fmin(a, b)
#define FMAX(a, b) fmax(a, b)
#define FLOOR(x) floor(x)
#define TRUNC(x) trunc(x)
#define SQRT(x) sqrt(x)
// Packed 16-bit pairs (gfx9+: v_pk_* with op_sel/op_sel_hi, clamp).
#define U16X2(x) as_ushort2((uint)(x))
#define I16X2(x) as_short2((uint)(x))
#define F16X2(x) as_half2((uint)(x))
#define BITS(v) as_uint(v)
#define ADD_SAT_U2(a, b) add_sat(a, b)
#define SUB_SAT_I2(a, b) sub_sat(a, b)
#define MAX_I2(a, b) max(a, b)
#define MIN_U2(a, b) min(a, b)
#else
#include <math.h>
#include <stdint.h>
#include <string.h>
typedef uint32_t uint;
typedef uint64_t ulong; // OpenCL's 64-bit ulong; C's long is 64-bit on the host (LP64)
#define __kernel
#define __global
#define __local
extern uint hostdiff_gid;
#define GID() hostdiff_gid
static inline float AS_FLOAT(uint x) { float f; memcpy(&f, &x, 4); return f; }
static inline double AS_DOUBLE(uint lo, uint hi) { uint64_t x = (uint64_t)hi << 32 | lo; double d; memcpy(&d, &x, 8); return d; }
static inline uint LO(double d) { uint64_t x; memcpy(&x, &d, 8); return (uint)x; }
static inline uint HI(double d) { uint64_t x; memcpy(&x, &d, 8); return (uint)(x >> 32); }
#define FMA_D(a, b, c) fma(a, b, c)
#define SQRT_D(x) sqrt(x)
#define FABS_D(x) fabs(x)
static inline uint AS_UINT(float f) { uint x; memcpy(&x, &f, 4); return x; }
#define MULHI_U(a, b) ((uint)(((ulong)(uint)(a) * (ulong)(uint)(b)) >> 32))
#define MULHI_S(a, b) ((int)(((long)(int)(a) * (long)(int)(b)) >> 32))
#define POPCOUNT(x) ((uint)__builtin_popcount((uint)(x)))
#define CLZ(x) ((uint)(x) == 0 ? 32u : (uint)__builtin_clz((uint)(x)))
static inline uint ROTATE(uint a, uint b) { b &= 31; return b ? (a << b) | (a >> (32 - b)) : a; }
#define FMA(a, b, c) fmaf(a, b, c)
#define FMIN(a, b) fminf(a, b)
#define FMAX(a, b) fmaxf(a, b)
#define FLOOR(x) floorf(x)
#define TRUNC(x) truncf(x)
#define SQRT(x) sqrtf(x)
// OpenCL's 16-bit pairs as clang's vector extension (element-wise operators,
// no integer promotion); _Float16 arithmetic rounds at each assignment
// (-ffloat16-excess-precision=none), as the device's v_pk_*_f16 do.
typedef uint16_t ushort;
typedef uint16_t ushort2 __attribute__((ext_vector_type(2)));
typedef int16_t short2 __attribute__((ext_vector_type(2)));
typedef _Float16 half2 __attribute__((ext_vector_type(2)));
static inline ushort2 U16X2(uint x) { ushort2 v; memcpy(&v, &x, 4); return v; }
static inline short2 I16X2(uint x) { short2 v; memcpy(&v, &x, 4); return v; }
static inline half2 F16X2(uint x) { half2 v; memcpy(&v, &x, 4); return v; }
#define BITS(v) ({ __typeof__(v) bits_v_ = (v); uint bits_r_; memcpy(&bits_r_, &bits_v_, 4); bits_r_; })
static inline ushort2 ADD_SAT_U2(ushort2 a, ushort2 b) {
  ushort2 r;
  for (int k = 0; k < 2; k++) { uint s = (uint)a[k] + b[k]; r[k] = s > 0xffffu ? 0xffffu : s; }
  return r;
}
static inline short2 SUB_SAT_I2(short2 a, short2 b) {
  short2 r;
  for (int k = 0; k < 2; k++) { int d = (int)a[k] - b[k]; r[k] = d > 32767 ? 32767 : d < -32768 ? -32768 : d; }
  return r;
}
static inline short2 MAX_I2(short2 a, short2 b) {
  short2 r;
  for (int k = 0; k < 2; k++) r[k] = a[k] > b[k] ? a[k] : b[k];
  return r;
}
static inline ushort2 MIN_U2(ushort2 a, ushort2 b) {
  ushort2 r;
  for (int k = 0; k < 2; k++) r[k] = a[k] < b[k] ? a[k] : b[k];
  return r;
}
#endif
#endif
