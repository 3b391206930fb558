//! Bit layouts of the operand-decoded encoding forms, per generation: where the
//! selector, the opcode and each register field sit. The same layouts drive
//! `tools/sweep_operands.py` (which measured the signature rows with them) and
//! the random encodings of `tests/llvm_diff_classes.rs`.
//!
//! Bits are numbered over the instruction's dwords as one integer: bit 32 is
//! bit 0 of dword 1 (a literal dword is not counted; on gfx11 VOP3 DPP the DPP
//! dword is dword 2).
//!
//! Sources: AMD ISA manuals (microcode formats), LLVM `*Instructions.td`
//! encodings; every position was checked by toggling it under llvm-mc-19.

use super::signature::{Fld, Form};
use crate::arch::Gen;

/// How a register field's raw value becomes an operand code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A 9-bit VOP source code (VGPRs are 256–511).
    Src9,
    /// An 8-bit field holding a VGPR number, or for scalar-destination opcodes
    /// (VOP3 `vdst` of compares and `v_readlane`) a scalar code.
    Reg8,
    /// A 7- or 8-bit scalar code (SDST, SSRC, SOFFSET).
    Scalar,
    /// SMEM `sbase`: an SGPR pair index (the code is twice the field).
    Sbase,
    /// MUBUF/MTBUF/MIMG `srsrc`: an SGPR quad index (four times the field).
    Srsrc,
}

/// One register field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FieldPos {
    /// The field.
    pub field: Fld,
    /// Lowest bit.
    pub lo: u32,
    /// Width in bits.
    pub width: u32,
    /// How its value becomes a code.
    pub kind: Kind,
}

impl FieldPos {
    /// The raw value in `bits`.
    pub fn get(&self, bits: u128) -> u32 {
        ((bits >> self.lo) & ((1u128 << self.width) - 1)) as u32
    }

    /// The field's mask over the instruction's bits.
    pub fn mask(&self) -> u128 {
        ((1u128 << self.width) - 1) << self.lo
    }
}

/// The layout of one form on one generation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Dwords without a literal.
    pub words: usize,
    /// Constant bits: the class selector (and, for SDWA/DPP forms, the `src0`
    /// code that selects them).
    pub base: u128,
    /// Mask of the constant bits.
    pub base_mask: u128,
    /// Opcode field pieces, low part first: `(lo, width)`.
    pub op: &'static [(u32, u32)],
    /// Register fields.
    pub fields: &'static [FieldPos],
}

impl Layout {
    /// The opcode (table key) in `bits`.
    pub fn op(&self, bits: u128) -> u32 {
        let mut v = 0;
        let mut shift = 0;
        for &(lo, w) in self.op {
            v |= (((bits >> lo) & ((1u128 << w) - 1)) as u32) << shift;
            shift += w;
        }
        v
    }

    /// `bits` with the opcode field set to `op`.
    pub fn with_op(&self, bits: u128, op: u32) -> u128 {
        let mut b = bits;
        let mut shift = 0;
        for &(lo, w) in self.op {
            let m = ((1u128 << w) - 1) << lo;
            b = (b & !m) | ((u128::from(op >> shift) << lo) & m);
            shift += w;
        }
        b
    }

    /// The position of a register field, if the form has it.
    pub fn field(&self, f: Fld) -> Option<&'static FieldPos> {
        self.fields.iter().find(|p| p.field == f)
    }
}

const fn fp(field: Fld, lo: u32, width: u32, kind: Kind) -> FieldPos {
    FieldPos {
        field,
        lo,
        width,
        kind,
    }
}

const fn top(n: u32) -> u128 {
    (((1u64 << n) - 1) << (32 - n)) as u128
}

use Kind::*;

const SOP1: &[FieldPos] = &[fp(Fld::Sdst, 16, 7, Scalar), fp(Fld::Ssrc0, 0, 8, Scalar)];
const SOP2: &[FieldPos] = &[
    fp(Fld::Sdst, 16, 7, Scalar),
    fp(Fld::Ssrc0, 0, 8, Scalar),
    fp(Fld::Ssrc1, 8, 8, Scalar),
];
const SOPK: &[FieldPos] = &[fp(Fld::Sdst, 16, 7, Scalar)];
const SOPC: &[FieldPos] = &[fp(Fld::Ssrc0, 0, 8, Scalar), fp(Fld::Ssrc1, 8, 8, Scalar)];
const SMEM8: &[FieldPos] = &[fp(Fld::Sdata, 6, 7, Scalar), fp(Fld::Sbase, 0, 6, Sbase)];
const SMEM9: &[FieldPos] = &[
    fp(Fld::Sdata, 6, 7, Scalar),
    fp(Fld::Sbase, 0, 6, Sbase),
    fp(Fld::Soffset, 57, 7, Scalar),
];
const VOP1: &[FieldPos] = &[fp(Fld::Vdst, 17, 8, Reg8), fp(Fld::Src0, 0, 9, Src9)];
const VOP2: &[FieldPos] = &[
    fp(Fld::Vdst, 17, 8, Reg8),
    fp(Fld::Src0, 0, 9, Src9),
    fp(Fld::Vsrc1, 9, 8, Reg8),
];
const VOPC: &[FieldPos] = &[fp(Fld::Src0, 0, 9, Src9), fp(Fld::Vsrc1, 9, 8, Reg8)];
const VOP1_EXT: &[FieldPos] = &[fp(Fld::Vdst, 17, 8, Reg8), fp(Fld::Src0, 32, 8, Reg8)];
const VOP2_EXT: &[FieldPos] = &[
    fp(Fld::Vdst, 17, 8, Reg8),
    fp(Fld::Vsrc1, 9, 8, Reg8),
    fp(Fld::Src0, 32, 8, Reg8),
];
const VOPC_EXT: &[FieldPos] = &[fp(Fld::Vsrc1, 9, 8, Reg8), fp(Fld::Src0, 32, 8, Reg8)];
const VOPC_SDWA9: &[FieldPos] = &[
    fp(Fld::Vsrc1, 9, 8, Reg8),
    fp(Fld::Src0, 32, 8, Reg8),
    fp(Fld::Sdst, 40, 7, Scalar),
];
const VOP3: &[FieldPos] = &[
    fp(Fld::Vdst, 0, 8, Reg8),
    fp(Fld::Src0, 32, 9, Src9),
    fp(Fld::Src1, 41, 9, Src9),
    fp(Fld::Src2, 50, 9, Src9),
];
const VOP3B: &[FieldPos] = &[
    fp(Fld::Vdst, 0, 8, Reg8),
    fp(Fld::Src0, 32, 9, Src9),
    fp(Fld::Src1, 41, 9, Src9),
    fp(Fld::Src2, 50, 9, Src9),
    fp(Fld::Sdst, 8, 7, Scalar),
];
/// gfx11 VOP3 DPP: SRC0 is the DPP dword's VGPR; bits 14:8 are SDST for the
/// VOP3B opcodes (their rows print it), modifiers otherwise.
const VOP3_DPP: &[FieldPos] = &[
    fp(Fld::Vdst, 0, 8, Reg8),
    fp(Fld::Src0, 64, 8, Reg8),
    fp(Fld::Src1, 41, 9, Src9),
    fp(Fld::Src2, 50, 9, Src9),
    fp(Fld::Sdst, 8, 7, Scalar),
];
const DS: &[FieldPos] = &[
    fp(Fld::Addr, 32, 8, Reg8),
    fp(Fld::Data0, 40, 8, Reg8),
    fp(Fld::Data1, 48, 8, Reg8),
    fp(Fld::Vdst, 56, 8, Reg8),
];
const BUF: &[FieldPos] = &[
    fp(Fld::Vaddr, 32, 8, Reg8),
    fp(Fld::Vdata, 40, 8, Reg8),
    fp(Fld::Srsrc, 48, 5, Srsrc),
    fp(Fld::Soffset, 56, 8, Scalar),
];
const FLAT8: &[FieldPos] = &[
    fp(Fld::Vaddr, 32, 8, Reg8),
    fp(Fld::Vdata, 40, 8, Reg8),
    fp(Fld::Vdst, 56, 8, Reg8),
];
const FLAT9: &[FieldPos] = &[
    fp(Fld::Vaddr, 32, 8, Reg8),
    fp(Fld::Vdata, 40, 8, Reg8),
    fp(Fld::Vdst, 56, 8, Reg8),
    fp(Fld::Saddr, 48, 7, Scalar),
];
const EXP: &[FieldPos] = &[
    fp(Fld::Vsrc0, 32, 8, Reg8),
    fp(Fld::Vsrc1, 40, 8, Reg8),
    fp(Fld::Vsrc2, 48, 8, Reg8),
    fp(Fld::Vsrc3, 56, 8, Reg8),
];

const fn l(
    words: usize,
    base: u128,
    base_mask: u128,
    op: &'static [(u32, u32)],
    fields: &'static [FieldPos],
) -> Layout {
    Layout {
        words,
        base,
        base_mask,
        op,
        fields,
    }
}

/// DPP16 dword defaults: row_mask 0xf, bank_mask 0xf, quad_perm identity.
const DPP_DEFAULT: u128 = 0xff << 56 | 0xe4 << 40;
/// `src0` selectors of the extended forms (bits 8:0 of dword 0).
const SEL_SDWA: u128 = 0xf9;
const SEL_DPP: u128 = 0xfa;
const SEL_DPP8: u128 = 0xe9;

/// The layout of `form` on `gen`, or `None` where the generation does not
/// have the form.
pub fn layout(gen: Gen, form: Form) -> Option<Layout> {
    let vi = matches!(gen, Gen::Gfx8 | Gen::Gfx9);
    let vop3 = if vi { 0xd000_0000 } else { 0xd400_0000 };
    let src0_sel = 0x1ff;
    let si = gen <= Gen::Gfx7;
    Some(match form {
        // gfx6/gfx7 (SI/CI) where they differ: VOP3 OP 25:17, DS OP 25:18,
        // MTBUF OP 18:16, EXP at 0xF8; no SDWA/DPP, no VOP3P; SMRD is its own
        // module (`smrd`).
        Form::Vop3 if si => l(2, 0xd000_0000, top(6), &[(17, 9)], VOP3),
        Form::Vop3b if si => l(2, 0xd000_0000, top(6), &[(17, 9)], VOP3B),
        Form::Ds if si => l(2, 0xd800_0000, top(6), &[(18, 8)], DS),
        Form::Mtbuf if si => l(2, 0xe800_0000, top(6), &[(16, 3)], BUF),
        Form::Flat if gen == Gen::Gfx7 => l(2, 0xdc00_0000, top(6), &[(18, 7)], FLAT8),
        Form::Exp if si => l(2, 0xf800_0000, top(6), &[], EXP),
        Form::Smem
        | Form::Flat
        | Form::Vop3p
        | Form::Vop1Sdwa
        | Form::Vop2Sdwa
        | Form::VopcSdwa
        | Form::Vop1Dpp
        | Form::Vop2Dpp
        | Form::VopcDpp
        | Form::Vop1Dpp8
        | Form::Vop2Dpp8
        | Form::VopcDpp8
            if si =>
        {
            return None
        }
        Form::Sop1 => l(1, 0xbe80_0000, top(9), &[(8, 8)], SOP1),
        Form::Sop2 => l(1, 0x8000_0000, top(2), &[(23, 7)], SOP2),
        Form::Sopk => l(1, 0xb000_0000, top(4), &[(23, 5)], SOPK),
        Form::Sopc => l(1, 0xbf00_0000, top(9), &[(16, 7)], SOPC),
        Form::Smem if vi => l(
            2,
            0xc000_0000,
            top(6),
            &[(18, 8)],
            if gen == Gen::Gfx8 { SMEM8 } else { SMEM9 },
        ),
        Form::Smem => l(2, 0xf400_0000, top(6), &[(18, 8)], SMEM9),
        Form::Vop1 => l(1, 0x7e00_0000, top(7), &[(9, 8)], VOP1),
        Form::Vop2 => l(1, 0, top(1), &[(25, 6)], VOP2),
        Form::Vopc => l(1, 0x7c00_0000, top(7), &[(17, 8)], VOPC),
        Form::Vop1Sdwa if gen <= Gen::Gfx10 => l(
            2,
            0x7e00_0000 | SEL_SDWA,
            top(7) | src0_sel,
            &[(9, 8)],
            VOP1_EXT,
        ),
        Form::Vop2Sdwa if gen <= Gen::Gfx10 => {
            l(2, SEL_SDWA, top(1) | src0_sel, &[(25, 6)], VOP2_EXT)
        }
        Form::VopcSdwa if gen <= Gen::Gfx10 => l(
            2,
            0x7c00_0000 | SEL_SDWA,
            top(7) | src0_sel,
            &[(17, 8)],
            if gen == Gen::Gfx8 {
                VOPC_EXT
            } else {
                VOPC_SDWA9
            },
        ),
        Form::Vop1Dpp => l(
            2,
            0x7e00_0000 | SEL_DPP | DPP_DEFAULT,
            top(7) | src0_sel,
            &[(9, 8)],
            VOP1_EXT,
        ),
        Form::Vop2Dpp => l(
            2,
            SEL_DPP | DPP_DEFAULT,
            top(1) | src0_sel,
            &[(25, 6)],
            VOP2_EXT,
        ),
        Form::VopcDpp if gen == Gen::Gfx11 => l(
            2,
            0x7c00_0000 | SEL_DPP | DPP_DEFAULT,
            top(7) | src0_sel,
            &[(17, 8)],
            VOPC_EXT,
        ),
        Form::Vop1Dpp8 if gen >= Gen::Gfx10 => l(
            2,
            0x7e00_0000 | SEL_DPP8,
            top(7) | 0x1fe,
            &[(9, 8)],
            VOP1_EXT,
        ),
        Form::Vop2Dpp8 if gen >= Gen::Gfx10 => l(2, SEL_DPP8, top(1) | 0x1fe, &[(25, 6)], VOP2_EXT),
        Form::VopcDpp8 if gen == Gen::Gfx11 => l(
            2,
            0x7c00_0000 | SEL_DPP8,
            top(7) | 0x1fe,
            &[(17, 8)],
            VOPC_EXT,
        ),
        Form::Vop3 => l(2, vop3, top(6), &[(16, 10)], VOP3),
        Form::Vop3b => l(2, vop3, top(6), &[(16, 10)], VOP3B),
        Form::Vop3p if gen == Gen::Gfx9 => l(2, 0xd380_0000, top(9), &[(16, 7)], VOP3),
        Form::Vop3p if gen >= Gen::Gfx10 => l(2, 0xcc00_0000, top(9), &[(16, 7)], VOP3),
        Form::Vop3Dpp if gen == Gen::Gfx11 => l(
            3,
            vop3 | SEL_DPP << 32 | DPP_DEFAULT << 32,
            top(6) | src0_sel << 32,
            &[(16, 10)],
            VOP3_DPP,
        ),
        Form::Vop3Dpp8 if gen == Gen::Gfx11 => l(
            3,
            vop3 | SEL_DPP8 << 32,
            top(6) | 0x1fe << 32,
            &[(16, 10)],
            VOP3_DPP,
        ),
        Form::Vop3pDpp if gen == Gen::Gfx11 => l(
            3,
            0xcc00_0000 | SEL_DPP << 32 | DPP_DEFAULT << 32,
            top(9) | src0_sel << 32,
            &[(16, 7)],
            VOP3_DPP,
        ),
        Form::Vop3pDpp8 if gen == Gen::Gfx11 => l(
            3,
            0xcc00_0000 | SEL_DPP8 << 32,
            top(9) | 0x1fe << 32,
            &[(16, 7)],
            VOP3_DPP,
        ),
        Form::Ds if vi => l(2, 0xd800_0000, top(6), &[(17, 8)], DS),
        Form::Ds => l(2, 0xd800_0000, top(6), &[(18, 8)], DS),
        Form::Mubuf if gen == Gen::Gfx11 => l(2, 0xe000_0000, top(6), &[(18, 8)], BUF),
        // gfx10: OP[7] is bit 25 (the D16 buffer ops, 0x80+).
        Form::Mubuf if gen == Gen::Gfx10 => l(
            2,
            0xe000_0000,
            top(6) & !(1 << 25),
            &[(18, 7), (25, 1)],
            BUF,
        ),
        Form::Mubuf => l(2, 0xe000_0000, top(6), &[(18, 7)], BUF),
        Form::Mtbuf if gen == Gen::Gfx10 => l(2, 0xe800_0000, top(6), &[(16, 3), (53, 1)], BUF),
        Form::Mtbuf => l(2, 0xe800_0000, top(6), &[(15, 4)], BUF),
        Form::Flat if gen == Gen::Gfx8 => l(2, 0xdc00_0000, top(6), &[(18, 7)], FLAT8),
        Form::Flat if gen == Gen::Gfx11 => l(2, 0xdc00_0000, top(6), &[(18, 7), (16, 2)], FLAT9),
        Form::Flat => l(2, 0xdc00_0000, top(6), &[(18, 7), (14, 2)], FLAT9),
        Form::Exp if vi => l(2, 0xc400_0000, top(6), &[], EXP),
        Form::Exp => l(2, 0xf800_0000, top(6), &[], EXP),
        _ => return None,
    })
}
