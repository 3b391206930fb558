// The builtins hostdiff.cl uses, for the device (OpenCL C) and for the host
// (C, tests/host_diff.rs compiles hostdiff.cl with -include hostdiff.h): the
// kernel body is the same source on both sides.
#ifndef HOSTDIFF_H
#define HOSTDIFF_H
#ifdef __OPENCL_C_VERSION__
#define GID() ((uint)get_global_id(0))
#define AS_FLOAT(x) as_float(x)
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
#endif
#endif
