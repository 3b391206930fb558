//! The CPU reference interpreter: the written-down semantics of every operation
//! of [`crate::ir`]. Each rule is one function here or in [`crate::texture`],
//! listed in docs/semantics/ with its source.
//!
//! Waves are independent (they share no state but images, which the image
//! operations will own), so [`run`] executes them in parallel with rayon and the
//! result does not depend on the thread count.

pub mod alu;
pub mod atomic;
pub mod bvh;
mod error;
pub mod export;
pub mod image;
pub mod interp;
pub mod interp_gfx11;
pub mod memops;
pub mod sample;
pub mod visa;
pub mod wave_ops;

pub use error::{ExecError, ExecErrorKind, OpError};

use crate::machine::{MemAccess, Memory, WaveState};

use crate::ir::budget::{self, Steps};
use crate::ir::{MemUse, Op, Program, Reg, Src};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

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

/// How far runs have come: the waves whose results are final, counted as
/// each workgroup finishes (a speculative run when it commits). The command
/// line shows it while a long launch runs (`gcn-run`, issue 17 "Progress").
#[derive(Debug, Default)]
pub struct Progress {
    waves: AtomicU64,
}

impl Progress {
    /// Nothing done yet (usable in a `static`).
    pub const fn new() -> Progress {
        Progress {
            waves: AtomicU64::new(0),
        }
    }

    /// Waves finished so far.
    pub fn waves(&self) -> u64 {
        self.waves.load(Ordering::Relaxed)
    }

    fn add(&self, waves: usize) {
        self.waves.fetch_add(waves as u64, Ordering::Relaxed);
    }
}

/// What bounds a run: the launch's work budget ([`crate::ir::budget`]) and an
/// optional interrupt request; and where it reports its progress.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// The launch's work budget in steps ([`budget::DEFAULT_MAX_STEPS`]
    /// unless set).
    pub max_steps: u64,
    /// Polled where steps are counted; a request ends the run with
    /// [`ExecErrorKind::Interrupted`].
    pub interrupt: Option<&'static Interrupt>,
    /// Counts the waves that finish.
    pub progress: Option<&'static Progress>,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_steps: budget::DEFAULT_MAX_STEPS,
            interrupt: None,
            progress: None,
        }
    }
}

/// Runs every wave to `s_endpgm` (or the end of the program) under the
/// default [`Limits`]; see [`run_with`].
pub fn run(prog: &Program, waves: &mut [WaveState], mem: &mut Memory) -> Result<(), ExecError> {
    run_with(prog, waves, mem, &Limits::default())
}

/// Runs every wave to `s_endpgm` (or the end of the program). The result is
/// that of the documented serial order — one workgroup after another in
/// launch order, the waves of a workgroup taking turns between barriers
/// (`run_group`) — whatever the number of threads: programs that touch memory
/// run their workgroups in speculative parallel batches committed in that
/// order (`run_batches`), the others fully in parallel. A launch whose
/// straight pass exceeds a wave's share of the work budget is refused before
/// any wave runs.
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
        progress: limits.progress,
    };
    let _polling = limits.interrupt.map(Polling::new);
    let groups = split_groups(waves);
    match prog.memory_use() {
        MemUse::Writes => run_batches(prog, groups, mem, &wl),
        // Nothing shared but a workgroup's own LDS, and memory that nothing
        // changes (or that the program never reaches): every workgroup on its
        // own, in any order.
        MemUse::Reads | MemUse::None => {
            let shared: &Memory = mem;
            groups.into_par_iter().try_for_each(|g| {
                run_group(prog, g, &mut MemAccess::ReadOnly(shared), &wl)?;
                wl.finished(g.len());
                Ok(())
            })
        }
    }
}

/// The launch's waves cut into its workgroups.
fn split_groups(waves: &mut [WaveState]) -> Vec<&mut [WaveState]> {
    let mut groups = Vec::new();
    let mut rest = waves;
    for n in workgroups(rest) {
        let (group, tail) = std::mem::take(&mut rest).split_at_mut(n);
        groups.push(group);
        rest = tail;
    }
    groups
}

/// Workgroups per thread in one speculative batch.
const BATCH_PER_THREAD: usize = 4;

/// Runs the workgroups of a program that touches memory, with the result of
/// running them one after another in launch order (docs/semantics/core.md,
/// "Parallel waves"). Each batch of workgroups runs in parallel, each
/// against the memory as the batch found it, its writes kept aside and the
/// pages it read noted ([`MemAccess::speculative`]). The batch is then
/// committed in launch order: a workgroup that read no page an earlier one
/// of the batch wrote saw exactly what the serial order would have shown it,
/// so its registers and writes are taken as they are; from the first that
/// did, the rest of the batch runs again directly, in order. After such a
/// conflict the next batches run directly (twice as many after each
/// conflict in a row), so that a launch whose waves all meet at one address
/// costs little more than the serial run. One thread: everything directly.
fn run_batches(
    prog: &Program,
    mut groups: Vec<&mut [WaveState]>,
    mem: &mut Memory,
    wl: &WaveLimits,
) -> Result<(), ExecError> {
    let threads = rayon::current_num_threads();
    let batch = threads * BATCH_PER_THREAD;
    // The speculative copies of a batch's workgroups, reused batch to batch.
    // A workgroup of one wave in a program without LDS operations leaves its
    // LDS as it is (run_group hands it back to the wave, even on an error),
    // so its copy leaves the LDS behind; any other copies it too (run_group
    // moves a workgroup's LDS from wave to wave).
    let uses_lds = prog.uses_lds();
    let whole = |g: &[WaveState]| uses_lds || g.len() > 1;
    let mut copies: Vec<Vec<WaveState>> = (0..batch).map(|_| Vec::new()).collect();
    let (mut at, mut direct_for, mut backoff) = (0, 0u32, 1u32);
    while at < groups.len() {
        let end = (at + batch).min(groups.len());
        if threads == 1 || direct_for > 0 {
            for g in &mut groups[at..end] {
                run_group(prog, g, &mut MemAccess::Direct(mem), wl)?;
                wl.finished(g.len());
            }
            at = end;
            direct_for = direct_for.saturating_sub(1);
            continue;
        }
        let snapshot: &Memory = mem;
        let runs: Vec<_> = groups[at..end]
            .par_iter()
            .zip(copies.par_iter_mut())
            .map(|(g, copy)| {
                copy.truncate(g.len());
                for (i, w) in g.iter().enumerate() {
                    match copy.get_mut(i) {
                        Some(c) if whole(g) => c.clone_from(w),
                        Some(c) => c.copy_registers_from(w),
                        None => copy.push(w.clone()),
                    }
                }
                let mut view = MemAccess::speculative(snapshot);
                let result = run_group(prog, copy, &mut view, wl);
                (result, view.into_log())
            })
            .collect();
        let mut written = crate::machine::access::PageSet::default();
        let mut conflict = None;
        for (k, (result, log)) in runs.into_iter().enumerate() {
            let Some(log) = log.filter(|l| !l.conflicts(&written)) else {
                conflict = Some(at + k);
                break;
            };
            log.commit(mem, &mut written);
            // The run's registers become the wave's; its old ones are the
            // buffers of the next batch's copy.
            let whole = whole(groups[at + k]);
            for (w, c) in groups[at + k].iter_mut().zip(copies[k].iter_mut()) {
                if whole {
                    std::mem::swap(w, c);
                } else {
                    w.swap_registers(c);
                }
            }
            result?;
            wl.finished(groups[at + k].len());
        }
        if let Some(from) = conflict {
            for g in &mut groups[from..end] {
                run_group(prog, g, &mut MemAccess::Direct(mem), wl)?;
                wl.finished(g.len());
            }
            direct_for = backoff;
            backoff = backoff.saturating_mul(2);
        } else {
            backoff = 1;
        }
        at = end;
    }
    Ok(())
}

/// The sizes of the runs of consecutive waves with one workgroup.
fn workgroups(waves: &[WaveState]) -> Vec<usize> {
    let mut sizes: Vec<usize> = Vec::new();
    let mut last = None;
    for w in waves {
        if last == Some(w.workgroup) {
            *sizes.last_mut().expect("a group") += 1;
        } else {
            sizes.push(1);
            last = Some(w.workgroup);
        }
    }
    sizes
}

/// Runs the waves of one workgroup to their ends. They share the LDS of the
/// first (it moves to whichever wave runs) and take turns: each runs until
/// it ends or reaches `s_barrier`; when every wave that has not ended waits
/// at a barrier, all go on (a wave that has ended no longer counts at a
/// barrier: AMD Vega ISA S_BARRIER, "waves that have ended are not waited
/// for"). Turns go in wave order.
fn run_group(
    prog: &Program,
    group: &mut [WaveState],
    mem: &mut MemAccess<'_>,
    limits: &WaveLimits,
) -> Result<(), ExecError> {
    let mut cursors: Vec<Cursor> = group
        .iter()
        .map(|_| Cursor::start(prog, limits.share))
        .collect();
    let mut ended = vec![false; group.len()];
    let mut lds = std::mem::take(&mut group[0].lds);
    while ended.iter().any(|e| !e) {
        for (i, w) in group.iter_mut().enumerate() {
            if ended[i] {
                continue;
            }
            w.lds = std::mem::take(&mut lds);
            let stop = run_wave_limited(prog, w, mem, limits, &mut cursors[i]);
            lds = std::mem::take(&mut w.lds);
            if stop? == Stop::End {
                ended[i] = true;
            }
        }
    }
    group[0].lds = lds;
    Ok(())
}

/// Why a wave's turn ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stop {
    /// `s_endpgm`, a message that ends the wave, or the program's end.
    End,
    /// `s_barrier`: it waits for the other waves of its workgroup.
    Barrier,
}

/// Where a wave is in its program, kept across its turns.
struct Cursor {
    /// The next op.
    pc: usize,
    /// Steps taken (budget::Steps: the straight pass at once, each
    /// backward jump's distance when it is taken).
    steps: Steps,
    /// Depth of the `IfActive` regions being skipped (cpu::visa, "SIMD
    /// control flow"): while no channel is active nothing executes.
    skipping: usize,
    /// The first op of each open vISA loop's body, innermost last.
    loops: Vec<usize>,
    /// vISA backward jumps taken so far.
    back_jumps: u32,
}

impl Cursor {
    fn start(prog: &Program, share: u64) -> Cursor {
        Cursor {
            pc: prog.entry,
            steps: Steps::start(prog, share),
            skipping: 0,
            loops: Vec::new(),
            back_jumps: 0,
        }
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
    progress: Option<&'static Progress>,
}

impl WaveLimits {
    fn poll(&self) -> Result<(), ExecError> {
        self.interrupt.map_or(Ok(()), Interrupt::poll)
    }

    /// `waves` more have finished.
    fn finished(&self, waves: usize) {
        if let Some(p) = self.progress {
            p.add(waves);
        }
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
        progress: None,
    };
    run_group(
        prog,
        std::slice::from_mut(w),
        &mut MemAccess::Direct(mem),
        &wl,
    )
}

/// Runs one wave from its cursor within its share of the budget (the
/// launch's straight pass was checked by the caller), until it ends or
/// reaches a barrier.
fn run_wave_limited(
    prog: &Program,
    w: &mut WaveState,
    mem: &mut MemAccess<'_>,
    limits: &WaveLimits,
    cur: &mut Cursor,
) -> Result<Stop, ExecError> {
    use crate::ir::flow::WaveOp;
    use crate::ir::visa::{VisaOp, MAX_BACK_JUMPS};
    let wave = w.wave;
    limits.poll()?;
    while let Some((offset, op)) = prog.ops.get(cur.pc) {
        let here = cur.pc;
        cur.pc += 1;
        // A long straight pass notices an interrupt too.
        if cur.pc & 0xfff == 0 {
            limits.poll()?;
        }
        let fail = |e: OpError| ExecError {
            wave,
            offset: *offset,
            kind: ExecErrorKind::Op(e),
        };
        if let Op::Visa(g) = op {
            match **g {
                VisaOp::IfActive if cur.skipping > 0 || !visa::any_active(w) => {
                    cur.skipping += 1;
                    continue;
                }
                VisaOp::EndIfActive if cur.skipping > 0 => {
                    cur.skipping -= 1;
                    continue;
                }
                _ if cur.skipping > 0 => continue,
                VisaOp::Loop => {
                    cur.loops.push(cur.pc);
                    continue;
                }
                VisaOp::EndLoop { again } => {
                    let start = cur
                        .loops
                        .last()
                        .copied()
                        .ok_or_else(|| fail(visa::VisaExecError::LoopEnd.into()))?;
                    if !visa::loop_again(w, again) {
                        cur.loops.pop();
                    } else if cur.back_jumps == MAX_BACK_JUMPS {
                        return Err(fail(visa::VisaExecError::BackJumps.into()));
                    } else if !cur.steps.jump((cur.pc - start) as u64) {
                        // The body again, from its first op to this one
                        // (budget::Steps::jump), would pass the wave's share.
                        return Err(ExecError::budget(budget::Exceeded {
                            max_steps: limits.max_steps,
                            waves: limits.waves,
                        }));
                    } else {
                        cur.back_jumps += 1;
                        cur.pc = start;
                        limits.poll()?;
                    }
                    continue;
                }
                _ => {}
            }
        }
        if cur.skipping > 0 {
            continue;
        }
        match op {
            Op::End | Op::EndMsg => return Ok(Stop::End),
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
            Op::Alu(a) => alu::execute(w, a).map_err(|m| fail(OpError::Program(m)))?,
            Op::Dual(pair) => {
                alu::execute(w, &pair[0]).map_err(|m| fail(OpError::Program(m)))?;
                alu::execute(w, &pair[1]).map_err(|m| fail(OpError::Program(m)))?;
            }
            Op::VectorMem(v) => memops::vector(w, v, mem, prog.arch.gen, &prog.scratch)
                .map_err(|m| fail(OpError::Program(m)))?,
            Op::ScalarLoad(l) => memops::scalar_load(w, l, mem, prog.arch.gen)
                .map_err(|m| fail(OpError::Program(m)))?,
            Op::Ds(d) => memops::ds(w, d).map_err(|m| fail(OpError::Program(m)))?,
            Op::Export(x) => {
                export::execute(w, x, mem, prog.exports).map_err(|m| fail(OpError::Program(m)))?
            }
            Op::Wave(f) => match **f {
                WaveOp::Barrier => return Ok(Stop::Barrier),
                WaveOp::Branch { target, cond } => {
                    if branch_taken(w, cond) {
                        jump(prog, cur, here, target as usize, limits, *offset, wave)?;
                    }
                }
                WaveOp::GetPc { sdst } => {
                    let next = prog.next_address(here);
                    w.set_sgpr(sdst, next as u32);
                    w.set_sgpr(sdst + 1, (next >> 32) as u32);
                }
                WaveOp::SetPc { src } | WaveOp::SwapPc { src, .. } => {
                    let to = u64::from(w.sgpr(src)) | u64::from(w.sgpr(src + 1)) << 32;
                    if let WaveOp::SwapPc { sdst, .. } = **f {
                        let next = prog.next_address(here);
                        w.set_sgpr(sdst, next as u32);
                        w.set_sgpr(sdst + 1, (next >> 32) as u32);
                    }
                    let target = to
                        .checked_sub(prog.code_base)
                        .and_then(|o| usize::try_from(o).ok())
                        .and_then(|o| prog.op_at(o))
                        .ok_or_else(|| fail(OpError::Program(format!("s_setpc/s_swappc to {to:#x}, which is not an instruction of the program"))))?;
                    jump(prog, cur, here, target, limits, *offset, wave)?;
                }
                _ => wave_ops::execute(w, f).map_err(|m| fail(OpError::Program(m)))?,
            },
        }
    }
    Ok(Stop::End)
}

/// Whether a branch's condition holds (AMD Vega ISA S_CBRANCH_*; VCCZ and
/// EXECZ test the whole mask of the wave).
fn branch_taken(w: &WaveState, cond: crate::ir::flow::Cond) -> bool {
    use crate::ir::flow::Cond;
    let keep = if w.wave_size == 64 {
        u64::MAX
    } else {
        0xffff_ffff
    };
    match cond {
        Cond::Always => true,
        Cond::SccZ => !w.scc,
        Cond::SccNz => w.scc,
        Cond::VccZ => w.vcc & keep == 0,
        Cond::VccNz => w.vcc & keep != 0,
        Cond::ExecZ => w.exec & keep == 0,
        Cond::ExecNz => w.exec & keep != 0,
    }
}

/// Moves the cursor from op `from` to op `to`. A backward jump (or a jump
/// past the straight pass) charges the ops it goes back over, target to
/// jump inclusive (budget::Steps::jump); over the wave's share the launch
/// stops, naming the branch.
fn jump(
    prog: &Program,
    cur: &mut Cursor,
    from: usize,
    to: usize,
    limits: &WaveLimits,
    offset: usize,
    wave: u32,
) -> Result<(), ExecError> {
    let straight = budget::straight_end(prog);
    let charge = if to <= from {
        (from - to + 1) as u64
    } else if to > straight {
        // Ops past the first s_endpgm were never counted.
        (to - from) as u64
    } else {
        0
    };
    if charge > 0 {
        if !cur.steps.jump(charge) {
            let e = budget::Exceeded {
                max_steps: limits.max_steps,
                waves: limits.waves,
            };
            // Named as an operation's error: the branch that would pass the
            // wave's share (a loop that may never end).
            return Err(ExecError {
                wave,
                offset,
                kind: ExecErrorKind::Op(OpError::Program(format!(
                    "{e}; stopped at this backward branch, a loop that may never end"
                ))),
            });
        }
        limits.poll()?;
    }
    cur.pc = to;
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
            Reg::Scc => u32::from(self.scc),
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
            Reg::Scc => self.scc = v & 1 == 1,
            // Lowering never produces a VGPR scalar destination.
            Reg::Vgpr(_) => {}
        }
    }
}
