// Host differential (tests/host_diff.rs): integer arithmetic and exactly
// rounded float operations (division and square root compiled with
// -cl-fp32-correctly-rounded-divide-sqrt: v_div_scale, v_rcp, v_div_fmas,
// v_div_fixup), integer division, a data-dependent loop and divergent
// branches, and 16-bit pairs (packed math on gfx9+: v_pk_mad_u16,
// v_pk_add_u16 clamp, v_pk_sub_i16 clamp, v_pk_max_i16, v_pk_min_u16,
// v_pk_lshlrev_b16, v_pk_mul_f16, v_pk_add_f16), and byte dot products that
// LLVM forms from the plain sums (v_dot4_u32_u8; v_dot4c_i32_i8 on gfx1030,
// v_dot4_i32_iu8 neg_lo:[1,1,0] on gfx1100; plain arithmetic on gfx900), and
// calls of functions kept out of line (s_swappc_b64 into them, s_setpc_b64
// back, their frames on the stack in scratch), and doubles (v_add_f64,
// v_mul_f64, v_fma_f64, the f64 division sequence, the f64 square root
// sequence around v_rsq_f64, conversions).
// The same source runs on the host (C, with hostdiff.h as the shim) and, from
// the code objects regen.sh builds (-ffp-contract=off on both sides), under
// gcn-run on gfx900, gfx1030 and gfx1100; the outputs must be identical.
#include "hostdiff.h"
#ifdef __OPENCL_C_VERSION__
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

#define OUTS 52

// Out of line on both sides: the device calls them (s_swappc_b64), one
// from the other.
__attribute__((noinline)) uint hd_mix(uint x, uint y, uint z) {
  return (x * 2654435761u) ^ (y + (z << 3)) ^ (z >> 5);
}
__attribute__((noinline)) uint hd_twice(uint x, uint y) {
  uint r = hd_mix(x, y, x + y);
  return r + hd_mix(y, r, 7u);
}

__kernel void hostdiff(__global const uint *in, __global uint *out, uint n) {
  uint i = GID();
  if (i >= n)
    return;
  uint a = in[i], b = in[(i * 7u + 3u) % n], c = in[(i * 13u + 5u) % n];
  int sa = (int)a, sb = (int)b;
  float fa = AS_FLOAT(a), fb = AS_FLOAT(b), fc = AS_FLOAT(c);
  __global uint *o = out + OUTS * i;
  o[0] = a + b * 3u;
  o[1] = a * b - c;
  o[2] = (a >> (b & 31u)) ^ (b << (c & 31u));
  o[3] = (uint)(sa >> (b & 31u));
  o[4] = MULHI_U(a, b);
  o[5] = (uint)MULHI_S(sa, sb);
  o[6] = (uint)(sa < sb ? sa : sb) ^ (a > c ? a : c);
  o[7] = POPCOUNT(a) + CLZ(b) * 3u;
  o[8] = ROTATE(a, b);
  o[9] = (uint)(((ulong)a * (ulong)b) >> 17);
  o[10] = (uint)(((long)sa * (long)sb) >> 40);
  o[11] = (uint)(((ulong)a << 32 | b) % 0x10001u);
  o[12] = AS_UINT(fa + fb);
  o[13] = AS_UINT(fa * fb);
  o[14] = AS_UINT(FMA(fa, fb, fc));
  o[15] = AS_UINT(fa - fb * fc);
  o[16] = AS_UINT(FMIN(fa, fb));
  o[17] = AS_UINT(FMAX(fb, fc));
  o[18] = AS_UINT((float)sa + (float)(b >> 3));
  o[19] = AS_UINT(FLOOR(fa) + TRUNC(fb));
  o[20] = (fa < fb) | (fa == fc) << 1 | (fb >= fc) << 2 | (fa != fa) << 3;
  uint acc = c;
  for (uint k = 0; k < (a & 15u); k++)
    acc = acc * 31u + (b ^ k);
  o[21] = acc;
  if (a & 1u)
    o[22] = a ^ (b + 0x9e3779b9u);
  else
    o[22] = (uint)(sb < 0 ? -sb : sb);
  o[23] = (b & 4u) ? (uint)(short)a : (uint)(unsigned char)(a >> 8);
  o[24] = AS_UINT(fa / fb);
  o[25] = AS_UINT(SQRT(fc));
  o[26] = a / (b | 1u);
  o[27] = (uint)(sa % ((sb & 0x7fff) | 1));
  o[28] = BITS(U16X2(a) * U16X2(b) + U16X2(c));
  o[29] = BITS(ADD_SAT_U2(U16X2(a), U16X2(b)));
  o[30] = BITS(SUB_SAT_I2(I16X2(a), I16X2(c)));
  o[31] = BITS(MAX_I2(I16X2(a), I16X2(b))) ^ BITS(MIN_U2(U16X2(b), U16X2(c)));
  o[32] = BITS(U16X2(a) << (U16X2(b) & (ushort)15));
  half2 hp = F16X2(a) * F16X2(b);
  half2 hs = hp + F16X2(c);
  o[33] = BITS(hs);
  uint du = c;
  int ds = sb;
  for (uint k = 0; k < 4u; k++) {
    du += ((a >> (8u * k)) & 255u) * ((b >> (8u * k)) & 255u);
    ds += (int)(signed char)(a >> (8u * k)) * (int)(signed char)(c >> (8u * k));
  }
  o[34] = du;
  o[35] = (uint)ds;
  o[36] = (a & 1u) ? hd_twice(a, b) : hd_mix(c, a, b);
  o[37] = hd_mix(b, c, a) - hd_twice(c, 3u);
  // Doubles, each as two words (low first).
  double da = AS_DOUBLE(a, b), db = AS_DOUBLE(c, a), dc = AS_DOUBLE(b ^ c, c);
  double dr[6] = {da + db, da * db, FMA_D(da, db, dc), da / db, SQRT_D(FABS_D(dc)),
                  (double)sa * 0.5 + (double)fb};
  for (uint k = 0; k < 6u; k++) {
    o[38 + 2 * k] = LO(dr[k]);
    o[39 + 2 * k] = HI(dr[k]);
  }
  o[50] = AS_UINT((float)da);
  o[51] = AS_UINT((float)(db - da));
}
