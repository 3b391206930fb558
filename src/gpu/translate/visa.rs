//! WGSL for the GRF operations of lowered Intel vISA programs
//! ([`crate::ir::visa`]), a child module of `translate.rs`. Each operation is
//! the transcription of its case in `cpu::visa::execute`.
//!
//! **Typed at translation.** `cpu::visa` carries a value as a `Val` (float or
//! integer) and converts it by its type at run time. Which of the two every
//! operand is, and every type, is known here, so the functions below of the
//! same names as cpu::visa's (`decode`, `apply_mod`, `to_float`, `to_int`,
//! `encode`, `read_src`, `write_dst`, `alu`, `compare`) build WGSL
//! expressions from the typed pieces of `shaders/visa.wgsl`, and a module
//! holds only the conversions its instructions use: llvmpipe compiles every
//! inlined path, so a generic run-time `Val` made 60 moves take seconds.
//!
//! **Where the GRF lives.** Regions read across channels (a `<0;1,0>`
//! broadcast, the rows of another half), so the thread's GRF cannot be the
//! invocations' private VGPR slots: it is a `var<workgroup>` array of dwords
//! (`grf`), loaded from the wave state at entry and written back at the end.
//! Every operation reads all its sources before it writes (a destination may
//! overlap a source, as on the CPU), and a `workgroupBarrier()` separates
//! any two accesses of different channels to overlapping bytes where one is
//! a write: [`Sync`] tracks the bytes read and written since the last barrier
//! and puts one in only where such a hazard exists (control flow is uniform:
//! `IfActive` regions and loops decide through `workgroupUniformLoad`, itself
//! a barrier, and a loop's later trips start after its end's). The synthesised MIMG's address and result VGPRs
//! (from [`Staging::addr`](crate::ir::visa::Staging::addr)) lie above the GRF, so they stay private per lane; the
//! staging and scatter operations copy between the two. Predicates are SGPRs
//! in the private `s` array, identical in every invocation: `cmp` into a
//! predicate and `setp` are computed whole by every invocation.
//! docs/gpu.md, "Intel vISA programs".

use super::alu_call::{self, Pair};
use super::{err, Emitter, TranslateError, BUDGET_FAULT};
use crate::ir::alu::{AluFn, Family, Ty, Unit};
use crate::ir::visa::{
    AddrSlot, Channels, CmpDst, ElemType, GrfDst, GrfSrc, InfoValue, PredCtrl, PredUse, Region,
    SrcMod, VisaOp, DISPATCH_SGPR, GRF_VGPRS, INTEL_MODE, MAX_BACK_JUMPS, OFF_SGPR, RETURNED_SGPR,
    THREAD_LANES,
};
use crate::ir::Op;
use std::fmt::Write as _;

/// `shaders/visa.wgsl`: the typed pieces of `cpu::visa`.
pub(super) const GRF: &str = include_str!("../../../shaders/visa.wgsl");
/// `shaders/cube.wgsl`: Intel cube directions → the sampler's cube address
/// (`texture::sample::cube_direction`), in modules that stage cube coordinates.
const CUBE: &str = include_str!("../../../shaders/cube.wgsl");

/// Workgroup memory every adapter grants (WebGPU's
/// `maxComputeWorkgroupStorageSize` default).
const WORKGROUP_BYTES: u32 = 16_384;
/// What the GRF may take of it: the sampler's quad exchange (32 × 16 bytes)
/// and the fault word need the rest.
const GRF_WORKGROUP_BYTES: u32 = WORKGROUP_BYTES - 1024;

/// Predicate controls in the order of their `CTRL_*` codes.
const CTRL_CODES: [PredCtrl; 3] = [PredCtrl::None, PredCtrl::Any, PredCtrl::All];

/// The WGSL code of `x` in `table` (every variant is listed, so the position
/// always exists).
fn code<T: PartialEq>(table: &[T], x: T) -> u32 {
    table.iter().position(|t| *t == x).unwrap_or(0) as u32
}

#[derive(Clone, Debug, Default)]
pub(super) struct Sync {
    reads: Vec<(u32, u32)>,
    writes: Vec<(u32, u32)>,
}

fn overlaps(a: &[(u32, u32)], b: &[(u32, u32)]) -> bool {
    a.iter()
        .any(|&(s0, e0)| b.iter().any(|&(s1, e1)| s0 < e1 && s1 < e0))
}

/// A barrier when the coming reads `r` could see bytes written since the
/// last one; then records them.
fn before_read(e: &mut Emitter, r: &[(u32, u32)]) {
    if overlaps(r, &e.grf_sync.writes) {
        barrier(e);
    }
    e.grf_sync.reads.extend_from_slice(r);
}

/// A barrier when the coming writes `w` touch bytes read or written since
/// the last one (by possibly other channels); then records them.
fn before_write(e: &mut Emitter, w: &[(u32, u32)]) {
    if overlaps(w, &e.grf_sync.reads) || overlaps(w, &e.grf_sync.writes) {
        barrier(e);
    }
    e.grf_sync.writes.extend_from_slice(w);
}

fn barrier(e: &mut Emitter) {
    e.line("    workgroupBarrier();");
    e.grf_sync = Sync::default();
}

/// The byte range of a source's first `count` elements (none for an
/// immediate).
fn src_range(s: &GrfSrc, count: u32) -> Vec<(u32, u32)> {
    match s {
        GrfSrc::Region(r, _) => vec![(r.byte, r.end(count))],
        GrfSrc::Imm(..) => Vec::new(),
    }
}

fn srcs_range(srcs: &[GrfSrc], count: u32) -> Vec<(u32, u32)> {
    srcs.iter().flat_map(|s| src_range(s, count)).collect()
}

/// True when the program has GRF operations (a lowered vISA program).
pub(super) fn uses_grf(ops: &[(usize, &Op)]) -> bool {
    ops.iter().any(|(_, op)| matches!(op, Op::Visa(_)))
}

/// Declares the GRF of a module that runs GRF operations: the workgroup
/// array over the VGPRs the program touches (whose state slots the runtime
/// then loads and stores), the vote word and the library. Refuses a wave that
/// is not one Intel thread and a GRF larger than every adapter's workgroup
/// memory.
pub(super) fn prepare(e: &mut Emitter, ops: &[(usize, &Op)]) -> Result<(), TranslateError> {
    if e.wave_size != THREAD_LANES {
        return Err(err(
            0,
            format!(
                "Intel vISA GRF operations need wave32 waves (one Intel thread), not wave{}",
                e.wave_size
            ),
        ));
    }
    let mut end = 0u32;
    for &(offset, op) in ops {
        if let Op::Visa(g) = op {
            let x = g.grf_end();
            if x > GRF_VGPRS * THREAD_LANES * 4 {
                return Err(err(offset, "a GRF operand lies past the GRF file"));
            }
            end = end.max(x);
        }
    }
    let vgprs = end.div_ceil(THREAD_LANES * 4);
    let bytes = vgprs * THREAD_LANES * 4;
    if bytes > GRF_WORKGROUP_BYTES {
        return Err(err(
            0,
            format!(
                "the program's GRF needs {bytes} bytes of workgroup memory on the GPU; every adapter grants {GRF_WORKGROUP_BYTES} of them for it (docs/gpu.md, \"Intel vISA programs\")"
            ),
        ));
    }
    for n in 0..vgprs {
        e.v(n);
    }
    e.grf_vgprs = vgprs;
    let words = (vgprs * THREAD_LANES).max(1);
    writeln!(
        e.decls,
        "\n// The Intel thread's GRF: the first {vgprs} VGPRs of every lane, dword d = v[d / 32] of lane d % 32.\nconst GRF_WORDS: u32 = {words}u;\nvar<workgroup> grf: array<atomic<u32>, {words}>;\n// u32::MAX minus the first faulting operation's offset of any lane (0: none).\nvar<workgroup> grf_fault: atomic<u32>;\n// The active channels, published by lane 0 for `workgroupUniformLoad` (IfActive; EndLoop's decision).\nvar<workgroup> grf_active: u32;\n// Backward jumps taken by the thread (EndLoop's jump budget).\nvar<private> loop_jumps: u32;"
    )
    .ok();
    e.decls.push_str(GRF);
    // The shared ALU library, for modules that compute (one ALU semantics
    // with the AMD programs: cpu::visa runs cpu::alu::eval); the f32 half
    // only where a float is computed.
    let funcs: Vec<AluFn> = ops
        .iter()
        .filter_map(|(_, op)| match op {
            Op::Visa(g) => match **g {
                VisaOp::Alu { func, .. } | VisaOp::Cmp { func, .. } => Some(func),
                _ => None,
            },
            _ => None,
        })
        .collect();
    if !funcs.is_empty() {
        e.decls.push('\n');
        e.decls.push_str(&alu_call::family_consts());
        e.decls.push_str(alu_call::ALU_INT);
        if funcs.iter().any(|f| f.ty == Ty::F32) {
            if !e.decls.contains(alu_call::FMA) {
                e.decls.push_str(alu_call::FMA);
            }
            e.decls.push_str(alu_call::ALU_F32);
        }
    }
    if ops
        .iter()
        .any(|(_, op)| matches!(op, Op::Visa(g) if matches!(**g, VisaOp::StageCube { .. })))
    {
        e.decls.push_str(CUBE);
    }
    Ok(())
}

/// A value as a WGSL expression (cpu::visa::Val): f32 bits (`u32`) or an
/// i64 (`vec2<u32>`).
#[derive(Clone, Debug, PartialEq)]
enum Val {
    Float(String),
    Int(String),
}

/// How the elements of an access lie in the GRF's dwords.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fit {
    /// Every element inside one dword (`grf_part`).
    Within,
    /// Every element is two whole dwords (64-bit, dword-aligned).
    Pair,
    /// Anywhere (byte by byte).
    Bytes,
}

/// The fit of `n`-byte elements at the GRF bytes `at`.
fn fit(n: u32, at: impl IntoIterator<Item = u32>) -> Fit {
    let at: Vec<u32> = at.into_iter().collect();
    if n <= 4 && at.iter().all(|b| b % 4 + n <= 4) {
        Fit::Within
    } else if n == 8 && at.iter().all(|b| b % 4 == 0) {
        Fit::Pair
    } else {
        Fit::Bytes
    }
}

/// The raw bits (`u32` for elements up to 4 bytes, else `vec2<u32>`) of an
/// `n`-byte element at GRF byte `b` (WaveState::grf_bits).
fn load(b: &str, n: u32, f: Fit) -> String {
    match (f, n) {
        (Fit::Within, _) => format!("grf_part({b}, {n}u)"),
        (Fit::Pair, _) => format!("vec2<u32>(grf_word(({b}) / 4u), grf_word(({b}) / 4u + 1u))"),
        (Fit::Bytes, 8) => format!("grf_bits({b}, 8u)"),
        (Fit::Bytes, _) => format!("grf_bits({b}, {n}u).x"),
    }
}

/// Writes the `n`-byte element `bits` (`vec2<u32>`) at GRF byte `b`
/// (WaveState::set_grf_bits), as a statement.
fn store(b: &str, n: u32, f: Fit, bits: &str) -> String {
    match f {
        Fit::Within => format!("set_grf_part({b}, {n}u, ({bits}).x);"),
        Fit::Pair => format!(
            "{{ let q = {bits}; set_grf_part(({b}), 4u, q.x); set_grf_part(({b}) + 4u, 4u, q.y); }}"
        ),
        Fit::Bytes => format!("set_grf_bits({b}, {n}u, {bits});"),
    }
}

/// decode: the value of raw bits (as [`load`] gives them) read as `ty`.
fn decode(bits: &str, ty: ElemType) -> Val {
    match ty {
        ElemType::F => Val::Float(bits.to_string()),
        ElemType::Hf => Val::Float(format!("decode_hf({bits})")),
        ElemType::Ud => Val::Int(format!("vec2<u32>({bits}, 0u)")),
        ElemType::D => Val::Int(format!("i64_from_i32({bits})")),
        ElemType::Uw => Val::Int(format!("vec2<u32>(({bits}) & 0xffffu, 0u)")),
        ElemType::W => Val::Int(format!(
            "i64_from_i32(bitcast<u32>(sign_extend({bits}, 16u)))"
        )),
        ElemType::Ub => Val::Int(format!("vec2<u32>(({bits}) & 0xffu, 0u)")),
        ElemType::B => Val::Int(format!(
            "i64_from_i32(bitcast<u32>(sign_extend({bits}, 8u)))"
        )),
        ElemType::Uq | ElemType::Q => Val::Int(bits.to_string()),
    }
}

/// The range of an integer type as two `vec2<u32>` constants
/// (cpu::visa::int_range, evaluated here).
fn int_range(ty: ElemType) -> (String, String) {
    let (lo, hi): (i64, i64) = match ty {
        ElemType::Ud => (0, i64::from(u32::MAX)),
        ElemType::D => (i64::from(i32::MIN), i64::from(i32::MAX)),
        ElemType::Uw => (0, i64::from(u16::MAX)),
        ElemType::W => (i64::from(i16::MIN), i64::from(i16::MAX)),
        ElemType::Ub => (0, i64::from(u8::MAX)),
        ElemType::B => (i64::from(i8::MIN), i64::from(i8::MAX)),
        ElemType::Uq => (0, i64::MAX),
        ElemType::Q | ElemType::F | ElemType::Hf => (i64::MIN, i64::MAX),
    };
    (i64_const(lo as u64), i64_const(hi as u64))
}

fn i64_const(v: u64) -> String {
    format!("vec2<u32>({}u, {}u)", v as u32, (v >> 32) as u32)
}

/// An f32 stored as `ty` (cpu::visa::float_bits), as `vec2<u32>`.
fn float_bits(f: &str, ty: ElemType) -> String {
    if ty == ElemType::Hf {
        format!("vec2<u32>(f32_to_f16({f}), 0u)")
    } else {
        format!("vec2<u32>({f}, 0u)")
    }
}

/// encode: `v` converted to `ty`'s bits (`vec2<u32>`).
fn encode(v: &Val, ty: ElemType, sat: bool) -> String {
    if ty.is_float() {
        let f = to_float(v);
        return float_bits(&if sat { format!("saturate({f})") } else { f }, ty);
    }
    let (lo, hi) = int_range(ty);
    match v {
        Val::Float(f) => format!("float_to_int({f}, {lo}, {hi})"),
        Val::Int(i) if sat => format!("i64_clamp({i}, {lo}, {hi})"),
        Val::Int(i) => i.clone(),
    }
}

/// apply_mod: on the sign bit for floats (Rust's `-f` and `f.abs()` are bit
/// operations), wrapping for integers.
fn apply_mod(v: Val, m: SrcMod) -> Val {
    match (v, m) {
        (v, SrcMod::None) => v,
        (Val::Float(f), SrcMod::Neg) => Val::Float(format!("({f} ^ 0x80000000u)")),
        (Val::Float(f), SrcMod::Abs) => Val::Float(format!("({f} & 0x7fffffffu)")),
        (Val::Float(f), SrcMod::NegAbs) => Val::Float(format!("({f} | 0x80000000u)")),
        (Val::Int(i), SrcMod::Neg) => Val::Int(format!("i64_neg({i})")),
        (Val::Int(i), SrcMod::Abs) => Val::Int(format!("i64_abs({i})")),
        (Val::Int(i), SrcMod::NegAbs) => Val::Int(format!("i64_neg(i64_abs({i}))")),
    }
}

fn to_float(v: &Val) -> String {
    match v {
        Val::Float(f) => f.clone(),
        Val::Int(i) => format!("i64_to_f32({i})"),
    }
}

fn to_int(v: &Val) -> String {
    match v {
        Val::Int(i) => i.clone(),
        Val::Float(f) => format!("f32_to_i64({f})"),
    }
}

/// read_src: element `i` (a WGSL expression) of a source, modifier applied.
fn read_src(s: &GrfSrc, i: &str, count: u32) -> Val {
    match *s {
        GrfSrc::Imm(bits, t) => {
            let raw = if t.bytes() == 8 {
                i64_const(bits)
            } else {
                format!("{}u", bits as u32)
            };
            decode(&raw, t)
        }
        GrfSrc::Region(r, m) => {
            let n = r.ty.bytes();
            let f = fit(n, (0..count.max(1)).map(|k| r.element(k)));
            let at = format!(
                "region_element({}u, {}u, {}u, {}u, {n}u, {i})",
                r.byte,
                r.vstride,
                r.width.max(1),
                r.hstride
            );
            apply_mod(decode(&load(&at, n, f), r.ty), m)
        }
    }
}

/// Binds a value to a WGSL `let` so that it is computed once.
fn bind(e: &mut Emitter, name: &str, v: Val, indent: &str) -> Val {
    match v {
        Val::Float(x) => {
            e.line(&format!("{indent}let {name} = {x};"));
            Val::Float(name.into())
        }
        Val::Int(x) => {
            e.line(&format!("{indent}let {name} = {x};"));
            Val::Int(name.into())
        }
    }
}

/// write_dst: element `i` of a destination, as a statement.
fn write_dst(d: &GrfDst, byte: u32, count: u32, bits: &str) -> String {
    let n = d.ty.bytes();
    let step = d.hstride * n;
    let f = fit(n, (0..count.max(1)).map(|k| byte + k * step));
    store(&format!("{byte}u + i * {step}u"), n, f, bits)
}

/// src0 of a right shift at its own width (`width` bytes), zero- or
/// sign-extended (cpu::visa::shift).
fn extend(a: &str, width: u32, signed: bool) -> String {
    match (width, signed) {
        (8, _) => a.to_string(),
        (4, false) => format!("vec2<u32>(({a}).x, 0u)"),
        (4, true) => format!("i64_from_i32(({a}).x)"),
        (n, false) => format!("vec2<u32>(({a}).x & {}u, 0u)", (1u32 << (8 * n)) - 1),
        (n, true) => format!(
            "i64_from_i32(bitcast<u32>(sign_extend(({a}).x, {}u)))",
            8 * n
        ),
    }
}

/// alu's value for one channel (cpu::visa::alu_value): the bound sources
/// as the execution type's inputs (a right shift's src0 at its own width,
/// `src0_bytes`; every count masked to the destination's width), the shared
/// ALU library's call, its result as a value. `sel` is the caller's: its
/// sources are converted to the destination type first.
fn alu(e: &mut Emitter, func: AluFn, vals: &[Val], src0_bytes: u32, dst: ElemType) -> Val {
    let float = func.ty == Ty::F32;
    let shift = matches!(func.family, Family::Shl | Family::Lshr | Family::Ashr);
    let mask = if dst.bytes() == 8 { 63 } else { 31 };
    let mut x: [Pair; 3] = Default::default();
    for (k, v) in vals.iter().enumerate() {
        x[k] = if float {
            (to_float(v), "0u".into())
        } else {
            let mut i = to_int(v);
            if k == 0 && matches!(func.family, Family::Lshr | Family::Ashr) {
                i = extend(&i, src0_bytes, func.family == Family::Ashr);
            }
            if k == 1 && shift {
                i = format!("vec2<u32>(({i}).x & {mask}u, 0u)");
            }
            e.line(&format!("        let x{k} = {i};"));
            (format!("x{k}.x"), format!("x{k}.y"))
        };
    }
    for slot in x.iter_mut().skip(vals.len()) {
        *slot = ("0u".into(), "0u".into());
    }
    let call = alu_call::call(func, Unit::Vector, &intel_mode(), &x, "false");
    e.line(&format!("        let y = {call};"));
    if float {
        Val::Float("y.x".into())
    } else {
        Val::Int("y.xy".into())
    }
}

/// The MODE the shared ALU library computes Intel operations under
/// ([`INTEL_MODE`]), as a WGSL constant.
fn intel_mode() -> String {
    format!("{INTEL_MODE}u")
}

/// compare (cpu::visa::compare): the shared compare's bit on two bound
/// sources.
fn compare(func: AluFn, a: &Val, b: &Val) -> String {
    let x: [Pair; 3] = if func.ty == Ty::F32 {
        [
            (to_float(a), "0u".into()),
            (to_float(b), "0u".into()),
            ("0u".into(), "0u".into()),
        ]
    } else {
        let (a, b) = (to_int(a), to_int(b));
        [
            (format!("({a}).x"), format!("({a}).y")),
            (format!("({b}).x"), format!("({b}).y")),
            ("0u".into(), "0u".into()),
        ]
    };
    let call = alu_call::call(func, Unit::Vector, &intel_mode(), &x, "false");
    format!("({call}.z != 0u)")
}

/// The active channels (cpu::visa::active): dispatched and not off.
fn active_expr(e: &mut Emitter, offset: usize) -> Result<String, TranslateError> {
    let d = sgpr(e, offset, DISPATCH_SGPR)?;
    let off = sgpr(e, offset, OFF_SGPR)?;
    Ok(format!("({d} & ~{off})"))
}

/// cpu::visa::uniform_pred: the predicate's bit for the first channel.
fn uniform_pred_expr(
    e: &mut Emitter,
    offset: usize,
    ch: &Channels,
) -> Result<String, TranslateError> {
    Ok(match ch.pred {
        None => "true".into(),
        Some(p) => format!(
            "(pred_bit({}, {}u) != {})",
            sgpr(e, offset, p.sgpr)?,
            ch.first,
            p.invert
        ),
    })
}

/// The channels a `goto` moves (cpu::visa::execute, `Goto`/`BackGoto`): all
/// active ones when `uniform` and its predicate holds for the first channel,
/// else those it enables.
fn taking_expr(
    e: &mut Emitter,
    offset: usize,
    ch: &Channels,
    uniform: bool,
) -> Result<String, TranslateError> {
    if uniform {
        let p = uniform_pred_expr(e, offset, ch)?;
        let active = active_expr(e, offset)?;
        Ok(format!("select(0u, {active}, {p})"))
    } else {
        enabled_expr(e, offset, ch)
    }
}

/// `enabled(...)` of `ch` (cpu::visa::enabled).
fn enabled_expr(e: &mut Emitter, offset: usize, ch: &Channels) -> Result<String, TranslateError> {
    let dispatch = active_expr(e, offset)?;
    let (has, pred, invert, ctrl) = match ch.pred {
        None => (false, "0u".to_string(), false, PredCtrl::None),
        Some(p) => (true, sgpr(e, offset, p.sgpr)?, p.invert, p.ctrl),
    };
    Ok(format!(
        "enabled({}u, {}u, {}, {dispatch}, {has}, {pred}, {invert}, {}u)",
        ch.first,
        ch.size,
        ch.no_mask,
        code(&CTRL_CODES, ctrl)
    ))
}

/// The private slot of SGPR `n`.
fn sgpr(e: &mut Emitter, offset: usize, n: u32) -> Result<String, TranslateError> {
    e.s(n)
        .ok_or_else(|| err(offset, format!("SGPR {n} lies past the SGPR file")))
}

/// `let en`, `let i` (the element of this lane's channel) and `let act`.
fn channel_prologue(e: &mut Emitter, offset: usize, ch: &Channels) -> Result<(), TranslateError> {
    let en = enabled_expr(e, offset, ch)?;
    e.line(&format!("    let en = {en};"));
    e.line(&format!("    let i = lane - {}u;", ch.first));
    e.line("    let act = ((en >> lane) & 1u) == 1u;");
    Ok(())
}

/// Emits one GRF operation (cpu::visa::execute).
pub(super) fn emit(e: &mut Emitter, offset: usize, op: &VisaOp) -> Result<(), TranslateError> {
    writeln!(e.body, "    // line {offset}: {}", describe(op)).ok();
    match op {
        VisaOp::IfActive => {
            // Every invocation holds the same SGPRs, but WGSL's uniformity
            // analysis cannot know it, and the region may hold barriers: the
            // condition goes through workgroupUniformLoad (a barrier, so the
            // access record starts afresh; at the region's end it is a
            // superset of what ran).
            let active = active_expr(e, offset)?;
            e.line(&format!("if lane == 0u {{ grf_active = {active}; }}"));
            e.line("if workgroupUniformLoad(&grf_active) != 0u {");
            e.grf_sync = Sync::default();
            return Ok(());
        }
        VisaOp::EndIfActive => {
            e.line("}");
            return Ok(());
        }
        VisaOp::Loop => {
            // The GRF accesses of a later trip follow the barrier of the
            // loop's end; the first trip's follow those before the loop,
            // which the access record still holds.
            e.loop_starts.push(e.index);
            e.line("loop {");
            return Ok(());
        }
        VisaOp::EndLoop { again } => {
            // cpu::run_wave_limited: again, within the jump budget, then
            // within the wave's share of the work budget (the body again:
            // from the op after `Loop` to this one). Lane 0 decides (0
            // leave, 1 again, 2 past the jump budget, 3 past the work
            // budget) and publishes it through workgroupUniformLoad, so
            // that the `break` is uniform.
            let start = e
                .loop_starts
                .pop()
                .ok_or_else(|| err(offset, "a loop end without its start"))?;
            let (over, charge) = e.jump_budget((e.index - start) as u64);
            let a = sgpr(e, offset, *again)?;
            let off = sgpr(e, offset, OFF_SGPR)?;
            let ret = sgpr(e, offset, RETURNED_SGPR)?;
            e.line(&format!(
                "if lane == 0u {{ grf_active = select(0u, select(select(1u, 3u, {over}), 2u, loop_jumps == {MAX_BACK_JUMPS}u), {a} != 0u); }}"
            ));
            e.line("let go = workgroupUniformLoad(&grf_active);");
            e.line(&format!("{a} = 0u;"));
            e.line("if go == 0u { break; }");
            // Past a budget: the run fails naming the branch (the jump
            // budget) or the launch's budget; the thread ends so that
            // nothing else runs.
            e.line(&format!(
                "if go == 2u {{ fault = select(fault, {offset}u, fault == 0u); {off} = 0xffffffffu; {ret} = 0xffffffffu; break; }}"
            ));
            e.line(&format!(
                "if go == 3u {{ fault = select(fault, {BUDGET_FAULT}u, fault == 0u); {off} = 0xffffffffu; {ret} = 0xffffffffu; break; }}"
            ));
            e.line("loop_jumps = loop_jumps + 1u;");
            e.line(&charge);
            e.line("}");
            e.faults.insert(offset, format!("the thread would take more than {MAX_BACK_JUMPS} backward jumps: a loop that may never end (the jump budget, docs/semantics.md)"));
            e.grf_sync = Sync::default();
            return Ok(());
        }
        _ => {}
    }
    e.line("{");
    match op {
        VisaOp::Alu {
            func,
            sat,
            ch,
            select,
            dst,
            srcs,
        } => emit_alu(e, offset, *func, *sat, ch, *select, dst, srcs)?,
        VisaOp::Cmp {
            func,
            ch,
            dst,
            srcs,
        } => emit_cmp(e, offset, *func, ch, dst, srcs)?,
        VisaOp::Setp { ch, sgpr: p, src } => {
            before_read(e, &src_range(src, 1));
            let en = enabled_expr(e, offset, ch)?;
            let place = sgpr(e, offset, *p)?;
            // The low bits of element 0's integer value or f32 bits.
            let bits = match read_src(src, "0u", 1) {
                Val::Float(f) => f,
                Val::Int(i) => format!("({i}).x"),
            };
            e.line(&format!(
                "    {place} = setp({place}, {en}, {}u, {}u, {bits});",
                ch.first, ch.size
            ));
        }
        VisaOp::StageAddress {
            first,
            size,
            slots,
            staging,
        } => {
            emit_stage(e, *first, *size, slots, staging.addr);
        }
        VisaOp::StageCube {
            first,
            size,
            params,
            at,
            staging,
        } => emit_stage_cube(e, *first, *size, params, staging.addr + at),
        VisaOp::SetExec { ch } => {
            let en = enabled_expr(e, offset, ch)?;
            e.write_exec(&en, "0u");
        }
        VisaOp::Resinfo {
            first,
            size,
            values,
            staging,
        } => {
            // cpu::visa: the lanes EXEC enables, from and to the private
            // address and result VGPRs (no GRF access).
            let lod = e.v_read(staging.addr);
            e.line(&format!(
                "    if lane >= {first}u && lane < {}u && ((exec_lo >> lane) & 1u) == 1u {{",
                first + size
            ));
            for (k, v) in values.iter().enumerate() {
                let value = match v {
                    InfoValue::Const(c) => format!("{c}u"),
                    InfoValue::Shifted(size) => format!("resinfo_shift({size}u, {lod})"),
                };
                if let Some(place) = e.v(staging.data + k as u32) {
                    e.line(&format!("        {place} = {value};"));
                }
            }
            e.line("    }");
        }
        VisaOp::Goto { ch, uniform, wait } => {
            let taking = taking_expr(e, offset, ch, *uniform)?;
            let w = sgpr(e, offset, *wait)?;
            let off = sgpr(e, offset, OFF_SGPR)?;
            e.line(&format!("    let taking = {taking};"));
            e.line(&format!("    {w} = {w} | taking;"));
            e.line(&format!("    {off} = {off} | taking;"));
        }
        VisaOp::BackGoto {
            ch,
            uniform,
            wait,
            again,
        } => {
            let taking = taking_expr(e, offset, ch, *uniform)?;
            let active = active_expr(e, offset)?;
            let w = sgpr(e, offset, *wait)?;
            let off = sgpr(e, offset, OFF_SGPR)?;
            let a = sgpr(e, offset, *again)?;
            e.line(&format!("    let taking = {taking};"));
            e.line(&format!(
                "    if taking != 0u {{ let parked = {active} & ~taking; {w} = {w} | parked; {off} = {off} | parked; }}"
            ));
            e.line(&format!("    {a} = select(0u, 1u, taking != 0u);"));
        }
        VisaOp::Join { wait } => {
            let w = sgpr(e, offset, *wait)?;
            let off = sgpr(e, offset, OFF_SGPR)?;
            let ret = sgpr(e, offset, RETURNED_SGPR)?;
            e.line(&format!("    {off} = {off} & ~({w} & ~{ret});"));
            e.line(&format!("    {w} = 0u;"));
        }
        VisaOp::Ret { ch, uniform } => {
            let off = sgpr(e, offset, OFF_SGPR)?;
            let ret = sgpr(e, offset, RETURNED_SGPR)?;
            let d = sgpr(e, offset, DISPATCH_SGPR)?;
            if *uniform {
                let p = uniform_pred_expr(e, offset, ch)?;
                e.line(&format!("    let end = {p};"));
            } else {
                let en = enabled_expr(e, offset, ch)?;
                e.line(&format!("    let r = {en};"));
                e.line(&format!("    {off} = {off} | r;"));
                e.line(&format!("    {ret} = {ret} | r;"));
                e.line(&format!("    let end = ({d} & ~{ret}) == 0u;"));
            }
            // The thread ends: every channel returned and off.
            e.line(&format!(
                "    if end {{ {off} = 0xffffffffu; {ret} = 0xffffffffu; }}"
            ));
        }
        VisaOp::IfActive | VisaOp::EndIfActive | VisaOp::Loop | VisaOp::EndLoop { .. } => {}
        VisaOp::ScatterResult {
            first,
            size,
            byte,
            ty: t,
            count,
            block,
            integer,
            null_mask,
            staging,
        } => {
            e.line(&format!(
                "    let act = lane >= {first}u && lane < {}u && ((exec_lo >> lane) & 1u) == 1u;",
                first + size
            ));
            e.line(&format!("    let i = lane - {first}u;"));
            let n = t.bytes();
            let values: Vec<String> = (0..*count).map(|k| e.v_read(staging.data + k)).collect();
            let data = byte + count.saturating_sub(1) * block + size * n;
            before_write(e, &[(*byte, data)]);
            e.line("    if act {");
            for (k, raw) in values.iter().enumerate() {
                // Results are f32 bits for float formats (converted to the
                // destination type) and 32-bit integers for integer formats.
                let bits = if *integer {
                    format!("vec2<u32>({raw}, 0u)")
                } else {
                    encode(&Val::Float(raw.clone()), *t, false)
                };
                let at = byte + k as u32 * block;
                let f = fit(n, (0..*size).map(|j| at + j * n));
                e.line(&format!(
                    "        {}",
                    store(&format!("{at}u + i * {n}u"), n, f, &bits)
                ));
            }
            e.line("    }");
            if let Some(b) = null_mask {
                // No null pages are modelled: every pixel's bit is 1
                // (cpu::visa). Written after the data, as on the CPU.
                before_write(e, &[(*b, b + 4)]);
                e.line(&format!(
                    "    if lane == 0u && (exec_lo & range_mask({first}u, {size}u)) != 0u {{ set_grf_bits({b}u, 4u, vec2<u32>(range_mask(0u, {size}u), 0u)); }}"
                ));
            }
        }
        VisaOp::StoreScaled {
            ch,
            base,
            bytes,
            global,
            offsets,
            src,
            mask,
            block,
        } => emit_store_scaled(
            e,
            offset,
            ch,
            (*base, *bytes),
            global,
            offsets,
            *src,
            *mask,
            *block,
        )?,
    }
    e.line("}");
    Ok(())
}

/// StageAddress: every channel of the range (enabled or not) copies its
/// parameters into the private address VGPRs from `addr`.
fn emit_stage(e: &mut Emitter, first: u32, size: u32, slots: &[AddrSlot], addr: u32) {
    let reads: Vec<(u32, u32)> = slots.iter().flat_map(|s| s.reads(size)).collect();
    before_read(e, &reads);
    e.line(&format!(
        "    if lane >= {first}u && lane < {}u {{",
        first + size
    ));
    e.line(&format!("        let i = lane - {first}u;"));
    for (k, s) in slots.iter().enumerate() {
        let value = slot_value(s, size);
        if let Some(place) = e.v(addr + k as u32) {
            e.line(&format!("        {place} = {value};"));
        }
    }
    e.line("    }");
}

/// Channel `i`'s value of an address slot (cpu::visa's `slot_value`).
fn slot_value(s: &AddrSlot, size: u32) -> String {
    let element = |byte: u32, t: ElemType| {
        let n = t.bytes();
        let f = fit(n, (0..size).map(|j| byte + j * n));
        decode(&load(&format!("{byte}u + i * {n}u"), n, f), t)
    };
    // The low 32 bits of an integer parameter's value.
    let int = |(byte, t): (u32, ElemType)| format!("{}.x", to_int(&element(byte, t)));
    // The raw bits of a region's element (cpu::visa::region_bits).
    let raw = |r: &Region| {
        let n = r.ty.bytes().min(4);
        let f = fit(n, (0..size).map(|j| r.element(j)));
        let at = format!(
            "region_element({}u, {}u, {}u, {}u, {}u, i)",
            r.byte,
            r.vstride,
            r.width.max(1),
            r.hstride,
            r.ty.bytes()
        );
        load(&at, n, f)
    };
    match *s {
        AddrSlot::Const(c) => format!("{c}u"),
        AddrSlot::Float { byte, ty: t } => to_float(&element(byte, t)),
        // The low 32 bits of the integer value, plus the offset.
        AddrSlot::Int { byte, ty: t, add } => {
            format!("({} + {}u)", int((byte, t)), add as u32)
        }
        AddrSlot::IntAoff {
            param,
            ref aoffimmi,
            shift,
        } => format!(
            "({} + intel_offset_field({}, {shift}u))",
            param.map_or("0u".to_string(), int),
            raw(aoffimmi)
        ),
        AddrSlot::OffsetDword {
            ref aoffimmi,
            offu,
            offv,
        } => {
            let a = aoffimmi.as_ref().map_or("0u".to_string(), &raw);
            let po = |p: Option<(u32, ElemType)>| p.map_or("0u".to_string(), int);
            format!(
                "amd_offset_dword(intel_offset_field({a}, 8u) + {}, intel_offset_field({a}, 4u) + {}, intel_offset_field({a}, 0u))",
                po(offu),
                po(offv)
            )
        }
        AddrSlot::SampleIndex { si, lod, last } => format!(
            "ms_sample_index({}, {}, {last}u)",
            si.map_or("0u".to_string(), int),
            lod.map_or("0u".to_string(), int)
        ),
    }
}

/// StageCube: every channel of the range converts its direction and cube
/// index (`cube_address`, shaders/cube.wgsl) into three address VGPRs from
/// `at`.
fn emit_stage_cube(e: &mut Emitter, first: u32, size: u32, params: &[AddrSlot; 4], at: u32) {
    let reads: Vec<(u32, u32)> = params.iter().flat_map(|s| s.reads(size)).collect();
    before_read(e, &reads);
    e.line(&format!(
        "    if lane >= {first}u && lane < {}u {{",
        first + size
    ));
    e.line(&format!("        let i = lane - {first}u;"));
    let [x, y, z, ai] = params.map(|s| slot_value(&s, size));
    e.line(&format!(
        "        let cube_at = cube_address({x}, {y}, {z}, {ai});"
    ));
    for k in 0..3u32 {
        if let Some(place) = e.v(at + k) {
            let c = ["x", "y", "z"][k as usize];
            e.line(&format!("        {place} = cube_at.{c};"));
        }
    }
    e.line("    }");
}

#[allow(clippy::too_many_arguments)]
fn emit_alu(
    e: &mut Emitter,
    offset: usize,
    func: AluFn,
    sat: bool,
    ch: &Channels,
    select: Option<PredUse>,
    dst: &GrfDst,
    srcs: &[GrfSrc],
) -> Result<(), TranslateError> {
    let needed = func.signature().inputs.iter().flatten().count();
    let Some(srcs) = srcs.get(..needed) else {
        return Err(err(
            offset,
            format!("`{}`: missing source", func.wgsl_name()),
        ));
    };
    let Some(byte) = dst.byte else {
        // `%null`: the values are dropped and reading has no effect.
        e.line("    // %null destination: nothing to write");
        return Ok(());
    };
    before_read(e, &srcs_range(srcs, ch.size));
    channel_prologue(e, offset, ch)?;
    e.line("    var r = vec2<u32>(0u, 0u);");
    e.line("    if act {");
    let names = ["a", "b", "c"];
    let vals: Vec<Val> = srcs
        .iter()
        .zip(names)
        .map(|(s, n)| bind(e, n, read_src(s, "i", ch.size), "        "))
        .collect();
    let value = if func.family == Family::Select {
        // sel: the predicate picks src0 (bit set) or src1 on every enabled
        // channel, each converted to the destination type first (the two
        // may differ in kind).
        let take_a = match select {
            None => "true".to_string(),
            Some(p) => format!(
                "pred_bit({}, lane) != {}",
                sgpr(e, offset, p.sgpr)?,
                p.invert
            ),
        };
        e.line(&format!(
            "        let x0 = {};",
            encode(&vals[0], dst.ty, sat)
        ));
        e.line(&format!(
            "        let x1 = {};",
            encode(&vals[1], dst.ty, sat)
        ));
        let x: [Pair; 3] = [
            ("x0.x".into(), "x0.y".into()),
            ("x1.x".into(), "x1.y".into()),
            ("0u".into(), "0u".into()),
        ];
        let mode = format!("{INTEL_MODE}u");
        format!(
            "{}.xy",
            alu_call::call(func, Unit::Vector, &mode, &x, &take_a)
        )
    } else {
        let width = srcs[0].ty().bytes();
        let v = alu(e, func, &vals, width, dst.ty);
        encode(&v, dst.ty, sat)
    };
    e.line(&format!("        r = {value};"));
    e.line("    }");
    before_write(e, &[(byte, dst.end(ch.size))]);
    e.line(&format!(
        "    if act {{ {} }}",
        write_dst(dst, byte, ch.size, "r")
    ));
    Ok(())
}

fn emit_cmp(
    e: &mut Emitter,
    offset: usize,
    func: AluFn,
    ch: &Channels,
    dst: &CmpDst,
    srcs: &[GrfSrc; 2],
) -> Result<(), TranslateError> {
    before_read(e, &srcs_range(srcs, ch.size));
    match dst {
        CmpDst::Pred(p) => {
            // Every invocation computes every channel's bit, so that the
            // predicate is the same in all of them without a vote.
            let place = sgpr(e, offset, *p)?;
            let en = enabled_expr(e, offset, ch)?;
            e.line(&format!("    let en = {en};"));
            e.line("    var bits = 0u;");
            e.line(&format!(
                "    for (var i = 0u; i < {}u; i = i + 1u) {{",
                ch.size
            ));
            e.line(&format!("        let c = {}u + i;", ch.first));
            e.line("        if c < 32u && ((en >> c) & 1u) == 1u {");
            let a = bind(e, "a", read_src(&srcs[0], "i", ch.size), "            ");
            let b = bind(e, "b", read_src(&srcs[1], "i", ch.size), "            ");
            e.line(&format!(
                "            if {} {{ bits = bits | (1u << c); }}",
                compare(func, &a, &b)
            ));
            e.line("        }");
            e.line("    }");
            e.line(&format!("    {place} = ({place} & ~en) | bits;"));
        }
        CmpDst::Grf(d) => {
            let Some(byte) = d.byte else {
                e.line("    // %null destination: nothing to write");
                return Ok(());
            };
            channel_prologue(e, offset, ch)?;
            e.line("    var t = false;");
            e.line("    if act {");
            let a = bind(e, "a", read_src(&srcs[0], "i", ch.size), "        ");
            let b = bind(e, "b", read_src(&srcs[1], "i", ch.size), "        ");
            e.line(&format!("        t = {};", compare(func, &a, &b)));
            e.line("    }");
            before_write(e, &[(byte, d.end(ch.size))]);
            // All ones (true) or zero in the destination type's width.
            e.line(&format!(
                "    if act {{ {} }}",
                write_dst(
                    d,
                    byte,
                    ch.size,
                    "select(vec2<u32>(0u, 0u), vec2<u32>(0xffffffffu, 0xffffffffu), t)"
                )
            ));
        }
    }
    Ok(())
}

/// `scatter4_scaled` (cpu::visa::store_scaled): each enabled channel's
/// enabled colour channels to the buffer, one dword each, dropped unless
/// wholly inside the buffer; an address that is not dword-aligned records a
/// fault (translate::FAULT_WORD), which the run reports as the CPU would.
#[allow(clippy::too_many_arguments)]
fn emit_store_scaled(
    e: &mut Emitter,
    offset: usize,
    ch: &Channels,
    (base, bytes): (u64, u64),
    global: &GrfSrc,
    offsets: &Region,
    src: u32,
    mask: u8,
    block: u32,
) -> Result<(), TranslateError> {
    let mem_base = e.mem.base;
    let mem_end = mem_base + e.mem.bytes.len() as u64;
    // Byte offset of the buffer in the image-memory binding; the whole buffer
    // lies inside it (the launch places it there), so no sum below wraps.
    let rel = base
        .checked_sub(mem_base)
        .filter(|r| r.saturating_add(bytes) <= mem_end - mem_base)
        .filter(|r| r.saturating_add(bytes) < u64::from(u32::MAX))
        .ok_or_else(|| {
            err(
                offset,
                "scatter4_scaled: the buffer does not lie inside image memory",
            )
        })?;
    let channels = u32::from(mask & 0xf).count_ones();
    let mut reads = src_range(global, 1);
    reads.push((offsets.byte, offsets.end(ch.size)));
    reads.push((src, src + channels * block + 4 * ch.size));
    before_read(e, &reads);
    channel_prologue(e, offset, ch)?;
    e.line("    if act {");
    e.line(&format!(
        "        let g = {}.x;",
        to_int(&read_src(global, "0u", 1))
    ));
    // The per-channel byte offsets are UD.
    let off = read_src(&GrfSrc::Region(*offsets, SrcMod::None), "i", ch.size);
    e.line(&format!("        let a = g + {}.x;", to_int(&off)));
    e.line(&format!(
        "        if a % 4u != 0u {{ fault = select(fault, {offset}u, fault == 0u); }}"
    ));
    e.faults.insert(
        offset,
        "scatter4_scaled: a byte address of an enabled channel is not dword-aligned".into(),
    );
    let mut pos = 0;
    for c in 0..4u64 {
        if mask >> c & 1 == 0 {
            continue;
        }
        // addr + 4 <= bytes with addr = a + 4c, as a bound on a.
        if let Some(limit) = bytes.checked_sub(4 + 4 * c) {
            e.line(&format!(
                "        if a % 4u == 0u && a <= {}u {{ atomicStore(&mem[({rel}u + a + {}u) / 4u], {}); }}",
                limit.min(u64::from(u32::MAX)),
                4 * c,
                load(&format!("{}u + 4u * i", src + pos * block), 4, Fit::Within)
            ));
        }
        pos += 1;
    }
    e.line("    }");
    e.line("    storageBarrier();");
    Ok(())
}

/// A one-line description of an operation for the WGSL comment.
fn describe(op: &VisaOp) -> String {
    match op {
        VisaOp::Alu { func, sat, .. } => {
            format!("{}{}", func.wgsl_name(), if *sat { ".sat" } else { "" })
        }
        VisaOp::Cmp { func, .. } => format!("cmp: {}", func.wgsl_name()),
        VisaOp::Setp { .. } => "setp".into(),
        VisaOp::StageAddress { .. } => "stage the address VGPRs".into(),
        VisaOp::StageCube { .. } => "cube direction → face address".into(),
        VisaOp::SetExec { .. } => "EXEC = channel enable".into(),
        VisaOp::Resinfo { .. } => "resinfo (Intel's table)".into(),
        VisaOp::Goto { .. } => "goto: channels wait at the label".into(),
        VisaOp::Join { .. } => "label: waiting channels rejoin".into(),
        VisaOp::Ret { .. } => "ret".into(),
        VisaOp::IfActive => "if any channel is active".into(),
        VisaOp::EndIfActive => "end if any channel is active".into(),
        VisaOp::Loop => "loop".into(),
        VisaOp::BackGoto { .. } => "backward goto: loop again if a channel takes it".into(),
        VisaOp::EndLoop { .. } => "end of loop".into(),
        VisaOp::ScatterResult { .. } => "scatter the results".into(),
        VisaOp::StoreScaled { .. } => "scatter4_scaled".into(),
    }
}
