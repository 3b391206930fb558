//! Exports: EXP, operand by operand.
//!
//! Layout (two dwords): EN 3:0 (which sources are written), TARGET 9:4, COMPR
//! 10 (before gfx11), DONE 11, VM 12 (before gfx11; gfx11 ROW_EN is 13); VSRC0–3
//! 39:32, 47:40, 55:48, 63:56. Text (LLVM `printExpTgt`, `printExpSrcN`):
//! `exp TARGET s0, s1, s2, s3` with `off` for a disabled source — with COMPR
//! the sources print as vsrc0, vsrc0, vsrc1, vsrc1 — then `done`, `compr`,
//! `vm` (gfx11: `done`, `row_en`).

use super::encoded::Encoded;
use super::operand::{Operand, TypedOperand};
use super::signature::{Fld, Form, Ty};
use super::Field;
use crate::arch::{Arch, Gen};

/// A decoded export: its raw encoding and, filled when it is decoded, its
/// target, sources and flags as LLVM prints them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Exp {
    /// Form, signature row, raw bits.
    pub enc: Encoded,
    /// TARGET: `mrt0`–`mrt7` 0–7, `mrtz` 8, `null` 9, `pos0`… 12…, `param0`…
    /// 32… ([`target_name`]).
    pub target: u8,
    /// EN: which of the four sources are written.
    pub en: u8,
    /// The source VGPRs exported in channels 0–3 (`None`: disabled; with
    /// COMPR, channels 0/1 read VSRC0 and 2/3 read VSRC1, two f16 each).
    pub sources: [Option<Operand>; 4],
    /// COMPR (before gfx11): the sources are packed 16-bit pairs.
    pub compr: bool,
    /// DONE: the last export of its kind.
    pub done: bool,
    /// VM (before gfx11): the export carries the valid mask.
    pub vm: bool,
    /// ROW_EN (gfx11).
    pub row_en: bool,
}

/// An export target's name on `gen` (swept with llvm-mc-19 over all 64):
/// `mrt0`–`mrt7`, `mrtz`, `null` (before gfx11), `pos0`–`pos3` (`pos4` and
/// `prim` from gfx10), `dual_src_blend0/1` (gfx11), `param0`–`param31`
/// (before gfx11).
pub fn target_name(t: u32, gen: Gen) -> Option<String> {
    let g10 = gen >= Gen::Gfx10;
    let g11 = gen == Gen::Gfx11;
    Some(match t {
        0..=7 => format!("mrt{t}"),
        8 => "mrtz".into(),
        9 if !g11 => "null".into(),
        12..=15 => format!("pos{}", t - 12),
        16 if g10 => "pos4".into(),
        20 if g10 => "prim".into(),
        21 | 22 if g11 => format!("dual_src_blend{}", t - 21),
        32..=63 if !g11 => format!("param{}", t - 32),
        _ => return None,
    })
}

impl Exp {
    fn gen(&self) -> Gen {
        self.enc.gen
    }

    /// The mnemonic.
    pub fn mnemonic(&self) -> &'static str {
        self.enc.row.name
    }

    /// EN.
    pub fn en(&self) -> u32 {
        self.enc.bits(0, 4)
    }

    /// TARGET.
    pub fn target(&self) -> u32 {
        self.enc.bits(4, 6)
    }

    /// COMPR (before gfx11).
    pub fn compr(&self) -> bool {
        self.gen() < Gen::Gfx11 && self.enc.bit(10)
    }

    /// DONE.
    pub fn done(&self) -> bool {
        self.enc.bit(11)
    }

    /// VM (before gfx11).
    pub fn vm(&self) -> bool {
        self.gen() < Gen::Gfx11 && self.enc.bit(12)
    }

    /// ROW_EN (gfx11).
    pub fn row_en(&self) -> bool {
        self.gen() == Gen::Gfx11 && self.enc.bit(13)
    }

    /// The VGPR written as export source `n` (0–3), `None` when disabled.
    pub fn source(&self, n: u32) -> Option<Operand> {
        if self.en() >> n & 1 == 0 {
            return None;
        }
        let field = if self.compr() { n / 2 } else { n };
        Some(Operand::Vgpr {
            first: self.enc.bits(32 + 8 * field, 8) as u8,
            count: 1,
        })
    }

    /// The enabled sources, typed.
    pub fn operands(&self) -> Vec<TypedOperand> {
        let fields = [Fld::Vsrc0, Fld::Vsrc1, Fld::Vsrc2, Fld::Vsrc3];
        (0..4)
            .filter_map(|n| {
                Some(TypedOperand {
                    field: fields[n as usize],
                    operand: self.source(n)?,
                    ty: Ty::B32,
                })
            })
            .collect()
    }

    /// LLVM 19 syntax.
    pub fn text(&self) -> String {
        let g = self.gen();
        let tgt = target_name(self.target(), g).unwrap_or_default();
        let srcs: Vec<String> = (0..4)
            .map(|n| {
                self.source(n)
                    .map_or_else(|| "off".to_string(), |o| o.text(Ty::B32, g))
            })
            .collect();
        let mut t = format!("{} {tgt} {}", self.mnemonic(), srcs.join(", "));
        for (on, name) in [
            (self.done(), " done"),
            (self.compr(), " compr"),
            (self.vm(), " vm"),
            (self.row_en(), " row_en"),
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
            Field::int("en", self.en()),
            Field::int("target", self.target()),
            Field::int("done", b(self.done())),
        ];
        if self.gen() < Gen::Gfx11 {
            f.push(Field::int("compr", b(self.compr())));
            f.push(Field::int("vm", b(self.vm())));
        } else {
            f.push(Field::int("row_en", b(self.row_en())));
        }
        for (i, name) in ["vsrc0", "vsrc1", "vsrc2", "vsrc3"].iter().enumerate() {
            f.push(Field::int(name, e.bits(32 + 8 * i as u32, 8)));
        }
        f
    }

    fn validate(&self) -> Result<(), String> {
        let e = &self.enc;
        if target_name(self.target(), self.gen()).is_none() {
            return Err(format!("export target {} does not exist", self.target()));
        }
        // EN, TARGET and the sources are read above; the row's bits speak for
        // the rest.
        let bits = e.bits & !(0x3ffu128 | 0xffff_ffffu128 << 32);
        if !e.row.bits.accepts(bits) {
            return Err("exp: bits LLVM rejects".into());
        }
        // gfx6/gfx7, where "valid" means the text reassembles: with COMPR,
        // llvm-mc-19 enables both halves of a compressed source (EN 0b11 per
        // pair, AMDGPUAsmParser::cvtExp), so a pair enabled by half has no text.
        let en = self.en();
        if self.gen() <= Gen::Gfx7
            && self.compr()
            && (en & 1 != en >> 1 & 1 || en >> 2 & 1 != en >> 3)
        {
            return Err(format!(
                "exp: compressed export with EN {en:#x} (one half of a pair) has no text llvm-mc-19 reassembles"
            ));
        }
        Ok(())
    }
}

/// Decodes an export; `None` without rows.
pub fn decode(words: &[u32], arch: &Arch) -> Option<Result<Exp, String>> {
    Some(Encoded::new(Form::Exp, words, arch.gen)?.and_then(|enc| {
        let mut x = Exp {
            enc,
            target: 0,
            en: 0,
            sources: [None; 4],
            compr: false,
            done: false,
            vm: false,
            row_en: false,
        };
        x.validate()?;
        x.target = x.target() as u8;
        x.en = x.en() as u8;
        x.sources = [0, 1, 2, 3].map(|n| x.source(n));
        x.compr = x.compr();
        x.done = x.done();
        x.vm = x.vm();
        x.row_en = x.row_en();
        Ok(x)
    }))
}
