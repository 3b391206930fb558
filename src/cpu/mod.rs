//! The CPU reference interpreter: the written-down semantics of every operation
//! of [`crate::ir`]. Each rule is one function here or in [`crate::texture`],
//! listed in docs/semantics.md with its source.
//!
//! Waves are independent (they share no state but images, which the image
//! operations will own), so [`run`] executes them in parallel with rayon and the
//! result does not depend on the thread count.

pub mod atomic;
pub mod bvh;
pub mod grf;
pub mod image;
pub mod interp;
pub mod interp_gfx11;
pub mod sample;

use crate::machine::{Memory, WaveState};

use crate::ir::{Op, Program, Reg, Src};
use rayon::prelude::*;

/// Why execution stopped early.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("wave {wave}, offset {offset:#x}: {message}")]
pub struct ExecError {
    /// The wave.
    pub wave: u32,
    /// Byte offset of the instruction.
    pub offset: usize,
    /// What went wrong.
    pub message: String,
}

/// Runs every wave to `s_endpgm` (or the end of the program). Programs with
/// image operations run their waves one after another in wave order — one valid
/// serial order of their memory accesses, the same on every run; the others run
/// in parallel.
pub fn run(prog: &Program, waves: &mut [WaveState], mem: &mut Memory) -> Result<(), ExecError> {
    let touches_memory = prog.ops.iter().any(|(_, op)| match op {
        Op::Image(_) => true,
        Op::Grf(g) => matches!(**g, crate::ir::grf::GrfOp::StoreScaled { .. }),
        _ => false,
    });
    if touches_memory {
        waves.iter_mut().try_for_each(|w| run_wave(prog, w, mem))
    } else {
        waves
            .par_iter_mut()
            .try_for_each(|w| run_wave(prog, w, &mut Memory::default()))
    }
}

/// Runs one wave.
pub fn run_wave(prog: &Program, w: &mut WaveState, mem: &mut Memory) -> Result<(), ExecError> {
    use crate::ir::grf::{GrfOp, MAX_BACK_JUMPS};
    let wave = w.wave;
    // Depth of the `IfActive` regions being skipped (cpu::grf, "SIMD control
    // flow"): while no channel is active nothing executes.
    let mut skipping = 0usize;
    // The first op of each open loop's body, innermost last, and the
    // backward jumps taken so far (cpu::grf, "Loops").
    let mut loops: Vec<usize> = Vec::new();
    let mut back_jumps = 0u32;
    let mut pc = 0usize;
    while let Some((offset, op)) = prog.ops.get(pc) {
        pc += 1;
        let fail = |message: String| ExecError {
            wave,
            offset: *offset,
            message,
        };
        if let Op::Grf(g) = op {
            match **g {
                GrfOp::IfActive if skipping > 0 || !grf::any_active(w) => {
                    skipping += 1;
                    continue;
                }
                GrfOp::EndIfActive if skipping > 0 => {
                    skipping -= 1;
                    continue;
                }
                _ if skipping > 0 => continue,
                GrfOp::Loop => {
                    loops.push(pc);
                    continue;
                }
                GrfOp::EndLoop { again } => {
                    let start = loops
                        .last()
                        .copied()
                        .ok_or_else(|| fail("a loop end without its start".into()))?;
                    if !grf::loop_again(w, again) {
                        loops.pop();
                    } else if back_jumps == MAX_BACK_JUMPS {
                        return Err(fail(format!(
                            "the thread would take more than {MAX_BACK_JUMPS} backward jumps: a loop that may never end (the step budget, docs/semantics.md)"
                        )));
                    } else {
                        back_jumps += 1;
                        pc = start;
                    }
                    continue;
                }
                _ => {}
            }
        }
        if skipping > 0 {
            continue;
        }
        match op {
            Op::End => break,
            Op::Nop | Op::Wait => {}
            Op::Grf(g) => grf::execute(w, g, mem).map_err(fail)?,
            Op::SMov { dst, src } => {
                let v = w.scalar_src(*src);
                w.write_scalar(*dst, v);
            }
            Op::VMov { dst, src } => {
                for lane in w.active_lanes() {
                    let v = w.lane_src(*src, lane);
                    w.set_vgpr(*dst, lane, v);
                }
            }
            Op::Interp(i) => interp::execute(w, i.step, i.vdst, i.ij, i.attr, i.chan, &i.mods),
            Op::LdsParamLoad { vdst, attr, chan } => {
                interp_gfx11::lds_param_load(w, *vdst, *attr, *chan).map_err(fail)?
            }
            Op::LdsDirectLoad { vdst } => interp_gfx11::lds_direct_load(w, *vdst).map_err(fail)?,
            Op::Vinterp(v) => {
                interp_gfx11::vinterp(w, v.step, v.vdst, v.src, v.neg, v.clamp, v.op_sel)
            }
            Op::Image(m) if m.op.kind == crate::ir::image::ImageKind::Atomic => {
                atomic::execute(m, w, mem, &prog.arch).map_err(fail)?
            }
            Op::Image(m) if m.op.kind == crate::ir::image::ImageKind::Bvh => {
                bvh::execute(m, w, mem, &prog.arch).map_err(fail)?
            }
            Op::Image(m) if m.op.kind == crate::ir::image::ImageKind::ResInfo => {
                image::resinfo(m, w, &prog.arch).map_err(fail)?
            }
            Op::Image(m) if m.op.has_sampler() => {
                sample::execute(m, w, mem, &prog.arch).map_err(fail)?
            }
            Op::Image(m) => image::execute(m, w, mem, &prog.arch).map_err(fail)?,
        }
    }
    Ok(())
}

impl WaveState {
    /// A scalar source (a VGPR source reads lane 0, which no lowered scalar op
    /// produces).
    /// The value of a scalar source (`s_mov` semantics).
    pub fn scalar_src(&self, src: Src) -> u32 {
        match src {
            Src::Const(c) => c,
            Src::Reg(r) => self.read_reg(r, 0),
        }
    }

    fn lane_src(&self, src: Src, lane: u32) -> u32 {
        match src {
            Src::Const(c) => c,
            Src::Reg(r) => self.read_reg(r, lane),
        }
    }

    fn read_reg(&self, r: Reg, lane: u32) -> u32 {
        match r {
            Reg::Sgpr(n) => self.sgpr(n),
            Reg::Vgpr(n) => self.vgpr(n, lane),
            Reg::M0 => self.m0,
            Reg::ExecLo => self.exec as u32,
            Reg::ExecHi => (self.exec >> 32) as u32,
            Reg::VccLo => self.vcc as u32,
            Reg::VccHi => (self.vcc >> 32) as u32,
        }
    }

    /// Writes a scalar destination (`s_mov` semantics; a VGPR is ignored).
    pub fn write_scalar(&mut self, r: Reg, v: u32) {
        match r {
            Reg::Sgpr(n) => self.set_sgpr(n, v),
            Reg::M0 => self.m0 = v,
            Reg::ExecLo => self.exec = (self.exec & !0xffff_ffff) | u64::from(v),
            Reg::ExecHi => self.exec = (self.exec & 0xffff_ffff) | (u64::from(v) << 32),
            Reg::VccLo => self.vcc = (self.vcc & !0xffff_ffff) | u64::from(v),
            Reg::VccHi => self.vcc = (self.vcc & 0xffff_ffff) | (u64::from(v) << 32),
            // Lowering never produces a VGPR scalar destination.
            Reg::Vgpr(_) => {}
        }
    }
}
