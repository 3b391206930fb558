//! Every instruction class that gcnrun decodes only to its class, length and name.
//!
//! Every class of gfx6–gfx11 now has its operand-decoding module; this one is
//! the fallback for a class and generation without signature rows. The name
//! comes from the per-generation opcode tables ([`super::ops`]). On gfx8–gfx11
//! those tables are what the LLVM 19 disassembler decodes, so an opcode missing
//! from a class's table is reported invalid, as LLVM does. The gfx6/gfx7 tables
//! are read back from LLVM's *assembler* (LLVM 19 cannot disassemble SI/CI);
//! there a missing opcode only leaves the instruction unnamed.

use super::encoding::{SRC_DPP, SRC_DPP8, SRC_SDWA};
use super::{ops, Encoding, Field};
use crate::arch::{Arch, Gen};

/// An instruction of a class that is not decoded operand by operand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Other {
    /// The encoding class.
    pub encoding: Encoding,
    /// The opcode field, where the class has one (FLAT on gfx9+: `seg << 8 | op`).
    pub opcode: Option<u32>,
    /// The mnemonic, where known, as LLVM 19 prints it for this form
    /// (`v_mov_b32_e32`, `v_mov_b32_sdwa`, `v_mov_b32_e64_dpp`, …).
    pub name: Option<&'static str>,
    /// The extended form (SDWA, DPP) selected by `src0`.
    pub form: Form,
    /// The full mnemonic of the form ([`Other::full_name`]), computed once.
    pub full: Option<String>,
    /// Full LLVM text where gcnrun spells the operands (`operand_text`).
    pub asm: Option<String>,
}

/// The VOP1/VOP2/VOPC/VOP3 sub-form selected by `src0`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// The plain encoding.
    Plain,
    /// SDWA (`src0` = 0xF9, gfx8–gfx10).
    Sdwa,
    /// DPP16 (`src0` = 0xFA) or DPP8 (0xE9/0xEA).
    Dpp,
}

impl Other {
    /// The mnemonic of this form, where known.
    pub fn mnemonic(&self) -> Option<&str> {
        self.full.as_deref()
    }

    /// The full mnemonic of the form: `v_mov_b32_e32` → `v_mov_b32_sdwa` for
    /// SDWA, `v_mov_b32_dpp` for DPP (LLVM replaces `_e32`; a VOP3 name gets
    /// `_dpp` appended: `v_add_f32_e64_dpp`).
    pub fn full_name(&self) -> Option<String> {
        let n = self.name?;
        let base = n.strip_suffix("_e32").unwrap_or(n);
        Some(match (self.form, self.encoding) {
            (Form::Plain, _) => n.to_string(),
            (Form::Sdwa, _) => format!("{base}_sdwa"),
            (Form::Dpp, Encoding::Vop3 | Encoding::Vop3p) => format!("{n}_dpp"),
            (Form::Dpp, _) => format!("{base}_dpp"),
        })
    }

    /// LLVM text where gcnrun spells the operands; otherwise the words as one
    /// `.long 0x…, 0x…` directive, which reassembles to the same bytes.
    pub fn text(&self, words: &[u32]) -> String {
        if let Some(t) = &self.asm {
            return t.clone();
        }
        // One directive for all words: `;` starts a comment in amdgcn assembly,
        // so `.long 0x…; .long 0x…` would lose the second word (docs/decoder.md).
        let list: Vec<String> = words.iter().map(|w| format!("0x{w:08x}")).collect();
        format!(".long {}", list.join(", "))
    }

    /// Fields: the opcode where the class has one.
    pub fn fields(&self, _words: &[u32]) -> Vec<Field> {
        self.opcode
            .map(|op| vec![Field::int("op", op)])
            .unwrap_or_default()
    }
}

/// The opcode (table key) of the instruction, per class and generation (AMD ISA
/// manuals' microcode formats; LLVM `*Instructions.td` encodings).
pub fn opcode(enc: Encoding, words: &[u32], gen: Gen) -> Option<u32> {
    let w = *words.first()?;
    let w1 = words.get(1).copied().unwrap_or(0);
    let pre_gfx8 = gen <= Gen::Gfx7;
    Some(match enc {
        Encoding::Sop1 => (w >> 8) & 0xff,
        Encoding::Sop2 => (w >> 23) & 0x7f,
        Encoding::Sopk => (w >> 23) & 0x1f,
        Encoding::Sopc | Encoding::Sopp => (w >> 16) & 0x7f,
        Encoding::Smrd => (w >> 22) & 0x1f,
        Encoding::Smem => (w >> 18) & 0xff,
        Encoding::Vop1 => (w >> 9) & 0xff,
        Encoding::Vop2 => (w >> 25) & 0x3f,
        Encoding::Vopc => (w >> 17) & 0xff,
        Encoding::Vop3 if pre_gfx8 => (w >> 17) & 0x1ff,
        Encoding::Vop3 => (w >> 16) & 0x3ff,
        Encoding::Vop3p => (w >> 16) & 0x7f,
        Encoding::Ds if matches!(gen, Gen::Gfx8 | Gen::Gfx9) => (w >> 17) & 0xff,
        Encoding::Ds => (w >> 18) & 0xff,
        Encoding::Mubuf if gen == Gen::Gfx11 => (w >> 18) & 0xff,
        Encoding::Mubuf => (w >> 18) & 0x7f,
        Encoding::Mtbuf => match gen {
            Gen::Gfx6 | Gen::Gfx7 => (w >> 16) & 7,
            // gfx10 splits the opcode: bits 18:16 and bit 53.
            Gen::Gfx10 => (w >> 16) & 7 | ((w1 >> 21) & 1) << 3,
            _ => (w >> 15) & 0xf,
        },
        // SEG (0 flat, 1 scratch, 2 global) is bits 15:14 on gfx9/gfx10, 17:16 on gfx11.
        Encoding::Flat if gen == Gen::Gfx11 => ((w >> 16) & 3) << 8 | (w >> 18) & 0x7f,
        Encoding::Flat if gen >= Gen::Gfx9 => ((w >> 14) & 3) << 8 | (w >> 18) & 0x7f,
        Encoding::Flat => (w >> 18) & 0x7f,
        _ => return None,
    })
}

/// The extended form a VOP instruction's `src0` selects on this generation.
fn form_of(enc: Encoding, words: &[u32], gen: Gen) -> Form {
    let src0 = match enc {
        Encoding::Vop1 | Encoding::Vop2 | Encoding::Vopc => words.first().map(|w| w & 0x1ff),
        // Only gfx11 VOP3/VOP3P have DPP forms (src0 in dword 1).
        Encoding::Vop3 | Encoding::Vop3p if gen == Gen::Gfx11 => words.get(1).map(|w| w & 0x1ff),
        _ => None,
    };
    match src0 {
        Some(SRC_SDWA) if matches!(enc, Encoding::Vop1 | Encoding::Vop2 | Encoding::Vopc) => {
            Form::Sdwa
        }
        Some(SRC_DPP) if gen >= Gen::Gfx8 => Form::Dpp,
        Some(s) if SRC_DPP8.contains(&s) && gen >= Gen::Gfx10 => Form::Dpp,
        _ => Form::Plain,
    }
}

/// Decodes a non-MIMG, non-SOPP, non-interp instruction.
pub fn decode(enc: Encoding, words: &[u32], arch: &Arch) -> Result<Other, String> {
    let gen = arch.gen;
    match enc {
        Encoding::Unknown => {
            return Err("no encoding class of this generation starts with this dword".into())
        }
        Encoding::Exp => {
            return Ok(Other {
                encoding: enc,
                opcode: None,
                name: Some("exp"),
                form: Form::Plain,
                full: Some("exp".into()),
                asm: None,
            })
        }
        _ => {}
    }
    let form = form_of(enc, words, gen);
    if form == Form::Sdwa && gen == Gen::Gfx11 {
        return Err("gfx11 has no SDWA".into());
    }
    let opcode = opcode(enc, words, gen);
    let name = match (opcode, ops::table(gen, enc)) {
        (Some(op), Some(table)) => match ops::lookup(table, op) {
            Some(n) => Some(n),
            None if gen >= Gen::Gfx8 => {
                return Err(format!(
                    "{enc} opcode {op:#x} is not an instruction of {gen:?}"
                ))
            }
            None => None,
        },
        _ => None,
    };
    let mut other = Other {
        encoding: enc,
        opcode,
        name,
        form,
        full: None,
        asm: None,
    };
    other.full = other.full_name();
    if let Some(name) = other.full.as_deref() {
        other.asm = operand_text(enc, name, words, arch).map(|ops| format!("{name} {ops}"));
    }
    Ok(other)
}

/// True for the scalar ALU mnemonics whose every operand is one 32-bit scalar
/// (`s_add_u32`, `s_cmp_eq_i32`, `s_not_b32`, …). 64-bit, special-register and
/// mixed-width forms are left as `.long` (kept exact rather than guessed).
fn all_scalar32(name: &str) -> bool {
    let suffix_ok = ["_b32", "_i32", "_u32"].iter().any(|s| name.ends_with(s));
    let excluded = [
        "64",
        "saveexec",
        "movrel",
        "getpc",
        "setpc",
        "swappc",
        "rfe",
        "cbranch",
        "gpr_idx",
        "set_gpr",
        "sendmsg",
        "setreg",
        "getreg",
        "bitreplicate",
        "ctz",
        "clz",
        "cls",
        "s_ff",
        "flbit",
        "bcnt",
        "quadmask",
        "wqm",
        "lshl4",
        "lshl3",
        "lshl2",
        "lshl1",
        "pack",
        "cvt",
        "cselect",
        "cmov",
    ];
    suffix_ok && !excluded.iter().any(|e| name.contains(e))
}

/// The operands of the forms gcnrun spells in full, checked against llvm-mc-19
/// by tests/llvm_diff_stream.rs: 32-bit SOP1/SOP2/SOPC and `v_mov_b32_e32`.
/// `None` when the form is not one of those or an operand has no spelling.
fn operand_text(enc: Encoding, name: &str, words: &[u32], arch: &Arch) -> Option<String> {
    use super::operand::{scalar_dst32, scalar_src32};
    let w = *words.first()?;
    let lit = words.get(1).copied();
    match enc {
        Encoding::Sop1 if all_scalar32(name) => {
            let d = scalar_dst32((w >> 16) & 0x7f, arch)?;
            Some(format!("{d}, {}", scalar_src32(w & 0xff, arch, lit)?))
        }
        Encoding::Sop2 if all_scalar32(name) => {
            let d = scalar_dst32((w >> 16) & 0x7f, arch)?;
            let a = scalar_src32(w & 0xff, arch, lit)?;
            Some(format!(
                "{d}, {a}, {}",
                scalar_src32((w >> 8) & 0xff, arch, lit)?
            ))
        }
        Encoding::Sopc if all_scalar32(name) => {
            let a = scalar_src32(w & 0xff, arch, lit)?;
            Some(format!(
                "{a}, {}",
                scalar_src32((w >> 8) & 0xff, arch, lit)?
            ))
        }
        Encoding::Vop1 if name == "v_mov_b32_e32" => {
            let src = w & 0x1ff;
            let s = if src >= 256 {
                format!("v{}", src - 256)
            } else {
                scalar_src32(src, arch, lit)?
            };
            Some(format!("v{}, {s}", (w >> 17) & 0xff))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gcn::encoding::classify;

    fn name(mcpu: &str, words: &[u32]) -> Result<Option<String>, String> {
        let arch = Arch::parse(mcpu).unwrap();
        decode(classify(words, &arch), words, &arch).map(|o| o.full_name())
    }

    /// Names llvm-mc-19 prints for these words.
    #[test]
    fn llvm_names() {
        let cases: &[(&str, &[u32], &str)] = &[
            ("tonga", &[0x7e0a_0301], "v_mov_b32_e32"),
            ("tonga", &[0x7e0a_02f9, 0x0006_0601], "v_mov_b32_sdwa"),
            ("gfx1030", &[0x7e0a_02e9, 0], "v_mov_b32_dpp"),
            (
                "gfx1100",
                &[0xd581_0005, 0xfa, 0x4401_2211],
                "v_mov_b32_e64_dpp",
            ),
            ("tonga", &[0xc400_0000, 0], "exp"),
        ];
        for &(mcpu, words, want) in cases {
            assert_eq!(name(mcpu, words), Ok(Some(want.to_string())), "{mcpu}");
        }
    }

    /// Full texts llvm-mc-19 prints for these words.
    #[test]
    fn llvm_operand_texts() {
        let cases: &[(&str, &[u32], &str)] = &[
            (
                "tonga",
                &[0xbe80_00ff, 0x1234_5678],
                "s_mov_b32 s0, 0x12345678",
            ),
            ("tonga", &[0xbe80_007d], "s_mov_b32 s0, null"),
            ("gfx1100", &[0xbe80_007d], "s_mov_b32 s0, m0"),
            ("gfx900", &[0xbe80_006c], "s_mov_b32 s0, ttmp0"),
            ("tonga", &[0xbe80_006c], "s_mov_b32 s0, tba_lo"),
            ("tonga", &[0xbe80_00f8], "s_mov_b32 s0, 0.15915494"),
            ("tonga", &[0x7e0a_0301], "v_mov_b32_e32 v5, v1"),
        ];
        for &(mcpu, words, want) in cases {
            let arch = Arch::parse(mcpu).unwrap();
            let o = decode(classify(words, &arch), words, &arch).unwrap();
            assert_eq!(o.text(words), want, "{mcpu} {words:x?}");
        }
    }

    #[test]
    fn unspelled_words_are_one_long_directive() {
        let arch = Arch::parse("bonaire").unwrap();
        // v_bfe_u32 v2, v0, 3, 1 on gfx7 (VOP3; operands not spelled by gcnrun).
        let words = [0xd290_0002, 0x0205_0300];
        let o = decode(classify(&words, &arch), &words, &arch).unwrap();
        assert_eq!(o.text(&words), ".long 0xd2900002, 0x02050300");
        assert_eq!(o.mnemonic(), Some("v_bfe_u32"));
    }

    #[test]
    fn unknown_opcodes_are_invalid_on_gfx8_plus() {
        // VOP1 opcode 0xff exists on no generation.
        assert!(name("gfx900", &[0x7e0a_ff01]).is_err());
        assert_eq!(name("tahiti", &[0x7e0a_ff01]), Ok(None));
        // gfx11 has no SDWA.
        assert!(name("gfx1100", &[0x7e0a_02f9, 0]).is_err());
    }
}
