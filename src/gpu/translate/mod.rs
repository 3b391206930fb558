//! `ir::Program` + launch state → WGSL compute modules.
//!
//! One workgroup runs one wave and one invocation one lane. The program is
//! straight-line code (the IR has no branches), so it is emitted in order, each
//! operation as a block guarded by the lane's EXEC bit, with a storage barrier
//! after every memory operation so that a wave's accesses complete in program
//! order. Only the registers the program touches are loaded (into private
//! arrays) and written back.
//!
//! **Specialisation.** Nothing in the IR writes an SGPR from vector data, so every
//! wave's scalar registers at every instruction are known before the launch: the
//! translator replays the scalar moves on the host (with the CPU interpreter's own
//! register rules) and reads each image instruction's T# from them. Waves whose
//! descriptors agree share one module; in it each descriptor's fields — format,
//! dimensions, mip chain, base address — are constants, so the driver folds away
//! every path that does not apply. Waves with different descriptors get modules
//! of their own. (Decoding descriptors in the shader becomes necessary once the
//! IR gains scalar loads from memory; docs/gpu.md.)

use super::wgsl;

mod alu_call;
pub mod bcn_tables;
mod bvh;
pub mod degamma;
mod footprint;
mod interp_gfx11;
mod sample;
pub mod tables;
mod texel;
mod visa;
pub mod whole;
use crate::check::{self, Refusal};
use crate::ir::image::ImageOp;
use crate::ir::image::{flag, ImageKind, ShortAddress};
use crate::ir::{InterpStep, MemUse, Op, Program, Reg, Src};
use crate::machine::{AllocError, LdsError, Memory, WaveState};
use crate::texture::atomic::AtomicOp;
use crate::texture::data::{has_status, DataWidth};
use crate::texture::descriptor::{Image, ImageDesc, ImageType};
use crate::texture::error::{FormatError, TextureError};
use crate::texture::format::{self, data_format, missing_component, NumFormat};
use crate::texture::layout::Surface;
use crate::texture::resource::{read_tsharp, require_linear, surface_of};
use crate::texture::swizzle::unbound_values;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Words of per-wave state before the VGPR slots: s0–s105, M0, EXEC lo/hi, VCC
/// lo/hi, the fault word, then the words of whole-program modules (SCC, MODE,
/// the resume block, the status, the workgroup's wave count, the steps
/// jumped, the wave a suspended round resumes at: `whole::SCC_WORD` …) and
/// one spare.
pub const HEADER_WORDS: u32 = 120;
/// State word of M0 (then EXEC lo, EXEC hi, VCC lo, VCC hi).
pub const M0_WORD: u32 = 106;
/// State word (the spare) where a module that can fault at run time writes
/// the offset of the first faulting operation, 0 when none did (a vISA
/// `scatter4_scaled` to an address that is not dword-aligned, or a loop past
/// the jump budget, which the CPU refuses when it runs; [`Kernel::faults`]).
/// An AMD BVH instruction, whose offset may be 0, writes its offset with bit 31
/// set ([`fault_offset`]).
pub const FAULT_WORD: u32 = 111;

/// The FAULT_WORD of a wave stopped by the work budget
/// (`ir::budget`; `Emitter::jump_budget`): above every offset a program can
/// have (64 MiB of code at most), without bit 31 (BVH faults), and larger
/// than any offset so that a fault an operation recorded first in another
/// lane wins (the smallest value is kept), as the CPU stops at the first.
pub const BUDGET_FAULT: u32 = 0x7fff_ffff;

/// The FAULT_WORD of a workgroup whose device stopped the module's loops
/// before the program ended (`whole`'s canary loop ran no trip, or a wave
/// did not end): llvmpipe ends the loops of a shader invocation after 65,535
/// iterations in all, without a word (docs/gpu.md, "Whole programs"). The
/// run fails rather than report wrong registers.
pub const DEVICE_LOOP_FAULT: u32 = 0x7fff_fffe;

/// What a run whose device stopped a module's loops early says.
pub const DEVICE_LOOP_MESSAGE: &str = "the device stopped the module's loops before the program ended (llvmpipe ends the loops of one shader invocation after 65,535 iterations in all; docs/gpu.md, \"Whole programs\"): there is no GPU result; run it on another adapter, or with a shorter loop";

/// The largest GPU module (bytes of WGSL with every call inlined,
/// [`wgsl::inlined_bytes`]) the translator builds unless told otherwise
/// (`--max-module-bytes`): past it a module takes more than about a minute
/// to compile on lavapipe (figures in docs/gpu.md, "Module size").
pub const DEFAULT_MAX_MODULE_BYTES: u64 = 4 << 20;

/// The inlined bytes of float-library calls past which a whole-program
/// module shares its heaviest functions unless told otherwise
/// (`--share-alu-above`; docs/gpu.md, "Shared ALU sites"): faster to build
/// by several times on lavapipe, slower to run.
pub const DEFAULT_SHARE_ALU_ABOVE: u64 = 64 << 10;

/// The operation offset a nonzero FAULT_WORD names: bit 31 marks an offset
/// that may be 0 (gpu/translate/bvh.rs).
pub fn fault_offset(word: u32) -> usize {
    (if word & bvh::FAULT_FLAG != 0 {
        word & !bvh::FAULT_FLAG
    } else {
        word
    }) as usize
}

/// A translation failure (or a fault a module reports when it runs): the
/// instruction's byte offset and what is not supported (or not valid) there.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.display())]
pub struct TranslateError {
    /// Byte offset of the instruction (0 for launch-wide problems).
    pub offset: usize,
    /// What went wrong.
    pub kind: TranslateErrorKind,
    /// The launch as a whole is refused (the work budget, the module size):
    /// the offset means nothing and is not printed.
    pub whole: bool,
}

impl TranslateError {
    fn display(&self) -> String {
        if self.whole {
            self.kind.to_string()
        } else {
            format!("offset {:#x}: {}", self.offset, self.kind)
        }
    }

    /// A refusal of the launch as a whole.
    pub fn whole(kind: impl Into<TranslateErrorKind>) -> TranslateError {
        TranslateError {
            offset: 0,
            kind: kind.into(),
            whole: true,
        }
    }
}

/// What the GPU back end refuses, or what a module reported when it ran.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TranslateErrorKind {
    /// A refusal both back ends make ([`crate::check`]).
    #[error(transparent)]
    Refused(#[from] Refusal),
    /// The texture model refuses the resource.
    #[error(transparent)]
    Texture(#[from] TextureError),
    /// An M0 that addresses LDS in a way gcnrun refuses.
    #[error(transparent)]
    Lds(#[from] LdsError),
    /// The straight pass exceeds the work budget.
    #[error(transparent)]
    Budget(#[from] crate::ir::budget::Exceeded),
    /// The program has more operations than a module holds.
    #[error("the program has {ops} operations; a GPU module holds fewer than 2^20 (docs/gpu.md, \"Module size\")")]
    TooManyOps {
        /// The program's operations.
        ops: usize,
    },
    /// The module is past the size limit: its size with every call inlined,
    /// or `None` when emission stopped early (its code alone more than four
    /// times the limit).
    #[error("the program is too large for one GPU module: {}, past the limit of {limit} (--max-module-bytes; docs/gpu.md, \"Module size\")", module_size(*size, *limit))]
    TooLarge {
        /// The inlined size, when known.
        size: Option<u64>,
        /// The limit.
        limit: u64,
    },
    /// The host cannot give the memory to upload image memory.
    #[error("uploading {bytes} bytes of image memory: {source}")]
    Upload {
        /// Image memory's size.
        bytes: usize,
        /// The refused allocation.
        source: AllocError,
    },
    /// A fault a module recorded while it ran (`FAULT_WORD`): the wave, except
    /// for the launch's work budget, and what the operation says when it faults.
    #[error("{}{what}", wave.map_or(String::new(), |w| format!("wave {w}: ")))]
    Fault {
        /// The wave, when one faulted.
        wave: Option<usize>,
        /// What the faulting operation says.
        what: String,
    },
    /// What the translator itself does not translate (the WGSL and device
    /// limits of the GPU back end), in its words.
    #[error("{0}")]
    Unsupported(String),
}

fn module_size(size: Option<u64>, limit: u64) -> String {
    match size {
        Some(s) => format!("{s} bytes of WGSL with every call inlined"),
        None => format!(
            "over {} bytes of WGSL before any call is inlined",
            limit.saturating_mul(4)
        ),
    }
}

impl From<String> for TranslateErrorKind {
    fn from(s: String) -> Self {
        TranslateErrorKind::Unsupported(s)
    }
}

impl From<&str> for TranslateErrorKind {
    fn from(s: &str) -> Self {
        TranslateErrorKind::Unsupported(s.to_string())
    }
}

impl From<FormatError> for TranslateErrorKind {
    fn from(e: FormatError) -> Self {
        TranslateErrorKind::Texture(e.into())
    }
}

impl From<ShortAddress> for TranslateErrorKind {
    fn from(e: ShortAddress) -> Self {
        TranslateErrorKind::Texture(e.into())
    }
}

/// A refusal of the launch as a whole.
fn whole(kind: impl Into<TranslateErrorKind>) -> TranslateError {
    TranslateError::whole(kind)
}

/// One WGSL module and the waves it runs.
#[derive(Clone, Debug)]
pub struct Kernel {
    /// The module.
    pub wgsl: String,
    /// The VGPRs the module keeps, in slot order: slot `k` of wave `w`, lane `l`
    /// is state word `w × state_words + HEADER_WORDS + k × wave_size + l`.
    pub vgprs: Vec<u32>,
    /// Words of state per wave.
    pub state_words: u32,
    /// Indices (into the launch's waves) of the waves this module runs.
    pub waves: Vec<usize>,
    /// Dispatch the waves one at a time, in order (needed for the portable
    /// 64-bit atomics and for programs whose waves read what other waves write).
    pub serial_waves: bool,
    /// The module binds image memory a second time as 64-bit words
    /// (`shaders/atomic64.wgsl`, binding [`MEM64_BINDING`]) for native 64-bit
    /// atomics; it needs a device with `device::INT64_ATOMICS`.
    pub mem64: bool,
    /// A whole program that writes memory: the module again with every
    /// memory access recording what it touches in a table at
    /// [`SPEC_BINDING`], through which the runtime may first run the
    /// workgroups together (docs/gpu.md, "Speculative workgroups").
    pub spec_wgsl: Option<String>,
    /// The atomic instructions, in program order, when the translation traces
    /// them ([`Options::trace_atomics`]): their records are
    /// `trace[((wave × atomics.len() + k) × wave_size + lane) × TRACE_WORDS ..]`.
    pub atomics: Vec<TracedAtomic>,
    /// The module reads the host's tables ([`tables::measure`]), bound at
    /// [`tables::BINDING`].
    pub tables: bool,
    /// What each operation that can fault at run time ([`FAULT_WORD`]) says
    /// when it does, by its offset.
    pub faults: BTreeMap<usize, String>,
    /// A whole-program module ([`whole`]): one WGSL workgroup runs the waves
    /// of one workgroup of the launch, its first wave's state says how many
    /// ([`whole::GROUP_WORD`]), LDS is read-write and read back, and SCC and
    /// MODE travel in the state.
    pub whole: bool,
    /// The op a whole-program wave starts at ([`crate::ir::Program::entry`]):
    /// its initial program counter ([`whole::PC_WORD`]); 0 for the others.
    pub entry: u32,
}

/// The binding of the 64-bit view of image memory (`shaders/atomic64.wgsl`).
pub const MEM64_BINDING: u32 = 6;

/// The binding of a speculating module's table (`shaders/speculate.wgsl`,
/// [`Kernel::spec_wgsl`]).
pub const SPEC_BINDING: u32 = 5;

/// Dwords per lane per traced atomic: flags (bit 0: the lane ran it on a texel
/// in memory), byte offset in memory, old, data, cmp (64-bit values as low,
/// high).
pub const TRACE_WORDS: u32 = 8;

/// An atomic instruction whose executions are traced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TracedAtomic {
    /// Byte offset of the instruction.
    pub offset: usize,
    /// The operation.
    pub op: AtomicOp,
    /// 64-bit.
    pub wide: bool,
    /// The VGPR the old value returns to (GLC), if any.
    pub returns_to: Option<u32>,
    /// An image store comes before it in the program, so its texel's value
    /// before the atomics is not necessarily the launch's.
    pub after_store: bool,
}

/// Translation options.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Record every lane's atomic executions (address, old value, operands) in
    /// a trace buffer, for checking contended atomics against a serial order
    /// (`--diff`).
    pub trace_atomics: bool,
    /// Translate 64-bit image atomics to real 64-bit atomics, for a device
    /// with `device::INT64_ATOMICS` (`Gpu::int64_atomics`); otherwise (the
    /// default, valid on every adapter) lanes take turns and waves run one
    /// dispatch at a time (docs/gpu.md, "Memory").
    pub int64_atomics: bool,
    /// The launch's work budget (`ir::budget`): the modules count steps as
    /// the CPU does and stop a wave past its share.
    pub max_steps: u64,
    /// The largest module to build ([`wgsl::inlined_bytes`]); a larger one is
    /// refused before naga or the driver sees it.
    pub max_module_bytes: u64,
    /// The inlined bytes of float-library calls a whole-program module keeps
    /// in place; past them its heaviest repeated functions are called
    /// through shared sites (`whole::shared`). `u64::MAX`: never.
    pub share_alu_above: u64,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            trace_atomics: false,
            int64_atomics: false,
            max_steps: crate::ir::budget::DEFAULT_MAX_STEPS,
            max_module_bytes: DEFAULT_MAX_MODULE_BYTES,
            share_alu_above: DEFAULT_SHARE_ALU_ABOVE,
        }
    }
}

/// The modules of one launch, run in order.
#[derive(Clone, Debug)]
pub struct Translation {
    /// Lanes per wave (the workgroup size).
    pub wave_size: u32,
    /// Bytes of LDS per wave the modules read.
    pub lds_bytes: u32,
    /// The modules.
    pub kernels: Vec<Kernel>,
}

/// Translates `prog` for the launch whose initial wave states are `waves` over
/// image memory `mem`.
pub fn translate(
    prog: &Program,
    waves: &[WaveState],
    mem: &Memory,
) -> Result<Translation, TranslateError> {
    translate_with(prog, waves, mem, Options::default())
}

/// [`translate`] with options.
pub fn translate_with(
    prog: &Program,
    waves: &[WaveState],
    mem: &Memory,
    options: Options,
) -> Result<Translation, TranslateError> {
    translate_predicted(prog, waves, mem, options, None)
}

/// [`translate_with`], with a [`whole::Predict`] of the registers at an op:
/// a whole program's image instructions need it (their descriptors come
/// from registers the program computes); without it they are refused.
pub fn translate_predicted(
    prog: &Program,
    waves: &[WaveState],
    mem: &Memory,
    options: Options,
    predict: Option<whole::Predict>,
) -> Result<Translation, TranslateError> {
    if whole::is_whole(prog) {
        return whole::translate(prog, waves, mem, options, predict);
    }
    let wave_size = waves.first().map_or(64, |w| w.wave_size);
    let lds_bytes = waves.first().map_or(0, |w| w.lds.len() as u32);
    // The work budget (ir::budget): the straight pass is checked here, as
    // cpu::run_with checks it, and the modules count backward jumps.
    let budget = crate::ir::budget::Exceeded {
        max_steps: options.max_steps,
        waves: waves.len(),
    };
    crate::ir::budget::check_launch(prog, waves.len(), options.max_steps).map_err(whole)?;
    let ops = live_ops(prog);
    // The step counter is a u32 (Emitter::jump_budget): with at most
    // MAX_BACK_JUMPS (2^12) jumps of fewer than 2^20 operations each, what a
    // wave jumps over stays below 2^32.
    if ops.len() >= 1 << 20 {
        return Err(whole(TranslateErrorKind::TooManyOps { ops: ops.len() }));
    }
    // Group waves by the T#s their image instructions see.
    let mut groups: Vec<(Vec<[u32; 8]>, Vec<usize>)> = Vec::new();
    let mut scratch = WaveState::new(0, wave_size, 0);
    for (i, w) in waves.iter().enumerate() {
        let key = descriptor_key(&ops, w, &mut scratch);
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, list)) => list.push(i),
            None => groups.push((key, vec![i])),
        }
    }
    // A 64-bit view indexes 8-byte words from the start of image memory: its
    // 32_32 texels (naturally aligned in the address space) are whole words
    // when the memory's base is 8-byte aligned, as every launch's is.
    let int64 = options.int64_atomics && mem.base & 7 == 0;
    let serial = needs_serial_waves(prog, &ops, int64);
    let parts = if splittable(&ops, serial) {
        split_points(&ops)
    } else {
        std::iter::once(0..ops.len()).collect()
    };
    let mut kernels = Vec::new();
    for (_, list) in groups {
        // The scalar registers every part's descriptors are read from: the
        // first wave's, replayed through the scalar moves of the parts before.
        let mut scalars = WaveState::new(0, wave_size, 0);
        scalars.copy_scalars_from(&waves[list[0]]);
        // The limit bounds what the driver builds for the program: a split
        // program's modules count together, so that a huge program is refused
        // as it was whole instead of building for minutes in small modules.
        let mut total = 0u64;
        for part in &parts {
            let mut e = Emitter::new(prog, mem, wave_size, lds_bytes);
            e.trace = options.trace_atomics;
            e.int64 = int64;
            e.budget = budget.clone();
            e.room = crate::ir::budget::share(budget.max_steps, budget.waves)
                - crate::ir::budget::straight_steps(prog);
            e.max_body_bytes = options.max_module_bytes.saturating_mul(4);
            e.emit_program(&ops[part.clone()], &mut scalars)?;
            let atomics = e.atomics.clone();
            let faults = std::mem::take(&mut e.faults);
            let mem64 = e.mem64;
            let (wgsl, vgprs) = e.finish();
            let (size, reads_tables) = tables::measure(&wgsl);
            total += size;
            if total > options.max_module_bytes {
                return Err(too_large(Some(total), options.max_module_bytes));
            }
            kernels.push(Kernel {
                tables: reads_tables,
                state_words: HEADER_WORDS + vgprs.len() as u32 * wave_size,
                wgsl,
                vgprs,
                waves: list.clone(),
                serial_waves: serial,
                mem64,
                spec_wgsl: None,
                atomics,
                faults,
                whole: false,
                entry: 0,
            });
        }
    }
    Ok(Translation {
        wave_size,
        lds_bytes,
        kernels,
    })
}

/// Image instructions per module when a straight-line program is split
/// (`split_points`). Lavapipe's compile time grows faster than the module:
/// `sample_filter`'s first 1, 2, 4, 8 and 16 samples took 0.5, 0.8, 1.5, 4.1
/// and 21 s to build and run (docs/gpu.md, "Time to first result on
/// lavapipe"), so modules of two cost about what modules of one do, with
/// half the dispatches.
pub const IMAGE_OPS_PER_MODULE: usize = 2;

/// Operations per module when a straight-line program is split, whatever
/// they are: 1,000 moves build in about half a second, 16,000 in 18 s.
pub const OPS_PER_MODULE: usize = 1000;

/// Whether a straight-line program may run as several modules in turn, each
/// running every wave through its part of the program before the next starts
/// ([`split_points`]). That order gives the CPU's results when no wave reads
/// what another writes and no two waves write the same bytes in an order that
/// matters: so only programs that write no memory (no store, no atomic), and
/// not Intel programs (whose register file the translation keeps as a whole).
fn splittable(ops: &[(usize, &Op)], serial: bool) -> bool {
    !serial
        && ops
            .iter()
            .all(|(_, op)| op.memory_use() != MemUse::Writes && !matches!(op, Op::Visa(_)))
}

/// The parts of a straight-line program that become modules of their own:
/// at most [`IMAGE_OPS_PER_MODULE`] image instructions and
/// [`OPS_PER_MODULE`] operations each. Registers pass from one part to the
/// next through the wave state the runtime reads back and uploads again.
fn split_points(ops: &[(usize, &Op)]) -> Vec<std::ops::Range<usize>> {
    let mut parts = Vec::new();
    let (mut start, mut images) = (0, 0);
    for (i, (_, op)) in ops.iter().enumerate() {
        let image = matches!(op, Op::Image(_));
        if i > start && ((image && images == IMAGE_OPS_PER_MODULE) || i - start == OPS_PER_MODULE) {
            parts.push(start..i);
            start = i;
            images = 0;
        }
        images += usize::from(image);
    }
    parts.push(start..ops.len());
    parts
}

/// The operations up to the first `s_endpgm` (the rest never runs).
fn live_ops(prog: &Program) -> Vec<(usize, &Op)> {
    prog.ops
        .iter()
        .take_while(|(_, op)| !matches!(op, Op::End))
        .map(|(o, op)| (*o, op))
        .collect()
}

/// The eight SGPRs at each image instruction's SRSRC, after replaying the scalar
/// moves before it.
fn descriptor_key(ops: &[(usize, &Op)], w: &WaveState, scratch: &mut WaveState) -> Vec<[u32; 8]> {
    scratch.copy_scalars_from(w);
    let mut key = Vec::new();
    for (_, op) in ops {
        match op {
            Op::SMov { dst, src } => {
                let v = scratch.scalar_src(*src);
                scratch.write_scalar(*dst, v);
            }
            Op::Image(m) => {
                let base = m.srsrc;
                key.push(std::array::from_fn(|i| scratch.sgpr(base + i as u32)));
                if sample::is_sampler(m) {
                    // Sampling instructions read an S# too: its four dwords
                    // (padded to eight) are part of what a module specialises on.
                    let s = m.ssamp;
                    key.push(std::array::from_fn(|i| {
                        if i < 4 {
                            scratch.sgpr(s + i as u32)
                        } else {
                            0
                        }
                    }));
                }
            }
            _ => {}
        }
    }
    key
}

/// True when waves must run one after another: a 64-bit atomic without native
/// 64-bit atomics (`int64`; the fallback is exact only when serialised,
/// docs/gpu.md), or memory that one instruction writes and a later one reads,
/// which the CPU reference orders wave by wave.
fn needs_serial_waves(prog: &Program, ops: &[(usize, &Op)], int64: bool) -> bool {
    let mut wrote = false;
    for (_, op) in ops {
        let m = match op {
            Op::Image(m) => m,
            Op::Visa(g) if matches!(**g, crate::ir::visa::VisaOp::StoreScaled { .. }) => {
                wrote = true;
                continue;
            }
            _ => continue,
        };
        match m.op.kind {
            ImageKind::Atomic => {
                let two = matches!(m.atomic, Some(AtomicOp::CmpSwap | AtomicOp::FCmpSwap));
                let dwords = (m.dmask & 0xf).count_ones();
                if !int64 && dwords == if two { 4 } else { 2 } {
                    return true;
                }
                if wrote {
                    return true;
                }
                wrote = true;
            }
            ImageKind::Store => wrote = true,
            ImageKind::ResInfo => {}
            _ => {
                if wrote {
                    return true;
                }
            }
        }
    }
    let _ = prog;
    false
}

/// Builds one module.
struct Emitter<'a> {
    prog: &'a Program,
    mem: &'a Memory,
    wave_size: u32,
    lds_bytes: u32,
    vslots: BTreeMap<u32, usize>,
    sslots: BTreeMap<u32, usize>,
    body: String,
    decls: String,
    surfaces: Vec<(Surface, u64, String)>,
    trace: bool,
    atomics: Vec<TracedAtomic>,
    /// Translate 64-bit atomics to native ones (Options::int64_atomics).
    int64: bool,
    /// The module uses the 64-bit view of image memory.
    mem64: bool,
    stored: bool,
    /// The S# (SSAMP × 4 SGPRs) of the image instruction being emitted.
    ssharp: [u32; 4],
    /// Its eight T# dwords as they are (SRSRC × 4 SGPRs).
    tsharp_words: [u32; 8],
    /// VGPRs (from v0) that hold an Intel thread's GRF, kept in workgroup
    /// memory rather than private slots (gpu/translate/visa.rs); 0 for AMD code.
    grf_vgprs: u32,
    /// The module runs GRF operations.
    grf: bool,
    /// GRF bytes accessed since the last workgroup barrier.
    grf_sync: visa::Sync,
    /// Kernel::faults.
    faults: BTreeMap<usize, String>,
    /// An AMD operation can fault per lane (gpu/translate/bvh.rs): the module keeps
    /// a `fault` variable and writes FAULT_WORD at its end.
    lane_faults: bool,
    /// The launch's work budget (for the fault's message).
    budget: crate::ir::budget::Exceeded,
    /// Steps a wave may jump back over: its share less the straight pass.
    room: u64,
    /// The module counts backward jumps (`steps_jumped`).
    counts_steps: bool,
    /// Index (in the live ops) of the operation being emitted.
    index: usize,
    /// Index of each open loop's `Loop` op, innermost last.
    loop_starts: Vec<usize>,
    /// Stop emitting once the body is this large, so that a huge program
    /// costs neither time nor memory: the module's inlined size, which
    /// decides, is at least the body's code, and comments (one line per
    /// operation) never make up three quarters of it.
    max_body_bytes: u64,
    /// The module's prelude already holds `shaders/fma.wgsl` (whole programs).
    fma_in_prelude: bool,
}

/// Why the translator refuses an operation whatever the launch, or `None`
/// when it translates it (image operations may still be refused for what
/// their descriptors hold at run time). `whole` says whether the operation's
/// program takes the whole-program translation ([`whole::is_whole`]), which
/// refuses what it does not translate yet ([`whole::refusal`]); the
/// straight-line translation takes every operation a program without ALU,
/// memory or control flow has. `gcn-run --check --gpu` lists these; the
/// translation refuses with the same words.
pub fn untranslated(op: &Op, whole: bool) -> Option<String> {
    if whole {
        whole::refusal(op)
    } else {
        None
    }
}

fn err(offset: usize, kind: impl Into<TranslateErrorKind>) -> TranslateError {
    TranslateError {
        offset,
        kind: kind.into(),
        whole: false,
    }
}

/// The refusal of a module past the size limit: its size with every call
/// inlined, or `None` when emission stopped early, its code alone being more
/// than four times the limit.
fn too_large(size: Option<u64>, limit: u64) -> TranslateError {
    whole(TranslateErrorKind::TooLarge { size, limit })
}

/// The statement that keeps `lane_on` — whether the invocation's lane is in
/// EXEC, which every per-lane write tests — in step with EXEC: every module
/// emits it after each write of `exec_lo` or `exec_hi`, so that a test is a
/// variable's read instead of `is_active`'s branch on the lane inlined once
/// per operation, which llvmpipe builds as masked control flow (about a
/// sixth of a cold build of `kernels/math.toml` on lavapipe: docs/gpu.md,
/// "Time to first result on lavapipe").
const LANE_ON_UPDATE: &str = "lane_on = is_active(exec_lo, exec_hi, lane);";

impl<'a> Emitter<'a> {
    fn new(prog: &'a Program, mem: &'a Memory, wave_size: u32, lds_bytes: u32) -> Self {
        Emitter {
            prog,
            mem,
            wave_size,
            lds_bytes,
            vslots: BTreeMap::new(),
            sslots: BTreeMap::new(),
            body: String::new(),
            decls: String::new(),
            surfaces: Vec::new(),
            trace: false,
            atomics: Vec::new(),
            int64: false,
            mem64: false,
            stored: false,
            ssharp: [0; 4],
            tsharp_words: [0; 8],
            grf_vgprs: 0,
            grf: false,
            grf_sync: visa::Sync::default(),
            faults: BTreeMap::new(),
            lane_faults: false,
            budget: crate::ir::budget::Exceeded {
                max_steps: crate::ir::budget::DEFAULT_MAX_STEPS,
                waves: 1,
            },
            room: 0,
            counts_steps: false,
            index: 0,
            loop_starts: Vec::new(),
            max_body_bytes: u64::MAX,
            fma_in_prelude: false,
        }
    }

    /// A backward jump over `distance` operations (target to jump, inclusive;
    /// `ir::budget::Steps::jump`, the CPU's rule): the WGSL condition "it
    /// would take the wave past its share", and the statement that counts it
    /// once it is taken. The count is per invocation and the same in all of a
    /// wave's (every branch decision is wave-uniform). The vISA loop end uses
    /// it; an AMD branch op that jumps backward will too.
    fn jump_budget(&mut self, distance: u64) -> (String, String) {
        // `steps_jumped` never passes `room` (it grows only by jumps that
        // fit), so `room - distance` is the largest count a jump still fits.
        let room = self.budget_room();
        let over = match room.checked_sub(distance) {
            Some(left) => format!("steps_jumped > {left}u"),
            None => "true".into(),
        };
        (over, format!("steps_jumped = steps_jumped + {distance}u;"))
    }

    /// [`Emitter::jump_budget`] for a distance known only when the module
    /// runs (`distance`, a WGSL `u32` expression: an `s_setpc`'s).
    fn jump_budget_at_run_time(&mut self, distance: &str) -> (String, String) {
        let room = self.budget_room();
        (
            format!("({distance} > {room}u || steps_jumped > {room}u - {distance})"),
            format!("steps_jumped = steps_jumped + {distance};"),
        )
    }

    /// The module counts jumps against the work budget: the steps a wave may
    /// still jump when it starts (the u32 clamp never bites: translate_with
    /// keeps the budget below 2^32 jumped).
    fn budget_room(&mut self) -> u64 {
        self.counts_steps = true;
        self.faults
            .insert(BUDGET_FAULT as usize, self.budget.to_string());
        self.room.min(u64::from(u32::MAX))
    }

    /// The WGSL place of VGPR `n` (`None` past the register file: reads give 0
    /// and writes are dropped, as on the CPU).
    fn v(&mut self, n: u32) -> Option<String> {
        if n >= crate::machine::state::VGPRS {
            return None;
        }
        let next = self.vslots.len();
        let k = *self.vslots.entry(n).or_insert(next);
        Some(format!("v[{k}]"))
    }

    fn v_read(&mut self, n: u32) -> String {
        self.v(n).unwrap_or_else(|| "0u".into())
    }

    fn s(&mut self, n: u32) -> Option<String> {
        if n >= crate::machine::state::SGPRS {
            return None;
        }
        let next = self.sslots.len();
        let k = *self.sslots.entry(n).or_insert(next);
        Some(format!("s[{k}]"))
    }

    fn reg_read(&mut self, r: Reg) -> String {
        match r {
            Reg::Sgpr(n) => self.s(n).unwrap_or_else(|| "0u".into()),
            Reg::Vgpr(n) => self.v_read(n),
            Reg::M0 => "m0".into(),
            Reg::ExecLo => "exec_lo".into(),
            Reg::ExecHi => "exec_hi".into(),
            Reg::VccLo => "vcc_lo".into(),
            Reg::VccHi => "vcc_hi".into(),
            // Programs that read SCC take the whole-program translation
            // (`whole::is_whole`), which reads its own variable.
            Reg::Scc => "0u".into(),
        }
    }

    fn src(&mut self, s: Src) -> String {
        match s {
            Src::Const(c) => format!("{c}u"),
            Src::Reg(r) => self.reg_read(r),
        }
    }

    /// Follows a write of `r` with `lane_on`'s update when `r` is a half of
    /// EXEC ([`LANE_ON_UPDATE`]).
    fn after_write(&mut self, r: Reg) {
        if matches!(r, Reg::ExecLo | Reg::ExecHi) {
            self.line(LANE_ON_UPDATE);
        }
    }

    /// Writes EXEC whole, then `lane_on` ([`LANE_ON_UPDATE`]).
    fn write_exec(&mut self, lo: &str, hi: &str) {
        self.line(&format!("exec_lo = {lo};"));
        self.line(&format!("exec_hi = {hi};"));
        self.line(LANE_ON_UPDATE);
    }

    fn line(&mut self, text: &str) {
        self.body.push_str("    ");
        self.body.push_str(text);
        self.body.push('\n');
    }

    /// Emits `ops` for waves whose scalar registers before them are
    /// `scalars`, which it leaves as they are after them (the scalar moves
    /// replayed: the next part of a split program starts from there).
    fn emit_program(
        &mut self,
        ops: &[(usize, &Op)],
        scalars: &mut WaveState,
    ) -> Result<(), TranslateError> {
        if visa::uses_grf(ops) {
            visa::prepare(self, ops)?;
            self.grf = true;
        }
        for (index, &(offset, op)) in ops.iter().enumerate() {
            self.index = index;
            if self.body.len() as u64 > self.max_body_bytes {
                return Err(too_large(None, self.max_body_bytes / 4));
            }
            match op {
                Op::End => break,
                Op::Nop | Op::Wait => {}
                Op::Visa(g) => visa::emit(self, offset, g)?,
                Op::SMov { dst, src } => {
                    let v = scalars.scalar_src(*src);
                    scalars.write_scalar(*dst, v);
                    let value = self.src(*src);
                    let place = match *dst {
                        Reg::Sgpr(n) => self.s(n),
                        Reg::M0 => Some("m0".into()),
                        Reg::ExecLo => Some("exec_lo".into()),
                        Reg::ExecHi => Some("exec_hi".into()),
                        Reg::VccLo => Some("vcc_lo".into()),
                        Reg::VccHi => Some("vcc_hi".into()),
                        Reg::Vgpr(_) | Reg::Scc => None,
                    };
                    if let Some(p) = place {
                        self.line(&format!("{p} = {value};"));
                    }
                    self.after_write(*dst);
                }
                Op::VMov { dst, src } => {
                    let value = self.src(*src);
                    if let Some(d) = self.v(*dst) {
                        self.line(&format!("if lane_on {{ {d} = {value}; }}"));
                    }
                }
                Op::Interp(i) => self.emit_interp(i.step, i.vdst, i.ij, (i.attr, i.chan), &i.mods),
                Op::LdsParamLoad { vdst, attr, chan } => {
                    interp_gfx11::emit_param_load(self, offset, scalars.m0, *vdst, *attr, *chan)?
                }
                Op::LdsDirectLoad { vdst } => {
                    interp_gfx11::emit_direct_load(self, offset, scalars.m0, *vdst)?
                }
                Op::Vinterp(v) => interp_gfx11::emit_vinterp(
                    self,
                    v.step,
                    v.vdst,
                    v.src,
                    (v.neg, v.clamp, v.op_sel),
                    None,
                ),
                Op::Image(m) if m.op.kind == ImageKind::Bvh => {
                    // A BVH T# is not an image T#: translate::bvh reads its own.
                    writeln!(self.body, "    // {:#06x}: {}", offset, m).ok();
                    self.line("{");
                    bvh::emit(self, offset, m, scalars)?;
                    self.line("}");
                    self.line("storageBarrier();");
                }
                Op::Image(m) => {
                    let tsharp =
                        read_tsharp(m, scalars, &self.prog.arch).map_err(|e| err(offset, e))?;
                    self.ssharp = std::array::from_fn(|i| scalars.sgpr(m.ssamp + i as u32));
                    self.tsharp_words =
                        crate::texture::sample::status::tsharp_words(m, |n| scalars.sgpr(n));
                    self.emit_image(offset, m, tsharp)?;
                }
                // Whole programs (translate_with sends them to `whole`).
                Op::Export(_)
                | Op::Alu(_)
                | Op::Dual(_)
                | Op::Wave(_)
                | Op::VectorMem(_)
                | Op::ScalarLoad(_)
                | Op::Ds(_)
                | Op::EndMsg => {
                    return Err(err(
                        offset,
                        "internal: a whole-program operation reached the straight-line translation",
                    ));
                }
            }
        }
        Ok(())
    }

    /// An interpolation step (cpu::interp::execute): parameters from this
    /// wave's LDS, VOP3 source and output modifiers, f16 forms.
    pub(super) fn emit_interp(
        &mut self,
        step: InterpStep,
        vdst: u32,
        ij: u32,
        (attr, chan): (u32, u32),
        mods: &crate::ir::InterpMods,
    ) {
        let chan = chan & 3;
        let (p0, p10, p20) = (2 * chan, 2 * chan + 1, 8 + chan);
        let dword =
            |index: u32| format!("lds_dword(lds_base, param_address(m0, {attr}u, lane, {index}u))");
        let param = |index: u32| format!("bitcast<f32>({})", dword(index));
        let high = mods.high;
        let hparam = |index: u32| format!("half_of({}, {high})", dword(index));
        let Some(d) = self.v(vdst) else { return };
        let ijv = self.v_read(ij);
        let s0 = format!(
            "bitcast<f32>(src_mod({ijv}, {}, {}))",
            mods.abs & 2 != 0,
            mods.neg & 2 != 0
        );
        let s2 = self.v_read(mods.vsrc2);
        let s2_mod = |x: String| {
            format!(
                "bitcast<f32>(src_mod(bitcast<u32>({x}), {}, {}))",
                mods.abs & 4 != 0,
                mods.neg & 4 != 0
            )
        };
        let value = match step {
            InterpStep::P1 => format!("interp_mad({}, {s0}, {})", param(p0), param(p10)),
            InterpStep::P2 => format!("interp_mad(bitcast<f32>({d}), {s0}, {})", param(p20)),
            InterpStep::Mov(0) => param(p10),
            InterpStep::Mov(1) => param(p20),
            InterpStep::Mov(_) => param(p0),
            InterpStep::P1llF16 => format!("interp_mad({}, {s0}, {})", hparam(p0), hparam(p10)),
            InterpStep::P1lvF16 => format!(
                "interp_mad({}, {s0}, {})",
                s2_mod(format!("half_of({s2}, {high})")),
                hparam(p10)
            ),
            InterpStep::P2F16 => format!(
                "interp_mad({}, {s0}, {})",
                s2_mod(format!("bitcast<f32>({s2})")),
                hparam(p20)
            ),
        };
        let out = format!(
            "out_mod(bitcast<u32>({value}), {}u, {})",
            mods.omod & 3,
            mods.clamp
        );
        let bits = if step == InterpStep::P2F16 {
            format!("({d} & 0xffff0000u) | f32_to_f16({out})")
        } else {
            out
        };
        self.line(&format!("if lane_on {{ {d} = {bits}; }}"));
    }

    /// A function `surfN(level, slice, x, y, z) -> u32` giving the byte offset
    /// in `mem` of a texel of a linear surface (Surface::texel_offset plus the
    /// base address), or NO_TEXEL when it is outside the surface.
    fn surface_fn(
        &mut self,
        offset: usize,
        surf: &Surface,
        base: u64,
    ) -> Result<String, TranslateError> {
        if let Some((_, _, name)) = self
            .surfaces
            .iter()
            .find(|(s, b, _)| s == surf && *b == base)
        {
            return Ok(name.clone());
        }
        let name = format!("surf{}", self.surfaces.len());
        let total = surf
            .total_bytes()
            .ok_or_else(|| err(offset, "image size overflows"))?;
        let mem_end = self.mem.base + self.mem.bytes.len() as u64;
        let mut f = format!("fn {name}(m: u32, slice: u32, x: u32, y: u32, z: u32) -> u32 {{\n");
        if base >= mem_end || base.saturating_add(total) <= self.mem.base {
            // Entirely outside image memory: every access is out of range.
            f.push_str("    return NO_TEXEL;\n}\n");
        } else {
            let rel = base
                .checked_sub(self.mem.base)
                .filter(|r| r.saturating_add(total) < u64::from(u32::MAX))
                .ok_or_else(|| {
                    err(
                        offset,
                        "image straddles the start of image memory or lies past 4 GiB: not supported on the GPU",
                    )
                })?;
            f.push_str("    var w = 0u; var h = 0u; var d = 0u; var row = 0u; var plane = 0u; var lo = 0u;\n    switch m {\n");
            for m in 0..surf.levels {
                let (w, h, d) = surf.level_dims(m);
                let (row, plane, lo) = (
                    surf.row_pitch(m),
                    surf.slice_pitch(m).unwrap_or(0),
                    surf.level_offset(m).unwrap_or(0),
                );
                writeln!(
                    f,
                    "        case {m}u: {{ w = {w}u; h = {h}u; d = {d}u; row = {row}u; plane = {plane}u; lo = {lo}u; }}"
                )
                .ok();
            }
            f.push_str("        default: { return NO_TEXEL; }\n    }\n");
            // Surface::element_of_texel: a BCn texel inside the level is
            // addressed through its 4×4 block.
            let (ex, ey) = if surf.block {
                ("(x / 4u)", "(y / 4u)")
            } else {
                ("x", "y")
            };
            writeln!(
                f,
                "    if slice >= {}u || x >= w || y >= h || z >= d {{ return NO_TEXEL; }}\n    return {rel}u + lo + (slice * d + z) * plane + {ey} * row + {ex} * {}u;\n}}",
                surf.slices, surf.bpe
            )
            .ok();
        }
        self.decls.push_str(&f);
        self.surfaces.push((*surf, base, name.clone()));
        Ok(name)
    }

    /// The WGSL expressions of the first `count` address components of a
    /// lane (texture::vaddr::components): consecutive VGPRs from VADDR or the
    /// NSA list; with A16 two 16-bit components per dword, low half first.
    fn component_exprs(
        &mut self,
        offset: usize,
        m: &ImageOp,
        count: u32,
    ) -> Result<Vec<String>, TranslateError> {
        let a16 = m.a16;
        let dwords = if a16 { count.div_ceil(2) } else { count };
        let regs = m.address_regs(dwords).map_err(|x| err(offset, x))?;
        let raw: Vec<String> = regs
            .iter()
            .take(dwords as usize)
            .map(|&r| self.v_read(r))
            .collect();
        Ok(if a16 {
            raw.iter()
                .flat_map(|d| [format!("({d} & 0xffffu)"), format!("({d} >> 16u)")])
                .collect()
        } else {
            raw
        })
    }

    /// A function `texN(level, slice, sample, x, y, z) -> u32`: the byte offset
    /// in `mem` of a texel of a bound T# (cpu::image::texel_offset), NO_TEXEL
    /// outside the view or the surface.
    fn texel_fn(
        &mut self,
        offset: usize,
        d: &ImageDesc,
        surf: &Surface,
    ) -> Result<String, TranslateError> {
        let surf_fn = self.surface_fn(offset, surf, d.base_address)?;
        let name = format!(
            "{surf_fn}_tex_{}_{}_{}",
            d.base_level, d.base_array, d.last_array
        );
        if self.decls.contains(&format!("fn {name}(")) {
            return Ok(name);
        }
        let t = d.image_type;
        let mut f = format!(
            "fn {name}(level: u32, slice: u32, sample: u32, x: u32, y: u32, z: u32) -> u32 {{\n    let lv = {}u + level;\n    if lv < level {{ return NO_TEXEL; }}\n",
            d.base_level
        );
        if t.is_layered() {
            writeln!(
                f,
                "    let layer = {}u + slice;\n    if layer < slice || layer > {}u {{ return NO_TEXEL; }}",
                d.base_array, d.last_array
            )
            .ok();
        } else {
            f.push_str("    let layer = 0u;\n");
        }
        if t.is_msaa() {
            let n = crate::texture::resource::samples(d);
            writeln!(
                f,
                "    if sample >= {n}u || layer > {}u {{ return NO_TEXEL; }}\n    let sl = layer * {n}u + sample;",
                (u32::MAX - (n - 1)) / n
            )
            .ok();
        } else {
            f.push_str("    let sl = layer;\n    _ = sample;\n");
        }
        writeln!(f, "    return {surf_fn}(lv, sl, x, y, z);\n}}").ok();
        self.decls.push_str(&f);
        Ok(name)
    }

    /// `var off = …;` for the lane's texel (cpu::image::texel_address): the
    /// coordinates the address VGPRs give for the layout type, then
    /// [`Self::texel_fn`].
    fn emit_texel_offset(
        &mut self,
        offset: usize,
        m: &ImageOp,
        d: &ImageDesc,
        surf: &Surface,
        mip: bool,
    ) -> Result<(), TranslateError> {
        use crate::texture::vaddr::{body, layout_type, Axis};
        let t = layout_type(m, d.image_type).map_err(|e| err(offset, e))?;
        if mip && t.is_msaa() {
            return Err(err(offset, TextureError::MipOnMsaa { op: m.name() }));
        }
        let axes = body(t);
        let count = axes.len() as u32 + u32::from(mip);
        let comps = self.component_exprs(offset, m, count)?;
        let zero = || "0u".to_string();
        let (mut x, mut y, mut z, mut slice, mut sample) = (zero(), zero(), zero(), zero(), zero());
        for (axis, v) in axes.iter().zip(&comps) {
            let slot = match axis {
                Axis::X => &mut x,
                Axis::Y => &mut y,
                Axis::Z => &mut z,
                Axis::Slice => &mut slice,
                Axis::Sample => &mut sample,
            };
            *slot = v.clone();
        }
        let level = if mip {
            comps.get(axes.len()).cloned().unwrap_or_else(zero)
        } else {
            zero()
        };
        let f = self.texel_fn(offset, d, surf)?;
        self.line(&format!(
            "let off = {f}({level}, {slice}, {sample}, {x}, {y}, {z});"
        ));
        if surf.block {
            // The texel's place in its 4×4 block (texture::bcn::load_texel).
            self.line(&format!("let bc_texel = bcn_texel_index({x}, {y});"));
        }
        Ok(())
    }

    fn emit_image(
        &mut self,
        offset: usize,
        m: &ImageOp,
        tsharp: Image,
    ) -> Result<(), TranslateError> {
        writeln!(self.body, "    // {:#06x}: {}", offset, m).ok();
        self.line("{");
        match m.op.kind {
            ImageKind::Load => self.emit_load_store(offset, m, tsharp)?,
            ImageKind::Store => {
                self.emit_load_store(offset, m, tsharp)?;
                self.stored = true;
            }
            ImageKind::Atomic => self.emit_atomic(offset, m, tsharp)?,
            ImageKind::ResInfo => self.emit_resinfo(offset, m, tsharp)?,
            ImageKind::Sample | ImageKind::Gather4 | ImageKind::GetLod => {
                let words = self.tsharp_words;
                sample::emit(self, offset, m, tsharp, self.ssharp, &words)?
            }
            _ => {
                return Err(err(
                    offset,
                    format!("`{}` is not translated to WGSL yet", m.name()),
                ))
            }
        }
        self.line("}");
        self.line("storageBarrier();");
        Ok(())
    }

    /// Writes result dwords to consecutive VGPRs from VDATA, then the TFE/LWE
    /// status dword (cpu::image::write_result). Call inside the EXEC block.
    fn write_result(&mut self, vdata: u32, vals: &[String], status: bool) {
        for (k, v) in vals.iter().enumerate() {
            if let Some(d) = self.v(vdata + k as u32) {
                self.line(&format!("    {d} = {v};"));
            }
        }
        if status {
            if let Some(d) = self.v(vdata + vals.len() as u32) {
                self.line(&format!("    {d} = {}u;", crate::texture::data::STATUS_OK));
            }
        }
    }

    /// The DMASK-selected components (cpu::image::select_dmask): one zero for
    /// DMASK 0.
    fn select_dmask(dmask: u32, rgba: [String; 4]) -> Vec<String> {
        if dmask & 0xf == 0 {
            return vec!["0u".into()];
        }
        rgba.into_iter()
            .enumerate()
            .filter(|(c, _)| dmask >> c & 1 == 1)
            .map(|(_, v)| v)
            .collect()
    }

    /// Result values to result dwords (texture::data::load_dwords): as they
    /// are, or as 16-bit halves, one per dword or two.
    fn load_dwords(vals: &[String], width: DataWidth, integer: bool) -> Vec<String> {
        let half = |v: &String| {
            if integer {
                format!("({v} & 0xffffu)")
            } else {
                format!("f32_to_f16({v})")
            }
        };
        match width {
            DataWidth::Full => vals.to_vec(),
            DataWidth::Unpacked16 => vals.iter().map(half).collect(),
            DataWidth::Packed16 => vals
                .chunks(2)
                .map(|p| match p.get(1) {
                    Some(hi) => format!("({} | ({} << 16u))", half(&p[0]), half(hi)),
                    None => half(&p[0]),
                })
                .collect(),
        }
    }

    fn emit_load_store(
        &mut self,
        offset: usize,
        m: &ImageOp,
        tsharp: Image,
    ) -> Result<(), TranslateError> {
        let r = m;
        let arch = self.prog.arch;
        let mip = m.op.has(flag::MIP);
        let raw_format = if m.name().contains("_pck_sgn") {
            Some(NumFormat::Sint)
        } else if m.name().contains("_pck") {
            Some(NumFormat::Uint)
        } else {
            None
        };
        let dmask = r.dmask & 0xf;
        let loads = m.op.kind == ImageKind::Load;
        let comps = dmask.count_ones().max(1);
        let width = DataWidth::of(r.d16, arch.packed_d16);
        let status = has_status(r.tfe, r.lwe);
        let d = match tsharp {
            Image::Bound(d) => d,
            Image::Unbound | Image::Null { .. } => {
                if loads {
                    let consts = unbound_values(&tsharp).map(|v| format!("{v}u"));
                    let vals = Self::load_dwords(&Self::select_dmask(dmask, consts), width, false);
                    self.line("if lane_on {");
                    self.write_result(r.vdata, &vals, status);
                    self.line("}");
                }
                return Ok(());
            }
        };
        require_linear(&d, &arch).map_err(|e| err(offset, e))?;
        let surf = surface_of(&d).map_err(|e| err(offset, e))?;
        crate::texture::resource::require_in_memory(&d, &surf, self.mem.range())
            .map_err(|e| err(offset, e))?;
        let df = data_format(d.data_format).ok_or_else(|| {
            err(
                offset,
                TextureError::DataFormat {
                    code: d.data_format,
                },
            )
        })?;
        let nf = match raw_format {
            Some(raw) => raw,
            None => NumFormat::from_code(d.num_format)
                .ok_or_else(|| err(offset, TextureError::NumFormat { code: d.num_format }))?,
        };
        if raw_format.is_some() && df.layout != format::Layout::Plain {
            return Err(err(
                offset,
                format!(
                    "`{}` on data format {}: _pck forms need plain components",
                    m.name(),
                    df.name
                ),
            ));
        }
        let block = df.layout == format::Layout::Block;
        if block && !loads {
            return Err(err(
                offset,
                format!(
                    "`{}` on a {} image: block-compressed images are read-only",
                    m.name(),
                    df.name
                ),
            ));
        }
        // One texel: the format's unpack, or for BCn the decoder of
        // shaders/bcn.wgsl on the whole block (texture::bcn::load_texel).
        let unpack = if block {
            let bc = crate::texture::bcn::check(df.code, nf).map_err(|e| err(offset, e))?;
            format!("{}_texel(raw, {}u, bc_texel)", bc.name, nf.code())
        } else {
            texel::unpack(df, nf, "raw")
        };
        self.emit_texel_offset(offset, m, &d, &surf, mip)?;
        let bytes = df.bytes;
        if loads {
            let identity = [4u8, 5, 6, 7];
            let dst_sel = if raw_format.is_some() {
                identity
            } else {
                d.dst_sel
            };
            self.line("if lane_on {");
            self.line("    var t = vec4<u32>(0u);");
            self.line(&format!(
                "    if mem_in_range(off, {bytes}u) {{ let raw = mem_read_texel(off, {bytes}u); t = {unpack}; }}"
            ));
            let sw = dst_sel.map(|s| match s {
                0 => "0u".to_string(),
                1 => format!("{}u", missing_component(3, nf)),
                s => ["t.x", "t.y", "t.z", "t.w"][usize::from(s - 4) & 3].to_string(),
            });
            let vals = Self::load_dwords(&Self::select_dmask(dmask, sw), width, nf.is_integer());
            self.write_result(r.vdata, &vals, status);
            self.line("}");
        } else {
            // Register data to component values (data::store_values), then the
            // components DMASK names, zero elsewhere (image::store_rgba).
            let dwords: Vec<String> = (0..width.dwords(comps))
                .map(|k| self.v_read(r.vdata + k))
                .collect();
            let at = |k: usize| dwords.get(k).cloned().unwrap_or_else(|| "0u".into());
            let widen = |h: String| match nf {
                NumFormat::Uint => format!("({h} & 0xffffu)"),
                NumFormat::Sint => format!("bitcast<u32>(sign_extend({h}, 16u))"),
                _ => format!("bitcast<u32>(f16_to_f32(({h}) & 0xffffu))"),
            };
            let values: Vec<String> = (0..comps as usize)
                .map(|k| match width {
                    DataWidth::Full => at(k),
                    DataWidth::Unpacked16 => widen(at(k)),
                    DataWidth::Packed16 => widen(format!("({} >> {}u)", at(k / 2), 16 * (k % 2))),
                })
                .collect();
            let mut next = values.into_iter();
            let rgba: [String; 4] = std::array::from_fn(|c| {
                if dmask >> c & 1 == 1 {
                    next.next().unwrap_or_else(|| "0u".into())
                } else {
                    "0u".into()
                }
            });
            // The CPU's rule (format::store_texel) decides what can be
            // stored; texel::pack has a function for every number format it
            // stores.
            let packed = format::store_texel(df, nf, [0; 4])
                .and_then(|_| texel::pack(df, nf, &rgba))
                .ok_or_else(|| err(offset, format!("number format {nf:?} cannot be stored")))?;
            self.line(&format!("if lane_on && mem_in_range(off, {bytes}u) {{"));
            self.line(&format!("    mem_write_texel(off, {bytes}u, {packed});"));
            self.line("}");
        }
        Ok(())
    }

    fn emit_atomic(
        &mut self,
        offset: usize,
        m: &ImageOp,
        tsharp: Image,
    ) -> Result<(), TranslateError> {
        let a = check::atomic_shape(m).map_err(|x| err(offset, x))?;
        let (op, two, wide, dwords) = (a.op, a.two_operands, a.wide, a.dwords);
        let r = m;
        let status = has_status(r.tfe, r.lwe);
        if status {
            if let Some(p) = self.v(r.vdata + dwords) {
                self.line(&format!(
                    "if lane_on {{ {p} = {}u; }}",
                    crate::texture::data::STATUS_OK
                ));
            }
        }
        let Image::Bound(d) = tsharp else {
            if r.glc {
                self.line("if lane_on {");
                for k in 0..dwords / if two { 2 } else { 1 } {
                    if let Some(p) = self.v(r.vdata + k) {
                        self.line(&format!("    {p} = 0u;"));
                    }
                }
                self.line("}");
            }
            return Ok(());
        };
        require_linear(&d, &self.prog.arch).map_err(|e| err(offset, e))?;
        check::atomic_view(m, &a, &d).map_err(|x| err(offset, x))?;
        let surf = surface_of(&d).map_err(|e| err(offset, e))?;
        crate::texture::resource::require_in_memory(&d, &surf, self.mem.range())
            .map_err(|e| err(offset, e))?;
        self.emit_texel_offset(offset, m, &d, &surf, false)?;
        let vd = |e: &mut Self, k: u32| e.v_read(r.vdata + k);
        let code = op as u32;
        let trace_k = self.atomics.len();
        if self.trace {
            self.atomics.push(TracedAtomic {
                offset,
                op,
                wide,
                returns_to: r.glc.then_some(r.vdata),
                after_store: self.stored,
            });
        }
        if wide {
            let data = format!("vec2<u32>({}, {})", vd(self, 0), vd(self, 1));
            let cmp = if two {
                format!("vec2<u32>({}, {})", vd(self, 2), vd(self, 3))
            } else {
                "vec2<u32>(0u, 0u)".into()
            };
            if self.int64 {
                // One 64-bit atomic per lane (shaders/atomic64.wgsl); contended
                // lanes and waves in the device's order, which the linearizer
                // checks under --diff as for 32-bit atomics.
                self.mem64 = true;
                self.line("if lane_on {");
                self.line("    var old = vec2<u32>(0u, 0u);");
                self.line("    if mem_in_range(off, 8u) {");
                self.line("        spec_touch(off / 4u, true);");
                self.line("        spec_touch(off / 4u + 1u, true);");
                self.line(&format!(
                    "        old = atomic64(off / 8u, {code}u, {data}, {cmp});"
                ));
                if self.trace {
                    self.line(&format!(
                        "        trace_atomic({trace_k}u, lane, wave, off, old, {data}, {cmp});"
                    ));
                }
                self.line("    }");
                if r.glc {
                    for k in 0..2 {
                        if let Some(p) = self.v(r.vdata + k) {
                            self.line(&format!("    {p} = old.{};", ["x", "y"][k as usize]));
                        }
                    }
                }
                self.line("}");
                return Ok(());
            }
            // Portable fallback, lanes one at a time (waves are serialised for
            // this program): the pair of dwords is read, combined and written
            // with no other access in between, in lane order as on the CPU.
            self.line("var old = vec2<u32>(0u, 0u);");
            self.line("let act = lane_on;");
            self.line("for (var l = 0u; l < WAVE_SIZE; l = l + 1u) {");
            self.line("    if l == lane && act && mem_in_range(off, 8u) {");
            self.line("        let w = off / 4u;");
            self.line("        spec_touch(w, true);");
            self.line("        spec_touch(w + 1u, true);");
            self.line("        old = vec2<u32>(atomicLoad(&mem[w]), atomicLoad(&mem[w + 1u]));");
            self.line(&format!(
                "        let nv = apply64({code}u, old, {data}, {cmp});"
            ));
            self.line("        atomicStore(&mem[w], nv.x);");
            self.line("        atomicStore(&mem[w + 1u], nv.y);");
            if self.trace {
                self.line(&format!(
                    "        trace_atomic({trace_k}u, lane, wave, off, old, {data}, {cmp});"
                ));
            }
            self.line("    }");
            self.line("    storageBarrier();");
            self.line("}");
            if r.glc {
                self.line("if act {");
                for k in 0..2 {
                    if let Some(p) = self.v(r.vdata + k) {
                        self.line(&format!("    {p} = old.{};", ["x", "y"][k as usize]));
                    }
                }
                self.line("}");
            }
            return Ok(());
        }
        let data = vd(self, 0);
        let cmp = if two { vd(self, 1) } else { "0u".into() };
        self.line("if lane_on {");
        self.line("    var old = 0u;");
        self.line("    if mem_in_range(off, 4u) {");
        self.line("        let w = off / 4u;");
        self.line("        spec_touch(w, true);");
        let native = match op {
            AtomicOp::Swap => Some("atomicExchange"),
            AtomicOp::Add => Some("atomicAdd"),
            AtomicOp::Sub => Some("atomicSub"),
            AtomicOp::Umin => Some("atomicMin"),
            AtomicOp::Umax => Some("atomicMax"),
            AtomicOp::And => Some("atomicAnd"),
            AtomicOp::Or => Some("atomicOr"),
            AtomicOp::Xor => Some("atomicXor"),
            _ => None,
        };
        match native {
            Some(f) => self.line(&format!("        old = {f}(&mem[w], {data});")),
            None => {
                // Compare-exchange loop around the CPU's arithmetic (apply32).
                self.line("        old = atomicLoad(&mem[w]);");
                self.line("        loop {");
                self.line(&format!(
                    "            let x = atomicCompareExchangeWeak(&mem[w], old, apply32({code}u, old, {data}, {cmp}));"
                ));
                self.line("            if x.exchanged { break; }");
                self.line("            old = x.old_value;");
                self.line("        }");
            }
        }
        if self.trace {
            self.line(&format!(
                "        trace_atomic({trace_k}u, lane, wave, off, vec2<u32>(old, 0u), vec2<u32>({data}, 0u), vec2<u32>({cmp}, 0u));"
            ));
        }
        self.line("    }");
        if r.glc {
            if let Some(p) = self.v(r.vdata) {
                self.line(&format!("    {p} = old;"));
            }
        }
        self.line("}");
        Ok(())
    }

    /// IMAGE_GET_RESINFO (cpu::image::resinfo / resinfo_values) for the
    /// lane's level, with the T#'s sizes as constants.
    fn emit_resinfo(
        &mut self,
        offset: usize,
        m: &ImageOp,
        tsharp: Image,
    ) -> Result<(), TranslateError> {
        let r = m;
        if r.d16 {
            return Err(err(offset, Refusal::NoD16 { op: m.name() }));
        }
        let status = has_status(r.tfe, r.lwe);
        let level = self
            .component_exprs(offset, m, 1)?
            .first()
            .cloned()
            .unwrap_or_else(|| "0u".into());
        self.line("if lane_on {");
        self.line(&format!("    let level = {level};"));
        let vals: [String; 4] = match tsharp {
            Image::Bound(d) => {
                let levels = if d.image_type.is_msaa() {
                    1
                } else {
                    u32::from(d.last_level.saturating_sub(d.base_level)) + 1
                };
                let base = d.base_level;
                let size = |v: u32| format!("resinfo_size({v}u, level, {levels}u, {base}u)");
                let layers = d.last_array.saturating_sub(d.base_array) + 1;
                let inside = |v: String| format!("select(0u, {v}, level < {levels}u)");
                let (h, third) = match d.image_type {
                    ImageType::D1 => ("1u".to_string(), "1u".to_string()),
                    ImageType::D1Array => ("1u".into(), format!("{layers}u")),
                    ImageType::D3 => (size(d.height), size(d.depth)),
                    ImageType::D2Array | ImageType::Cube | ImageType::D2MsaaArray => {
                        (size(d.height), format!("{layers}u"))
                    }
                    ImageType::D2 | ImageType::D2Msaa => (size(d.height), "1u".into()),
                };
                [
                    size(d.width),
                    inside(h),
                    inside(third),
                    format!("{levels}u"),
                ]
            }
            Image::Unbound | Image::Null { .. } => std::array::from_fn(|_| "0u".to_string()),
        };
        let vals = Self::select_dmask(r.dmask, vals);
        self.write_result(r.vdata, &vals, status);
        self.line("}");
        Ok(())
    }

    /// The complete module and the VGPR numbers of its slots.
    fn finish(self) -> (String, Vec<u32>) {
        let ws = self.wave_size;
        let mut vgprs = vec![0u32; self.vslots.len()];
        for (&n, &k) in &self.vslots {
            vgprs[k] = n;
        }
        let mut sgprs = vec![0u32; self.sslots.len()];
        for (&n, &k) in &self.sslots {
            sgprs[k] = n;
        }
        let nv = vgprs.len().max(1);
        let ns = sgprs.len().max(1);
        let state_words = HEADER_WORDS + vgprs.len() as u32 * ws;
        let mut out = String::new();
        out.push_str(&wgsl::prelude(
            self.mem.bytes.len() as u64,
            self.lds_bytes,
            ws,
            state_words,
        ));
        if self.mem64 {
            writeln!(
                out,
                "\n@group(0) @binding({MEM64_BINDING}) {}",
                wgsl::MEM64_DECL
            )
            .ok();
            out.push_str(wgsl::ATOMIC64);
        }
        out.push_str(&self.decls);
        if self.counts_steps {
            out.push_str("\n// Operations the wave's backward jumps passed again (the work budget, Emitter::jump_budget).\nvar<private> steps_jumped: u32;\n");
        }
        let n_atomics = self.atomics.len().max(1);
        writeln!(
            out,
            "\n// Atomic trace (docs/gpu.md, \"Contended atomics\"): one record per lane per atomic.\nfn trace_atomic(k: u32, lane: u32, wave: u32, off: u32, old: vec2<u32>, data: vec2<u32>, cmp: vec2<u32>) {{\n    let at = ((wave * {n_atomics}u + k) * WAVE_SIZE + lane) * {TRACE_WORDS}u;\n    trace[at] = 1u;\n    trace[at + 1u] = off;\n    trace[at + 2u] = old.x;\n    trace[at + 3u] = old.y;\n    trace[at + 4u] = data.x;\n    trace[at + 5u] = data.y;\n    trace[at + 6u] = cmp.x;\n    trace[at + 7u] = cmp.y;\n}}"
        )
        .ok();
        writeln!(
            out,
            "\n@compute @workgroup_size({ws})\nfn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_index) lane: u32) {{"
        )
        .ok();
        out.push_str("    let wave = params.wave_base + wg.x + wg.y * params.groups_x;\n");
        out.push_str("    if wave >= params.wave_count { return; }\n");
        out.push_str("    let sb = wave * STATE_WORDS;\n");
        out.push_str("    let lds_base = wave * params.lds_stride;\n");
        // Every binding is used, so the automatic layout has all four.
        out.push_str(
            "    _ = lds_base;\n    _ = lds[0];\n    _ = atomicLoad(&mem[0]);\n    _ = st[0];\n    _ = trace[0];\n",
        );
        writeln!(out, "    var s: array<u32, {ns}>;").ok();
        for (k, n) in sgprs.iter().enumerate() {
            writeln!(out, "    s[{k}] = st[sb + {n}u];").ok();
        }
        writeln!(out, "    var v: array<u32, {nv}>;").ok();
        for (k, &n) in vgprs.iter().enumerate() {
            let word = HEADER_WORDS + k as u32 * ws;
            if n < self.grf_vgprs {
                writeln!(
                    out,
                    "    atomicStore(&grf[{}u + lane], st[sb + {word}u + lane]);",
                    n * ws
                )
                .ok();
            } else {
                writeln!(out, "    v[{k}] = st[sb + {word}u + lane];").ok();
            }
        }
        if self.grf {
            out.push_str(
                "    var fault = 0u;
    workgroupBarrier();
",
            );
        } else if self.lane_faults {
            out.push_str("    var fault = 0u;\n");
        }
        let m0 = M0_WORD;
        writeln!(out, "    var m0 = st[sb + {m0}u];\n    var exec_lo = st[sb + {}u];\n    var exec_hi = st[sb + {}u];\n    var {LANE_ON_UPDATE}\n    var vcc_lo = st[sb + {}u];\n    var vcc_hi = st[sb + {}u];", m0 + 1, m0 + 2, m0 + 3, m0 + 4).ok();
        out.push_str(&self.body);
        if self.grf {
            // The first faulting operation of any lane (FAULT_WORD).
            writeln!(out, "    workgroupBarrier();\n    if fault != 0u {{ atomicMax(&grf_fault, 0xffffffffu - fault); }}\n    workgroupBarrier();\n    if lane == 0u {{\n        let f = atomicLoad(&grf_fault);\n        st[sb + {FAULT_WORD}u] = select(0u, 0xffffffffu - f, f != 0u);\n    }}").ok();
        }
        if self.lane_faults && !self.grf {
            // The first faulting record of any lane (FAULT_WORD, translate::bvh).
            writeln!(out, "    workgroupBarrier();\n    if fault != 0u {{ atomicMax(&bvh_fault, 0xffffffffu - fault); }}\n    workgroupBarrier();\n    if lane == 0u {{\n        let f = atomicLoad(&bvh_fault);\n        st[sb + {FAULT_WORD}u] = select(0u, 0xffffffffu - f, f != 0u);\n    }}").ok();
        }
        // Write back: registers every lane holds alike from lane 0, VGPRs per lane.
        out.push_str("    storageBarrier();\n    if lane == 0u {\n");
        for (k, n) in sgprs.iter().enumerate() {
            writeln!(out, "        st[sb + {n}u] = s[{k}];").ok();
        }
        writeln!(out, "        st[sb + {m0}u] = m0;\n        st[sb + {}u] = exec_lo;\n        st[sb + {}u] = exec_hi;\n        st[sb + {}u] = vcc_lo;\n        st[sb + {}u] = vcc_hi;\n    }}", m0 + 1, m0 + 2, m0 + 3, m0 + 4).ok();
        for (k, &n) in vgprs.iter().enumerate() {
            let word = HEADER_WORDS + k as u32 * ws;
            if n < self.grf_vgprs {
                writeln!(
                    out,
                    "    st[sb + {word}u + lane] = atomicLoad(&grf[{}u + lane]);",
                    n * ws
                )
                .ok();
            } else {
                writeln!(out, "    st[sb + {word}u + lane] = v[{k}];").ok();
            }
        }
        out.push_str("}\n");
        (out, vgprs)
    }
}

/// The data format's component layout as WGSL `vec4<u32>` constants (lo bits,
/// widths), from the Rust table.
pub(crate) fn component_layout(df: &format::DataFormat) -> (String, String) {
    let lo: Vec<String> = (0..4)
        .map(|i| format!("{}u", df.comps.get(i).map_or(0, |c| c.0)))
        .collect();
    let w: Vec<String> = (0..4)
        .map(|i| format!("{}u", df.comps.get(i).map_or(0, |c| c.1)))
        .collect();
    (
        format!("vec4<u32>({})", lo.join(", ")),
        format!("vec4<u32>({})", w.join(", ")),
    )
}
