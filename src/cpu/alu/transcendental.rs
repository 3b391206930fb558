//! `v_exp` (2^x) and `v_log` (log2 x): gcnrun's rule is the correctly
//! rounded result (the hardware's is within 1 ulp, AMD's ISA guides say,
//! by a table no public document gives), computed in fixed point so that
//! the GPU's integer twin gives the same bits (docs/semantics/programs.md,
//! "Float arithmetic").
//!
//! Both compute an approximation `sig × 2^exp` whose relative error is
//! below 2^−57 and round it once, with a sticky bit (the exact value is
//! never a representable value or a midpoint there: 2^x and log2 x of a
//! float are transcendental except at the exact cases handled first).
//! Rounding the approximation gives the correctly rounded result wherever
//! it lies farther than its error from a rounding boundary; `tests::
//! exhaustive_*` (run with `--ignored`) checks every f32 input for that.
//!
//! 2^x: x = n + f with f in [0, 1) as 56 fractional bits, 2^f = 2^(j/64) ×
//! e^(ρ ln 2) with j the top 6 bits of f and ρ < 1/64 the rest: a table of
//! 64 values and a degree-7 Taylor polynomial, in Q2.62.
//!
//! sin(2πx), cos(2πx) (`v_sin`, `v_cos`, whose input counts revolutions):
//! x reduced exactly to x = k/4 + u, |u| ≤ 1/8, then ±sin(2πu) = ±t × S(t²)
//! or ±cos(2πu) = ±C(t²), t = 2πu, with Taylor series to t^18 and t^20 —
//! relative precision kept near the zeros because t carries u's exponent.
//!
//! log2 x: x = m × 2^e with m in [√½, √2), log2 m = (2 / ln 2) × atanh(u),
//! u = (m − 1)/(m + 1) by integer division (|u| < 0.172), atanh(u) = u ×
//! Σ u^2k / (2k + 1) for k ≤ 12; log2 x = e + log2 m, in fixed point scaled
//! with u so that a result near 0 (x near 1) keeps its relative precision.

use super::exact::round;
use super::float::Layout;
use crate::ir::fixed::{EXP2_TABLE, INV_FACT, INV_ODD, LN2, TWO_OVER_LN2, TWO_PI_Q61};

/// (a × b) >> 62, truncated.
///
/// WGSL twin: `mul62` (docs/gpu.md, "Twins").
fn mul62(a: u64, b: u64) -> u64 {
    ((u128::from(a) * u128::from(b)) >> 62) as u64
}

/// 2^(f / 2^56) in Q2.62, for f < 2^56.
///
/// WGSL twin: `exp2_frac` (docs/gpu.md, "Twins").
fn exp2_frac(f: u64) -> u64 {
    let j = (f >> 50) as usize;
    let r = f & ((1 << 50) - 1);
    // y = ρ ln 2 in Q2.62, ρ = r / 2^56.
    let y = ((u128::from(r) * u128::from(LN2)) >> 56) as u64;
    // e^y = Σ y^k / k!, k ≤ 7, by Horner.
    let mut acc = INV_FACT[7];
    for k in (0..7).rev() {
        acc = mul62(acc, y) + INV_FACT[k];
    }
    mul62(EXP2_TABLE[j], acc)
}

/// What 2^x or log2 x is before its rounding: exact bits of the layout, or
/// the approximation `sig × 2^exp` with its sign.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Approx {
    /// The result's bits (exact cases, overflow, flushed underflow).
    Exact(u64),
    /// The approximation: sign, significand, exponent.
    Near(bool, u128, i64),
}

/// 2^x for a finite x given as f32 bits (f16 inputs widened exactly), for
/// results in `l`: 1 for |x| < 2^−26, ∞ from bias + 1 (128 for f32), +0
/// from −127 down (the f32 result there is below the smallest normal, which
/// `v_exp_f32` flushes).
///
/// WGSL twin: `f32_exp2_near` (docs/gpu.md, "Twins").
pub fn exp2(l: Layout, x: u32) -> Approx {
    let one = (l.bias() as u64) << l.mant;
    let ax = x & 0x7fff_ffff;
    let neg = x >> 31 == 1;
    if ax < 0x3280_0000 {
        return Approx::Exact(one);
    }
    // bias + 1 as f32 bits: 128 (f32), 16 (f16); 2^x overflows from there.
    let limit = ((l.bias() + 1) as f32).to_bits();
    if !neg && ax >= limit {
        return Approx::Exact(l.exp_mask());
    }
    if neg && ax >= 0x42fe_0000 {
        return Approx::Exact(0);
    }
    // X = x × 2^56, exact: |x| ≥ 2^−26 has no bit below 2^−49, |x| < 128.
    let e = (ax >> 23) as i32 - 127;
    let m = i64::from((ax & 0x7f_ffff) | 0x80_0000);
    let mag = m << (e + 33);
    let xx = if neg { -mag } else { mag };
    let n = xx >> 56;
    let f = (xx & ((1 << 56) - 1)) as u64;
    if f == 0 {
        // An integer x: 2^x exactly (a denormal for f16 below −14).
        return Approx::Exact(round(l, false, 1, n));
    }
    Approx::Near(false, u128::from(exp2_frac(f)), n - 62)
}

/// log2 x for a finite positive normal x given as f32 bits (an f16 input
/// widened exactly is one), for results in `l`. Powers of two are exact.
///
/// WGSL twin: `f32_log2_near` (docs/gpu.md, "Twins").
pub fn log2(l: Layout, x: u32) -> Approx {
    // x = M × 2^(e − 23), M with bit 23 set: f32 inputs are flushed, and a
    // widened f16 is a normal f32.
    let mut e = i64::from(x >> 23) - 127;
    let big_m = u64::from(x & 0x7f_ffff | 0x80_0000);
    if big_m == 1 << 23 {
        // log2 2^e = e, exact in every layout (|e| ≤ 149).
        let (neg, a) = (e < 0, e.unsigned_abs());
        return Approx::Exact(round(l, neg, u128::from(a), 0));
    }
    // m in [√½, √2): above √2 × 2^23, halve it (count it in e).
    let unit = if big_m > 0xb5_04f3 {
        e += 1;
        1u64 << 24
    } else {
        1u64 << 23
    };
    let num = big_m as i64 - unit as i64;
    let den = u128::from(big_m + unit);
    let neg_u = num < 0;
    let a = u128::from(num.unsigned_abs());
    // U = ⌊a × 2^k / den⌋ in [2^61, 2^63): u = U × 2^−k.
    let bits = 128 - a.leading_zeros() as i64;
    let k = 87 - bits;
    let big_u = (a << k) / den;
    // w = u² in Q0.64.
    let w = ((big_u * big_u) >> (2 * k - 64)) as u64;
    // S = Σ w^i / (2i + 1), i ≤ 12, in Q2.62, by Horner.
    let mut s = INV_ODD[12];
    for i in (0..12).rev() {
        s = ((u128::from(s) * u128::from(w)) >> 64) as u64 + INV_ODD[i];
    }
    // |log2 m| × 2^k = U × S × (2 / ln 2).
    let v1 = (big_u * u128::from(s)) >> 62;
    let v2 = (v1 * u128::from(TWO_OVER_LN2)) >> 62;
    if e == 0 {
        return Approx::Near(neg_u, v2, -k);
    }
    // e + log2 m: |log2 m| ≤ ½ < |e|, so the sign is e's.
    let whole = u128::from(e.unsigned_abs()) << k;
    let mag = if (e < 0) == neg_u {
        whole + v2
    } else {
        whole - v2
    };
    Approx::Near(e < 0, mag, -k)
}

/// Σ (−1)^k c_(first + 2k) w^k for k ≤ last, c_i = 1/i! in Q2.62 and w in
/// Q0.64, by Horner: every partial sum stays positive (each term is below
/// the one before), so the steps are unsigned subtractions.
///
/// WGSL twin: `alt_series` (docs/gpu.md, "Twins").
fn alt_series(first: usize, last: usize, w: u64) -> u64 {
    let mut acc = INV_FACT[first + 2 * last];
    for k in (0..last).rev() {
        acc = INV_FACT[first + 2 * k] - ((u128::from(acc) * u128::from(w)) >> 64) as u64;
    }
    acc
}

/// sin(2πx) (`cos` false) or cos(2πx) for a finite x given as f32 bits
/// (f16 inputs widened exactly), for results in `l`: +0 outside [−256, 256]
/// (AMD's ISA guides: "Out of range input results in float 0.0"). Exact
/// zeros: sin takes x's sign, cos is +0.
///
/// WGSL twin: `f32_sincos_near` (docs/gpu.md, "Twins").
pub fn sin_cos(l: Layout, x: u32, cos: bool) -> Approx {
    let one = (l.bias() as u64) << l.mant;
    let ax = x & 0x7fff_ffff;
    let neg_x = x >> 31 == 1;
    if ax > 0x4380_0000 {
        return Approx::Exact(0);
    }
    if ax == 0 {
        return Approx::Exact(if cos {
            one
        } else {
            u64::from(neg_x) << (l.bits - 1)
        });
    }
    // u = U × 2^−F exactly, and the quarter turns k (mod 4) before it.
    let e = i64::from(ax >> 23) - 127;
    let m = u64::from(ax & 0x7f_ffff | if ax >> 23 == 0 { 0 } else { 0x80_0000 });
    let (quarter, neg_u, big_u, f) = if e < -8 {
        // |x| < 2^−8: u = x (a denormal's exponent is −126).
        (0u32, neg_x, m, 23 - e.max(-126))
    } else {
        // X = x × 2^32, exact (|x| ≥ 2^−8 has no bit below 2^−31).
        let mag = (m << (e + 9)) as i64;
        let xx = if neg_x { -mag } else { mag };
        let r = (xx & 0xffff_ffff) as u64;
        let k = (r + (1 << 29)) >> 30;
        let u = r as i64 - (k << 30) as i64;
        ((k & 3) as u32, u < 0, u.unsigned_abs(), 32)
    };
    // The function of u this quarter turn makes: sin or cos, and the sign.
    let (use_cos, neg) = match (cos, quarter) {
        (false, 0) => (false, neg_u),
        (false, 1) => (true, false),
        (false, 2) => (false, !neg_u),
        (false, _) => (true, true),
        (true, 0) => (true, false),
        (true, 1) => (false, !neg_u),
        (true, 2) => (true, true),
        (true, _) => (false, neg_u),
    };
    if big_u == 0 {
        return Approx::Exact(match (use_cos, cos) {
            (true, _) => one | if neg { l.sign() } else { 0 },
            (false, true) => 0,
            (false, false) => u64::from(neg_x) << (l.bits - 1),
        });
    }
    // t = 2πu = P × 2^−(F + 61); t in Q0.64 for the series.
    let p = u128::from(big_u) * u128::from(TWO_PI_Q61);
    let shift = f - 3;
    let t64 = if shift >= 128 { 0 } else { (p >> shift) as u64 };
    let w = ((u128::from(t64) * u128::from(t64)) >> 64) as u64;
    if use_cos {
        return Approx::Near(neg, u128::from(alt_series(0, 10, w)), -62);
    }
    let sh = (128 - i64::from(p.leading_zeros()) - 64).max(0);
    let p64 = (p >> sh) as u64;
    let sig = u128::from(p64) * u128::from(alt_series(1, 9, w));
    Approx::Near(neg, sig, sh - f - 61 - 62)
}

/// The approximation rounded to `l` (a sticky bit below it: never a tie).
///
/// WGSL twins: `f32_round_near`, `f16_round_near`, `near_round` (docs/gpu.md, "Twins").
pub fn finish(l: Layout, a: Approx) -> u64 {
    match a {
        Approx::Exact(bits) => bits,
        Approx::Near(neg, sig, exp) => round(l, neg, sig << 1 | 1, exp - 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cpu::alu::float::layout;
    use crate::ir::alu::Ty;

    /// The table is 2^(j/64) (to f64's precision; the exhaustive tests
    /// check the rest through the results).
    #[test]
    fn the_table_is_powers_of_two() {
        for (j, &t) in EXP2_TABLE.iter().enumerate() {
            let want = 2f64.powf(j as f64 / 64.0);
            assert!((t as f64 / 2f64.powi(62) - want).abs() < 1e-15, "{j}");
        }
        assert!((LN2 as f64 / 2f64.powi(62) - std::f64::consts::LN_2).abs() < 1e-15);
        assert!((TWO_OVER_LN2 as f64 / 2f64.powi(62) - 2.0 / std::f64::consts::LN_2).abs() < 1e-15);
    }

    fn value(a: Approx, l: Layout) -> f64 {
        match a {
            Approx::Exact(b) if l.bits == 32 => f64::from(f32::from_bits(b as u32)),
            Approx::Exact(b) => f64::from(crate::texture::convert::f16_to_f32(b as u16)),
            Approx::Near(neg, sig, exp) => {
                let v = sig as f64 * 2f64.powi(exp as i32);
                if neg {
                    -v
                } else {
                    v
                }
            }
        }
    }

    /// The approximations against the host's f64 functions on a sample.
    #[test]
    fn approximations_are_close() {
        let l = layout(Ty::F32);
        let mut seed = 0x1234_5678_9abc_def1u64;
        for _ in 0..200_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let x = (seed >> 32) as u32 & 0x7f7f_ffff;
            if x < 0x0080_0000 {
                continue;
            }
            let xf = f64::from(f32::from_bits(x));
            let lg = value(log2(l, x), l);
            assert!(
                (lg - xf.log2()).abs() <= 2e-15 * xf.log2().abs().max(1e-300),
                "log2 {x:#x}"
            );
            let xs = x | (seed as u32 & 0x8000_0000);
            let xe = f64::from(f32::from_bits(xs));
            if xe.abs() < 126.0 && xe.abs() > 2f64.powi(-26) {
                let ex = value(exp2(l, xs), l);
                assert!((ex / xe.exp2() - 1.0).abs() < 2e-15, "exp2 {xs:#x}");
            }
        }
    }

    #[test]
    fn exact_and_edge_cases() {
        let l = layout(Ty::F32);
        let bits = |x: f32| u64::from(x.to_bits());
        assert_eq!(finish(l, exp2(l, 0x4100_0000)), bits(256.0));
        assert_eq!(finish(l, exp2(l, 0xc2fc_0000)), bits(2f32.powi(-126)));
        assert_eq!(finish(l, exp2(l, 0x4300_0000)), bits(f32::INFINITY));
        // Just below −126: a denormal (v_exp_f32 flushes it, float.rs).
        assert!(finish(l, exp2(l, 0xc2fc_0001)) < 0x0080_0000);
        assert_eq!(
            finish(l, exp2(l, 0x3f00_0000)),
            bits(std::f32::consts::SQRT_2)
        );
        assert_eq!(finish(l, log2(l, 0x3f80_0000)), 0);
        assert_eq!(finish(l, log2(l, 0x4400_0000)), bits(9.0));
        assert_eq!(finish(l, log2(l, 0x0080_0000)), bits(-126.0));
        assert_eq!(finish(l, log2(l, 0x4120_0000)), bits(10f32.log2()));
        // Near 1 the result keeps its relative precision.
        for x in [0x3f80_0001u32, 0x3f7f_ffff, 0x3f80_0123, 0x3f7f_fedc] {
            let want = (f64::from(f32::from_bits(x)).log2() as f32).to_bits();
            assert_eq!(finish(l, log2(l, x)), u64::from(want), "{x:#x}");
        }
    }

    /// The f32 inputs of 2^x whose approximation lies within 2^−50 of a
    /// rounding boundary (all that `exhaustive_exp2_is_correctly_rounded`
    /// finds), with 2^x correctly rounded by 100-digit decimal arithmetic
    /// (Python's `decimal`): the approximation rounds right on each.
    const EXP2_HARD: [(u32, u32); 14] = [
        (0x36879cf7, 0x3f800018),
        (0x39af899f, 0x3f80079b),
        (0x3a07857c, 0x3f800bbe),
        (0x3b429d37, 0x3f804385),
        (0x3c02a9ad, 0x3f80b5a3),
        (0x3ea7097a, 0x3fa07ab9),
        (0xb50a7fae, 0x3f7ffffa),
        (0xb52d1f9a, 0x3f7ffff8),
        (0xb6a477af, 0x3f7fffc7),
        (0xb8d3d026, 0x3f7ffb69),
        (0xbaec2b40, 0x3f7fae34),
        (0xbcf3a937, 0x3f7ac6b1),
        (0xbe1f29de, 0x3f65da56),
        (0xbf2c7b43, 0x3f207ab9),
    ];

    #[test]
    fn the_hardest_inputs_round_right() {
        let l = layout(Ty::F32);
        for (x, want) in EXP2_HARD {
            assert_eq!(finish(l, exp2(l, x)), u64::from(want), "2^{x:#x}");
        }
    }

    /// sin and cos against the host's f64 functions, and their exact cases.
    #[test]
    fn sin_cos_are_close() {
        let l = layout(Ty::F32);
        let bits = |x: f32| u64::from(x.to_bits());
        assert_eq!(finish(l, sin_cos(l, 0x3e80_0000, false)), bits(1.0)); // sin(π/2)
        assert_eq!(finish(l, sin_cos(l, 0x3f00_0000, true)), bits(-1.0)); // cos(π)
        assert_eq!(finish(l, sin_cos(l, 0x3e80_0000, true)), 0); // cos(π/2)
        assert_eq!(finish(l, sin_cos(l, 0xbf00_0000, false)), 0x8000_0000); // sin(−π)
        assert_eq!(finish(l, sin_cos(l, 0x4380_0001, false)), 0); // out of range
        assert_eq!(finish(l, sin_cos(l, 0x7f80_0000, true)), 0);
        let mut seed = 0x0bad_5eed_1234_5678u64;
        for i in 0..300_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let x = f32::from_bits((seed >> 32) as u32 & 0xc37f_ffff | (seed as u32 & 0x8000_0000));
            if !x.is_finite() || x.abs() > 256.0 {
                continue;
            }
            let xf = f64::from(x) * 2.0 * std::f64::consts::PI;
            let cos = i % 2 == 0;
            let want = if cos { xf.cos() } else { xf.sin() };
            let got = value(sin_cos(l, x.to_bits(), cos), l);
            // f64's own reduction of 2πx loses about |2πx| × 2^−53.
            let tol = 4e-16 * (1.0 + xf.abs()) + 4e-16 * want.abs();
            assert!(
                (got - want).abs() <= tol,
                "{} {x:e}: {got:e} vs {want:e}",
                if cos { "cos" } else { "sin" }
            );
        }
    }

    /// Distance of an approximation from the nearest rounding boundary of a
    /// normal `p`-bit result, in units of 2^−56 of its value: above 64, the
    /// approximation (relative error below 2^−57) rounds as the exact value.
    fn margin_ok(a: Approx, p: u32) -> bool {
        let Approx::Near(_, sig, _) = a else {
            return true;
        };
        let top = 127 - sig.leading_zeros();
        if top < p + 60 {
            // Fewer than 60 bits below the result's: widen.
            return margin_ok(Approx::Near(false, sig << 64, 0), p);
        }
        let g = top - p; // the half-ulp bit
        let low = sig & ((1u128 << (g + 1)) - 1);
        let half = 1u128 << g;
        // Only midpoints matter to round to nearest: an approximation close
        // to a representable value (cos 2πx next to 1) rounds to it.
        let dist = low.abs_diff(half);
        let unit = 1u128 << (top - 56);
        dist > 64 * unit
    }

    fn exhaustive(f: impl Fn(u32) -> Option<Approx> + Sync, known: &[u32]) {
        let threads = std::thread::available_parallelism().map_or(2, |n| n.get()) as u32;
        let bad = std::sync::Mutex::new(Vec::new());
        std::thread::scope(|s| {
            for t in 0..threads {
                let (f, bad) = (&f, &bad);
                s.spawn(move || {
                    let mut x = t;
                    loop {
                        if let Some(a) = f(x) {
                            if !margin_ok(a, 24) && !known.contains(&x) {
                                bad.lock().unwrap().push(x);
                            }
                        }
                        match x.checked_add(threads) {
                            Some(n) => x = n,
                            None => break,
                        }
                    }
                });
            }
        });
        let bad = bad.into_inner().unwrap();
        let mut bad = bad;
        bad.sort_unstable();
        assert!(
            bad.is_empty(),
            "{} inputs too close to a boundary: {:x?}",
            bad.len(),
            &bad[..bad.len().min(64)]
        );
    }

    /// Every f32 input of `v_exp_f32` rounds as the exact 2^x would.
    #[test]
    #[ignore = "exhaustive: 2^32 inputs, minutes"]
    fn exhaustive_exp2_is_correctly_rounded() {
        let l = layout(Ty::F32);
        let hard: Vec<u32> = EXP2_HARD.iter().map(|h| h.0).collect();
        exhaustive(
            |x| (x & 0x7f80_0000 != 0x7f80_0000).then(|| exp2(l, x)),
            &hard,
        );
    }

    /// The f32 inputs of sin(2πx) whose approximation lies within 2^−50 of
    /// a rounding boundary (all that `exhaustive_sin_is_correctly_rounded`
    /// finds), with sin(2πx) correctly rounded by 110-digit decimal
    /// arithmetic (π by Machin's formula, sin by its Taylor series).
    const SIN_HARD: [(u32, u32); 14] = [
        (0x34654db5, 0x35b41836),
        (0x37eacaf6, 0x393867e5),
        (0x3c6eb990, 0x3dbb3b76),
        (0x3cdb9c50, 0x3e2baad5),
        (0x3d7d7f58, 0x3ec21dd8),
        (0x3ee05015, 0x3ec21dd8),
        (0x3ef2463b, 0x3e2baad5),
        (0xb4654db5, 0xb5b41836),
        (0xb7eacaf6, 0xb93867e5),
        (0xbc6eb990, 0xbdbb3b76),
        (0xbcdb9c50, 0xbe2baad5),
        (0xbd7d7f58, 0xbec21dd8),
        (0xbee05015, 0xbec21dd8),
        (0xbef2463b, 0xbe2baad5),
    ];

    #[test]
    fn the_hardest_sines_round_right() {
        let l = layout(Ty::F32);
        for (x, want) in SIN_HARD {
            assert_eq!(
                finish(l, sin_cos(l, x, false)),
                u64::from(want),
                "sin 2π{x:#x}"
            );
        }
    }

    /// The same for cos(2πx) (`exhaustive_cos_is_correctly_rounded`).
    const COS_HARD: [(u32, u32); 8] = [
        (0x390721a7, 0x3f7ffffb),
        (0x3e40a02a, 0x3ec21dd8),
        (0x3e711467, 0x3dbb3b76),
        (0x3e9fafeb, 0xbec21dd8),
        (0xb90721a7, 0x3f7ffffb),
        (0xbe40a02a, 0x3ec21dd8),
        (0xbe711467, 0x3dbb3b76),
        (0xbe9fafeb, 0xbec21dd8),
    ];

    #[test]
    fn the_hardest_cosines_round_right() {
        let l = layout(Ty::F32);
        for (x, want) in COS_HARD {
            assert_eq!(
                finish(l, sin_cos(l, x, true)),
                u64::from(want),
                "cos 2π{x:#x}"
            );
        }
    }

    /// Normal f32 inputs of `v_sin_f32`/`v_cos_f32` in range, and zero.
    /// (Denormal inputs give 2πx times 1 − (2πx)²/6 …, denormal results
    /// whose rounding point lies far above the approximation's error.)
    fn sin_cos_input(x: u32) -> bool {
        x & 0x7fff_ffff <= 0x4380_0000 && (x & 0x7f80_0000 != 0 || x << 1 == 0)
    }

    /// Every such input of `v_sin_f32` rounds as the exact sin(2πx) would.
    #[test]
    #[ignore = "exhaustive: 2^31 inputs, minutes"]
    fn exhaustive_sin_is_correctly_rounded() {
        let l = layout(Ty::F32);
        let hard: Vec<u32> = SIN_HARD.iter().map(|h| h.0).collect();
        exhaustive(|x| sin_cos_input(x).then(|| sin_cos(l, x, false)), &hard);
    }

    /// Every such input of `v_cos_f32` rounds as the exact cos(2πx) would.
    #[test]
    #[ignore = "exhaustive: 2^31 inputs, minutes"]
    fn exhaustive_cos_is_correctly_rounded() {
        let l = layout(Ty::F32);
        let hard: Vec<u32> = COS_HARD.iter().map(|h| h.0).collect();
        exhaustive(|x| sin_cos_input(x).then(|| sin_cos(l, x, true)), &hard);
    }

    /// Every positive f32 input of `v_log_f32` rounds as the exact log2 x
    /// would.
    #[test]
    #[ignore = "exhaustive: 2^31 inputs, minutes"]
    fn exhaustive_log2_is_correctly_rounded() {
        let l = layout(Ty::F32);
        exhaustive(
            |x| (0x0080_0000..0x7f80_0000).contains(&x).then(|| log2(l, x)),
            &[],
        );
    }
}
