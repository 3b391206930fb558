//! IMAGE_ATOMIC_* on the CPU (docs/semantics/images.md, "Image atomics").
//!
//! Lanes execute one after another in lane order — one valid serial order of a
//! wave's atomics. Each rule is one match arm of [`apply32`] / [`apply64`], with
//! the CLRX errata (docs/errata.md S1–S3) resolved: INC increments, SUB stores
//! `image − data`, RSUB stores `data − image`.

use super::OpError;
use crate::arch::Arch;
use crate::check;
use crate::ir::image::ImageOp;
use crate::machine::{MemAccess, WaveState};
use crate::texture::atomic::{apply32, apply64};
use crate::texture::data::{has_status, STATUS_OK};
use crate::texture::descriptor::Image;
use crate::texture::resource::{
    read_tsharp, require_in_memory, require_linear, surface_of, texel_address,
};

/// Executes one image atomic for every active lane, in lane order.
///
/// The texel is one 32-bit (format `32`) or 64-bit (format `32_32`) value; DMASK
/// gives the dwords sent: 0x1 (32-bit), 0x3 (64-bit, or 32-bit compare-swap), 0xf
/// (64-bit compare-swap) (sampling.md §3.4). With GLC the pre-op value returns to
/// VDATA. Out of bounds or unbound: no write, and GLC returns 0.
pub fn execute(
    m: &ImageOp,
    w: &mut WaveState,
    mem: &mut MemAccess<'_>,
    arch: &Arch,
) -> Result<(), OpError> {
    let a = check::atomic_shape(m)?;
    let (op, two_operands, wide, dwords) = (a.op, a.two_operands, a.wide, a.dwords);
    let r = m;
    // TFE/LWE: one status dword after every data dword DMASK sends (so after
    // the compare value of a compare-swap: LLVM's `mimg.s` gives
    // `image_atomic_cmpswap v[4:8] … dmask:0xf tfe`), always 0 (no PRT).
    let status = has_status(r.tfe, r.lwe);
    let lanes = w.active_lanes();
    let desc = read_tsharp(m, w, arch)?;
    if status {
        for lane in lanes {
            w.set_vgpr(r.vdata + dwords, lane, STATUS_OK);
        }
    }
    let Image::Bound(d) = desc else {
        // Unbound or null: dropped; GLC returns 0.
        if r.glc {
            for lane in lanes {
                for k in 0..dwords / if two_operands { 2 } else { 1 } {
                    w.set_vgpr(r.vdata + k, lane, 0);
                }
            }
        }
        return Ok(());
    };
    require_linear(&d, arch)?;
    check::atomic_view(m, &a, &d)?;
    let surf = surface_of(&d)?;
    require_in_memory(&d, &surf, mem.range())?;
    let n = if wide { 2 } else { 1 };
    for lane in lanes {
        let v = |k: u32| w.vgpr(r.vdata + k, lane);
        let data = if wide {
            u64::from(v(0)) | u64::from(v(1)) << 32
        } else {
            u64::from(v(0))
        };
        let cmp = match (two_operands, wide) {
            (false, _) => 0,
            (true, false) => u64::from(v(1)),
            (true, true) => u64::from(v(2)) | u64::from(v(3)) << 32,
        };
        let at = texel_address(m, w, lane, &d, &surf, false)?;
        let old = match at.and_then(|p| mem.read(p, 4 * n)) {
            Some(b) => b.iter().rev().fold(0u64, |acc, &x| acc << 8 | u64::from(x)),
            None => {
                if r.glc {
                    for k in 0..n {
                        w.set_vgpr(r.vdata + k, lane, 0);
                    }
                }
                continue;
            }
        };
        let new = if wide {
            apply64(op, old, data, cmp)
        } else {
            u64::from(apply32(op, old as u32, data as u32, cmp as u32))
        };
        if let Some(p) = at {
            mem.write(p, &new.to_le_bytes()[..4 * n as usize]);
        }
        if r.glc {
            w.set_vgpr(r.vdata, lane, old as u32);
            if wide {
                w.set_vgpr(r.vdata + 1, lane, (old >> 32) as u32);
            }
        }
    }
    Ok(())
}
