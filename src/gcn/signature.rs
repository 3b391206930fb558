//! Operand signatures: for each opcode of each encoding form and generation,
//! the operands LLVM 19 prints (which encoding field each comes from, how many
//! registers it spans, how constants in it are typed) and which of the form's
//! other bits are modifiers, ignored, or illegal.
//!
//! The rows are DATA, measured from llvm-mc-19 by `tools/sweep_operands.py` into
//! [`super::signature_tables`]; this module holds their types and lookups. The
//! per-class decoders (`salu`, `smem`, `vop`, `ds`, `buffer`, `flat`, `exp`) read
//! fields by their layouts and let a row say what the fields mean.

use super::operand::{self, Operand};
use super::signature_tables as t;
use crate::arch::Gen;

/// How an operand types a constant: which bits an inline constant stands for
/// and how LLVM prints constants in it (LLVM `AMDGPUInstPrinter`
/// `printImmediate*`, measured per operand by the sweep).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    /// 32 bits, integer or float: inline floats are f32 bit patterns.
    B32,
    /// 16-bit float: inline floats are f16 bit patterns.
    F16,
    /// 16-bit integer: inline floats are f16 bit patterns, printed in hex.
    I16,
    /// 64-bit integer: inline floats are f64 bit patterns; a literal is
    /// zero-extended.
    B64,
    /// 64-bit float: inline floats are f64 bit patterns; a literal is the high
    /// dword.
    F64,
    /// Two packed f16.
    V2F16,
    /// Two packed 16-bit integers (printed as [`Ty::B32`]).
    V2I16,
    /// 16-bit bfloat.
    Bf16,
    /// Two packed bf16.
    V2Bf16,
}

impl Ty {
    /// Registers (dwords) one value of this type occupies.
    pub fn dwords(self) -> u8 {
        match self {
            Ty::B64 | Ty::F64 => 2,
            _ => 1,
        }
    }
}

/// The encoding field a printed operand comes from, or what an operand without
/// a field is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum Fld {
    Vdst,
    Sdst,
    Src0,
    Src1,
    Src2,
    /// VOP2/VOPC `vsrc1` (the second source of the 32-bit encodings).
    Vsrc1,
    Ssrc0,
    Ssrc1,
    Sdata,
    Sbase,
    Soffset,
    Addr,
    Data0,
    Data1,
    Vaddr,
    Vdata,
    Srsrc,
    Saddr,
    Vsrc0,
    Vsrc2,
    Vsrc3,
    /// An implicit `vcc` (wave64) / `vcc_lo` (wave32) operand.
    Vcc,
    /// An operand without a register field (an immediate, `off`, a literal, an
    /// export target): the class decoder prints it.
    Imm,
}

impl Fld {
    /// The field's ISA name in lower case (as `--json` `fields` names it).
    pub fn name(self) -> &'static str {
        match self {
            Fld::Vdst => "vdst",
            Fld::Sdst => "sdst",
            Fld::Src0 => "src0",
            Fld::Src1 => "src1",
            Fld::Src2 => "src2",
            Fld::Vsrc1 => "vsrc1",
            Fld::Ssrc0 => "ssrc0",
            Fld::Ssrc1 => "ssrc1",
            Fld::Sdata => "sdata",
            Fld::Sbase => "sbase",
            Fld::Soffset => "soffset",
            Fld::Addr => "addr",
            Fld::Data0 => "data0",
            Fld::Data1 => "data1",
            Fld::Vaddr => "vaddr",
            Fld::Vdata => "vdata",
            Fld::Srsrc => "srsrc",
            Fld::Saddr => "saddr",
            Fld::Vsrc0 => "vsrc0",
            Fld::Vsrc2 => "vsrc2",
            Fld::Vsrc3 => "vsrc3",
            Fld::Vcc => "vcc",
            Fld::Imm => "imm",
        }
    }
}

/// Which source codes an operand takes (bits of [`Slot::accepts`]), as the
/// sweep measured by placing each kind of code in the field.
pub mod accept {
    /// VGPRs (9-bit source codes 256–511, or any 8-bit VGPR field).
    pub const VGPR: u16 = 1 << 0;
    /// SGPRs and trap temporaries.
    pub const SGPR: u16 = 1 << 1;
    /// `vcc_lo`/`vcc_hi` (`vcc` for 64-bit operands).
    pub const VCC: u16 = 1 << 2;
    /// `m0`.
    pub const M0: u16 = 1 << 3;
    /// `null` (gfx8+).
    pub const NULL: u16 = 1 << 4;
    /// `exec_lo`/`exec_hi` (`exec`).
    pub const EXEC: u16 = 1 << 5;
    /// `src_shared_base` … `src_pops_exiting_wave_id` (235–239).
    pub const APERTURE: u16 = 1 << 6;
    /// `src_vccz`, `src_execz`, `src_scc` (251–253).
    pub const COND: u16 = 1 << 7;
    /// `src_lds_direct` (254).
    pub const LDS_DIRECT: u16 = 1 << 8;
    /// `flat_scratch`/`xnack_mask` halves (102–105 on gfx8/gfx9).
    pub const FLAT_SCRATCH: u16 = 1 << 9;
    /// Inline integer and float constants.
    pub const CONST: u16 = 1 << 10;
    /// A 32-bit literal (255).
    pub const LITERAL: u16 = 1 << 11;
    /// VGPRs above v127 (gfx11's 16-bit operands of the 32-bit encodings take
    /// v0–v127 only: LLVM's `VGPR_32_Lo128`).
    pub const VGPR_HI: u16 = 1 << 12;
    /// Everything a general source operand takes.
    pub const ALL: u16 = 0x1fff;
    /// 16-bit register halves (gfx11 `v_mov_b16`): a VGPR code's bit 7
    /// selects the high half, printed `vN.h` (else `vN.l`).
    pub const TRUE16: u16 = 1 << 13;
}

/// One printed operand of a signature row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Slot {
    /// The field it comes from.
    pub field: Fld,
    /// Registers it spans (wave64 count for lane masks; 0 for non-registers).
    pub regs: u8,
    /// How constants in it are typed.
    pub ty: Ty,
    /// Which codes it takes ([`accept`]).
    pub accepts: u16,
    /// A lane mask: one SGPR in wave32, two in wave64 (gfx10+ measure this;
    /// gfx8/gfx9 are wave64 only).
    pub mask: bool,
}

/// What LLVM does with each bit that is not selector, opcode or a printed
/// register field, for one opcode (bit 32 is bit 0 of dword 1, and so on).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Bits {
    /// Bits LLVM decodes and prints (modifiers).
    pub printed: u128,
    /// Bits LLVM decodes but neither prints nor re-encodes: text cannot carry
    /// them, so they do not survive a round trip through text.
    pub ignored: u128,
    /// Every bit the sweep toggled: the form's flag bits and the bits of the
    /// register fields this opcode does not print. A set bit in `checked` that
    /// is neither printed nor ignored makes LLVM reject the words.
    pub checked: u128,
    /// Checked bits the opcode requires set (the GDS bit of `ds_gws_*` and
    /// `ds_ordered_count`, …).
    pub fixed: u128,
}

impl Bits {
    /// True when LLVM accepts every bit of `words` that these bits speak for.
    pub fn accepts(&self, words: u128) -> bool {
        words & self.checked & !(self.printed | self.ignored | self.fixed) == 0
            && words & self.fixed == self.fixed
    }
}

/// One opcode of one encoding form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Row {
    /// The opcode (table key; FLAT: `seg << 7 | op`).
    pub op: u16,
    /// The mnemonic as LLVM prints it in this form (`v_add_f32_e32`,
    /// `v_add_f32_sdwa`, `v_add_f32_e64`, …).
    pub name: &'static str,
    /// The printed operands, in order.
    pub opds: &'static [Slot],
    /// Modifier and ignored bits.
    pub bits: &'static Bits,
    /// The opcode always carries a 32-bit literal (v_madmk_f32, v_fmaak_f32,
    /// s_setreg_imm32_b32, …).
    pub literal: bool,
    /// [`row_flags`].
    pub flags: u16,
}

/// Bits of [`Row::flags`].
pub mod row_flags {
    /// VOP3P packed math: `op_sel_hi` defaults to 1 (LLVM `IsPacked`).
    pub const PACKED: u16 = 1;
    /// VOP3P whose NEG_LO/NEG_HI bits are a source's neg and abs (the
    /// `v_fma_mix*`/`v_mad_mix*` family), printed `-` and `|…|`.
    pub const MIX_MODS: u16 = 2;
    /// Bits 6:4: how many entries LLVM prints in `op_sel:[…]` (its sources,
    /// tied ones included, plus the destination select where the opcode has
    /// one); 0 where the opcode has no op_sel.
    pub const OPSEL_SHIFT: u16 = 4;
    /// Bit 8 + i: source i's negate bit is an integer `sext(…)` (VOP3 and DPP
    /// forms of integer operands).
    pub const SEXT0: u16 = 1 << 8;
    /// DS: the offset is two 8-bit offsets, `offset0`/`offset1`.
    pub const DS_OFFSET2: u16 = 1 << 12;
    /// DS: the offset is `ds_swizzle_b32`'s pattern.
    pub const DS_SWIZZLE: u16 = 1 << 13;
    /// FLAT: bits 15:12 are the VGPR count of the destination a returning
    /// atomic (GLC set) prints first.
    pub const RTN_SHIFT: u16 = 12;
}

/// An encoding form: a class, or one of its extended variants.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum Form {
    Sop1,
    Sop2,
    Sopk,
    Sopc,
    Smem,
    Vop1,
    Vop2,
    Vopc,
    Vop1Sdwa,
    Vop2Sdwa,
    VopcSdwa,
    Vop1Dpp,
    Vop2Dpp,
    VopcDpp,
    Vop1Dpp8,
    Vop2Dpp8,
    VopcDpp8,
    Vop3,
    /// VOP3 with a scalar destination in bits 14:8 (carry out, `v_div_scale`).
    Vop3b,
    Vop3p,
    Vop3Dpp,
    Vop3Dpp8,
    Vop3pDpp,
    Vop3pDpp8,
    Ds,
    Mubuf,
    Mtbuf,
    Flat,
    Exp,
}

impl Form {
    /// Every form.
    pub const ALL: [Form; 29] = [
        Form::Sop1,
        Form::Sop2,
        Form::Sopk,
        Form::Sopc,
        Form::Smem,
        Form::Vop1,
        Form::Vop2,
        Form::Vopc,
        Form::Vop1Sdwa,
        Form::Vop2Sdwa,
        Form::VopcSdwa,
        Form::Vop1Dpp,
        Form::Vop2Dpp,
        Form::VopcDpp,
        Form::Vop1Dpp8,
        Form::Vop2Dpp8,
        Form::VopcDpp8,
        Form::Vop3,
        Form::Vop3b,
        Form::Vop3p,
        Form::Vop3Dpp,
        Form::Vop3Dpp8,
        Form::Vop3pDpp,
        Form::Vop3pDpp8,
        Form::Ds,
        Form::Mubuf,
        Form::Mtbuf,
        Form::Flat,
        Form::Exp,
    ];
}

/// The rows of a form on a generation, sorted by opcode, and the form's flag
/// bits (the bits whose rows' [`Bits`] speak).
pub fn rows(gen: Gen, form: Form) -> (&'static [Row], u128) {
    t::rows(gen, form)
}

/// The row of opcode `op` in a form, if LLVM decodes that opcode there.
pub fn lookup(gen: Gen, form: Form, op: u32) -> Option<&'static Row> {
    let (rows, _) = rows(gen, form);
    let op = u16::try_from(op).ok()?;
    rows.binary_search_by_key(&op, |r| r.op)
        .ok()
        .and_then(|i| rows.get(i))
}

/// Decodes the code in the field of slot `slot` (`literal`: the dword after the
/// instruction). Lane masks span one SGPR in LLVM's default wave32 mode on
/// gfx10+ ([`Slot::mask`]), two before.
pub fn decode_slot(
    slot: &Slot,
    code: u32,
    literal: Option<u32>,
    gen: Gen,
) -> Result<Operand, String> {
    let count = if slot.mask && gen >= Gen::Gfx10 {
        1
    } else {
        slot.regs
    };
    operand::decode_code(code, count, slot.accepts, literal, gen)
}
