//! Untyped and typed buffer memory: MUBUF and MTBUF, operand by operand.
//!
//! Layout (two dwords; AMD ISA manuals, checked bit by bit with llvm-mc-19):
//!
//! | field | gfx6/gfx7 | gfx8/gfx9 | gfx10 | gfx11 |
//! |---|---|---|---|---|
//! | OFFSET | 11:0 | 11:0 | 11:0 | 11:0 |
//! | OFFEN, IDXEN | 12, 13 | 12, 13 | 12, 13 | 54, 55 |
//! | ADDR64 | 15 | – | – | – |
//! | GLC, SLC, DLC | 14, 54, – | 14, 17 (MTBUF 54), – | 14, 54, 15 | 14, 12, 13 |
//! | LDS (MUBUF) | 16 | 16 | 16 |
//! | MTBUF format | DFMT 22:19, NFMT 25:23 | FORMAT 25:19 | FORMAT 25:19 |
//! | VADDR, VDATA, SRSRC, SOFFSET | 39:32, 47:40, 52:48 (quad), 63:56 |||
//! | TFE | 55 | 55 | 53 |
//!
//! Text: `vdata, vaddr|off, srsrc, soffset` then `format:[…]`, `idxen`, `offen`,
//! `offset:N`, `glc`, `slc`, `dlc`, `lds`, `tfe`. VADDR is one VGPR with OFFEN
//! or IDXEN, a pair with both, `off` with neither; TFE adds a data register; a
//! gfx8–gfx10 load with LDS set has no VDATA. MTBUF formats print by the
//! generated name tables (LLVM `printSymbolicFormat`).

use super::decoded::BufFormat;
use super::encoded::Encoded;
use super::operand::{Operand, TypedOperand};
use super::signature::{Fld, Form, Slot};
use super::signature_tables as names;
use super::Field;
use crate::arch::{Arch, Gen};

/// A decoded MUBUF or MTBUF instruction: its raw encoding and, filled when it
/// is decoded, its operands and flags as LLVM prints them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Buffer {
    /// Form (MUBUF or MTBUF), signature row, raw bits, literal SOFFSET.
    pub enc: Encoded,
    /// The mnemonic.
    pub name: &'static str,
    /// VDATA: the VGPRs loaded, stored or combined atomically (with TFE one
    /// more, the status); `None` without data or for a load into LDS.
    pub vdata: Option<TypedOperand>,
    /// VADDR: the index and/or offset VGPRs (IDXEN, OFFEN; both: index
    /// first) or, with ADDR64, a 64-bit address; `None` for `off`.
    pub vaddr: Option<TypedOperand>,
    /// SRSRC: the 128-bit buffer descriptor.
    pub srsrc: Option<TypedOperand>,
    /// SOFFSET: the scalar byte offset (an SGPR, an inline constant or,
    /// gfx10+ `null`; a literal on gfx11).
    pub soffset: Option<TypedOperand>,
    /// The 12-bit immediate byte offset.
    pub offset: u16,
    /// OFFEN: VADDR holds a byte offset.
    pub offen: bool,
    /// IDXEN: VADDR holds an index.
    pub idxen: bool,
    /// ADDR64 (gfx6/gfx7): VADDR is a 64-bit address.
    pub addr64: bool,
    /// GLC (an atomic returns the old value).
    pub glc: bool,
    /// SLC.
    pub slc: bool,
    /// DLC (gfx10+).
    pub dlc: bool,
    /// LDS: the load writes LDS (MUBUF).
    pub lds: bool,
    /// TFE: the load also writes a status VGPR.
    pub tfe: bool,
    /// MTBUF's data format.
    pub format: Option<BufFormat>,
}

impl Buffer {
    /// The instruction of `enc`, its decoded fields not yet filled.
    fn raw(enc: Encoded) -> Buffer {
        Buffer {
            enc,
            name: enc.row.name,
            vdata: None,
            vaddr: None,
            srsrc: None,
            soffset: None,
            offset: 0,
            offen: false,
            idxen: false,
            addr64: false,
            glc: false,
            slc: false,
            dlc: false,
            lds: false,
            tfe: false,
            format: None,
        }
    }

    /// Fills the decoded fields (after validation).
    fn filled(mut self) -> Buffer {
        for o in self.operands() {
            match o.field {
                Fld::Vdata => self.vdata = Some(o),
                Fld::Vaddr => self.vaddr = Some(o),
                Fld::Srsrc => self.srsrc = Some(o),
                Fld::Soffset => self.soffset = Some(o),
                _ => {}
            }
        }
        self.offset = self.offset() as u16;
        self.offen = self.offen();
        self.idxen = self.idxen();
        self.addr64 = self.addr64();
        self.glc = self.glc();
        self.slc = self.slc();
        self.dlc = self.dlc();
        self.lds = self.lds();
        self.tfe = self.tfe();
        if self.typed() {
            let f = self.format();
            self.format = Some(if self.gen() <= Gen::Gfx9 {
                BufFormat::Split {
                    dfmt: (f & 0xf) as u8,
                    nfmt: (f >> 4) as u8,
                }
            } else {
                BufFormat::Unified(f as u8)
            });
        }
        self
    }

    fn gen(&self) -> Gen {
        self.enc.gen
    }

    fn typed(&self) -> bool {
        self.enc.form == Form::Mtbuf
    }

    /// The opcode.
    pub fn op(&self) -> u32 {
        self.enc.op()
    }

    /// The mnemonic.
    pub fn mnemonic(&self) -> &'static str {
        self.enc.row.name
    }

    /// The 12-bit immediate offset (0 where the opcode has none).
    pub fn offset(&self) -> u32 {
        self.enc.printed_bits(0, 12)
    }

    /// OFFEN.
    pub fn offen(&self) -> bool {
        self.enc.on(if self.gen() == Gen::Gfx11 { 54 } else { 12 })
    }

    /// IDXEN.
    pub fn idxen(&self) -> bool {
        self.enc.on(if self.gen() == Gen::Gfx11 { 55 } else { 13 })
    }

    /// GLC.
    pub fn glc(&self) -> bool {
        self.enc.on(14)
    }

    /// SLC.
    pub fn slc(&self) -> bool {
        let b = match self.gen() {
            Gen::Gfx11 => 12,
            Gen::Gfx8 | Gen::Gfx9 if !self.typed() => 17,
            _ => 54,
        };
        self.enc.on(b)
    }

    /// DLC (gfx10+).
    pub fn dlc(&self) -> bool {
        match self.gen() {
            Gen::Gfx10 => self.enc.on(15),
            Gen::Gfx11 => self.enc.on(13),
            _ => false,
        }
    }

    /// LDS (MUBUF).
    pub fn lds(&self) -> bool {
        !self.typed() && self.enc.on(16)
    }

    /// TFE.
    pub fn tfe(&self) -> bool {
        self.enc.on(if self.gen() == Gen::Gfx11 { 53 } else { 55 })
    }

    /// MTBUF: the raw format (gfx8/gfx9: `nfmt << 4 | dfmt`; gfx10+: FORMAT).
    pub fn format(&self) -> u32 {
        if self.gen() <= Gen::Gfx9 {
            self.enc.bits(19, 4) | self.enc.bits(23, 3) << 4
        } else {
            self.enc.bits(19, 7)
        }
    }

    /// ADDR64 (gfx6/gfx7): VADDR is a 64-bit address (opcodes with an
    /// address operand only).
    pub fn addr64(&self) -> bool {
        self.gen() <= Gen::Gfx7
            && self.enc.on(15)
            && self
                .enc
                .row
                .opds
                .iter()
                .any(|s| matches!(s.field, Fld::Imm | Fld::Vaddr))
    }

    /// The VADDR registers the address takes: 0 (`off`), 1 or 2.
    pub fn vaddr_count(&self) -> u8 {
        if self.addr64() {
            return 2;
        }
        u8::from(self.offen()) + u8::from(self.idxen())
    }

    fn slot(&self, f: Fld) -> Option<&'static Slot> {
        self.enc.row.opds.iter().find(|s| s.field == f)
    }

    /// A gfx8–gfx10 MUBUF load with LDS set writes LDS, not VGPRs.
    fn lds_form(&self) -> bool {
        self.lds() && self.gen() <= Gen::Gfx10
    }

    /// The data operand: the row's width, plus one with TFE.
    pub fn vdata(&self) -> Option<Operand> {
        let s = self.slot(Fld::Vdata)?;
        if self.lds_form() {
            return None;
        }
        let mut s = *s;
        s.regs += u8::from(self.tfe());
        self.enc.operand(&s)
    }

    /// The address operand (`None` for `off`).
    pub fn vaddr(&self) -> Option<Operand> {
        let n = self.vaddr_count();
        if n == 0 {
            return None;
        }
        let first = self.enc.bits(32, 8);
        (first + u32::from(n) <= 256).then_some(Operand::Vgpr {
            first: first as u8,
            count: n,
        })
    }

    /// The typed operands: vdata, vaddr, srsrc, soffset.
    pub fn operands(&self) -> Vec<TypedOperand> {
        let mut v = Vec::new();
        let ty = super::signature::Ty::B32;
        if let Some(op) = self.vdata() {
            v.push(TypedOperand {
                field: Fld::Vdata,
                operand: op,
                ty,
            });
        }
        if let Some(op) = self.vaddr() {
            v.push(TypedOperand {
                field: Fld::Vaddr,
                operand: op,
                ty,
            });
        }
        for f in [Fld::Srsrc, Fld::Soffset] {
            if let Some(op) = self.slot(f).and_then(|s| self.enc.operand(s)) {
                v.push(TypedOperand {
                    field: f,
                    operand: op,
                    ty,
                });
            }
        }
        v
    }

    fn format_text(&self) -> String {
        let f = self.format();
        match self.gen() {
            Gen::Gfx6 | Gen::Gfx7 | Gen::Gfx8 | Gen::Gfx9 => {
                let (dfmt, nfmt) = ((f & 0xf) as usize, (f >> 4) as usize);
                if dfmt == 1 && nfmt == 0 {
                    return String::new();
                }
                let (dt, nt) = if self.gen() <= Gen::Gfx8 {
                    (names::GFX8_DFMT, names::GFX8_NFMT)
                } else {
                    (names::GFX9_DFMT, names::GFX9_NFMT)
                };
                let d = dt.get(dfmt).copied().flatten().unwrap_or("");
                let n = nt.get(nfmt).copied().flatten().unwrap_or("");
                let mut s = String::from(" format:[");
                if dfmt != 1 {
                    s.push_str(d);
                    if nfmt != 0 {
                        s.push(',');
                    }
                }
                if nfmt != 0 {
                    s.push_str(n);
                }
                s.push(']');
                s
            }
            g => {
                if f == 1 {
                    return String::new();
                }
                let t = if g == Gen::Gfx10 {
                    names::GFX10_UFMT
                } else {
                    names::GFX11_UFMT
                };
                match t.get(f as usize).copied().flatten() {
                    Some(n) => format!(" format:[{n}]"),
                    None => format!(" format:{f}"),
                }
            }
        }
    }

    /// LLVM 19 syntax.
    pub fn text(&self) -> String {
        let g = self.gen();
        let mut parts = Vec::new();
        for s in self.enc.row.opds {
            match s.field {
                Fld::Vdata => {
                    if let Some(op) = self.vdata() {
                        parts.push(op.text(s.ty, g));
                    }
                }
                // The row prints VADDR as `off` (measured without OFFEN/IDXEN).
                Fld::Imm | Fld::Vaddr => parts.push(match self.vaddr() {
                    Some(op) => op.text(s.ty, g),
                    None => "off".into(),
                }),
                _ => parts.push(self.enc.slot_text(s)),
            }
        }
        let mut t = self.mnemonic().to_string();
        if !parts.is_empty() {
            t.push(' ');
            t.push_str(&parts.join(", "));
        }
        if self.typed() {
            t.push_str(&self.format_text());
        }
        for (on, name) in [
            (self.idxen(), " idxen"),
            (self.offen(), " offen"),
            (self.addr64(), " addr64"),
        ] {
            if on {
                t.push_str(name);
            }
        }
        if self.offset() != 0 {
            t.push_str(&format!(" offset:{}", self.offset()));
        }
        for (on, name) in [
            (self.glc(), " glc"),
            (self.slc(), " slc"),
            (self.dlc(), " dlc"),
            (self.lds(), " lds"),
            (self.tfe(), " tfe"),
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
            Field::int("op", self.op()),
            Field::int("offset", self.offset()),
            Field::int("offen", b(self.offen())),
            Field::int("idxen", b(self.idxen())),
            Field::int("glc", b(self.glc())),
            Field::int("slc", b(self.slc())),
        ];
        if self.gen() >= Gen::Gfx10 {
            f.push(Field::int("dlc", b(self.dlc())));
        }
        if self.gen() <= Gen::Gfx7 {
            f.push(Field::int("addr64", b(self.addr64())));
        }
        if !self.typed() {
            f.push(Field::int("lds", b(self.lds())));
        } else if self.gen() <= Gen::Gfx9 {
            f.push(Field::int("dfmt", e.bits(19, 4)));
            f.push(Field::int("nfmt", e.bits(23, 3)));
        } else {
            f.push(Field::int("format", e.bits(19, 7)));
        }
        f.extend([
            Field::int("vaddr", e.bits(32, 8)),
            Field::int("vdata", e.bits(40, 8)),
            Field::int("srsrc", e.bits(48, 5)),
            Field::int("soffset", e.bits(56, 8)),
            Field::int("tfe", b(self.tfe())),
        ]);
        if let Some(l) = e.literal {
            f.push(Field::int("literal", l));
        }
        f
    }

    fn validate(&self) -> Result<(), String> {
        let e = &self.enc;
        let name = e.row.name;
        // VADDR is read by OFFEN/IDXEN here; the rows were measured without.
        let bits = e.bits & !(0xffu128 << 32);
        if !e.row.bits.accepts(bits) {
            return Err(format!("{name}: bits LLVM rejects"));
        }
        if self.vaddr_count() > 0 && self.vaddr().is_none() {
            return Err(format!("{name}: vaddr runs past v255"));
        }
        if self.lds_form() && self.tfe() {
            return Err(format!("{name}: lds with tfe"));
        }
        if self.gen() <= Gen::Gfx7 {
            // SI/CI: "valid" means the text reassembles; LLVM's assembler has
            // no ADDR64 form with OFFEN/IDXEN, and takes no TFE on a store.
            if self.addr64() && (self.offen() || self.idxen()) {
                return Err(format!("{name}: addr64 with offen/idxen"));
            }
            if self.tfe() && name.contains("store") {
                return Err(format!("{name}: tfe on a store"));
            }
            if self.enc.bit(15) && !self.addr64() {
                return Err(format!("{name}: addr64 without an address"));
            }
            if self.typed() && (self.format() >> 4) == 6 {
                return Err(format!("{name}: number format 6 (reserved)"));
            }
        }
        for s in e.row.opds {
            match s.field {
                Fld::Vdata if !self.lds_form() => {
                    let mut s = *s;
                    s.regs += u8::from(self.tfe());
                    e.validate_slot(&s)?;
                }
                Fld::Srsrc | Fld::Soffset => e.validate_slot(s)?,
                _ => {}
            }
        }
        Ok(())
    }
}

/// Decodes a MUBUF or MTBUF instruction; `None` without rows.
pub fn decode(form: Form, words: &[u32], arch: &Arch) -> Option<Result<Buffer, String>> {
    Some(Encoded::new(form, words, arch.gen)?.and_then(|enc| {
        let b = Buffer::raw(enc);
        b.validate().map(|()| b.filled())
    }))
}
