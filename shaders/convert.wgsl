// convert.wgsl — number-format conversions, the WGSL mirror of src/texture/convert.rs.
//
// Every function here has the name and the arithmetic of its Rust counterpart and
// must give the same bits for every input. WGSL's float division is only accurate
// to 2.5 ULP and integer→float conversion rounding is not pinned down, so the
// conversions are done in integer arithmetic on the IEEE bit patterns, exactly as
// the CPU does them; 64-bit intermediates are emulated as vec2<u32> (x = low, y =
// high word). Floats are handled as bits wherever a GPU may flush denormals or
// drop NaN semantics.

// ---- 64-bit unsigned helpers (vec2<u32>: x = low word, y = high word) ----

fn u64_from(lo: u32) -> vec2<u32> {
    return vec2<u32>(lo, 0u);
}

fn u64_add(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    let lo = a.x + b.x;
    return vec2<u32>(lo, a.y + b.y + select(0u, 1u, lo < a.x));
}

fn u64_sub(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    return vec2<u32>(a.x - b.x, a.y - b.y - select(0u, 1u, a.x < b.x));
}

fn u64_lt(a: vec2<u32>, b: vec2<u32>) -> bool {
    return a.y < b.y || (a.y == b.y && a.x < b.x);
}

fn u64_ge(a: vec2<u32>, b: vec2<u32>) -> bool {
    return !u64_lt(a, b);
}

fn u64_eq(a: vec2<u32>, b: vec2<u32>) -> bool {
    return a.x == b.x && a.y == b.y;
}

// a << s for 0 <= s < 64 (larger shifts give 0).
fn u64_shl(a: vec2<u32>, s: u32) -> vec2<u32> {
    if s == 0u {
        return a;
    }
    if s >= 64u {
        return vec2<u32>(0u, 0u);
    }
    if s >= 32u {
        return vec2<u32>(0u, a.x << (s - 32u));
    }
    return vec2<u32>(a.x << s, (a.y << s) | (a.x >> (32u - s)));
}

// a >> s for 0 <= s < 64 (larger shifts give 0).
fn u64_shr(a: vec2<u32>, s: u32) -> vec2<u32> {
    if s == 0u {
        return a;
    }
    if s >= 64u {
        return vec2<u32>(0u, 0u);
    }
    if s >= 32u {
        return vec2<u32>(a.y >> (s - 32u), 0u);
    }
    return vec2<u32>((a.x >> s) | (a.y << (32u - s)), a.y >> s);
}

// The full 64-bit product of two 32-bit values, from 16-bit halves.
fn u64_mul32(a: u32, b: u32) -> vec2<u32> {
    let a0 = a & 0xffffu;
    let a1 = a >> 16u;
    let b0 = b & 0xffffu;
    let b1 = b >> 16u;
    let p00 = a0 * b0;
    let p01 = a0 * b1;
    let p10 = a1 * b0;
    let p11 = a1 * b1;
    var r = vec2<u32>(p00, p11);
    r = u64_add(r, vec2<u32>(p01 << 16u, p01 >> 16u));
    r = u64_add(r, vec2<u32>(p10 << 16u, p10 >> 16u));
    return r;
}

// Leading zeros of a 64-bit value (64 for zero).
fn u64_clz(a: vec2<u32>) -> u32 {
    if a.y != 0u {
        return countLeadingZeros(a.y);
    }
    return 32u + countLeadingZeros(a.x);
}

// ---- helpers of convert.rs ----

// 2^bits - 1 for bits in 1..=32 (max_code; the CPU's u64 never exceeds 32 bits here).
fn max_code(bits: u32) -> u32 {
    let b = clamp(bits, 1u, 32u);
    if b == 32u {
        return 0xffffffffu;
    }
    return (1u << b) - 1u;
}

// Sign-extends the low `bits` bits of c.
fn sign_extend(c: u32, bits: u32) -> i32 {
    let shift = 32u - clamp(bits, 1u, 32u);
    return bitcast<i32>(c << shift) >> shift;
}

// 2^e as f32 bits for a normal exponent (-126..=127).
fn pow2_f32(e: i32) -> f32 {
    return bitcast<f32>(u32(e + 127) << 23u);
}

// Rounds v / 2^shift to nearest, ties to even (round_shift_rne); shift <= 0 shifts
// left by at most 40.
fn round_shift_rne(v: vec2<u32>, shift: i32) -> vec2<u32> {
    if shift <= 0 {
        return u64_shl(v, u32(min(-shift, 40)));
    }
    if shift >= 64 {
        return vec2<u32>(0u, 0u);
    }
    let s = u32(shift);
    let q = u64_shr(v, s);
    let rem = u64_sub(v, u64_shl(q, s));
    let half = u64_shl(vec2<u32>(1u, 0u), s - 1u);
    if u64_lt(half, rem) || (u64_eq(rem, half) && (q.x & 1u) == 1u) {
        return u64_add(q, vec2<u32>(1u, 0u));
    }
    return q;
}

// A 24-bit-or-less integer is exact in f32; wider ones round to nearest even
// (the CPU's `as f32`) in 32-bit steps: the 24 kept bits q, the `shift` (1 to
// 8) bits below them rounding q up past half, or at half to an even q (q + 1
// is at most 2^24, still exact), then the exact scaling by 2^shift.
fn u32_to_f32_rne(v: u32) -> f32 {
    if v < 0x1000000u {
        return f32(v);
    }
    let shift = 8u - countLeadingZeros(v);
    let q = v >> shift;
    let rem = v & ((1u << shift) - 1u);
    let half = 1u << (shift - 1u);
    let up = rem > half || (rem == half && (q & 1u) == 1u);
    return f32(q + select(0u, 1u, up)) * pow2_f32(i32(shift));
}

fn i32_to_f32_rne(v: i32) -> f32 {
    let m = u32_to_f32_rne(select(u32(v), 0u - u32(v), v < 0));
    return select(m, -m, v < 0);
}

// c / (2^w - 1) as f32 bits rounded to nearest, for 1 <= w <= 32 and
// c <= 2^w - 1: unorm_to_f32's value (the CPU's long division, ratio_to_f32)
// by integer steps alone, with no division and no table read. The quotient's
// binary expansion is c's w bits repeated without end (0.ccc...). Its first
// bits are c placed at the top and copied w, 2w, 4w, ... bits lower, each
// step doubling the copies: 32 bits of it for w <= 8 (five steps make 32
// copies of a 1-bit code), 64 bits (hi:lo) for wider codes (three steps make
// 8 copies of 9 bits). Their first set bit gives the exponent (at most w - 1
// leading zeros, so at least 25 bits remain), and the bit after the 24 kept
// ones decides the rounding: the expansion never ends in zeros (0 < c < max),
// so no tie occurs. A round up that carries out of the 24 bits (a code of
// more than 24 ones) carries into the exponent, as the sum below lets it. A
// copy step whose shift reaches past the bits kept adds nothing (a shift by a
// multiple of w of the periodic bits ORs the same bits). For a width known
// when the module is built every branch and shift folds; a division by the
// run-time 2^w - 1 per lane, a table read per component, or the long
// division's loop each cost lavapipe more to build and to run (docs/gpu.md,
// "Exactness").
fn repeat_ratio_bits(c: u32, w: u32) -> u32 {
    if c == 0u {
        return 0u;
    }
    if c >= max_code(w) {
        return 0x3f800000u;
    }
    var hi = c << (32u - w);
    var lo = 0u;
    if w <= 8u {
        hi = hi | (hi >> w);
        hi = hi | (hi >> (2u * w));
        hi = hi | select(0u, hi >> ((4u * w) & 31u), 4u * w < 32u);
        hi = hi | select(0u, hi >> ((8u * w) & 31u), 8u * w < 32u);
        hi = hi | select(0u, hi >> ((16u * w) & 31u), 16u * w < 32u);
    } else {
        var x = vec2<u32>(0u, hi);
        x = x | u64_shr(x, w);
        x = x | u64_shr(x, 2u * w);
        x = x | u64_shr(x, 4u * w);
        hi = x.y;
        lo = x.x;
    }
    let lz = countLeadingZeros(hi);
    let n = (hi << lz) | select(0u, lo >> ((32u - lz) & 31u), lz != 0u);
    // n's top 24 bits, rounded by the next one: the value is their integer
    // times 2^(-24 - lz). It holds the implicit one at bit 23, so added to
    // (125 - lz) << 23 it gives the exponent field 126 - lz (127 - lz where
    // the rounding carried out to bit 24).
    let mantissa = (n >> 8u) + ((n >> 7u) & 1u);
    return ((125u - lz) << 23u) + mantissa;
}

// c / (2^bits - 1) for c <= 2^bits - 1, rounded to nearest f32
// (repeat_ratio_bits); unorm_to_f32 and snorm_to_f32 share it.
fn norm_ratio(c: u32, bits: u32) -> f32 {
    return bitcast<f32>(repeat_ratio_bits(c, clamp(bits, 1u, 32u)));
}

fn unorm_to_f32(c: u32, bits: u32) -> f32 {
    return norm_ratio(c & max_code(bits), bits);
}

fn snorm_to_f32(c: u32, bits: u32) -> f32 {
    if bits < 2u {
        return 0.0;
    }
    let s = sign_extend(c, bits);
    let max = max_code(bits - 1u);
    // -max and the extra most negative code both give -1.0.
    if s <= -i32(max) {
        return -1.0;
    }
    let mag = select(u32(s), 0u - u32(s), s < 0);
    let m = norm_ratio(mag, bits - 1u);
    return select(m, -m, s < 0);
}

fn uscaled_to_f32(c: u32, bits: u32) -> f32 {
    return u32_to_f32_rne(c & max_code(bits));
}

fn sscaled_to_f32(c: u32, bits: u32) -> f32 {
    return i32_to_f32_rne(sign_extend(c, bits));
}

fn uint_to_u32(c: u32, bits: u32) -> u32 {
    return c & max_code(bits);
}

fn sint_to_i32(c: u32, bits: u32) -> i32 {
    return sign_extend(c, bits);
}

fn u32_to_uint(v: u32, bits: u32) -> u32 {
    return v & max_code(bits);
}

fn is_nan_bits(b: u32) -> bool {
    return (b & 0x7fffffffu) > 0x7f800000u;
}

// The quiet NaN a NaN result is returned as where the hardware's payload is not
// public (texture::convert::CANONICAL_NAN: BVH triangles, gfx11 VINTERP, cube
// face coordinates).
const CANONICAL_NAN: u32 = 0x7fc00000u;

// x's bits, a NaN as CANONICAL_NAN (canonical_nan_bits).
fn canonical_nan_bits(x: f32) -> u32 {
    let b = bitcast<u32>(x);
    return select(b, CANONICAL_NAN, is_nan_bits(b));
}

// Significand and exponent of |x|: |x| = sig * 2^e2 (decompose).
fn decompose(b: u32) -> vec2<i32> {
    let e = (b >> 23u) & 0xffu;
    let m = b & 0x7fffffu;
    if e == 0u {
        return vec2<i32>(i32(m), -149);
    }
    return vec2<i32>(i32(m | 0x800000u), i32(e) - 150);
}

// round(|x| * scale) to nearest, ties to even (scale_rne), from x's bits.
fn scale_rne(b: u32, scale: u32) -> u32 {
    let de = decompose(b & 0x7fffffffu);
    let product = u64_mul32(u32(de.x), scale);
    if de.y >= 0 {
        return u64_shl(product, u32(min(de.y, 8))).x;
    }
    return round_shift_rne(product, -de.y).x;
}

fn f32_to_unorm(b: u32, bits: u32) -> u32 {
    // NaN and x <= 0 (both zeros and negatives) give 0.
    if is_nan_bits(b) || (b >> 31u) == 1u || b == 0u {
        return 0u;
    }
    let max = max_code(bits);
    if b >= 0x3f800000u {
        return max;
    }
    return scale_rne(b, max);
}

fn f32_to_snorm(b: u32, bits: u32) -> u32 {
    if is_nan_bits(b) || bits < 2u {
        return 0u;
    }
    let max = max_code(bits - 1u);
    var mag = max;
    if (b & 0x7fffffffu) < 0x3f800000u {
        mag = scale_rne(b, max);
    }
    // Negative zero gives 0 like positive zero (−0 == 0 on the CPU).
    let negative = (b >> 31u) == 1u && (b & 0x7fffffffu) != 0u;
    let s = select(mag, 0u - mag, negative);
    return s & max_code(bits);
}

// ---- small floats (f16, unsigned 11- and 10-bit) ----

fn small_float_to_f32(bits: u32, mant: u32, expw: u32, negative: bool) -> f32 {
    let bias = (1i << (expw - 1u)) - 1;
    let e = (bits >> mant) & ((1u << expw) - 1u);
    let m = bits & ((1u << mant) - 1u);
    var mag: f32;
    if e == (1u << expw) - 1u {
        if m == 0u {
            mag = bitcast<f32>(0x7f800000u);
        } else {
            mag = bitcast<f32>(0x7fc00000u | (m << (23u - mant)));
        }
    } else if e == 0u {
        // m * 2^(1 - bias - mant): exact, the result is a normal f32.
        mag = f32(m) * pow2_f32(1 - bias - i32(mant));
    } else {
        mag = bitcast<f32>((u32(i32(e) - bias + 127) << 23u) | (m << (23u - mant)));
    }
    // Sign by bit flip: a GPU's negation may not keep NaN payloads.
    return bitcast<f32>(bitcast<u32>(mag) | select(0u, 0x80000000u, negative));
}

fn f16_to_f32(h: u32) -> f32 {
    return small_float_to_f32(h & 0x7fffu, 10u, 5u, (h & 0x8000u) != 0u);
}

fn uf11_to_f32(v: u32) -> f32 {
    return small_float_to_f32(v & 0x7ffu, 6u, 5u, false);
}

fn uf10_to_f32(v: u32) -> f32 {
    return small_float_to_f32(v & 0x3ffu, 5u, 5u, false);
}

// |x| (bits, sign clear) to a 5-bit-exponent float with `mant` mantissa bits,
// round to nearest even, overflow to infinity (f32_to_small_float).
fn f32_to_small_float(b: u32, mant: u32) -> u32 {
    let inf = 0x1fu << mant;
    if is_nan_bits(b) {
        return inf | (1u << (mant - 1u));
    }
    let e = (b >> 23u) & 0xffu;
    let m = b & 0x7fffffu;
    if e == 0xffu {
        return inf;
    }
    if e == 0u && m == 0u {
        return 0u;
    }
    var sig = m | 0x800000u;
    var e2 = i32(e) - 150;
    var unbiased = i32(e) - 127;
    if e == 0u {
        sig = m;
        e2 = -149;
        unbiased = -127;
    }
    let target_exp = max(unbiased, -14);
    let step_exp = target_exp - i32(mant);
    let shift = step_exp - e2;
    let units = round_shift_rne(u64_from(sig), shift);
    var encoded: vec2<u32>;
    if target_exp == -14 && u64_lt(units, u64_from(1u << mant)) {
        encoded = units;
    } else {
        let exp_field = u32(target_exp + 15);
        encoded = u64_sub(u64_add(u64_from(exp_field << mant), units), u64_from(1u << mant));
    }
    if u64_ge(encoded, u64_from(inf)) {
        return inf;
    }
    return encoded.x;
}

fn f32_to_f16(b: u32) -> u32 {
    let sign = (b >> 16u) & 0x8000u;
    return sign | f32_to_small_float(b & 0x7fffffffu, 10u);
}

fn f32_to_uf11(b: u32) -> u32 {
    if is_nan_bits(b) {
        return 0x7c0u | 0x20u;
    }
    // max(x, 0): negatives (and −0) become +0.
    let x = select(b, 0u, (b >> 31u) == 1u);
    return f32_to_small_float(x, 6u);
}

fn f32_to_uf10(b: u32) -> u32 {
    if is_nan_bits(b) {
        return 0x3e0u | 0x10u;
    }
    let x = select(b, 0u, (b >> 31u) == 1u);
    return f32_to_small_float(x, 5u);
}

// ---- 128-bit unsigned helpers (vec4<u32>, x lowest): the f64 ALU and the
// transcendentals' fixed point ----

// The full 128-bit product of two 64-bit values.
fn u128_mul64(a: vec2<u32>, b: vec2<u32>) -> vec4<u32> {
    let p00 = u64_mul32(a.x, b.x);
    let p01 = u64_mul32(a.x, b.y);
    let p10 = u64_mul32(a.y, b.x);
    let p11 = u64_mul32(a.y, b.y);
    // Column 1: p00.y + p01.x + p10.x.
    let c1a = p00.y + p01.x;
    var carry = select(0u, 1u, c1a < p00.y);
    let c1 = c1a + p10.x;
    carry = carry + select(0u, 1u, c1 < c1a);
    // Column 2: p01.y + p10.y + p11.x + carry.
    let c2a = p01.y + p10.y;
    var carry2 = select(0u, 1u, c2a < p01.y);
    let c2b = c2a + p11.x;
    carry2 = carry2 + select(0u, 1u, c2b < c2a);
    let c2 = c2b + carry;
    carry2 = carry2 + select(0u, 1u, c2 < c2b);
    return vec4<u32>(p00.x, c1, c2, p11.y + carry2);
}

// x >> n (0 from 128 on).
fn u128_shr(x: vec4<u32>, n: u32) -> vec4<u32> {
    if n >= 128u {
        return vec4<u32>(0u);
    }
    var r = x;
    var k = n;
    while k >= 32u {
        r = vec4<u32>(r.y, r.z, r.w, 0u);
        k = k - 32u;
    }
    if k > 0u {
        r = vec4<u32>((r.x >> k) | (r.y << (32u - k)), (r.y >> k) | (r.z << (32u - k)), (r.z >> k) | (r.w << (32u - k)), r.w >> k);
    }
    return r;
}

// x << n for n < 128.
fn u128_shl(x: vec4<u32>, n: u32) -> vec4<u32> {
    var r = x;
    var k = n;
    while k >= 32u {
        r = vec4<u32>(0u, r.x, r.y, r.z);
        k = k - 32u;
    }
    if k > 0u {
        r = vec4<u32>(r.x << k, (r.y << k) | (r.x >> (32u - k)), (r.z << k) | (r.y >> (32u - k)), (r.w << k) | (r.z >> (32u - k)));
    }
    return r;
}

fn u128_add(a: vec4<u32>, b: vec4<u32>) -> vec4<u32> {
    let lo = u64_add(a.xy, b.xy);
    let carry = select(0u, 1u, u64_lt(lo, a.xy));
    let hi = u64_add(u64_add(a.zw, b.zw), vec2<u32>(carry, 0u));
    return vec4<u32>(lo, hi);
}

// a − b for a ≥ b.
fn u128_sub(a: vec4<u32>, b: vec4<u32>) -> vec4<u32> {
    let borrow = select(0u, 1u, u64_lt(a.xy, b.xy));
    let lo = u64_sub(a.xy, b.xy);
    let hi = u64_sub(u64_sub(a.zw, b.zw), vec2<u32>(borrow, 0u));
    return vec4<u32>(lo, hi);
}

// The number of significant bits of a 128-bit value.
fn u128_bits(x: vec4<u32>) -> u32 {
    if x.w != 0u {
        return 97u + firstLeadingBit(x.w);
    }
    if x.z != 0u {
        return 65u + firstLeadingBit(x.z);
    }
    if x.y != 0u {
        return 33u + firstLeadingBit(x.y);
    }
    return select(0u, 1u + firstLeadingBit(x.x), x.x != 0u);
}

// Whether a set bit of x lies below bit n (lost by u128_shr(x, n)).
fn u128_lost(x: vec4<u32>, n: u32) -> bool {
    if n >= 128u {
        return any(x != vec4<u32>(0u));
    }
    return any(u128_shl(u128_shr(x, n), n) != x);
}

fn u128_less(a: vec4<u32>, b: vec4<u32>) -> bool {
    for (var i = 3; i >= 0; i = i - 1) {
        if a[i] != b[i] {
            return a[i] < b[i];
        }
    }
    return false;
}
