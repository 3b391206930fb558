//! Encoding classes: which class a first dword selects, and instruction lengths.
//!
//! The class is chosen by a fixed prefix of the first dword, and the prefixes
//! moved between generations (LLVM `SIInstrFormats.td`, `*Instructions.td`
//! `*_gfx6_gfx7` / `*_vi` / `*_gfx10` / `*_gfx11` encodings; every selector below
//! was checked by disassembling with llvm-mc-19, and on gfx6/gfx7, which LLVM 19
//! cannot disassemble, by assembling with it):
//!
//! | bits 31:26 | gfx6/gfx7 | gfx8/gfx9 | gfx10 | gfx11 |
//! |---|---|---|---|---|
//! | `110000` | SMRD | SMEM | – | – |
//! | `110001` | SMRD | EXP | – | – |
//! | `110010` | VINTRP | – | VINTRP | VOPD |
//! | `110011` | – | – | VOP3P (`0xCC`) | VOP3P `0xCC`, VINTERP `0xCD`, LDSDIR `0xCE` |
//! | `110100` | VOP3 | VOP3 (gfx9: VOP3P when bits 31:23 = `0x1A7`) | – | – |
//! | `110101` | – | VINTRP | VOP3 | VOP3 |
//! | `110110` | DS | DS | DS | DS |
//! | `110111` | FLAT (gfx7 only) | FLAT | FLAT | FLAT |
//! | `111000` | MUBUF | MUBUF | MUBUF | MUBUF |
//! | `111010` | MTBUF | MTBUF | MTBUF | MTBUF |
//! | `111100` | MIMG | MIMG | MIMG | MIMG |
//! | `111101` | – | – | SMEM | SMEM |
//! | `111110` | EXP | – | EXP | EXP |
//!
//! Below that, on every generation: bit 31 = 0 is VOP2 except bits 31:25 =
//! `0111111` (VOP1) and `0111110` (VOPC); bits 31:30 = `10` is SOP2 except bits
//! 31:28 = `1011`, which is SOPK except bits 31:23 = `0x17D` SOP1, `0x17E` SOPC,
//! `0x17F` SOPP.

use super::ops;
use crate::arch::{Arch, Gen};
use serde::Serialize;
use std::fmt;

/// The encoding class of an instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[allow(missing_docs)]
pub enum Encoding {
    Sop1,
    Sop2,
    Sopk,
    Sopc,
    Sopp,
    Smrd,
    Smem,
    Vop1,
    Vop2,
    Vopc,
    Vop3,
    Vop3p,
    Vopd,
    Vintrp,
    Vinterp,
    Ldsdir,
    Ds,
    Mubuf,
    Mtbuf,
    Mimg,
    Exp,
    Flat,
    /// A first dword that selects no class of this generation.
    Unknown,
}

impl Encoding {
    /// The class's name as the ISA documents spell it (`MIMG`, `VOP3`, …).
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Sop1 => "SOP1",
            Encoding::Sop2 => "SOP2",
            Encoding::Sopk => "SOPK",
            Encoding::Sopc => "SOPC",
            Encoding::Sopp => "SOPP",
            Encoding::Smrd => "SMRD",
            Encoding::Smem => "SMEM",
            Encoding::Vop1 => "VOP1",
            Encoding::Vop2 => "VOP2",
            Encoding::Vopc => "VOPC",
            Encoding::Vop3 => "VOP3",
            Encoding::Vop3p => "VOP3P",
            Encoding::Vopd => "VOPD",
            Encoding::Vintrp => "VINTRP",
            Encoding::Vinterp => "VINTERP",
            Encoding::Ldsdir => "LDSDIR",
            Encoding::Ds => "DS",
            Encoding::Mubuf => "MUBUF",
            Encoding::Mtbuf => "MTBUF",
            Encoding::Mimg => "MIMG",
            Encoding::Exp => "EXP",
            Encoding::Flat => "FLAT",
            Encoding::Unknown => "unknown",
        }
    }
}

impl fmt::Display for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The source-operand code of a 32-bit literal constant that follows the
/// instruction (SI–gfx11 operand encoding; LLVM `SIDefines.h` `LITERAL_CONST`).
pub const SRC_LITERAL: u32 = 255;
/// VOP1/VOP2/VOPC `src0` code that selects the 64-bit SDWA form (gfx8–gfx10).
pub const SRC_SDWA: u32 = 0xf9;
/// `src0` code that selects the 64-bit DPP16 form (gfx8+; on gfx11 also in VOP3).
pub const SRC_DPP: u32 = 0xfa;
/// `src0` codes that select the 64-bit DPP8 form (gfx10+; 0xea = DPP8 with fetch-inactive).
pub const SRC_DPP8: [u32; 2] = [0xe9, 0xea];

/// The class selected by the first dword of `words`; `Unknown` for an empty slice.
pub fn classify(words: &[u32], arch: &Arch) -> Encoding {
    let Some(&w) = words.first() else {
        return Encoding::Unknown;
    };
    if w >> 31 == 0 {
        return match w >> 25 {
            0x3f => Encoding::Vop1,
            0x3e => Encoding::Vopc,
            _ => Encoding::Vop2,
        };
    }
    if w >> 30 == 0b10 {
        if w >> 28 != 0b1011 {
            return Encoding::Sop2;
        }
        return match w >> 23 {
            0x17d => Encoding::Sop1,
            0x17e => Encoding::Sopc,
            0x17f => Encoding::Sopp,
            _ => Encoding::Sopk,
        };
    }
    let top6 = w >> 26;
    let top8 = w >> 24;
    match arch.gen {
        Gen::Gfx6 | Gen::Gfx7 => match top6 {
            0b110000 | 0b110001 => Encoding::Smrd,
            0b110010 => Encoding::Vintrp,
            0b110100 => Encoding::Vop3,
            0b110111 if arch.gen == Gen::Gfx7 => Encoding::Flat,
            _ => common_memory(top6),
        },
        Gen::Gfx8 | Gen::Gfx9 => match top6 {
            0b110000 => Encoding::Smem,
            0b110001 => Encoding::Exp,
            // gfx9 VOP3P: bits 31:23 = 0x1A7 (LLVM VOP3Pe `Inst{31-23} = 0x1a7`).
            0b110100 if arch.gen == Gen::Gfx9 && w >> 23 == 0x1a7 => Encoding::Vop3p,
            0b110100 => Encoding::Vop3,
            0b110101 => Encoding::Vintrp,
            0b110111 => Encoding::Flat,
            _ => common_memory(top6),
        },
        Gen::Gfx10 => match top6 {
            0b110010 => Encoding::Vintrp,
            // VOP3P: bits 31:23 = 0x198 (byte 3 = 0xCC with bit 23 clear).
            0b110011 if w >> 23 == 0x198 => Encoding::Vop3p,
            0b110101 => Encoding::Vop3,
            0b110111 => Encoding::Flat,
            0b111101 => Encoding::Smem,
            0b111110 => Encoding::Exp,
            _ => common_memory(top6),
        },
        Gen::Gfx11 => match top6 {
            0b110010 => Encoding::Vopd,
            0b110011 => match top8 {
                0xcc => Encoding::Vop3p,
                0xcd => Encoding::Vinterp,
                0xce => Encoding::Ldsdir,
                _ => Encoding::Unknown,
            },
            0b110101 => Encoding::Vop3,
            0b110111 => Encoding::Flat,
            0b111101 => Encoding::Smem,
            0b111110 => Encoding::Exp,
            _ => common_memory(top6),
        },
    }
}

/// The classes whose selector is the same on every generation: DS, MUBUF, MTBUF,
/// MIMG, and EXP's gfx6/gfx7 prefix (gfx8/9 moved EXP, see the table above).
fn common_memory(top6: u32) -> Encoding {
    match top6 {
        0b110110 => Encoding::Ds,
        0b111000 => Encoding::Mubuf,
        0b111010 => Encoding::Mtbuf,
        0b111100 => Encoding::Mimg,
        0b111110 => Encoding::Exp,
        _ => Encoding::Unknown,
    }
}

/// The instruction's length in dwords; may exceed `words.len()` (truncation).
///
/// Only the first dword is needed except for VOP3/VOP3P/VOPD, whose literal
/// depends on fields of the second dword; when that dword is missing the
/// instruction is reported at its minimum length (the stream is truncated anyway).
pub fn length_dwords(words: &[u32], enc: Encoding, arch: &Arch) -> usize {
    let Some(&w0) = words.first() else {
        return 1;
    };
    let w1 = words.get(1).copied();
    let gen = arch.gen;
    let lit = |b: bool| usize::from(b);
    match enc {
        Encoding::Sop1 => {
            let op = (w0 >> 8) & 0xff;
            1 + lit(w0 & 0xff == SRC_LITERAL && !ops::sop1_src_is_not_operand(gen, op))
        }
        Encoding::Sop2 => 1 + lit(w0 & 0xff == SRC_LITERAL || (w0 >> 8) & 0xff == SRC_LITERAL),
        // s_set_gpr_idx_on (gfx8/9) keeps an immediate mode in SSRC1: 255 there is
        // no literal (llvm-mc-19 decodes 4 bytes).
        Encoding::Sopc => {
            let op = (w0 >> 16) & 0x7f;
            let src1_is_reg = !ops::sopc_src1_is_imm(gen, op);
            1 + lit(w0 & 0xff == SRC_LITERAL || (src1_is_reg && (w0 >> 8) & 0xff == SRC_LITERAL))
        }
        // s_setreg_imm32_b32 is the one SOPK that carries a 32-bit literal.
        Encoding::Sopk => 1 + lit((w0 >> 23) & 0x1f == ops::sopk_setreg_imm32(gen)),
        Encoding::Sopp | Encoding::Vintrp | Encoding::Ldsdir => 1,
        // CI (gfx7) added a 32-bit literal offset: IMM = 0 with OFFSET = 0xFF
        // (LLVM SMRD_Real_IMM_ci; verified with llvm-mc-19 -mcpu=bonaire). SI
        // rejects the form. s_memtime/s_dcache_inv (0x1e/0x1f) take no offset.
        Encoding::Smrd => {
            let op = (w0 >> 22) & 0x1f;
            let literal_offset = gen == Gen::Gfx7 && w0 & 0x1ff == 0xff && op < 0x1e;
            1 + lit(literal_offset)
        }
        // VOP1 opcodes without a source (v_nop, v_clrexcp, v_pipeflush) ignore
        // SRC0: a literal code there is no literal (llvm-mc-19 decodes `v_nop`
        // 4 bytes long). SDWA/DPP codes are settled by the decoder: LLVM takes
        // the extended form where it decodes, else the 32-bit one.
        Encoding::Vop1 if w0 & 0x1ff == SRC_LITERAL && !vop1_reads_src0(gen, (w0 >> 9) & 0xff) => 1,
        Encoding::Vop1 | Encoding::Vopc => vop_short_len(w0 & 0x1ff, gen),
        Encoding::Vop2 => {
            let op = (w0 >> 25) & 0x3f;
            if ops::vop2_has_literal(gen, op) {
                2
            } else {
                vop_short_len(w0 & 0x1ff, gen)
            }
        }
        Encoding::Vop3 | Encoding::Vop3p => match (gen, w1) {
            (Gen::Gfx6 | Gen::Gfx7 | Gen::Gfx8 | Gen::Gfx9, _) | (_, None) => 2,
            (_, Some(w1)) => {
                let mut srcs = [w1 & 0x1ff, (w1 >> 9) & 0x1ff, (w1 >> 18) & 0x1ff];
                // The VOP3 interps keep the attribute in SRC0 (gfx10 only here).
                if enc == Encoding::Vop3 && super::interp::is_vop3_interp(gen, (w0 >> 16) & 0x3ff) {
                    srcs[0] = 0;
                }
                // gfx11 VOP3/VOP3P DPP: SRC0 selects a DPP16/DPP8 dword, and a
                // literal in SRC1/SRC2 follows it (llvm-mc-19 decodes
                // `v_maxmin_f16_e64_dpp v146, v68, 0xb6dd, s0 … dpp8:[…]` 16 bytes).
                let dpp = gen == Gen::Gfx11 && (srcs[0] == SRC_DPP || SRC_DPP8.contains(&srcs[0]));
                2 + lit(dpp) + lit(srcs.contains(&SRC_LITERAL))
            }
        },
        // VOPD (gfx11): srcX0 in bits 8:0, srcY0 in bits 40:32; opX 25:22 and
        // opY 21:17, where 1 = fmaak and 2 = fmamk always carry a literal
        // (verified with llvm-mc-19 -mcpu=gfx1100).
        Encoding::Vopd => {
            let op_x = (w0 >> 22) & 0xf;
            let op_y = (w0 >> 17) & 0x1f;
            let src_y0 = w1.map_or(0, |w| w & 0x1ff);
            let k = |op: u32| op == 1 || op == 2;
            2 + lit(w0 & 0x1ff == SRC_LITERAL || src_y0 == SRC_LITERAL || k(op_x) || k(op_y))
        }
        // gfx10+ MUBUF/MTBUF: SOFFSET (bits 63:56) = 255 is a 32-bit literal
        // (llvm-mc-19 gfx1030/gfx1100 decode 12 bytes; gfx9 rejects the code).
        Encoding::Mubuf | Encoding::Mtbuf => {
            2 + lit(gen >= Gen::Gfx10 && w1.is_some_and(|w| w >> 24 == SRC_LITERAL))
        }
        Encoding::Smem | Encoding::Vinterp | Encoding::Ds | Encoding::Exp | Encoding::Flat => 2,
        Encoding::Mimg => super::mimg::length_dwords(w0, arch),
        Encoding::Unknown => 1,
    }
}

/// False for the VOP1 opcodes whose signature row prints no `src0` (gfx8+;
/// gfx6/gfx7 have no rows and keep the general rule).
fn vop1_reads_src0(gen: Gen, op: u32) -> bool {
    use super::signature::{self, Fld, Form};
    match signature::lookup(gen, Form::Vop1, op) {
        Some(row) => row.opds.iter().any(|s| s.field == Fld::Src0),
        None => true,
    }
}

/// Length of a VOP1/VOP2/VOPC instruction from its `src0` code: a literal, or
/// the SDWA/DPP/DPP8 extension dword where the generation has it.
fn vop_short_len(src0: u32, gen: Gen) -> usize {
    let extended = match src0 {
        SRC_LITERAL => true,
        SRC_SDWA => matches!(gen, Gen::Gfx8 | Gen::Gfx9 | Gen::Gfx10),
        SRC_DPP => gen >= Gen::Gfx8,
        s if SRC_DPP8.contains(&s) => gen >= Gen::Gfx10,
        _ => false,
    };
    if extended {
        2
    } else {
        1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arch(name: &str) -> Arch {
        Arch::parse(name).unwrap()
    }

    /// (mcpu, dwords, class, length): encodings printed by llvm-mc-19 -show-encoding.
    const CASES: &[(&str, &[u32], Encoding, usize)] = &[
        // exp mrt0 off, off, off, off: EXP moved to 0xC4 on gfx8 and back on gfx10.
        ("tonga", &[0xc400_0000, 0], Encoding::Exp, 2),
        ("gfx1030", &[0xf800_0000, 0], Encoding::Exp, 2),
        ("tahiti", &[0xf800_0000, 0], Encoding::Exp, 2),
        // s_setreg_imm32_b32 hwreg(HW_REG_MODE), 0x1234 on tahiti.
        ("tahiti", &[0xba80_f801, 0x1234], Encoding::Sopk, 2),
        // v_madmk_f32 v1, v2, 0x1234, v3 on tahiti.
        ("tahiti", &[0x4002_0702, 0x1234], Encoding::Vop2, 2),
        // s_load_dword s1, s[2:3], 0x12345 on bonaire: the CI literal offset.
        ("bonaire", &[0xc000_82ff, 0x12345], Encoding::Smrd, 2),
        ("tahiti", &[0xc000_82ff], Encoding::Smrd, 1),
        // v_mov_b32_e64 v5, 0x44332211 on gfx1030.
        (
            "gfx1030",
            &[0xd581_0005, 0xff, 0x4433_2211],
            Encoding::Vop3,
            3,
        ),
        // v_mov_b32_e64_dpp v5, v17 row_ror:2 on gfx1100.
        (
            "gfx1100",
            &[0xd581_0005, 0xfa, 0x4401_2211],
            Encoding::Vop3,
            3,
        ),
        // v_dual_fmaak_f32 v1, v2, v3, 0x1234 :: v_dual_mov_b32 v4, v5.
        (
            "gfx1100",
            &[0xc850_0702, 0x0104_0105, 0x1234],
            Encoding::Vopd,
            3,
        ),
        // v_maxmin_f16_e64_dpp v146, v68, 0xb6dd, s0 clamp dpp8:[…]: DPP8 + literal.
        (
            "gfx1100",
            &[0xd660_8092, 0x0001_fee9, 0, 0xb6dd],
            Encoding::Vop3,
            4,
        ),
        // s_getpc_b64 s[32:33] with SSRC0 = 255: no source, so no literal.
        ("gfx900", &[0xbea1_1cff, 0], Encoding::Sop1, 1),
        // s_set_gpr_idx_on 4.0, 0xff: SSRC1 is an immediate.
        ("tonga", &[0xbf11_fff6, 0], Encoding::Sopc, 1),
        // buffer_load_format_x v0, off, s[0:3], 0x11223344: SOFFSET literal (gfx10+).
        (
            "gfx1030",
            &[0xe000_0000, 0xff00_0000, 0x1122_3344],
            Encoding::Mubuf,
            3,
        ),
        (
            "gfx1100",
            &[0xe000_0000, 0xff00_0000, 0x1122_3344],
            Encoding::Mubuf,
            3,
        ),
        // lds_param_load v1, attr32.w wait_vdst:15; v_interp_p10_f32 … wait_exp:7.
        ("gfx1100", &[0xce0f_8301], Encoding::Ldsdir, 1),
        ("gfx1100", &[0xcd00_0705, 0x0412_0702], Encoding::Vinterp, 2),
        // v_interp_p1_f32_e32 v5, v1, attr0.x: VINTRP prefix per generation.
        ("tonga", &[0xd414_0001], Encoding::Vintrp, 1),
        ("gfx1030", &[0xc814_0001], Encoding::Vintrp, 1),
        ("tahiti", &[0xc814_0001], Encoding::Vintrp, 1),
    ];

    #[test]
    fn known_encodings_have_llvm_class_and_length() {
        for &(mcpu, words, enc, len) in CASES {
            let a = arch(mcpu);
            assert_eq!(classify(words, &a), enc, "{mcpu} {words:x?}");
            assert_eq!(length_dwords(words, enc, &a), len, "{mcpu} {words:x?}");
        }
    }

    #[test]
    fn empty_and_short_input_never_panics() {
        for name in ["gfx6", "gfx7", "gfx8", "gfx9", "gfx10", "gfx11"] {
            let a = arch(name);
            assert_eq!(classify(&[], &a), Encoding::Unknown);
            for top in 0..=0xffu32 {
                let w = [top << 24 | 0xff];
                let enc = classify(&w, &a);
                assert!((1..=5).contains(&length_dwords(&w, enc, &a)));
            }
        }
    }

    #[test]
    fn gfx6_has_no_flat_and_gfx11_no_vintrp() {
        assert_eq!(classify(&[0xdc00_0000], &arch("gfx6")), Encoding::Unknown);
        assert_eq!(classify(&[0xdc00_0000], &arch("gfx7")), Encoding::Flat);
        assert_eq!(classify(&[0xc814_0001], &arch("gfx11")), Encoding::Vopd);
    }
}
