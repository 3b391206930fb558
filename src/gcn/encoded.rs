//! What every operand-decoded instruction shares: its form, signature row,
//! generation, raw bits and literal; reading fields through the form's layout,
//! turning the row's slots into typed operands, and LLVM's validity rules for
//! them.

use super::layout::{self, Kind, Layout};
use super::operand::{Operand, TypedOperand};
use super::signature::{self, accept, Fld, Form, Row, Slot};
use crate::arch::Gen;

/// An instruction of one signature form, as encoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Encoded {
    /// The encoding form.
    pub form: Form,
    /// The opcode's signature row.
    pub row: &'static Row,
    /// The generation it was decoded for.
    pub gen: Gen,
    /// The instruction's dwords without the literal, as one integer (bit 32 =
    /// bit 0 of dword 1).
    pub bits: u128,
    /// The 32-bit literal that follows, if any.
    pub literal: Option<u32>,
}

/// The dwords of an instruction as one integer (at most four).
pub fn bits_of(words: &[u32]) -> u128 {
    words
        .iter()
        .take(4)
        .enumerate()
        .fold(0, |acc, (i, &w)| acc | u128::from(w) << (32 * i))
}

impl Encoded {
    /// Looks the opcode of `words` up in `form` and splits off the literal:
    /// `words` holds exactly the instruction (layout dwords, then a literal
    /// where it has one). `None` when the generation has no rows for the form.
    pub fn new(form: Form, words: &[u32], gen: Gen) -> Option<Result<Encoded, String>> {
        let lay = layout::layout(gen, form)?;
        let (rows, _) = signature::rows(gen, form);
        if rows.is_empty() {
            return None;
        }
        let n = lay.words.min(words.len());
        let bits = bits_of(&words[..n]);
        let literal = words.get(lay.words).copied();
        let op = lay.op(bits);
        Some(match signature::lookup(gen, form, op) {
            Some(row) => Ok(Encoded {
                form,
                row,
                gen,
                bits,
                literal,
            }),
            None => Err(format!(
                "{form:?} opcode {op:#x} is not an instruction of {}",
                gen.name()
            )),
        })
    }

    /// The form's layout (always present for a constructed `Encoded`).
    pub fn layout(&self) -> Layout {
        layout::layout(self.gen, self.form).unwrap_or(Layout {
            words: 1,
            base: 0,
            base_mask: 0,
            op: &[],
            fields: &[],
        })
    }

    /// The opcode.
    pub fn op(&self) -> u32 {
        u32::from(self.row.op)
    }

    /// A register field's raw value, where the form has the field.
    pub fn field(&self, f: Fld) -> Option<u32> {
        self.layout().field(f).map(|p| p.get(self.bits))
    }

    /// Bits `lo..lo+width` of the instruction.
    pub fn bits(&self, lo: u32, width: u32) -> u32 {
        ((self.bits >> lo) & ((1u128 << width) - 1)) as u32
    }

    /// Bit `b` of the instruction.
    pub fn bit(&self, b: u32) -> bool {
        (self.bits >> b) & 1 == 1
    }

    /// Bit `b` is set and the opcode prints it (a modifier it has; LLVM
    /// ignores the bit on opcodes without the modifier).
    pub fn on(&self, b: u32) -> bool {
        self.bit(b) && self.row.bits.printed >> b & 1 == 1
    }

    /// Bits `lo..lo+width`, where the opcode prints any of them, else 0.
    pub fn printed_bits(&self, lo: u32, width: u32) -> u32 {
        let m = ((1u128 << width) - 1) << lo;
        if self.row.bits.printed & m != 0 {
            self.bits(lo, width)
        } else {
            0
        }
    }

    /// The operand code in a slot's field: VGPR numbers become 256+n, SMEM
    /// `sbase` and buffer `srsrc` their first SGPR.
    pub fn code(&self, slot: &Slot) -> Option<u32> {
        let pos = self.layout().field(slot.field)?;
        let raw = pos.get(self.bits);
        Some(match pos.kind {
            Kind::Src9 | Kind::Scalar => raw,
            Kind::Reg8 if slot.accepts & accept::VGPR != 0 => 256 + raw,
            Kind::Reg8 => raw,
            Kind::Sbase => raw * 2,
            Kind::Srsrc => raw * 4,
        })
    }

    /// The operand in a slot (`None` for slots without a field, or a code LLVM
    /// rejects there).
    pub fn operand(&self, slot: &Slot) -> Option<Operand> {
        let code = self.code(slot)?;
        signature::decode_slot(slot, code, self.literal, self.gen).ok()
    }

    /// The operands with a register field, in LLVM's order, typed.
    pub fn operands(&self) -> Vec<TypedOperand> {
        self.row
            .opds
            .iter()
            .filter_map(|s| {
                Some(TypedOperand {
                    field: s.field,
                    operand: self.operand(s)?,
                    ty: s.ty,
                })
            })
            .collect()
    }

    /// The slot's text: its operand as LLVM prints it, `vcc`/`vcc_lo` for an
    /// implicit VCC, empty for a slot without a field (the class prints those).
    pub fn slot_text(&self, slot: &Slot) -> String {
        match slot.field {
            Fld::Vcc => if self.gen >= Gen::Gfx10 {
                "vcc_lo"
            } else {
                "vcc"
            }
            .to_string(),
            _ => self
                .operand(slot)
                .map(|o| o.text(slot.ty, self.gen))
                .unwrap_or_default(),
        }
    }

    /// The validity rules every form shares: the row's checked bits, and every
    /// slot's code legal for the slot.
    pub fn validate(&self) -> Result<(), String> {
        let name = self.row.name;
        if !self.row.bits.accepts(self.bits) {
            let bad = self.bits
                & self.row.bits.checked
                & !(self.row.bits.printed | self.row.bits.ignored);
            return Err(format!("{name}: bits {bad:#x} are not accepted by LLVM"));
        }
        if self.row.literal && self.literal.is_none() {
            return Err(format!("{name}: missing literal"));
        }
        for s in self.row.opds {
            if let Some(code) = self.code(s) {
                signature::decode_slot(s, code, self.literal, self.gen)
                    .map_err(|e| format!("{name}: {}: {e}", s.field.name()))?;
            }
        }
        Ok(())
    }
}
