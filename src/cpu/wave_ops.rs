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
