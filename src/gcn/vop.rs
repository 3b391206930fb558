//! Vector ALU: VOP1, VOP2, VOPC and their SDWA/DPP16/DPP8 forms, VOP3 (with
//! VOP3B, and the VOP3 forms of VOP1/VOP2/VOPC), VOP3P, and gfx11's VOP3/VOP3P
//! DPP forms — operand by operand, in LLVM 19 syntax.
//!
//! The operands of each opcode (which fields, how many registers, how constants
//! are typed) and which modifier bits it has are signature rows measured from
//! llvm-mc-19 ([`super::signature`]); this module reads the modifier fields and
//! spells them as LLVM's `AMDGPUInstPrinter` does:
//!
//! - source modifiers: `-x` (or `neg(c)` for a constant), `|x|`, `sext(x)`;
//! - VOP3: `op_sel:[…]` (one entry per source, plus the destination where the
//!   opcode has a destination select), `clamp`, `mul:2`/`mul:4`/`div:2`;
//! - VOP3P: `op_sel`, `op_sel_hi` (default 1 for packed math), `neg_lo`,
//!   `neg_hi`, `clamp`;
//! - SDWA: `clamp`, omod, `dst_sel`, `dst_unused`, `src0_sel`, `src1_sel`;
//! - DPP16: the control, `row_mask`, `bank_mask`, `bound_ctrl:1`, `fi:1`;
//!   DPP8: `dpp8:[…]`, `fi:1`.
//!
//! Where LLVM decodes an extended form (SDWA, DPP) only if the extension dword
//! is valid and otherwise the 32-bit form with the extension code in SRC0
//! ignored (`v_nop`), [`decode`] does the same.

use super::decoded::{Dpp, DstUnused, Omod, Sdwa, SdwaSel, Src};
use super::encoded::Encoded;
use super::encoding::{SRC_DPP, SRC_DPP8, SRC_SDWA};
use super::operand::{decode_code, Operand, TypedOperand};
use super::signature::{self, accept, row_flags, Fld, Form, Slot};
use super::vop_ext::{dpp16_suffix, dpp8_suffix, sdwa_sel, sdwa_unused};
use super::{Encoding, Field};
use crate::arch::{Arch, Gen};

/// A decoded vector ALU instruction: its raw encoding and, filled when it is
/// decoded, its operands and modifiers as LLVM prints them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Vop {
    /// Form, signature row, raw bits (DPP/SDWA dword included), literal.
    pub enc: Encoded,
    /// The mnemonic as LLVM prints it for this form (`v_add_f32_e32`,
    /// `v_add_f32_sdwa`, `v_add_f32_e64_dpp`, …).
    pub name: &'static str,
    /// The destinations, in LLVM's order: the vector (or, for
    /// `v_readlane_b32`, `v_readfirstlane_b32` and compares, scalar)
    /// destination, then a scalar carry-out or compare mask. An implicit VCC
    /// destination (VOPC, VOP2 carry-out) is [`Fld::Vcc`] `vcc` (`vcc_lo` in
    /// gfx10+ wave32).
    pub dst: Vec<TypedOperand>,
    /// The sources, in LLVM's order, with their input modifiers: SRC0, SRC1
    /// (or VSRC1), SRC2; an implicit carry-in or select VCC ([`Fld::Vcc`]);
    /// the K constant of `v_madmk`/`v_madak`/`v_fmamk`/`v_fmaak` ([`Fld::Imm`],
    /// a literal).
    pub src: Vec<Src>,
    /// `clamp`.
    pub clamp: bool,
    /// The output modifier (VOP3, SDWA).
    pub omod: Omod,
    /// `op_sel` (VOP3 gfx9+, VOP3P): sources 0–2 and, last, the destination
    /// (VOP3). `v_permlane16_b32`/`v_permlanex16_b32` hold FI and BOUND_CTRL
    /// in entries 0 and 1.
    pub op_sel: [bool; 4],
    /// VOP3P `op_sel_hi` of sources 0–2 (1 where packed math leaves it out).
    pub op_sel_hi: [bool; 3],
    /// The SDWA selects (SDWA forms).
    pub sdwa: Option<Sdwa>,
    /// The DPP16 or DPP8 extension (DPP forms).
    pub dpp: Option<Dpp>,
}

/// Modifiers of one source operand.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SrcMods {
    /// Negate (VOP3P packed: the low half, `neg_lo`).
    pub neg: bool,
    /// Absolute value (VOP3P packed: `neg_hi`, the high half's negate).
    pub abs: bool,
    /// Sign-extend (SDWA integer operands).
    pub sext: bool,
}

fn sdwa_form(f: Form) -> bool {
    matches!(f, Form::Vop1Sdwa | Form::Vop2Sdwa | Form::VopcSdwa)
}

fn dpp16_form(f: Form) -> bool {
    matches!(
        f,
        Form::Vop1Dpp | Form::Vop2Dpp | Form::VopcDpp | Form::Vop3Dpp | Form::Vop3pDpp
    )
}

fn dpp8_form(f: Form) -> bool {
    matches!(
        f,
        Form::Vop1Dpp8 | Form::Vop2Dpp8 | Form::VopcDpp8 | Form::Vop3Dpp8 | Form::Vop3pDpp8
    )
}

/// The DPP forms of the 32-bit encodings (VOP1, VOP2, VOPC), whose DPP
/// word has no clamp or output modifier.
fn dpp32_form(f: Form) -> bool {
    (dpp16_form(f) || dpp8_form(f)) && !vop3_form(f) && !vop3p_form(f)
}

fn vop3_form(f: Form) -> bool {
    matches!(f, Form::Vop3 | Form::Vop3b | Form::Vop3Dpp | Form::Vop3Dpp8)
}

fn vop3p_form(f: Form) -> bool {
    matches!(f, Form::Vop3p | Form::Vop3pDpp | Form::Vop3pDpp8)
}

/// The source index (0–2) of a slot field.
fn src_index(f: Fld) -> Option<usize> {
    match f {
        Fld::Src0 => Some(0),
        Fld::Src1 | Fld::Vsrc1 => Some(1),
        Fld::Src2 => Some(2),
        _ => None,
    }
}

impl Vop {
    /// The instruction of `enc`, its decoded fields not yet filled.
    fn raw(enc: Encoded) -> Vop {
        Vop {
            enc,
            name: enc.row.name,
            dst: Vec::new(),
            src: Vec::new(),
            clamp: false,
            omod: Omod::None,
            op_sel: [false; 4],
            op_sel_hi: [false; 3],
            sdwa: None,
            dpp: None,
        }
    }

    /// Fills the decoded fields from the raw encoding (after validation).
    fn filled(mut self) -> Vop {
        let gen = self.enc.gen;
        let f = self.form();
        let (mut dst, mut src) = (Vec::new(), Vec::new());
        let mut after_src = false;
        for s in self.enc.row.opds {
            let slot = if s.field == Fld::Vcc && self.vopc_sdwa_sdst() {
                match self.sdst_slot() {
                    Some(x) => x,
                    None => continue,
                }
            } else {
                *s
            };
            let opd = match slot.field {
                Fld::Vcc => Some(TypedOperand {
                    field: Fld::Vcc,
                    operand: Operand::Special(if gen >= Gen::Gfx10 {
                        super::operand::Special::VccLo
                    } else {
                        super::operand::Special::Vcc
                    }),
                    ty: slot.ty,
                }),
                Fld::Imm => self.enc.literal.map(|v| TypedOperand {
                    field: Fld::Imm,
                    operand: Operand::Literal(v),
                    ty: slot.ty,
                }),
                _ => self
                    .operand_of(&slot)
                    .ok()
                    .flatten()
                    .map(|operand| TypedOperand {
                        field: slot.field,
                        operand,
                        ty: slot.ty,
                    }),
            };
            let Some(opd) = opd else { continue };
            if let Some(i) = src_index(slot.field) {
                after_src = true;
                let m = self.src_mods(i);
                let packed = vop3p_form(f) && self.enc.row.flags & row_flags::MIX_MODS == 0;
                src.push(Src {
                    opd,
                    neg: m.neg,
                    abs: m.abs && !packed,
                    sext: m.sext,
                    neg_hi: m.abs && packed,
                });
            } else if slot.field == Fld::Imm || slot.field == Fld::Vcc && after_src {
                src.push(Src::plain(opd));
            } else {
                dst.push(opd);
            }
        }
        self.dst = dst;
        self.src = src;
        self.clamp = self.clamp();
        self.omod = Omod::from_bits(self.omod());
        if vop3_form(f) && !self.sdst_in_8_14() || vop3p_form(f) {
            let permlane = self.name.starts_with("v_permlane16_b32")
                || self.name.starts_with("v_permlanex16_b32");
            for (i, b) in (11..15).enumerate() {
                self.op_sel[i] = if permlane {
                    self.enc.bit(b)
                } else {
                    self.on(b)
                };
            }
            if vop3p_form(f) {
                self.op_sel[3] = false;
            }
        }
        if vop3p_form(f) {
            let packed = self.enc.row.flags & row_flags::PACKED != 0;
            for (i, b) in [59, 60, 14].into_iter().enumerate() {
                self.op_sel_hi[i] = if self.printed(b) {
                    self.enc.bit(b)
                } else {
                    packed
                };
            }
        }
        if sdwa_form(f) {
            let has = |fl: Fld| self.slot(fl).is_some();
            let vop_dst = f != Form::VopcSdwa && has(Fld::Vdst);
            self.sdwa = Some(Sdwa {
                dst_sel: vop_dst
                    .then(|| SdwaSel::from_bits(self.enc.bits(40, 3)))
                    .flatten(),
                dst_unused: vop_dst.then(|| match self.enc.bits(43, 2) {
                    1 => DstUnused::Sext,
                    2 => DstUnused::Preserve,
                    _ => DstUnused::Pad,
                }),
                src0_sel: has(Fld::Src0)
                    .then(|| SdwaSel::from_bits(self.enc.bits(48, 3)))
                    .flatten(),
                src1_sel: has(Fld::Vsrc1)
                    .then(|| SdwaSel::from_bits(self.enc.bits(56, 3)))
                    .flatten(),
            });
        }
        let b = self.dpp_bits();
        if dpp16_form(f) {
            self.dpp = Some(Dpp::Dpp16 {
                ctrl: self.enc.bits(b, 9) as u16,
                fi: gen >= Gen::Gfx10 && self.enc.bit(b + 10),
                bound_ctrl: self.enc.bit(b + 11),
                bank_mask: self.enc.bits(b + 16, 4) as u8,
                row_mask: self.enc.bits(b + 20, 4) as u8,
            });
        } else if dpp8_form(f) {
            let mut lanes = [0u8; 8];
            for (i, l) in lanes.iter_mut().enumerate() {
                *l = self.enc.bits(b + 3 * i as u32, 3) as u8;
            }
            self.dpp = Some(Dpp::Dpp8 {
                lanes,
                fi: self.enc.bits(b - 40, 9) == SRC_DPP8[1],
            });
        }
        self
    }

    /// The form.
    pub fn form(&self) -> Form {
        self.enc.form
    }

    /// The opcode.
    pub fn op(&self) -> u32 {
        self.enc.op()
    }

    /// The mnemonic as LLVM prints it for this form.
    pub fn mnemonic(&self) -> &'static str {
        self.enc.row.name
    }

    fn printed(&self, bit: u32) -> bool {
        self.enc.row.bits.printed >> bit & 1 == 1
    }

    /// `bit` is set and is a modifier this opcode prints.
    fn on(&self, bit: u32) -> bool {
        self.enc.bit(bit) && self.printed(bit)
    }

    /// The first bit of the DPP16 control (after the source byte).
    fn dpp_bits(&self) -> u32 {
        match self.form() {
            Form::Vop3Dpp | Form::Vop3pDpp | Form::Vop3Dpp8 | Form::Vop3pDpp8 => 72,
            _ => 40,
        }
    }

    /// The modifiers of source `i` (0–2).
    pub fn src_mods(&self, i: usize) -> SrcMods {
        let i = i as u32;
        let f = self.form();
        let mix = self.enc.row.flags & row_flags::MIX_MODS != 0;
        // VOP3P: NEG_LO and NEG_HI sit where VOP3 has NEG and ABS.
        let (neg, abs, sext) = if vop3_form(f) || vop3p_form(f) {
            (61 + i, 8 + i, None)
        } else if sdwa_form(f) {
            match i {
                0 => (52, 53, Some(51)),
                _ => (60, 61, Some(59)),
            }
        } else if dpp16_form(f) && i < 2 {
            // Only src0 and src1 have modifier bits in the DPP word (bits
            // 59:56 are the bank mask).
            (52 + 2 * i, 53 + 2 * i, None)
        } else {
            return SrcMods::default();
        };
        if vop3p_form(f) && !mix {
            return SrcMods {
                neg: self.on(neg),
                abs: self.on(abs),
                sext: false,
            };
        }
        // Integer operands of VOP3 and DPP forms: the negate bit is sext.
        let int = self.enc.row.flags & (row_flags::SEXT0 << i) != 0 && sext.is_none();
        SrcMods {
            neg: self.on(neg) && !int,
            abs: self.on(abs) && !self.sdst_in_8_14(),
            sext: sext.is_some_and(|b| self.on(b)) || int && self.on(neg),
        }
    }

    /// Bits 14:8 are a scalar destination (VOP3B, and the VOP3B opcodes' gfx11
    /// DPP forms), not abs/op_sel.
    fn sdst_in_8_14(&self) -> bool {
        let f = self.form();
        f == Form::Vop3b || dpp_b(f) && self.slot(Fld::Sdst).is_some()
    }

    /// Clamp (VOP3: bit 15; bit 11 on gfx6/gfx7).
    pub fn clamp(&self) -> bool {
        match self.form() {
            // The 32-bit encodings' DPP forms have no clamp (bit 15 belongs
            // to VOP1's opcode or VOP2's VSRC1).
            f if dpp32_form(f) => false,
            f if sdwa_form(f) => self.on(45),
            _ if self.enc.gen <= Gen::Gfx7 => self.on(11),
            _ => self.on(15),
        }
    }

    /// Output modifier (0 none, 1 ×2, 2 ×4, 3 ÷2).
    pub fn omod(&self) -> u32 {
        if self.form() == Form::VopcSdwa || dpp32_form(self.form()) || vop3p_form(self.form()) {
            // VOPC SDWA: bits 47:46 are SD and SDST; the 32-bit DPP words
            // have no output modifier; VOP3P holds OP_SEL_HI there.
            return 0;
        }
        let lo = if sdwa_form(self.form()) { 46 } else { 59 };
        if self.printed(lo) || self.printed(lo + 1) {
            self.enc.bits(lo, 2)
        } else {
            0
        }
    }

    /// The slot whose field is `f`, if the opcode prints it.
    fn slot(&self, f: Fld) -> Option<&'static Slot> {
        self.enc.row.opds.iter().find(|s| s.field == f)
    }

    /// The code of a slot, with the SDWA scalar-source bits (gfx9+: S0 bit 55,
    /// S1 bit 63) turning a VGPR byte into a scalar code.
    fn code(&self, slot: &Slot) -> Option<u32> {
        if sdwa_form(self.form()) && self.enc.gen >= Gen::Gfx9 {
            match slot.field {
                Fld::Src0 if self.enc.bit(55) => return Some(self.enc.bits(32, 8)),
                Fld::Vsrc1 if self.enc.bit(63) => return Some(self.enc.bits(9, 8)),
                Fld::Sdst if !self.enc.bit(47) => return None,
                _ => {}
            }
        }
        self.enc.code(slot)
    }

    /// Decodes a slot's operand: the slot's own rules, and for an SDWA source
    /// made scalar by its S bit, what LLVM takes there (SGPRs and the special
    /// registers, inline constants; no literal).
    fn operand_of(&self, slot: &Slot) -> Result<Option<Operand>, String> {
        let Some(code) = self.code(slot) else {
            return Ok(None);
        };
        let gen = self.enc.gen;
        let scalar_sdwa = sdwa_form(self.form())
            && gen >= Gen::Gfx9
            && match slot.field {
                Fld::Src0 => self.enc.bit(55),
                Fld::Vsrc1 => self.enc.bit(63),
                _ => false,
            };
        if scalar_sdwa {
            let accepts = accept::ALL & !(accept::VGPR | accept::LITERAL);
            return decode_code(code, slot.regs, accepts, None, gen).map(Some);
        }
        signature::decode_slot(slot, code, self.enc.literal, gen).map(Some)
    }

    /// The operands with a register field, in LLVM's order, typed (the VOPC
    /// SDWA scalar destination where bit 47 selects it). Source modifiers:
    /// [`Vop::src_mods`].
    pub fn operands(&self) -> Vec<TypedOperand> {
        let mut out = Vec::new();
        for s in self.enc.row.opds {
            let slot = if s.field == Fld::Vcc && self.vopc_sdwa_sdst() {
                match self.sdst_slot() {
                    Some(x) => x,
                    None => continue,
                }
            } else {
                *s
            };
            if let Ok(Some(operand)) = self.operand_of(&slot) {
                out.push(TypedOperand {
                    field: slot.field,
                    operand,
                    ty: slot.ty,
                });
            }
        }
        out
    }

    /// VOPC SDWA with SD set (gfx9+): the destination is SDST, not VCC.
    fn vopc_sdwa_sdst(&self) -> bool {
        self.form() == Form::VopcSdwa && self.enc.gen >= Gen::Gfx9 && self.enc.bit(47)
    }

    fn sdst_slot(&self) -> Option<Slot> {
        Some(Slot {
            field: Fld::Sdst,
            regs: 2,
            ty: signature::Ty::B64,
            accepts: accept::SGPR
                | accept::VCC
                | accept::EXEC
                | accept::M0
                | accept::NULL
                | accept::FLAT_SCRATCH,
            mask: true,
        })
    }

    fn src_text(&self, slot: &Slot) -> String {
        let gen = self.enc.gen;
        let Ok(Some(op)) = self.operand_of(slot) else {
            return String::new();
        };
        let t = op.text(slot.ty, gen);
        let Some(i) = src_index(slot.field) else {
            return t;
        };
        let m = self.src_mods(i);
        let packed = vop3p_form(self.form()) && self.enc.row.flags & row_flags::MIX_MODS == 0;
        if packed {
            return t;
        }
        let mut t = if m.abs { format!("|{t}|") } else { t };
        if m.neg {
            t = if !m.abs && op.is_constant() {
                format!("neg({t})")
            } else {
                format!("-{t}")
            };
        }
        if m.sext {
            t = format!("sext({t})");
        }
        t
    }

    /// The number of source operands LLVM lists in packed modifiers: the
    /// op_sel entry count where the row has one (tied sources count), else the
    /// printed sources.
    fn nsrc(&self) -> usize {
        match self.opsel_count() {
            0 => self
                .enc
                .row
                .opds
                .iter()
                .filter(|s| src_index(s.field).is_some())
                .count(),
            n => n,
        }
    }

    /// [`row_flags::OPSEL_SHIFT`]: entries of `op_sel:[…]`, 0 without op_sel.
    fn opsel_count(&self) -> usize {
        usize::from((self.enc.row.flags >> row_flags::OPSEL_SHIFT) & 7)
    }

    /// `name:[a,b,…]` over the sources' bits (`bits[i]` for source i), plus
    /// `extra`; empty when every value is `default`.
    fn packed_list(&self, name: &str, bits: [u32; 3], extra: Option<u32>, default: bool) -> String {
        let n = self.nsrc().min(3);
        let listed = || bits[..n].iter().chain(extra.iter());
        // A list the opcode does not have (its bits ignored) is not printed.
        if !listed().any(|&b| self.printed(b)) {
            return String::new();
        }
        let vals: Vec<bool> = listed()
            .map(|&b| {
                if self.printed(b) {
                    self.enc.bit(b)
                } else {
                    default
                }
            })
            .collect();
        if vals.iter().all(|&v| v == default) {
            return String::new();
        }
        let s: Vec<&str> = vals.iter().map(|&v| if v { "1" } else { "0" }).collect();
        format!(" {name}:[{}]", s.join(","))
    }

    fn omod_text(&self) -> &'static str {
        match self.omod() {
            1 => " mul:2",
            2 => " mul:4",
            3 => " div:2",
            _ => "",
        }
    }

    /// The modifier suffix (everything after the operands).
    fn suffix(&self) -> Result<String, String> {
        let f = self.form();
        let gen = self.enc.gen;
        let mut s = String::new();
        if vop3_form(f) {
            let name = self.mnemonic();
            if name.starts_with("v_permlane16_b32") || name.starts_with("v_permlanex16_b32") {
                // FI and BOUND_CTRL in the op_sel bits of src0/src1 (LLVM
                // `isPermlane16`).
                if self.enc.bit(11) || self.enc.bit(12) {
                    s.push_str(&format!(
                        " op_sel:[{},{}]",
                        u8::from(self.enc.bit(11)),
                        u8::from(self.enc.bit(12))
                    ));
                }
            } else if !self.sdst_in_8_14() {
                let n = self.opsel_count();
                if n > 0 {
                    // Sources (tied ones included) then the destination select.
                    let dst = self.printed(14);
                    let nsrc = n - usize::from(dst);
                    // A bit the opcode ignores counts as clear.
                    let mut vals: Vec<bool> =
                        (0..nsrc.min(3)).map(|i| self.on(11 + i as u32)).collect();
                    if dst {
                        vals.push(self.on(14));
                    }
                    if vals.iter().any(|&v| v) {
                        let t: Vec<&str> =
                            vals.iter().map(|&v| if v { "1" } else { "0" }).collect();
                        s.push_str(&format!(" op_sel:[{}]", t.join(",")));
                    }
                }
            }
            if self.clamp() {
                s.push_str(" clamp");
            }
            s.push_str(self.omod_text());
        } else if vop3p_form(f) {
            let packed = self.enc.row.flags & row_flags::PACKED != 0;
            let mix = self.enc.row.flags & row_flags::MIX_MODS != 0;
            s.push_str(&self.packed_list("op_sel", [11, 12, 13], None, false));
            s.push_str(&self.packed_list("op_sel_hi", [59, 60, 14], None, packed));
            if !mix {
                s.push_str(&self.packed_list("neg_lo", [61, 62, 63], None, false));
                s.push_str(&self.packed_list("neg_hi", [8, 9, 10], None, false));
            }
            if self.clamp() {
                s.push_str(" clamp");
            }
        } else if sdwa_form(f) {
            if self.clamp() {
                s.push_str(" clamp");
            }
            s.push_str(self.omod_text());
            let has = |fl: Fld| self.slot(fl).is_some();
            if f != Form::VopcSdwa && has(Fld::Vdst) {
                s.push_str(&format!(" dst_sel:{}", sdwa_sel(self.enc.bits(40, 3))?));
                s.push_str(&format!(
                    " dst_unused:{}",
                    sdwa_unused(self.enc.bits(43, 2))
                ));
            }
            if has(Fld::Src0) {
                s.push_str(&format!(" src0_sel:{}", sdwa_sel(self.enc.bits(48, 3))?));
            }
            if has(Fld::Vsrc1) {
                s.push_str(&format!(" src1_sel:{}", sdwa_sel(self.enc.bits(56, 3))?));
            }
        }
        if dpp16_form(f) {
            s.push(' ');
            s.push_str(&dpp16_suffix(self.enc.bits(self.dpp_bits(), 24), gen)?);
        } else if dpp8_form(f) {
            let fi = self.enc.bits(self.dpp_bits() - 40, 9) == SRC_DPP8[1];
            s.push(' ');
            s.push_str(&dpp8_suffix(self.enc.bits(self.dpp_bits(), 24), fi));
        }
        Ok(s)
    }

    /// LLVM 19 syntax.
    pub fn text(&self) -> String {
        let mut parts = Vec::with_capacity(self.enc.row.opds.len());
        for s in self.enc.row.opds {
            let t = match s.field {
                Fld::Vcc if self.vopc_sdwa_sdst() => self
                    .sdst_slot()
                    .and_then(|x| self.operand_of(&x).ok().flatten())
                    .map(|o| o.text(signature::Ty::B64, self.enc.gen))
                    .unwrap_or_default(),
                Fld::Vcc => self.enc.slot_text(s),
                // The K constant of v_madmk/v_madak/v_fmamk/v_fmaak: hex.
                Fld::Imm => self
                    .enc
                    .literal
                    .map(|v| format!("0x{v:x}"))
                    .unwrap_or_default(),
                _ => self.src_text(s),
            };
            parts.push(t);
        }
        let suffix = self.suffix().unwrap_or_default();
        if parts.is_empty() {
            let suffix = suffix.trim_start();
            if suffix.is_empty() {
                self.mnemonic().to_string()
            } else {
                format!("{} {suffix}", self.mnemonic())
            }
        } else {
            format!("{} {}{suffix}", self.mnemonic(), parts.join(", "))
        }
    }

    /// Raw fields by their ISA names.
    pub fn fields(&self) -> Vec<Field> {
        let f = self.form();
        let e = &self.enc;
        let mut v = vec![Field::int("op", e.op())];
        for p in e.layout().fields {
            if p.field != Fld::Sdst || self.slot(Fld::Sdst).is_some() || f == Form::VopcSdwa {
                v.push(Field::int(p.field.name(), p.get(e.bits)));
            }
        }
        if vop3_form(f) || vop3p_form(f) {
            if !self.sdst_in_8_14() {
                v.push(Field::int(
                    if vop3p_form(f) { "neg_hi" } else { "abs" },
                    e.bits(8, 3),
                ));
                v.push(Field::int("op_sel", e.bits(11, 4)));
            }
            v.push(Field::int(
                "clamp",
                e.bits(if e.gen <= Gen::Gfx7 { 11 } else { 15 }, 1),
            ));
            if vop3p_form(f) {
                v.push(Field::int("op_sel_hi", e.bits(59, 2) | e.bits(14, 1) << 2));
                v.push(Field::int("neg_lo", e.bits(61, 3)));
            } else {
                v.push(Field::int("omod", e.bits(59, 2)));
                v.push(Field::int("neg", e.bits(61, 3)));
            }
        }
        if sdwa_form(f) {
            v.push(Field::int("dst_sel", e.bits(40, 3)));
            v.push(Field::int("dst_unused", e.bits(43, 2)));
            v.push(Field::int("clamp", e.bits(45, 1)));
            v.push(Field::int("omod", e.bits(46, 2)));
            v.push(Field::int("src0_sel", e.bits(48, 3)));
            v.push(Field::int("src0_sext", e.bits(51, 1)));
            v.push(Field::int("src0_neg", e.bits(52, 1)));
            v.push(Field::int("src0_abs", e.bits(53, 1)));
            v.push(Field::int("s0", e.bits(55, 1)));
            v.push(Field::int("src1_sel", e.bits(56, 3)));
            v.push(Field::int("src1_sext", e.bits(59, 1)));
            v.push(Field::int("src1_neg", e.bits(60, 1)));
            v.push(Field::int("src1_abs", e.bits(61, 1)));
            v.push(Field::int("s1", e.bits(63, 1)));
        }
        if dpp16_form(f) {
            let b = self.dpp_bits();
            v.push(Field::int("dpp_ctrl", e.bits(b, 9)));
            v.push(Field::int("fi", e.bits(b + 10, 1)));
            v.push(Field::int("bound_ctrl", e.bits(b + 11, 1)));
            if b == 40 {
                v.push(Field::int("src0_neg", e.bits(52, 1)));
                v.push(Field::int("src0_abs", e.bits(53, 1)));
                v.push(Field::int("src1_neg", e.bits(54, 1)));
                v.push(Field::int("src1_abs", e.bits(55, 1)));
            }
            v.push(Field::int("bank_mask", e.bits(b + 16, 4)));
            v.push(Field::int("row_mask", e.bits(b + 20, 4)));
        }
        if dpp8_form(f) {
            let b = self.dpp_bits();
            for i in 0..8 {
                v.push(Field::int(LANE_SEL[i as usize], e.bits(b + 3 * i, 3)));
            }
            let fi = e.bits(b - 40, 9) == SRC_DPP8[1];
            v.push(Field::int("fi", u32::from(fi)));
        }
        if let Some(l) = e.literal {
            v.push(Field::int("literal", l));
        }
        v
    }

    /// LLVM's decoder-level checks: the row's bits and every operand code.
    /// (Values its printer cannot spell are [`Vop::validate_text`]'s.)
    fn validate(&self) -> Result<(), String> {
        let e = &self.enc;
        let name = e.row.name;
        let mut bits = e.bits;
        if self.vopc_sdwa_sdst() {
            // SDST is a register field once SD selects it.
            bits &= !(0x7f << 40);
        }

        if !e.row.bits.accepts(bits) {
            let bad = bits & e.row.bits.checked & !(e.row.bits.printed | e.row.bits.ignored);
            return Err(format!("{name}: bits {bad:#x} are not accepted by LLVM"));
        }
        if e.row.literal && e.literal.is_none() {
            return Err(format!("{name}: missing literal"));
        }
        for s in e.row.opds {
            if s.field == Fld::Vcc && self.vopc_sdwa_sdst() {
                if let Some(x) = self.sdst_slot() {
                    self.operand_of(&x)
                        .map_err(|err| format!("{name}: sdst: {err}"))?;
                }
                continue;
            }
            self.operand_of(s)
                .map_err(|err| format!("{name}: {}: {err}", s.field.name()))?;
        }
        if e.gen <= Gen::Gfx7 && vop3_form(self.form()) {
            // SI/CI have no 16-bit inline constants in LLVM's operand rules: in
            // a VOP3 form llvm-mc-19 -mcpu=tahiti takes `21` or `2.0` in an f16
            // operand for a literal, which VOP3 cannot carry ("literal operands
            // are not supported"), so no text reassembles an inline constant
            // there. (The 32-bit forms encode them inline.)
            for s in e.row.opds {
                if matches!(s.ty, signature::Ty::F16 | signature::Ty::I16)
                    && matches!(
                        self.operand_of(s),
                        Ok(Some(Operand::Int(_) | Operand::Float(_)))
                    )
                {
                    return Err(format!("{name}: 16-bit inline constant on SI/CI"));
                }
            }
        }
        if e.gen <= Gen::Gfx7 && !self.constant_bus_ok() {
            return Err(format!("{name}: more than one scalar value (constant bus)"));
        }
        Ok(())
    }

    /// SI/CI, where "valid" means the text reassembles: llvm-mc-19 takes at
    /// most one scalar value per VALU instruction — one distinct SGPR or
    /// special register (an implicit VCC read included) or the literal
    /// (LLVM `validateConstantBusLimitations`; inline constants are free).
    fn constant_bus_ok(&self) -> bool {
        let mut regs: Vec<Operand> = Vec::new();
        let mut literal = false;
        let mut after_src = false;
        for s in self.enc.row.opds {
            let op = match s.field {
                // The carry-in / select VCC after the sources is a read.
                Fld::Vcc if after_src => Some(Operand::Special(super::operand::Special::Vcc)),
                Fld::Imm => {
                    literal = true;
                    None
                }
                // v_writelane_b32's lane select may be m0 beside a scalar
                // source (llvm-mc-19 -mcpu=tahiti takes `v_writelane_b32 v1,
                // s2, m0`, rejects `v_writelane_b32 v1, s2, s3`).
                Fld::Vsrc1 | Fld::Src1
                    if self.mnemonic().starts_with("v_writelane_b32")
                        && matches!(
                            self.operand_of(s),
                            Ok(Some(Operand::Special(super::operand::Special::M0)))
                        ) =>
                {
                    None
                }
                f if src_index(f).is_some() => {
                    after_src = true;
                    self.operand_of(s).ok().flatten()
                }
                _ => None,
            };
            match op {
                Some(Operand::Literal(_)) => literal = true,
                Some(o @ (Operand::Sgpr { .. } | Operand::Ttmp { .. } | Operand::Special(_)))
                    if !regs.contains(&o) =>
                {
                    regs.push(o)
                }
                _ => {}
            }
        }
        // v_div_fmas reads VCC, v_movrel* read M0, without printing them.
        use super::operand::Special;
        let implicit = if self.mnemonic().starts_with("v_div_fmas") {
            Some(Operand::Special(Special::Vcc))
        } else if self.mnemonic().starts_with("v_movrel") {
            Some(Operand::Special(Special::M0))
        } else {
            None
        };
        if let Some(r) = implicit {
            if !regs.contains(&r) {
                regs.push(r);
            }
        }
        regs.len() + usize::from(literal) <= 1
    }

    /// Values LLVM decodes but cannot print (an undefined DPP control, an SDWA
    /// select of 7): it prints a comment or crashes; gcnrun calls them invalid.
    fn validate_text(&self) -> Result<(), String> {
        self.suffix()
            .map(|_| ())
            .map_err(|err| format!("{}: {err}", self.enc.row.name))
    }
}

fn dpp_b(f: Form) -> bool {
    matches!(f, Form::Vop3Dpp | Form::Vop3Dpp8)
}

const LANE_SEL: [&str; 8] = [
    "lane_sel0",
    "lane_sel1",
    "lane_sel2",
    "lane_sel3",
    "lane_sel4",
    "lane_sel5",
    "lane_sel6",
    "lane_sel7",
];

/// Decodes `words` as `form`: `Err` at the decoder level (bits, operands),
/// `Ok(Err)` when LLVM decodes the words but cannot print them.
fn try_form(form: Form, words: &[u32], gen: Gen) -> Option<Result<Result<Vop, String>, String>> {
    Some(Encoded::new(form, words, gen)?.and_then(|enc| {
        let v = Vop::raw(enc);
        v.validate()
            .map(|()| v.validate_text().map(|()| v.filled()))
    }))
}

/// The outcome of decoding a vector ALU instruction: the instruction and the
/// dwords it takes (LLVM falls back to the 32-bit form, one dword, when an
/// SDWA/DPP extension does not decode and the opcode ignores SRC0).
pub type Decoded = (Vop, usize);

/// Decodes a VOP1/VOP2/VOPC/VOP3/VOP3P instruction whose dwords (literal and
/// extension included, as [`super::encoding::length_dwords`] measured them)
/// are `words`. `None` when the generation has no signature rows (gfx6/gfx7).
pub fn decode(enc: Encoding, words: &[u32], arch: &Arch) -> Option<Result<Decoded, String>> {
    let gen = arch.gen;
    let w0 = *words.first()?;
    let n = words.len();
    match enc {
        Encoding::Vop1 | Encoding::Vop2 | Encoding::Vopc => {
            let (e32, sdwa, dpp, dpp8) = match enc {
                Encoding::Vop1 => (Form::Vop1, Form::Vop1Sdwa, Form::Vop1Dpp, Form::Vop1Dpp8),
                Encoding::Vop2 => (Form::Vop2, Form::Vop2Sdwa, Form::Vop2Dpp, Form::Vop2Dpp8),
                _ => (Form::Vopc, Form::VopcSdwa, Form::VopcDpp, Form::VopcDpp8),
            };
            let src0 = w0 & 0x1ff;
            let ext = match src0 {
                SRC_SDWA => Some(sdwa),
                SRC_DPP => Some(dpp),
                s if SRC_DPP8.contains(&s) => Some(dpp8),
                _ => None,
            };
            if let (Some(form), 2) = (ext, n) {
                match try_form(form, words, gen) {
                    Some(Ok(r)) => return Some(r.map(|v| (v, 2))),
                    // LLVM's decoder did not take the extension: the 32-bit
                    // form, where the opcode ignores SRC0.
                    other => {
                        return match try_form(e32, &words[..1], gen)? {
                            Ok(r) => Some(r.map(|v| (v, 1))),
                            Err(e32_err) => Some(Err(match other {
                                Some(Err(e)) => e,
                                _ => e32_err,
                            })),
                        }
                    }
                }
            }
            Some(try_form(e32, words, gen)?.and_then(|r| r).map(|v| (v, n)))
        }
        Encoding::Vop3 | Encoding::Vop3p => {
            let p = enc == Encoding::Vop3p;
            let src0 = words.get(1).map_or(0, |w| w & 0x1ff);
            let form = if gen == Gen::Gfx11 && n >= 3 && src0 == SRC_DPP {
                if p {
                    Form::Vop3pDpp
                } else {
                    Form::Vop3Dpp
                }
            } else if gen == Gen::Gfx11 && n >= 3 && SRC_DPP8.contains(&src0) {
                if p {
                    Form::Vop3pDpp8
                } else {
                    Form::Vop3Dpp8
                }
            } else if p {
                Form::Vop3p
            } else {
                let op = if gen <= Gen::Gfx7 {
                    (w0 >> 17) & 0x1ff
                } else {
                    (w0 >> 16) & 0x3ff
                };
                if signature::lookup(gen, Form::Vop3b, op).is_some() {
                    Form::Vop3b
                } else {
                    Form::Vop3
                }
            };
            Some(try_form(form, words, gen)?.and_then(|r| r).map(|v| (v, n)))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(mcpu: &str, words: &[u32]) -> String {
        let arch = Arch::parse(mcpu).unwrap();
        let enc = super::super::encoding::classify(words, &arch);
        match decode(enc, words, &arch) {
            Some(Ok((v, _))) => v.text(),
            Some(Err(e)) => format!("invalid: {e}"),
            None => "none".into(),
        }
    }

    /// Texts llvm-mc-19 prints for these words.
    #[test]
    fn llvm_examples() {
        let cases: &[(&str, &[u32], &str)] = &[
            ("gfx900", &[0x0206_06f9, 0x0616_0602], "v_add_f32_sdwa v3, -v2, v3 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:DWORD"),
            ("gfx900", &[0xd1cb_0001, 0x0406_0702], "v_fma_f32 v1, v2, v3, v1"),
            ("gfx900", &[0x7e02_02fa, 0xff00_b102], "v_mov_b32_dpp v1, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf"),
        ];
        for &(mcpu, words, want) in cases {
            assert_eq!(text(mcpu, words), want, "{mcpu} {words:x?}");
        }
    }

    #[test]
    fn sdwa_select_7_is_invalid() {
        // llvm-objdump-19 crashes on it; gcnrun calls it invalid.
        assert!(text("gfx900", &[0x0206_06f9, 0x0616_0702]).starts_with("invalid"));
    }
}
