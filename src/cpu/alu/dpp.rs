//! DPP lane shuffles (AMD "Data Parallel Processing"): which lane a lane's
//! first source comes from, and which lanes write
//! (docs/semantics/programs.md, "DPP").
//!
//! Sources: the DPP_CTRL table of LLVM's `SIDefines.h` (`DppCtrl`) and
//! `docs/AMDGPUModifierSyntax.rst` (dpp_ctrl, row_mask, bank_mask,
//! bound_ctrl, fi, dpp8), the Vega ISA's DPP field table (§13.3.9: "BOUND_CTRL
//! … 1: write 0 when the source is out of bounds; 0: do not write"), and AMD's
//! rocjitsu emulator (`dpp_sdwa_ops.h`, `dpp_permute`). Where they disagree,
//! docs/errata.md DP1–DP2.

use crate::ir::alu::Dpp;

/// The lane lane `lane` reads its first source from under DPP16 control
/// `ctrl`, or `None` when that lane is out of range (off the end of a row
/// or wave). Rows are 16 lanes.
///
/// | ctrl | name | source |
/// |---|---|---|
/// | 0x000–0x0ff | `quad_perm` | lane `ctrl >> 2(lane & 3) & 3` of the quad |
/// | 0x101–0x10f | `row_shl:n` | `lane + n`, in the row |
/// | 0x111–0x11f | `row_shr:n` | `lane − n`, in the row |
/// | 0x121–0x12f | `row_ror:n` | `lane − n` mod 16, in the row |
/// | 0x130, 0x134 | `wave_shl:1`, `wave_rol:1` | `lane + 1` (rol: mod the wave) |
/// | 0x138, 0x13c | `wave_shr:1`, `wave_ror:1` | `lane − 1` (ror: mod the wave) |
/// | 0x140, 0x141 | `row_mirror`, `row_half_mirror` | `15 − i` in the row, `7 − i` in the half-row |
/// | 0x142, 0x143 | `row_bcast:15`, `row_bcast:31` | lane 15 of the row before; lane 31 (rows 2–3) |
/// | 0x150–0x15f | `row_share:n` | lane `n` of the row |
/// | 0x160–0x16f | `row_xmask:n` | `i xor n` in the row |
///
/// Other codes (which the decoder does not produce for a generation that
/// lacks them) read out of range.
///
/// WGSL twin: `dpp16_source` in `shaders/program.wgsl` (docs/gpu.md, "Twins").
pub fn dpp16_source(ctrl: u16, lane: u32, wave_size: u32) -> Option<u32> {
    let c = u32::from(ctrl);
    let row = lane & !15;
    let i = lane & 15;
    let n = c & 15;
    match c {
        0x000..=0x0ff => Some(lane & !3 | c >> (2 * (lane & 3)) & 3),
        0x101..=0x10f => (i + n < 16).then_some(lane + n),
        0x111..=0x11f => (i >= n).then(|| lane - n),
        0x121..=0x12f => Some(row | (i + 16 - n) & 15),
        0x130 => (lane + 1 < wave_size).then_some(lane + 1),
        0x134 => Some((lane + 1) % wave_size),
        0x138 => lane.checked_sub(1),
        0x13c => Some((lane + wave_size - 1) % wave_size),
        0x140 => Some(row | (15 - i)),
        0x141 => Some(lane & !7 | (7 - (lane & 7))),
        0x142 => (lane >= 16).then(|| row - 1),
        0x143 => (lane >= 32).then_some(31),
        0x150..=0x15f => Some(row | n),
        0x160..=0x16f => Some(row | (i ^ n)),
        _ => None,
    }
}

/// What a lane does under `dpp`: `None` when it does not write (its
/// destination keeps its value, and it sets no bit of a lane-mask result),
/// else `Some(Some(l))` to read lane `l`'s first source or `Some(None)` to
/// read 0.
///
/// - DPP16: a lane outside ROW_MASK (bit `lane / 16`) or BANK_MASK (bit
///   `lane / 4 mod 4`) does not write. A source out of range, or inactive
///   without FI, is invalid: with BOUND_CTRL set the lane reads 0, else it
///   does not write.
/// - DPP8: lane `8k + i` reads lane `8k + sel[i]`; an inactive source reads
///   0 without FI. Every lane writes.
///
/// WGSL twin: `dpp_plan` in `shaders/program.wgsl` (docs/gpu.md, "Twins").
pub fn plan(dpp: &Dpp, lane: u32, wave_size: u32, exec: u64) -> Option<Option<u32>> {
    let active = |l: u32| exec >> l & 1 == 1;
    match *dpp {
        Dpp::Dpp16 {
            ctrl,
            row_mask,
            bank_mask,
            bound_ctrl,
            fi,
        } => {
            if row_mask >> (lane / 16) & 1 == 0 || bank_mask >> (lane / 4 % 4) & 1 == 0 {
                return None;
            }
            match dpp16_source(ctrl, lane, wave_size).filter(|&s| active(s) || fi) {
                Some(s) => Some(Some(s)),
                None if bound_ctrl => Some(None),
                None => None,
            }
        }
        Dpp::Dpp8 { sel, fi } => {
            let s = lane & !7 | u32::from(sel[(lane & 7) as usize]);
            Some((active(s) || fi).then_some(s))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dpp16(ctrl: u16, bound_ctrl: bool) -> Dpp {
        Dpp::Dpp16 {
            ctrl,
            row_mask: 0xf,
            bank_mask: 0xf,
            bound_ctrl,
            fi: false,
        }
    }

    #[test]
    fn controls_pick_their_lanes() {
        // quad_perm:[3,2,1,0] = 0x1b.
        assert_eq!(dpp16_source(0x1b, 5, 64), Some(6));
        // row_shl:1 reads the next lane; lane 15 of a row is out of range.
        assert_eq!(dpp16_source(0x101, 3, 64), Some(4));
        assert_eq!(dpp16_source(0x101, 15, 64), None);
        // row_shr:2 and row_ror:2.
        assert_eq!(dpp16_source(0x112, 17, 64), None);
        assert_eq!(dpp16_source(0x112, 18, 64), Some(16));
        assert_eq!(dpp16_source(0x122, 17, 64), Some(31));
        // wave shifts and rotates.
        assert_eq!(dpp16_source(0x130, 63, 64), None);
        assert_eq!(dpp16_source(0x134, 63, 64), Some(0));
        assert_eq!(dpp16_source(0x138, 0, 64), None);
        assert_eq!(dpp16_source(0x13c, 0, 64), Some(63));
        // mirrors, broadcasts, share, xmask.
        assert_eq!(dpp16_source(0x140, 17, 64), Some(30));
        assert_eq!(dpp16_source(0x141, 9, 64), Some(14));
        assert_eq!(dpp16_source(0x142, 40, 64), Some(31));
        assert_eq!(dpp16_source(0x142, 4, 64), None);
        assert_eq!(dpp16_source(0x143, 40, 64), Some(31));
        assert_eq!(dpp16_source(0x143, 20, 64), None);
        assert_eq!(dpp16_source(0x153, 20, 32), Some(19));
        assert_eq!(dpp16_source(0x165, 20, 32), Some(17));
    }

    #[test]
    fn bound_ctrl_masks_and_inactive_sources() {
        let all = u64::MAX;
        // Out of range: 0 with BOUND_CTRL, no write without.
        assert_eq!(plan(&dpp16(0x101, true), 15, 64, all), Some(None));
        assert_eq!(plan(&dpp16(0x101, false), 15, 64, all), None);
        // An inactive source is invalid without FI.
        let exec = !(1u64 << 4);
        assert_eq!(plan(&dpp16(0x101, false), 3, 64, exec), None);
        let fi = Dpp::Dpp16 {
            ctrl: 0x101,
            row_mask: 0xf,
            bank_mask: 0xf,
            bound_ctrl: false,
            fi: true,
        };
        assert_eq!(plan(&fi, 3, 64, exec), Some(Some(4)));
        // row_mask 0xa: rows 1 and 3 write; bank_mask 0x1: lanes 0-3 of a row.
        let masked = Dpp::Dpp16 {
            ctrl: 0x142,
            row_mask: 0xa,
            bank_mask: 0x1,
            bound_ctrl: false,
            fi: false,
        };
        assert_eq!(plan(&masked, 16, 64, all), Some(Some(15)));
        assert_eq!(plan(&masked, 20, 64, all), None);
        assert_eq!(plan(&masked, 32, 64, all), None);
        // DPP8: inactive sources read 0 without FI.
        let d8 = Dpp::Dpp8 {
            sel: [7, 6, 5, 4, 3, 2, 1, 0],
            fi: false,
        };
        assert_eq!(plan(&d8, 9, 32, u64::MAX), Some(Some(14)));
        assert_eq!(plan(&d8, 9, 32, !(1 << 14)), Some(None));
    }
}
