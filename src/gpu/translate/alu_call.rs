//! Calls into the WGSL ALU library (`shaders/alu_int.wgsl`, `alu_f32.wgsl`,
//! `alu_f16.wgsl`): the twins of `cpu::alu::eval`, shared by every module
//! that computes an [`AluFn`] — whole AMD programs and the Intel thread's
//! GRF operations alike, so that both front ends run one ALU semantics.

use crate::ir::alu::{AluFn, Family, Ty, Unit};
use std::fmt::Write as _;

/// `shaders/fma.wgsl`: the fused multiply-add on bits the f32 library
/// rounds with.
pub(crate) const FMA: &str = include_str!("../../../shaders/fma.wgsl");
/// `shaders/alu_int.wgsl`.
pub(crate) const ALU_INT: &str = include_str!("../../../shaders/alu_int.wgsl");
/// `shaders/alu_f32.wgsl`.
pub(crate) const ALU_F32: &str = include_str!("../../../shaders/alu_f32.wgsl");
/// `shaders/alu_f16.wgsl`.
pub(crate) const ALU_F16: &str = include_str!("../../../shaders/alu_f16.wgsl");
/// `shaders/alu_f64.wgsl`.
pub(crate) const ALU_F64: &str = include_str!("../../../shaders/alu_f64.wgsl");

/// An input's low and high dword, as WGSL `u32` expressions.
pub(crate) type Pair = (String, String);

/// The ALU families, in the order of their WGSL codes (`FAM_*`): the
/// constants `shaders/alu_int.wgsl` and `shaders/alu_f32.wgsl` switch on. A
/// compare and a conversion are one family each, their relation or target
/// passed beside.
const FAMILIES: &[&str] = &[
    "MOV",
    "ADD",
    "ADD_CARRY",
    "SUB",
    "SUB_BORROW",
    "MUL",
    "MUL_HI",
    "MUL24",
    "MUL_HI24",
    "MAD24",
    "MAD_WIDE",
    "ADD3",
    "LSHL_ADD",
    "ADD_LSHL",
    "LSHL_OR",
    "AND_OR",
    "OR3",
    "XOR3",
    "XOR_ADD",
    "MIN",
    "MAX",
    "MED3",
    "MIN3",
    "MAX3",
    "MIN_MAX",
    "MAX_MIN",
    "AND",
    "OR",
    "XOR",
    "NOT",
    "NAND",
    "NOR",
    "XNOR",
    "AND_NOT",
    "OR_NOT",
    "SHL",
    "LSHR",
    "ASHR",
    "BFE",
    "BFI",
    "BFM",
    "BREV",
    "BCNT1",
    "BCNT0",
    "FIND_LSB",
    "FIND_MSB",
    "FIND_MSB_SIGNED",
    "ABS",
    "SEXT8",
    "SEXT16",
    "ALIGN_BIT",
    "ALIGN_BYTE",
    "PERM",
    "BIT_TEST",
    "BIT_TEST0",
    "MBCNT_LO",
    "MBCNT_HI",
    "BIT_SET",
    "BIT_CLEAR",
    "CMP",
    "CLASS",
    "CNDMASK",
    "SELECT",
    "FMA",
    "MAD",
    "MUL_LEGACY",
    "MAD_LEGACY",
    "FMA_LEGACY",
    "FRACT",
    "FLOOR",
    "CEIL",
    "TRUNC",
    "RNDNE",
    "FREXP_MANT",
    "FREXP_EXP",
    "LDEXP",
    "RCP",
    "RSQ",
    "SQRT",
    "EXP",
    "LOG",
    "SIN",
    "COS",
    "DIV_SCALE",
    "DIV_FMAS",
    "DIV_FIXUP",
    "CVT",
    "CVT_PKRTZ",
    "PACK",
    "CVT_PK_SAT",
    "WQM",
    "QUAD_MASK",
    "DOT",
];

/// The `FAM_*` constant of a family (`MulHi24` → `FAM_MUL_HI24`).
pub(crate) fn fam(f: Family) -> String {
    let name = match f {
        Family::Cmp(_) => "Cmp".to_string(),
        Family::Cvt(_) => "Cvt".to_string(),
        Family::Dot(_) => "Dot".to_string(),
        other => format!("{other:?}"),
    };
    let mut out = String::from("FAM_");
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            out.push('_');
        }
        out.push(c.to_ascii_uppercase());
    }
    out
}

/// The WGSL declarations of the family codes.
pub(crate) fn family_consts() -> String {
    let mut s = String::from("// ir::alu::Family codes (gpu/translate/whole/alu.rs FAMILIES).\n");
    for (i, name) in FAMILIES.iter().enumerate() {
        writeln!(s, "const FAM_{name}: u32 = {i}u;").ok();
    }
    s
}

/// The library function computing `f` on values of `width` (`int32`,
/// `int64`, `f32op`): one per `case` of the library's switch, named after
/// the case's first family (shaders/alu_int.wgsl, alu_f32.wgsl).
fn case_fn(width: &str, f: Family) -> String {
    use Family::*;
    let leader = match (width, f) {
        (_, AddCarry) => Add,
        (_, SubBorrow) => Sub,
        ("int32", MulHi24 | Mad24) => Mul24,
        ("int32", Max | Min3 | Max3 | Med3 | MinMax | MaxMin) => Min,
        ("f32op" | "f16op", MaxMin) => MinMax,
        ("int32", AlignByte) => AlignBit,
        ("int32", MbcntHi) => MbcntLo,
        ("int32", QuadMask) => Wqm,
        ("int32", CvtPkSat) => Pack,
        ("f32op", Ceil | Trunc | Rndne) => Floor,
        ("f32op", MadLegacy | FmaLegacy) => MulLegacy,
        ("f32op", Log) => Exp,
        ("f32op", Cos) => Sin,
        // One function for +, −, × and fma: one exact fma on the operands
        // the family picks, so a shared site serves all four.
        ("f32op" | "f16op" | "f64op", Sub | Mul | Fma) => Add,
        (
            "f16op",
            Sqrt | Rsq | Fract | Floor | Ceil | Trunc | Rndne | FrexpMant | FrexpExp | Ldexp,
        ) => Rcp,
        ("f16op", Log | Sin | Cos) => Exp,
        ("f64op", Max | Min3 | Max3) => Min,
        ("f64op", Ceil | Trunc | Rndne) => Floor,
        ("f64op", FrexpExp) => FrexpMant,
        ("f64op", Sqrt | Rsq) => Rcp,
        (_, other) => other,
    };
    format!("{width}_{}", fam(leader)[4..].to_lowercase())
}

/// A type's code for the library's `sub` argument: bits, 0x100 when signed,
/// 0x200 when a float.
fn ty_code(t: Ty) -> u32 {
    t.bits() | if t.is_signed() { 0x100 } else { 0 } | if t.is_float() { 0x200 } else { 0 }
}

/// The library's `sub` argument of a family: a compare's relation, a
/// conversion's target type, a dot product's shape; 0 for the others.
pub(crate) fn sub_code(f: Family) -> u32 {
    match f {
        Family::Cmp(r) => r.code(),
        Family::Cvt(to) => ty_code(to),
        Family::Dot(d) => d.code(),
        _ => 0,
    }
}

/// The three inputs as the 64-bit library functions take them: `vec2<u32>`
/// values, low dword first.
fn wide_inputs(x: &[Pair; 3]) -> String {
    x.iter()
        .map(|(lo, hi)| format!("vec2<u32>({lo}, {hi})"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The library function [`call`] calls for `func` when it is one of the
/// float families' generic forms, `name(fam, sub, mode, x0, x1, x2, k)` on
/// u32 inputs (f32, f16) or, with `wide`, on `vec2<u32>` ones (f64), as
/// `(name, wide)`; `None` for the special forms (conversions from integers
/// and to f64, f16 to f32) and the integer families.
pub(crate) fn generic_float_callee(func: AluFn) -> Option<(String, bool)> {
    match (func.family, func.ty) {
        (Family::Cvt(Ty::F64), _) => None,
        (_, Ty::F64) => Some((case_fn("f64op", func.family), true)),
        (Family::Cvt(to), from) if !from.is_float() && to.is_float() => None,
        (Family::Cvt(Ty::F32), Ty::F16) => None,
        (_, Ty::F32) => Some((case_fn("f32op", func.family), false)),
        (_, Ty::F16) => Some((case_fn("f16op", func.family), false)),
        _ => None,
    }
}

/// The value of a 32-bit add, subtract, and, or or xor without a carry in,
/// as WGSL's own operator on `x` (a `vec3<u32>`, the bit 0), for an
/// operation that writes no bit output and has no CLAMP: the library's
/// `int32_add` & co. compute the carry and the signed overflow too, which
/// the driver inlines whole before it drops them, about 2 KB per add
/// (`kernels/private.toml` had 40). The value is the same: these
/// operations wrap modulo 2^32 (`cpu::alu::int`).
pub(crate) fn native_int(func: AluFn, x: &[Pair; 3]) -> Option<String> {
    if !matches!(func.ty, Ty::U32 | Ty::I32 | Ty::B32) {
        return None;
    }
    let op = match func.family {
        Family::Add => "+",
        Family::Sub => "-",
        Family::And => "&",
        Family::Or => "|",
        Family::Xor => "^",
        _ => return None,
    };
    Some(format!("vec3<u32>(({}) {op} ({}), 0u, 0u)", x[0].0, x[1].0))
}

/// The library call computing `func` as `unit` runs it on inputs `x` (low
/// and high dword expressions) with bit input `k`, under the MODE value the
/// expression `mode` holds: a `vec3<u32>` (value low, high, bit).
pub(crate) fn call(func: AluFn, unit: Unit, mode: &str, x: &[Pair; 3], k: &str) -> String {
    let f = func;
    let vec = unit == Unit::Vector;
    let sub = sub_code(f.family);
    let famc = fam(f.family);
    match (f.family, f.ty) {
        // To f64: exact (alu_f64.wgsl).
        (Family::Cvt(Ty::F64), Ty::F32) => {
            format!("vec3<u32>(f64_from_f32({mode}, {}), 0u)", x[0].0)
        }
        (Family::Cvt(Ty::F64), from) if !from.is_float() => format!(
            "vec3<u32>(f64_from_int({mode}, {}, {}), 0u)",
            x[0].0,
            from.is_signed()
        ),
        (_, Ty::F64) => format!(
            "{}({famc}, {sub}u, {mode}, {}, {k})",
            case_fn("f64op", f.family),
            wide_inputs(x)
        ),
        (Family::Cvt(to), from) if !from.is_float() && to.is_float() => {
            let lib = if to == Ty::F16 {
                "f16_from_int"
            } else {
                "f32_from_int"
            };
            format!(
                "vec3<u32>({lib}({mode}, {}, {}u), 0u, 0u)",
                x[0].0,
                ty_code(from)
            )
        }
        (Family::Cvt(Ty::F32), Ty::F16) => {
            format!("vec3<u32>(alu_f16_to_f32({mode}, {}), 0u, 0u)", x[0].0)
        }
        (_, t @ (Ty::F32 | Ty::F16)) => format!(
            "{}({famc}, {sub}u, {mode}, {}, {}, {}, {k})",
            case_fn(if t == Ty::F32 { "f32op" } else { "f16op" }, f.family),
            x[0].0,
            x[1].0,
            x[2].0
        ),
        (_, t) if t.bits() == 64 => format!(
            "{}({famc}, {sub}u, {}, {vec}, {}, {k})",
            case_fn("int64", f.family),
            t.is_signed(),
            wide_inputs(x)
        ),
        (_, t) => format!(
            "{}({famc}, {sub}u, {}u, {}, {vec}, {}, {}, {}, {k})",
            case_fn("int32", f.family),
            t.bits(),
            t.is_signed(),
            x[0].0,
            x[1].0,
            x[2].0
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn native_operators_cover_the_plain_32_bit_integer_operations() {
        let x: [Pair; 3] = [
            ("a".into(), "0u".into()),
            ("b".into(), "0u".into()),
            zero_pair(),
        ];
        let f = |family, ty| native_int(AluFn { family, ty }, &x);
        assert_eq!(
            f(Family::Add, Ty::U32).unwrap(),
            "vec3<u32>((a) + (b), 0u, 0u)"
        );
        assert_eq!(
            f(Family::Sub, Ty::I32).unwrap(),
            "vec3<u32>((a) - (b), 0u, 0u)"
        );
        assert_eq!(
            f(Family::Xor, Ty::B32).unwrap(),
            "vec3<u32>((a) ^ (b), 0u, 0u)"
        );
        // A carry in, a narrower or wider type, a float: the library's.
        assert_eq!(f(Family::AddCarry, Ty::U32), None);
        assert_eq!(f(Family::Add, Ty::U16), None);
        assert_eq!(f(Family::Add, Ty::U64), None);
        assert_eq!(f(Family::Add, Ty::F32), None);
        assert_eq!(f(Family::Mul, Ty::U32), None);
    }

    fn zero_pair() -> Pair {
        ("0u".into(), "0u".into())
    }
}
