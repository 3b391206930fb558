//! Scalar memory: SMEM (gfx8–gfx11), operand by operand.
//!
//! Layout (two dwords; AMD ISA manuals, LLVM `SMEM_Real_*`):
//!
//! | bits | gfx8 | gfx9 | gfx10 | gfx11 |
//! |---|---|---|---|---|
//! | 5:0 SBASE (pair index), 12:6 SDATA, 25:18 OP | ✓ | ✓ | ✓ | ✓ |
//! | GLC | 16 | 16 | 16 | 14 |
//! | DLC | – | – | 14 | 13 |
//! | IMM (OFFSET is an immediate, else an SGPR) | 17 | 17 | – | – |
//! | SOE (SOFFSET is added) | – | 14 | – | – |
//! | OFFSET | 51:32 unsigned | 52:32 signed | 52:32 signed | 52:32 signed |
//! | SOFFSET | – | 63:57 | 63:57 | 63:57 |
//!
//! The offset operand prints as LLVM 19 does (measured with llvm-mc-19):
//! gfx8/gfx9 `0x…` for an immediate, the SGPR of `OFFSET[6:0]` otherwise; gfx9
//! with SOE `sN offset:0x…` (the immediate printed even when 0) or `sN`;
//! gfx10+ the immediate when SOFFSET is `null` (`null` itself for offset 0),
//! else `sN` and ` offset:0x…` when non-zero. Signed offsets print `-0x…`.

use super::encoded::Encoded;
use super::operand::{decode_code, Operand, TypedOperand};
use super::signature::{accept, Fld, Form, Slot, Ty};
use super::Field;
use crate::arch::{Arch, Gen};

/// A decoded SMEM instruction: its raw encoding and, filled when it is
/// decoded, its operands as LLVM prints them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Smem {
    /// Form, signature row, raw bits.
    pub enc: Encoded,
    /// The mnemonic.
    pub name: &'static str,
    /// SDATA: the SGPRs loaded, stored or combined atomically (with GLC, an
    /// atomic also returns the old value there); `None` where the opcode has
    /// none (`s_dcache_inv`).
    pub sdata: Option<TypedOperand>,
    /// SBASE: the 64-bit address pair or, for `s_buffer_*`, the 128-bit
    /// buffer descriptor.
    pub sbase: Option<TypedOperand>,
    /// The offset register (gfx8/gfx9 OFFSET without IMM, gfx9 SOE, gfx10+
    /// SOFFSET other than `null`).
    pub soffset: Option<TypedOperand>,
    /// The immediate byte offset added (0 when none; signed on gfx9+).
    pub offset: i32,
    /// GLC.
    pub glc: bool,
    /// DLC (gfx10+).
    pub dlc: bool,
}

/// The codes a scalar offset register takes.
const SCALAR: u16 =
    accept::SGPR | accept::VCC | accept::M0 | accept::NULL | accept::EXEC | accept::FLAT_SCRATCH;

/// What the offset operand is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Offset {
    /// An immediate byte offset.
    Imm(i32),
    /// A register (`OFFSET[6:0]` on gfx8/gfx9 without IMM).
    Reg(u32),
    /// SOFFSET plus an immediate offset.
    RegImm(u32, i32),
}

impl Smem {
    /// The instruction of `enc`, its decoded fields not yet filled.
    fn raw(enc: Encoded) -> Smem {
        Smem {
            enc,
            name: enc.row.name,
            sdata: None,
            sbase: None,
            soffset: None,
            offset: 0,
            glc: false,
            dlc: false,
        }
    }

    /// Fills the decoded fields (after validation).
    fn filled(mut self) -> Smem {
        for o in self.operands() {
            match o.field {
                Fld::Sdata => self.sdata = Some(o),
                Fld::Sbase => self.sbase = Some(o),
                Fld::Soffset => self.soffset = Some(o),
                _ => {}
            }
        }
        if self.has_offset() {
            self.offset = match self.offset() {
                Offset::Imm(v) | Offset::RegImm(_, v) => v,
                Offset::Reg(_) => 0,
            };
        }
        self.glc = self.glc();
        self.dlc = self.dlc();
        self
    }

    fn gen(&self) -> Gen {
        self.enc.gen
    }

    /// The opcode.
    pub fn op(&self) -> u32 {
        self.enc.op()
    }

    /// The mnemonic.
    pub fn mnemonic(&self) -> &'static str {
        self.enc.row.name
    }

    /// GLC (where the opcode has it).
    pub fn glc(&self) -> bool {
        self.enc.on(if self.gen() == Gen::Gfx11 { 14 } else { 16 })
    }

    /// DLC (gfx10+, where the opcode has it).
    pub fn dlc(&self) -> bool {
        match self.gen() {
            Gen::Gfx10 => self.enc.on(14),
            Gen::Gfx11 => self.enc.on(13),
            _ => false,
        }
    }

    /// IMM (gfx8/gfx9).
    pub fn imm(&self) -> bool {
        self.gen() <= Gen::Gfx9 && self.enc.bit(17)
    }

    /// SOE (gfx9).
    pub fn soe(&self) -> bool {
        self.gen() == Gen::Gfx9 && self.enc.bit(14)
    }

    /// The raw OFFSET field.
    pub fn offset_field(&self) -> u32 {
        if self.gen() == Gen::Gfx8 {
            self.enc.bits(32, 20)
        } else {
            self.enc.bits(32, 21)
        }
    }

    /// The raw SOFFSET field (gfx9+).
    pub fn soffset(&self) -> u32 {
        self.enc.bits(57, 7)
    }

    fn signed_offset(&self) -> i32 {
        let v = self.offset_field();
        if self.gen() == Gen::Gfx8 {
            v as i32
        } else {
            ((v << 11) as i32) >> 11
        }
    }

    fn null_code(&self) -> u32 {
        if self.gen() == Gen::Gfx11 {
            124
        } else {
            125
        }
    }

    /// The offset operand.
    pub fn offset(&self) -> Offset {
        match self.gen() {
            Gen::Gfx8 | Gen::Gfx9 => match (self.imm(), self.soe()) {
                (true, false) => Offset::Imm(self.signed_offset()),
                (false, false) => Offset::Reg(self.offset_field() & 0x7f),
                (true, true) => Offset::RegImm(self.soffset(), self.signed_offset()),
                (false, true) => Offset::Reg(self.soffset()),
            },
            _ if self.soffset() == self.null_code() => Offset::Imm(self.signed_offset()),
            _ => Offset::RegImm(self.soffset(), self.signed_offset()),
        }
    }

    /// The row prints an offset operand (its last slot is SOFFSET or an
    /// immediate after SBASE).
    fn has_offset(&self) -> bool {
        let opds = self.enc.row.opds;
        opds.len() >= 2
            && opds
                .last()
                .is_some_and(|s| matches!(s.field, Fld::Soffset | Fld::Imm))
    }

    fn reg(&self, code: u32) -> Result<Operand, String> {
        decode_code(code, 1, SCALAR, None, self.gen())
    }

    fn offset_text(&self) -> Result<String, String> {
        let hex = |v: i32| {
            if v < 0 {
                format!("-0x{:x}", v.unsigned_abs())
            } else {
                format!("0x{v:x}")
            }
        };
        let g = self.gen();
        Ok(match self.offset() {
            // gfx10+: SOFFSET null with offset 0 prints `null`.
            Offset::Imm(0) if g >= Gen::Gfx10 => "null".into(),
            Offset::Imm(v) => hex(v),
            Offset::Reg(c) => self.reg(c)?.text(Ty::B32, g),
            Offset::RegImm(c, v) => {
                let r = self.reg(c)?.text(Ty::B32, g);
                if v != 0 || g == Gen::Gfx9 {
                    format!("{r} offset:{}", hex(v))
                } else {
                    r
                }
            }
        })
    }

    /// The data and base operands (and an offset register), typed.
    pub fn operands(&self) -> Vec<TypedOperand> {
        let mut v: Vec<TypedOperand> = self
            .enc
            .operands()
            .into_iter()
            .filter(|o| o.field != Fld::Soffset)
            .collect();
        if self.has_offset() {
            let code = match self.offset() {
                Offset::Reg(c) | Offset::RegImm(c, _) => Some(c),
                Offset::Imm(_) => None,
            };
            if let Some(Ok(operand)) = code.map(|c| self.reg(c)) {
                v.push(TypedOperand {
                    field: Fld::Soffset,
                    operand,
                    ty: Ty::B32,
                });
            }
        }
        v
    }

    /// LLVM 19 syntax.
    pub fn text(&self) -> String {
        let mut parts = Vec::new();
        let opds = self.enc.row.opds;
        for (i, s) in opds.iter().enumerate() {
            match s.field {
                Fld::Sdata | Fld::Sbase => parts.push(self.enc.slot_text(s)),
                // s_atc_probe's first operand: the SDATA field as a number
                // (decimal up to 64, else hex).
                Fld::Imm if i == 0 && opds.len() == 3 => {
                    let v = self.enc.bits(6, 7);
                    parts.push(if v <= 64 {
                        v.to_string()
                    } else {
                        format!("0x{v:x}")
                    })
                }
                _ => {}
            }
        }
        if self.has_offset() {
            parts.push(self.offset_text().unwrap_or_default());
        }
        let mut t = self.mnemonic().to_string();
        if !parts.is_empty() {
            t.push(' ');
            t.push_str(&parts.join(", "));
        }
        if self.glc() {
            t.push_str(" glc");
        }
        if self.dlc() {
            t.push_str(" dlc");
        }
        t
    }

    /// Raw fields.
    pub fn fields(&self) -> Vec<Field> {
        let mut f = vec![
            Field::int("op", self.op()),
            Field::int("sdata", self.enc.bits(6, 7)),
            Field::int("sbase", self.enc.bits(0, 6)),
            Field::int("offset", self.offset_field()),
            Field::int("glc", u32::from(self.glc())),
        ];
        match self.gen() {
            Gen::Gfx8 => f.push(Field::int("imm", u32::from(self.imm()))),
            Gen::Gfx9 => {
                f.push(Field::int("imm", u32::from(self.imm())));
                f.push(Field::int("soe", u32::from(self.soe())));
                f.push(Field::int("nv", self.enc.bits(15, 1)));
                f.push(Field::int("soffset", self.soffset()));
            }
            _ => {
                f.push(Field::int("dlc", u32::from(self.dlc())));
                f.push(Field::int("soffset", self.soffset()));
            }
        }
        f
    }

    fn validate(&self) -> Result<(), String> {
        let e = &self.enc;
        let name = e.row.name;
        // SOFFSET/OFFSET are read by `offset()`; the row's bits speak for the
        // rest (measured with IMM clear and SOFFSET in use).
        let mut bits = e.bits;
        bits &= !(((1u128 << 21) - 1) << 32 | 0x7f << 57);
        if !e.row.bits.accepts(bits) {
            return Err(format!("{name}: bits LLVM rejects"));
        }
        for s in e.row.opds {
            if matches!(s.field, Fld::Sdata | Fld::Sbase) {
                e.validate_slot(s)?;
            }
        }
        if self.has_offset() {
            self.offset_text()
                .map_err(|err| format!("{name}: offset: {err}"))?;
        }
        Ok(())
    }
}

impl Encoded {
    /// The validity rule of one slot.
    pub fn validate_slot(&self, s: &Slot) -> Result<(), String> {
        if let Some(code) = self.code(s) {
            super::signature::decode_slot(s, code, self.literal, self.gen)
                .map_err(|e| format!("{}: {}: {e}", self.row.name, s.field.name()))?;
        }
        Ok(())
    }
}

/// Decodes an SMEM instruction (gfx8+); `None` without signature rows.
pub fn decode(words: &[u32], arch: &Arch) -> Option<Result<Smem, String>> {
    Some(Encoded::new(Form::Smem, words, arch.gen)?.and_then(|enc| {
        let s = Smem::raw(enc);
        s.validate().map(|()| s.filled())
    }))
}
