//! Encoding classes: which class a first dword selects, and instruction lengths.
//!
//! STUB: the owner of this module completes classification for every class of
//! gfx6–gfx11 and exact lengths (literals, NSA, DPP/SDWA).

use crate::arch::Arch;
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

/// The class selected by the first dword of `words` (non-empty).
pub fn classify(words: &[u32], _arch: &Arch) -> Encoding {
    let w = words[0];
    if w >> 26 == 0b111100 {
        Encoding::Mimg
    } else if w >> 23 == 0b1_0111_1111 {
        Encoding::Sopp
    } else {
        Encoding::Unknown
    }
}

/// The instruction's length in dwords; may exceed `words.len()` (truncation).
pub fn length_dwords(words: &[u32], enc: Encoding, arch: &Arch) -> usize {
    match enc {
        Encoding::Mimg => super::mimg::length_dwords(words[0], arch),
        _ => 1,
    }
}
