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
//! result, a carry) is gathered through workgroup atomics; a value of another
//! lane (`v_readlane`, `ds_bpermute`) through a workgroup array. LDS is the
//! storage binding `lds` at the workgroup's first wave. Memory operations of
//! the lanes are made visible to the next operation by a barrier after every
//! write; atomics, whose order decides what they return, run lane by lane in
//! lane order, as on the CPU; and when a program writes memory the workgroups
//! run one dispatch each, in launch order.

use super::{err, Emitter, Kernel, Options, TranslateError, TranslateErrorKind, Translation};
use super::{BUDGET_FAULT, DEVICE_LOOP_FAULT, FAULT_WORD, HEADER_WORDS};
use crate::ir::alu::{AluOp, Dst, Family, Ty, Unit};
use crate::ir::flow::{Cond, HwReg, WaveOp};
use crate::ir::mem::{Access, Addr, Ds, DsKind, ScalarLoad, VectorMem, Width, LDS_APERTURE};
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

/// The ALU families, in the order of their WGSL codes (`FAM_*`): the
/// constants `shaders/alu_int.wgsl` and `shaders/alu_f32.wgsl` switch on. A
/// compare and a conversion are one family each, their relation or target
/// passed beside.
const FAMILIES: &[&str] = &[
    "MOV",
    "ADD",
    "ADD_CARRY",
    "SUB",
    "SUB_BORROW",
    "MUL",
    "MUL_HI",
    "MUL24",
    "MUL_HI24",
    "MAD24",
    "MAD_WIDE",
    "ADD3",
    "LSHL_ADD",
    "ADD_LSHL",
    "LSHL_OR",
    "AND_OR",
    "OR3",
    "XOR3",
    "XOR_ADD",
    "MIN",
    "MAX",
    "MED3",
    "MIN3",
    "MAX3",
    "AND",
    "OR",
    "XOR",
    "NOT",
    "NAND",
    "NOR",
    "XNOR",
    "AND_NOT",
    "OR_NOT",
    "SHL",
    "LSHR",
    "ASHR",
    "BFE",
    "BFI",
    "BFM",
    "BREV",
    "BCNT1",
    "BCNT0",
    "FIND_LSB",
    "FIND_MSB",
    "FIND_MSB_SIGNED",
    "ABS",
    "SEXT8",
    "SEXT16",
    "ALIGN_BIT",
    "ALIGN_BYTE",
    "PERM",
    "BIT_TEST",
    "BIT_TEST0",
    "MBCNT_LO",
    "MBCNT_HI",
    "BIT_SET",
    "BIT_CLEAR",
    "CMP",
    "CLASS",
    "CNDMASK",
    "SELECT",
    "FMA",
    "MAD",
    "MUL_LEGACY",
    "FRACT",
    "FLOOR",
    "CEIL",
    "TRUNC",
    "RNDNE",
    "FREXP_MANT",
    "FREXP_EXP",
    "LDEXP",
    "RCP",
    "RSQ",
    "SQRT",
    "EXP",
    "LOG",
    "SIN",
    "COS",
    "DIV_SCALE",
    "DIV_FMAS",
    "DIV_FIXUP",
    "CVT",
    "CVT_PKRTZ",
    "PACK",
    "WQM",
    "QUAD_MASK",
];

/// The `FAM_*` constant of a family (`MulHi24` → `FAM_MUL_HI24`).
fn fam(f: Family) -> String {
    let name = match f {
        Family::Cmp(_) => "Cmp".to_string(),
        Family::Cvt(_) => "Cvt".to_string(),
        other => format!("{other:?}"),
    };
    let mut out = String::from("FAM_");
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            out.push('_');
        }
        out.push(c.to_ascii_uppercase());
    }
    out
}

/// The WGSL declarations of the family codes.
fn family_consts() -> String {
    let mut s = String::from("// ir::alu::Family codes (gpu/translate/whole.rs FAMILIES).\n");
    for (i, name) in FAMILIES.iter().enumerate() {
        writeln!(s, "const FAM_{name}: u32 = {i}u;").ok();
    }
    s
}

/// The library function computing `f` on values of `width` (`int32`,
/// `int64`, `f32op`): one per `case` of the library's switch, named after
/// the case's first family (shaders/alu_int.wgsl, alu_f32.wgsl).
fn case_fn(width: &str, f: Family) -> String {
    use Family::*;
    let leader = match (width, f) {
        (_, AddCarry) => Add,
        (_, SubBorrow) => Sub,
        ("int32", MulHi24 | Mad24) => Mul24,
        ("int32", Max | Min3 | Max3 | Med3) => Min,
        ("int32", AlignByte) => AlignBit,
        ("int32", MbcntHi) => MbcntLo,
        ("int32", QuadMask) => Wqm,
        ("f32op", Ceil | Trunc | Rndne) => Floor,
        (_, other) => other,
    };
    format!("{width}_{}", fam(leader)[4..].to_lowercase())
}

/// A type's code for the library's `sub` argument: bits, 0x100 when signed,
/// 0x200 when a float.
fn ty_code(t: Ty) -> u32 {
    t.bits() | if t.is_signed() { 0x100 } else { 0 } | if t.is_float() { 0x200 } else { 0 }
}

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
                | Op::EndMsg
        ) || matches!(op, Op::SMov { dst, src } if *dst == Reg::Scc || *src == Src::Reg(Reg::Scc))
    })
}

/// Float families the WGSL library computes on f32.
fn f32_family(f: Family) -> bool {
    use Family::*;
    match f {
        Add | Sub | Mul | Fma | Mad | Min | Max | Min3 | Max3 | Med3 | Floor | Ceil | Trunc
        | Rndne | Rcp | Sqrt | FrexpMant | FrexpExp | Ldexp | Cmp(_) | Class | Cndmask | Mov
        | CvtPkrtz => true,
        Cvt(to) => matches!(to, Ty::I32 | Ty::U32 | Ty::I16 | Ty::U16 | Ty::F16),
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
    if op.dpp.is_some() {
        return Some("GPU backend: DPP lane shuffles are not translated yet".into());
    }
    if op.packed_hi.is_some() {
        return Some(format!(
            "GPU backend: packed (VOP3P) {name} is not translated yet"
        ));
    }
    let out = f.signature().output;
    if out.is_some_and(|t| !t.is_float()) && (op.mods.clamp || op.mods.omod != 0) {
        return Some("GPU backend: integer clamp and output modifiers are not translated (the CPU does not execute them either)".into());
    }
    let ok = match (f.family, f.ty) {
        (Family::Cvt(to), from) if to.is_float() && !from.is_float() => {
            to == Ty::F32 && matches!(from, Ty::I32 | Ty::U32 | Ty::I16 | Ty::U16)
        }
        (family, Ty::F32) => f32_family(family),
        (Family::Cvt(Ty::F32), Ty::F16) => true,
        (_, Ty::F16 | Ty::F64) => false,
        (family, t) if t.bits() == 64 => int64_family(family),
        (Family::MadWide, _) => false,
        _ => true,
    };
    if ok {
        None
    } else {
        Some(format!(
            "GPU backend: {name} is not translated yet (f64 and f16 arithmetic run on the CPU only)"
        ))
    }
}

/// Why the whole-program translation refuses an operation, or `None` when it
/// translates it.
pub fn refusal(op: &Op) -> Option<String> {
    match op {
        Op::Alu(a) => alu_refusal(a),
        Op::Dual(pair) => pair.iter().find_map(alu_refusal),
        Op::Wave(w) => match **w {
            WaveOp::SetPc { .. } | WaveOp::SwapPc { .. } => Some(
                "GPU backend: s_setpc/s_swappc (jumps to computed addresses) are not translated yet"
                    .into(),
            ),
            _ => None,
        },
        Op::VectorMem(m) => match m.addr {
            Addr::Buffer { .. } => {
                Some("GPU backend: buffer (MUBUF) accesses are not translated yet".into())
            }
            Addr::Scratch { .. } => {
                Some("GPU backend: scratch (private) memory is not translated yet".into())
            }
            _ => None,
        },
        Op::ScalarLoad(l) if l.buffer => {
            Some("GPU backend: s_buffer_load through a V# is not translated yet".into())
        }
        Op::Ds(d) => match d.kind {
            DsKind::Swizzle | DsKind::Permute => Some(
                "GPU backend: ds_swizzle and ds_permute are not translated yet".into(),
            ),
            _ => None,
        },
        Op::ScalarLoad(_)
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
        Op::Interp(_)
        | Op::LdsParamLoad { .. }
        | Op::LdsDirectLoad { .. }
        | Op::Vinterp(_)
        | Op::Visa(_) => Some(
            "GPU backend: interpolation and Intel operations in programs with scalar ALU, memory or branches are not translated yet"
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
        Op::VectorMem(m) => !matches!(m.access, Access::Load(_)),
        Op::Image(m) => matches!(m.op.kind, ImageKind::Store | ImageKind::Atomic),
        _ => false,
    })
}

/// What predicts, for an op index, the scalar registers of the launch's
/// first wave when it reaches that op: the CPU reference's run of it (the
/// launch layer provides it, `launch::run::predictor`; the back ends do not
/// import each other). Image instructions in whole programs are specialised
/// on it ([`Whole::emit_image`]).
pub type Predict<'a> = &'a dyn Fn(usize) -> Option<WaveState>;

/// An upper bound on the loop iterations one invocation runs for `op`
/// (lavapipe counts them; [`ITER_BUDGET`]): the lane turns of an atomic, the
/// byte loops of a short store, the long division of `rcp`, the square root's
/// digit loop, the loops of the image library.
fn op_cost(op: &Op) -> u32 {
    let alu = |a: &AluOp| match (a.func.family, a.func.ty) {
        (Family::Rcp | Family::Sqrt, _) => 80,
        (Family::Wqm | Family::QuadMask | Family::Perm, _) => 20,
        (_, Ty::F32) => 12,
        _ => 0,
    };
    match op {
        Op::Alu(a) => alu(a),
        Op::Dual(p) => alu(&p[0]) + alu(&p[1]),
        Op::VectorMem(m) => match m.access {
            Access::Atomic { .. } => 64 * 24,
            Access::Store(w) => 4 * 64 * w.dwords() + 8,
            Access::Load(_) => 4,
        },
        Op::Ds(d) => match d.kind {
            DsKind::Atomic { .. } => 64 * 24,
            DsKind::Write(_) | DsKind::Write2 { .. } => 4 * 64 * 4 + 8,
            _ => 4,
        },
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
    let mut w = Whole {
        e,
        wave64: wave_size == 64,
        predict,
        index: 0,
        max_block_cost: 1,
    };
    w.emit_blocks()?;
    let faults = std::mem::take(&mut w.e.faults);
    let (wgsl, vgprs) = w.finish();
    let size = super::wgsl::inlined_bytes(&wgsl);
    if size > options.max_module_bytes {
        return Err(super::too_large(Some(size), options.max_module_bytes));
    }
    Ok(Translation {
        wave_size,
        lds_bytes,
        kernels: vec![Kernel {
            degamma_table: super::degamma::reads_table(&wgsl),
            state_words: HEADER_WORDS + vgprs.len() as u32 * wave_size,
            wgsl,
            vgprs,
            waves: (0..waves.len()).collect(),
            serial_waves: writes_memory(prog),
            mem64: false,
            atomics: Vec::new(),
            faults,
            whole: true,
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
}

/// The 64-bit operand pieces as WGSL expressions.
type Pair = (String, String);

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

    /// Records a run-time fault of the operation at `offset`: its code in
    /// FAULT_WORD form and the text the run reports.
    fn fault_code(&mut self, offset: usize, what: String) -> u32 {
        self.e.faults.insert(offset, what);
        offset as u32 | super::bvh::FAULT_FLAG
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
        }
        l.retain(|&i| i < ops.len());
        l
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
            let cost = 1 + prog.ops[start..end]
                .iter()
                .map(|(_, op)| op_cost(op))
                .sum::<u32>();
            self.max_block_cost = self.max_block_cost.max(cost);
            writeln!(self.e.body, "        spent = spent + {cost}u;").ok();
            let mut next = format!("{end}u");
            for i in start..end {
                let (offset, op) = &prog.ops[i];
                writeln!(self.e.body, "    // {offset:#06x}").ok();
                match op {
                    Op::End | Op::EndMsg => next = format!("{ENDED}u"),
                    Op::Wave(w) => match **w {
                        WaveOp::Branch { target, cond } => {
                            next = self.emit_branch(*offset, i, target as usize, cond);
                        }
                        WaveOp::Barrier => next = format!("{}u", YIELD | (i as u32 + 1)),
                        _ => self.emit_wave(*offset, i, w)?,
                    },
                    _ => {
                        self.index = i;
                        self.emit_op(*offset, op)?
                    }
                }
            }
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
        let straight = crate::ir::budget::straight_steps(self.e.prog) as usize;
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
        let code = self.fault_code(offset, what);
        self.e
            .faults
            .insert(BUDGET_FAULT as usize, self.e.budget.to_string());
        let (over, count) = self.e.jump_budget(charge);
        self.line("var taken = false;");
        self.line(&format!("if {c} {{"));
        self.line(&format!(
            "    if {over} {{ atomicMax(&wg_fault, {}u); }} else {{ {count} taken = true; }}",
            0xffff_ffff - code
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
                    self.line(&format!(
                        "if is_active(exec_lo, exec_hi, lane) {{ {d} = {v}; }}"
                    ));
                }
            }
            Op::Alu(a) => self.emit_alu(offset, a),
            Op::Dual(pair) => {
                self.emit_alu(offset, &pair[0]);
                self.emit_alu(offset, &pair[1]);
            }
            Op::VectorMem(m) => self.emit_vector_mem(offset, m),
            Op::ScalarLoad(l) => self.emit_scalar_load(offset, l),
            Op::Ds(d) => self.emit_ds(d),
            Op::Image(m) => self.emit_image(offset, m)?,
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

    /// The library call computing `op`'s function on inputs `x` with bit
    /// input `k`: a `vec3<u32>` (value low, high, bit).
    fn call(&self, op: &AluOp, x: &[Pair; 3], k: &str) -> String {
        let f = op.func;
        let vec = op.unit == Unit::Vector;
        let sub = match f.family {
            Family::Cmp(r) => r.code(),
            Family::Cvt(to) => ty_code(to),
            _ => 0,
        };
        let famc = fam(f.family);
        match (f.family, f.ty) {
            (Family::Cvt(_), from) if !from.is_float() && f.signature().output.is_some_and(|t| t.is_float()) => {
                format!(
                    "vec3<u32>(f32_from_int(mode, {}, {}u), 0u, 0u)",
                    x[0].0,
                    ty_code(from)
                )
            }
            (_, Ty::F32) => format!(
                "{}({famc}, {sub}u, mode, {}, {}, {}, {k})",
                case_fn("f32op", f.family),
                x[0].0,
                x[1].0,
                x[2].0
            ),
            (_, Ty::F16) => format!("vec3<u32>(alu_f16_to_f32(mode, {}), 0u, 0u)", x[0].0),
            (_, t) if t.bits() == 64 => format!(
                "{}({famc}, {sub}u, {}, {vec}, vec2<u32>({}, {}), vec2<u32>({}, {}), vec2<u32>({}, {}), {k})",
                case_fn("int64", f.family),
                t.is_signed(),
                x[0].0,
                x[0].1,
                x[1].0,
                x[1].1,
                x[2].0,
                x[2].1
            ),
            (_, t) => format!(
                "{}({famc}, {sub}u, {}u, {}, {vec}, {}, {}, {}, {k})",
                case_fn("int32", f.family),
                t.bits(),
                t.is_signed(),
                x[0].0,
                x[1].0,
                x[2].0
            ),
        }
    }

    /// A float function under a MODE whose round mode is not nearest even
    /// faults, as the CPU refuses it (`float::Mode::check_round`).
    fn round_check(&mut self, offset: usize, op: &AluOp) {
        let ty = op.func.ty;
        if !ty.is_float() {
            return;
        }
        let shift = if ty == Ty::F32 { 0 } else { 2 };
        let code = self.fault_code(
            offset,
            format!(
                "MODE.FP_ROUND selects a round mode other than nearest even for {}: gcnrun executes round-to-nearest-even only",
                ty.name()
            ),
        );
        self.line(&format!(
            "if ((mode >> {shift}u) & 3u) != 0u {{ atomicMax(&wg_fault, {}u); }}",
            0xffff_ffff - code
        ));
    }

    fn emit_alu(&mut self, offset: usize, op: &AluOp) {
        self.round_check(offset, op);
        let sig = op.func.signature();
        self.line("{");
        match op.unit {
            Unit::Scalar => {
                let mut x: [Pair; 3] = Default::default();
                for (i, t) in sig.inputs.iter().enumerate() {
                    if let Some(t) = t {
                        x[i] = self.operand(op.src[i], t.slots());
                    } else {
                        x[i] = ("0u".into(), "0u".into());
                    }
                }
                let k = match op.bit_src {
                    Some(b) => format!("({} & 1u) == 1u", self.operand(b, 1).0),
                    None => "false".into(),
                };
                let call = self.call(op, &x, &k);
                self.line(&format!("let r = {call};"));
                if let (Some(Dst::Reg(r)), Some(t)) = (op.dst, sig.output) {
                    self.write_pair(r, t.slots(), "r.x", "r.y");
                }
                if let Some(Dst::Scc) = op.bit_dst {
                    self.line("scc = r.z;");
                }
            }
            Unit::Vector => self.emit_vector_alu(op),
        }
        self.line("}");
    }

    /// Input `i` of a vector operation for this lane (`cpu::alu::input`).
    fn vector_input(&mut self, op: &AluOp, i: usize, t: Ty) -> Pair {
        let (mut lo, hi) = self.operand(op.src[i], t.slots());
        if let Some(s) = op.sdwa.filter(|_| i < 2) {
            lo = format!("sdwa_select({lo}, {}u, {})", s.src_sel[i], s.sext[i]);
        }
        if t.bits() == 16 {
            if op.mods.op_sel >> i & 1 == 1 {
                lo = format!("({lo} >> 16u)");
            }
            lo = format!("({lo} & 0xffffu)");
        }
        if t.is_float() {
            let sign: u64 = match t {
                Ty::F16 => 0x8000,
                Ty::F32 => 0x8000_0000,
                _ => 1 << 63,
            };
            let (abs, neg) = (op.mods.abs >> i & 1 == 1, op.mods.neg >> i & 1 == 1);
            if t == Ty::F64 {
                // Refused before emission (alu_refusal); the sign is in the high half.
                return (lo, hi);
            }
            if abs {
                lo = format!("({lo} & {}u)", !sign as u32);
            }
            if neg {
                lo = format!("({lo} ^ {}u)", sign as u32);
            }
        }
        match (op.func.family, i) {
            (Family::MbcntLo, 0) => {
                lo = format!("({lo} & select((1u << lane) - 1u, 0xffffffffu, lane >= 32u))")
            }
            (Family::MbcntHi, 0) => {
                lo = format!("({lo} & select(0u, (1u << (lane - 32u)) - 1u, lane >= 32u))")
            }
            _ => {}
        }
        (lo, hi)
    }

    /// A vector ALU operation (`cpu::alu::execute_vector`).
    fn emit_vector_alu(&mut self, op: &AluOp) {
        let sig = op.func.signature();
        let gathers = matches!(op.bit_dst, Some(Dst::Mask(_) | Dst::Exec(_)));
        let k_mask = op.bit_src.map(|b| self.mask(b));
        if gathers {
            self.line("var bit = false;");
        }
        self.line("if is_active(exec_lo, exec_hi, lane) {");
        let mut x: [Pair; 3] = Default::default();
        for (i, t) in sig.inputs.iter().enumerate() {
            x[i] = match t {
                Some(t) => self.vector_input(op, i, *t),
                None => ("0u".into(), "0u".into()),
            };
        }
        let k = match &k_mask {
            Some((lo, hi)) => format!("mask_bit({lo}, {hi}, lane)"),
            None => "false".into(),
        };
        let call = self.call(op, &x, &k);
        self.line(&format!("    let r = {call};"));
        if let (Some(Dst::Reg(r)), Some(t)) = (op.dst, sig.output) {
            let mut v = "r.x".to_string();
            if t.is_float() && (op.mods.omod != 0 || op.mods.clamp) && t == Ty::F32 {
                v = format!(
                    "f32_output(mode, {v}, {}u, {})",
                    op.mods.omod, op.mods.clamp
                );
            }
            if let Some(s) = op.sdwa {
                let old = self.read(r);
                v = format!("sdwa_place({}u, {}u, {v}, {old})", s.dst_sel, s.dst_unused);
            } else if t.bits() == 16 {
                let old = self.read(r);
                v = if op.mods.op_sel >> 3 & 1 == 1 {
                    format!("(({old} & 0xffffu) | (({v} & 0xffffu) << 16u))")
                } else if op.high_kept16 {
                    format!("(({old} & 0xffff0000u) | ({v} & 0xffffu))")
                } else {
                    format!("({v} & 0xffffu)")
                };
            }
            self.line(&format!("    let val = {v};"));
            self.write_pair(r, t.slots(), "val", "r.y");
        }
        if gathers {
            self.line("    bit = r.z == 1u;");
        }
        self.line("}");
        if gathers {
            self.line("let mk = xl_mask(bit, lane, xmc % 3u);");
            self.line("xmc = xmc + 1u;");
            match op.bit_dst {
                Some(Dst::Mask(r)) => self.write_mask(r, "mk.x", "mk.y"),
                Some(Dst::Exec(also)) => {
                    if let Some(r) = also {
                        self.write_mask(r, "mk.x", "mk.y");
                    }
                    self.line("exec_lo = mk.x;");
                    self.line(if self.wave64 {
                        "exec_hi = mk.y;"
                    } else {
                        "exec_hi = 0u;"
                    });
                }
                _ => {}
            }
        }
    }

    /// A wave operation other than a branch or barrier (`cpu::wave_ops`).
    fn emit_wave(&mut self, offset: usize, i: usize, w: &WaveOp) -> Result<(), TranslateError> {
        match *w {
            WaveOp::GetPc { sdst } => {
                let prog = self.e.prog;
                let here = prog.ops[i].0;
                let next = prog.ops[i + 1..]
                    .iter()
                    .map(|(o, _)| *o)
                    .find(|&o| o > here)
                    .unwrap_or(here + 4);
                let a = prog.code_base + next as u64;
                self.write(Reg::Sgpr(sdst), &format!("{}u", a as u32));
                self.write(Reg::Sgpr(sdst + 1), &format!("{}u", (a >> 32) as u32));
            }
            WaveOp::SaveExec {
                func,
                sdst,
                src,
                exec_first,
            } => {
                let slots = func.ty.slots();
                let s = self.operand(src, slots);
                let old = ("exec_lo".to_string(), "exec_hi".to_string());
                let (a, b) = if exec_first {
                    (old.clone(), s)
                } else {
                    (s, old.clone())
                };
                let op = AluOp::new(func, Unit::Scalar, None, &[]);
                let call = self.call(&op, &[a, b, ("0u".into(), "0u".into())], "false");
                self.line("{");
                self.line(&format!("let r = {call};"));
                self.line("let old_lo = exec_lo;");
                self.line("let old_hi = exec_hi;");
                if let Some(d) = sdst {
                    self.write_pair(Reg::Sgpr(d), slots, "old_lo", "old_hi");
                }
                self.line("exec_lo = r.x;");
                self.line(if self.wave64 {
                    "exec_hi = r.y;"
                } else {
                    "exec_hi = 0u;"
                });
                self.line("scc = select(0u, 1u, (exec_lo | exec_hi) != 0u);");
                self.line("}");
            }
            WaveOp::ReadLane { sdst, src, lane } => {
                let l = self.src(lane);
                let v = self.e.v_read(src);
                self.line(&format!(
                    "let rl{i} = xl_value({v}, lane, {l} % WAVE_SIZE, xvc % 2u);"
                ));
                self.line("xvc = xvc + 1u;");
                self.write(Reg::Sgpr(sdst), &format!("rl{i}"));
            }
            WaveOp::ReadFirstLane { sdst, src } => match src {
                Src::Reg(Reg::Vgpr(n)) => {
                    let v = self.e.v_read(n);
                    self.line(&format!(
                        "let rl{i} = xl_value({v}, lane, first_lane(exec_lo, exec_hi), xvc % 2u);"
                    ));
                    self.line("xvc = xvc + 1u;");
                    self.write(Reg::Sgpr(sdst), &format!("rl{i}"));
                }
                other => {
                    let v = self.src(other);
                    self.write(Reg::Sgpr(sdst), &v);
                }
            },
            WaveOp::WriteLane { vdst, src, lane } => {
                let l = self.src(lane);
                let v = self.src(src);
                if let Some(d) = self.e.v(vdst) {
                    self.line(&format!("if lane == ({l}) % WAVE_SIZE {{ {d} = {v}; }}"));
                }
            }
            WaveOp::GetReg {
                reg: HwReg::Mode,
                offset: off,
                size,
                sdst,
            } => {
                let m = ((1u64 << size) - 1) as u32;
                self.write(Reg::Sgpr(sdst), &format!("((mode >> {off}u) & {m}u)"));
            }
            WaveOp::SetReg {
                reg: HwReg::Mode,
                offset: off,
                size,
                src,
            } => {
                let field = (((1u64 << size) - 1) << off) as u32;
                let v = self.src(src);
                self.line(&format!(
                    "mode = (mode & {}u) | (({v} << {off}u) & {field}u);",
                    !field
                ));
            }
            WaveOp::Branch { .. }
            | WaveOp::Barrier
            | WaveOp::SetPc { .. }
            | WaveOp::SwapPc { .. } => {
                return Err(err(offset, "internal: control flow reached emit_wave"));
            }
        }
        Ok(())
    }

    /// This lane's 64-bit address of a vector access (`cpu::memops::lane_address`).
    fn address(&mut self, addr: &Addr) -> String {
        let off = |o: i32| {
            format!(
                "vec2<u32>({}u, {}u)",
                o as u32,
                if o < 0 { u32::MAX } else { 0 }
            )
        };
        match *addr {
            Addr::Flat { vaddr, offset } => {
                let lo = self.e.v_read(vaddr);
                let hi = self.e.v_read(vaddr + 1);
                format!("u64_add(vec2<u32>({lo}, {hi}), {})", off(offset))
            }
            Addr::Global {
                saddr,
                vaddr,
                offset,
            } => {
                let base = match saddr {
                    Some(s) => {
                        let lo = self.read(Reg::Sgpr(s));
                        let hi = self.read(Reg::Sgpr(s + 1));
                        let v = self.e.v_read(vaddr);
                        format!("u64_add(vec2<u32>({lo}, {hi}), vec2<u32>({v}, 0u))")
                    }
                    None => {
                        let lo = self.e.v_read(vaddr);
                        let hi = self.e.v_read(vaddr + 1);
                        format!("vec2<u32>({lo}, {hi})")
                    }
                };
                format!("u64_add({base}, {})", off(offset))
            }
            // Refused before emission (refusal).
            Addr::Buffer { .. } | Addr::Scratch { .. } => "vec2<u32>(0u)".into(),
        }
    }

    /// A vector load, store or atomic (`cpu::memops::vector`).
    fn emit_vector_mem(&mut self, offset: usize, m: &VectorMem) {
        let flat = matches!(m.addr, Addr::Flat { .. });
        let code = self.fault_code(
            offset,
            "an access outside the launch's memory (a fault)".into(),
        );
        let fault = format!("atomicMax(&wg_fault, {}u);", 0xffff_ffff - code);
        let addr = self.address(&m.addr);
        let bytes = match m.access {
            Access::Load(w) | Access::Store(w) => w.bytes(),
            Access::Atomic { wide, .. } => {
                if wide {
                    8
                } else {
                    4
                }
            }
        };
        let atomic = matches!(m.access, Access::Atomic { .. });
        if atomic {
            // Lane by lane, in lane order (the CPU's order decides what
            // returns and, for floats, the sums).
            self.line("for (var turn = 0u; turn < WAVE_SIZE; turn = turn + 1u) {");
            self.line("if lane == turn && is_active(exec_lo, exec_hi, lane) {");
        } else {
            self.line("if is_active(exec_lo, exec_hi, lane) {");
        }
        self.line(&format!("    let a = {addr};"));
        if flat {
            self.line(&format!("    let in_lds = a.y == {LDS_APERTURE}u;"));
        } else {
            self.line("    let in_lds = false;");
        }
        self.line(&format!(
            "    let off = select(gmem_offset(a, {bytes}u), 0u, in_lds);"
        ));
        self.line(&format!(
            "    let lds_in = in_lds && lds_ok(a.x, 0u, {bytes}u);"
        ));
        self.line(&format!(
            "    if !in_lds && off == NO_TEXEL {{ {fault} }} else {{"
        ));
        match m.access {
            Access::Load(w) => {
                let n = w.dwords();
                for i in 0..n {
                    let get = if matches!(w, Width::Dwords(_)) {
                        format!(
                            "select(select(0u, lds_get(lds_base, a.x + {}u), lds_in), gmem_dword(off + {}u), !in_lds)",
                            4 * i,
                            4 * i
                        )
                    } else {
                        format!(
                            "widen_load({}u, select(select(0u, lds_get(lds_base, a.x), lds_in), gmem_bytes(off, {}u), !in_lds), {})",
                            width_code(w),
                            w.bytes(),
                            self.e.v_read(m.vdst)
                        )
                    };
                    self.line(&format!("        let d{i} = {get};"));
                }
                for i in 0..n {
                    if let Some(d) = self.e.v(m.vdst + i) {
                        self.line(&format!("        {d} = d{i};"));
                    }
                }
            }
            Access::Store(w) => {
                let (count, shift) = store_bytes(w);
                for i in 0..w.dwords() {
                    let v = self.e.v_read(m.vdata + i);
                    let (n, val) = if matches!(w, Width::Dwords(_)) {
                        (4, v)
                    } else {
                        (count, format!("({v} >> {shift}u)"))
                    };
                    self.line(&format!(
                        "        if in_lds {{ if lds_in {{ lds_put(lds_base, a.x + {}u, {n}u, {val}); }} }} else {{ gmem_put(off + {}u, {n}u, {val}); }}",
                        4 * i,
                        4 * i
                    ));
                }
            }
            Access::Atomic { op, wide, returns } => {
                let slots = if wide { 2 } else { 1 };
                let d0 = self.e.v_read(m.vdata);
                let d1 = if wide {
                    self.e.v_read(m.vdata + 1)
                } else {
                    "0u".into()
                };
                let c0 = self.e.v_read(m.vdata + slots);
                let c1 = if wide {
                    self.e.v_read(m.vdata + slots + 1)
                } else {
                    "0u".into()
                };
                let code = op as u32;
                self.line("        var old = vec2<u32>(0u);");
                self.line(
                    "        if in_lds { if lds_in { old = vec2<u32>(lds_get(lds_base, a.x), 0u);",
                );
                if wide {
                    self.line("            old.y = lds_get(lds_base, a.x + 4u);");
                }
                self.line("        } } else { old = vec2<u32>(gmem_dword(off), 0u);");
                if wide {
                    self.line("            old.y = gmem_dword(off + 4u);");
                }
                self.line("        }");
                if wide {
                    self.line(&format!(
                        "        let nv = apply64({code}u, old, vec2<u32>({d0}, {d1}), vec2<u32>({c0}, {c1}));"
                    ));
                } else {
                    self.line(&format!(
                        "        let nv = vec2<u32>(apply32({code}u, old.x, {d0}, {c0}), 0u);"
                    ));
                }
                self.line("        if in_lds { if lds_in { lds_put(lds_base, a.x, 4u, nv.x);");
                if wide {
                    self.line("            lds_put(lds_base, a.x + 4u, 4u, nv.y);");
                }
                self.line("        } } else { gmem_put(off, 4u, nv.x);");
                if wide {
                    self.line("            gmem_put(off + 4u, 4u, nv.y);");
                }
                self.line("        }");
                if returns {
                    if let Some(d) = self.e.v(m.vdst) {
                        self.line(&format!("        {d} = old.x;"));
                    }
                    if wide {
                        if let Some(d) = self.e.v(m.vdst + 1) {
                            self.line(&format!("        {d} = old.y;"));
                        }
                    }
                }
            }
        }
        self.line("    }");
        self.line("}");
        if atomic {
            self.line("storageBarrier();");
            self.line("}");
        }
        if !matches!(m.access, Access::Load(_)) {
            self.line("storageBarrier();");
        }
    }

    /// `s_load_dword*` (`cpu::memops::scalar_load`).
    fn emit_scalar_load(&mut self, offset: usize, l: &ScalarLoad) {
        let code = self.fault_code(
            offset,
            "a scalar load outside the launch's memory (a fault)".into(),
        );
        let lo = self.read(Reg::Sgpr(l.sbase));
        let hi = self.read(Reg::Sgpr(l.sbase + 1));
        let off = self.src(l.offset);
        let imm = l.imm;
        let sx = if imm < 0 { u32::MAX } else { 0 };
        self.line("{");
        self.line(&format!(
            "let sa = u64_add(u64_add(vec2<u32>({lo}, {hi} & 0xffffu), vec2<u32>({off}, 0u)), vec2<u32>({}u, {sx}u));",
            imm as u32
        ));
        self.line(&format!(
            "let so = gmem_offset(vec2<u32>(sa.x & 0xfffffffcu, sa.y), {}u);",
            4 * l.dwords
        ));
        self.line(&format!(
            "if so == NO_TEXEL {{ atomicMax(&wg_fault, {}u); }} else {{",
            0xffff_ffff - code
        ));
        for i in 0..l.dwords {
            self.line(&format!("    let d{i} = gmem_dword(so + {}u);", 4 * i));
        }
        for i in 0..l.dwords {
            self.write(Reg::Sgpr(l.sdst + i), &format!("d{i}"));
        }
        self.line("}");
        self.line("}");
    }

    /// An LDS operation (`cpu::memops::ds`).
    fn emit_ds(&mut self, d: &Ds) {
        let addr = self.e.v_read(d.addr);
        match d.kind {
            DsKind::Read(w) | DsKind::Write(w) => {
                let is_read = matches!(d.kind, DsKind::Read(_));
                self.line("if is_active(exec_lo, exec_hi, lane) {");
                self.line(&format!("    let a = {addr} + {}u;", d.offset0));
                self.line(&format!(
                    "    let ok = lds_ok({addr}, {}u, {}u);",
                    d.offset0,
                    w.bytes()
                ));
                if is_read {
                    for i in 0..w.dwords() {
                        let get = if matches!(w, Width::Dwords(_)) {
                            format!("select(0u, lds_get(lds_base, a + {}u), ok)", 4 * i)
                        } else {
                            format!(
                                "widen_load({}u, select(0u, lds_get(lds_base, a), ok), {})",
                                width_code(w),
                                self.e.v_read(d.vdst)
                            )
                        };
                        self.line(&format!("    let d{i} = {get};"));
                    }
                    for i in 0..w.dwords() {
                        if let Some(p) = self.e.v(d.vdst + i) {
                            self.line(&format!("    {p} = d{i};"));
                        }
                    }
                } else {
                    let (count, shift) = store_bytes(w);
                    self.line("    if ok {");
                    for i in 0..w.dwords() {
                        let v = self.e.v_read(d.data0 + i);
                        let (n, val) = if matches!(w, Width::Dwords(_)) {
                            (4, v)
                        } else {
                            (count, format!("({v} >> {shift}u)"))
                        };
                        self.line(&format!(
                            "        lds_put(lds_base, a + {}u, {n}u, {val});",
                            4 * i
                        ));
                    }
                    self.line("    }");
                }
                self.line("}");
                if !is_read {
                    self.line("storageBarrier();");
                }
            }
            DsKind::Read2 { dwords, st64 } | DsKind::Write2 { dwords, st64 } => {
                let is_read = matches!(d.kind, DsKind::Read2 { .. });
                let unit = 4 * u32::from(dwords) * if st64 { 64 } else { 1 };
                let bytes = 4 * u32::from(dwords);
                self.line("if is_active(exec_lo, exec_hi, lane) {");
                let mut loads = Vec::new();
                for (k, off) in [d.offset0, d.offset1].into_iter().enumerate() {
                    let extra = off * unit;
                    self.line(&format!(
                        "    let ok{k} = lds_ok({addr}, {extra}u, {bytes}u);"
                    ));
                    for j in 0..u32::from(dwords) {
                        if is_read {
                            self.line(&format!(
                                "    let d{k}{j} = select(0u, lds_get(lds_base, {addr} + {}u), ok{k});",
                                extra + 4 * j
                            ));
                            loads.push((
                                d.vdst + k as u32 * u32::from(dwords) + j,
                                format!("d{k}{j}"),
                            ));
                        } else {
                            let src = if k == 0 { d.data0 } else { d.data1 };
                            let v = self.e.v_read(src + j);
                            self.line(&format!(
                                "    if ok{k} {{ lds_put(lds_base, {addr} + {}u, 4u, {v}); }}",
                                extra + 4 * j
                            ));
                        }
                    }
                }
                for (reg, val) in loads {
                    if let Some(p) = self.e.v(reg) {
                        self.line(&format!("    {p} = {val};"));
                    }
                }
                self.line("}");
                if !is_read {
                    self.line("storageBarrier();");
                }
            }
            DsKind::Atomic { op, wide, returns } => {
                use crate::ir::atomic::AtomicOp;
                let cmpswap = matches!(op, AtomicOp::CmpSwap | AtomicOp::FCmpSwap);
                let (data, cmp) = if cmpswap {
                    (d.data1, d.data0)
                } else {
                    (d.data0, u32::MAX)
                };
                let val = |e: &mut Emitter, r: u32| {
                    if r == u32::MAX {
                        ("0u".to_string(), "0u".to_string())
                    } else {
                        (
                            e.v_read(r),
                            if wide { e.v_read(r + 1) } else { "0u".into() },
                        )
                    }
                };
                let (d0, d1) = val(&mut self.e, data);
                let (c0, c1) = val(&mut self.e, cmp);
                let bytes = if wide { 8 } else { 4 };
                let code = op as u32;
                self.line("for (var turn = 0u; turn < WAVE_SIZE; turn = turn + 1u) {");
                self.line("if lane == turn && is_active(exec_lo, exec_hi, lane) {");
                self.line(&format!("    let a = {addr} + {}u;", d.offset0));
                self.line(&format!(
                    "    let ok = lds_ok({addr}, {}u, {bytes}u);",
                    d.offset0
                ));
                self.line("    var old = vec2<u32>(0u);");
                self.line("    if ok { old.x = lds_get(lds_base, a);");
                if wide {
                    self.line("        old.y = lds_get(lds_base, a + 4u);");
                }
                self.line("    }");
                if wide {
                    self.line(&format!(
                        "    let nv = apply64({code}u, old, vec2<u32>({d0}, {d1}), vec2<u32>({c0}, {c1}));"
                    ));
                } else {
                    self.line(&format!(
                        "    let nv = vec2<u32>(apply32({code}u, old.x, {d0}, {c0}), 0u);"
                    ));
                }
                self.line("    if ok { lds_put(lds_base, a, 4u, nv.x);");
                if wide {
                    self.line("        lds_put(lds_base, a + 4u, 4u, nv.y);");
                }
                self.line("    }");
                if returns {
                    if let Some(p) = self.e.v(d.vdst) {
                        self.line(&format!("    {p} = old.x;"));
                    }
                    if wide {
                        if let Some(p) = self.e.v(d.vdst + 1) {
                            self.line(&format!("    {p} = old.y;"));
                        }
                    }
                }
                self.line("}");
                self.line("storageBarrier();");
                self.line("}");
            }
            DsKind::Bpermute => {
                let data = self.e.v_read(d.data0);
                self.line("{");
                self.line(&format!(
                    "let src_lane = (({addr} + {}u) / 4u) % WAVE_SIZE;",
                    d.offset0
                ));
                self.line(&format!(
                    "let got = xl_value(select(0u, {data}, is_active(exec_lo, exec_hi, lane)), lane, src_lane, xvc % 2u);"
                ));
                self.line("xvc = xvc + 1u;");
                if let Some(p) = self.e.v(d.vdst) {
                    self.line(&format!(
                        "if is_active(exec_lo, exec_hi, lane) {{ {p} = got; }}"
                    ));
                }
                self.line("}");
            }
            // Refused before emission (refusal).
            DsKind::Swizzle | DsKind::Permute => {}
        }
    }

    /// An image instruction whose descriptors come from registers the program
    /// computes: the module specialises on the T# (and S#) the launch's first
    /// wave holds when the CPU reference reaches the instruction
    /// ([`Predict`]), as the straight-line translation specialises on
    /// constant descriptors, and checks every wave's registers against them
    /// where it runs: a wave that holds other descriptors there faults, so
    /// the run fails instead of using the wrong ones.
    fn emit_image(
        &mut self,
        offset: usize,
        m: &crate::ir::image::ImageOp,
    ) -> Result<(), TranslateError> {
        let not = |why: &str| {
            err(
                offset,
                format!("GPU backend: the image instruction's descriptors could not be predicted ({why}): not translated"),
            )
        };
        let predict = self
            .predict
            .ok_or_else(|| not("no prediction was given to the translation"))?;
        let w = predict(self.index).ok_or_else(|| not("the CPU reference did not reach it"))?;
        let tsharp = crate::texture::resource::read_tsharp(m, &w, &self.e.prog.arch)
            .map_err(|e| not(&e.to_string()))?;
        self.e.ssharp = std::array::from_fn(|i| w.sgpr(m.ssamp + i as u32));
        self.e.tsharp_words = crate::texture::sample::status::tsharp_words(m, |n| w.sgpr(n));
        // The guard: every dword the specialisation read.
        let mut regs: Vec<u32> = (0..8).map(|k| m.srsrc + k).collect();
        if super::sample::is_sampler(m) {
            regs.extend((0..4).map(|k| m.ssamp + k));
        }
        let mut checks = Vec::new();
        for n in regs {
            if n < crate::machine::state::SGPRS {
                let v = self.read(Reg::Sgpr(n));
                checks.push(format!("{v} != {}u", w.sgpr(n)));
            }
        }
        let code = self.fault_code(
            offset,
            "GPU backend: the image instruction's descriptors differ from those the translation specialised on (the launch's first wave's, as the CPU reference computes them): not translated".into(),
        );
        self.line(&format!(
            "if {} {{ atomicMax(&wg_fault, {}u); }}",
            checks.join(" || "),
            0xffff_ffff - code
        ));
        self.e.emit_image(offset, m, tsharp)
    }

    /// The module: the library, the blocks in a `switch`, and the turn loop.
    fn finish(self) -> (String, Vec<u32>) {
        let e = self.e;
        let ws = e.wave_size;
        let mut vgprs = vec![0u32; e.vslots.len()];
        for (&n, &k) in &e.vslots {
            vgprs[k] = n;
        }
        let mut sgprs = vec![0u32; e.sslots.len()];
        for (&n, &k) in &e.sslots {
            sgprs[k] = n;
        }
        let nv = vgprs.len().max(1);
        let ns = sgprs.len().max(1);
        let state_words = HEADER_WORDS + vgprs.len() as u32 * ws;
        let mut out = String::new();
        out.push_str(&prelude(e.mem, e.lds_bytes, ws, state_words));
        out.push_str(&e.decls);
        let room = e.room.min(u64::from(u32::MAX));
        let _ = room;
        writeln!(
            out,
            "\n@compute @workgroup_size({ws})\nfn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_index) lane: u32) {{"
        )
        .ok();
        out.push_str(
            "    let first = params.wave_base + wg.x + wg.y * params.groups_x;
    if first >= params.wave_count { return; }
    if lane == 0u { wg_u = st[first * STATE_WORDS + GROUP_WORD]; }
    let count = workgroupUniformLoad(&wg_u);
    if count == 0u { return; }
    let lds_base = first * params.lds_stride;
    _ = trace[0];
    _ = atomicLoad(&lds[0]);
    _ = atomicLoad(&mem[0]);
    var xmc = 0u;
    var xvc = 0u;
",
        );
        writeln!(
            out,
            "    var s: array<u32, {ns}>;\n    var v: array<u32, {nv}>;"
        )
        .ok();
        out.push_str(
            "    var m0 = 0u;\n    var exec_lo = 0u;\n    var exec_hi = 0u;\n    var vcc_lo = 0u;\n    var vcc_hi = 0u;\n    var scc = 0u;\n    var mode = 0u;\n    var steps_jumped = 0u;\n",
        );
        let max_block = self.max_block_cost;
        writeln!(
            out,
            "    // Loop iterations run (ITER_BUDGET; the largest block costs {max_block}).\n    var spent = 0u;"
        )
        .ok();
        // A workgroup whose turn was suspended stalls the dispatches after it
        // (trace[0]), which run again, in order, with it.
        out.push_str("    if lane == 0u { wg_u = trace[0]; }\n    if workgroupUniformLoad(&wg_u) != 0u { return; }\n");
        out.push_str("    if lane == 0u { wg_u = st[first * STATE_WORDS + RESUME_WORD]; }\n    var start = workgroupUniformLoad(&wg_u);\n    var suspended = false;\n");
        out.push_str("    loop {\n        spent = spent + 1u + 2u * count;\n        for (var k = start; k < count; k = k + 1u) {\n            let sb = (first + k) * STATE_WORDS;\n            if lane == 0u { wg_u = st[sb + STATUS_WORD]; }\n            if workgroupUniformLoad(&wg_u) == 1u { continue; }\n");
        for (k, n) in sgprs.iter().enumerate() {
            writeln!(out, "            s[{k}] = st[sb + {n}u];").ok();
        }
        for (k, _) in vgprs.iter().enumerate() {
            let word = HEADER_WORDS + k as u32 * ws;
            writeln!(out, "            v[{k}] = st[sb + {word}u + lane];").ok();
        }
        let m0 = super::M0_WORD;
        writeln!(out, "            m0 = st[sb + {m0}u];\n            exec_lo = st[sb + {}u];\n            exec_hi = st[sb + {}u];\n            vcc_lo = st[sb + {}u];\n            vcc_hi = st[sb + {}u];", m0 + 1, m0 + 2, m0 + 3, m0 + 4).ok();
        out.push_str("            scc = st[sb + SCC_WORD];\n            mode = st[sb + MODE_WORD];\n            steps_jumped = st[sb + STEPS_WORD];\n            if lane == 0u { wg_u = st[sb + PC_WORD]; }\n            var pc = workgroupUniformLoad(&wg_u);\n");
        out.push_str("            loop {\n            if pc >= STOP { break; }\n            var next = ENDED;\n            switch pc {\n");
        out.push_str(&e.body);
        writeln!(out, "            default: {{ next = ENDED; }}\n            }}\n            // Every lane's fault recorded before lane 0 looks.\n            workgroupBarrier();\n            if lane == 0u {{\n                var n = select(next, FAULTED, atomicLoad(&wg_fault) != 0u);\n                if n < STOP && spent + {max_block}u + 1u + 2u * count > ITER_BUDGET {{ n = SUSPEND | n; }}\n                wg_u = n;\n            }}\n            pc = workgroupUniformLoad(&wg_u);\n            }}").ok();
        // Write back.
        out.push_str(
            "            let paused = pc >= SUSPEND && pc < ENDED;\n            if lane == 0u {\n",
        );
        for (k, n) in sgprs.iter().enumerate() {
            writeln!(out, "                st[sb + {n}u] = s[{k}];").ok();
        }
        writeln!(out, "                st[sb + {m0}u] = m0;\n                st[sb + {}u] = exec_lo;\n                st[sb + {}u] = exec_hi;\n                st[sb + {}u] = vcc_lo;\n                st[sb + {}u] = vcc_hi;", m0 + 1, m0 + 2, m0 + 3, m0 + 4).ok();
        out.push_str("                st[sb + SCC_WORD] = scc;\n                st[sb + MODE_WORD] = mode;\n                st[sb + STEPS_WORD] = steps_jumped;\n                st[sb + PC_WORD] = pc & 0x1fffffffu;\n                st[sb + STATUS_WORD] = select(select(0u, 1u, pc >= ENDED), SUSPENDED, paused);\n                if paused {\n                    st[first * STATE_WORDS + RESUME_WORD] = k;\n                    trace[0] = 1u;\n                }\n                let f = atomicLoad(&wg_fault);\n                if f != 0u {\n                    st[sb + FAULT_WORD] = 0xffffffffu - f;\n                    atomicStore(&wg_fault, 0u);\n                }\n            }\n");
        for (k, _) in vgprs.iter().enumerate() {
            let word = HEADER_WORDS + k as u32 * ws;
            writeln!(out, "            st[sb + {word}u + lane] = v[{k}];").ok();
        }
        out.push_str("            storageBarrier();\n            if paused { suspended = true; break; }\n        }\n        if suspended { break; }\n        start = 0u;\n        // Another round while a wave has not ended.\n        if lane == 0u {\n            var left = 0u;\n            for (var j = 0u; j < count; j = j + 1u) {\n                if st[(first + j) * STATE_WORDS + STATUS_WORD] != 1u { left = 1u; }\n            }\n            wg_u = left;\n        }\n        if workgroupUniformLoad(&wg_u) == 0u { break; }\n    }\n    if !suspended && lane == 0u { st[first * STATE_WORDS + RESUME_WORD] = 0u; }\n");
        // The canary: a loop of two trips the compiler cannot count. A device
        // that stops loops after a number of iterations in all (llvmpipe) has
        // run none of it when it stopped the program's own loops early; the
        // wave's result is then wrong and the run must fail, not report it.
        out.push_str("    var canary = 0u;\n    for (var i = 0u; i < params.opaque_zero + 2u; i = i + 1u) { canary = canary + 1u; }\n    if canary != 2u && lane == 0u { st[first * STATE_WORDS + FAULT_WORD] = DEVICE_LOOP_FAULT; }\n}\n");
        (out, vgprs)
    }
}

/// The code `widen_load` (shaders/program.wgsl) takes for a short load.
fn width_code(w: Width) -> u32 {
    match w {
        Width::U8 => 0,
        Width::I8 => 1,
        Width::U16 => 2,
        Width::I16 => 3,
        Width::D16U8 => 4,
        Width::D16I8 => 5,
        Width::D16B16 => 6,
        Width::D16HiU8 => 7,
        Width::D16HiI8 => 8,
        Width::D16HiB16 => 9,
        Width::Dwords(_) => 10,
    }
}

/// Bytes a short store writes and the shift of its data
/// (`cpu::memops::narrow`).
fn store_bytes(w: Width) -> (u32, u32) {
    match w {
        Width::U8 | Width::I8 | Width::D16U8 | Width::D16I8 => (1, 0),
        Width::D16HiU8 | Width::D16HiI8 => (1, 16),
        Width::U16 | Width::I16 | Width::D16B16 => (2, 0),
        Width::D16HiB16 => (2, 16),
        Width::Dwords(_) => (4, 0),
    }
}

/// The declarations and library of a whole-program module: the straight-line
/// modules' prelude (bindings, constants, the image library) with LDS made a
/// read-write atomic binding, then what only whole programs use.
fn prelude(mem: &Memory, lds_bytes: u32, ws: u32, state_words: u32) -> String {
    let base = super::wgsl::prelude(mem.bytes.len() as u64, lds_bytes, ws, state_words);
    let mut s = base
        .replace(
            "@group(0) @binding(2) var<storage, read> lds: array<u32>;",
            "@group(0) @binding(2) var<storage, read_write> lds: array<atomic<u32>>;",
        )
        // memory.wgsl's lds_dword reads the binding as plain words.
        .replace("return lds[w];", "return atomicLoad(&lds[w]);")
        .replace(
            "return (lds[w] >> s) | (lds[w + 1u] << (32u - s));",
            "return (atomicLoad(&lds[w]) >> s) | (atomicLoad(&lds[w + 1u]) << (32u - s));",
        );
    s = s.replace(
        "// Generated by gcnrun (src/gpu/translate.rs) from a decoded program.",
        "// Generated by gcnrun (src/gpu/translate/whole.rs) from a decoded program.",
    );
    writeln!(
        s,
        "\nconst MEM_BASE_LO: u32 = {}u;\nconst MEM_BASE_HI: u32 = {}u;",
        mem.base as u32,
        (mem.base >> 32) as u32
    )
    .ok();
    writeln!(
        s,
        "const SCC_WORD: u32 = {SCC_WORD}u;\nconst MODE_WORD: u32 = {MODE_WORD}u;\nconst PC_WORD: u32 = {PC_WORD}u;\nconst STATUS_WORD: u32 = {STATUS_WORD}u;\nconst GROUP_WORD: u32 = {GROUP_WORD}u;\nconst STEPS_WORD: u32 = {STEPS_WORD}u;\nconst RESUME_WORD: u32 = {RESUME_WORD}u;\nconst SUSPENDED: u32 = {SUSPENDED}u;\nconst SUSPEND: u32 = {SUSPEND}u;\nconst ITER_BUDGET: u32 = {ITER_BUDGET}u;\nconst FAULT_WORD: u32 = {FAULT_WORD}u;\nconst DEVICE_LOOP_FAULT: u32 = {DEVICE_LOOP_FAULT}u;\nconst STOP: u32 = {STOP}u;\nconst ENDED: u32 = {ENDED}u;\nconst FAULTED: u32 = {FAULTED}u;"
    )
    .ok();
    s.push_str(&family_consts());
    for lib in [FMA, ALU_INT, ALU_F32, PROGRAM] {
        s.push('\n');
        s.push_str(lib);
    }
    s
}

/// `shaders/fma.wgsl`.
const FMA: &str = include_str!("../../../shaders/fma.wgsl");
/// `shaders/alu_int.wgsl`.
pub(crate) const ALU_INT: &str = include_str!("../../../shaders/alu_int.wgsl");
/// `shaders/alu_f32.wgsl`.
pub(crate) const ALU_F32: &str = include_str!("../../../shaders/alu_f32.wgsl");
/// `shaders/program.wgsl`.
const PROGRAM: &str = include_str!("../../../shaders/program.wgsl");
