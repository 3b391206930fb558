//! Integer and bit families of the ALU (docs/semantics, "Integer
//! arithmetic"). Values are raw bits in a `u64`, the type's width in the low
//! bits; results are returned masked to the width. Each rule follows AMD's
//! pseudo-code for the SALU/VALU opcode that lowers to it (AMD Vega ISA
//! chapters 12.1–12.8 "SOP2"… "VOP3"; RDNA3 ISA chapter 16), cited where
//! the rule is not the obvious one.

use crate::ir::alu::{DotShape, Family, Rel, Ty, Unit};

/// The low `bits` bits.
///
/// WGSL twin: `int_mask` (docs/gpu.md, "Twins").
fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// `x` of `bits` bits, sign-extended to 64.
///
/// WGSL twin: `int_sext` (docs/gpu.md, "Twins").
fn sext(x: u64, bits: u32) -> i64 {
    if bits >= 64 {
        x as i64
    } else {
        let s = 64 - bits;
        ((x << s) as i64) >> s
    }
}

/// The value of `x` as the type reads it, widened to i128.
///
/// WGSL twin: `int_wide` (docs/gpu.md, "Twins").
fn wide(ty: Ty, x: u64) -> i128 {
    let w = ty.bits();
    if ty.is_signed() {
        i128::from(sext(x, w))
    } else {
        i128::from(x & mask(w))
    }
}

/// `bits` of `x` counted as the bit-count families count them.
fn bits_of(ty: Ty, x: u64) -> u64 {
    x & mask(ty.bits())
}

/// The exact value of a dot product (`Family::Dot`): `c` (read as the
/// type, signed or unsigned) plus the products of the elements of `a` and
/// `b`, each sign- or zero-extended as the shape says.
///
/// WGSL twin: `int_dot` (docs/gpu.md, "Twins").
pub fn dot(d: DotShape, ty: Ty, x: [u64; 3]) -> i128 {
    let bits = u32::from(d.bits);
    let elem = |v: u64, i: u32, signed: bool| {
        let e = v >> (i * bits) & mask(bits);
        if signed {
            i128::from(sext(e, bits))
        } else {
            i128::from(e)
        }
    };
    (0..32 / bits).fold(wide(ty, x[2]), |sum, i| {
        sum + elem(x[0], i, d.signed & 1 != 0) * elem(x[1], i, d.signed & 2 != 0)
    })
}

/// Evaluates an integer or bit family: the value (masked to the output
/// width) and the bit output. `Err` names a family/type gcnrun does not
/// execute.
///
/// WGSL twins: `int32_mov`, `int32_add`, `int32_sub`, `int32_mul`,
/// `int32_mul_hi`, `int32_mul24`, `int32_mad`, `int32_add3`, `int32_lshl_add`,
/// `int32_add_lshl`, `int32_lshl_or`, `int32_and_or`, `int32_or3`,
/// `int32_xor3`, `int32_xor_add`, `int32_min`, `int32_and`, `int32_or`,
/// `int32_xor`, `int32_not`, `int32_nand`, `int32_nor`, `int32_xnor`,
/// `int32_and_not`, `int32_or_not`, `int32_shl`, `int32_lshr`, `int32_ashr`,
/// `int32_bfe`, `int32_bfi`, `int32_bfm`, `int32_brev`, `int32_bcnt1`,
/// `int32_bcnt0`, `int32_find_lsb`, `int32_find_msb`, `int32_find_msb_signed`,
/// `int32_abs`, `int32_sext8`, `int32_sext16`, `int32_align_bit`, `int32_perm`,
/// `int32_bit_test`, `int32_bit_test0`, `int32_mbcnt_lo`, `int32_bit_set`,
/// `int32_bit_clear`, `int32_cmp`, `int32_cndmask`, `int32_select`,
/// `int32_pack`, `int32_wqm`, `int32_cvt`, `int64_mov`, `int64_add`,
/// `int64_sub`, `int64_mul`, `int64_mad_wide`, `int64_and`, `int64_or`,
/// `int64_xor`, `int64_not`, `int64_nand`, `int64_nor`, `int64_xnor`,
/// `int64_and_not`, `int64_or_not`, `int64_shl`, `int64_lshr`, `int64_ashr`,
/// `int64_bfe`, `int64_bfm`, `int64_brev`, `int64_bcnt1`, `int64_bcnt0`,
/// `int64_find_lsb`, `int64_find_msb`, `int64_find_msb_signed`,
/// `int64_bit_test`, `int64_bit_test0`, `int64_bit_set`, `int64_bit_clear`,
/// `int64_cmp`, `int64_min`, `int64_max`, `int64_cndmask`, `int64_select`,
/// `int64_wqm`, `int64_quad_mask`, `int64_cvt`, `int32_dot` (docs/gpu.md, "Twins").
pub fn eval(
    unit: Unit,
    family: Family,
    ty: Ty,
    x: [u64; 3],
    k: bool,
) -> Result<(u64, bool), String> {
    use Family::*;
    let w = ty.bits();
    let m = mask(w);
    let [a, b, c] = [x[0] & m, x[1], x[2]];
    let shift_mask = u64::from(w - 1);
    let nz = |v: u64| v & m != 0;
    let (v, bit) = match family {
        Mov => (a, false),
        // Carry for unsigned types (SCC of s_add_u32, VCC of v_add_co_u32);
        // signed overflow for signed ones (SCC of s_add_i32: "SCC = overflow").
        Add | AddCarry => {
            let kin = u64::from(family == AddCarry && k);
            let bm = b & m;
            let r = a.wrapping_add(bm).wrapping_add(kin) & m;
            let bit = if ty.is_signed() {
                let sum = wide(ty, a) + wide(ty, bm) + i128::from(kin);
                sum != i128::from(sext(r, w))
            } else {
                u128::from(a) + u128::from(bm) + u128::from(kin) > u128::from(m)
            };
            (r, bit)
        }
        // Borrow for unsigned types ("SCC = borrow"), overflow for signed.
        Sub | SubBorrow => {
            let kin = u64::from(family == SubBorrow && k);
            let bm = b & m;
            let r = a.wrapping_sub(bm).wrapping_sub(kin) & m;
            let bit = if ty.is_signed() {
                let d = wide(ty, a) - wide(ty, bm) - i128::from(kin);
                d != i128::from(sext(r, w))
            } else {
                u128::from(bm) + u128::from(kin) > u128::from(a)
            };
            (r, bit)
        }
        Dot(d) => (dot(d, ty, x) as u64 & m, false),
        Mul => (a.wrapping_mul(b & m) & m, false),
        MulHi => {
            let p = wide(ty, a) * wide(ty, b & m);
            ((p >> w) as u64 & m, false)
        }
        // v_mul_u32_u24 / v_mul_i32_i24: the low 24 bits of each source;
        // on 16-bit types (`v_mad_u32_u16` / `v_mad_i32_i16`) the 16-bit
        // sources, extended, with a 32-bit addend and sum (AMD Vega ISA
        // V_MAD_U32_U16: "D.u32 = S0.u16 * S1.u16 + S2.u32").
        Mul24 | MulHi24 | Mad24 => {
            let n = if ty.bits() == 16 { 16 } else { 24 };
            let nm = (1u64 << n) - 1;
            let (x24, y24) = if ty.is_signed() {
                (i128::from(sext(a & nm, n)), i128::from(sext(b & nm, n)))
            } else {
                (i128::from(a & nm), i128::from(b & nm))
            };
            let p = x24 * y24;
            let r = match family {
                Mul24 => p as u64,
                MulHi24 => (p >> 32) as u64,
                _ => (p as u64).wrapping_add(c),
            };
            (r & 0xffff_ffff, false)
        }
        // v_mad_u64_u32 / v_mad_i64_i32: 64-bit product of 32-bit sources
        // plus a 64-bit addend; the bit is the carry out of the unsigned sum
        // (signed: overflow of the signed sum) (AMD Vega ISA V_MAD_U64_U32).
        MadWide => {
            let (p, cw) = if ty.is_signed() {
                (
                    i128::from(a as u32 as i32) * i128::from(b as u32 as i32),
                    i128::from(c as i64),
                )
            } else {
                (i128::from(a as u32) * i128::from(b as u32), i128::from(c))
            };
            let sum = p + cw;
            let r = sum as u64;
            let bit = if ty.is_signed() {
                sum != i128::from(r as i64)
            } else {
                sum > i128::from(u64::MAX)
            };
            (r, bit)
        }
        Add3 => (a.wrapping_add(b).wrapping_add(c) & m, false),
        // v_mad_u16 / v_mad_i16 / v_pk_mad_u16: S0 * S1 + S2, the low bits
        // (AMD Vega ISA V_MAD_U16: "D.u16 = S0.u16 * S1.u16 + S2.u16").
        Mad => (a.wrapping_mul(b & m).wrapping_add(c & m) & m, false),
        // v_lshl_add_u32: (S0 << S1[4:0]) + S2; s_lshl<n>_add_u32 the
        // same with SCC = the unsigned carry of the sum (RDNA3 ISA
        // S_LSHL1_ADD_U32: "SCC = tmp >= 0x100000000").
        LshlAdd => {
            let shifted = a << (b & shift_mask) & m;
            let sum = u128::from(shifted) + u128::from(c & m);
            (sum as u64 & m, sum > u128::from(m))
        }
        // v_add_lshl_u32: (S0 + S1) << S2[4:0].
        AddLshl => ((a.wrapping_add(b) & m) << (c & shift_mask) & m, false),
        LshlOr => ((a << (b & shift_mask) | c) & m, false),
        AndOr => ((a & b | c) & m, false),
        Or3 => ((a | b | c) & m, false),
        Xor3 => ((a ^ b ^ c) & m, false),
        XorAdd => (((a ^ b) & m).wrapping_add(c) & m, false),
        Min | Max | Min3 | Max3 | Med3 | MinMax | MaxMin => {
            let (x, y, z) = (wide(ty, a), wide(ty, b & m), wide(ty, c & m));
            // s_min/s_max: SCC = S0 was chosen because it is strictly
            // smaller/larger (AMD Vega ISA S_MIN_I32: "SCC = (S0 < S1)").
            let bit = match family {
                Min => x < y,
                Max => x > y,
                _ => false,
            };
            let r = match family {
                Min => x.min(y),
                Max => x.max(y),
                Min3 => x.min(y).min(z),
                Max3 => x.max(y).max(z),
                // gfx11 V_MINMAX_I32: the min first; V_MAXMIN_I32: the max.
                MinMax => x.min(y).max(z),
                MaxMin => x.max(y).min(z),
                _ => x.max(y).min(x.min(y).max(z)),
            };
            (r as u64 & m, bit)
        }
        // Logic: a scalar unit's SCC is "result != 0".
        And => (a & b & m, nz(a & b)),
        Or => ((a | b) & m, nz(a | b)),
        Xor => ((a ^ b) & m, nz(a ^ b)),
        Not => (!a & m, nz(!a)),
        Nand => (!(a & b) & m, nz(!(a & b))),
        Nor => (!(a | b) & m, nz(!(a | b))),
        Xnor => (!(a ^ b) & m, nz(!(a ^ b))),
        AndNot => (a & !b & m, nz(a & !b)),
        OrNot => ((a | !b) & m, nz(a | !b)),
        // Shifts by the low log2(width) bits of the count (S1[4:0] for 32
        // bits, S1[5:0] for 64, S1[3:0] for 16).
        Shl => {
            let r = a << (b & shift_mask) & m;
            (r, r != 0)
        }
        Lshr => {
            let r = a >> (b & shift_mask);
            (r, r != 0)
        }
        Ashr => {
            let r = (sext(a, w) >> (b & shift_mask)) as u64 & m;
            (r, r != 0)
        }
        // Bit-field extract. Scalar: offset S1[4:0] (S1[5:0] for 64 bits),
        // width S1[22:16] (AMD Vega ISA S_BFE_U32); vector: offset S1[4:0],
        // width S2[4:0] (V_BFE_U32). A width of 0 gives 0; a width reaching
        // past the top takes the bits there are. Signed: the field
        // sign-extended.
        Bfe => {
            let (off, width) = match unit {
                Unit::Scalar => (b & shift_mask, (b >> 16) & 0x7f),
                Unit::Vector => (b & 31, c & 31),
            };
            let field = a >> off;
            let r = if width == 0 {
                0
            } else if width >= u64::from(w) {
                field
            } else {
                let f = field & mask(width as u32);
                if ty.is_signed() {
                    sext(f, width as u32) as u64
                } else {
                    f
                }
            };
            (r & m, r & m != 0)
        }
        Bfi => ((a & b | !a & c) & m, false),
        // s_bfm_b32 / v_bfm_b32: ((1 << S0[4:0]) - 1) << S1[4:0].
        Bfm => {
            let r = mask((a & shift_mask) as u32) << (b & shift_mask);
            (r & m, false)
        }
        Brev => (a.reverse_bits() >> (64 - w) & m, false),
        Bcnt1 => {
            let r = u64::from(bits_of(ty, a).count_ones()).wrapping_add(b) & 0xffff_ffff;
            (r, r != 0)
        }
        Bcnt0 => {
            let r = u64::from(w - bits_of(ty, a).count_ones());
            (r, r != 0)
        }
        // −1 when no bit is set (AMD Vega ISA S_FF1_I32_B32, V_FFBL_B32).
        FindLsb => {
            let r = if a == 0 {
                u64::from(u32::MAX)
            } else {
                u64::from(a.trailing_zeros())
            };
            (r, false)
        }
        FindMsb => {
            let r = if a == 0 {
                u64::from(u32::MAX)
            } else {
                u64::from(a.leading_zeros() - (64 - w))
            };
            (r, false)
        }
        // The first bit from the MSB that differs from the sign bit; −1 for
        // 0 and −1 (S_FLBIT_I32, V_FFBH_I32).
        FindMsbSigned => {
            let s = sext(a, w);
            let y = if s < 0 { !s as u64 } else { s as u64 } & m;
            let r = if y == 0 {
                u64::from(u32::MAX)
            } else {
                u64::from(y.leading_zeros() - (64 - w))
            };
            (r, false)
        }
        // s_abs_i32: |S0| (the most negative value stays), SCC = result != 0.
        Abs => {
            let r = sext(a, w).wrapping_abs() as u64 & m;
            (r, r != 0)
        }
        Sext8 => (sext(a & 0xff, 8) as u64 & m, false),
        Sext16 => (sext(a & 0xffff, 16) as u64 & m, false),
        // v_alignbit_b32: ({S0, S1} >> S2[4:0])[31:0].
        AlignBit => {
            let r = ((a << 32 | (b & 0xffff_ffff)) >> (c & 31)) & 0xffff_ffff;
            (r, false)
        }
        AlignByte => {
            let r = ((a << 32 | (b & 0xffff_ffff)) >> (8 * (c & 3))) & 0xffff_ffff;
            (r, false)
        }
        // v_perm_b32 (AMD Vega ISA V_PERM_B32): each result byte from
        // selector byte s of S2 over the bytes of {S0, S1} (S1 low): 0–7 that
        // byte; 8–11 the sign of byte 1, 3, 5, 7 repeated; 12 zero; 13+ 0xff.
        Perm => {
            let data = a << 32 | (b & 0xffff_ffff);
            let mut r = 0u64;
            for i in 0..4 {
                let sel = (c >> (8 * i)) & 0xff;
                let byte = match sel {
                    0..=7 => (data >> (8 * sel)) & 0xff,
                    8..=11 => {
                        let bit = 16 * (sel - 8) + 15;
                        if data >> bit & 1 == 1 {
                            0xff
                        } else {
                            0
                        }
                    }
                    12 => 0,
                    _ => 0xff,
                };
                r |= byte << (8 * i);
            }
            (r, false)
        }
        BitTest => (0, a >> (b & shift_mask) & 1 == 1),
        BitTest0 => (0, a >> (b & shift_mask) & 1 == 0),
        // `a` arrives masked to the lanes below this one (cpu::alu's vector
        // unit does it, the lane being its).
        MbcntLo | MbcntHi => (
            u64::from((a & 0xffff_ffff).count_ones()).wrapping_add(b) & 0xffff_ffff,
            false,
        ),
        BitSet => (a | 1 << (b & shift_mask), false),
        BitClear => (a & !(1 << (b & shift_mask)), false),
        Cmp(rel) => {
            let (x, y) = (wide(ty, a), wide(ty, b & m));
            let r = match rel {
                Rel::F => false,
                Rel::Lt => x < y,
                Rel::Eq => x == y,
                Rel::Le => x <= y,
                Rel::Gt => x > y,
                Rel::Lg => x != y,
                Rel::Ge => x >= y,
                Rel::T => true,
                r => return Err(format!("integer compare {r:?} does not exist")),
            };
            (0, r)
        }
        Cndmask => (if k { b & m } else { a }, false),
        Select => (if k { a } else { b & m }, false),
        // v_pack_b32_f16 / s_pack_ll_b32_b16: S0[15:0] | S1[15:0] << 16.
        Pack => ((a & 0xffff) | (b & 0xffff) << 16, false),
        // v_cvt_pk_u16_u32 / v_cvt_pk_i16_i32: each source saturated to 16
        // bits (min(x, 0xffff); clamp(x, −32768, 32767)), S0 in the low half
        // (docs/errata.md A4: a hardware test suite's oracle, where LLVM's
        // builtin documentation says "lower 16 bits").
        CvtPkSat => {
            let sat = |x: u64| {
                if ty.is_signed() {
                    (x as u32 as i32).clamp(-32768, 32767) as u32 & 0xffff
                } else {
                    (x as u32).min(0xffff)
                }
            };
            (u64::from(sat(a) | sat(b) << 16), false)
        }
        // s_wqm_b32/b64: each group of four lanes whole when any is on.
        Wqm => {
            let mut r = 0u64;
            for q in 0..w / 4 {
                if a >> (4 * q) & 0xf != 0 {
                    r |= 0xf << (4 * q);
                }
            }
            (r & m, r != 0)
        }
        QuadMask => {
            let mut r = 0u64;
            for q in 0..w / 4 {
                if a >> (4 * q) & 0xf != 0 {
                    r |= 1 << q;
                }
            }
            (r, r != 0)
        }
        Cvt(to) if to.is_float() => return Err("integer to float goes through float::eval".into()),
        // Integer widenings/narrowings (v_cvt_u32_u16 etc. are lowered as
        // these): zero- or sign-extend by the source type, truncate to the
        // target.
        Cvt(to) => ((wide(ty, a) as u64) & mask(to.bits()), false),
        f => {
            return Err(format!(
                "{} is not an integer operation",
                crate::ir::alu::AluFn::new(f, ty).wgsl_name()
            ))
        }
    };
    Ok((v, bit))
}

/// The result of `family` under the VOP3 `clamp` bit: the exact result
/// saturated to the type's range (AMD Vega ISA V_ADD_U16, V_SUB_U16,
/// V_MAD_U16, V_ADD_U32: "Supports saturation (unsigned 16-bit integer
/// domain)" and its 32-bit and signed twins; RDNA3 ISA V_ADD_NC_U16 alike).
/// Only the functions [`crate::ir::alu::AluFn::saturates`] names have it;
/// for the others this returns `None`.
///
/// WGSL twin: `int_saturate` (docs/gpu.md, "Twins").
pub fn saturate(family: Family, ty: Ty, x: [u64; 3], k: bool) -> Option<u64> {
    use Family::*;
    let w = ty.bits();
    let [a, b, c] = [wide(ty, x[0]), wide(ty, x[1]), wide(ty, x[2])];
    let kin = i128::from(k);
    let exact = match family {
        Add => a + b,
        AddCarry => a + b + kin,
        Sub => a - b,
        SubBorrow => a - b - kin,
        Mad if w == 16 => a * b + c,
        Dot(d) => dot(d, ty, x),
        _ => return None,
    };
    if w > 32 || ty.is_float() {
        return None;
    }
    let (lo, hi) = if ty.is_signed() {
        (-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1)
    } else {
        (0, (1i128 << w) - 1)
    };
    Some(exact.clamp(lo, hi) as u64 & mask(w))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// docs/errata.md A4: each source saturates to 16 bits, S0 low.
    #[test]
    fn cvt_pk_saturates_each_half() {
        let ev = |ty, a: u32, b: u32| {
            eval(
                Unit::Vector,
                Family::CvtPkSat,
                ty,
                [a.into(), b.into(), 0],
                false,
            )
            .unwrap()
            .0
        };
        assert_eq!(ev(Ty::U32, 0x1234, 0xffff), 0xffff_1234);
        assert_eq!(ev(Ty::U32, 0x1_0000, 7), 0x0007_ffff);
        assert_eq!(ev(Ty::U32, u32::MAX, 0x8_0000), 0xffff_ffff);
        assert_eq!(ev(Ty::I32, (-5i32) as u32, 40000), 0x7fff_fffb);
        assert_eq!(
            ev(Ty::I32, (-40000i32) as u32, (-32768i32) as u32),
            0x8000_8000
        );
    }

    #[test]
    fn dot_products_read_packed_elements() {
        let d = |bits, signed| Family::Dot(DotShape { bits, signed });
        let ev = |f, ty, a, b, c| eval(Unit::Vector, f, ty, [a, b, c], false).unwrap().0;
        // 1·5 + 2·6 + 3·7 + 4·8 + 10.
        assert_eq!(ev(d(8, 0), Ty::U32, 0x0403_0201, 0x0807_0605, 10), 80);
        // Signed nibbles: 8 is −8 (5 + 12 + 21 − 32 + 10).
        assert_eq!(ev(d(4, 3), Ty::I32, 0x0403_0201, 0x0807_0605, 10), 16);
        // Mixed: a unsigned (0xff = 255), b signed (0xff = −1): −4·255.
        assert_eq!(
            ev(d(8, 2), Ty::I32, u64::MAX, u64::MAX, 0),
            (-1020i32) as u32 as u64
        );
        // 2·65535² = 2^33 − 2^18 + 2 wraps to 32 bits; CLAMP saturates the
        // exact sum.
        assert_eq!(ev(d(16, 0), Ty::U32, u64::MAX, u64::MAX, 0), 0xfffc_0002);
        let sat = saturate(d(16, 0), Ty::U32, [u64::MAX, u64::MAX, 0], false);
        assert_eq!(sat, Some(0xffff_ffff));
        // Signed: 2·(−32768)² = 2^31 past i32::MAX; with c = −1 it fits.
        let sat = |c| saturate(d(16, 3), Ty::I32, [0x8000_8000, 0x8000_8000, c], false);
        assert_eq!(sat(0), Some(0x7fff_ffff));
        assert_eq!(sat(0xffff_ffff), Some(0x7fff_ffff));
        assert_eq!(sat(0x8000_0000), Some(0));
    }

    #[test]
    fn clamp_saturates_the_exact_result() {
        let sat = |f, ty, a: u64, b: u64, c: u64, k| saturate(f, ty, [a, b, c], k).unwrap();
        // Unsigned: past the top to the maximum, below zero to zero.
        assert_eq!(
            sat(Family::Add, Ty::U32, 0xffff_fff0, 0x20, 0, false),
            0xffff_ffff
        );
        assert_eq!(sat(Family::Add, Ty::U32, 5, 6, 0, false), 11);
        assert_eq!(sat(Family::Sub, Ty::U16, 5, 6, 0, false), 0);
        assert_eq!(
            sat(Family::AddCarry, Ty::U32, 0xffff_fffe, 1, 0, true),
            0xffff_ffff
        );
        assert_eq!(sat(Family::SubBorrow, Ty::U32, 1, 1, 0, true), 0);
        // Signed: to the nearer bound, the inputs read as signed.
        assert_eq!(sat(Family::Add, Ty::I16, 0x7000, 0x7000, 0, false), 0x7fff);
        assert_eq!(sat(Family::Sub, Ty::I16, 0x8000, 1, 0, false), 0x8000);
        assert_eq!(
            sat(Family::Sub, Ty::I32, 0x7fff_ffff, 0xffff_ffff, 0, false),
            0x7fff_ffff
        );
        // v_mad_u16: the exact product and sum, not the wrapped ones.
        assert_eq!(sat(Family::Mad, Ty::U16, 0x100, 0x100, 1, false), 0xffff);
        assert_eq!(sat(Family::Mad, Ty::I16, 0xff00, 0x100, 0, false), 0x8000);
        assert_eq!(sat(Family::Mad, Ty::U16, 3, 5, 7, false), 22);
        // No rule: the caller refuses.
        assert_eq!(saturate(Family::Mul, Ty::U32, [1, 2, 0], false), None);
        // gfx11's v_minmax / v_maxmin on signed values.
        let v = |f, a: i32, b: i32, c: i32| {
            eval(
                Unit::Vector,
                f,
                Ty::I32,
                [a as u32 as u64, b as u32 as u64, c as u32 as u64],
                false,
            )
            .unwrap()
            .0 as u32 as i32
        };
        assert_eq!(v(Family::MaxMin, -5, 3, 1), 1);
        assert_eq!(v(Family::MaxMin, -5, -7, 1), -5);
        assert_eq!(v(Family::MinMax, -5, 3, -9), -5);
        assert_eq!(v(Family::MinMax, -5, 3, 0), 0);
    }

    fn s(f: Family, ty: Ty, a: u64, b: u64, c: u64) -> (u64, bool) {
        eval(Unit::Scalar, f, ty, [a, b, c], false).unwrap()
    }

    #[test]
    fn carries_and_overflow() {
        assert_eq!(s(Family::Add, Ty::U32, 0xffff_ffff, 1, 0), (0, true));
        assert_eq!(
            s(Family::Add, Ty::I32, 0x7fff_ffff, 1, 0),
            (0x8000_0000, true)
        );
        assert_eq!(s(Family::Add, Ty::I32, 0xffff_ffff, 1, 0), (0, false));
        assert_eq!(s(Family::Sub, Ty::U32, 0, 1, 0), (0xffff_ffff, true));
        assert_eq!(
            s(Family::Sub, Ty::I32, 0x8000_0000, 1, 0),
            (0x7fff_ffff, true)
        );
        let r = eval(
            Unit::Vector,
            Family::AddCarry,
            Ty::U32,
            [0xffff_ffff, 0, 0],
            true,
        )
        .unwrap();
        assert_eq!(r, (0, true));
        assert_eq!(
            s(Family::MadWide, Ty::U64, 0xffff_ffff, 0xffff_ffff, u64::MAX),
            (0xffff_fffe_0000_0000, true)
        );
    }

    #[test]
    fn shifts_take_the_low_count_bits() {
        assert_eq!(s(Family::Shl, Ty::B32, 1, 33, 0).0, 2);
        assert_eq!(s(Family::Lshr, Ty::B64, 1 << 63, 64 + 63, 0).0, 1);
        assert_eq!(s(Family::Ashr, Ty::I32, 0x8000_0000, 31, 0).0, 0xffff_ffff);
    }

    #[test]
    fn bit_fields() {
        // s_bfe_u32 with offset 4, width 8 packed in S1.
        assert_eq!(s(Family::Bfe, Ty::U32, 0xabcd, 4 | 8 << 16, 0).0, 0xbc);
        assert_eq!(s(Family::Bfe, Ty::I32, 0xf0, 4 | 4 << 16, 0).0, 0xffff_ffff);
        let v = eval(Unit::Vector, Family::Bfe, Ty::U32, [0xabcd, 4, 8], false).unwrap();
        assert_eq!(v.0, 0xbc);
        assert_eq!(s(Family::Bfm, Ty::B32, 4, 8, 0).0, 0xf00);
        assert_eq!(s(Family::Brev, Ty::B32, 1, 0, 0).0, 0x8000_0000);
        assert_eq!(s(Family::FindLsb, Ty::B32, 0, 0, 0).0, 0xffff_ffff);
        assert_eq!(s(Family::FindMsb, Ty::B32, 1, 0, 0).0, 31);
        assert_eq!(s(Family::FindMsbSigned, Ty::I32, 0x4000_0000, 0, 0).0, 1);
        assert_eq!(
            s(Family::FindMsbSigned, Ty::I32, 0xffff_ffff, 0, 0).0,
            0xffff_ffff
        );
        assert_eq!(
            s(Family::Perm, Ty::B32, 0x0403_0201, 0x0807_0605, 0x0c0d_0700).0,
            0x00ff_0405
        );
    }

    #[test]
    fn medians_and_24_bit_products() {
        assert_eq!(s(Family::Med3, Ty::I32, (-5i32) as u32 as u64, 7, 2).0, 2);
        assert_eq!(
            s(Family::Mul24, Ty::I32, 0xff_ffff, 2, 0).0,
            (-2i32) as u32 as u64
        );
        assert_eq!(
            s(Family::MulHi, Ty::I32, (-1i32) as u32 as u64, 1, 0).0,
            0xffff_ffff
        );
    }
}
