//! The status dword TFE or LWE adds after a sample's, gather4's or get_lod's
//! data (research/sampling.md §5.12; RDNA ISA "TFE and LWE"): bit 0
//! TEXEL_FAIL, bit 1 LOD_WARNING (`LOD < T#.MIN_LOD_WARN`), bits 31:16 a LOD.
//! TEXEL_FAIL needs a partially resident texture, which gcnrun does not model
//! (no page is ever unmapped), so it is 0 — as for loads
//! (`texture::data::STATUS_OK`). LOD_WARNING only exists where the T#
//! enables it with a nonzero MIN_LOD_WARN ("PRT is enabled when MIN_LOD_WARN is
//! nonzero"); which LOD it compares and which LOD the high half then carries
//! are not public, so LWE on such a T# is refused by name rather than guessed.

use crate::arch::Gen;
use crate::ir::image::ImageOp;
use crate::texture::error::TextureError;

/// The eight T# dwords at SRSRC × 4 (`sgpr(n)` reads SGPR n); a 128-bit T#
/// (R128) has four, the rest read as 0.
pub fn tsharp_words(m: &ImageOp, sgpr: impl Fn(u32) -> u32) -> [u32; 8] {
    let base = m.srsrc;
    let n = if m.r128 { 4 } else { 8 };
    std::array::from_fn(|i| {
        if (i as u32) < n {
            sgpr(base + i as u32)
        } else {
            0
        }
    })
}

/// T# MIN_LOD_WARN (4.8 fixed point): dword 6 bits 11:0 on gfx6–gfx9, dword 5
/// bits 19:8 on gfx10 (research/sampling.md §1.2, §1.4) and on gfx11, where AMD's
/// Radeon GPU Detective RDNA3 disassembler reads it at the same bits while
/// ROCR-Runtime `resource_gfx11.h` names them DEPTH/HEIGHT/WIDTH_SCALE
/// (docs/errata.md X14): read as MIN_LOD_WARN, nonzero bits make LWE refuse
/// ([`check_lwe`]) instead of answering with a status either reading could
/// contradict.
pub fn min_lod_warn(words: &[u32; 8], gen: Gen) -> u32 {
    if gen >= Gen::Gfx10 {
        words[5] >> 8 & 0xfff
    } else {
        words[6] & 0xfff
    }
}

/// Refuses LWE on a T# that enables LOD warnings (see the module comment).
pub fn check_lwe(m: &ImageOp, words: &[u32; 8], gen: Gen) -> Result<(), TextureError> {
    let warn = min_lod_warn(words, gen);
    if m.lwe && warn != 0 {
        return Err(TextureError::Lwe { op: m.name(), warn });
    }
    Ok(())
}

/// True when the instruction writes the status dword: TFE or LWE (docs/errata.md
/// S6; LLVM's `lowerImage` adds the dword for either bit of `texfailctrl`).
pub fn has_status(m: &ImageOp) -> bool {
    crate::texture::data::has_status(m.tfe, m.lwe)
}

/// The status dword gcnrun writes: 0 (no TEXEL_FAIL without partially resident
/// textures; no LOD_WARNING where [`check_lwe`] lets LWE through).
pub const STATUS: u32 = crate::texture::data::STATUS_OK;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn min_lod_warn_per_generation() {
        // W5[19:8] = 0xabc, W6[11:0] = 0x123: gfx9 reads W6, gfx10 and gfx11 W5.
        let mut w = [0u32; 8];
        w[5] = 0xabc << 8;
        w[6] = 0x123;
        assert_eq!(min_lod_warn(&w, Gen::Gfx9), 0x123);
        assert_eq!(min_lod_warn(&w, Gen::Gfx10), 0xabc);
        assert_eq!(min_lod_warn(&w, Gen::Gfx11), 0xabc);
    }
}
