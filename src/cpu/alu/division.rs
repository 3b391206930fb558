//! The division sequence's three instructions, `v_div_scale`,
//! `v_div_fmas` and `v_div_fixup` (f32 and f64; `v_div_fixup_f16`), which
//! compilers emit around `v_rcp` and fused multiply-adds for a correctly
//! rounded quotient (docs/semantics/programs.md, "Float arithmetic").
//!
//! The three read denormal inputs whatever MODE says (the RDNA3 ISA's note
//! on V_DIV_FMAS_F32: "Input denormals are not flushed, but output flushing
//! is allowed"; `v_div_scale` exists to scale denormals, which flushing
//! would hide) and flush their results as MODE says.

use super::exact;
use super::float::{flush_out, layout, ldexp, nan_of, Layout, Mode};
use crate::ir::alu::Ty;

/// The exponent field of a value's bits.
fn field(l: Layout, x: u64) -> i64 {
    ((x & l.exp_mask()) >> l.mant) as i64
}

/// MODE with the input denormals of `ty` kept (the outputs as MODE says).
fn keep_inputs(mode: Mode) -> Mode {
    Mode {
        denorm32: mode.denorm32 | 1,
        denorm16_64: mode.denorm16_64 | 1,
        ..mode
    }
}

/// |x| < |y| × 2^k exactly, for finite nonzero x and y.
///
/// WGSL twin: `f32_below_scaled` (docs/gpu.md, "Twins").
fn below_scaled(l: Layout, x: u64, y: u64, k: i64) -> bool {
    let (ex, mx) = super::float::decompose(l, x);
    let (ey, my) = super::float::decompose(l, y);
    (ex, mx) < (ey + k, my)
}

/// `v_div_scale` (S0 = a, the value to scale: the denominator or the
/// numerator; S1 = b, the denominator; S2 = c, the numerator): the RDNA3
/// ISA's V_DIV_SCALE_F32/F64 pseudocode, branch for branch and in its
/// order; D starts as S0. The scale is 2^64 for f32 and 2^128 for f64; "N/D
/// near the largest float" is exponent(N) − exponent(D) ≥ 96 (f64: 768);
/// "the numerator is tiny" is exponent(N) ≤ 23 (f64: 53). Where the
/// pseudocode tests `1 / S1 == DENORM` and `S2 / S1 == DENORM`, gcnrun
/// tests the exact values against the type's denormal range
/// (|S1| > 2^(bias − 1), 0 < |S2/S1| < 2^(1 − bias)). Returns D and VCC.
/// [Errata A3](docs/errata.md): the branch where both are denormal scales
/// the denominator by 2^−64, not 2^+64 as the pseudocode prints.
///
/// WGSL twin: `f32_div_scale` (docs/gpu.md, "Twins").
/// WGSL twins on f64: `f64_div_scale`.
pub fn scale(mode: Mode, ty: Ty, a: u64, b: u64, c: u64) -> (u64, bool) {
    let l = layout(ty);
    let (near_max, s, tiny) = if ty == Ty::F64 {
        (768, 128, 53)
    } else {
        (96, 64, 23)
    };
    let keep = keep_inputs(mode);
    let nan = |x: u64| l.is_nan(x);
    let zero = |x: u64| x & !l.sign() == 0;
    let inf = |x: u64| x & !l.sign() == l.exp_mask();
    // Float equality: no NaN, and the same value (±0 equal).
    let feq = |x: u64, y: u64| !nan(x) && !nan(y) && (x == y || (zero(x) && zero(y)));
    let finite_nonzero = |x: u64| !nan(x) && !inf(x) && !zero(x);
    // 1 / S1 in the denormal range: |S1| > 2^(bias − 1).
    let recip_denorm = finite_nonzero(b) && {
        let (e, m) = super::float::decompose(l, b);
        e > l.bias() - 1 || (e == l.bias() - 1 && m != 1 << l.mant)
    };
    // S2 / S1 in the denormal range (not zero).
    let quot_denorm = finite_nonzero(b) && finite_nonzero(c) && below_scaled(l, c, b, 1 - l.bias());
    let mut d = a;
    let mut vcc = false;
    if (!nan(c) && zero(c)) || (!nan(b) && zero(b)) {
        d = l.default_nan();
    } else if field(l, c) - field(l, b) >= near_max {
        vcc = true;
        if feq(a, b) {
            d = ldexp(keep, ty, a, s);
        }
    } else if l.is_denorm(b) {
        d = ldexp(keep, ty, a, s);
    } else if recip_denorm && quot_denorm {
        vcc = true;
        if feq(a, b) {
            d = ldexp(keep, ty, a, -s);
        }
    } else if recip_denorm {
        d = ldexp(keep, ty, a, -s);
    } else if quot_denorm {
        vcc = true;
        if feq(a, c) {
            d = ldexp(keep, ty, a, s);
        }
    } else if field(l, c) <= tiny {
        d = ldexp(keep, ty, a, s);
    }
    let d = if nan(d) {
        d | l.quiet_bit()
    } else {
        flush_out(mode, ty, d)
    };
    (d, vcc)
}

/// `v_div_fmas`: a × b + c, scaled when VCC (`k`) is set by 2^+64 (f64:
/// 2^+128) when c's exponent field is above the bias (|c| ≥ 2) and by
/// 2^−64 (2^−128) otherwise, undoing `v_div_scale`, with one rounding. NaN
/// and ∞ as `v_fma`. The RDNA3 ISA prints the scale as 2^32; the sequence
/// needs 2^±64, which AMD's rocjitsu models ([errata A3](docs/errata.md)).
///
/// WGSL twin: `f32_div_fmas` (docs/gpu.md, "Twins").
/// WGSL twins on f64: `f64_div_fmas`.
pub fn fmas(mode: Mode, ty: Ty, a: u64, b: u64, c: u64, k: bool) -> u64 {
    let l = layout(ty);
    if let Some(n) = nan_of(ty, &[a, b, c]) {
        return n;
    }
    let inf = |x: u64| x & !l.sign() == l.exp_mask();
    let zero = |x: u64| x & !l.sign() == 0;
    let pn = (a ^ b) & l.sign();
    if inf(a) || inf(b) {
        if zero(a) || zero(b) || (inf(c) && c & l.sign() != pn) {
            return l.default_nan();
        }
        return pn | l.exp_mask();
    }
    if inf(c) {
        return c;
    }
    let s = if ty == Ty::F64 { 128 } else { 64 };
    let scale = match (k, field(l, c) > l.bias()) {
        (false, _) => 0,
        (true, true) => s,
        (true, false) => -s,
    };
    flush_out(mode, ty, exact::fma_scaled(l, a, b, c, scale))
}

/// `v_div_fixup` (S0 = a, the quotient; S1 = b, the denominator; S2 = c,
/// the numerator): the special cases of c / b, else ±|a| with the
/// quotient's sign — the RDNA3 ISA's V_DIV_FIXUP pseudocode, whose NaN for
/// 0/0 and ∞/∞ is the negative default NaN (0xffc00000, f16 0xfe00, f64
/// 0xfff8000000000000). Its UNDERFLOW for exponent(N) − exponent(D) below
/// −150 (f64 −1075, f16 −25) is the zero that round to nearest gives such a
/// quotient. Its overflow case as printed (exponent(D) all ones) cannot be
/// reached past the ∞ and NaN cases; what overflows is a quotient past the
/// largest float, which the Newton steps turn into ∞ − ∞, a NaN S0 from
/// non-NaN inputs: that gives ±∞ ([errata A3](docs/errata.md); the OpenCL C
/// conformance suite requires ∞ of such a correctly rounded division).
///
/// WGSL twin: `float_div_fixup` (docs/gpu.md, "Twins").
/// WGSL twins on f64: `f64_div_fixup`.
pub fn fixup(mode: Mode, ty: Ty, a: u64, b: u64, c: u64) -> u64 {
    let l = layout(ty);
    let sign_out = (b ^ c) & l.sign();
    let zero = |x: u64| x & !l.sign() == 0;
    let inf = |x: u64| x & !l.sign() == l.exp_mask();
    let neg_nan = l.sign() | l.default_nan();
    let under = match ty {
        Ty::F64 => -1075,
        Ty::F32 => -150,
        _ => -25,
    };
    let r = if l.is_nan(c) {
        c | l.quiet_bit()
    } else if l.is_nan(b) {
        b | l.quiet_bit()
    } else if (zero(b) && zero(c)) || (inf(b) && inf(c)) {
        neg_nan
    } else if zero(b) || inf(c) {
        sign_out | l.exp_mask()
    } else if inf(b) || zero(c) || (ty != Ty::F16 && field(l, c) - field(l, b) < under) {
        // x/∞, 0/y, and a quotient below half the smallest denormal.
        sign_out
    } else if l.is_nan(a) {
        sign_out | l.exp_mask()
    } else {
        sign_out | (a & !l.sign())
    };
    if l.is_nan(r) {
        r
    } else {
        flush_out(mode, ty, r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const M: u32 = crate::machine::state::DEFAULT_MODE;

    fn b(x: f32) -> u64 {
        u64::from(x.to_bits())
    }

    /// The sequence LLVM emits for a correctly rounded f32 division
    /// (SIISelLowering LowerFDIV32; hostdiff.cl compiled for gfx900 has it),
    /// with gcnrun's `v_fma_f32` and correctly rounded `v_rcp_f32`.
    fn divide(n: f32, d: f32) -> u32 {
        let m = Mode::of(M);
        let fma = |x: u64, y: u64, z: u64| {
            super::super::float::eval(m, crate::ir::alu::Family::Fma, Ty::F32, [x, y, z], false)
                .unwrap()
                .0
        };
        let neg = |x: u64| x ^ 0x8000_0000;
        let (ds, _) = scale(m, Ty::F32, b(d), b(d), b(n));
        let (ns, vcc) = scale(m, Ty::F32, b(n), b(d), b(n));
        let r = b(1.0 / f32::from_bits(ds as u32));
        let e = fma(neg(ds), r, b(1.0));
        let r = fma(e, r, r);
        let q = fma(ns, r, 0);
        let e = fma(neg(ds), q, ns);
        let q = fma(e, r, q);
        let e = fma(neg(ds), q, ns);
        let q = fmas(m, Ty::F32, e, r, q, vcc);
        fixup(m, Ty::F32, q, b(d), b(n)) as u32
    }

    #[test]
    fn the_sequence_divides_correctly() {
        let cases = [
            (1.0f32, 3.0f32),
            (7.0, 0.1),
            (f32::MAX, 1e-30),
            (1e-30, f32::MAX),
            (1e-40, 3.0),
            (3.0, 1e-40),
            (1e-45, 1e38),
            (2e38, 3e38),
            (f32::MIN_POSITIVE, 2e38),
            (-5.5, 1.0e-39),
        ];
        for (n, d) in cases {
            assert_eq!(divide(n, d), (n / d).to_bits(), "{n:e} / {d:e}");
        }
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..200_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let (n, d) = (
                f32::from_bits(seed as u32),
                f32::from_bits((seed >> 32) as u32),
            );
            let want = n / d;
            let got = f32::from_bits(divide(n, d));
            assert!(
                got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()),
                "{n:e} / {d:e}: {got:e}, want {want:e}"
            );
        }
    }

    #[test]
    fn fixup_special_cases() {
        let m = Mode::of(M);
        let f = |q: f32, d: f32, n: f32| fixup(m, Ty::F32, b(q), b(d), b(n)) as u32;
        assert_eq!(f(0.0, 0.0, 0.0), 0xffc0_0000);
        assert_eq!(f(0.0, f32::INFINITY, -f32::INFINITY), 0xffc0_0000);
        assert_eq!(f(0.0, -0.0, 1.0), 0xff80_0000);
        assert_eq!(f(5.0, f32::INFINITY, -1.0), 0x8000_0000);
        assert_eq!(f(5.0, -2.0, 10.0), (-5.0f32).to_bits());
        assert_eq!(f(5.0, f32::NAN, 1.0), 0x7fc0_0000);
    }
}
