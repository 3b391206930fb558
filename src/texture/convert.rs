//! Number conversions between memory components and VGPR values
//! (research/sampling.md §3.2–§3.3). One small function per rule.
//!
//! Precision policy: every conversion returns the correctly rounded value of its
//! exact formula (round to nearest, ties to even), computed in integer
//! arithmetic so that no intermediate rounding can creep in — for every component
//! width, 32-bit UNORM/SNORM included. That is the value VK-CTS's reference model
//! aims at (tcu `channelToUnormFloat` etc.) and a fixed target for the WGSL
//! mirror; for widths up to 24 bits it equals "compute in f64, round once to f32"
//! (sampling.md §3.3), which the property tests use as an independent check.

/// UNORM load: code `c` of `bits` bits (1–32) → `c / (2^bits - 1)`, correctly
/// rounded to f32 (sampling.md §3.2–3.3; D3D "UNORM": the code range maps onto
/// [0, 1] with both ends exact).
///
/// WGSL twins: `unorm_to_f32` in `shaders/convert.wgsl`, its ratio
/// `norm_ratio` there (shared with `snorm_to_f32`), and `repeat_ratio_bits`
/// for widths up to 8 (docs/gpu.md, "Twins").
pub fn unorm_to_f32(c: u32, bits: u32) -> f32 {
    let max = max_code(bits);
    ratio_to_f32(u64::from(c) & max, max)
}

/// SNORM load: two's-complement code `c` of `bits` bits (2–32) →
/// `max(s / (2^(bits-1) - 1), -1)`, correctly rounded: both the most negative code
/// and the one above it give -1.0 (8-bit: -128 and -127 → -1.0; D3D "SNORM",
/// tcu `channelToSnormFloat`; sampling.md §3.2).
///
/// SNORM needs at least 2 bits; [`super::format::check`] refuses 1-bit SNORM
/// components, and a 1-bit call here reads 0.
///
/// WGSL twin: `snorm_to_f32` in `shaders/convert.wgsl` (docs/gpu.md, "Twins").
pub fn snorm_to_f32(c: u32, bits: u32) -> f32 {
    if bits < 2 {
        return 0.0;
    }
    let s = i64::from(sign_extend(c, bits));
    let max = max_code(bits - 1);
    if s <= -(max as i64) {
        return -1.0;
    }
    let magnitude = ratio_to_f32(s.unsigned_abs(), max);
    if s < 0 {
        -magnitude
    } else {
        magnitude
    }
}

/// USCALED load: the unsigned code as a float, `(float)c`, rounded to nearest
/// even (exact below 2^24; sampling.md §3.2).
///
/// WGSL twin: `uscaled_to_f32` in `shaders/convert.wgsl` (docs/gpu.md, "Twins").
pub fn uscaled_to_f32(c: u32, bits: u32) -> f32 {
    (u64::from(c) & max_code(bits)) as f32
}

/// SSCALED load: the sign-extended code as a float, `(float)s`, rounded to
/// nearest even (exact below 2^24 in magnitude; sampling.md §3.2).
///
/// WGSL twin: `sscaled_to_f32` in `shaders/convert.wgsl` (docs/gpu.md, "Twins").
pub fn sscaled_to_f32(c: u32, bits: u32) -> f32 {
    sign_extend(c, bits) as f32
}

/// UINT load: the code zero-extended to 32 bits (sampling.md §3.2).
///
/// WGSL twin: `uint_to_u32` in `shaders/convert.wgsl` (docs/gpu.md, "Twins").
pub fn uint_to_u32(c: u32, bits: u32) -> u32 {
    (u64::from(c) & max_code(bits)) as u32
}

/// SINT load: the code sign-extended to 32 bits (sampling.md §3.2).
///
/// WGSL twin: `sint_to_i32` in `shaders/convert.wgsl` (docs/gpu.md, "Twins").
pub fn sint_to_i32(c: u32, bits: u32) -> i32 {
    sign_extend(c, bits)
}

/// UNORM store: NaN → 0, clamp to [0, 1], scale by `2^bits - 1`, round to
/// nearest with ties to even (0.5 → 127.5 → 128 in 8 bits). sampling.md §3.3
/// recommends RNE, as tcu `convertSatRte` and WGSL's pack functions; D3D's "add
/// 0.5 and truncate" differs only on exact ties (docs/errata.md X1).
/// The product is formed exactly (a 24-bit significand times a ≤ 32-bit code
/// range fits 56 bits), so 32-bit components round correctly too.
///
/// WGSL twin: `f32_to_unorm` in `shaders/convert.wgsl` (docs/gpu.md, "Twins").
pub fn f32_to_unorm(x: f32, bits: u32) -> u32 {
    if x.is_nan() || x <= 0.0 {
        return 0;
    }
    let max = max_code(bits);
    if x >= 1.0 {
        return max as u32;
    }
    scale_rne(x, max) as u32
}

/// SNORM store: NaN → 0, clamp to [-1, 1], scale by `2^(bits-1) - 1`, round to
/// nearest even; the most negative code is never produced (-1.0 → -127 in 8
/// bits; D3D "SNORM"; sampling.md §3.3). Returns the two's-complement code in the
/// low `bits` bits.
///
/// WGSL twin: `f32_to_snorm` in `shaders/convert.wgsl` (docs/gpu.md, "Twins").
pub fn f32_to_snorm(x: f32, bits: u32) -> u32 {
    if x.is_nan() || bits < 2 {
        return 0;
    }
    let max = max_code(bits - 1);
    let magnitude = if x.abs() >= 1.0 {
        max
    } else {
        scale_rne(x.abs(), max)
    } as i64;
    let s = if x < 0.0 { -magnitude } else { magnitude };
    (s as u64 & max_code(bits)) as u32
}

/// `|x| * scale` rounded to nearest even, exactly: `x = sig * 2^e2` with a
/// 24-bit `sig`, so `sig * scale` (scale < 2^32) is an exact integer below 2^56.
///
/// WGSL twin: `scale_rne` in `shaders/convert.wgsl` (docs/gpu.md, "Twins").
fn scale_rne(x: f32, scale: u64) -> u64 {
    let (sig, e2) = decompose(x.abs());
    let product = sig * scale;
    if e2 >= 0 {
        product << e2.min(8)
    } else {
        round_shift_rne(product, -e2)
    }
}

/// A finite non-negative f32 as `(significand, exponent)` with value
/// `significand * 2^exponent` (denormals have no hidden bit).
///
/// WGSL twin: `decompose` in `shaders/convert.wgsl` (docs/gpu.md, "Twins").
fn decompose(x: f32) -> (u64, i32) {
    let b = x.to_bits();
    let (e, m) = ((b >> 23) & 0xff, u64::from(b & 0x7f_ffff));
    if e == 0 {
        (m, -149)
    } else {
        (m | 0x80_0000, e as i32 - 150)
    }
}

/// `num / den` correctly rounded to f32 (round to nearest, ties to even), by
/// integer long division: exact for every `num`, `den` below 2^64.
/// The exact quotient of a UNORM/SNORM code by `2^n - 1` is never an f32
/// midpoint, but it can lie closer to one than f64 resolves for n > 24; this
/// function has no intermediate rounding at all.
///
/// WGSL twin: `ratio_to_f32` in `shaders/convert.wgsl` (docs/gpu.md, "Twins").
fn ratio_to_f32(num: u64, den: u64) -> f32 {
    if num == 0 || den == 0 {
        return 0.0;
    }
    let (n, d) = (u128::from(num), u128::from(den));
    // e = floor(log2(num / den)).
    let mut e = (127 - n.leading_zeros() as i32) - (127 - d.leading_zeros() as i32);
    let ge = |e: i32| {
        if e >= 0 {
            n >= d << e
        } else {
            n << -e >= d
        }
    };
    if !ge(e) {
        e -= 1;
    }
    // q = floor(num / den * 2^(23 - e)) has 24 bits; the remainder decides rounding.
    let s = 23 - e;
    let (nn, dd) = if s >= 0 { (n << s, d) } else { (n, d << -s) };
    let (mut q, r) = (nn / dd, nn % dd);
    if 2 * r > dd || (2 * r == dd && q & 1 == 1) {
        q += 1;
    }
    // q <= 2^24 and e >= -64: q * 2^(e - 23) is a normal f32, the product exact.
    q as f32 * f32::from_bits(((e - 23 + 127) as u32) << 23)
}

/// Largest unsigned code of `bits` bits (`2^bits - 1`); `bits` is clamped to
/// 1..=32 so that no input can shift out of range.
///
/// WGSL twin: `max_code` in `shaders/convert.wgsl` (docs/gpu.md, "Twins").
fn max_code(bits: u32) -> u64 {
    (1u64 << bits.clamp(1, 32)) - 1
}

/// Sign-extends the low `bits` bits of `c`.
///
/// WGSL twin: `sign_extend` in `shaders/convert.wgsl` (docs/gpu.md, "Twins").
pub fn sign_extend(c: u32, bits: u32) -> i32 {
    let shift = 32 - bits.clamp(1, 32);
    ((c << shift) as i32) >> shift
}

/// UINT store into a narrower component: the low `bits` bits of the value.
/// Public sources do not say whether hardware saturates or truncates
/// (sampling.md §3.3, open question); gcnrun truncates, the cheapest datapath,
/// and docs/errata.md records the choice until a hardware trace settles it.
///
/// WGSL twin: `u32_to_uint` in `shaders/convert.wgsl` (docs/gpu.md, "Twins").
pub fn u32_to_uint(v: u32, bits: u32) -> u32 {
    (u64::from(v) & max_code(bits)) as u32
}

/// The quiet NaN gcnrun returns wherever a result is NaN and the hardware's
/// payload is not public: the BVH triangle test (docs/errata.md B4), the gfx11
/// VINTERP steps (IP3) and a NaN cube face coordinate. Which NaN an invalid
/// operation (∞ − ∞, 0 × ∞) yields, or which operand's payload survives, is
/// left open by IEEE 754 and differs between machines (x86's default NaN is
/// 0xffc00000, Arm's 0x7fc00000), so the reference pins one; the WGSL mirror
/// is `CANONICAL_NAN` in shaders/convert.wgsl.
pub const CANONICAL_NAN: u32 = 0x7fc0_0000;

/// `x`'s bits, a NaN as [`CANONICAL_NAN`].
///
/// WGSL twin: `canonical_nan_bits` in `shaders/convert.wgsl` (docs/gpu.md, "Twins").
pub fn canonical_nan_bits(x: f32) -> u32 {
    if x.is_nan() {
        CANONICAL_NAN
    } else {
        x.to_bits()
    }
}

/// IEEE binary16 → f32, exact (denormals, infinities and NaN payloads kept;
/// sampling.md §3.3 FLOAT 16).
///
/// WGSL twin: `f16_to_f32` in `shaders/convert.wgsl` (docs/gpu.md, "Twins").
pub fn f16_to_f32(h: u16) -> f32 {
    small_float_to_f32(u32::from(h & 0x7fff), 10, 5, h & 0x8000 != 0)
}

/// Unsigned 11-bit float (6-bit mantissa, 5-bit exponent, bias 15, no sign; the
/// X/Y components of 10_11_11 / 11_11_10) → f32, exact.
///
/// WGSL twin: `uf11_to_f32` in `shaders/convert.wgsl` (docs/gpu.md, "Twins").
pub fn uf11_to_f32(v: u32) -> f32 {
    small_float_to_f32(v & 0x7ff, 6, 5, false)
}

/// Unsigned 10-bit float (5-bit mantissa, 5-bit exponent, bias 15) → f32, exact.
///
/// WGSL twin: `uf10_to_f32` in `shaders/convert.wgsl` (docs/gpu.md, "Twins").
pub fn uf10_to_f32(v: u32) -> f32 {
    small_float_to_f32(v & 0x3ff, 5, 5, false)
}

/// A float with `mant` mantissa bits and a `exp`-bit exponent of bias
/// `2^(exp-1) - 1` (all three small formats share exponent width 5) → f32.
///
/// WGSL twin: `small_float_to_f32` in `shaders/convert.wgsl` (docs/gpu.md, "Twins").
fn small_float_to_f32(bits: u32, mant: u32, exp: u32, negative: bool) -> f32 {
    let bias = (1i32 << (exp - 1)) - 1;
    let e = (bits >> mant) & ((1 << exp) - 1);
    let m = bits & ((1 << mant) - 1);
    let magnitude = if e == (1 << exp) - 1 {
        if m == 0 {
            f32::INFINITY
        } else {
            // NaN: keep the payload in the top mantissa bits, quiet.
            f32::from_bits(0x7fc0_0000 | (m << (23 - mant)))
        }
    } else if e == 0 {
        // Denormal: m * 2^(1 - bias - mant), exact in f32.
        m as f32 * 2f32.powi(1 - bias - mant as i32)
    } else {
        f32::from_bits((((e as i32 - bias + 127) as u32) << 23) | (m << (23 - mant)))
    };
    if negative {
        -magnitude
    } else {
        magnitude
    }
}

/// f32 → IEEE binary16, round to nearest even; overflow → ±inf, NaN → quiet NaN
/// (sampling.md §3.3 recommends RNE; D3D also permits RTZ — documented choice).
///
/// WGSL twin: `f32_to_f16` in `shaders/convert.wgsl` (docs/gpu.md, "Twins").
pub fn f32_to_f16(x: f32) -> u16 {
    let sign = ((x.to_bits() >> 16) & 0x8000) as u16;
    sign | f32_to_small_float(x.abs(), 10) as u16
}

/// f32 → unsigned 11-bit float, RNE; negative values and -0 → 0, overflow → inf,
/// NaN → NaN (the Vulkan B10G11R11_UFLOAT rules).
///
/// WGSL twin: `f32_to_uf11` in `shaders/convert.wgsl` (docs/gpu.md, "Twins").
pub fn f32_to_uf11(x: f32) -> u32 {
    if x.is_nan() {
        return 0x7c0 | 0x20;
    }
    f32_to_small_float(x.max(0.0), 6)
}

/// f32 → unsigned 10-bit float, RNE; as [`f32_to_uf11`].
///
/// WGSL twin: `f32_to_uf10` in `shaders/convert.wgsl` (docs/gpu.md, "Twins").
pub fn f32_to_uf10(x: f32) -> u32 {
    if x.is_nan() {
        return 0x3e0 | 0x10;
    }
    f32_to_small_float(x.max(0.0), 5)
}

/// Non-negative f32 (or NaN) → a 5-bit-exponent float with `mant` mantissa bits,
/// round to nearest even, overflow → infinity.
///
/// WGSL twin: `f32_to_small_float` in `shaders/convert.wgsl` (docs/gpu.md, "Twins").
fn f32_to_small_float(x: f32, mant: u32) -> u32 {
    let inf = 0x1f << mant;
    if x.is_nan() {
        return inf | (1 << (mant - 1));
    }
    // Work on the exact value x = sig * 2^e2 in integer arithmetic.
    let b = x.to_bits();
    let (e, m) = ((b >> 23) & 0xff, b & 0x7f_ffff);
    if e == 0xff {
        return inf;
    }
    if e == 0 && m == 0 {
        return 0;
    }
    // Unbiased exponent of the target: the smallest normal target exponent is
    // 1 - 15 = -14; below it the target is denormal with step 2^(-14 - mant).
    let (sig, e2) = if e == 0 {
        (m, -149)
    } else {
        (m | 0x80_0000, e as i32 - 150)
    };
    // Express x in units of the target's step at x's magnitude.
    let unbiased = if e == 0 { -127 } else { e as i32 - 127 };
    let target_exp = unbiased.max(-14);
    let step_exp = target_exp - mant as i32; // value of one mantissa unit
    let shift = step_exp - e2; // how far sig must be shifted right
    let units = round_shift_rne(u64::from(sig), shift);
    // units counts steps of 2^step_exp; normal numbers include the hidden bit.
    let encoded = if target_exp == -14 && units < (1 << mant) {
        units // denormal (or rounds up into the smallest normal: handled below)
    } else {
        // units in [2^mant, 2^(mant+1)] for a normal at target_exp (the upper
        // bound after rounding up, which carries into the exponent).
        let exp_field = (target_exp + 15) as u64;
        (exp_field << mant) + (units - (1 << mant))
    };
    // A carry from the mantissa into the exponent is the correct result of the
    // addition above; past the largest exponent it becomes infinity.
    if encoded >= u64::from(inf) {
        inf
    } else {
        encoded as u32
    }
}

/// `v >> shift` rounded to nearest, ties to even; a negative shift is a left shift.
///
/// WGSL twin: `round_shift_rne` in `shaders/convert.wgsl` (docs/gpu.md, "Twins").
fn round_shift_rne(v: u64, shift: i32) -> u64 {
    if shift <= 0 {
        return v << (-shift).min(40);
    }
    if shift >= 64 {
        return 0;
    }
    let q = v >> shift;
    let rem = v & ((1u64 << shift) - 1);
    let half = 1u64 << (shift - 1);
    if rem > half || (rem == half && q & 1 == 1) {
        q + 1
    } else {
        q
    }
}

/// sRGB decode of one UNORM component: `c <= 0.04045 ? c / 12.92 :
/// ((c + 0.055) / 1.055)^2.4`, computed in f64 and rounded once (sampling.md §3.3;
/// applied per texel before filtering, to X, Y, Z only).
///
/// WGSL twins: `srgb_to_linear_table` (of `unorm_to_f32(c, w)`: the host table
/// `src/gpu/translate/degamma.rs` computes with it) in `shaders/tables.wgsl`;
/// `srgb8_to_linear_bits` (of `unorm_to_f32(c, 8)`, the same table's 8-bit
/// part) in `shaders/format.wgsl` (docs/gpu.md, "Twins").
pub fn srgb_to_linear(c: f32) -> f32 {
    let c = f64::from(c);
    (if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }) as f32
}

/// D16 load, float classes (every number format but UINT/SINT): the 32-bit
/// result rounded to IEEE binary16, RNE ("data returned from the texture unit
/// is converted to 16 bits", RDNA3 ISA §10.4 "D16"; research/sampling.md §3.3).
/// For UNORM/SNORM codes up to 16 bits this equals rounding the exact quotient
/// once (checked exhaustively in the tests): the f32 step never creates a tie.
pub fn d16_from_f32_bits(v: u32) -> u16 {
    f32_to_f16(f32::from_bits(v))
}

/// D16 load, UINT/SINT: the low 16 bits of the 32-bit result — the same
/// truncation as [`u32_to_uint`] (docs/errata.md X3; whether hardware saturates
/// is not public).
pub fn d16_from_int(v: u32) -> u16 {
    v as u16
}

/// D16 store, float classes: binary16 → the f32 the store converts, exact.
pub fn d16_to_f32_bits(h: u16) -> u32 {
    f16_to_f32(h).to_bits()
}

/// D16 store, UINT: the 16-bit value zero-extended.
pub fn d16_to_uint(h: u16) -> u32 {
    u32::from(h)
}

/// D16 store, SINT: the 16-bit value sign-extended.
pub fn d16_to_sint(h: u16) -> u32 {
    i32::from(h as i16) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unorm_examples() {
        // 128 / 255 = 0.50196078…, the nearest f32 is 0x3f008081.
        assert_eq!(unorm_to_f32(128, 8).to_bits(), 0x3f00_8081);
        assert_eq!(unorm_to_f32(255, 8), 1.0);
        assert_eq!(unorm_to_f32(0, 16), 0.0);
        // 0.5 * 255 = 127.5: a tie, rounds to the even code 128.
        assert_eq!(f32_to_unorm(0.5, 8), 128);
        // 0.5 * 65535 = 32767.5: tie → 32768 (even).
        assert_eq!(f32_to_unorm(0.5, 16), 32768);
        assert_eq!(f32_to_unorm(-3.0, 8), 0);
        assert_eq!(f32_to_unorm(7.0, 8), 255);
        assert_eq!(f32_to_unorm(f32::NAN, 8), 0);
        assert_eq!(f32_to_unorm(f32::INFINITY, 10), 1023);
    }

    #[test]
    fn snorm_examples() {
        // -128 and -127 both give -1.0 in 8-bit SNORM.
        assert_eq!(snorm_to_f32(0x80, 8), -1.0);
        assert_eq!(snorm_to_f32(0x81, 8), -1.0);
        assert_eq!(snorm_to_f32(0x7f, 8), 1.0);
        assert_eq!(snorm_to_f32(0, 8), 0.0);
        // -1.0 stores as -127 (0x81), never -128.
        assert_eq!(f32_to_snorm(-1.0, 8), 0x81);
        assert_eq!(f32_to_snorm(-5.0, 16), 0x8001);
        // 0.5 * 127 = 63.5 → 64 (even).
        assert_eq!(f32_to_snorm(0.5, 8), 64);
        // -0.5 * 127 = -63.5 → -64 (even) = 0xc0: the one tie where RNE and D3D's
        // "add 0.5, truncate" differ (docs/errata.md X1).
        assert_eq!(f32_to_snorm(-0.5, 8), 0xc0);
        assert_eq!(f32_to_snorm(f32::NAN, 8), 0);
    }

    #[test]
    fn half_examples() {
        assert_eq!(f16_to_f32(0x3c00), 1.0);
        assert_eq!(f16_to_f32(0xc000), -2.0);
        assert_eq!(f16_to_f32(0x0001), 2f32.powi(-24)); // smallest denormal
        assert_eq!(f16_to_f32(0x7bff), 65504.0); // largest finite
        assert_eq!(f16_to_f32(0x7c00), f32::INFINITY);
        assert!(f16_to_f32(0x7e00).is_nan());
        assert_eq!(f32_to_f16(1.0), 0x3c00);
        assert_eq!(f32_to_f16(65504.0), 0x7bff);
        // 65520 is the midpoint between 65504 and 65536 (= inf): tie → even → inf.
        assert_eq!(f32_to_f16(65520.0), 0x7c00);
        assert_eq!(f32_to_f16(65519.0), 0x7bff);
        // 1 + 2^-11 is a tie between 1.0 and 1 + 2^-10: even mantissa → 1.0.
        assert_eq!(f32_to_f16(1.0 + 2f32.powi(-11)), 0x3c00);
        assert_eq!(f32_to_f16(2f32.powi(-24)), 0x0001);
        // 2^-25 is half the smallest denormal: tie → 0.
        assert_eq!(f32_to_f16(2f32.powi(-25)), 0x0000);
        assert_eq!(f32_to_f16(-0.0), 0x8000);
        assert_eq!(f32_to_f16(f32::NAN) & 0x7e00, 0x7e00);
    }

    #[test]
    fn small_float_examples() {
        // uf11 1.0 = exponent 15, mantissa 0 → 15 << 6 = 0x3c0.
        assert_eq!(uf11_to_f32(0x3c0), 1.0);
        assert_eq!(f32_to_uf11(1.0), 0x3c0);
        // Largest finite uf11: exponent 30, mantissa 63 → 2^15 * (1 + 63/64) = 65024.
        assert_eq!(uf11_to_f32(0x7bf), 65024.0);
        assert_eq!(uf10_to_f32(0x3df), 64512.0);
        assert_eq!(f32_to_uf11(-1.0), 0);
        assert_eq!(f32_to_uf10(1e9), 0x3e0);
    }

    #[test]
    fn srgb_examples() {
        assert_eq!(srgb_to_linear(0.0), 0.0);
        assert_eq!(srgb_to_linear(1.0), 1.0);
        // 0.04045 / 12.92 on the linear segment.
        assert_eq!(srgb_to_linear(0.04045), (0.04045f32 as f64 / 12.92) as f32);
    }

    #[test]
    fn half_round_trips_every_code() {
        for h in 0..=u16::MAX {
            let f = f16_to_f32(h);
            if f.is_nan() {
                continue;
            }
            assert_eq!(f32_to_f16(f), h, "{h:#06x}");
        }
    }

    #[test]
    fn small_floats_round_trip_every_code() {
        for v in 0..0x7c0 {
            assert_eq!(f32_to_uf11(uf11_to_f32(v)), v, "uf11 {v:#x}");
        }
        for v in 0..0x3e0 {
            assert_eq!(f32_to_uf10(uf10_to_f32(v)), v, "uf10 {v:#x}");
        }
    }

    #[test]
    fn norm_codes_round_trip() {
        for bits in [2, 4, 5, 8, 10, 16] {
            for c in 0..(1u32 << bits) {
                assert_eq!(
                    f32_to_unorm(unorm_to_f32(c, bits), bits),
                    c,
                    "unorm{bits} {c}"
                );
                // The most negative SNORM code reads as -1.0 and stores back as the one above it.
                let back = f32_to_snorm(snorm_to_f32(c, bits), bits);
                let want = if c == 1 << (bits - 1) { c + 1 } else { c };
                assert_eq!(back, want, "snorm{bits} {c:#x}");
            }
        }
    }

    #[test]
    fn d16_of_norm_codes_is_rounded_once() {
        // Rounding c/(2^n−1) to f32 and then to f16 must give the f16 nearest to
        // the exact quotient (f64 holds it to 2^-53, far inside an f16 step).
        for bits in 1..=16u32 {
            let max = (1u32 << bits) - 1;
            for c in 0..=max {
                let direct = half::f16::from_f64(f64::from(c) / f64::from(max)).to_bits();
                assert_eq!(
                    d16_from_f32_bits(unorm_to_f32(c, bits).to_bits()),
                    direct,
                    "unorm{bits} {c}"
                );
            }
        }
        for bits in 2..=16u32 {
            let max = (1u32 << (bits - 1)) - 1;
            for c in 0..(1u32 << bits) {
                let s = f64::from(sign_extend(c, bits)).max(-f64::from(max));
                let direct = half::f16::from_f64(s / f64::from(max)).to_bits();
                assert_eq!(
                    d16_from_f32_bits(snorm_to_f32(c, bits).to_bits()),
                    direct,
                    "snorm{bits} {c}"
                );
            }
        }
    }

    #[test]
    fn d16_examples() {
        // 1.0 = 0x3c00, 0.5 = 0x3800; 1/3 in f16 is 0x3555 (0.333252 < 1/3 <
        // 0x3556 = 0.333496, nearer the first).
        assert_eq!(d16_from_f32_bits(1.0f32.to_bits()), 0x3c00);
        assert_eq!(d16_from_f32_bits((1.0f32 / 3.0).to_bits()), 0x3555);
        assert_eq!(d16_from_int(0x0001_2345), 0x2345);
        assert_eq!(d16_to_f32_bits(0x3800), 0.5f32.to_bits());
        assert_eq!(d16_to_uint(0xfffe), 0xfffe);
        assert_eq!(d16_to_sint(0xfffe), (-2i32) as u32);
    }
}
