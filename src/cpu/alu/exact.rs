//! Exact significand arithmetic for the float rules that one host float
//! operation cannot state with a single rounding: `v_div_fmas` (a fused
//! multiply-add scaled by 2^±64 or 2^±128 before its one rounding) and
//! `v_rsq` (1/√x correctly rounded). Values are `sig × 2^exp` with an
//! integer significand; bit 0 of a significand may be a sticky bit (the
//! exact value lies strictly between `sig − 1` and `sig + 1`: round to odd),
//! which keeps rounding to nearest even exact as long as two bits more than
//! the target's precision are kept.

use super::float::{decompose, Layout};

/// `sig × 2^exp` (sig may carry a sticky bit 0) rounded to nearest even in
/// the layout `l`, with the sign `neg`: denormals, and overflow to ∞.
///
/// WGSL twin: `round_to_float` (docs/gpu.md, "Twins").
/// WGSL twins on f64: `f64_round_frame`.
pub fn round(l: Layout, neg: bool, sig: u128, exp: i64) -> u64 {
    let sign = if neg { l.sign() } else { 0 };
    if sig == 0 {
        return sign;
    }
    let bias = l.bias();
    let top = exp + i64::from(127 - sig.leading_zeros());
    let mant = i64::from(l.mant);
    // The exponent of the last kept bit: `mant` bits below the top, or the
    // denormal unit.
    let lsb = (top - mant).max(1 - bias - mant);
    let cut = lsb - exp;
    let q: u128 = if cut <= 0 {
        sig << (-cut).min(127)
    } else {
        round_shift(sig, cut.min(129) as u32)
    };
    // q < 2^mant: a denormal (or zero); 2^mant: the smallest normal's bits;
    // up to 2^(mant+1) after a carry: the exponent field absorbs it.
    let field = lsb + mant + bias;
    let bits = if q < 1u128 << l.mant {
        q as u64
    } else {
        (((field - 1) as u64) << l.mant) + q as u64
    };
    if q >= 1u128 << l.mant && bits >= l.exp_mask() {
        return sign | l.exp_mask();
    }
    sign | bits
}

/// `m >> shift` rounded to nearest even (past 128 gives 0):
/// the one rounding of a significand that `round` and float.rs's
/// `scale_f32`/`scale_f64` share.
pub(super) fn round_shift(m: u128, shift: u32) -> u128 {
    if shift == 0 {
        return m;
    }
    if shift > 128 {
        return 0;
    }
    let (q, rem) = if shift == 128 {
        (0, m)
    } else {
        (m >> shift, m & ((1u128 << shift) - 1))
    };
    let half = 1u128 << (shift - 1);
    if rem > half || (rem == half && q & 1 == 1) {
        q + 1
    } else {
        q
    }
}

/// The signed significand and exponent of a finite nonzero value:
/// `|x| = m × 2^e`.
fn parts(l: Layout, x: u64) -> (bool, u128, i64) {
    let (e, m) = decompose(l, x);
    (x & l.sign() != 0, u128::from(m), e - i64::from(l.mant))
}

/// `(a × b + c) × 2^scale` rounded once, for finite `a`, `b`, `c` (the
/// caller handles NaN and ∞): the exact product (at most 106 bits) and the
/// addend aligned in one 126-bit frame, the bits of the smaller term that
/// fall below it folded into a sticky bit.
///
/// WGSL twin: `fma_exact` (docs/gpu.md, "Twins"), with the scale added to its
/// exponent before `fma_round`.
/// WGSL twins on f64: `f64_fma_scaled`.
pub fn fma_scaled(l: Layout, a: u64, b: u64, c: u64, scale: i64) -> u64 {
    let zero = |x: u64| x & !l.sign() == 0;
    let (pz, cz) = (zero(a) || zero(b), zero(c));
    let pn = (a ^ b) & l.sign() != 0;
    let cn = c & l.sign() != 0;
    if pz && cz {
        // +0 unless both terms are −0 (round to nearest even).
        return if pn && cn { l.sign() } else { 0 };
    }
    if pz {
        let (n, m, e) = parts(l, c);
        return round(l, n, m, e + scale);
    }
    let (_, ma, ea) = parts(l, a);
    let (_, mb, eb) = parts(l, b);
    let (pm, pe) = (ma * mb, ea + eb);
    if cz {
        return round(l, pn, pm, pe + scale);
    }
    let (_, cm, ce) = parts(l, c);
    // Put the larger term's top bit at bit 125 and shift the other to the
    // same exponent, jamming lost bits into bit 0.
    let top = |m: u128, e: i64| e + i64::from(127 - m.leading_zeros());
    let frame = top(pm, pe).max(top(cm, ce)) - 125;
    let align = |m: u128, e: i64| -> u128 {
        let d = e - frame;
        if d >= 0 {
            m << d
        } else if -d >= 128 {
            u128::from(m != 0)
        } else {
            let s = (-d) as u32;
            (m >> s) | u128::from(m & ((1u128 << s) - 1) != 0)
        }
    };
    let (p, q) = (align(pm, pe), align(cm, ce));
    let (neg, sum) = if pn == cn {
        (pn, p + q)
    } else if p >= q {
        (pn, p - q)
    } else {
        (cn, q - p)
    };
    if sum == 0 {
        // An exact cancellation is +0 under round to nearest even.
        return 0;
    }
    round(l, neg, sum, frame + scale)
}

/// 1/√x correctly rounded, for finite positive `x` (denormals included):
/// with x = m × 2^e and e even, 1/√x = 2^(−e/2) × √(2^K / m) × 2^(−K/2), and
/// ⌊√⌊2^K/m⌋⌋ = ⌊√(2^K/m)⌋ is an integer square root. K = 3p + 6 or one
/// more (even) leaves p + 2 bits or more of the root for precision p.
///
/// WGSL twin: `f32_rsq_exact` (docs/gpu.md, "Twins").
pub fn rsq(l: Layout, x: u64) -> u64 {
    let (_, mut m, mut e) = parts(l, x);
    if e & 1 != 0 {
        m <<= 1;
        e -= 1;
    }
    let p = i64::from(l.mant) + 1;
    let k = (3 * p + 6 + 1) & !1;
    let (d, inexact) = pow2_div(k as u32, m);
    let root = isqrt(d);
    let sticky = inexact || root * root != d;
    round(l, false, root << 1 | u128::from(sticky), -k / 2 - e / 2 - 1)
}

/// ⌊2^k / m⌋ and whether a remainder is left (m < 2^60, k ≤ 200, the
/// quotient below 2^127).
/// WGSL twins on f64: `f64_pow2_div`.
fn pow2_div(k: u32, m: u128) -> (u128, bool) {
    if k <= 126 {
        let n = 1u128 << k;
        return (n / m, !n.is_multiple_of(m));
    }
    let (q, r) = ((1u128 << 126) / m, (1u128 << 126) % m);
    let s = k - 126;
    let wide = r << s;
    ((q << s) + wide / m, !wide.is_multiple_of(m))
}

/// ⌊√n⌋, digit by digit.
///
/// WGSL twin: `u64_isqrt` (docs/gpu.md, "Twins").
/// WGSL twins on f64: `u128_isqrt`.
fn isqrt(n: u128) -> u128 {
    let mut rem = n;
    let mut root = 0u128;
    let mut bit = 1u128 << 126;
    while bit > rem {
        bit >>= 2;
    }
    while bit != 0 {
        if rem >= root + bit {
            rem -= root + bit;
            root = (root >> 1) + bit;
        } else {
            root >>= 1;
        }
        bit >>= 2;
    }
    root
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cpu::alu::float::layout;
    use crate::ir::alu::Ty;

    #[test]
    fn fma_scaled_rounds_once() {
        let l = layout(Ty::F32);
        let b = |x: f32| u64::from(x.to_bits());
        // Unscaled: the host's fused multiply-add.
        for (x, y, z) in [
            (1.5f32, 3.25, -0.1),
            (1e-20, 3e-21, 1e-45),
            (3.0, 1.0 / 3.0, -1.0),
        ] {
            assert_eq!(fma_scaled(l, b(x), b(y), b(z), 0), b(x.mul_add(y, z)));
        }
        // Scaled into the denormals, one rounding: (1 + 2^-60) × 2^-150 is
        // just above half the smallest denormal and rounds up to it;
        // rounding to 1.0 first and scaling after would tie to even, 0.
        assert_eq!(fma_scaled(l, b(1.0), b(1.0), b(2f32.powi(-60)), -150), 1);
        // 3 × 2^-150 is 1.5 units of 2^-149: to even, 2 units.
        assert_eq!(fma_scaled(l, b(3.0), b(1.0), 0, -150), 2);
        // Overflow after scaling.
        assert_eq!(fma_scaled(l, b(2.0), b(1.0), 0, 127), b(f32::INFINITY));
        // Exact cancellation is +0.
        assert_eq!(fma_scaled(l, b(2.0), b(3.0), b(-6.0), 0), 0);
    }

    #[test]
    fn rsq_is_correctly_rounded() {
        let l32 = layout(Ty::F32);
        let l64 = layout(Ty::F64);
        assert_eq!(
            rsq(l32, u64::from(4f32.to_bits())),
            u64::from(0.5f32.to_bits())
        );
        assert_eq!(
            rsq(l32, u64::from(0.25f32.to_bits())),
            u64::from(2f32.to_bits())
        );
        assert_eq!(rsq(l64, 16f64.to_bits()), 0.25f64.to_bits());
        // Against f64 arithmetic where it is decisive: the f64 result is
        // within 2^-50 of the exact value, so unless it lies that close to
        // a rounding boundary of f32, both round alike.
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..100_000 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let x = (seed >> 33) as u32 % 0x7f80_0000 + 1;
            let got = rsq(l32, u64::from(x)) as u32;
            let r = 1.0 / f64::from(f32::from_bits(x)).sqrt();
            let near = f64::from(f32::from_bits(got));
            let ulp = f64::from(f32::from_bits(got + 1)) - near;
            assert!((r - near).abs() <= ulp / 2.0 * (1.0 + 1e-6), "{x:#x}");
        }
        // Denormal input: 2^-149 → 2^74.5.
        let got = f32::from_bits(rsq(l32, 1) as u32);
        assert!((f64::from(got) - 2f64.powf(74.5)).abs() < 2f64.powf(74.5 - 23.0));
    }
}
