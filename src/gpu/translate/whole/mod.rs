//! Whole programs on the GPU: the scalar and vector ALU, scalar and vector
//! memory, LDS, branches and barriers of `ir::alu`, `ir::mem` and `ir::flow`,
//! as one WGSL module that runs every wave of a launch (docs/gpu.md,
//! "Whole programs").
//!
//! **Execution model.** One WGSL workgroup of `wave_size` invocations runs
//! the waves of one AMD workgroup, one wave at a time, in the CPU's order
//! (`cpu::run_group`): each wave runs until it ends or reaches `s_barrier`,
//! then the next; when every wave that has not ended waits at the barrier,
//! the round starts again. A wave's registers live in private variables of
//! every invocation (scalar ones computed alike by all lanes), loaded from the
//! state buffer at the start of its turn and written back at its end; its
//! program counter is the index of a basic block, kept in workgroup memory
//! and read through `workgroupUniformLoad`, so the `switch` over blocks and
//! every barrier in it are in uniform control flow. A lane mask (a compare's
//! result, a carry) is gathered through workgroup atomics where something
//! reads it whole, and waits as each lane's bit until then (`lanemask`); a
//! value of another lane (`v_readlane`, `ds_bpermute`) through a workgroup
//! array. LDS is the
//! storage binding `lds` at the workgroup's first wave. Memory operations of
//! the lanes are made visible to the next operation by a barrier after every
//! write; atomics, whose order decides what they return, run lane by lane in
//! lane order, as on the CPU; and when a program writes memory the workgroups
//! run one dispatch each, in launch order.
//!
//! The parts: this module (the refusals, the launch, the blocks and the
//! registers), `alu` (the ALU and wave operations), `lanemask` (masks
//! gathered where read whole), `mem` (memory, LDS and images), `module` (the
//! turn loop and the library).

mod alu;
mod lanemask;
mod mem;
mod module;
mod pixel;
mod shared;
pub(in crate::gpu::translate) use shared::split_at_site;
mod typed;
pub(in crate::gpu::translate) use typed::{
    layout_table as typed_layout_table, vsharp_format_table,
};

use super::HEADER_WORDS;
use super::{err, Emitter, Kernel, Options, TranslateError, TranslateErrorKind, Translation};
use crate::ir::alu::{AluOp, Dst, Family, Ty, Unit};
use crate::ir::flow::{Cond, WaveOp};
use crate::ir::mem::{Access, DsKind};
use crate::ir::{Op, Operand, Program, Reg, Src};
use crate::machine::{Memory, WaveState};
use std::collections::BTreeSet;
use std::fmt::Write as _;

/// State word of SCC (0 or 1) in a whole-program module's wave state.
pub const SCC_WORD: u32 = 112;
/// State word of the MODE register.
pub const MODE_WORD: u32 = 113;
/// State word of the block a waiting wave resumes at.
pub const PC_WORD: u32 = 114;
/// State word that is 1 once the wave has ended.
pub const STATUS_WORD: u32 = 115;
/// State word of a workgroup's first wave: how many waves the workgroup has
/// (0 in the others).
pub const GROUP_WORD: u32 = 116;
/// State word of the steps the wave's backward jumps have taken
/// (`ir::budget`).
pub const STEPS_WORD: u32 = 117;
/// State word of a workgroup's first wave: the wave whose turn a dispatch
/// suspended, where the next dispatch resumes the round.
pub const RESUME_WORD: u32 = 118;
/// STATUS_WORD of a wave whose turn a dispatch suspended (0: runnable, at
/// the start or at a barrier; 1: ended).
pub const SUSPENDED: u32 = 2;

/// Loop iterations one invocation may run in one dispatch: below llvmpipe's
/// 65,535 in all (docs/gpu.md, "Whole programs"); past it the wave's turn is
/// suspended and the runtime dispatches the launch again.
const ITER_BUDGET: u32 = 60_000;

/// `wg_u` values at or above this stop the wave's turn.
const STOP: u32 = 0x4000_0000;
/// The wave waits at a barrier; the low bits are the block it resumes at.
const YIELD: u32 = 0x4000_0000;
/// The dispatch suspends the wave's turn (its iteration budget is spent);
/// the low bits are the block it resumes at.
const SUSPEND: u32 = 0x6000_0000;
/// The wave has ended.
const ENDED: u32 = 0x8000_0000;
/// The wave has faulted (`wg_fault` holds the first fault).
const FAULTED: u32 = 0x8000_0001;

/// Whether a program needs the whole-program translation: it has an ALU,
/// memory, LDS or control-flow operation, or moves SCC.
pub fn is_whole(prog: &Program) -> bool {
    prog.ops.iter().any(|(_, op)| {
        matches!(
            op,
            Op::Alu(_)
                | Op::Dual(_)
                | Op::Wave(_)
                | Op::VectorMem(_)
                | Op::ScalarLoad(_)
                | Op::Ds(_)
                | Op::Export(_)
                | Op::EndMsg
        ) || matches!(op, Op::SMov { dst, src } if *dst == Reg::Scc || *src == Src::Reg(Reg::Scc))
    })
}

/// Float families the WGSL library computes on f32.
fn f32_family(f: Family) -> bool {
    use Family::*;
    match f {
        Add | Sub | Mul | Fma | Mad | Min | Max | Min3 | Max3 | Med3 | MinMax | MaxMin | Floor
        | Ceil | Trunc | Rndne | Rcp | Sqrt | Rsq | Exp | Log | Sin | Cos | Fract | DivScale
        | DivFmas | DivFixup | FrexpMant | FrexpExp | Ldexp | Cmp(_) | Class | Cndmask | Mov
        | CvtPkrtz | MulLegacy | MadLegacy | FmaLegacy => true,
        Cvt(to) => matches!(to, Ty::I32 | Ty::U32 | Ty::I16 | Ty::U16 | Ty::F16),
        _ => false,
    }
}

/// Float families the WGSL library computes on f16 (shaders/alu_f16.wgsl).
fn f16_family(f: Family) -> bool {
    use Family::*;
    match f {
        Add | Sub | Mul | Fma | Mad | Min | Max | Min3 | Max3 | Med3 | MinMax | MaxMin | Cmp(_)
        | Class | Cndmask | Mov | Rcp | Sqrt | Rsq | Fract | Floor | Ceil | Trunc | Rndne
        | FrexpMant | FrexpExp | Ldexp | Exp | Log | Sin | Cos | DivFixup => true,
        Cvt(to) => matches!(to, Ty::F32 | Ty::I32 | Ty::U32 | Ty::I16 | Ty::U16),
        _ => false,
    }
}

/// Float families the WGSL library computes on f64 (shaders/alu_f64.wgsl).
fn f64_family(f: Family) -> bool {
    use Family::*;
    match f {
        Add | Sub | Mul | Fma | Min | Max | Min3 | Max3 | Med3 | Floor | Ceil | Trunc | Rndne
        | Fract | FrexpMant | FrexpExp | Ldexp | Cmp(_) | Class | Rcp | Sqrt | Rsq | DivScale
        | DivFmas | DivFixup => true,
        Cvt(to) => matches!(to, Ty::F32 | Ty::I32 | Ty::U32),
        _ => false,
    }
}

/// Families `alu_int64` computes.
fn int64_family(f: Family) -> bool {
    use Family::*;
    matches!(
        f,
        Mov | Add
            | AddCarry
            | Sub
            | SubBorrow
            | Mul
            | MadWide
            | And
            | Or
            | Xor
            | Not
            | Nand
            | Nor
            | Xnor
            | AndNot
            | OrNot
            | Shl
            | Lshr
            | Ashr
            | Bfe
            | Bfm
            | Brev
            | Bcnt1
            | Bcnt0
            | FindLsb
            | FindMsb
            | FindMsbSigned
            | BitTest
            | BitTest0
            | BitSet
            | BitClear
            | Cmp(_)
            | Min
            | Max
            | Cndmask
            | Select
            | Wqm
            | QuadMask
            | Cvt(_)
    )
}

/// Why the whole-program translation refuses an ALU operation.
fn alu_refusal(op: &AluOp) -> Option<String> {
    let f = op.func;
    let name = f.wgsl_name();
    let out = f.signature().output;
    if out.is_some_and(|t| !t.is_float()) && op.mods.clamp && !f.saturates() {
        return Some(
            "GPU backend: integer clamp is not translated (the CPU does not execute it either)"
                .into(),
        );
    }
    let ok = match (f.family, f.ty) {
        (Family::Cvt(to), from) if to.is_float() && !from.is_float() => match to {
            Ty::F32 => matches!(from, Ty::I32 | Ty::U32 | Ty::I16 | Ty::U16),
            Ty::F16 => matches!(from, Ty::I16 | Ty::U16),
            Ty::F64 => matches!(from, Ty::I32 | Ty::U32),
            _ => false,
        },
        (Family::Cvt(Ty::F64), Ty::F32) => true,
        (family, Ty::F32) => f32_family(family),
        // The scalar unit's f16 (gfx11.5's SALU floats, whose operands are
        // not 16-bit halves yet) is not translated yet.
        (family, Ty::F16) => {
            f16_family(family) && (op.unit == Unit::Vector || family == Family::Cvt(Ty::F32))
        }
        (family, Ty::F64) => f64_family(family) && op.unit == Unit::Vector,
        (family, t) if t.bits() == 64 => int64_family(family),
        (Family::MadWide, _) => false,
        _ => true,
    };
    if ok {
        None
    } else {
        Some(format!(
            "GPU backend: {name} is not translated yet (the CPU runs it)"
        ))
    }
}

/// Why the whole-program translation refuses an operation, or `None` when it
/// translates it.
pub fn refusal(op: &Op) -> Option<String> {
    match op {
        Op::Alu(a) => alu_refusal(a),
        Op::Dual(pair) => pair.iter().find_map(alu_refusal),
        Op::Wave(_) => None,
        Op::Ds(_)
        | Op::Export(_)
        | Op::Interp(_)
        | Op::LdsParamLoad { .. }
        | Op::Vinterp(_)
        | Op::VectorMem(_)
        | Op::ScalarLoad(_)
        | Op::EndMsg
        | Op::End
        | Op::Nop
        | Op::Wait
        | Op::SMov { .. }
        | Op::VMov { .. } => None,
        Op::Image(m) if m.op.kind == crate::ir::image::ImageKind::Bvh => Some(
            "GPU backend: BVH intersection in programs with scalar ALU, memory or branches is not translated yet"
                .into(),
        ),
        Op::Image(_) => None,
        Op::LdsDirectLoad { .. } | Op::Visa(_) => Some(
            "GPU backend: lds_direct_load and Intel operations in programs with scalar ALU, memory or branches are not translated yet"
                .into(),
        ),
    }
}

/// True when a whole program writes the launch's memory (a vector store or
/// atomic): its workgroups then run one dispatch each, in launch order, the
/// CPU's order.
fn writes_memory(prog: &Program) -> bool {
    use crate::ir::image::ImageKind;
    prog.ops.iter().any(|(_, op)| match op {
        Op::VectorMem(m) => !matches!(
            m.access,
            Access::Load(_) | Access::Typed { store: false, .. }
        ),
        Op::Image(m) => matches!(m.op.kind, ImageKind::Store | ImageKind::Atomic),
        _ => false,
    })
}

/// What predicts, for an op index, the scalar registers of the launch's
/// first wave when it reaches that op: the CPU reference's run of it (the
/// launch layer provides it, `launch::run::predictor`; the back ends do not
/// import each other). Image instructions in whole programs are specialised
/// on it (`Whole::emit_image`).
pub type Predict<'a> = &'a dyn Fn(usize) -> Option<WaveState>;

/// What one control barrier (`workgroupBarrier`, `storageBarrier`,
/// `workgroupUniformLoad`) costs of llvmpipe's loop-iteration limit: llvmpipe
/// runs a workgroup's invocations as coroutines that switch at every
/// barrier, and the switching counts against the limit. Measured on a wave32
/// random kernel (tests/random_kernels.rs seed 3 on gfx1030 and gfx1100:
/// loops of atomics under the iterative atomic optimizer), which ran past the
/// limit with barriers costed at 5 iterations and ended with 10; the value
/// allows for wave64's workgroups of twice the coroutines with that margin
/// again.
const BARRIER_COST: u32 = 32;

/// An upper bound on the loop iterations one invocation runs for `op`
/// (lavapipe counts them; [`ITER_BUDGET`]): the lane turns of an atomic
/// (each with a barrier), the byte loops of a short store, the long division
/// of `rcp`, the square root's digit loop, the loops of the image library,
/// and the barriers of stores and lane exchanges ([`BARRIER_COST`]).
fn op_cost(op: &Op) -> u32 {
    let alu = |a: &AluOp| match (a.func.family, a.func.ty) {
        (Family::Rcp | Family::Sqrt, _) => 80,
        (Family::Rsq, _) => 160,
        (Family::Exp | Family::Log | Family::Sin | Family::Cos, _) => 320,
        (Family::Wqm | Family::QuadMask | Family::Perm, _) => 20,
        (Family::Dot(_), _) => 8,
        (_, Ty::F32) => 12,
        _ => 0,
    };
    let bar = BARRIER_COST;
    // A vector result that gathers a lane mask, or a DPP shuffle, exchanges
    // through workgroup memory: a barrier.
    let exchange = |a: &AluOp| {
        if a.unit == Unit::Vector
            && (a.dpp.is_some() || matches!(a.bit_dst, Some(Dst::Mask(_) | Dst::Exec(_))))
        {
            bar
        } else {
            0
        }
    };
    match op {
        Op::Alu(a) => alu(a) + exchange(a),
        Op::Dual(p) => alu(&p[0]) + alu(&p[1]) + exchange(&p[0]) + exchange(&p[1]),
        Op::VectorMem(m) => match m.access {
            Access::Atomic { .. } => 64 * (24 + bar) + bar,
            Access::Store(w) => 4 * 64 * w.dwords() + 8 + bar,
            Access::Load(w) => 4 * w.dwords(),
            // At most 16 bytes, converted.
            Access::Typed { store: false, .. } => 4 * 4 + 8,
            Access::Typed { store: true, .. } => 4 * 64 * 4 + 8 + bar,
        },
        Op::Ds(d) => match d.kind {
            DsKind::Atomic { .. } => 64 * (24 + bar) + bar,
            DsKind::Write(_) | DsKind::Write2 { .. } => 4 * 64 * 4 + 8 + bar,
            // xl_pusher scans the wave.
            DsKind::Permute => 64 + 8 + bar,
            _ => 4 + bar,
        },
        // v_readlane, v_writelane, v_permlane* exchange through workgroup
        // memory (the other wave operations at most cost that).
        Op::Wave(w) if !matches!(**w, WaveOp::Branch { .. } | WaveOp::Barrier) => bar,
        Op::Image(_) => 4096,
        _ => 0,
    }
}

/// Translates a whole program: one module for every wave of the launch.
pub(super) fn translate(
    prog: &Program,
    waves: &[WaveState],
    mem: &Memory,
    options: Options,
    predict: Option<Predict>,
) -> Result<Translation, TranslateError> {
    let wave_size = waves.first().map_or(64, |w| w.wave_size);
    let lds_bytes = waves.first().map_or(0, |w| w.lds.len() as u32);
    let budget = crate::ir::budget::Exceeded {
        max_steps: options.max_steps,
        waves: waves.len(),
    };
    crate::ir::budget::check_launch(prog, waves.len(), options.max_steps).map_err(super::whole)?;
    if prog.ops.len() >= 1 << 20 {
        return Err(super::whole(TranslateErrorKind::TooManyOps {
            ops: prog.ops.len(),
        }));
    }
    for (offset, op) in &prog.ops {
        if let Some(why) = refusal(op) {
            return Err(err(*offset, why));
        }
    }
    let mut e = Emitter::new(prog, mem, wave_size, lds_bytes);
    e.budget = budget.clone();
    e.room = crate::ir::budget::share(budget.max_steps, budget.waves)
        - crate::ir::budget::straight_steps(prog);
    e.max_body_bytes = options.max_module_bytes.saturating_mul(4);
    e.fma_in_prelude = true;
    let mut w = Whole {
        e,
        wave64: wave_size == 64,
        predict,
        index: 0,
        max_block_cost: 1,
        round_checked: [false; 2],
        sites: shared::Sites::choose(
            &prog.ops,
            || module::library(prog, mem, (wave_size, lds_bytes), 0),
            options.share_alu_above,
        ),
        lazy: Default::default(),
    };
    w.emit_blocks()?;
    let faults = std::mem::take(&mut w.e.faults);
    let (wgsl, vgprs) = w.finish();
    let writes = writes_memory(prog);
    let spec_wgsl = writes.then(|| module::speculative(&wgsl));
    let (size, tables) = super::tables::measure(&wgsl);
    if size > options.max_module_bytes {
        return Err(super::too_large(Some(size), options.max_module_bytes));
    }
    Ok(Translation {
        wave_size,
        lds_bytes,
        kernels: vec![Kernel {
            tables,
            state_words: HEADER_WORDS + vgprs.len() as u32 * wave_size,
            wgsl,
            vgprs,
            waves: (0..waves.len()).collect(),
            spec_wgsl,
            serial_waves: writes,
            mem64: false,
            atomics: Vec::new(),
            faults,
            whole: true,
            entry: prog.entry as u32,
        }],
    })
}

/// The whole-program emitter: the straight-line one's register slots and
/// text, and what only whole programs need.
struct Whole<'a> {
    e: Emitter<'a>,
    wave64: bool,
    /// Predicts the registers at an image instruction ([`Predict`]).
    predict: Option<Predict<'a>>,
    /// Index of the op being emitted.
    index: usize,
    /// The largest [`op_cost`] sum of a block.
    max_block_cost: u32,
    /// The round-mode checks (`Whole::round_check`: f32's, then f16's and
    /// f64's) already made since the block began or MODE was last written.
    round_checked: [bool; 2],
    /// The functions called through shared sites ([`shared`]).
    sites: shared::Sites,
    /// Lane masks written and not yet gathered (`lanemask`).
    lazy: lanemask::Lazy,
}

/// The 64-bit operand pieces as WGSL expressions.
use crate::gpu::translate::alu_call::Pair;

impl Whole<'_> {
    fn line(&mut self, s: &str) {
        self.e.line(s);
    }

    /// A 32-bit register as a WGSL expression.
    fn read(&mut self, r: Reg) -> String {
        match r {
            Reg::Scc => "scc".into(),
            other => self.e.reg_read(other),
        }
    }

    /// The register after `r` (a 64-bit operand's high half), or `None`
    /// where there is none (M0, SCC read 0 above).
    fn next(r: Reg) -> Option<Reg> {
        match r {
            Reg::Sgpr(n) => Some(Reg::Sgpr(n + 1)),
            Reg::Vgpr(n) => Some(Reg::Vgpr(n + 1)),
            Reg::ExecLo => Some(Reg::ExecHi),
            Reg::VccLo => Some(Reg::VccHi),
            _ => None,
        }
    }

    /// An operand of `slots` dwords (`WaveState::operand`).
    fn operand(&mut self, o: Operand, slots: u32) -> Pair {
        match o {
            Operand::Const(c) => (
                format!("{}u", c as u32),
                if slots == 2 {
                    format!("{}u", (c >> 32) as u32)
                } else {
                    "0u".into()
                },
            ),
            Operand::Reg(r) => {
                let lo = self.read(r);
                let hi = match (slots, Self::next(r)) {
                    (2, Some(n)) => self.read(n),
                    _ => "0u".into(),
                };
                (lo, hi)
            }
        }
    }

    /// A lane mask's two halves (wave32: the low one, 0 above).
    fn mask(&mut self, o: Operand) -> Pair {
        let slots = if self.wave64 { 2 } else { 1 };
        self.operand(o, slots)
    }

    /// Writes a 32-bit register (`WaveState::set_reg32`; a register past the
    /// file is dropped).
    fn write(&mut self, r: Reg, v: &str) {
        let place = match r {
            Reg::Sgpr(n) => self.e.s(n),
            Reg::Vgpr(n) => self.e.v(n),
            Reg::M0 => Some("m0".into()),
            Reg::ExecLo => Some("exec_lo".into()),
            Reg::ExecHi => Some("exec_hi".into()),
            Reg::VccLo => Some("vcc_lo".into()),
            Reg::VccHi => Some("vcc_hi".into()),
            Reg::Scc => {
                self.line(&format!("scc = ({v}) & 1u;"));
                return;
            }
        };
        if let Some(p) = place {
            self.line(&format!("{p} = {v};"));
        }
        self.e.after_write(r);
    }

    /// Writes EXEC whole (wave32: the low half, 0 above) and `lane_on`.
    fn write_exec(&mut self, lo: &str, hi: &str) {
        let hi = if self.wave64 { hi } else { "0u" };
        self.e.write_exec(lo, hi);
    }

    /// Writes a value of `slots` dwords (`WaveState::set_operand`).
    fn write_pair(&mut self, r: Reg, slots: u32, lo: &str, hi: &str) {
        self.write(r, lo);
        if slots == 2 {
            if let Some(n) = Self::next(r) {
                self.write(n, hi);
            }
        }
    }

    /// Writes a lane mask (`WaveState::set_mask`).
    fn write_mask(&mut self, r: Reg, lo: &str, hi: &str) {
        let slots = if self.wave64 { 2 } else { 1 };
        self.write_pair(r, slots, lo, hi);
    }

    /// Records a run-time fault of the operation at `offset` (the text the
    /// run reports) and returns the WGSL statement that raises it: its code,
    /// in FAULT_WORD form, into the workgroup's fault word.
    fn fault(&mut self, offset: usize, what: String) -> String {
        self.e.faults.insert(offset, what);
        let code = offset as u32 | super::bvh::FAULT_FLAG;
        format!("atomicMax(&wg_fault, {}u);", 0xffff_ffff - code)
    }

    /// The basic blocks: the first op, every branch target and every op after
    /// a branch, a barrier or an end.
    fn leaders(&self) -> BTreeSet<usize> {
        let ops = &self.e.prog.ops;
        let mut l = BTreeSet::new();
        l.insert(0);
        for (i, (_, op)) in ops.iter().enumerate() {
            match op {
                Op::Wave(w) => {
                    if let WaveOp::Branch { target, .. } = **w {
                        l.insert(target as usize);
                        l.insert(i + 1);
                    }
                    if let WaveOp::Barrier = **w {
                        l.insert(i + 1);
                    }
                }
                Op::End | Op::EndMsg => {
                    l.insert(i + 1);
                }
                _ => {}
            }
            // The targets an s_setpc/s_swappc may reach, as far as the code
            // says: the return address after a call, and a function's start
            // after a return (past its padding s_nops); a computed target
            // that is no block's start faults ([`Whole::emit_indirect`]).
            if let Op::Wave(w) = op {
                if matches!(**w, WaveOp::SetPc { .. } | WaveOp::SwapPc { .. }) {
                    l.insert(i + 1);
                    if let Some(k) = ops[i + 1..].iter().position(|(_, o)| *o != Op::Nop) {
                        l.insert(i + 1 + k);
                    }
                }
            }
        }
        l.insert(self.e.prog.entry);
        l.retain(|&i| i < ops.len());
        l
    }

    /// `s_setpc_b64` / `s_swappc_b64` at op `i` (`cpu::run_wave`): the
    /// target address read from the SGPR pair (before `s_swappc` writes the
    /// return address), the work budget's charge as for a branch, computed
    /// at run time (`cpu::jump`), and the next block: the one that starts at
    /// the target's offset, or a fault when none does (the CPU runs any
    /// instruction's address; the GPU has a block only where
    /// [`Whole::leaders`] put one).
    fn emit_indirect(&mut self, offset: usize, i: usize, w: &WaveOp) -> String {
        let prog = self.e.prog;
        let (WaveOp::SetPc { src } | WaveOp::SwapPc { src, .. }) = *w else {
            return format!("{FAULTED}u");
        };
        let lo = self.read(Reg::Sgpr(src));
        let hi = self.read(Reg::Sgpr(src + 1));
        self.line(&format!(
            "let to = u64_sub(vec2<u32>({lo}, {hi}), vec2<u32>({}u, {}u));",
            prog.code_base as u32,
            (prog.code_base >> 32) as u32
        ));
        if let WaveOp::SwapPc { sdst, .. } = *w {
            let a = prog.next_address(i);
            self.write(Reg::Sgpr(sdst), &format!("{}u", a as u32));
            self.write(Reg::Sgpr(sdst + 1), &format!("{}u", (a >> 32) as u32));
        }
        let fault = self.fault(
            offset,
            "s_setpc/s_swappc to an address that is not the start of a block of the GPU's translation (the CPU runs it: use the CPU backend)".into(),
        );
        self.line("var dest = 0xffffffffu;");
        self.line("if to.y == 0u {");
        self.line("    switch to.x {");
        let mut seen = BTreeSet::new();
        for &l in &self.leaders() {
            let at = prog.ops[l].0;
            if seen.insert(at) {
                self.line(&format!("        case {at}u: {{ dest = {l}u; }}"));
            }
        }
        self.line("        default: {}");
        self.line("    }");
        self.line("}");
        // The budget's charge (cpu::jump): backward jumps and forward ones
        // past the straight pass count their distance.
        let straight = crate::ir::budget::straight_end(prog);
        let what = format!(
            "{}; stopped at this jump, a loop that may never end",
            self.e.budget
        );
        let over_fault = self.fault(offset, what);
        let (over, count) = self.e.jump_budget_at_run_time("charge");
        self.line("var charge = 0u;");
        self.line(&format!("if dest <= {i}u {{ charge = {i}u - dest + 1u; }} else if dest != 0xffffffffu && dest > {straight}u {{ charge = dest - {i}u; }}"));
        self.line("var jumped = dest != 0xffffffffu;");
        self.line(&format!("if dest == 0xffffffffu {{ {fault} }} else if {over} {{ {over_fault} jumped = false; }} else {{ {count} }}"));
        format!("select({FAULTED}u, dest, jumped)")
    }

    fn emit_blocks(&mut self) -> Result<(), TranslateError> {
        let prog = self.e.prog;
        let n = prog.ops.len();
        let leaders: Vec<usize> = self.leaders().into_iter().collect();
        for (bi, &start) in leaders.iter().enumerate() {
            let end = leaders.get(bi + 1).copied().unwrap_or(n);
            if self.e.body.len() as u64 > self.e.max_body_bytes {
                return Err(super::too_large(None, self.e.max_body_bytes / 4));
            }
            writeln!(self.e.body, "            case {start}u: {{").ok();
            self.round_checked = [false; 2];
            // The dispatch's barrier and uniform load after every block.
            // A shared site is one more trip of the turn loop.
            let shared: u32 = prog.ops[start..end]
                .iter()
                .map(|(_, op)| self.sites.trips(op))
                .sum();
            let cost = 1
                + 2 * BARRIER_COST
                + shared
                + prog.ops[start..end]
                    .iter()
                    .map(|(_, op)| op_cost(op))
                    .sum::<u32>();
            self.max_block_cost = self.max_block_cost.max(cost);
            writeln!(self.e.body, "        spent = spent + {cost}u;").ok();
            let mut next = format!("{end}u");
            for i in start..end {
                let (offset, op) = &prog.ops[i];
                writeln!(self.e.body, "    // {offset:#06x}").ok();
                self.settle_before(op);
                match op {
                    Op::End | Op::EndMsg => next = format!("{ENDED}u"),
                    Op::Wave(w) => match **w {
                        WaveOp::Branch { target, cond } => {
                            next = self.emit_branch(*offset, i, target as usize, cond);
                        }
                        WaveOp::Barrier => next = format!("{}u", YIELD | (i as u32 + 1)),
                        WaveOp::SetPc { .. } | WaveOp::SwapPc { .. } => {
                            next = self.emit_indirect(*offset, i, w);
                        }
                        _ => self.emit_wave(*offset, i, w)?,
                    },
                    _ => {
                        self.index = i;
                        self.emit_op(*offset, op)?
                    }
                }
            }
            // The registers go back to the state or on to the next block.
            self.settle_all();
            if end == n && next == format!("{end}u") {
                next = format!("{ENDED}u");
            }
            writeln!(self.e.body, "        next = {next};").ok();
            writeln!(self.e.body, "            }}").ok();
        }
        Ok(())
    }

    /// A branch at op `i`: the next block as a WGSL expression, with the
    /// work budget's check on a backward jump (`cpu::jump`).
    fn emit_branch(&mut self, offset: usize, i: usize, target: usize, cond: Cond) -> String {
        let c = self.cond(cond);
        let straight = crate::ir::budget::straight_end(self.e.prog);
        let charge = if target <= i {
            (i - target + 1) as u64
        } else if target > straight {
            (target - i) as u64
        } else {
            0
        };
        let fallthrough = i + 1;
        let taken = if target >= self.e.prog.ops.len() {
            ENDED
        } else {
            target as u32
        };
        if charge == 0 {
            return format!("select({fallthrough}u, {taken}u, {c})");
        }
        let what = format!(
            "{}; stopped at this backward branch, a loop that may never end",
            self.e.budget
        );
        let fault = self.fault(offset, what);
        let (over, count) = self.e.jump_budget(charge);
        self.line("var taken = false;");
        self.line(&format!("if {c} {{"));
        self.line(&format!(
            "    if {over} {{ {fault} }} else {{ {count} taken = true; }}"
        ));
        self.line("}");
        format!("select(select({fallthrough}u, {FAULTED}u, ({c}) && !taken), {taken}u, taken)")
    }

    fn cond(&self, c: Cond) -> String {
        let any = |lo: &str, hi: &str| {
            if self.wave64 {
                format!("({lo} | {hi}) != 0u")
            } else {
                format!("{lo} != 0u")
            }
        };
        match c {
            Cond::Always => "true".into(),
            Cond::SccZ => "scc == 0u".into(),
            Cond::SccNz => "scc != 0u".into(),
            Cond::VccZ => format!("!({})", any("vcc_lo", "vcc_hi")),
            Cond::VccNz => any("vcc_lo", "vcc_hi"),
            Cond::ExecZ => format!("!({})", any("exec_lo", "exec_hi")),
            Cond::ExecNz => any("exec_lo", "exec_hi"),
        }
    }

    fn emit_op(&mut self, offset: usize, op: &Op) -> Result<(), TranslateError> {
        match op {
            Op::Nop | Op::Wait => {}
            Op::SMov { dst, src } => {
                let v = self.src(*src);
                if !matches!(dst, Reg::Vgpr(_)) {
                    self.write(*dst, &v);
                }
            }
            Op::VMov { dst, src } => {
                let v = self.src(*src);
                if let Some(d) = self.e.v(*dst) {
                    self.line(&format!("if lane_on {{ {d} = {v}; }}"));
                }
            }
            Op::Alu(a) => self.emit_alu(offset, a),
            Op::Dual(pair) => {
                for half in pair.iter() {
                    self.round_check(offset, half);
                    self.emit_alu_inline(half);
                }
            }
            Op::VectorMem(m) => self.emit_vector_mem(offset, m),
            Op::ScalarLoad(l) => self.emit_scalar_load(offset, l),
            Op::Ds(d) => self.emit_ds(d),
            Op::Image(m) => self.emit_image(offset, m)?,
            Op::Export(x) => self.emit_export(offset, x),
            Op::Interp(_) | Op::LdsParamLoad { .. } | Op::Vinterp(_) => {
                self.emit_pixel_op(offset, op)
            }
            other => {
                let why = refusal(other).unwrap_or_else(|| "GPU backend: not translated".into());
                return Err(err(offset, why));
            }
        }
        Ok(())
    }

    fn src(&mut self, s: Src) -> String {
        match s {
            Src::Const(c) => format!("{c}u"),
            Src::Reg(r) => self.read(r),
        }
    }
}
