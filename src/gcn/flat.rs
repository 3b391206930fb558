//! FLAT, GLOBAL and SCRATCH memory, operand by operand.
//!
//! Layout (two dwords; checked bit by bit with llvm-mc-19):
//!
//! | field | gfx8 | gfx9 | gfx10 | gfx11 |
//! |---|---|---|---|---|
//! | OFFSET | 12:0 | 12:0 | 11:0 | 12:0 |
//! | LDS | – | 13 | 13 | – |
//! | SEG (0 flat, 1 scratch, 2 global) | – | 15:14 | 15:14 | 17:16 |
//! | GLC, SLC, DLC | 16, 17, – | 16, 17, – | 16, 17, 12 | 14, 15, 13 |
//! | OP | 24:18 ||||
//! | VADDR, VDATA, SADDR, VDST | 39:32, 47:40, 54:48, 63:56 ||||
//! | SVE (scratch VADDR enable) | – | – | – | 55 |
//!
//! Text (LLVM `printFlatOffset`, `printCPol`): `[vdst,] vaddr|off, [vdata,]
//! [saddr|off]` then `offset:N` (signed for global and scratch: 13 bits on
//! gfx9/gfx11, 12 on gfx10; unsigned for flat), `glc`, `slc`, `dlc`, `lds`.
//! SADDR `off` (0x7F on gfx9, `null` on gfx10/gfx11) makes a global address a VGPR pair;
//! a scratch address is the VGPR when SADDR is off (gfx11: when SVE is set), else `off`.
//! A returning atomic (GLC) prints its destination first.

use super::encoded::Encoded;
use super::operand::{Operand, TypedOperand};
use super::signature::{row_flags, Fld, Form, Slot, Ty};
use super::Field;
use crate::arch::{Arch, Gen};

/// A decoded FLAT/GLOBAL/SCRATCH instruction: its raw encoding and, filled
/// when it is decoded, its operands and flags as LLVM prints them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flat {
    /// Form, signature row, raw bits.
    pub enc: Encoded,
    /// The mnemonic.
    pub name: &'static str,
    /// The address space.
    pub segment: Segment,
    /// VDST: the VGPRs loaded, or a returning atomic's (GLC) old value.
    pub vdst: Option<TypedOperand>,
    /// VADDR: the address VGPRs (a 64-bit address, or a 32-bit offset with
    /// SADDR); `None` for `off`.
    pub vaddr: Option<TypedOperand>,
    /// VDATA: the VGPRs stored or combined atomically.
    pub vdata: Option<TypedOperand>,
    /// SADDR: the scalar base (global: 64-bit, scratch: 32-bit offset);
    /// `None` for `off`.
    pub saddr: Option<TypedOperand>,
    /// The immediate byte offset (signed for global and scratch).
    pub offset: i32,
    /// GLC (an atomic returns the old value).
    pub glc: bool,
    /// SLC.
    pub slc: bool,
    /// DLC (gfx10+).
    pub dlc: bool,
    /// LDS (gfx9/gfx10): the load writes LDS.
    pub lds: bool,
}

/// The address space of a FLAT-encoded instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Segment {
    /// `flat_*`.
    Flat,
    /// `scratch_*`.
    Scratch,
    /// `global_*`.
    Global,
}

impl Flat {
    /// The instruction of `enc`, its decoded fields not yet filled.
    fn raw(enc: Encoded) -> Flat {
        Flat {
            enc,
            name: enc.row.name,
            segment: Segment::Flat,
            vdst: None,
            vaddr: None,
            vdata: None,
            saddr: None,
            offset: 0,
            glc: false,
            slc: false,
            dlc: false,
            lds: false,
        }
    }

    /// Fills the decoded fields (after validation).
    fn filled(mut self) -> Flat {
        for o in self.operands() {
            match o.field {
                Fld::Vdst => self.vdst = Some(o),
                Fld::Vaddr => self.vaddr = Some(o),
                Fld::Vdata => self.vdata = Some(o),
                Fld::Saddr => self.saddr = Some(o),
                _ => {}
            }
        }
        self.segment = self.segment();
        self.offset = self.offset();
        self.glc = self.glc();
        self.slc = self.slc();
        self.dlc = self.dlc();
        self.lds = self.lds();
        self
    }

    /// The generation it was decoded for.
    pub fn gen(&self) -> Gen {
        self.enc.gen
    }

    /// The opcode (table key: `seg << 7 | op`).
    pub fn op(&self) -> u32 {
        self.enc.op()
    }

    /// The mnemonic.
    pub fn mnemonic(&self) -> &'static str {
        self.enc.row.name
    }

    /// SEG.
    pub fn segment(&self) -> Segment {
        match self.op() >> 7 {
            1 => Segment::Scratch,
            2 => Segment::Global,
            _ => Segment::Flat,
        }
    }

    fn offset_bits(&self) -> u32 {
        match self.gen() {
            Gen::Gfx10 => 12,
            Gen::Gfx7 => 0, // no offset on CI
            _ => 13,
        }
    }

    /// The raw OFFSET field (0 where the opcode has none).
    pub fn offset_field(&self) -> u32 {
        self.enc.printed_bits(0, self.offset_bits())
    }

    /// The offset as LLVM reads it: signed for global/scratch, unsigned for flat.
    pub fn offset(&self) -> i32 {
        let n = self.offset_bits();
        let v = self.offset_field();
        if self.segment() == Segment::Flat {
            v as i32
        } else {
            ((v << (32 - n)) as i32) >> (32 - n)
        }
    }

    /// GLC.
    pub fn glc(&self) -> bool {
        self.enc.on(if self.gen() == Gen::Gfx11 { 14 } else { 16 })
    }

    /// SLC.
    pub fn slc(&self) -> bool {
        self.enc.on(if self.gen() == Gen::Gfx11 { 15 } else { 17 })
    }

    /// DLC (gfx10+).
    pub fn dlc(&self) -> bool {
        match self.gen() {
            Gen::Gfx10 => self.enc.on(12),
            Gen::Gfx11 => self.enc.on(13),
            _ => false,
        }
    }

    /// LDS (gfx9/gfx10).
    pub fn lds(&self) -> bool {
        matches!(self.gen(), Gen::Gfx9 | Gen::Gfx10) && self.enc.on(13)
    }

    /// SVE (gfx11 scratch).
    pub fn sve(&self) -> bool {
        self.gen() == Gen::Gfx11 && self.enc.on(55)
    }

    /// SADDR (gfx9+).
    pub fn saddr(&self) -> u32 {
        self.enc.bits(48, 7)
    }

    /// SADDR is `off`: 0x7F on gfx9, `null` on gfx10 (0x7D) and gfx11 (0x7C).
    /// gfx10 scratch also reads 0x7F (exec_hi) as no SGPR address and prints
    /// it `off` (LLVM 19; global rejects it there).
    pub fn saddr_off(&self) -> bool {
        match self.gen() {
            Gen::Gfx6 | Gen::Gfx7 | Gen::Gfx8 => true,
            Gen::Gfx9 => self.saddr() == 0x7f,
            Gen::Gfx10 => self.saddr() == 0x7d,
            _ => self.saddr() == 0x7c,
        }
    }

    /// gfx10 scratch with SADDR 0x7F: LLVM prints both addresses `off`.
    fn gfx10_scratch_exec_hi(&self) -> bool {
        self.gen() == Gen::Gfx10 && self.segment() == Segment::Scratch && self.saddr() == 0x7f
    }

    fn slot(&self, f: Fld) -> Option<&'static Slot> {
        self.enc.row.opds.iter().find(|s| s.field == f)
    }

    /// The row prints an address operand (`*_addtid` have none).
    fn has_vaddr(&self) -> bool {
        self.enc
            .row
            .opds
            .iter()
            .any(|s| matches!(s.field, Fld::Vaddr | Fld::Imm))
    }

    /// The address VGPRs: a pair for flat, and for global with SADDR off; one
    /// for global with SADDR and for scratch; none for scratch with an SGPR
    /// address (gfx11: without SVE), and for the `*_addtid` opcodes.
    pub fn vaddr_count(&self) -> u8 {
        if !self.has_vaddr() {
            return 0;
        }
        match self.segment() {
            Segment::Flat => 2,
            Segment::Global if self.saddr_off() => 2,
            Segment::Global => 1,
            Segment::Scratch if self.gfx10_scratch_exec_hi() => 0,
            // gfx11: SVE alone enables VADDR (`off, off` without it).
            Segment::Scratch if self.gen() == Gen::Gfx11 => u8::from(self.sve()),
            Segment::Scratch if self.saddr_off() => 1,
            Segment::Scratch => 0,
        }
    }

    /// The returning destination of an atomic with GLC: its VGPR count.
    fn rtn_regs(&self) -> u8 {
        ((self.enc.row.flags >> row_flags::RTN_SHIFT) & 0xf) as u8
    }

    fn vgpr(&self, lo: u32, count: u8) -> Option<Operand> {
        let first = self.enc.bits(lo, 8);
        (count > 0 && first + u32::from(count) <= 256).then_some(Operand::Vgpr {
            first: first as u8,
            count,
        })
    }

    /// The destination: the row's (gfx9/gfx10 LDS forms have none), or a
    /// returning atomic's.
    pub fn vdst(&self) -> Option<Operand> {
        if self.lds() {
            return None;
        }
        match self.slot(Fld::Vdst) {
            Some(s) => self.vgpr(56, s.regs),
            None if self.glc() && self.rtn_regs() > 0 => self.vgpr(56, self.rtn_regs()),
            None => None,
        }
    }

    /// The address VGPRs (`None` for `off`).
    pub fn vaddr(&self) -> Option<Operand> {
        self.vgpr(32, self.vaddr_count())
    }

    /// The data VGPRs of a store or atomic.
    pub fn vdata(&self) -> Option<Operand> {
        self.slot(Fld::Vdata).and_then(|s| self.vgpr(40, s.regs))
    }

    /// SADDR as an operand (`None` for `off` or flat).
    pub fn saddr_operand(&self) -> Option<Operand> {
        let s = self.slot(Fld::Saddr)?;
        if self.saddr_off() || self.gfx10_scratch_exec_hi() {
            return None;
        }
        self.enc.operand(s)
    }

    /// The typed operands.
    pub fn operands(&self) -> Vec<TypedOperand> {
        let mut v = Vec::new();
        for (f, op) in [
            (Fld::Vdst, self.vdst()),
            (Fld::Vaddr, self.vaddr()),
            (Fld::Vdata, self.vdata()),
            (Fld::Saddr, self.saddr_operand()),
        ] {
            if let Some(operand) = op {
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
        let g = self.gen();
        let mut parts = Vec::new();
        if let Some(d) = self.vdst() {
            parts.push(d.text(Ty::B32, g));
        }
        if self.has_vaddr() {
            parts.push(
                self.vaddr()
                    .map_or_else(|| "off".to_string(), |a| a.text(Ty::B32, g)),
            );
        }
        if let Some(d) = self.vdata() {
            parts.push(d.text(Ty::B32, g));
        }
        if self.segment() != Segment::Flat {
            parts.push(
                self.saddr_operand()
                    .map_or_else(|| "off".to_string(), |a| a.text(Ty::B64, g)),
            );
        }
        let mut t = format!("{} {}", self.mnemonic(), parts.join(", "));
        if self.offset() != 0 {
            t.push_str(&format!(" offset:{}", self.offset()));
        }
        for (on, name) in [
            (self.glc(), " glc"),
            (self.slc(), " slc"),
            (self.dlc(), " dlc"),
            (self.lds(), " lds"),
        ] {
            if on {
                t.push_str(name);
            }
        }
        t
    }

    /// Raw fields.
    pub fn fields(&self) -> Vec<Field> {
        let e = &self.enc;
        let b = |v: bool| u32::from(v);
        let mut f = vec![
            Field::int("op", self.op() & 0x7f),
            Field::int("seg", self.op() >> 7),
            Field::int("offset", self.offset_field()),
            Field::int("glc", b(self.glc())),
            Field::int("slc", b(self.slc())),
        ];
        match self.gen() {
            Gen::Gfx9 => f.push(Field::int("lds", b(self.lds()))),
            Gen::Gfx10 => {
                f.push(Field::int("lds", b(self.lds())));
                f.push(Field::int("dlc", b(self.dlc())));
            }
            Gen::Gfx11 => {
                f.push(Field::int("dlc", b(self.dlc())));
                f.push(Field::int("sve", b(self.sve())));
            }
            _ => {}
        }
        f.extend([
            Field::int("vaddr", e.bits(32, 8)),
            Field::int("vdata", e.bits(40, 8)),
            Field::int("saddr", self.saddr()),
            Field::int("vdst", e.bits(56, 8)),
        ]);
        f
    }

    fn validate(&self) -> Result<(), String> {
        let e = &self.enc;
        let name = e.row.name;
        // Registers are read by the rules above; the rows were measured with
        // one SADDR, GLC clear and LDS clear.
        let mut bits = e.bits & !(0xffu128 << 32 | 0xffu128 << 56);
        if self.slot(Fld::Saddr).is_some() {
            bits &= !(0x7fu128 << 48);
        }
        if !e.row.bits.accepts(bits) {
            return Err(format!("{name}: bits LLVM rejects"));
        }
        if self.lds() && e.bit(55) {
            // Ignored without LDS, but the LDS forms want bit 55 clear.
            return Err(format!("{name}: lds with bit 55"));
        }
        if self.segment() == Segment::Global && self.gen() == Gen::Gfx10 && self.saddr() == 0x7f {
            return Err(format!("{name}: saddr 0x7f"));
        }
        if self.vaddr_count() > 0 && self.vaddr().is_none() {
            return Err(format!("{name}: vaddr runs past v255"));
        }
        if let Some(s) = self.slot(Fld::Vdata) {
            if self.vgpr(40, s.regs).is_none() {
                return Err(format!("{name}: vdata runs past v255"));
            }
        }
        if let Some(s) = self.slot(Fld::Vdst) {
            if !self.lds() && self.vgpr(56, s.regs).is_none() {
                return Err(format!("{name}: vdst runs past v255"));
            }
        }
        if let Some(s) = self.slot(Fld::Saddr) {
            if !self.saddr_off() && !self.gfx10_scratch_exec_hi() {
                e.validate_slot(s)?;
                // A scratch SADDR is SReg_32_XEXEC_HI.
                if s.regs == 1 && self.saddr() == 0x7f {
                    return Err(format!("{name}: saddr exec_hi"));
                }
            }
        }
        Ok(())
    }
}

/// Decodes a FLAT/GLOBAL/SCRATCH instruction (gfx7+); `None` without rows.
pub fn decode(words: &[u32], arch: &Arch) -> Option<Result<Flat, String>> {
    Some(Encoded::new(Form::Flat, words, arch.gen)?.and_then(|enc| {
        let f = Flat::raw(enc);
        f.validate().map(|()| f.filled())
    }))
}
