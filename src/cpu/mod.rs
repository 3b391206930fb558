//! The CPU reference interpreter: the written-down semantics of every operation
//! of [`crate::ir`]. Each rule is one function here or in [`crate::texture`],
//! listed in docs/semantics/ with its source.
//!
//! Waves are independent (they share no state but images, which the image
//! operations will own), so [`run`] executes them in parallel with rayon and the
//! result does not depend on the thread count.

pub mod atomic;
pub mod bvh;
mod error;
pub mod image;
pub mod interp;
pub mod interp_gfx11;
pub mod sample;
pub mod visa;

pub use error::{ExecError, ExecErrorKind, OpError};

use crate::machine::{Memory, WaveState};

use crate::ir::budget::{self, Steps};
use crate::ir::{Op, Program, Reg, Src};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// A request to stop CPU runs early: the command line's SIGINT (Ctrl-C)
/// handler makes it ([`Interrupt::request`]), and every run given it in
/// [`Limits::interrupt`] notices where it counts steps (at the start of each
/// wave, at each backward jump, and every 4,096 operations of a straight
/// pass), so it ends within a few operations of every wave (docs/semantics/core.md,
/// "The work budget").
#[derive(Debug, Default)]
pub struct Interrupt {
    requested: AtomicBool,
    /// Runs polling the flag now.
    polling: AtomicUsize,
}

impl Interrupt {
    /// No request yet (usable in a `static`).
    pub const fn new() -> Interrupt {
        Interrupt {
            requested: AtomicBool::new(false),
            polling: AtomicUsize::new(0),
        }
    }

    /// Asks every run polling this flag to stop. Returns whether one is
    /// polling now; when none is, nothing will notice the request, and the
    /// caller should end the process itself (a GPU dispatch, a shader
    /// compilation and the printing of results cannot be stopped halfway).
    pub fn request(&self) -> bool {
        // SeqCst with the store in `Polling::drop`: either this sees the run
        // still polling (and the run's caller sees the request once it
        // returns), or the run has ended and the caller of this stops.
        self.requested.store(true, Ordering::SeqCst);
        self.polling.load(Ordering::SeqCst) > 0
    }

    /// Whether a stop was requested.
    pub fn requested(&self) -> bool {
        self.requested.load(Ordering::SeqCst)
    }

    fn poll(&self) -> Result<(), ExecError> {
        if self.requested.load(Ordering::Relaxed) {
            Err(ExecError::interrupted())
        } else {
            Ok(())
        }
    }
}

/// Marks a run as polling an [`Interrupt`] while it lives.
struct Polling<'a>(&'a Interrupt);

impl<'a> Polling<'a> {
    fn new(i: &'a Interrupt) -> Polling<'a> {
        i.polling.fetch_add(1, Ordering::SeqCst);
        Polling(i)
    }
}

impl Drop for Polling<'_> {
    fn drop(&mut self) {
        self.0.polling.fetch_sub(1, Ordering::SeqCst);
    }
}

/// What bounds a run: the launch's work budget ([`crate::ir::budget`]) and an
/// optional interrupt request.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// The launch's work budget in steps ([`budget::DEFAULT_MAX_STEPS`]
    /// unless set).
    pub max_steps: u64,
    /// Polled where steps are counted; a request ends the run with
    /// [`ExecErrorKind::Interrupted`].
    pub interrupt: Option<&'static Interrupt>,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_steps: budget::DEFAULT_MAX_STEPS,
            interrupt: None,
        }
    }
}

/// Runs every wave to `s_endpgm` (or the end of the program) under the
/// default [`Limits`]; see [`run_with`].
pub fn run(prog: &Program, waves: &mut [WaveState], mem: &mut Memory) -> Result<(), ExecError> {
    run_with(prog, waves, mem, &Limits::default())
}

/// Runs every wave to `s_endpgm` (or the end of the program). Programs with
/// image operations run their waves one after another in wave order — one
/// valid serial order of their memory accesses, the same on every run; the
/// others run in parallel. A launch whose straight pass exceeds a wave's
/// share of the work budget is refused before any wave runs.
pub fn run_with(
    prog: &Program,
    waves: &mut [WaveState],
    mem: &mut Memory,
    limits: &Limits,
) -> Result<(), ExecError> {
    budget::check_launch(prog, waves.len(), limits.max_steps).map_err(ExecError::budget)?;
    let wl = WaveLimits {
        share: budget::share(limits.max_steps, waves.len()),
        max_steps: limits.max_steps,
        waves: waves.len(),
        interrupt: limits.interrupt,
    };
    let _polling = limits.interrupt.map(Polling::new);
    let touches_memory = prog.ops.iter().any(|(_, op)| match op {
        Op::Image(_) => true,
        Op::Visa(g) => matches!(**g, crate::ir::visa::VisaOp::StoreScaled { .. }),
        _ => false,
    });
    if touches_memory {
        waves
            .iter_mut()
            .try_for_each(|w| run_wave_limited(prog, w, mem, &wl))
    } else {
        waves
            .par_iter_mut()
            .try_for_each(|w| run_wave_limited(prog, w, &mut Memory::default(), &wl))
    }
}

/// One wave's part of a launch's [`Limits`].
struct WaveLimits {
    /// The wave's share of the budget.
    share: u64,
    /// The launch's budget and waves (for the error).
    max_steps: u64,
    waves: usize,
    interrupt: Option<&'static Interrupt>,
}

impl WaveLimits {
    fn poll(&self) -> Result<(), ExecError> {
        self.interrupt.map_or(Ok(()), Interrupt::poll)
    }
}

/// Runs one wave as the only wave of a launch under the default budget.
pub fn run_wave(prog: &Program, w: &mut WaveState, mem: &mut Memory) -> Result<(), ExecError> {
    budget::check_launch(prog, 1, budget::DEFAULT_MAX_STEPS).map_err(ExecError::budget)?;
    let wl = WaveLimits {
        share: budget::DEFAULT_MAX_STEPS,
        max_steps: budget::DEFAULT_MAX_STEPS,
        waves: 1,
        interrupt: None,
    };
    run_wave_limited(prog, w, mem, &wl)
}

/// Runs one wave within its share of the budget (the launch's straight pass
/// was checked by the caller).
fn run_wave_limited(
    prog: &Program,
    w: &mut WaveState,
    mem: &mut Memory,
    limits: &WaveLimits,
) -> Result<(), ExecError> {
    use crate::ir::visa::{VisaOp, MAX_BACK_JUMPS};
    let wave = w.wave;
    limits.poll()?;
    // Steps taken (budget::Steps: the straight pass at once, each backward
    // jump's distance when it is taken).
    let mut steps = Steps::start(prog, limits.share);
    // Depth of the `IfActive` regions being skipped (cpu::visa, "SIMD control
    // flow"): while no channel is active nothing executes.
    let mut skipping = 0usize;
    // The first op of each open loop's body, innermost last, and the
    // backward jumps taken so far (cpu::visa, "Loops").
    let mut loops: Vec<usize> = Vec::new();
    let mut back_jumps = 0u32;
    let mut pc = 0usize;
    while let Some((offset, op)) = prog.ops.get(pc) {
        pc += 1;
        // A long straight pass notices an interrupt too.
        if pc & 0xfff == 0 {
            limits.poll()?;
        }
        let fail = |e: OpError| ExecError {
            wave,
            offset: *offset,
            kind: ExecErrorKind::Op(e),
        };
        if let Op::Visa(g) = op {
            match **g {
                VisaOp::IfActive if skipping > 0 || !visa::any_active(w) => {
                    skipping += 1;
                    continue;
                }
                VisaOp::EndIfActive if skipping > 0 => {
                    skipping -= 1;
                    continue;
                }
                _ if skipping > 0 => continue,
                VisaOp::Loop => {
                    loops.push(pc);
                    continue;
                }
                VisaOp::EndLoop { again } => {
                    let start = loops
                        .last()
                        .copied()
                        .ok_or_else(|| fail(visa::VisaExecError::LoopEnd.into()))?;
                    if !visa::loop_again(w, again) {
                        loops.pop();
                    } else if back_jumps == MAX_BACK_JUMPS {
                        return Err(fail(visa::VisaExecError::BackJumps.into()));
                    } else if !steps.jump((pc - start) as u64) {
                        // The body again, from its first op to this one
                        // (budget::Steps::jump), would pass the wave's share.
                        return Err(ExecError::budget(budget::Exceeded {
                            max_steps: limits.max_steps,
                            waves: limits.waves,
                        }));
                    } else {
                        back_jumps += 1;
                        pc = start;
                        limits.poll()?;
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
            Op::Visa(g) => visa::execute(w, g, mem).map_err(|e| fail(e.into()))?,
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
                interp_gfx11::lds_param_load(w, *vdst, *attr, *chan).map_err(|e| fail(e.into()))?
            }
            Op::LdsDirectLoad { vdst } => {
                interp_gfx11::lds_direct_load(w, *vdst).map_err(|e| fail(e.into()))?
            }
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
