//! Operations on a wave as a whole that do not move the program counter:
//! EXEC bookkeeping, cross-lane moves and the MODE register
//! (docs/semantics, "Wave operations"). Branches, the PC operations and
//! barriers are the run loop's (`cpu::run_with`).

use crate::ir::alu::Unit;
use crate::ir::flow::{HwReg, WaveOp};
use crate::machine::WaveState;

/// Executes a [`WaveOp`] other than a branch, PC operation or barrier.
///
/// WGSL twin: `xl_value` (docs/gpu.md, "Twins").
pub fn execute(w: &mut WaveState, op: &WaveOp) -> Result<(), String> {
    match *op {
        // s_and_saveexec_b64 and kin (AMD Vega ISA S_AND_SAVEEXEC_B64:
        // "D = EXEC; EXEC = S0 & EXEC; SCC = (EXEC != 0)").
        WaveOp::SaveExec {
            func,
            sdst,
            src,
            exec_first,
        } => {
            let slots = func.ty.slots();
            let s = w.operand(src, slots, 0);
            let old = w.exec;
            let (a, b) = if exec_first { (old, s) } else { (s, old) };
            let (v, _) = super::alu::eval(Unit::Scalar, func, [a, b, 0], false, w.mode)?;
            if let Some(d) = sdst {
                w.set_operand(crate::ir::Reg::Sgpr(d), slots, 0, old);
            }
            let keep = if w.wave_size == 64 {
                u64::MAX
            } else {
                0xffff_ffff
            };
            w.exec = v & keep;
            w.scc = w.exec != 0;
            Ok(())
        }
        // v_readlane_b32: the lane index is the low bits of the selector
        // (mod the wave size), whatever EXEC says.
        WaveOp::ReadLane { sdst, src, lane } => {
            let l = w.scalar_src(lane) % w.wave_size;
            let v = w.vgpr(src, l);
            w.set_sgpr(sdst, v);
            Ok(())
        }
        // v_readfirstlane_b32: the lowest active lane; lane 0 when EXEC is 0
        // (AMD Vega ISA V_READFIRSTLANE_B32).
        WaveOp::ReadFirstLane { sdst, src } => {
            let first = w.active_lanes().next().unwrap_or(0);
            let v = w.operand(src.into(), 1, first) as u32;
            w.set_sgpr(sdst, v);
            Ok(())
        }
        // v_permlane16/x16 (gfx10+; the RDNA ISA's pseudocode): every lane's
        // source is read first; an active lane in row r, lane i of the row,
        // reads lane 16 × row' + sel[i], row' = r or (x16) r xor 1; a source
        // that is inactive and not fetched (FI) reads 0 with BOUND_CTRL,
        // else the lane keeps its value, as DPP's (cpu::alu::dpp::plan).
        WaveOp::Permlane {
            cross,
            vdst,
            src,
            sel_lo,
            sel_hi,
            fi,
            bound_ctrl,
        } => {
            let sel = u64::from(w.scalar_src(sel_lo)) | u64::from(w.scalar_src(sel_hi)) << 32;
            let vals: Vec<u32> = (0..w.wave_size).map(|l| w.vgpr(src, l)).collect();
            let lanes = w.active_lanes();
            for lane in lanes {
                let from = permlane_source(cross, sel, lane);
                if w.exec >> from & 1 == 1 || fi {
                    w.set_vgpr(vdst, lane, vals.get(from as usize).copied().unwrap_or(0));
                } else if bound_ctrl {
                    w.set_vgpr(vdst, lane, 0);
                }
            }
            Ok(())
        }
        WaveOp::WriteLane { vdst, src, lane } => {
            let l = w.scalar_src(lane) % w.wave_size;
            let v = w.scalar_src(src);
            w.set_vgpr(vdst, l, v);
            Ok(())
        }
        WaveOp::GetReg {
            reg: HwReg::Mode,
            offset,
            size,
            sdst,
        } => {
            let v = (u64::from(w.mode) >> offset) & ((1u64 << size) - 1);
            w.set_sgpr(sdst, v as u32);
            Ok(())
        }
        WaveOp::SetReg {
            reg: HwReg::Mode,
            offset,
            size,
            src,
        } => {
            let field = (((1u64 << size) - 1) << offset) as u32;
            let v = w.scalar_src(src) << offset & field;
            w.mode = w.mode & !field | v;
            Ok(())
        }
        WaveOp::Branch { .. }
        | WaveOp::GetPc { .. }
        | WaveOp::SetPc { .. }
        | WaveOp::SwapPc { .. }
        | WaveOp::Barrier => Err("internal: a control-flow operation reached wave_ops".into()),
    }
}

/// The lane `v_permlane16_b32` (or, `cross`, `v_permlanex16_b32`) reads for
/// lane `lane` under the 64-bit select `sel`: lane `sel[i]` (4 bits at 4i,
/// i = lane mod 16) of the lane's row, or of the other row of its 32 lanes.
///
/// WGSL twin: `permlane_source` in `shaders/program.wgsl` (docs/gpu.md, "Twins").
pub fn permlane_source(cross: bool, sel: u64, lane: u32) -> u32 {
    let row = if cross { (lane >> 4) ^ 1 } else { lane >> 4 };
    16 * row + (sel >> (4 * (lane & 15)) & 15) as u32
}

#[cfg(test)]
mod tests {
    use super::permlane_source;

    #[test]
    fn permlane_selects_by_nibble_in_the_row_or_the_other_row() {
        // Select nibble i = lane mod 16 of {hi, lo}: lane 3 -> nibble 3.
        let sel = 0xfedc_ba98_7654_3210u64;
        assert_eq!(permlane_source(false, sel, 3), 3);
        assert_eq!(permlane_source(false, sel, 19), 19);
        assert_eq!(permlane_source(true, sel, 3), 19);
        assert_eq!(permlane_source(true, sel, 19), 3);
        // Row 2 <-> row 3 in the upper 32 lanes; all-ones selects lane 15.
        assert_eq!(permlane_source(true, u64::MAX, 33), 63);
        assert_eq!(permlane_source(false, 0, 45), 32);
    }
}
