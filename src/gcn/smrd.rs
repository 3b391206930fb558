//! gfx6/gfx7 scalar memory reads: SMRD, operand by operand.
//!
//! One dword (AMD SI/CI ISA manuals; checked by assembling with llvm-mc-19
//! -mcpu=tahiti/bonaire): OFFSET 7:0, IMM 8, SBASE 14:9 (SGPR pair index),
//! SDST 21:15, OP 26:22. IMM set: OFFSET is a dword offset (printed `0x…`);
//! clear: OFFSET is an SGPR. gfx7 adds a 32-bit literal offset (IMM clear,
//! OFFSET 0xFF), printed `0x…`.
//!
//! The operand widths follow the mnemonic (the generated name tables):
//! `s_load_dword{,x2,x4,x8,x16}` read a pair base, `s_buffer_load_*` a quad;
//! `s_memtime` writes a pair; `s_dcache_inv*` have no operands.

use super::operand::{decode_code, Operand, TypedOperand};
use super::signature::{accept, Fld, Ty};
use super::{ops, Encoding, Field};
use crate::arch::{Arch, Gen};

/// A decoded SMRD instruction: its raw dword and, filled when it is decoded,
/// its operands as LLVM prints them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Smrd {
    /// The mnemonic.
    pub name: &'static str,
    /// The generation (gfx6 or gfx7).
    pub gen: Gen,
    /// The dword.
    pub word: u32,
    /// The gfx7 literal offset (IMM clear, OFFSET 0xFF), if any.
    pub literal: Option<u32>,
    /// SDST: the SGPRs loaded (`s_memtime`: the 64-bit time); `None` for
    /// `s_dcache_inv*`.
    pub sdata: Option<TypedOperand>,
    /// SBASE: the 64-bit address pair (`s_load_*`) or the 128-bit buffer
    /// descriptor (`s_buffer_load_*`).
    pub sbase: Option<TypedOperand>,
    /// The offset when it is not an immediate: an SGPR (IMM clear) or, on
    /// gfx7, the literal ([`Operand::Literal`]).
    pub soffset: Option<TypedOperand>,
    /// The immediate offset in dwords (IMM set).
    pub offset_dwords: Option<u32>,
}

const SCALAR: u16 = accept::SGPR | accept::VCC | accept::M0 | accept::EXEC | accept::FLAT_SCRATCH;

impl Smrd {
    /// The mnemonic.
    pub fn mnemonic(&self) -> &'static str {
        self.name
    }

    /// OP.
    pub fn op(&self) -> u32 {
        (self.word >> 22) & 0x1f
    }

    /// SDST.
    pub fn sdst(&self) -> u32 {
        (self.word >> 15) & 0x7f
    }

    /// SBASE (pair index).
    pub fn sbase(&self) -> u32 {
        (self.word >> 9) & 0x3f
    }

    /// IMM.
    pub fn imm(&self) -> bool {
        self.word >> 8 & 1 == 1
    }

    /// OFFSET.
    pub fn offset(&self) -> u32 {
        self.word & 0xff
    }

    /// (data registers, base registers) of the mnemonic.
    fn widths(&self) -> (u8, u8) {
        let n = self.name;
        let data = if n == "s_memtime" {
            2
        } else if let Some(x) = n.rsplit("dwordx").next().filter(|_| n.contains("dwordx")) {
            x.parse().unwrap_or(1)
        } else if n.contains("dword") {
            1
        } else {
            0
        };
        let base = if n.starts_with("s_buffer_") {
            4
        } else if n.starts_with("s_load") {
            2
        } else {
            0
        };
        (data, base)
    }

    fn data(&self) -> Option<Result<Operand, String>> {
        let (d, _) = self.widths();
        (d > 0).then(|| decode_code(self.sdst(), d, SCALAR, None, self.gen))
    }

    fn base(&self) -> Option<Result<Operand, String>> {
        let (_, b) = self.widths();
        (b > 0).then(|| decode_code(self.sbase() * 2, b, SCALAR, None, self.gen))
    }

    fn offset_operand(&self) -> Option<Result<Operand, String>> {
        let (_, b) = self.widths();
        if b == 0 || self.imm() {
            return None;
        }
        if let Some(l) = self.literal {
            return Some(Ok(Operand::Literal(l)));
        }
        Some(decode_code(self.offset(), 1, SCALAR, None, self.gen))
    }

    /// The typed operands: data, base and a register or literal offset.
    pub fn operands(&self) -> Vec<TypedOperand> {
        let mut v = Vec::new();
        for (f, op) in [
            (Fld::Sdata, self.data()),
            (Fld::Sbase, self.base()),
            (Fld::Soffset, self.offset_operand()),
        ] {
            if let Some(Ok(operand)) = op {
                v.push(TypedOperand {
                    field: f,
                    operand,
                    ty: Ty::B32,
                });
            }
        }
        v
    }

    /// LLVM 19 syntax.
    pub fn text(&self) -> String {
        let g = self.gen;
        let mut parts = Vec::new();
        if let Some(Ok(d)) = self.data() {
            parts.push(d.text(Ty::B32, g));
        }
        if let Some(Ok(b)) = self.base() {
            parts.push(b.text(Ty::B32, g));
            parts.push(match (self.literal, self.imm()) {
                (Some(l), _) => format!("0x{l:x}"),
                (None, true) => format!("0x{:x}", self.offset()),
                (None, false) => self
                    .offset_operand()
                    .and_then(Result::ok)
                    .map(|o| o.text(Ty::B32, g))
                    .unwrap_or_default(),
            });
        }
        if parts.is_empty() {
            self.name.to_string()
        } else {
            format!("{} {}", self.name, parts.join(", "))
        }
    }

    /// Raw fields.
    pub fn fields(&self) -> Vec<Field> {
        let mut f = vec![
            Field::int("op", self.op()),
            Field::int("sdst", self.sdst()),
            Field::int("sbase", self.sbase()),
            Field::int("imm", u32::from(self.imm())),
            Field::int("offset", self.offset()),
        ];
        if let Some(l) = self.literal {
            f.push(Field::int("literal", l));
        }
        f
    }
}

/// Decodes an SMRD instruction (gfx6/gfx7). An opcode without a name in the
/// generated tables is invalid: they hold every SMRD instruction LLVM 19
/// assembles for the generation.
pub fn decode(words: &[u32], arch: &Arch) -> Option<Result<Smrd, String>> {
    let w = *words.first()?;
    let op = (w >> 22) & 0x1f;
    let Some(name) = ops::name(arch.gen, Encoding::Smrd, op) else {
        return Some(Err(format!(
            "SMRD opcode {op:#x} is not an instruction of {}",
            arch.gen.name()
        )));
    };
    let mut s = Smrd {
        name,
        gen: arch.gen,
        word: w,
        literal: words.get(1).copied(),
        sdata: None,
        sbase: None,
        soffset: None,
        offset_dwords: None,
    };
    for r in [s.data(), s.base(), s.offset_operand()]
        .into_iter()
        .flatten()
    {
        if let Err(e) = r {
            return Some(Err(format!("{name}: {e}")));
        }
    }
    let (d, b) = s.widths();
    // Operand fields an opcode does not have must be zero.
    if d == 0 && s.sdst() != 0 || b == 0 && w & 0x7fff != 0 {
        return Some(Err(format!("{name}: unused fields are not zero")));
    }
    for o in s.operands() {
        match o.field {
            Fld::Sdata => s.sdata = Some(o),
            Fld::Sbase => s.sbase = Some(o),
            Fld::Soffset => s.soffset = Some(o),
            _ => {}
        }
    }
    if b > 0 && s.imm() {
        s.offset_dwords = Some(s.offset());
    }
    Some(Ok(s))
}
