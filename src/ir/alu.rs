//! Arithmetic and logic, as both back ends run it: one vocabulary for every
//! front end (the AMD SALU/VALU encodings and Intel's ALU instructions lower
//! into it), one semantics (`cpu::alu`, whose WGSL twins live in
//! `shaders/alu.wgsl`).
//!
//! An ALU operation is a **function** ([`AluFn`]: an operation family and the
//! type it computes on) applied by a **unit** ([`Unit`]): once for the wave
//! (scalar) or once per active lane (vector). The function's [`Signature`]
//! says how many values it reads and writes and how wide they are; the
//! operation names the registers ([`AluOp`]). Where an encoding spells an
//! operation with its sources swapped (`v_subrev_*`, `v_lshlrev_*`), the lowering
//! swaps them: the IR has one operand order per function.
//!
//! Values travel as raw bits: a 16-bit value in the low half of a 32-bit slot,
//! a 64-bit value in two consecutive slots (low dword first). A function's
//! **bit** output is a carry, a borrow, an overflow or a compare result: a
//! scalar unit writes it to SCC; a vector unit gathers the active lanes' bits
//! into a lane mask (an SGPR pair or VCC; inactive lanes read 0). A bit input
//! (carry-in, `v_cndmask`'s selector) is read the same way.

use super::{Operand, Reg};

/// Where an operation runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Unit {
    /// Once for the wave, on scalar registers (AMD SALU).
    Scalar,
    /// Once per active lane (EXEC), on per-lane registers (AMD VALU).
    Vector,
}

/// The type a function computes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    /// Bits with no arithmetic meaning (moves, logic), 16 bits.
    B16,
    /// 32 bits.
    B32,
    /// 64 bits.
    B64,
    /// Unsigned 16-bit integer.
    U16,
    /// Signed 16-bit integer.
    I16,
    /// Unsigned 32-bit integer.
    U32,
    /// Signed 32-bit integer.
    I32,
    /// Unsigned 64-bit integer.
    U64,
    /// Signed 64-bit integer.
    I64,
    /// IEEE binary16.
    F16,
    /// IEEE binary32.
    F32,
    /// IEEE binary64.
    F64,
}

impl Ty {
    /// Bits of a value of the type.
    pub fn bits(self) -> u32 {
        match self {
            Ty::B16 | Ty::U16 | Ty::I16 | Ty::F16 => 16,
            Ty::B32 | Ty::U32 | Ty::I32 | Ty::F32 => 32,
            Ty::B64 | Ty::U64 | Ty::I64 | Ty::F64 => 64,
        }
    }

    /// 32-bit slots a value of the type takes.
    pub fn slots(self) -> u32 {
        if self.bits() == 64 {
            2
        } else {
            1
        }
    }

    /// True for the IEEE float types.
    pub fn is_float(self) -> bool {
        matches!(self, Ty::F16 | Ty::F32 | Ty::F64)
    }

    /// True for the signed integer types.
    pub fn is_signed(self) -> bool {
        matches!(self, Ty::I16 | Ty::I32 | Ty::I64)
    }

    /// The lower-case name the twins use (`f32`, `u64`, …).
    pub fn name(self) -> &'static str {
        match self {
            Ty::B16 => "b16",
            Ty::B32 => "b32",
            Ty::B64 => "b64",
            Ty::U16 => "u16",
            Ty::I16 => "i16",
            Ty::U32 => "u32",
            Ty::I32 => "i32",
            Ty::U64 => "u64",
            Ty::I64 => "i64",
            Ty::F16 => "f16",
            Ty::F32 => "f32",
            Ty::F64 => "f64",
        }
    }
}

/// A comparison, in the order of AMD's VOPC float opcodes (the integer ones
/// use the first eight, `Lg` being integer `!=`). The `N*` relations are the
/// negations, true when an operand is NaN.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rel {
    /// Never.
    F,
    /// `a < b`.
    Lt,
    /// `a == b`.
    Eq,
    /// `a <= b`.
    Le,
    /// `a > b`.
    Gt,
    /// `a <> b` (ordered not-equal; integers: `!=`).
    Lg,
    /// `a >= b`.
    Ge,
    /// Neither is NaN.
    O,
    /// Either is NaN.
    U,
    /// `!(a >= b)`.
    Nge,
    /// `!(a <> b)`.
    Nlg,
    /// `!(a > b)`.
    Ngt,
    /// `!(a <= b)`.
    Nle,
    /// `!(a == b)`.
    Neq,
    /// `!(a < b)`.
    Nlt,
    /// Always.
    T,
}

impl Rel {
    /// Every relation, in code order (the VOPC float opcode's low four bits).
    pub const ALL: [Rel; 16] = [
        Rel::F,
        Rel::Lt,
        Rel::Eq,
        Rel::Le,
        Rel::Gt,
        Rel::Lg,
        Rel::Ge,
        Rel::O,
        Rel::U,
        Rel::Nge,
        Rel::Nlg,
        Rel::Ngt,
        Rel::Nle,
        Rel::Neq,
        Rel::Nlt,
        Rel::T,
    ];

    /// The relation's code (its index in [`Rel::ALL`]).
    pub fn code(self) -> u32 {
        self as u32
    }
}

/// What an ALU function does, independent of its type. Each is documented with
/// its inputs (`a`, `b`, `c`, a bit input `k`) and outputs (the value, and `bit`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// `a`.
    Mov,
    /// `a + b`; bit: unsigned carry out (signed types: overflow).
    Add,
    /// `a + b + k`; bit: carry out.
    AddCarry,
    /// `a − b`; bit: unsigned borrow (signed types: overflow).
    Sub,
    /// `a − b − k`; bit: borrow out.
    SubBorrow,
    /// `a × b`, the low half (floats: rounded).
    Mul,
    /// The high half of the double-width product.
    MulHi,
    /// The product of the low 24 bits (signed or unsigned per type), low 32 bits.
    Mul24,
    /// The high 32 bits of that 48-bit product.
    MulHi24,
    /// `Mul24(a, b) + c`.
    Mad24,
    /// `zext/sext(a) × zext/sext(b) + c` in 64 bits (`v_mad_u64_u32`: type U64
    /// or I64; `a`, `b` 32-bit); bit: carry out of the 64-bit sum.
    MadWide,
    /// `a + b + c`.
    Add3,
    /// `(a << b) + c`.
    LshlAdd,
    /// `(a + b) << c`.
    AddLshl,
    /// `(a << b) | c`.
    LshlOr,
    /// `(a & b) | c`.
    AndOr,
    /// `a | b | c`.
    Or3,
    /// `a ^ b ^ c`.
    Xor3,
    /// `(a ^ b) + c`.
    XorAdd,
    /// Minimum (floats: IEEE minNum as the MODE's IEEE bit says).
    Min,
    /// Maximum.
    Max,
    /// The median of three.
    Med3,
    /// The minimum of three.
    Min3,
    /// The maximum of three.
    Max3,
    /// `max(min(a, b), c)` (gfx11 `v_minmax_*`: the min first).
    MinMax,
    /// `min(max(a, b), c)` (gfx11 `v_maxmin_*`: the max first).
    MaxMin,
    /// `a & b`; scalar bit: result ≠ 0.
    And,
    /// `a | b`.
    Or,
    /// `a ^ b`.
    Xor,
    /// `!a`.
    Not,
    /// `!(a & b)`.
    Nand,
    /// `!(a | b)`.
    Nor,
    /// `!(a ^ b)`.
    Xnor,
    /// `a & !b`.
    AndNot,
    /// `a | !b`.
    OrNot,
    /// `a << (b mod width)`.
    Shl,
    /// `a >> (b mod width)`, logical.
    Lshr,
    /// `a >> (b mod width)`, arithmetic.
    Ashr,
    /// Bit-field extract: `b` the offset, `c` the width (scalar: `b` packs both,
    /// offset in bits 5:0 (6:0 for 64-bit), width in 22:16).
    Bfe,
    /// Bit-field insert: `(a & b) | (!a & c)`.
    Bfi,
    /// Bit-field mask: `((1 << a) − 1) << b`.
    Bfm,
    /// Reverse the bits.
    Brev,
    /// Count the set bits (`a`), plus `b` (VALU `v_bcnt_u32_b32`).
    Bcnt1,
    /// Count the clear bits.
    Bcnt0,
    /// Index of the lowest set bit, −1 when none (`s_ff1`, `v_ffbl`).
    FindLsb,
    /// Index of the highest set bit counted from the MSB, −1 when none
    /// (`s_flbit_i32_b32`, `v_ffbh_u32`).
    FindMsb,
    /// Index from the MSB of the first bit that differs from the sign, −1 when
    /// none (`s_flbit_i32`, `v_ffbh_i32`).
    FindMsbSigned,
    /// `|a|`.
    Abs,
    /// Sign-extend the low 8 bits.
    Sext8,
    /// Sign-extend the low 16 bits.
    Sext16,
    /// `({a, b} >> (c & 31))`, the low 32 bits.
    AlignBit,
    /// `({a, b} >> (8 × (c & 3)))`, the low 32 bits.
    AlignByte,
    /// Byte permute (`v_perm_b32`): `c` selects each result byte from `{a, b}`.
    Perm,
    /// Bit `b` of `a` (`s_bitcmp1`); bit output only.
    BitTest,
    /// Bit `b` of `a` is clear (`s_bitcmp0`); bit output only.
    BitTest0,
    /// `v_mbcnt_lo_u32_b32`: the set bits of `a` below this lane among lanes
    /// 0–31, plus `b` (the lane is the vector unit's: AMD Vega ISA
    /// V_MBCNT_LO_U32_B32).
    MbcntLo,
    /// `v_mbcnt_hi_u32_b32`: likewise among lanes 32–63.
    MbcntHi,
    /// `a` with bit `b` set (`s_bitset1`).
    BitSet,
    /// `a` with bit `b` cleared.
    BitClear,
    /// Compare: the bit output only.
    Cmp(Rel),
    /// `v_cmp_class`: bit when `a`'s class is one `b`'s mask selects.
    Class,
    /// `k ? b : a` (`v_cndmask`).
    Cndmask,
    /// `k ? a : b` (`s_cselect`, k = SCC).
    Select,
    /// Fused `a × b + c`, one rounding.
    Fma,
    /// Unfused `a × b + c`: the product rounded, then the sum (`v_mad_f32`,
    /// `v_mac_f32`, with MAD's denormal rule); integers (`v_mad_u16`,
    /// `v_pk_mad_i16`): the low bits of `a × b + c`.
    Mad,
    /// `a × b` with `0 × anything = +0` (DX9 rules, `v_mul_legacy_f32`,
    /// gfx11 `v_mul_dx9_zero_f32`).
    MulLegacy,
    /// [`Family::Mad`] with the DX9 product: `c` when `a` or `b` is zero
    /// (`v_mad_legacy_f32`, `v_mac_legacy_f32`).
    MadLegacy,
    /// [`Family::Fma`] with the DX9 product: `c` when `a` or `b` is zero
    /// (`v_fma_legacy_f32`, gfx11 `v_fma_dx9_zero_f32`).
    FmaLegacy,
    /// `a − floor(a)`.
    Fract,
    /// Round down to an integer.
    Floor,
    /// Round up.
    Ceil,
    /// Round toward zero.
    Trunc,
    /// Round to nearest, ties to even.
    Rndne,
    /// The significand in [0.5, 1).
    FrexpMant,
    /// The exponent as a 32-bit integer.
    FrexpExp,
    /// `a × 2^b` (`b` a 32-bit integer).
    Ldexp,
    /// `1 / a`.
    Rcp,
    /// `1 / sqrt(a)`.
    Rsq,
    /// `sqrt(a)`.
    Sqrt,
    /// `2^a`.
    Exp,
    /// `log2(a)`.
    Log,
    /// `sin(2π a)`.
    Sin,
    /// `cos(2π a)`.
    Cos,
    /// `v_div_scale`: `a` scaled for the division `b / c`'s Newton steps;
    /// bit: the quotient must be scaled back (VCC).
    DivScale,
    /// `v_div_fmas`: `fma(a, b, c)` scaled by 2^±64 when `k`.
    DivFmas,
    /// `v_div_fixup`: the quotient `a` of `c / b` with special cases fixed.
    DivFixup,
    /// Convert to `to` (the function's type is the source's): integer ↔ float
    /// with the target's rounding and clamping, float ↔ float.
    Cvt(Ty),
    /// Two f32 → packed f16, rounded toward zero (`v_cvt_pkrtz_f16_f32`).
    CvtPkrtz,
    /// Two 16-bit values → one dword, `a` low (`v_pack_b32_f16`, `s_pack_ll`).
    Pack,
    /// Two 32-bit integers → one dword of two 16-bit integers, `a` low, each
    /// saturated to the 16-bit range of the function's type
    /// (`v_cvt_pk_u16_u32`, `v_cvt_pk_i16_i32`).
    CvtPkSat,
    /// `s_wqm`: each nibble set when any of its bits is.
    Wqm,
    /// `s_quadmask`: bit i set when nibble i has any bit set.
    QuadMask,
    /// An integer dot product (`v_dot2_i32_i16`, `v_dot4_u32_u8`,
    /// `v_dot8_i32_iu4`, …): `c + Σ a_i × b_i` over the elements packed in
    /// `a` and `b` (see [`DotShape`]), exact, then the result's low 32 bits
    /// (CLAMP: saturated to the type's range).
    Dot(DotShape),
}

/// The elements of a dot product: `32 / bits` of `bits` each, element `i` in
/// bits `[i × bits, (i + 1) × bits)` of each input (AMD Vega ISA
/// V_DOT4_I32_I8: "D.i = S0.i\[7:0\] * S1.i\[7:0\] + … + S2.i"; RDNA3 ISA
/// V_DOT4_I32_IU8, whose NEG_LO bits 0 and 1 make src0's and src1's
/// elements signed, LLVM `llvm.amdgcn.sudot4`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DotShape {
    /// Bits per element: 4, 8 or 16.
    pub bits: u8,
    /// Bit 0: `a`'s elements are signed; bit 1: `b`'s.
    pub signed: u8,
}

impl DotShape {
    /// The shape's code for the WGSL library's `sub` argument: the bits,
    /// the signedness above them.
    pub fn code(self) -> u32 {
        u32::from(self.bits) | u32::from(self.signed) << 8
    }
}

/// A function: what it does and what type it does it on. Its twins are
/// `cpu::alu::eval` and the WGSL function [`AluFn::wgsl_name`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AluFn {
    /// The operation.
    pub family: Family,
    /// The type of its inputs.
    pub ty: Ty,
}

/// How many values a function reads and writes, and their types.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Signature {
    /// The value inputs `a`, `b`, `c`, in order (`None` past the last).
    pub inputs: [Option<Ty>; 3],
    /// True when the function reads a bit `k`.
    pub bit_in: bool,
    /// The value output, if any.
    pub output: Option<Ty>,
    /// True when the function may write a bit.
    pub bit_out: bool,
}

impl AluFn {
    /// A function.
    pub const fn new(family: Family, ty: Ty) -> AluFn {
        AluFn { family, ty }
    }

    /// The function's inputs and outputs.
    pub fn signature(self) -> Signature {
        use Family::*;
        let t = Some(self.ty);
        let u32t = Some(Ty::U32);
        let (inputs, bit_in, output, bit_out): ([Option<Ty>; 3], bool, Option<Ty>, bool) =
            match self.family {
                Mov | Not | Brev | Abs | Sext8 | Sext16 | Fract | Floor | Ceil | Trunc | Rndne
                | FrexpMant | Rcp | Rsq | Sqrt | Exp | Log | Sin | Cos | Wqm => {
                    ([t, None, None], false, t, false)
                }
                // A bit output reports whether the result is nonzero (SCC).
                QuadMask => ([t, None, None], false, t, true),
                FrexpExp => ([t, None, None], false, Some(Ty::I32), false),
                // v_bcnt_u32_b32 adds its second source; the scalar forms
                // have one (the lowering passes 0).
                Bcnt1 | MbcntLo | MbcntHi => ([t, u32t, None], false, Some(Ty::U32), true),
                Bcnt0 | FindLsb | FindMsb | FindMsbSigned => {
                    ([t, None, None], false, Some(Ty::U32), true)
                }
                Add | Sub | Mul | MulHi | Min | Max | And | Or | Xor | Nand | Nor | Xnor
                | AndNot | OrNot | MulLegacy | Pack => ([t, t, None], false, t, true),
                Shl | Lshr | Ashr | BitSet | BitClear => ([t, u32t, None], false, t, true),
                Ldexp => ([t, Some(Ty::I32), None], false, t, false),
                Bfm => ([u32t, u32t, None], false, t, false),
                Mul24 | MulHi24 => ([t, t, None], false, Some(Ty::U32), false),
                Mad24 => ([t, t, Some(Ty::U32)], false, Some(Ty::U32), false),
                MadWide => {
                    let half = if self.ty == Ty::I64 { Ty::I32 } else { Ty::U32 };
                    ([Some(half), Some(half), t], false, t, true)
                }
                AddCarry | SubBorrow => ([t, t, None], true, t, true),
                Add3 | LshlAdd | AddLshl | LshlOr | AndOr | Or3 | Xor3 | XorAdd | Med3 | Min3
                | Max3 | MinMax | MaxMin | Bfi | Fma | Mad | MadLegacy | FmaLegacy | DivFixup
                | Dot(_) => ([t, t, t], false, t, false),
                Bfe => ([t, u32t, u32t], false, t, true),
                AlignBit | AlignByte | Perm => ([t, t, u32t], false, t, false),
                BitTest | BitTest0 => ([t, u32t, None], false, None, true),
                Cmp(_) => ([t, t, None], false, None, true),
                Class => ([t, u32t, None], false, None, true),
                Cndmask => ([t, t, None], true, t, false),
                Select => ([t, t, None], true, t, false),
                DivScale => ([t, t, t], false, t, true),
                DivFmas => ([t, t, t], true, t, false),
                Cvt(to) => ([t, None, None], false, Some(to), false),
                CvtPkrtz | CvtPkSat => ([t, t, None], false, Some(Ty::B32), false),
            };
        Signature {
            inputs,
            bit_in,
            output,
            bit_out,
        }
    }

    /// Whether gcnrun has a written rule for the function
    /// (docs/semantics/programs.md): the lowering refuses the others by name
    /// before a run, so that a program either runs whole or not at all.
    pub fn defined(self) -> bool {
        use Family::*;
        match self.family {
            // The DX9 multiplies exist on f32 (`v_mad_legacy_f16` is another
            // thing: gfx9's high-half rule).
            MulLegacy | MadLegacy | FmaLegacy => self.ty == Ty::F32,
            // Integer multiply-add: the 16-bit one (`v_mad_u16`); the mixed
            // `v_mad_u32_u16` / `v_mad_i32_i16` are Mad24 on 16-bit factors.
            Mad if !self.ty.is_float() => self.ty.bits() == 16,
            // The 24-bit multiplies on 32-bit types; the multiply-add also
            // on 16-bit ones (16-bit factors, a 32-bit addend and sum).
            Mul24 | MulHi24 => matches!(self.ty, Ty::U32 | Ty::I32),
            Mad24 => matches!(self.ty, Ty::U32 | Ty::I32 | Ty::U16 | Ty::I16),
            // v_exp, v_log, v_sin and v_cos exist on f16 and f32.
            Exp | Log | Sin | Cos => self.ty != Ty::F64,
            // Integer dot products; the float ones (`v_dot2_f32_f16`, …) have
            // no public rule for their intermediate rounding.
            Dot(s) => matches!(self.ty, Ty::U32 | Ty::I32) && matches!(s.bits, 4 | 8 | 16),
            // Integer → float: the pairs `cpu::alu::float::from_int_bits` has.
            Cvt(to) if to.is_float() && !self.ty.is_float() => matches!(
                (self.ty, to),
                (Ty::I32 | Ty::U32, Ty::F32 | Ty::F64) | (Ty::I16 | Ty::U16, Ty::F16 | Ty::F32)
            ),
            _ => true,
        }
    }

    /// Whether the VOP3 `clamp` bit has a rule on this integer function: it
    /// saturates the exact result to the type's range instead of wrapping
    /// (`cpu::alu::int::saturate`). LLVM selects the saturating adds
    /// (`uadd.sat`, `sadd.sat`, `usub.sat`, `ssub.sat`) to these with clamp
    /// (AMDGPU `HasIntClamp`; `V_ADD_U32_e64 ... clamp`).
    pub fn saturates(self) -> bool {
        use Family::*;
        !self.ty.is_float()
            && self.ty.bits() <= 32
            && match self.family {
                Add | Sub | AddCarry | SubBorrow | Dot(_) => true,
                Mad => self.ty.bits() == 16,
                _ => false,
            }
    }

    /// The layout the ABS/NEG source modifiers act on: the type of a float
    /// function, and f32 (f16) for `v_cndmask_b32` (`_b16`), a move whose
    /// modifiers the ISA defines as float ones (RDNA3 ISA V_CNDMASK_B32:
    /// "suitable for negating or taking the absolute value of a
    /// floating-point value"); `None` for integer functions.
    pub fn modifier_type(self) -> Option<Ty> {
        match (self.family, self.ty) {
            (_, t) if t.is_float() => Some(t),
            (Family::Cndmask, Ty::B32) => Some(Ty::F32),
            (Family::Cndmask, Ty::B16) => Some(Ty::F16),
            _ => None,
        }
    }

    /// The name of the WGSL twin (`alu_add_u32`, `alu_cmp_lt_f32`,
    /// `alu_cvt_f32_i32` for a conversion from i32 to f32).
    pub fn wgsl_name(self) -> String {
        let family = match self.family {
            Family::Cmp(r) => format!("cmp_{}", format!("{r:?}").to_lowercase()),
            Family::Cvt(to) => format!("cvt_{}", to.name()),
            Family::Dot(d) => format!("dot{}", 32 / u32::from(d.bits.max(1))),
            f => snake(&format!("{f:?}")),
        };
        format!("alu_{family}_{}", self.ty.name())
    }
}

/// `MulHi24` → `mul_hi24`.
fn snake(camel: &str) -> String {
    let mut out = String::new();
    for (i, c) in camel.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            out.push('_');
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}

/// Where an ALU result goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dst {
    /// A register (the first of the value's slots).
    Reg(Reg),
    /// SCC (a scalar unit's bit).
    Scc,
    /// A lane mask in SGPRs `s[n]`, `s[n+1]` (wave64) or `s[n]` (wave32).
    Mask(Reg),
    /// EXEC as a lane mask, and optionally another mask beside it
    /// (`v_cmpx` on gfx6–gfx9 writes VCC too).
    Exec(Option<Reg>),
}

/// Source modifiers and output modifiers of a float operation (AMD VOP3),
/// and the 16-bit half selections (VOP3 OP_SEL on gfx9+).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Mods {
    /// Bit n: take the absolute value of input n.
    pub abs: u8,
    /// Bit n: negate input n (after `abs`).
    pub neg: u8,
    /// Clamp the result to [0, 1] (integers: saturate).
    pub clamp: bool,
    /// Output multiplier: 0 none, 1 ×2, 2 ×4, 3 ÷2.
    pub omod: u8,
    /// Bit n: input n reads the high 16 bits of its slot; bit 3: the result
    /// goes to the high half of the destination (the low half is kept).
    pub op_sel: u8,
}

/// VOP3P packed math (AMD Vega ISA, the VOP3P encoding's OP_SEL, OP_SEL_HI,
/// NEG_LO and NEG_HI fields; CLRX GcnInstrsVop3p): the 16-bit function runs
/// once for each half of the 32-bit result. The low result reads, for input
/// n, the half [`Mods::op_sel`] bit n selects, negated when [`Mods::neg`] bit
/// n (`neg_lo`) is set; the high result reads the half `op_sel_hi` bit n
/// selects, negated when `neg_hi` bit n is set. Inputs are the whole 32-bit operand: an inline constant is its
/// 32-bit value (a float constant's 16-bit pattern in the low half, 0 above;
/// an integer constant sign-extended), as LLVM's code generator relies on
/// (`<half 1.0, half 0.0>` is `1.0` with the default `op_sel_hi`, a splat
/// needs `op_sel_hi:0`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Packed {
    /// Bit n: the high result reads input n's high half.
    pub op_sel_hi: u8,
    /// Bit n: the high result negates input n (floats only).
    pub neg_hi: u8,
}

/// VOP3P mixed precision (`v_fma_mix_f32`, `v_fma_mixlo_f16`,
/// `v_fma_mixhi_f16`, gfx9's `v_mad_mix*`; LLVM VOP3PInstructions.td and
/// its selection patterns, `fpround (fma (fpext a), (fpext b), (fpext c))`):
/// an f32 function whose input n is, where bit n of `f16_inputs` (OP_SEL_HI)
/// is set, the f16 in the half OP_SEL bit n picks, converted exactly to f32
/// (as `v_cvt_f32_f16` under MODE), else its 32-bit register; ABS and NEG
/// act on the f32 input. With `f16_result` the f32 result is rounded to f16
/// (as `v_cvt_f16_f32`) and written to the low half, or the high one with
/// OP_SEL bit 3 (`mixhi`), the other half kept.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Mix {
    /// Bit n: input n is an f16 half.
    pub f16_inputs: u8,
    /// The result is rounded to f16 into one half of the destination.
    pub f16_result: bool,
}

/// A lane shuffle on input `a` (AMD DPP16/DPP8): which lane each lane reads it
/// from, and which lanes write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dpp {
    /// DPP16: `ctrl` (the DPP_CTRL encoding), row and bank write masks,
    /// `bound_ctrl` (a lane whose source is out of range or disabled reads 0),
    /// `fi` (fetch inactive lanes).
    Dpp16 {
        /// DPP_CTRL.
        ctrl: u16,
        /// Rows that write.
        row_mask: u8,
        /// Banks that write.
        bank_mask: u8,
        /// Out-of-range sources read 0 instead of disabling the lane.
        bound_ctrl: bool,
        /// Inactive source lanes are read.
        fi: bool,
    },
    /// DPP8: lane `8k + i` reads lane `8k + sel[i]`.
    Dpp8 {
        /// Source lane per lane of each group of eight.
        sel: [u8; 8],
        /// Inactive source lanes are read.
        fi: bool,
    },
}

/// Sub-dword operand selection (AMD SDWA).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sdwa {
    /// Per input: 0–3 byte n, 4–5 word n, 6 the dword.
    pub src_sel: [u8; 2],
    /// Per input: sign-extend the selection (else zero-extend).
    pub sext: [bool; 2],
    /// Where the result goes: as `src_sel`.
    pub dst_sel: u8,
    /// The destination's other bits: 0 zero them, 1 sign-extend, 2 keep.
    pub dst_unused: u8,
}

/// One ALU operation.
#[derive(Clone, Debug, PartialEq)]
pub struct AluOp {
    /// What it computes.
    pub func: AluFn,
    /// Scalar or vector.
    pub unit: Unit,
    /// The inputs `a`, `b`, `c` (as many as the signature reads).
    pub src: [Operand; 3],
    /// The bit input `k`: SCC for a scalar unit, a lane mask for a vector one.
    pub bit_src: Option<Operand>,
    /// Where the value goes, if the instruction keeps it.
    pub dst: Option<Dst>,
    /// Where the bit goes, if the instruction keeps it.
    pub bit_dst: Option<Dst>,
    /// VOP3 modifiers.
    pub mods: Mods,
    /// VOP3P packed math: the 16-bit function runs twice, once per half of
    /// the 32-bit result (see [`Packed`]).
    pub packed: Option<Packed>,
    /// VOP3P mixed precision (see [`Mix`]).
    pub mix: Option<Mix>,
    /// A lane shuffle on the encoded first source: input `dpp_input` (0,
    /// or 1 for the `*rev` forms, whose encoded sources are swapped).
    pub dpp: Option<Dpp>,
    /// The input [`AluOp::dpp`] shuffles.
    pub dpp_input: usize,
    /// Sub-dword selection.
    pub sdwa: Option<Sdwa>,
    /// A 16-bit vector result keeps the high half of its register (gfx10+)
    /// instead of zeroing it (gfx8/gfx9); set by the lowering.
    pub high_kept16: bool,
}

impl AluOp {
    /// A plain operation: no modifiers, no bit input or output.
    pub fn new(func: AluFn, unit: Unit, dst: Option<Dst>, src: &[Operand]) -> AluOp {
        let mut s = [Operand::Const(0); 3];
        for (slot, v) in s.iter_mut().zip(src) {
            *slot = *v;
        }
        AluOp {
            func,
            unit,
            src: s,
            bit_src: None,
            dst,
            bit_dst: None,
            mods: Mods::default(),
            packed: None,
            mix: None,
            dpp: None,
            dpp_input: 0,
            sdwa: None,
            high_kept16: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wgsl_names_follow_the_function() {
        assert_eq!(AluFn::new(Family::Add, Ty::U32).wgsl_name(), "alu_add_u32");
        assert_eq!(
            AluFn::new(Family::MulHi24, Ty::I32).wgsl_name(),
            "alu_mul_hi24_i32"
        );
        assert_eq!(
            AluFn::new(Family::Cmp(Rel::Nge), Ty::F32).wgsl_name(),
            "alu_cmp_nge_f32"
        );
        assert_eq!(
            AluFn::new(Family::Cvt(Ty::F32), Ty::I32).wgsl_name(),
            "alu_cvt_f32_i32"
        );
    }

    #[test]
    fn signatures_match_the_families() {
        let s = AluFn::new(Family::AddCarry, Ty::U32).signature();
        assert!(s.bit_in && s.bit_out);
        assert_eq!(s.inputs, [Some(Ty::U32), Some(Ty::U32), None]);
        let s = AluFn::new(Family::MadWide, Ty::U64).signature();
        assert_eq!(s.inputs, [Some(Ty::U32), Some(Ty::U32), Some(Ty::U64)]);
        assert_eq!(s.output, Some(Ty::U64));
        let s = AluFn::new(Family::Cmp(Rel::Lt), Ty::F64).signature();
        assert_eq!(s.output, None);
        assert!(s.bit_out);
        assert_eq!(Rel::ALL.iter().position(|&r| r == Rel::Nlt), Some(14));
    }
}
