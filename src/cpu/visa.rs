//! The GRF operations of lowered Intel vISA programs ([`crate::ir::visa`]) on
//! the CPU (docs/semantics/intel.md). The rules and their sources:
//!
//! - **Channel enable** (IGC `documentation/visa/5_operands.md`, ChEn): element
//!   `i` of an instruction `(Mk, N)` is channel `4(k-1) + i`; it executes when
//!   the dispatch mask has that channel (or `_NM`) and the masking predicate's
//!   bit for that channel is set (`!` inverts; `.any`/`.all` reduce the bits of
//!   the instruction's `N` channels to one value for all of them).
//! - **Types** (IGC `instructions/MOV.md`, "with type conversion"): the
//!   operation runs in floating point when any source is F or HF, else in
//!   64-bit integer arithmetic on the sign- or zero-extended sources. A float
//!   result to an integer destination rounds toward zero and saturates to the
//!   destination's range (NaN → 0); an integer result to an integer
//!   destination keeps its low bits (`.sat`: clamps to the range); to a float
//!   destination it rounds to nearest even. The operation itself is the
//!   shared ALU's ([`crate::cpu::alu::eval`], one semantics for AMD and Intel
//!   programs) on the execution type: float arithmetic is IEEE binary32 with
//!   round-to-nearest-even and denormals kept (what IGC's `or %cr0 0x4c0`
//!   selects: [`crate::ir::visa::INTEL_MODE`]; a NaN source gives the first
//!   NaN source quieted, an invalid operation the default NaN 0x7fc00000, the
//!   shared rule — IGC's pages give none); HF operands are widened exactly
//!   and HF results rounded to nearest even (binary32 holds every product
//!   and sum of two binary16 values with room for one correct rounding, so
//!   the result equals native HF arithmetic). `.sat` on a float clamps to [0, 1] (NaN → 0).
//! - **`sel`**: its predicate selects src0 (bit set) or src1, on every enabled
//!   channel (IGC `instructions/SEL.md`); it does not mask.
//! - **`cmp`** writes the enabled channels' predicate bits, or all ones / zero
//!   to a general destination (IGC `instructions/CMP.md`).
//! - **`shl`** shifts by the low 5 bits of src1 (6 for 64-bit destinations);
//!   so do **`shr`** (logical: src0 zero-extended from its own width) and
//!   **`asr`** (arithmetic: src0 sign-extended from its own width) (IGC
//!   `instructions/SHR.md`, `ASR.md`: the count's last 5, or 6 for a Q/UQ
//!   destination, bits).
//! - **`and` `or` `xor` `not`** are bitwise on the sign/zero-extended integer
//!   sources (IGC `AND.md`, `NOT.md`: integer types only).
//! - **`rndd` `rndu` `rnde` `rndz`** round an F value to an integral F value
//!   toward −∞, +∞, nearest-even, zero (the shared Floor, Ceil, Rndne, Trunc;
//!   IGC `RNDD.md`: `floor`). ±0, ±∞ and integral values are returned
//!   unchanged, a NaN quieted (IEEE 754 roundToIntegral), the sign of a
//!   result that rounds to zero kept (−0.3 → −0).
//! - **SIMD control flow** (IGC `GOTO.md`, `RET.md`): the active channels are
//!   the dispatch mask without `OFF_SGPR`. A `goto` moves the channels it
//!   enables from active to its label's wait mask; the label moves them back.
//!   Exec size 1 is a branch of the whole thread on the predicate's first
//!   bit. A `ret` retires the channels it enables; the thread ends when all
//!   have returned, or at a `ret` of exec size 1 whose predicate holds.
//!   While no channel is active the thread executes nothing (`_NM`
//!   instructions included) until a label where channels wait: the lowering
//!   brackets that code in `IfActive`/`EndIfActive` ([`crate::cpu::run_wave`]
//!   skips a region when [`any_active`] is false).
//! - **Loops** (IGC `GOTO.md`, backward jump: "execution jumps to the label
//!   if any active channel is predicated. The active channels that are not
//!   predicated will have their execution mask turned off, and they will be
//!   reactivated when execution reaches the next instruction"): a backward
//!   branch that some channel takes parks the other active channels at the
//!   instruction after it and runs the loop again with the takers; one that
//!   no channel takes (or that is skipped, no channel being active) falls
//!   through, and the parked channels rejoin there. A thread takes at most
//!   [`crate::ir::visa::MAX_BACK_JUMPS`] backward jumps; one more is an error
//!   naming the branch (a loop that never ends must not hang the run).

/// An Intel vISA operation the interpreter cannot execute as given.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VisaExecError {
    /// The shared ALU refused the function (the lowering chooses only
    /// functions it executes, so this names a lowering bug).
    #[error("{0}")]
    Alu(String),
    /// An operation with fewer sources than its function reads.
    #[error("missing source")]
    MissingSource,
    /// `scatter4_scaled` to a byte address that is not dword-aligned.
    #[error("scatter4_scaled: byte address {addr:#x} of channel {channel} is not dword-aligned")]
    Unaligned {
        /// The byte address.
        addr: u64,
        /// The channel.
        channel: u32,
    },
    /// A loop end without its start.
    #[error("a loop end without its start")]
    LoopEnd,
    /// A thread past the backward-jump budget.
    #[error("the thread would take more than {} backward jumps: a loop that may never end (the jump budget, docs/semantics.md)", crate::ir::visa::MAX_BACK_JUMPS)]
    BackJumps,
}

use crate::ir::alu::{AluFn, Family, Ty, Unit};
use crate::ir::visa::{
    grf_slot, AddrSlot, Channels, CmpDst, ElemType, GrfDst, GrfSrc, InfoValue, PredCtrl, Region,
    SrcMod, VisaOp, DISPATCH_SGPR, INTEL_MODE, OFF_SGPR, RETURNED_SGPR,
};
use crate::machine::{MemAccess, WaveState};
use crate::texture::convert::{f16_to_f32, f32_to_f16};
use crate::texture::sample::coord::{amd_offset_dword, intel_offset_field};
use crate::texture::sample::cube_direction::cube_address;

/// Element `i` of an address slot as the address dword: a constant, a float
/// parameter as f32 bits (HF widened), or an integer parameter's low 32 bits
/// plus its offset.
fn slot_value(w: &WaveState, s: &AddrSlot, i: u32) -> u32 {
    match *s {
        AddrSlot::Const(c) => c,
        AddrSlot::Float { byte, ty } => {
            let n = ty.bytes();
            to_float(decode(w.grf_bits(byte + i * n, n), ty)).to_bits()
        }
        AddrSlot::Int { byte, ty, add } => {
            (param_int(w, (byte, ty), i) as i32).wrapping_add(add) as u32
        }
        AddrSlot::IntAoff {
            param,
            aoffimmi,
            shift,
        } => {
            let a = region_bits(w, &aoffimmi, i);
            (param.map_or(0, |p| param_int(w, p, i)) as i32)
                .wrapping_add(intel_offset_field(a, shift)) as u32
        }
        AddrSlot::OffsetDword {
            aoffimmi,
            offu,
            offv,
        } => {
            let a = aoffimmi.map_or(0, |r| region_bits(w, &r, i));
            let po = |p: Option<(u32, ElemType)>| p.map_or(0, |p| param_int(w, p, i) as i32);
            amd_offset_dword(
                intel_offset_field(a, 8).wrapping_add(po(offu)),
                intel_offset_field(a, 4).wrapping_add(po(offv)),
                intel_offset_field(a, 0),
            )
        }
        AddrSlot::SampleIndex { si, lod, last } => ms_sample_index(
            si.map_or(0, |s| param_int(w, s, i) as u32),
            lod.map_or(0, |l| param_int(w, l, i) as u32),
            last,
        ),
    }
}

impl WaveState {
    /// GRF byte `b` of this thread ([`grf_slot`]).
    ///
    /// WGSL twin: `grf_part` (up to four bytes inside one dword) in `shaders/visa.wgsl`
    /// (docs/gpu.md, "Twins").
    pub fn grf_byte(&self, b: u32) -> u8 {
        let (v, lane, k) = grf_slot(b);
        (self.vgpr(v, lane) >> (8 * k)) as u8
    }

    /// Sets GRF byte `b`.
    ///
    /// WGSL twin: `set_grf_part` (up to four bytes inside one dword) in `shaders/visa.wgsl`
    /// (docs/gpu.md, "Twins").
    pub fn set_grf_byte(&mut self, b: u32, x: u8) {
        let (v, lane, k) = grf_slot(b);
        let old = self.vgpr(v, lane);
        let mask = 0xffu32 << (8 * k);
        self.set_vgpr(v, lane, (old & !mask) | (u32::from(x) << (8 * k)));
    }

    /// `n` (≤ 8) little-endian GRF bytes from `b`.
    ///
    /// WGSL twin: `grf_bits` in `shaders/visa.wgsl` (docs/gpu.md, "Twins").
    pub fn grf_bits(&self, b: u32, n: u32) -> u64 {
        (0..n).fold(0u64, |acc, k| {
            acc | (u64::from(self.grf_byte(b.wrapping_add(k))) << (8 * k))
        })
    }

    /// Writes the low `n` bytes of `bits` at GRF byte `b`.
    ///
    /// WGSL twin: `set_grf_bits` in `shaders/visa.wgsl` (docs/gpu.md, "Twins").
    pub fn set_grf_bits(&mut self, b: u32, n: u32, bits: u64) {
        for k in 0..n {
            self.set_grf_byte(b.wrapping_add(k), (bits >> (8 * k)) as u8);
        }
    }
}

/// A value during an ALU operation.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Val {
    Int(i64),
    Float(f32),
}

/// The value of `bits` read as `ty`.
///
/// WGSL twin: `decode_hf` (of an HF element) in `shaders/visa.wgsl` (docs/gpu.md, "Twins").
fn decode(bits: u64, ty: ElemType) -> Val {
    match ty {
        ElemType::F => Val::Float(f32::from_bits(bits as u32)),
        ElemType::Hf => Val::Float(f16_to_f32(bits as u16)),
        ElemType::Ud => Val::Int(i64::from(bits as u32)),
        ElemType::D => Val::Int(i64::from(bits as u32 as i32)),
        ElemType::Uw => Val::Int(i64::from(bits as u16)),
        ElemType::W => Val::Int(i64::from(bits as u16 as i16)),
        ElemType::Ub => Val::Int(i64::from(bits as u8)),
        ElemType::B => Val::Int(i64::from(bits as u8 as i8)),
        ElemType::Uq | ElemType::Q => Val::Int(bits as i64),
    }
}

/// The range of an integer type.
fn int_range(ty: ElemType) -> (i64, i64) {
    match ty {
        ElemType::Ud => (0, i64::from(u32::MAX)),
        ElemType::D => (i64::from(i32::MIN), i64::from(i32::MAX)),
        ElemType::Uw => (0, i64::from(u16::MAX)),
        ElemType::W => (i64::from(i16::MIN), i64::from(i16::MAX)),
        ElemType::Ub => (0, i64::from(u8::MAX)),
        ElemType::B => (i64::from(i8::MIN), i64::from(i8::MAX)),
        ElemType::Uq => (0, i64::MAX),
        ElemType::Q | ElemType::F | ElemType::Hf => (i64::MIN, i64::MAX),
    }
}

/// `v` converted to `ty`'s bits (the type rules in the module comment).
///
/// WGSL twin: `float_to_int` (of a float to an integer type) in `shaders/visa.wgsl`
/// (docs/gpu.md, "Twins").
fn encode(v: Val, ty: ElemType, sat: bool) -> u64 {
    match (v, ty.is_float()) {
        (Val::Float(f), true) => {
            let f = if sat { saturate(f) } else { f };
            float_bits(f, ty)
        }
        (Val::Int(i), true) => {
            let f = i as f32;
            float_bits(if sat { saturate(f) } else { f }, ty)
        }
        (Val::Float(f), false) => {
            let (lo, hi) = int_range(ty);
            let i = if f.is_nan() {
                0
            } else {
                // `as` rounds toward zero and saturates at i64's range.
                (f as i64).clamp(lo, hi)
            };
            i as u64
        }
        (Val::Int(i), false) => {
            let (lo, hi) = int_range(ty);
            (if sat { i.clamp(lo, hi) } else { i }) as u64
        }
    }
}

/// WGSL twin: `saturate` in `shaders/visa.wgsl` (docs/gpu.md, "Twins").
fn saturate(f: f32) -> f32 {
    if f.is_nan() {
        0.0
    } else {
        f.clamp(0.0, 1.0)
    }
}

fn float_bits(f: f32, ty: ElemType) -> u64 {
    if ty == ElemType::Hf {
        u64::from(f32_to_f16(f))
    } else {
        u64::from(f.to_bits())
    }
}

/// Element `i` of a source, modifier applied.
fn read_src(w: &WaveState, s: &GrfSrc, i: u32) -> Val {
    match s {
        GrfSrc::Imm(bits, ty) => decode(*bits, *ty),
        GrfSrc::Region(r, m) => {
            let v = decode(w.grf_bits(r.element(i), r.ty.bytes()), r.ty);
            apply_mod(v, *m)
        }
    }
}

fn apply_mod(v: Val, m: SrcMod) -> Val {
    match (v, m) {
        (_, SrcMod::None) => v,
        (Val::Float(f), SrcMod::Neg) => Val::Float(-f),
        (Val::Float(f), SrcMod::Abs) => Val::Float(f.abs()),
        (Val::Float(f), SrcMod::NegAbs) => Val::Float(-f.abs()),
        (Val::Int(i), SrcMod::Neg) => Val::Int(i.wrapping_neg()),
        (Val::Int(i), SrcMod::Abs) => Val::Int(i.wrapping_abs()),
        (Val::Int(i), SrcMod::NegAbs) => Val::Int(i.wrapping_abs().wrapping_neg()),
    }
}

/// WGSL twin: `i64_to_f32` (of an integer value) in `shaders/visa.wgsl` (docs/gpu.md, "Twins").
fn to_float(v: Val) -> f32 {
    match v {
        Val::Float(f) => f,
        Val::Int(i) => i as f32,
    }
}

/// WGSL twin: `f32_to_i64` (of a float value) in `shaders/visa.wgsl` (docs/gpu.md, "Twins").
fn to_int(v: Val) -> i64 {
    match v {
        Val::Int(i) => i,
        Val::Float(f) => f as i64,
    }
}

/// The bit of predicate `sgpr` for `channel`.
///
/// WGSL twin: `pred_bit` in `shaders/visa.wgsl` (docs/gpu.md, "Twins").
fn pred_bit(w: &WaveState, sgpr: u32, channel: u32) -> bool {
    w.sgpr(sgpr) >> channel & 1 == 1
}

/// The active channels: dispatched, and neither waiting at a label nor
/// returned (the module comment, "SIMD control flow").
pub fn active(w: &WaveState) -> u32 {
    w.sgpr(DISPATCH_SGPR) & !w.sgpr(OFF_SGPR)
}

/// True while some channel is active; a region of code bracketed by
/// `IfActive`/`EndIfActive` executes only then.
pub fn any_active(w: &WaveState) -> bool {
    active(w) != 0
}

/// The predicate of an exec-size-1 branch or `ret`: its bit for the first
/// channel (`.any`/`.all` of one bit is that bit), true without one.
fn uniform_pred(w: &WaveState, ch: &Channels) -> bool {
    ch.pred
        .is_none_or(|p| pred_bit(w, p.sgpr, ch.first) != p.invert)
}

/// At a loop's end: true (and the flag cleared) when its backward branch
/// was taken, so the loop runs again.
pub fn loop_again(w: &mut WaveState, again: u32) -> bool {
    let taken = w.sgpr(again) != 0;
    w.set_sgpr(again, 0);
    taken
}

/// Ends the thread: every channel counts as returned and off.
fn end_thread(w: &mut WaveState) {
    w.set_sgpr(OFF_SGPR, u32::MAX);
    w.set_sgpr(RETURNED_SGPR, u32::MAX);
}

/// Element `i` of an integer parameter (`(GRF byte, type)`), sign- or
/// zero-extended by its type.
fn param_int(w: &WaveState, (byte, ty): (u32, ElemType), i: u32) -> i64 {
    let n = ty.bytes();
    to_int(decode(w.grf_bits(byte + i * n, n), ty))
}

/// The raw bits of element `i` of a region (its low 32 bits).
fn region_bits(w: &WaveState, r: &Region, i: u32) -> u32 {
    w.grf_bits(r.element(i), r.ty.bytes().min(4)) as u32
}

/// `load_2dms_w`'s sample index: `si` clamped to the last sample (IGC
/// `3D_LOAD.md`: "clamped to the number of samples on the surface"), or
/// `u32::MAX` (past every sample, so the AMD load returns 0) for a non-zero
/// LOD: an MSAA surface has one level, and an out-of-range LOD loads 0 as for
/// `load_3d` (docs/semantics/intel.md).
///
/// WGSL twin: `ms_sample_index` in `shaders/visa.wgsl` (docs/gpu.md, "Twins").
pub fn ms_sample_index(si: u32, lod: u32, last: u32) -> u32 {
    if lod != 0 {
        u32::MAX
    } else {
        si.min(last)
    }
}

/// The channel-enable mask of `ch` (bit n = channel n), per the module comment.
///
/// WGSL twin: `enabled` in `shaders/visa.wgsl` (docs/gpu.md, "Twins").
pub fn enabled(w: &WaveState, ch: &Channels) -> u32 {
    let range = range_mask(ch.first, ch.size);
    let dispatch = if ch.no_mask { u32::MAX } else { active(w) };
    let pred = match ch.pred {
        None => u32::MAX,
        Some(p) => {
            let bits = w.sgpr(p.sgpr) ^ if p.invert { u32::MAX } else { 0 };
            match p.ctrl {
                PredCtrl::None => bits,
                PredCtrl::Any if bits & range != 0 => u32::MAX,
                PredCtrl::All if bits & range == range => u32::MAX,
                PredCtrl::Any | PredCtrl::All => 0,
            }
        }
    };
    range & dispatch & pred
}

/// Channels `first .. first + size` as a mask.
///
/// WGSL twin: `range_mask` in `shaders/visa.wgsl` (docs/gpu.md, "Twins").
pub fn range_mask(first: u32, size: u32) -> u32 {
    let ones = if size >= 32 {
        u32::MAX
    } else {
        (1u32 << size) - 1
    };
    ones.checked_shl(first).unwrap_or(0)
}

/// Writes element `i` of a destination: bits of its type.
fn write_bits(w: &mut WaveState, d: &GrfDst, i: u32, bits: u64) {
    if let Some(b) = d.byte {
        let n = d.ty.bytes();
        w.set_grf_bits(b + i * d.hstride * n, n, bits);
    }
}

/// A source value as the execution type's bits: f32 bits (an integer
/// rounded to nearest even: [`to_float`]), or the 64-bit integer.
fn exec_bits(v: Val, float: bool) -> u64 {
    if float {
        u64::from(to_float(v).to_bits())
    } else {
        to_int(v) as u64
    }
}

/// The shared ALU (`cpu::alu::eval`) on raw inputs under [`INTEL_MODE`].
fn shared(func: AluFn, x: [u64; 3], k: bool) -> Result<(u64, bool), VisaExecError> {
    crate::cpu::alu::eval(Unit::Vector, func, x, k, INTEL_MODE).map_err(VisaExecError::Alu)
}

/// The shared function on element `i`'s sources (`VisaOp::Alu` says what
/// Intel's rules add around it): the execution-type inputs, the result as
/// a value. The shift rules are Intel's (SHR.md, ASR.md): src0 of a right
/// shift cut back to its own width — zero-extended for `shr`, sign-extended
/// for `asr` — and every count masked to the destination's width.
fn alu_value(
    func: AluFn,
    vals: &[Val],
    src0_bytes: u32,
    dst: ElemType,
) -> Result<Val, VisaExecError> {
    let float = func.ty == Ty::F32;
    let mut x = [0u64; 3];
    for (slot, v) in x.iter_mut().zip(vals) {
        *slot = exec_bits(*v, float);
    }
    if matches!(func.family, Family::Lshr | Family::Ashr) {
        x[0] = extend(x[0], src0_bytes, func.family == Family::Ashr);
    }
    if matches!(func.family, Family::Shl | Family::Lshr | Family::Ashr) {
        x[1] &= shift_bits(dst);
    }
    let (r, _) = shared(func, x, false)?;
    Ok(if float {
        Val::Float(f32::from_bits(r as u32))
    } else {
        Val::Int(r as i64)
    })
}

fn alu(
    w: &mut WaveState,
    func: AluFn,
    sat: bool,
    ch: &Channels,
    select: Option<crate::ir::visa::PredUse>,
    dst: &GrfDst,
    srcs: &[GrfSrc],
) -> Result<(), VisaExecError> {
    let mask = enabled(w, ch);
    let n = func.signature().inputs.iter().flatten().count();
    let srcs = srcs.get(..n).ok_or(VisaExecError::MissingSource)?;
    let src0_bytes = srcs.first().map_or(8, |s| s.ty().bytes());
    // Read every element first: a destination may overlap a source.
    let mut out = Vec::with_capacity(ch.size as usize);
    for i in 0..ch.size {
        let c = ch.first + i;
        if mask >> c & 1 == 0 {
            continue;
        }
        let vals: Vec<Val> = srcs.iter().map(|s| read_src(w, s, i)).collect();
        let bits = if func.family == Family::Select {
            // sel: each source converted to the destination type, the
            // predicate picking src0 (bit set) or src1.
            let k = select.is_none_or(|p| pred_bit(w, p.sgpr, c) != p.invert);
            let x = [
                encode(vals[0], dst.ty, sat),
                encode(vals[1], dst.ty, sat),
                0,
            ];
            shared(func, x, k)?.0
        } else {
            encode(alu_value(func, &vals, src0_bytes, dst.ty)?, dst.ty, sat)
        };
        out.push((i, bits));
    }
    for (i, bits) in out {
        write_bits(w, dst, i, bits);
    }
    Ok(())
}

/// The bits of a shift count that count: 5, or 6 for a 64-bit destination.
fn shift_bits(dst: ElemType) -> u64 {
    if dst.bytes() == 8 {
        63
    } else {
        31
    }
}

/// `x` cut back to `bytes` bytes, zero- or sign-extended to 64 bits: src0
/// of `shr`/`asr` at its own width, so a modifier's result wraps there first.
///
/// The translator builds the same steps as WGSL expressions
/// (`gpu::translate::visa::extend`).
fn extend(x: u64, bytes: u32, signed: bool) -> u64 {
    let bits = 8 * bytes;
    if bits >= 64 {
        return x;
    }
    let up = x << (64 - bits);
    if signed {
        ((up as i64) >> (64 - bits)) as u64
    } else {
        up >> (64 - bits)
    }
}

/// `cmp`'s shared compare on element `i`'s two sources.
fn compare(func: AluFn, a: Val, b: Val) -> Result<bool, VisaExecError> {
    let float = func.ty == Ty::F32;
    let x = [exec_bits(a, float), exec_bits(b, float), 0];
    Ok(shared(func, x, false)?.1)
}

/// Executes one GRF operation on a thread.
///
/// WGSL twin: `setp` (its `VisaOp::Setp` arm) in `shaders/visa.wgsl` (docs/gpu.md, "Twins").
pub fn execute(
    w: &mut WaveState,
    op: &VisaOp,
    mem: &mut MemAccess<'_>,
) -> Result<(), VisaExecError> {
    match op {
        VisaOp::Alu {
            func,
            sat,
            ch,
            select,
            dst,
            srcs,
        } => alu(w, *func, *sat, ch, *select, dst, srcs)?,
        VisaOp::Cmp {
            func,
            ch,
            dst,
            srcs,
        } => {
            let mask = enabled(w, ch);
            // Every channel's sources are read before any result is written,
            // as for the ALU operations: a GRF destination may overlap a
            // source (the random GPU diff test found this missing).
            let results = (0..ch.size)
                .filter(|i| mask >> (ch.first + i) & 1 == 1)
                .map(|i| {
                    let t = compare(*func, read_src(w, &srcs[0], i), read_src(w, &srcs[1], i))?;
                    Ok((i, t))
                })
                .collect::<Result<Vec<(u32, bool)>, VisaExecError>>()?;
            for (i, t) in results {
                let c = ch.first + i;
                match dst {
                    CmpDst::Pred(s) => {
                        let old = w.sgpr(*s);
                        w.set_sgpr(*s, (old & !(1 << c)) | (u32::from(t) << c));
                    }
                    CmpDst::Grf(d) => {
                        let bits = if t { u64::MAX } else { 0 };
                        if let Some(b) = d.byte {
                            let n = d.ty.bytes();
                            w.set_grf_bits(b + i * d.hstride * n, n, bits);
                        }
                    }
                }
            }
        }
        VisaOp::Setp { ch, sgpr, src } => {
            let mask = enabled(w, ch);
            let bits = match read_src(w, src, 0) {
                Val::Int(i) => i as u64,
                Val::Float(f) => u64::from(f.to_bits()),
            };
            let mut p = w.sgpr(*sgpr);
            for i in 0..ch.size {
                let c = ch.first + i;
                if mask >> c & 1 == 1 {
                    p = (p & !(1 << c)) | (((bits >> i) & 1) as u32) << c;
                }
            }
            w.set_sgpr(*sgpr, p);
        }
        VisaOp::StageAddress {
            first,
            size,
            slots,
            staging,
        } => {
            for i in 0..*size {
                let lane = first + i;
                for (k, s) in slots.iter().enumerate() {
                    let v = slot_value(w, s, i);
                    w.set_vgpr(staging.addr + k as u32, lane, v);
                }
            }
        }
        VisaOp::StageCube {
            first,
            size,
            params,
            at,
            staging,
        } => {
            for i in 0..*size {
                let [x, y, z, ai] = params.map(|s| f32::from_bits(slot_value(w, &s, i)));
                let address = cube_address(x, y, z, ai);
                for (k, v) in address.iter().enumerate() {
                    w.set_vgpr(staging.addr + at + k as u32, first + i, *v);
                }
            }
        }
        VisaOp::SetExec { ch } => w.exec = u64::from(enabled(w, ch)),
        VisaOp::Resinfo {
            first,
            size,
            values,
            staging,
        } => {
            let exec = w.exec as u32;
            for lane in *first..first + size {
                if exec >> lane & 1 == 0 {
                    continue;
                }
                let lod = w.vgpr(staging.addr, lane);
                for (k, v) in values.iter().enumerate() {
                    let x = match *v {
                        InfoValue::Const(c) => c,
                        InfoValue::Shifted(size) => resinfo_shift(size, lod),
                    };
                    w.set_vgpr(staging.data + k as u32, lane, x);
                }
            }
        }
        VisaOp::Goto { ch, uniform, wait } => {
            let taking = match (*uniform, uniform_pred(w, ch)) {
                (true, true) => active(w),
                (true, false) => 0,
                (false, _) => enabled(w, ch),
            };
            w.set_sgpr(*wait, w.sgpr(*wait) | taking);
            w.set_sgpr(OFF_SGPR, w.sgpr(OFF_SGPR) | taking);
        }
        // GOTO.md, backward jump: it jumps if any channel takes it; the
        // active channels that do not wait at the next instruction.
        VisaOp::BackGoto {
            ch,
            uniform,
            wait,
            again,
        } => {
            let taking = match (*uniform, uniform_pred(w, ch)) {
                (true, true) => active(w),
                (true, false) => 0,
                (false, _) => enabled(w, ch),
            };
            if taking != 0 {
                let parked = active(w) & !taking;
                w.set_sgpr(*wait, w.sgpr(*wait) | parked);
                w.set_sgpr(OFF_SGPR, w.sgpr(OFF_SGPR) | parked);
            }
            w.set_sgpr(*again, u32::from(taking != 0));
        }
        VisaOp::Join { wait } => {
            let back = w.sgpr(*wait) & !w.sgpr(RETURNED_SGPR);
            w.set_sgpr(OFF_SGPR, w.sgpr(OFF_SGPR) & !back);
            w.set_sgpr(*wait, 0);
        }
        VisaOp::Ret { ch, uniform: true } => {
            if uniform_pred(w, ch) {
                end_thread(w);
            }
        }
        VisaOp::Ret { ch, uniform: false } => {
            let r = enabled(w, ch);
            w.set_sgpr(OFF_SGPR, w.sgpr(OFF_SGPR) | r);
            w.set_sgpr(RETURNED_SGPR, w.sgpr(RETURNED_SGPR) | r);
            if w.sgpr(DISPATCH_SGPR) & !w.sgpr(RETURNED_SGPR) == 0 {
                end_thread(w);
            }
        }
        // The regions and loops are run_wave's: it skips regions while no
        // channel is active and repeats loops ([`loop_again`]).
        VisaOp::IfActive | VisaOp::EndIfActive | VisaOp::Loop | VisaOp::EndLoop { .. } => {}
        VisaOp::ScatterResult {
            first,
            size,
            byte,
            ty,
            count,
            block,
            integer,
            null_mask,
            staging,
        } => {
            let exec = w.exec as u32;
            let n = ty.bytes();
            for i in 0..*size {
                let lane = first + i;
                if exec >> lane & 1 == 0 {
                    continue;
                }
                for k in 0..*count {
                    let raw = w.vgpr(staging.data + k, lane);
                    // Results are f32 bits for float formats (converted to the
                    // destination type) and 32-bit integers for integer formats
                    // (their low bits kept).
                    let bits = match (*integer, ty.is_float()) {
                        (false, true) => float_bits(f32::from_bits(raw), *ty),
                        (false, false) => encode(Val::Float(f32::from_bits(raw)), *ty, false),
                        (true, _) => u64::from(raw),
                    };
                    w.set_grf_bits(byte + k * block + i * n, n, bits);
                }
            }
            if let Some(b) = null_mask {
                // No null (unmapped tiled-resource) pages are modelled, so the
                // bit of every pixel of the message is 1.
                if exec & range_mask(*first, *size) != 0 {
                    w.set_grf_bits(*b, 4, u64::from(range_mask(0, *size)));
                }
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
        } => store_scaled(
            w, mem, ch, *base, *bytes, global, offsets, *src, *mask, *block,
        )?,
    }
    Ok(())
}

/// One size of Intel `resinfo` at `lod`: IGC `INFO.md` gives
/// `(Width+1)>>LOD` (the field holds the size minus one), with no floor at 1
/// and no other case for a LOD past the mip chain; a shift of 32 or more
/// leaves nothing (docs/errata.md VC2). `shaders/visa.wgsl` has the same
/// function.
///
/// WGSL twin: `resinfo_shift` in `shaders/visa.wgsl` (docs/gpu.md, "Twins").
pub fn resinfo_shift(size: u32, lod: u32) -> u32 {
    size.checked_shr(lod).unwrap_or(0)
}

/// `scatter4_scaled` (IGC `instructions/SCATTER4_SCALED.md`): colour channel
/// `c` of element `i` goes to byte `global + offset[i] + 4c` of the buffer;
/// the address must be dword-aligned; out-of-bounds writes are dropped.
#[allow(clippy::too_many_arguments)]
fn store_scaled(
    w: &mut WaveState,
    mem: &mut MemAccess<'_>,
    ch: &Channels,
    base: u64,
    bytes: u64,
    global: &GrfSrc,
    offsets: &Region,
    src: u32,
    mask: u8,
    block: u32,
) -> Result<(), VisaExecError> {
    let en = enabled(w, ch);
    let g = to_int(read_src(w, global, 0)) as u32;
    let mut pos = 0;
    for c in 0..4u32 {
        if mask >> c & 1 == 0 {
            continue;
        }
        for i in 0..ch.size {
            if en >> (ch.first + i) & 1 == 0 {
                continue;
            }
            let off = w.grf_bits(offsets.element(i), 4) as u32;
            let addr = u64::from(g.wrapping_add(off)) + 4 * u64::from(c);
            if addr % 4 != 0 {
                return Err(VisaExecError::Unaligned {
                    addr,
                    channel: ch.first + i,
                });
            }
            let value = w.grf_bits(src + pos * block + 4 * i, 4) as u32;
            if addr + 4 <= bytes {
                mem.write(base + addr, &value.to_le_bytes());
            }
        }
        pos += 1;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::visa::PredUse;

    fn thread() -> WaveState {
        let mut w = WaveState::new(0, 32, 0);
        w.set_sgpr(DISPATCH_SGPR, u32::MAX);
        w
    }

    #[test]
    fn offsets_and_sample_indices() {
        // 0xe21: U = −2, V = 2, R = 1 (signed 4-bit fields).
        let f = |s| intel_offset_field(0xe21, s);
        assert_eq!((f(8), f(4), f(0)), (-2, 2, 1));
        // 6-bit fields; −33 keeps its low 6 bits (= 31).
        assert_eq!(amd_offset_dword(-1, 31, -32), 0x20_1f3f);
        assert_eq!(amd_offset_dword(-33, 0, 0), 0x1f);
        // Clamped to the last sample; any non-zero LOD is past every sample.
        assert_eq!(ms_sample_index(9, 0, 3), 3);
        assert_eq!(ms_sample_index(2, 0, 3), 2);
        assert_eq!(ms_sample_index(0, 1, 3), u32::MAX);
    }

    #[test]
    fn grf_bytes_lie_over_the_vgpr_file() {
        let mut w = thread();
        w.set_grf_bits(130, 4, 0xddcc_bbaa);
        // Byte 130 = dword 32 byte 2 = v1 lane 0 byte 2.
        assert_eq!(w.vgpr(0, 32 % 32), 0);
        assert_eq!(w.vgpr(1, 0), 0xbbaa_0000);
        assert_eq!(w.vgpr(1, 1), 0x0000_ddcc);
        assert_eq!(w.grf_bits(130, 4), 0xddcc_bbaa);
    }

    #[test]
    fn conversions_follow_the_type_rules() {
        // float → int: toward zero, saturating, NaN → 0.
        assert_eq!(encode(Val::Float(-2.7), ElemType::D, false), (-2i64) as u64);
        assert_eq!(
            encode(Val::Float(1e10), ElemType::D, false),
            i32::MAX as u64
        );
        assert_eq!(encode(Val::Float(-1.0), ElemType::Ud, false), 0);
        assert_eq!(encode(Val::Float(f32::NAN), ElemType::W, false), 0);
        // int → int keeps the low bits, or clamps with .sat.
        assert_eq!(encode(Val::Int(0x1_0005), ElemType::Uw, false) as u16, 5);
        assert_eq!(encode(Val::Int(0x1_0005), ElemType::Uw, true), 0xffff);
        // int → float rounds to nearest even; .sat clamps floats to [0, 1].
        assert_eq!(
            encode(Val::Int(16_777_217), ElemType::F, false),
            16_777_216f32.to_bits() as u64
        );
        assert_eq!(
            encode(Val::Float(1.5), ElemType::F, true),
            1f32.to_bits() as u64
        );
        assert_eq!(encode(Val::Float(0.5), ElemType::Hf, false), 0x3800);
        assert_eq!(decode(0xffff, ElemType::W), Val::Int(-1));
        assert_eq!(decode(0xffff, ElemType::Uw), Val::Int(65535));
    }

    /// GOTO.md, backward jump: the takers go back, the other active channels
    /// wait at the next instruction; when none takes it, all fall through.
    #[test]
    fn a_backward_goto_parks_the_channels_that_do_not_take_it() {
        let mut w = thread();
        let mut none = crate::machine::Memory::default();
        let mut mem = MemAccess::Direct(&mut none);
        w.set_sgpr(DISPATCH_SGPR, 0xffff);
        w.set_sgpr(OFF_SGPR, 0x000f); // 0-3 wait elsewhere
        w.set_sgpr(20, 0x00f0); // the predicate: 4-7
        let (wait, again) = (21, 22);
        let pred = Some(PredUse {
            sgpr: 20,
            invert: false,
            ctrl: PredCtrl::None,
        });
        let ch = Channels {
            first: 0,
            size: 16,
            no_mask: false,
            pred,
        };
        let back = |uniform| VisaOp::BackGoto {
            ch,
            uniform,
            wait,
            again,
        };
        execute(&mut w, &back(false), &mut mem).unwrap();
        assert_eq!(active(&w), 0x00f0);
        assert_eq!(w.sgpr(wait), 0xff00);
        assert!(loop_again(&mut w, again));
        assert_eq!(w.sgpr(again), 0);
        // Now the predicate holds for no active channel: nobody moves.
        w.set_sgpr(20, 0xff00);
        execute(&mut w, &back(false), &mut mem).unwrap();
        assert_eq!((active(&w), w.sgpr(wait)), (0x00f0, 0xff00));
        assert!(!loop_again(&mut w, again));
        // The fall-through's join wakes the parked channels (not 0-3).
        execute(&mut w, &VisaOp::Join { wait }, &mut mem).unwrap();
        assert_eq!(active(&w), 0xfff0);
        // Exec size 1: channel 0's bit decides for the whole thread.
        w.set_sgpr(20, 0x0001);
        execute(&mut w, &back(true), &mut mem).unwrap();
        assert_eq!((active(&w), w.sgpr(wait)), (0xfff0, 0));
        assert!(loop_again(&mut w, again));
    }

    #[test]
    fn channel_enable_combines_range_dispatch_and_predicate() {
        let mut w = thread();
        w.set_sgpr(DISPATCH_SGPR, 0x0000_ffff);
        w.set_sgpr(20, 0b1010_0000);
        let ch = |first, size, no_mask, pred| Channels {
            first,
            size,
            no_mask,
            pred,
        };
        assert_eq!(enabled(&w, &ch(4, 8, false, None)), 0x0ff0);
        assert_eq!(enabled(&w, &ch(16, 16, false, None)), 0);
        assert_eq!(enabled(&w, &ch(16, 16, true, None)), 0xffff_0000);
        let p = |invert, ctrl| {
            Some(PredUse {
                sgpr: 20,
                invert,
                ctrl,
            })
        };
        assert_eq!(
            enabled(&w, &ch(0, 8, false, p(false, PredCtrl::None))),
            0xa0
        );
        assert_eq!(enabled(&w, &ch(0, 8, false, p(true, PredCtrl::None))), 0x5f);
        assert_eq!(enabled(&w, &ch(0, 8, false, p(false, PredCtrl::Any))), 0xff);
        assert_eq!(enabled(&w, &ch(0, 8, false, p(false, PredCtrl::All))), 0);
        assert_eq!(range_mask(0, 32), u32::MAX);
    }

    #[test]
    fn cmp_reads_every_source_before_it_writes() {
        // cmp.ge (M1, 2) X(0,0)<2> 0x5:uw X(0,0)<0;1,0> over uw X = [1, 9, 3, 9]:
        // channel 0 writes X[0], which channel 1 reads: it must see 1
        // (5 >= 1), not channel 0's result 0xffff.
        let mut w = thread();
        for (k, x) in [1u64, 9, 3, 9].iter().enumerate() {
            w.set_grf_bits(2 * k as u32, 2, *x);
        }
        let region = Region {
            byte: 0,
            ty: ElemType::Uw,
            vstride: 0,
            width: 1,
            hstride: 0,
        };
        let op = VisaOp::Cmp {
            func: AluFn::new(Family::Cmp(crate::ir::alu::Rel::Ge), Ty::I64),
            ch: Channels {
                first: 0,
                size: 2,
                no_mask: false,
                pred: None,
            },
            dst: CmpDst::Grf(GrfDst {
                byte: Some(0),
                ty: ElemType::Uw,
                hstride: 2,
            }),
            srcs: [
                GrfSrc::Imm(5, ElemType::Uw),
                GrfSrc::Region(region, SrcMod::None),
            ],
        };
        let mut none = crate::machine::Memory::default();
        let mut mem = MemAccess::Direct(&mut none);
        execute(&mut w, &op, &mut mem).unwrap();
        assert_eq!(w.grf_bits(0, 2), 0xffff);
        assert_eq!(w.grf_bits(4, 2), 0xffff);
    }

    #[test]
    fn roundings_match_ieee_on_the_bits() {
        // rndd, rndu, rnde, rndz are the shared Floor, Ceil, Rndne, Trunc
        // under INTEL_MODE (denormals kept): every 4099th bit pattern against
        // Rust's floor/ceil/round_ties_even/trunc (bit for bit, so signed
        // zeros count), NaNs quieted with their payload.
        type Reference = fn(f32) -> f32;
        let families: [(Family, Reference); 4] = [
            (Family::Floor, f32::floor),
            (Family::Ceil, f32::ceil),
            (Family::Rndne, f32::round_ties_even),
            (Family::Trunc, f32::trunc),
        ];
        for x in (0..=u32::MAX).step_by(4099).chain([
            0x3f00_0000,
            0xbf00_0000,
            0x4b00_0001,
            0x8000_0001,
            0x7f80_0001,
        ]) {
            let f = f32::from_bits(x);
            for (family, reference) in families {
                let v = alu_value(
                    AluFn::new(family, Ty::F32),
                    &[Val::Float(f)],
                    4,
                    ElemType::F,
                )
                .unwrap();
                let Val::Float(r) = v else { panic!("{v:?}") };
                let want = if f.is_nan() {
                    x | 0x0040_0000
                } else {
                    reference(f).to_bits()
                };
                assert_eq!(r.to_bits(), want, "{x:#x} {family:?}");
            }
        }
    }

    #[test]
    fn float_nans_follow_the_shared_rule() {
        let add = AluFn::new(Family::Add, Ty::F32);
        let bits = |vals: &[Val]| match alu_value(add, vals, 4, ElemType::F).unwrap() {
            Val::Float(f) => f.to_bits(),
            v => panic!("{v:?}"),
        };
        // ∞ − ∞: the default NaN, positive (x86's own is 0xffc00000).
        let inf = Val::Float(f32::INFINITY);
        assert_eq!(bits(&[inf, Val::Float(f32::NEG_INFINITY)]), 0x7fc0_0000);
        // A NaN source: the first one, quieted, its payload and sign kept.
        let snan = Val::Float(f32::from_bits(0xff80_0005));
        let qnan = Val::Float(f32::from_bits(0x7fc0_0009));
        assert_eq!(bits(&[Val::Float(1.0), snan]), 0xffc0_0005);
        assert_eq!(bits(&[qnan, snan]), 0x7fc0_0009);
        // Denormals are kept: the smallest two add to twice the smallest.
        let tiny = Val::Float(f32::from_bits(1));
        assert_eq!(bits(&[tiny, tiny]), 2);
    }

    #[test]
    fn right_shifts_see_src0_at_its_width() {
        let shift = |family, ty, a: i64, width, count: i64| {
            let f = AluFn::new(family, ty);
            match alu_value(f, &[Val::Int(a), Val::Int(count)], width, ElemType::Q).unwrap() {
                Val::Int(i) => i,
                v => panic!("{v:?}"),
            }
        };
        // shr of a uw -1 (after a modifier) by 4: 0xffff >> 4.
        assert_eq!(shift(Family::Lshr, Ty::U64, -1, 2, 4), 0x0fff);
        // asr of a d 0x8000_0000 read as -2^31 by 1; of a w 0xfffe by 1.
        assert_eq!(
            shift(Family::Ashr, Ty::I64, 0x8000_0000, 4, 1),
            -0x4000_0000
        );
        assert_eq!(shift(Family::Ashr, Ty::I64, 0xfffe, 2, 1), -1);
        assert_eq!(shift(Family::Lshr, Ty::U64, -8, 8, 60), 0xf);
        // shl keeps src0 whole: a d -1 shifted into a Q stays negative.
        assert_eq!(shift(Family::Shl, Ty::B64, -1, 4, 4), -16);
        // The count's low 6 bits for a 64-bit destination: 68 shifts by 4.
        assert_eq!(shift(Family::Shl, Ty::B64, 1, 8, 68), 16);
    }

    #[test]
    fn compare_is_ieee_on_nan() {
        use crate::ir::alu::Rel;
        let n = Val::Float(f32::NAN);
        let f = |rel| AluFn::new(Family::Cmp(rel), Ty::F32);
        // vISA `ne` is the shared Neq: true when unordered.
        assert!(compare(f(Rel::Neq), n, n).unwrap());
        assert!(!compare(f(Rel::Eq), n, n).unwrap());
        let i = AluFn::new(Family::Cmp(Rel::Lt), Ty::I64);
        assert!(compare(i, Val::Int(-1), Val::Int(0)).unwrap());
        // Denormals are kept under INTEL_MODE: the smallest one is not zero.
        let tiny = Val::Float(f32::from_bits(1));
        assert!(compare(f(Rel::Gt), tiny, Val::Float(0.0)).unwrap());
    }
}
