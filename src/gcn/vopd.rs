//! gfx11 VOPD: two VALU operations in one instruction (`v_dual_X … :: v_dual_Y …`).
//!
//! Layout (two dwords, plus a literal): SRCX0 8:0, VSRCX1 16:9, OPY 21:17,
//! OPX 25:22, selector 31:26 = `110010`; SRCY0 40:32, VSRCY1 48:41, VDSTY
//! 55:49 (the Y destination is `VDSTY << 1 | !(VDSTX & 1)`), VDSTX 63:56. One
//! 32-bit literal serves both halves (a SRC0 of 255, and the K constant of
//! fmaak/fmamk).
//!
//! The operation tables were swept with llvm-mc-19 -mcpu=gfx1100 over every
//! OPX (0–15) and OPY (0–31). LLVM rejects a single-source operation whose
//! VSRC1 field is not zero.

use super::operand::{decode_code, Operand, TypedOperand};
use super::signature::{accept, Fld, Ty};
use super::Field;
use crate::arch::{Arch, Gen};

/// The shape of one VOPD half's operands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// `vdst, src0, vsrc1`.
    Two,
    /// `vdst, src0` (v_dual_mov_b32).
    One,
    /// `vdst, src0, vsrc1, K` (fmaak).
    Aak,
    /// `vdst, src0, K, vsrc1` (fmamk).
    Amk,
}

/// One VOPD operation: opcode, mnemonic, operand shape, SRC0 type. (When the
/// other half is fmaak/fmamk, LLVM 19 reads the shared literal as that half's
/// 32-bit K and prints dot2acc's SRC0 literal as a 32-bit constant:
/// [`Half::src0_ty`].)
pub type DualOp = (u32, &'static str, Shape, Ty);

/// The X operations (OPX).
pub const X_OPS: &[DualOp] = &[
    (0, "v_dual_fmac_f32", Shape::Two, Ty::B32),
    (1, "v_dual_fmaak_f32", Shape::Aak, Ty::B32),
    (2, "v_dual_fmamk_f32", Shape::Amk, Ty::B32),
    (3, "v_dual_mul_f32", Shape::Two, Ty::B32),
    (4, "v_dual_add_f32", Shape::Two, Ty::B32),
    (5, "v_dual_sub_f32", Shape::Two, Ty::B32),
    (6, "v_dual_subrev_f32", Shape::Two, Ty::B32),
    (7, "v_dual_mul_dx9_zero_f32", Shape::Two, Ty::B32),
    (8, "v_dual_mov_b32", Shape::One, Ty::B32),
    (9, "v_dual_cndmask_b32", Shape::Two, Ty::B32),
    (10, "v_dual_max_f32", Shape::Two, Ty::B32),
    (11, "v_dual_min_f32", Shape::Two, Ty::B32),
    (12, "v_dual_dot2acc_f32_f16", Shape::Two, Ty::V2F16),
];

/// The Y operations (OPY): the X list plus three integer operations.
pub const Y_OPS: &[DualOp] = &[
    (0, "v_dual_fmac_f32", Shape::Two, Ty::B32),
    (1, "v_dual_fmaak_f32", Shape::Aak, Ty::B32),
    (2, "v_dual_fmamk_f32", Shape::Amk, Ty::B32),
    (3, "v_dual_mul_f32", Shape::Two, Ty::B32),
    (4, "v_dual_add_f32", Shape::Two, Ty::B32),
    (5, "v_dual_sub_f32", Shape::Two, Ty::B32),
    (6, "v_dual_subrev_f32", Shape::Two, Ty::B32),
    (7, "v_dual_mul_dx9_zero_f32", Shape::Two, Ty::B32),
    (8, "v_dual_mov_b32", Shape::One, Ty::B32),
    (9, "v_dual_cndmask_b32", Shape::Two, Ty::B32),
    (10, "v_dual_max_f32", Shape::Two, Ty::B32),
    (11, "v_dual_min_f32", Shape::Two, Ty::B32),
    (12, "v_dual_dot2acc_f32_f16", Shape::Two, Ty::V2F16),
    (16, "v_dual_add_nc_u32", Shape::Two, Ty::B32),
    (17, "v_dual_lshlrev_b32", Shape::Two, Ty::B32),
    (18, "v_dual_and_b32", Shape::Two, Ty::B32),
];

/// One half of a decoded VOPD instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Half {
    /// The operation.
    pub op: &'static DualOp,
    /// Destination VGPR.
    pub vdst: u32,
    /// SRC0 code (9 bits).
    pub src0: u32,
    /// VSRC1 VGPR.
    pub vsrc1: u32,
    /// The destination VGPR, typed.
    pub dst: TypedOperand,
    /// The sources in LLVM's order, typed: SRC0, VSRC1, the K constant of
    /// fmaak/fmamk ([`Fld::Imm`], a literal, in K's place: after VSRC1 for
    /// fmaak, before it for fmamk), and cndmask's implicit `vcc_lo`
    /// ([`Fld::Vcc`]).
    pub src: Vec<TypedOperand>,
}

/// A decoded VOPD instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Vopd {
    /// The X operation.
    pub x: Half,
    /// The Y operation.
    pub y: Half,
    /// The literal, if any.
    pub literal: Option<u32>,
}

/// Every source code SRC0 takes (VGPRs, SGPRs, special registers,
/// constants, the literal).
const SRC0: u16 = accept::ALL & !accept::FLAT_SCRATCH;

impl Half {
    /// The mnemonic.
    pub fn mnemonic(&self) -> &'static str {
        self.op.1
    }

    fn src0_operand(&self, literal: Option<u32>) -> Result<Operand, String> {
        decode_code(self.src0, 1, SRC0, literal, Gen::Gfx11)
    }

    /// SRC0's type beside `other`: a packed operand reads a literal shared with
    /// an fmaak/fmamk K as a 32-bit one.
    pub fn src0_ty(&self, other: &Half) -> Ty {
        match (self.op.3, other.op.2) {
            (Ty::V2F16, Shape::Aak | Shape::Amk) => Ty::B32,
            (t, _) => t,
        }
    }

    fn text(&self, other: &Half, literal: Option<u32>) -> String {
        let g = Gen::Gfx11;
        let d = format!("v{}", self.vdst);
        let s0 = self
            .src0_operand(literal)
            .map(|o| o.text(self.src0_ty(other), g))
            .unwrap_or_default();
        let s1 = format!("v{}", self.vsrc1);
        let k = literal.map(|v| format!("0x{v:x}")).unwrap_or_default();
        let ops = match self.op.2 {
            Shape::Two => format!("{d}, {s0}, {s1}"),
            Shape::One => format!("{d}, {s0}"),
            Shape::Aak => format!("{d}, {s0}, {s1}, {k}"),
            Shape::Amk => format!("{d}, {s0}, {k}, {s1}"),
        };
        format!("{} {ops}", self.op.1)
    }

    /// The typed sources beside `other` ([`Half::src`]).
    fn sources(&self, other: &Half, literal: Option<u32>) -> Vec<TypedOperand> {
        let mut out = Vec::new();
        if let Ok(o) = self.src0_operand(literal) {
            out.push(TypedOperand {
                field: Fld::Src0,
                operand: o,
                ty: self.src0_ty(other),
            });
        }
        let k = match (self.op.2, literal) {
            (Shape::Aak | Shape::Amk, Some(k)) => Some(TypedOperand {
                field: Fld::Imm,
                operand: Operand::Literal(k),
                ty: Ty::B32,
            }),
            _ => None,
        };
        if self.op.2 == Shape::Amk {
            out.extend(k);
        }
        if self.op.2 != Shape::One {
            out.push(TypedOperand {
                field: Fld::Vsrc1,
                operand: Operand::Vgpr {
                    first: self.vsrc1 as u8,
                    count: 1,
                },
                ty: self.op.3,
            });
        }
        if self.op.2 == Shape::Aak {
            out.extend(k);
        }
        if self.op.1 == "v_dual_cndmask_b32" {
            out.push(TypedOperand {
                field: Fld::Vcc,
                operand: Operand::Special(super::operand::Special::VccLo),
                ty: Ty::B32,
            });
        }
        out
    }

    /// The half's typed operands (the implicit VCC of cndmask not included).
    pub fn operands(&self, literal: Option<u32>) -> Vec<TypedOperand> {
        let v = |n: u32| Operand::Vgpr {
            first: n as u8,
            count: 1,
        };
        let mut out = vec![TypedOperand {
            field: Fld::Vdst,
            operand: v(self.vdst),
            ty: Ty::B32,
        }];
        if let Ok(o) = self.src0_operand(literal) {
            out.push(TypedOperand {
                field: Fld::Src0,
                operand: o,
                ty: self.op.3,
            });
        }
        if self.op.2 != Shape::One {
            out.push(TypedOperand {
                field: Fld::Vsrc1,
                operand: v(self.vsrc1),
                ty: self.op.3,
            });
        }
        if let (Shape::Aak | Shape::Amk, Some(k)) = (self.op.2, literal) {
            out.push(TypedOperand {
                field: Fld::Imm,
                operand: Operand::Literal(k),
                ty: Ty::B32,
            });
        }
        out
    }
}

impl Vopd {
    /// Both mnemonics: `v_dual_X::v_dual_Y`.
    pub fn mnemonic(&self) -> &'static str {
        self.x.op.1
    }

    /// LLVM 19 syntax.
    pub fn text(&self) -> String {
        format!(
            "{} :: {}",
            self.x.text(&self.y, self.literal),
            self.y.text(&self.x, self.literal)
        )
    }

    /// Raw fields.
    pub fn fields(&self) -> Vec<Field> {
        let mut f = vec![
            Field::int("opx", self.x.op.0),
            Field::int("opy", self.y.op.0),
            Field::int("srcx0", self.x.src0),
            Field::int("vsrcx1", self.x.vsrc1),
            Field::int("vdstx", self.x.vdst),
            Field::int("srcy0", self.y.src0),
            Field::int("vsrcy1", self.y.vsrc1),
            Field::int("vdsty", self.y.vdst >> 1),
        ];
        if let Some(l) = self.literal {
            f.push(Field::int("literal", l));
        }
        f
    }
}

/// Decodes a VOPD instruction (`words`: its dwords, literal included).
pub fn decode(words: &[u32], arch: &Arch) -> Result<Vopd, String> {
    if arch.gen != Gen::Gfx11 {
        return Err("VOPD exists on gfx11 only".into());
    }
    let (Some(&w0), Some(&w1)) = (words.first(), words.get(1)) else {
        return Err("truncated VOPD".into());
    };
    let opx = (w0 >> 22) & 0xf;
    let opy = (w0 >> 17) & 0x1f;
    let find = |t: &'static [DualOp], op: u32| t.iter().find(|o| o.0 == op);
    let xop = find(X_OPS, opx).ok_or_else(|| format!("VOPD OPX {opx} does not exist"))?;
    let yop = find(Y_OPS, opy).ok_or_else(|| format!("VOPD OPY {opy} does not exist"))?;
    let vdstx = w1 >> 24;
    let half = |op, vdst: u32, src0, vsrc1| Half {
        op,
        vdst,
        src0,
        vsrc1,
        dst: TypedOperand {
            field: Fld::Vdst,
            operand: Operand::Vgpr {
                first: vdst as u8,
                count: 1,
            },
            ty: Ty::B32,
        },
        src: Vec::new(),
    };
    let mut x = half(xop, vdstx, w0 & 0x1ff, (w0 >> 9) & 0xff);
    let mut y = half(
        yop,
        ((w1 >> 17) & 0x7f) << 1 | (!vdstx & 1),
        w1 & 0x1ff,
        (w1 >> 9) & 0xff,
    );
    let literal = words.get(2).copied();
    for h in [&x, &y] {
        if h.op.2 == Shape::One && h.vsrc1 != 0 {
            return Err(format!("{}: VSRC1 must be 0", h.op.1));
        }
        h.src0_operand(literal)
            .map_err(|e| format!("{}: src0: {e}", h.op.1))?;
    }
    x.src = x.sources(&y, literal);
    y.src = y.sources(&x, literal);
    Ok(Vopd { x, y, literal })
}
