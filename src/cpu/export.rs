//! `exp` to a colour or depth target: each active lane's dwords into its slot
//! of the draw's export area (`ir::export`; docs/draw.md, "Exports").

use crate::ir::export::{slot_address, Export};
use crate::machine::{MemAccess, WaveState};

/// Writes the enabled dwords of every active lane (EXEC) into its slot and
/// sets their bits in the slot's mask; a later export to the same target
/// replaces what it writes. Lanes outside EXEC export nothing — whether a
/// lane's pixel is covered is the launch's to apply (helper lanes run, their
/// exports are dropped: `launch::draw`). Outside a draw (`area` `None`) it
/// is refused.
pub fn execute(
    w: &WaveState,
    x: &Export,
    mem: &mut MemAccess<'_>,
    area: Option<u64>,
) -> Result<(), String> {
    let Some(base) = area else {
        return Err(
            "`exp` to a colour or depth target runs only in a draw launch ([draw], docs/draw.md)"
                .into(),
        );
    };
    for lane in w.active_lanes() {
        let slot = slot_address(base, w.wave, w.wave_size, lane, u32::from(x.target));
        let mut mask = mem
            .read(slot, 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .ok_or_else(|| format!("internal: export slot {slot:#x} is outside memory"))?;
        for (d, vgpr) in x.dwords.iter().enumerate() {
            if let Some(v) = vgpr {
                let value = w.vgpr(u32::from(*v), lane);
                mem.write(slot + 4 + 4 * d as u64, &value.to_le_bytes());
                mask |= 1 << d;
            }
        }
        mem.write(slot, &mask.to_le_bytes());
    }
    Ok(())
}
