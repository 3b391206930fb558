//! Float arithmetic of the ALU: the MODE register's effect (denormal
//! flushing, the IEEE bit), NaN results, and the families on f16, f32 and
//! f64 (docs/semantics, "Float arithmetic").
//!
//! Values are raw bits in a `u64` (a 16-bit value in the low half, a 32-bit
//! one in the low dword). Every result is the correctly rounded IEEE 754
//! result of the operation, rounded to nearest even — the only round mode
//! gcnrun executes; a program that sets another is refused by name.
//!
//! **NaN results** (gcnrun's rule; docs/errata.md, "NaN results"): an
//! operation with a NaN input returns the first NaN input (in operand order)
//! quieted, with its payload; an invalid operation on non-NaN inputs (∞ − ∞,
//! 0 × ∞, √−1) returns the positive default NaN `0x7fc00000` (f64
//! `0x7ff8000000000000`, f16 `0x7e00`). LLVM's AMDGPUUsage ("Kernel
//! Descriptor", IEEE_MODE) documents that in IEEE mode float operations
//! "quiet and propagate signaling NaN inputs per IEEE 754-2008"; which NaN
//! wins and the default NaN's sign are not in a public AMD document, so the
//! rule above is gcnrun's (the usual IEEE recommendation). It differs from
//! the x86 host, whose default NaN is negative, so the host differential
//! compares NaN results as NaNs.

use crate::ir::alu::{Family, Ty};

/// The float fields of the MODE register (AMD Vega ISA §4.3, "MODE"; RDNA3
/// ISA §3.4.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mode {
    /// FP_ROUND: bits 1:0 for f32, 3:2 for f16/f64 (0 = nearest even).
    pub round: u32,
    /// FP_DENORM for f32 (bits 5:4): 0 flush inputs and outputs, 1 keep
    /// inputs and flush outputs, 2 flush inputs and keep outputs, 3 keep both.
    pub denorm32: u32,
    /// FP_DENORM for f16 and f64 (bits 7:6), coded as `denorm32`.
    pub denorm16_64: u32,
    /// DX10_CLAMP (bit 8): clamping a NaN gives 0.
    pub dx10_clamp: bool,
    /// IEEE (bit 9): min/max quiet a signalling NaN and return it.
    pub ieee: bool,
}

impl Mode {
    /// The fields of a MODE value.
    pub fn of(mode: u32) -> Mode {
        Mode {
            round: mode & 0xf,
            denorm32: mode >> 4 & 3,
            denorm16_64: mode >> 6 & 3,
            dx10_clamp: mode >> 8 & 1 == 1,
            ieee: mode >> 9 & 1 == 1,
        }
    }

    /// The FP_DENORM code for a type.
    fn denorm(self, ty: Ty) -> u32 {
        if ty == Ty::F32 {
            self.denorm32
        } else {
            self.denorm16_64
        }
    }

    /// Round modes other than nearest even are refused (the message names
    /// the mode): gcnrun's CPU and GPU both round to nearest even only.
    pub fn check_round(self, ty: Ty) -> Result<(), String> {
        let r = if ty == Ty::F32 {
            self.round & 3
        } else {
            self.round >> 2
        };
        if r == 0 {
            Ok(())
        } else {
            Err(format!(
                "MODE.FP_ROUND selects round mode {r} for {}: gcnrun executes round-to-nearest-even only",
                ty.name()
            ))
        }
    }
}

/// The layout of a float type's bits.
#[derive(Clone, Copy)]
pub(super) struct Layout {
    pub(super) bits: u32,
    pub(super) mant: u32,
}

/// The layout of `ty`'s bits (f16, f32, f64).
pub(super) fn layout(ty: Ty) -> Layout {
    match ty {
        Ty::F16 => Layout { bits: 16, mant: 10 },
        Ty::F32 => Layout { bits: 32, mant: 23 },
        _ => Layout { bits: 64, mant: 52 },
    }
}

impl Layout {
    pub(super) fn sign(self) -> u64 {
        1 << (self.bits - 1)
    }
    /// The exponent bias (127 for f32).
    pub(super) fn bias(self) -> i64 {
        (1i64 << (self.bits - 2 - self.mant)) - 1
    }
    pub(super) fn exp_mask(self) -> u64 {
        ((1u64 << (self.bits - 1 - self.mant)) - 1) << self.mant
    }
    pub(super) fn mant_mask(self) -> u64 {
        (1u64 << self.mant) - 1
    }
    pub(super) fn quiet_bit(self) -> u64 {
        1 << (self.mant - 1)
    }
    /// WGSL twin: `f32_is_nan` (docs/gpu.md, "Twins").
    /// WGSL twins on f16: `f16_is_nan`.
    /// WGSL twins on f64: `f64_is_nan`.
    pub(super) fn is_nan(self, x: u64) -> bool {
        x & self.exp_mask() == self.exp_mask() && x & self.mant_mask() != 0
    }
    pub(super) fn is_denorm(self, x: u64) -> bool {
        x & self.exp_mask() == 0 && x & self.mant_mask() != 0
    }
    pub(super) fn default_nan(self) -> u64 {
        self.exp_mask() | self.quiet_bit()
    }
}

/// True when `x` (bits of `ty`) is a NaN.
pub fn is_nan(ty: Ty, x: u64) -> bool {
    layout(ty).is_nan(x)
}

/// A denormal `x` becomes a zero of its sign.
fn flush(ty: Ty, x: u64) -> u64 {
    let l = layout(ty);
    if l.is_denorm(x) {
        x & l.sign()
    } else {
        x
    }
}

/// Inputs as the mode reads them: denormals flushed when FP_DENORM's input
/// bit (bit 0) is clear.
///
/// WGSL twin: `f32_flush_in` (docs/gpu.md, "Twins").
/// WGSL twins on f16: `f16_flush_in`.
/// WGSL twins on f64: `f64_flush_in`.
pub fn flush_in(mode: Mode, ty: Ty, x: u64) -> u64 {
    if mode.denorm(ty) & 1 == 0 {
        flush(ty, x)
    } else {
        x
    }
}

/// A result as the mode writes it: denormals flushed when FP_DENORM's
/// output bit (bit 1) is clear.
///
/// WGSL twin: `f32_flush_out` (docs/gpu.md, "Twins").
/// WGSL twins on f16: `f16_flush_out`.
/// WGSL twins on f64: `f64_flush_out`.
pub fn flush_out(mode: Mode, ty: Ty, x: u64) -> u64 {
    if mode.denorm(ty) & 2 == 0 {
        flush(ty, x)
    } else {
        x
    }
}

/// The NaN result of an operation on `inputs` (the rule above), or `None`
/// when no input is a NaN.
///
/// WGSL twin: `f32_first_nan` (docs/gpu.md, "Twins").
/// WGSL twins on f16: `f16_first_nan`.
/// WGSL twins on f64: `f64_first_nan`.
pub(super) fn nan_of(ty: Ty, inputs: &[u64]) -> Option<u64> {
    let l = layout(ty);
    inputs
        .iter()
        .find(|&&x| l.is_nan(x))
        .map(|&x| x | l.quiet_bit())
}

/// A computed result: a NaN that came out of the host's arithmetic (an
/// invalid operation, the inputs having no NaN) becomes the default NaN.
///
/// WGSL twin: `f32_canonical` (docs/gpu.md, "Twins").
/// WGSL twins on f16: `f16_finish`.
fn canonical(ty: Ty, x: u64) -> u64 {
    let l = layout(ty);
    if l.is_nan(x) {
        l.default_nan()
    } else {
        x
    }
}

fn f32_of(x: u64) -> f32 {
    f32::from_bits(x as u32)
}

fn f64_of(x: u64) -> f64 {
    f64::from_bits(x)
}

/// f16 bits → f64 (exact).
///
/// WGSL twin: `f16_bits_to_f32` (docs/gpu.md, "Twins").
fn h2d(x: u64) -> f64 {
    f64::from(crate::texture::convert::f16_to_f32(x as u16))
}

/// f64 → f16 bits, rounded to nearest even ([`f64_to_f16`], directly, no
/// f32 step). Every f16 operation gcnrun computes in f64 is exact there or a
/// single correctly rounded f64 operation on f16 inputs, and 53 ≥ 2 × 11 + 2
/// bits, so rounding twice (to f64, then to f16) gives the correctly rounded
/// f16 result (Figueroa, "When is double rounding innocuous?", 1995).
///
/// WGSL twin: `f32_bits_to_f16` (docs/gpu.md, "Twins").
fn d2h(x: f64) -> u64 {
    u64::from(f64_to_f16(x))
}

/// f64 → f16, round to nearest even, directly (no intermediate f32).
/// WGSL twins on f16: `f16_round`.
pub fn f64_to_f16(x: f64) -> u16 {
    let b = x.to_bits();
    let sign = ((b >> 48) & 0x8000) as u16;
    if x.is_nan() {
        // Quiet, keep the top payload bits.
        return sign | 0x7e00 | ((b >> 42) & 0x1ff) as u16;
    }
    let a = x.abs();
    if a >= 65520.0 {
        return sign | 0x7c00;
    }
    // Scale to an integer count of the f16 unit in the last place.
    let (scaled, exp_field) = if a < 2f64.powi(-14) {
        (a * 2f64.powi(24), 0u16)
    } else {
        let e = a.log2().floor() as i32;
        // log2 may be off by one near powers of two; fix it up.
        let e = if 2f64.powi(e) > a {
            e - 1
        } else if 2f64.powi(e + 1) <= a {
            e + 1
        } else {
            e
        };
        (a * 2f64.powi(10 - e), (e + 15) as u16)
    };
    // `scaled` is exact (a power-of-two scaling); round it to an integer,
    // ties to even.
    let r = scaled.round_ties_even() as u32;
    if exp_field == 0 {
        // Denormal (r ≤ 1024; 1024 is the smallest normal).
        return sign | r as u16;
    }
    // r in [1024, 2048]; 2048 carries into the exponent.
    let (m, e) = if r == 2048 {
        (1024, exp_field + 1)
    } else {
        (r, exp_field)
    };
    if e >= 31 {
        return sign | 0x7c00;
    }
    sign | e << 10 | (m as u16 & 0x3ff)
}

/// Applies a unary, binary or ternary arithmetic function on values of
/// `ty`, with the mode's input and output flushing and the NaN rule.
///
/// WGSL twins: `f32_arith`, `f32_add2`, `f32_mul2`, `f32_rcp1`,
/// `f32_sqrt1`, `f32_rint1` (docs/gpu.md, "Twins").
/// WGSL twins on f16: `f16_arith3`.
/// WGSL twins on f64: `f64_arith`, `f64_rint1`, `f64_unary` (`1 / x`, `sqrt`).
fn arith(
    mode: Mode,
    ty: Ty,
    inputs: &[u64],
    f32f: impl Fn(&[f32]) -> f32,
    f64f: impl Fn(&[f64]) -> f64,
) -> u64 {
    // At most three inputs: fixed arrays, no allocation per lane.
    let n = inputs.len().min(3);
    let flushed = each(inputs, |x| flush_in(mode, ty, x));
    let ins = &flushed[..n];
    if let Some(nan) = nan_of(ty, ins) {
        return nan;
    }
    let r = match ty {
        Ty::F32 => u64::from(f32f(&each(ins, f32_of)[..n]).to_bits()),
        Ty::F64 => f64f(&each(ins, f64_of)[..n]).to_bits(),
        // f16 computes in f64, exactly or with one rounding (see d2h).
        _ => d2h(f64f(&each(ins, h2d)[..n])),
    };
    flush_out(mode, ty, canonical(ty, r))
}

/// Up to three raw inputs converted by `f`, in an array (no allocation).
fn each<T: Copy + Default>(ins: &[u64], f: impl Fn(u64) -> T) -> [T; 3] {
    let mut out = [T::default(); 3];
    for (d, &x) in out.iter_mut().zip(ins) {
        *d = f(x);
    }
    out
}

/// IEEE minNum/maxNum as AMD's `v_min`/`v_max` compute them: a NaN input
/// gives the other input; with MODE.IEEE a signalling NaN input gives a
/// quiet NaN instead (AMD Vega ISA §4.3 "MODE", IEEE bit; RDNA3 ISA
/// `V_MIN_F32`). −0 is less than +0.
///
/// WGSL twin: `f32_min_max` (docs/gpu.md, "Twins").
/// WGSL twins on f16: `f16_min_max`.
/// WGSL twins on f64: `f64_min_max`.
fn min_max(mode: Mode, ty: Ty, a: u64, b: u64, max: bool) -> u64 {
    let l = layout(ty);
    let (a, b) = (flush_in(mode, ty, a), flush_in(mode, ty, b));
    let snan = |x: u64| l.is_nan(x) && x & l.quiet_bit() == 0;
    if mode.ieee && (snan(a) || snan(b)) {
        return nan_of(ty, &[a, b]).unwrap_or(l.default_nan());
    }
    match (l.is_nan(a), l.is_nan(b)) {
        (true, true) => return a | l.quiet_bit(),
        (true, false) => return b,
        (false, true) => return a,
        _ => {}
    }
    let key = |x: u64| total_key(l, x);
    let pick_a = if max {
        key(a) >= key(b)
    } else {
        key(a) <= key(b)
    };
    flush_out(mode, ty, if pick_a { a } else { b })
}

/// An integer whose order is the float order of non-NaN bits (−0 < +0).
///
/// WGSL twin: `f32_order_key` (docs/gpu.md, "Twins").
/// WGSL twins on f16: `f16_order_key`.
/// WGSL twins on f64: `f64_order_key`.
fn total_key(l: Layout, x: u64) -> i128 {
    let mag = (x & !l.sign()) as i128;
    if x & l.sign() != 0 {
        -mag - 1
    } else {
        mag
    }
}

/// A float compare (VOPC): the relation on the values, NaN unordered.
///
/// WGSL twin: `f32_compare` (docs/gpu.md, "Twins").
/// WGSL twins on f64: `f64_compare`.
fn compare(mode: Mode, ty: Ty, rel: crate::ir::alu::Rel, a: u64, b: u64) -> bool {
    use crate::ir::alu::Rel::*;
    let (a, b) = (flush_in(mode, ty, a), flush_in(mode, ty, b));
    let (x, y) = match ty {
        Ty::F32 => (f64::from(f32_of(a)), f64::from(f32_of(b))),
        Ty::F64 => (f64_of(a), f64_of(b)),
        _ => (h2d(a), h2d(b)),
    };
    let unordered = x.is_nan() || y.is_nan();
    match rel {
        F => false,
        Lt => x < y,
        Eq => x == y,
        Le => x <= y,
        Gt => x > y,
        Lg => !unordered && x != y,
        Ge => x >= y,
        O => !unordered,
        U => unordered,
        Nge => unordered || x < y,
        Nlg => unordered || x == y,
        Ngt => unordered || x <= y,
        Nle => unordered || x > y,
        Neq => x != y,
        Nlt => unordered || x >= y,
        T => true,
    }
}

/// `v_cmp_class`: the class bit of `a` that `mask` tests (AMD Vega ISA
/// `V_CMP_CLASS_F32`: bit 0 signalling NaN, 1 quiet NaN, 2 −∞, 3 −normal,
/// 4 −denormal, 5 −0, 6 +0, 7 +denormal, 8 +normal, 9 +∞). Denormals are
/// classified as they are, whatever the mode.
///
/// WGSL twin: `f32_class` (docs/gpu.md, "Twins").
/// WGSL twins on f16: `f16_class`.
/// WGSL twins on f64: `f64_class`.
fn class(ty: Ty, a: u64, mask: u64) -> bool {
    let l = layout(ty);
    let neg = a & l.sign() != 0;
    let exp = a & l.exp_mask();
    let mant = a & l.mant_mask();
    let bit = if exp == l.exp_mask() {
        if mant == 0 {
            if neg {
                2
            } else {
                9
            }
        } else if mant & l.quiet_bit() != 0 {
            1
        } else {
            0
        }
    } else if exp == 0 {
        match (mant == 0, neg) {
            (true, true) => 5,
            (true, false) => 6,
            (false, true) => 4,
            (false, false) => 7,
        }
    } else if neg {
        3
    } else {
        8
    };
    mask >> bit & 1 == 1
}

/// The exponent and significand fields of a finite non-zero value, the
/// significand with its implicit bit (denormals normalised).
///
/// WGSL twin: `f32_parts` (docs/gpu.md, "Twins").
/// WGSL twins on f64: `f64_norm`.
pub(super) fn decompose(l: Layout, x: u64) -> (i64, u64) {
    let bias = (1i64 << (l.bits - 2 - l.mant)) - 1;
    let e = ((x & l.exp_mask()) >> l.mant) as i64;
    let m = x & l.mant_mask();
    if e == 0 {
        let shift = l.mant + 1 - (64 - m.leading_zeros());
        (1 - bias - i64::from(shift), m << shift)
    } else {
        (e - bias, m | 1 << l.mant)
    }
}

/// `v_frexp_mant`: the significand scaled into [0.5, 1) with the input's
/// sign; ±∞ and NaN are returned as they are, ±0 too (AMD Vega ISA
/// `V_FREXP_MANT_F32`).
///
/// WGSL twin: `f32_frexp` (docs/gpu.md, "Twins").
/// WGSL twins on f64: `f64_frexp`.
fn frexp_mant(mode: Mode, ty: Ty, a: u64) -> u64 {
    let l = layout(ty);
    let a = flush_in(mode, ty, a);
    if a & l.exp_mask() == l.exp_mask() || a & !l.sign() == 0 {
        return a;
    }
    let (_, m) = decompose(l, a);
    let bias = (1u64 << (l.bits - 2 - l.mant)) - 1;
    // Exponent field of 0.5 ≤ |x| < 1: bias − 1.
    (a & l.sign()) | (bias - 1) << l.mant | (m & l.mant_mask())
}

/// `v_frexp_exp`: the exponent e with |x| = m × 2^e, 0.5 ≤ m < 1; 0 for
/// ±0, ±∞ and NaN (AMD Vega ISA `V_FREXP_EXP_I32_F32`).
fn frexp_exp(mode: Mode, ty: Ty, a: u64) -> u64 {
    let l = layout(ty);
    let a = flush_in(mode, ty, a);
    if a & l.exp_mask() == l.exp_mask() || a & !l.sign() == 0 {
        return 0;
    }
    let (e, _) = decompose(l, a);
    (e + 1) as i32 as u32 as u64
}

/// `v_ldexp`: `a × 2^b`, correctly rounded.
///
/// WGSL twin: `f32_ldexp` (docs/gpu.md, "Twins").
/// WGSL twins on f64: `f64_ldexp`.
pub(super) fn ldexp(mode: Mode, ty: Ty, a: u64, b: i32) -> u64 {
    let a = flush_in(mode, ty, a);
    let l = layout(ty);
    if l.is_nan(a) {
        return a | l.quiet_bit();
    }
    // Apply the scale in steps that stay exact in f64 until the last one,
    // which rounds once (a product by a power of two rounds only where the
    // result leaves the normal range).
    let r = match ty {
        Ty::F32 => u64::from(scale_f32(f32_of(a), b).to_bits()),
        Ty::F64 => scale_f64(f64_of(a), b).to_bits(),
        _ => d2h(scale_f64(h2d(a), b.clamp(-100, 100))),
    };
    flush_out(mode, ty, r)
}

/// `x × 2^n` for f64, with a single rounding.
/// WGSL twins on f64: `f64_scale`.
fn scale_f64(x: f64, n: i32) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return x;
    }
    let n = n.clamp(-2200, 2200);
    let (e, m) = decompose(layout(Ty::F64), x.to_bits());
    let target = e + i64::from(n);
    if target >= 1024 {
        return f64::INFINITY.copysign(x);
    }
    if target >= -1022 {
        // Normal: exact.
        let bits =
            (x.to_bits() & (1 << 63)) | ((target + 1023) as u64) << 52 | (m & ((1 << 52) - 1));
        return f64::from_bits(bits);
    }
    // Denormal or zero: round m × 2^(target − 52) to a multiple of 2^−1074.
    let shift = (-1074 - (target - 52)) as u32;
    let q = super::exact::round_shift(u128::from(m), shift) as u64;
    f64::from_bits((x.to_bits() & (1 << 63)) | q)
}

/// `x × 2^n` for f32, with a single rounding.
///
/// WGSL twin: `f32_scale` (docs/gpu.md, "Twins").
fn scale_f32(x: f32, n: i32) -> f32 {
    if x == 0.0 || !x.is_finite() {
        return x;
    }
    let n = n.clamp(-400, 400);
    let (e, m) = decompose(layout(Ty::F32), u64::from(x.to_bits()));
    let target = e + i64::from(n);
    let sign = x.to_bits() & 0x8000_0000;
    if target >= 128 {
        return f32::from_bits(sign | 0x7f80_0000);
    }
    if target >= -126 {
        return f32::from_bits(sign | ((target + 127) as u32) << 23 | (m as u32 & 0x7f_ffff));
    }
    let shift = (-149 - (target - 23)) as u32;
    f32::from_bits(sign | super::exact::round_shift(u128::from(m), shift) as u32)
}

/// `v_rsq`: 1/√x correctly rounded (gcnrun's rule, as for `v_rcp` and
/// `v_sqrt`: the hardware is within 1 ulp). 1/√±0 = ±∞, 1/√+∞ = +0, a
/// negative input (−∞ included) is invalid: the default NaN.
///
/// WGSL twin: `f32_rsq1` (docs/gpu.md, "Twins").
/// WGSL twins on f64: `f64_unary` (its rsq branch).
fn rsq(mode: Mode, ty: Ty, a: u64) -> u64 {
    let l = layout(ty);
    let x = flush_in(mode, ty, a);
    let r = if l.is_nan(x) {
        x | l.quiet_bit()
    } else if x & !l.sign() == 0 {
        x | l.exp_mask()
    } else if x & l.sign() != 0 {
        l.default_nan()
    } else if x == l.exp_mask() {
        0
    } else {
        super::exact::rsq(l, x)
    };
    flush_out(mode, ty, r)
}

/// `v_exp` (2^x) and `v_log` (log2 x), correctly rounded
/// (`cpu::alu::transcendental`). The f32 forms read a denormal input as a
/// zero of its sign and flush a denormal result to +0 whatever MODE says
/// (LLVM IntrinsicsAMDGPU.td: "f32 version does not handle denormals"; its
/// lowering of `llvm.exp2.f32`/`llvm.log2.f32` scales around them); the
/// f16 forms follow MODE. 2^−∞ = +0, 2^+∞ = +∞; log2 ±0 = −∞, log2 +∞ = +∞,
/// log2 of a negative value is the default NaN.
///
/// WGSL twin: `f32_exp_log1` (docs/gpu.md, "Twins").
fn exp_log(mode: Mode, family: Family, ty: Ty, a: u64) -> u64 {
    use super::transcendental::{exp2, finish, log2};
    let l = layout(ty);
    let x = if ty == Ty::F32 {
        flush(ty, a)
    } else {
        flush_in(mode, ty, a)
    };
    if l.is_nan(x) {
        return x | l.quiet_bit();
    }
    let neg = x & l.sign() != 0;
    let mag = x & !l.sign();
    let inf = l.exp_mask();
    // The input as f32 bits (f16 widens exactly).
    let x32 = if ty == Ty::F32 {
        x as u32
    } else {
        (h2d(x) as f32).to_bits()
    };
    let r = match family {
        Family::Exp if mag == inf => {
            if neg {
                0
            } else {
                inf
            }
        }
        Family::Exp => finish(l, exp2(l, x32)),
        _ if mag == 0 => l.sign() | inf,
        _ if neg => l.default_nan(),
        _ if mag == inf => inf,
        _ => finish(l, log2(l, x32)),
    };
    if ty == Ty::F32 {
        flush(ty, r)
    } else {
        flush_out(mode, ty, r)
    }
}

/// `v_sin`/`v_cos`: sin(2πx) and cos(2πx) correctly rounded
/// (`cpu::alu::transcendental::sin_cos`), +0 for |x| > 256 and ±∞ (AMD's
/// ISA guides: valid range [−256, 256], "Out of range input results in float
/// 0.0"), a NaN input quieted; denormals as MODE says.
///
/// WGSL twin: `f32_sincos1` (docs/gpu.md, "Twins").
fn sin_cos(mode: Mode, family: Family, ty: Ty, a: u64) -> u64 {
    use super::transcendental::{finish, sin_cos};
    let l = layout(ty);
    let x = flush_in(mode, ty, a);
    if l.is_nan(x) {
        return x | l.quiet_bit();
    }
    let x32 = if ty == Ty::F32 {
        x as u32
    } else {
        (h2d(x) as f32).to_bits()
    };
    flush_out(mode, ty, finish(l, sin_cos(l, x32, family == Family::Cos)))
}

/// `v_fract`: x − ⌊x⌋ rounded once, then at most the largest value below 1
/// (a tiny negative x would round to 1.0). ±∞ makes ∞ − ∞, an invalid
/// operation: the default NaN (RDNA3 ISA `V_FRACT_F32`: "D = S0 + −floor(S0)
/// … result clamped to 0x3f7fffff"; LLVM's constant folding of
/// `llvm.amdgcn.fract`; [errata A2](docs/errata.md)).
///
/// WGSL twin: `f32_fract1` (docs/gpu.md, "Twins").
/// WGSL twins on f64: `f64_fract1`.
fn fract(mode: Mode, ty: Ty, a: u64) -> u64 {
    let l = layout(ty);
    let x = flush_in(mode, ty, a);
    if l.is_nan(x) {
        return x | l.quiet_bit();
    }
    if x & !l.sign() == l.exp_mask() {
        return l.default_nan();
    }
    // The bits of 1.0, less one: the largest value below 1.
    let below_one = ((l.bias() as u64) << l.mant) - 1;
    let r = arith(
        mode,
        ty,
        &[x],
        |v| v[0] - v[0].floor(),
        |v| v[0] - v[0].floor(),
    );
    // r is +0 or positive: its bits order as its values.
    r.min(below_one)
}

/// Rounding to an integral value (floor, ceil, trunc, nearest even).
///
/// WGSL twin: `f32_round_int` (docs/gpu.md, "Twins").
/// WGSL twins on f64: `f64_round_int`.
fn round_int(mode: Mode, ty: Ty, a: u64, how: Family) -> u64 {
    let f = |x: f64| match how {
        Family::Floor => x.floor(),
        Family::Ceil => x.ceil(),
        Family::Trunc => x.trunc(),
        _ => x.round_ties_even(),
    };
    arith(mode, ty, &[a], |v| f(f64::from(v[0])) as f32, |v| f(v[0]))
}

/// Float → integer: toward zero, saturated to the integer type, NaN → 0
/// (AMD Vega ISA `V_CVT_I32_F32`, `V_CVT_U32_F32`: "out of range values are
/// clamped", NaN converts to 0).
///
/// WGSL twin: `f32_to_int` (docs/gpu.md, "Twins").
/// WGSL twins on f64: `f64_to_int`.
fn to_int(mode: Mode, from: Ty, a: u64, to: Ty) -> u64 {
    let a = flush_in(mode, from, a);
    let x = match from {
        Ty::F32 => f64::from(f32_of(a)),
        Ty::F64 => f64_of(a),
        _ => h2d(a),
    };
    // Rust's `as` truncates toward zero, saturates and maps NaN to 0.
    match to {
        Ty::I32 => x as i32 as u32 as u64,
        Ty::U32 => u64::from(x as u32),
        Ty::I16 => x as i16 as u16 as u64,
        Ty::U16 => u64::from(x as u16),
        Ty::I64 => x as i64 as u64,
        _ => x as u64,
    }
}

/// Integer → float, rounded to nearest even.
///
/// WGSL twin: `f32_from_int` (docs/gpu.md, "Twins").
/// WGSL twins on f16: `f16_from_int`.
/// WGSL twins on f64: `f64_from_int`.
pub fn from_int_bits(mode: Mode, from: Ty, a: u64, to: Ty) -> u64 {
    let r = match (from, to) {
        (Ty::I32, Ty::F32) => u64::from((a as u32 as i32 as f32).to_bits()),
        (Ty::U32, Ty::F32) => u64::from((a as u32 as f32).to_bits()),
        (Ty::I32, Ty::F64) => f64::from(a as u32 as i32).to_bits(),
        (Ty::U32, Ty::F64) => f64::from(a as u32).to_bits(),
        (Ty::I16, Ty::F16) => d2h(f64::from(a as u16 as i16)),
        (Ty::U16, Ty::F16) => d2h(f64::from(a as u16)),
        (Ty::I16, Ty::F32) => u64::from(f32::from(a as u16 as i16).to_bits()),
        (Ty::U16, Ty::F32) => u64::from(f32::from(a as u16).to_bits()),
        _ => return 0,
    };
    flush_out(mode, to, r)
}

/// Float → float: exact widening, or one rounding to nearest even; a NaN
/// stays a NaN, quieted, its payload's top bits kept.
///
/// WGSL twin: `alu_f16_to_f32` (docs/gpu.md, "Twins").
/// WGSL twins on f64: `f64_to_f32`, `f64_from_f32`.
fn float_to_float(mode: Mode, from: Ty, a: u64, to: Ty) -> u64 {
    let a = flush_in(mode, from, a);
    let x = match from {
        Ty::F32 => f64::from(f32_of(a)),
        Ty::F64 => f64_of(a),
        _ => h2d(a),
    };
    let r = match to {
        Ty::F32 => {
            if x.is_nan() {
                // The payload's top bits, quieted.
                let p = match from {
                    Ty::F64 => (a >> 29) as u32 & 0x7f_ffff,
                    _ => (a as u32 & 0x3ff) << 13,
                };
                // The sign moves to bit 31 (f64: from bit 63, f16: from 15).
                let sign = match from {
                    Ty::F64 => (a >> 32) as u32 & 0x8000_0000,
                    _ => (a as u32 & 0x8000) << 16,
                };
                u64::from(0x7fc0_0000 | sign | p)
            } else {
                u64::from((x as f32).to_bits())
            }
        }
        Ty::F64 => {
            if x.is_nan() {
                let l = layout(from);
                let p = (a & l.mant_mask()) << (52 - l.mant);
                let s = (a & l.sign()) << (64 - l.bits);
                s | 0x7ff8_0000_0000_0000 | p
            } else {
                x.to_bits()
            }
        }
        _ => d2h(x),
    };
    flush_out(mode, to, r)
}

/// The float families: value and bit outputs of `family` on `ty` with
/// inputs `x` and bit input `k`; `Err` names a family gcnrun does not
/// execute.
///
/// WGSL twins: `f32op_add` (add, sub, mul, fma), `f32op_mad`,
/// `f32op_rcp`, `f32op_sqrt`, `f32op_floor`, `f32op_min`, `f32op_max`,
/// `f32op_min3`, `f32op_max3`, `f32op_med3`, `f32op_frexp_mant`,
/// `f32op_frexp_exp`, `f32op_ldexp`, `f32op_cmp`, `f32op_class`, `f32op_cvt`,
/// `f32op_cndmask`, `f32op_mov`, `f32op_cvt_pkrtz`, `f32op_rsq`, `f32op_fract`,
/// `f32op_div_scale`, `f32op_div_fmas`, `f32op_div_fixup`, `f32op_exp`,
/// `f32op_sin`, `f32op_mul_legacy`, `f32op_min_max` (docs/gpu.md, "Twins").
/// WGSL twins on f16: `f16op_add` (add, sub, mul, fma), `f16op_mad`, `f16op_min`, `f16op_max`, `f16op_min3`, `f16op_max3`, `f16op_med3`, `f16op_cmp`, `f16op_class`, `f16op_cvt`, `f16op_cndmask`, `f16op_mov`, `f16op_min_max`, `f16op_rcp` (rcp, sqrt, rsq, fract, roundings, frexp, ldexp through f32), `f16op_exp` (exp, log, sin, cos), `f16op_div_fixup`.
/// WGSL twins on f64: `f64_med3`, `f64op_add` (add, sub, mul, fma), `f64op_min`, `f64op_med3`, `f64op_floor`, `f64op_fract`, `f64op_frexp_mant`, `f64op_ldexp`, `f64op_cmp`, `f64op_class`, `f64op_cvt`, `f64op_rcp`, `f64op_div_scale`, `f64op_div_fmas`, `f64op_div_fixup`.
pub fn eval(
    mode: Mode,
    family: Family,
    ty: Ty,
    x: [u64; 3],
    k: bool,
) -> Result<(u64, bool), String> {
    use Family::*;
    mode.check_round(ty)?;
    let [a, b, c] = x;
    let v = match family {
        Add => arith(mode, ty, &[a, b], |v| v[0] + v[1], |v| v[0] + v[1]),
        Sub => arith(mode, ty, &[a, b], |v| v[0] - v[1], |v| v[0] - v[1]),
        Mul => arith(mode, ty, &[a, b], |v| v[0] * v[1], |v| v[0] * v[1]),
        // f16 fma computes the exact product in f64 and rounds the sum once
        // there, then once to f16 (innocuous double rounding, see d2h).
        Fma => arith(
            mode,
            ty,
            &[a, b, c],
            |v| v[0].mul_add(v[1], v[2]),
            |v| v[0].mul_add(v[1], v[2]),
        ),
        // MAD: the product rounded to the type, then the sum rounded.
        // `v_mad_f32`/`v_mac_f32` do not support denormals: inputs and
        // results are flushed whatever MODE says (LLVM SIISelLowering,
        // "v_mad_f32 does not support denormals"; it selects MAD only when
        // f32 denormals are flushed).
        Mad => {
            let m = if ty == Ty::F32 {
                Mode {
                    denorm32: 0,
                    ..mode
                }
            } else {
                mode
            };
            let p = arith(m, ty, &[a, b], |v| v[0] * v[1], |v| v[0] * v[1]);
            arith(m, ty, &[p, c], |v| v[0] + v[1], |v| v[0] + v[1])
        }
        // The DX9 multiplies (RDNA3 ISA V_MUL_DX9_ZERO_F32 and
        // V_FMA_DX9_ZERO_F32: "if S0 == 0.0 or S1 == 0.0 then D = 0.0 (mul)
        // / D = S2 (fma) else …"): a factor that reads as zero (after the
        // operation's input flushing) makes the product +0 whatever the
        // other is (∞ and NaN included), and the result +0 or the addend as
        // read; otherwise the IEEE operation. The mad form keeps v_mad_f32's
        // denormal rule.
        MulLegacy | MadLegacy | FmaLegacy => {
            let m = if family == MadLegacy {
                Mode {
                    denorm32: 0,
                    ..mode
                }
            } else {
                mode
            };
            let zero = |x: u64| flush_in(m, ty, x) & !layout(ty).sign() == 0;
            if zero(a) || zero(b) {
                if family == MulLegacy {
                    0
                } else {
                    flush_out(m, ty, flush_in(m, ty, c))
                }
            } else {
                let ieee = match family {
                    MulLegacy => Mul,
                    MadLegacy => Mad,
                    _ => Fma,
                };
                return eval(mode, ieee, ty, x, k);
            }
        }
        Min => min_max(mode, ty, a, b, false),
        Max => min_max(mode, ty, a, b, true),
        Min3 => min_max(mode, ty, min_max(mode, ty, a, b, false), c, false),
        Max3 => min_max(mode, ty, min_max(mode, ty, a, b, true), c, true),
        // gfx11 V_MINMAX_F32 takes the min first, then the max with S2;
        // V_MAXMIN_F32 the other way round (LLVM selects v_maxmin_f32 for
        // minnum(maxnum(a, b), c)).
        MinMax => min_max(mode, ty, min_max(mode, ty, a, b, false), c, true),
        MaxMin => min_max(mode, ty, min_max(mode, ty, a, b, true), c, false),
        // AMD Vega ISA V_MED3_F32: a NaN input gives min3; otherwise the
        // maximum of the two inputs that are not max3's.
        Med3 => {
            let l = layout(ty);
            let (fa, fb, fc) = (
                flush_in(mode, ty, a),
                flush_in(mode, ty, b),
                flush_in(mode, ty, c),
            );
            if l.is_nan(fa) || l.is_nan(fb) || l.is_nan(fc) {
                min_max(mode, ty, min_max(mode, ty, a, b, false), c, false)
            } else {
                let m3 = min_max(mode, ty, min_max(mode, ty, a, b, true), c, true);
                if m3 == flush_out(mode, ty, fa) {
                    min_max(mode, ty, b, c, true)
                } else if m3 == flush_out(mode, ty, fb) {
                    min_max(mode, ty, a, c, true)
                } else {
                    min_max(mode, ty, a, b, true)
                }
            }
        }
        Floor | Ceil | Trunc | Rndne => round_int(mode, ty, a, family),
        Rcp => arith(mode, ty, &[a], |v| 1.0 / v[0], |v| 1.0 / v[0]),
        Sqrt => arith(mode, ty, &[a], |v| v[0].sqrt(), |v| v[0].sqrt()),
        Rsq => rsq(mode, ty, a),
        Exp | Log if ty != Ty::F64 => exp_log(mode, family, ty, a),
        Sin | Cos if ty != Ty::F64 => sin_cos(mode, family, ty, a),
        Fract => fract(mode, ty, a),
        DivScale => {
            let (d, vcc) = super::division::scale(mode, ty, a, b, c);
            return Ok((d, vcc));
        }
        DivFmas => super::division::fmas(mode, ty, a, b, c, k),
        DivFixup => super::division::fixup(mode, ty, a, b, c),
        FrexpMant => frexp_mant(mode, ty, a),
        FrexpExp => frexp_exp(mode, ty, a),
        Ldexp => ldexp(mode, ty, a, b as u32 as i32),
        Cmp(rel) => return Ok((0, compare(mode, ty, rel, a, b))),
        Class => return Ok((0, class(ty, a, b))),
        Cvt(to) if to.is_float() => float_to_float(mode, ty, a, to),
        Cvt(to) => to_int(mode, ty, a, to),
        Cndmask => {
            if k {
                b
            } else {
                a
            }
        }
        Mov => a,
        // v_cvt_pkrtz_f16_f32: each f32 to f16 rounded toward zero.
        CvtPkrtz => {
            u64::from(f32_to_f16_rtz(f32_of(flush_in(mode, ty, a))))
                | u64::from(f32_to_f16_rtz(f32_of(flush_in(mode, ty, b)))) << 16
        }
        f => {
            return Err(format!(
                "{} on {} is not executed by gcnrun yet (its hardware rule is not documented here)",
                crate::ir::alu::AluFn::new(f, ty).wgsl_name(),
                ty.name()
            ))
        }
    };
    Ok((v, false))
}

/// f32 → f16 rounded toward zero (NaN quieted, overflow to the largest
/// finite value, as RTZ does).
///
/// WGSL twin: `f32_bits_to_f16_rtz` (docs/gpu.md, "Twins").
fn f32_to_f16_rtz(x: f32) -> u16 {
    let b = x.to_bits();
    let sign = (b >> 16 & 0x8000) as u16;
    if x.is_nan() {
        return sign | 0x7e00 | (b >> 13 & 0x1ff) as u16;
    }
    if x.is_infinite() {
        return sign | 0x7c00;
    }
    let a = f64::from(x.abs());
    if a >= 65520.0 || a > 65504.0 {
        return sign | 0x7bff;
    }
    // Truncate: the largest f16 not above |x|.
    let r = f64_to_f16(a);
    let back = h2d(u64::from(r));
    sign | if back > a { r - 1 } else { r }
}

/// Applies the float source modifiers: `abs` clears the sign, then `neg`
/// flips it (on the type's bits; AMD VOP3 ABS/NEG).
///
/// WGSL twin: `f32_modify` (docs/gpu.md, "Twins").
pub fn modify(ty: Ty, x: u64, abs: bool, neg: bool) -> u64 {
    let s = layout(ty).sign();
    let x = if abs { x & !s } else { x };
    if neg {
        x ^ s
    } else {
        x
    }
}

/// The output modifiers: OMOD (×2, ×4, ÷2) then CLAMP to [0, 1] (a NaN
/// clamps to 0 under DX10_CLAMP) (AMD Vega ISA §6.3 "VOP3": OMOD, CLAMP).
///
/// WGSL twins: `f32_output`, `f16_clamp`, `f16_output` (docs/gpu.md, "Twins").
/// WGSL twins on f64: `f64_output`.
pub fn output(mode: Mode, ty: Ty, x: u64, omod: u8, clamp: bool) -> u64 {
    let l = layout(ty);
    let x = match omod {
        1 => ldexp(mode, ty, x, 1),
        2 => ldexp(mode, ty, x, 2),
        3 => ldexp(mode, ty, x, -1),
        _ => x,
    };
    if !clamp {
        return x;
    }
    if l.is_nan(x) {
        return if mode.dx10_clamp { 0 } else { x };
    }
    let one = match ty {
        Ty::F16 => 0x3c00,
        Ty::F32 => 0x3f80_0000,
        _ => 0x3ff0_0000_0000_0000,
    };
    if x & l.sign() != 0 {
        0
    } else if x > one {
        one
    } else {
        x
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const M: u32 = crate::machine::state::DEFAULT_MODE;

    fn f(fam: Family, a: f32, b: f32) -> u32 {
        eval(
            Mode::of(M),
            fam,
            Ty::F32,
            [u64::from(a.to_bits()), u64::from(b.to_bits()), 0],
            false,
        )
        .unwrap()
        .0 as u32
    }

    #[test]
    fn nan_results_follow_the_rule() {
        // inf - inf: the positive default NaN (x86 would give 0xffc00000).
        assert_eq!(f(Family::Sub, f32::INFINITY, f32::INFINITY), 0x7fc0_0000);
        // A NaN input propagates, quieted, payload kept.
        let snan = f32::from_bits(0xff80_0001);
        assert_eq!(f(Family::Add, 1.0, snan), 0xffc0_0001);
        // min with a quiet NaN gives the other input.
        assert_eq!(f(Family::Min, f32::NAN, 2.0), 2f32.to_bits());
        // IEEE mode: a signalling NaN gives a quiet NaN.
        assert_eq!(f(Family::Min, snan, 2.0), 0xffc0_0001);
        assert_eq!(f(Family::Min, -0.0, 0.0), (-0f32).to_bits());
        assert_eq!(f(Family::Max, -0.0, 0.0), 0);
    }

    #[test]
    fn denormals_flush_by_mode() {
        let d = f32::from_bits(1);
        let keep = Mode::of(M);
        let flush_all = Mode {
            denorm32: 0,
            ..keep
        };
        let r = |m| {
            eval(
                m,
                Family::Add,
                Ty::F32,
                [u64::from(d.to_bits()), 0, 0],
                false,
            )
            .unwrap()
            .0
        };
        assert_eq!(r(keep), 1);
        assert_eq!(r(flush_all), 0);
    }

    /// v_fract's clamp below 1 and its ∞ (errata A2), and v_rsq's special
    /// values.
    #[test]
    fn fract_and_rsq_edges() {
        let m = Mode::of(M);
        let fr = |x: u32| {
            eval(m, Family::Fract, Ty::F32, [u64::from(x), 0, 0], false)
                .unwrap()
                .0
        };
        assert_eq!(fr(0x8000_0001), 0x3f7f_ffff); // −2^−149: 1 − 2^−149 rounds to 1
        assert_eq!(fr(0xb300_0000), 0x3f7f_ffff); // −2^−25
        assert_eq!(fr(0xbf7f_ffff), 0x3380_0000); // −(1 − 2^−24): 2^−24
        assert_eq!(fr(0xbfa0_0000), 0x3f40_0000); // −1.25: 0.75
        assert_eq!(fr(0x8000_0000), 0); // −0: +0
        assert_eq!(fr(0x7f7f_ffff), 0);
        assert_eq!(fr(0x7f80_0000), 0x7fc0_0000); // ∞ − ∞
        assert_eq!(fr(0xffc0_1234), 0xffc0_1234);
        let h = |x: u16| {
            eval(m, Family::Fract, Ty::F16, [u64::from(x), 0, 0], false)
                .unwrap()
                .0
        };
        assert_eq!(h(0x8001), 0x3bff); // f16: 1 − 2^−24 rounds to 1
        let rs = |x: u32| {
            eval(m, Family::Rsq, Ty::F32, [u64::from(x), 0, 0], false)
                .unwrap()
                .0
        };
        assert_eq!(rs(0), 0x7f80_0000);
        assert_eq!(rs(0x8000_0000), 0xff80_0000);
        assert_eq!(rs(0x7f80_0000), 0);
        assert_eq!(rs(0xbf80_0000), 0x7fc0_0000);
        assert_eq!(rs(0x4080_0000), 0x3f00_0000); // 1/√4
    }

    /// Every f16 input of `v_exp_f16`, `v_log_f16`, `v_sin_f16` and
    /// `v_cos_f16` gives the host's f64 function rounded to f16 (which is
    /// the correctly rounded result: f64's error is far below an f16 ulp).
    #[test]
    fn f16_transcendentals_are_correctly_rounded() {
        let m = Mode::of(M);
        let mut bad = Vec::new();
        for h in 0u16..=0xffff {
            let x = h2d(u64::from(h));
            if x.is_nan() {
                continue;
            }
            let tau = 2.0 * std::f64::consts::PI * x;
            let cases = [
                (Family::Exp, x.exp2()),
                (Family::Log, if x < 0.0 { f64::NAN } else { x.log2() }),
                (Family::Sin, if x.abs() > 256.0 { 0.0 } else { tau.sin() }),
                (Family::Cos, if x.abs() > 256.0 { 0.0 } else { tau.cos() }),
            ];
            for (fam, want) in cases {
                let got = eval(m, fam, Ty::F16, [u64::from(h), 0, 0], false)
                    .unwrap()
                    .0;
                let want = if want.is_nan() { 0x7e00 } else { d2h(want) };
                // sin/cos of exact quarter turns: gcnrun's exact zeros and
                // ones, where f64's sin(2πx) is a tiny nonzero value.
                let quarter = matches!(fam, Family::Sin | Family::Cos) && (4.0 * x).fract() == 0.0;
                if got != want && !quarter {
                    bad.push(format!("{fam:?}({h:#06x}) = {got:#06x}, f64 {want:#06x}"));
                }
            }
        }
        assert!(
            bad.is_empty(),
            "{} differ: {:?}",
            bad.len(),
            &bad[..bad.len().min(10)]
        );
    }

    /// The GPU computes the f16 forms of rcp, sqrt, rsq, fract, the
    /// roundings, frexp and ldexp through f32 (alu_f16.wgsl `f16op_via_f32`):
    /// a NaN input gives itself quieted (frexp_mant: itself, frexp_exp: 0);
    /// otherwise the f16 input flushed as MODE says and widened exactly, the
    /// f32 rule with f32 denormals kept, the result narrowed to f16 (fract's
    /// then at most the largest f16 below 1). For every f16 input, every f16
    /// denormal mode and a spread of ldexp exponents, that equals the f16
    /// rule here. (exp, log, sin and cos round their fixed-point value to f16
    /// directly instead: through f32, 2^x at x = 0x11c5 lands on an f16
    /// midpoint and rounds the wrong way.)
    #[test]
    fn f16_unary_rules_equal_their_f32_rules_rounded_to_f16() {
        let l16 = layout(Ty::F16);
        let mut bad = Vec::new();
        for den16 in 0..4u32 {
            let mode = M & !(3 << 6) | den16 << 6;
            let m16 = Mode::of(mode);
            // f32 denormals kept, the other MODE bits as they are.
            let m32 = Mode::of(mode | 3 << 4);
            for fam in [
                Family::Rcp,
                Family::Sqrt,
                Family::Rsq,
                Family::Fract,
                Family::Floor,
                Family::Ceil,
                Family::Trunc,
                Family::Rndne,
                Family::FrexpMant,
                Family::FrexpExp,
                Family::Ldexp,
            ] {
                for h in 0u64..=0xffff {
                    let exps: &[i32] = if fam == Family::Ldexp {
                        &[
                            i32::MIN,
                            -1000,
                            -40,
                            -25,
                            -1,
                            0,
                            1,
                            2,
                            3,
                            17,
                            30,
                            1000,
                            i32::MAX,
                        ]
                    } else {
                        &[0]
                    };
                    for &n in exps {
                        let b = u64::from(n as u32);
                        let want = eval(m16, fam, Ty::F16, [h, b, 0], false).unwrap().0;
                        let got = if l16.is_nan(h) {
                            match fam {
                                Family::FrexpMant => h,
                                Family::FrexpExp => 0,
                                _ => h | 0x200,
                            }
                        } else {
                            let x = flush_in(m16, Ty::F16, h);
                            let wide = float_to_float(m32, Ty::F16, x, Ty::F32);
                            let r = eval(m32, fam, Ty::F32, [wide, b, 0], false).unwrap().0;
                            match fam {
                                Family::FrexpExp => r,
                                // Rounding may reach 1.0, above fract's bound.
                                Family::Fract => match float_to_float(m32, Ty::F32, r, Ty::F16) {
                                    0x3c00 => 0x3bff,
                                    r16 => r16,
                                },
                                _ => float_to_float(m32, Ty::F32, r, Ty::F16),
                            }
                        };
                        if got != want {
                            bad.push(format!(
                                "{fam:?} mode {mode:#x} f16 {h:#06x} b {n}: f16 rule {want:#06x}, through f32 {got:#06x}"
                            ));
                        }
                    }
                }
            }
        }
        assert!(
            bad.is_empty(),
            "{} differ: {:?}",
            bad.len(),
            &bad[..bad.len().min(12)]
        );
    }

    #[test]
    fn frexp_and_ldexp() {
        let m = Mode::of(M);
        let bits = |x: f32| u64::from(x.to_bits());
        assert_eq!(frexp_mant(m, Ty::F32, bits(12.0)), bits(0.75));
        assert_eq!(frexp_exp(m, Ty::F32, bits(12.0)), 4);
        assert_eq!(frexp_exp(m, Ty::F32, 1), (-148i32) as u32 as u64);
        assert_eq!(frexp_mant(m, Ty::F32, 1), bits(0.5));
        assert_eq!(ldexp(m, Ty::F32, bits(0.75), 4), bits(12.0));
        assert_eq!(ldexp(m, Ty::F32, bits(1.5), -149), 2);
        assert_eq!(ldexp(m, Ty::F32, bits(1.0), 200), bits(f32::INFINITY));
    }

    #[test]
    fn f16_conversion_rounds_to_nearest_even() {
        for h in 0u16..=0xffff {
            let x = crate::texture::convert::f16_to_f32(h);
            if x.is_nan() {
                continue;
            }
            assert_eq!(f64_to_f16(f64::from(x)), h, "{h:#x}");
        }
        // Halfway between 1.0 and the next f16: to even (1.0).
        assert_eq!(f64_to_f16(1.0 + 2f64.powi(-11)), 0x3c00);
        assert_eq!(f64_to_f16(1.0 + 3.0 * 2f64.powi(-11)), 0x3c02);
        assert_eq!(f64_to_f16(65519.0), 0x7bff);
        assert_eq!(f64_to_f16(65520.0), 0x7c00);
    }

    /// A NaN keeps its sign through f16 → f32 and f64 → f32 (found by the
    /// GPU differential, tests/gpu_alu.rs: the sign of an f16 NaN was lost).
    #[test]
    fn nan_conversions_keep_the_sign() {
        let m = Mode::of(M);
        assert_eq!(float_to_float(m, Ty::F16, 0xfe7a, Ty::F32), 0xffcf_4000);
        assert_eq!(float_to_float(m, Ty::F16, 0x7e7a, Ty::F32), 0x7fcf_4000);
        assert_eq!(
            float_to_float(m, Ty::F64, 0xfff8_0000_2000_0000, Ty::F32),
            0xffc0_0001
        );
    }

    #[test]
    fn conversions_saturate() {
        let m = Mode::of(M);
        assert_eq!(
            to_int(m, Ty::F32, u64::from(3e9f32.to_bits()), Ty::I32),
            0x7fff_ffff
        );
        assert_eq!(
            to_int(m, Ty::F32, u64::from((-1.5f32).to_bits()), Ty::U32),
            0
        );
        assert_eq!(
            to_int(m, Ty::F32, u64::from(f32::NAN.to_bits()), Ty::I32),
            0
        );
        assert_eq!(
            to_int(m, Ty::F32, u64::from((-2.7f32).to_bits()), Ty::I32),
            (-2i32) as u32 as u64
        );
    }
}
