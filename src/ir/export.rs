//! Pixel-shader exports (`exp mrt0`…`mrt7`, `mrtz`): where a draw launch
//! collects what each lane exports (docs/draw.md, "Exports").
//!
//! The hardware sends export data to the colour and depth blocks; gcnrun
//! keeps it in the launch's memory instead, one slot per (wave, lane,
//! target), so that both back ends write it as they write memory and the
//! launch turns the slots into render-target pixels afterwards
//! (`launch::draw`). A slot is five dwords: a mask of the dwords written
//! (bit d), then the four exported dwords as the instruction supplies them —
//! 32-bit components, or, for the 16-bit export formats, two components
//! packed per dword (COMPR before gfx11, two enabled VGPRs on gfx11).

/// Export targets with a slot: `mrt0`–`mrt7` (0–7) and `mrtz` (8).
pub const TARGETS: u32 = 9;
/// Bytes of one slot: the written mask and four dwords.
pub const SLOT_BYTES: u32 = 20;

/// An export to a colour or depth target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Export {
    /// The target: 0–7 `mrt0`–`mrt7`, 8 `mrtz`.
    pub target: u8,
    /// The VGPR each slot dword takes, `None` where the instruction writes
    /// nothing (its EN bits; with COMPR, dword 0 holds the first packed pair
    /// and dword 1 the second).
    pub dwords: [Option<u8>; 4],
}

/// The launch address of the slot of `target` for lane `lane` of wave
/// `wave` (of `wave_size` lanes), in the export area at `base`:
/// `base + ((wave × wave_size + lane) × 9 + target) × 20`.
///
/// WGSL twin: `export_slot` in `shaders/program.wgsl` (docs/gpu.md, "Twins").
pub fn slot_address(base: u64, wave: u32, wave_size: u32, lane: u32, target: u32) -> u64 {
    let index = (u64::from(wave) * u64::from(wave_size) + u64::from(lane)) * u64::from(TARGETS)
        + u64::from(target);
    base + index * u64::from(SLOT_BYTES)
}

/// The bytes of a draw's export area for `lanes` lanes in all.
pub fn area_bytes(lanes: u64) -> u64 {
    lanes * u64::from(TARGETS) * u64::from(SLOT_BYTES)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_follow_one_another() {
        assert_eq!(slot_address(0x100, 0, 64, 0, 0), 0x100);
        assert_eq!(slot_address(0x100, 0, 64, 0, 8), 0x100 + 8 * 20);
        assert_eq!(slot_address(0x100, 0, 64, 1, 0), 0x100 + 9 * 20);
        assert_eq!(slot_address(0x100, 1, 32, 0, 0), 0x100 + 32 * 9 * 20);
        assert_eq!(area_bytes(2), 2 * 9 * 20);
    }
}
