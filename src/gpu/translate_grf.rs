//! WGSL for the GRF operations of lowered Intel vISA programs
//! ([`crate::ir::grf`]), a child module of `translate.rs`. Each operation is
//! the transcription of its case in `cpu::grf::execute`, calling the
//! functions of `shaders/grf.wgsl` that carry the Rust names.
//!
//! **Where the GRF lives.** Regions read across channels (a `<0;1,0>`
//! broadcast, the rows of another half), so the thread's GRF cannot be the
//! invocations' private VGPR slots: it is a `var<workgroup>` array of dwords
//! (`grf`), loaded from the wave state at entry and written back at the end.
//! Every GRF-writing operation computes its values first, then
//! `workgroupBarrier()`, writes, and `workgroupBarrier()` again: no channel
//! reads a byte another channel of the same instruction is writing, and the
//! next instruction sees every write (control flow is uniform: the IR has no
//! branches). The synthesised MIMG's address and result VGPRs (from
//! [`ADDR_VGPR`]) lie above the GRF, so they stay private per lane; the
//! staging and scatter operations copy between the two. Predicates are SGPRs
//! in the private `s` array, identical in every invocation: `cmp` gathers its
//! per-channel bits with a workgroup `atomicOr` vote. docs/gpu.md, "Intel vISA
//! programs".

use super::{err, Emitter, TranslateError};
use crate::ir::grf::{
    AddrSlot, AluOp, Channels, CmpDst, ElemType, GrfDst, GrfOp, GrfSrc, PredCtrl, PredUse, Region,
    Relation, SrcMod, ADDR_VGPR, DATA_VGPR, DISPATCH_SGPR, GRF_VGPRS, THREAD_LANES,
};
use crate::ir::Op;
use std::fmt::Write as _;

/// `shaders/grf.wgsl`: the GRF operations (mirror of `cpu::grf`).
pub(super) const GRF: &str = include_str!("../../shaders/grf.wgsl");

/// Workgroup memory every adapter grants (WebGPU's
/// `maxComputeWorkgroupStorageSize` default).
const WORKGROUP_BYTES: u32 = 16_384;
/// What the GRF may take of it: the sampler's quad exchange (32 × 16 bytes)
/// and the vote word need the rest.
const GRF_WORKGROUP_BYTES: u32 = WORKGROUP_BYTES - 1024;

/// The element types in the order of their `TY_*` codes in `grf.wgsl`.
const TYPE_CODES: [ElemType; 10] = [
    ElemType::Ud,
    ElemType::D,
    ElemType::Uw,
    ElemType::W,
    ElemType::Ub,
    ElemType::B,
    ElemType::Uq,
    ElemType::Q,
    ElemType::F,
    ElemType::Hf,
];
/// Source modifiers in the order of their `MOD_*` codes.
const MOD_CODES: [SrcMod; 4] = [SrcMod::None, SrcMod::Neg, SrcMod::Abs, SrcMod::NegAbs];
/// ALU operations in the order of their `ALU_*` codes.
const ALU_CODES: [AluOp; 6] = [
    AluOp::Mov,
    AluOp::Add,
    AluOp::Mul,
    AluOp::Sel,
    AluOp::Or,
    AluOp::Shl,
];
/// Relations in the order of their `REL_*` codes.
const REL_CODES: [Relation; 6] = [
    Relation::Eq,
    Relation::Ne,
    Relation::Gt,
    Relation::Ge,
    Relation::Lt,
    Relation::Le,
];
/// Predicate controls in the order of their `CTRL_*` codes.
const CTRL_CODES: [PredCtrl; 3] = [PredCtrl::None, PredCtrl::Any, PredCtrl::All];

/// The WGSL code of `x` in `table` (every variant is listed, so the position
/// always exists).
fn code<T: PartialEq>(table: &[T], x: T) -> u32 {
    table.iter().position(|t| *t == x).unwrap_or(0) as u32
}

fn ty(t: ElemType) -> String {
    format!("{}u", code(&TYPE_CODES, t))
}

/// True when the program has GRF operations (a lowered vISA program).
pub(super) fn uses_grf(ops: &[(usize, &Op)]) -> bool {
    ops.iter().any(|(_, op)| matches!(op, Op::Grf(_)))
}

/// One past the last GRF byte a region's first `count` elements touch.
fn region_end(r: &Region, count: u32) -> u32 {
    (0..count.max(1))
        .map(|i| r.element(i) + r.ty.bytes())
        .max()
        .unwrap_or(0)
}

fn src_end(s: &GrfSrc, count: u32) -> u32 {
    match s {
        GrfSrc::Region(r, _) => region_end(r, count),
        GrfSrc::Imm(..) => 0,
    }
}

fn dst_end(d: &GrfDst, count: u32) -> u32 {
    d.byte.map_or(0, |b| {
        b + count.saturating_sub(1) * d.hstride * d.ty.bytes() + d.ty.bytes()
    })
}

/// One past the last GRF byte `op` reads or writes.
fn extent(op: &GrfOp) -> u32 {
    match op {
        GrfOp::Alu { ch, dst, srcs, .. } => srcs
            .iter()
            .map(|s| src_end(s, ch.size))
            .fold(dst_end(dst, ch.size), u32::max),
        GrfOp::Cmp { ch, dst, srcs, .. } => {
            let d = match dst {
                CmpDst::Grf(d) => dst_end(d, ch.size),
                CmpDst::Pred(_) => 0,
            };
            srcs.iter().map(|s| src_end(s, ch.size)).fold(d, u32::max)
        }
        GrfOp::Setp { src, .. } => src_end(src, 1),
        GrfOp::StageAddress { size, slots, .. } => slots
            .iter()
            .map(|s| match *s {
                AddrSlot::Const(_) => 0,
                AddrSlot::Float { byte, ty } | AddrSlot::Int { byte, ty, .. } => {
                    byte + size.saturating_sub(1) * ty.bytes() + ty.bytes()
                }
            })
            .max()
            .unwrap_or(0),
        GrfOp::SetExec { .. } => 0,
        GrfOp::ScatterResult {
            size,
            byte,
            ty,
            count,
            block,
            null_mask,
            ..
        } => {
            let data = byte
                + count.saturating_sub(1) * block
                + size.saturating_sub(1) * ty.bytes()
                + ty.bytes();
            null_mask.map_or(data, |b| data.max(b + 4))
        }
        GrfOp::StoreScaled {
            ch,
            global,
            offsets,
            src,
            mask,
            block,
            ..
        } => {
            let channels = u32::from(mask & 0xf).count_ones().max(1);
            let data = src + (channels - 1) * block + 4 * ch.size.saturating_sub(1) + 4;
            data.max(src_end(global, 1))
                .max(region_end(offsets, ch.size))
        }
    }
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
        if let Op::Grf(g) = op {
            let x = extent(g);
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
        "\n// The Intel thread's GRF: the first {vgprs} VGPRs of every lane, dword d = v[d / 32] of lane d % 32.\nconst GRF_WORDS: u32 = {words}u;\nvar<workgroup> grf: array<atomic<u32>, {words}>;\n// cmp's per-channel predicate bits, gathered.\nvar<workgroup> grf_vote: atomic<u32>;\n// u32::MAX minus the first faulting operation's offset of any lane (0: none).\nvar<workgroup> grf_fault: atomic<u32>;"
    )
    .ok();
    e.decls.push_str(GRF);
    Ok(())
}

/// `enabled(...)` of `ch` (cpu::grf::enabled).
fn enabled_expr(e: &mut Emitter, offset: usize, ch: &Channels) -> Result<String, TranslateError> {
    let dispatch = sgpr(e, offset, DISPATCH_SGPR)?;
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

/// Element `i` (a WGSL expression) of a source (cpu::grf::read_src).
fn src_expr(s: &GrfSrc, i: &str) -> String {
    match *s {
        GrfSrc::Imm(bits, t) => format!(
            "decode(vec2<u32>({}u, {}u), {})",
            bits as u32,
            (bits >> 32) as u32,
            ty(t)
        ),
        GrfSrc::Region(r, m) => format!(
            "read_src(region_element({}u, {}u, {}u, {}u, {}, {i}), {}, {}u)",
            r.byte,
            r.vstride,
            r.width,
            r.hstride,
            ty(r.ty),
            ty(r.ty),
            code(&MOD_CODES, m)
        ),
    }
}

/// `let en`, `let i` (the element of this lane's channel) and `let act`.
fn channel_prologue(e: &mut Emitter, offset: usize, ch: &Channels) -> Result<(), TranslateError> {
    let en = enabled_expr(e, offset, ch)?;
    e.line(&format!("    let en = {en};"));
    e.line(&format!("    let i = lane - {}u;", ch.first));
    e.line("    let act = ((en >> lane) & 1u) == 1u;");
    Ok(())
}

/// Emits one GRF operation (cpu::grf::execute).
pub(super) fn emit(e: &mut Emitter, offset: usize, op: &GrfOp) -> Result<(), TranslateError> {
    writeln!(e.body, "    // line {offset}: {}", describe(op)).ok();
    e.line("{");
    match op {
        GrfOp::Alu {
            op,
            sat,
            ch,
            select,
            dst,
            srcs,
        } => emit_alu(e, offset, *op, *sat, ch, *select, dst, srcs)?,
        GrfOp::Cmp { rel, ch, dst, srcs } => emit_cmp(e, offset, *rel, ch, dst, srcs)?,
        GrfOp::Setp { ch, sgpr: p, src } => {
            let en = enabled_expr(e, offset, ch)?;
            let place = sgpr(e, offset, *p)?;
            e.line(&format!(
                "    {place} = setp({place}, {en}, {}u, {}u, setp_bits({}));",
                ch.first,
                ch.size,
                src_expr(src, "0u")
            ));
        }
        GrfOp::StageAddress { first, size, slots } => {
            e.line(&format!(
                "    if lane >= {first}u && lane < {}u {{",
                first + size
            ));
            e.line(&format!("        let i = lane - {first}u;"));
            for (k, s) in slots.iter().enumerate() {
                let value = match *s {
                    AddrSlot::Const(c) => format!("{c}u"),
                    AddrSlot::Float { byte, ty: t } => {
                        format!("stage_float({byte}u + i * {}u, {})", t.bytes(), ty(t))
                    }
                    AddrSlot::Int { byte, ty: t, add } => format!(
                        "stage_int({byte}u + i * {}u, {}, {}u)",
                        t.bytes(),
                        ty(t),
                        add as u32
                    ),
                };
                if let Some(place) = e.v(ADDR_VGPR + k as u32) {
                    e.line(&format!("        {place} = {value};"));
                }
            }
            e.line("    }");
        }
        GrfOp::SetExec { ch } => {
            let en = enabled_expr(e, offset, ch)?;
            e.line(&format!("    exec_lo = {en};"));
            e.line("    exec_hi = 0u;");
        }
        GrfOp::ScatterResult {
            first,
            size,
            byte,
            ty: t,
            count,
            block,
            integer,
            null_mask,
        } => {
            e.line(&format!(
                "    let act = lane >= {first}u && lane < {}u && ((exec_lo >> lane) & 1u) == 1u;",
                first + size
            ));
            e.line(&format!("    let i = lane - {first}u;"));
            let n = t.bytes();
            let values: Vec<String> = (0..*count).map(|k| e.v_read(DATA_VGPR + k)).collect();
            e.line("    workgroupBarrier();");
            e.line("    if act {");
            for (k, raw) in values.iter().enumerate() {
                e.line(&format!(
                    "        set_grf_bits({}u + i * {n}u, {n}u, scatter_bits({raw}, {}, {integer}));",
                    byte + k as u32 * block,
                    ty(*t)
                ));
            }
            e.line("    }");
            e.line("    workgroupBarrier();");
            if let Some(b) = null_mask {
                // No null pages are modelled: every pixel's bit is 1 (cpu::grf).
                e.line(&format!(
                    "    if lane == 0u && (exec_lo & range_mask({first}u, {size}u)) != 0u {{ set_grf_bits({b}u, 4u, vec2<u32>(range_mask(0u, {size}u), 0u)); }}"
                ));
                e.line("    workgroupBarrier();");
            }
        }
        GrfOp::StoreScaled {
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

#[allow(clippy::too_many_arguments)]
fn emit_alu(
    e: &mut Emitter,
    offset: usize,
    op: AluOp,
    sat: bool,
    ch: &Channels,
    select: Option<PredUse>,
    dst: &GrfDst,
    srcs: &[GrfSrc],
) -> Result<(), TranslateError> {
    let float = srcs.iter().any(|s| s.ty().is_float());
    let name = format!("{op:?}").to_lowercase();
    if float && matches!(op, AluOp::Or | AluOp::Shl) {
        // The CPU refuses it when the instruction runs; the GPU cannot stop
        // mid-program, so it refuses it before.
        return Err(err(offset, format!("`{name}` on a float operand")));
    }
    let needed = if op == AluOp::Mov { 1 } else { 2 };
    if srcs.len() < needed {
        return Err(err(offset, format!("`{name}`: missing source")));
    }
    let Some(byte) = dst.byte else {
        // `%null`: the values are dropped and reading has no effect.
        e.line("    // %null destination: nothing to write");
        return Ok(());
    };
    channel_prologue(e, offset, ch)?;
    let a = src_expr(&srcs[0], "i");
    let b = srcs
        .get(1)
        .map_or("val_int(vec2<u32>(0u, 0u))".to_string(), |s| {
            src_expr(s, "i")
        });
    let take_a = match select {
        None => "true".to_string(),
        Some(p) => format!(
            "pred_bit({}, lane) != {}",
            sgpr(e, offset, p.sgpr)?,
            p.invert
        ),
    };
    e.line("    var r = val_int(vec2<u32>(0u, 0u));");
    e.line("    if act {");
    e.line(&format!(
        "        r = alu({}u, {a}, {b}, {float}, {}, {take_a});",
        code(&ALU_CODES, op),
        dst.ty.bytes() == 8
    ));
    e.line("    }");
    e.line("    workgroupBarrier();");
    e.line(&format!(
        "    if act {{ write_dst({byte}u, {}u, {}, i, r, {sat}); }}",
        dst.hstride,
        ty(dst.ty)
    ));
    e.line("    workgroupBarrier();");
    Ok(())
}

fn emit_cmp(
    e: &mut Emitter,
    offset: usize,
    rel: Relation,
    ch: &Channels,
    dst: &CmpDst,
    srcs: &[GrfSrc; 2],
) -> Result<(), TranslateError> {
    let float = srcs.iter().any(|s| s.ty().is_float());
    channel_prologue(e, offset, ch)?;
    e.line("    var t = false;");
    e.line(&format!(
        "    if act {{ t = compare({}u, {}, {}, {float}); }}",
        code(&REL_CODES, rel),
        src_expr(&srcs[0], "i"),
        src_expr(&srcs[1], "i")
    ));
    match dst {
        CmpDst::Pred(p) => {
            let place = sgpr(e, offset, *p)?;
            e.line("    if lane == 0u { atomicStore(&grf_vote, 0u); }");
            e.line("    workgroupBarrier();");
            e.line("    if act && t { atomicOr(&grf_vote, 1u << lane); }");
            e.line("    workgroupBarrier();");
            e.line(&format!(
                "    {place} = ({place} & ~en) | (atomicLoad(&grf_vote) & en);"
            ));
            e.line("    workgroupBarrier();");
        }
        CmpDst::Grf(d) => {
            if let Some(byte) = d.byte {
                let n = d.ty.bytes();
                e.line("    workgroupBarrier();");
                e.line(&format!(
                    "    if act {{ set_grf_bits({byte}u + i * {}u, {n}u, select(vec2<u32>(0u, 0u), vec2<u32>(0xffffffffu, 0xffffffffu), t)); }}",
                    d.hstride * n
                ));
                e.line("    workgroupBarrier();");
            }
        }
    }
    Ok(())
}

/// `scatter4_scaled` (cpu::grf::store_scaled): each enabled channel's
/// enabled colour channels to the buffer, one dword each, dropped unless
/// wholly inside the buffer.
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
    channel_prologue(e, offset, ch)?;
    e.line("    if act {");
    e.line(&format!(
        "        let g = to_int({}).x;",
        src_expr(global, "0u")
    ));
    e.line(&format!(
        "        let a = g + grf_bits(region_element({}u, {}u, {}u, {}u, {}, i), 4u).x;",
        offsets.byte,
        offsets.vstride,
        offsets.width,
        offsets.hstride,
        ty(offsets.ty)
    ));
    e.line(&format!(
        "        if a % 4u != 0u {{ fault = select(fault, {offset}u, fault == 0u); }}"
    ));
    let mut pos = 0;
    for c in 0..4u64 {
        if mask >> c & 1 == 0 {
            continue;
        }
        // addr + 4 <= bytes with addr = a + 4c, as a bound on a.
        if let Some(limit) = bytes.checked_sub(4 + 4 * c) {
            e.line(&format!(
                "        if a % 4u == 0u && a <= {}u {{ atomicStore(&mem[({rel}u + a + {}u) / 4u], grf_bits({}u + 4u * i, 4u).x); }}",
                limit.min(u64::from(u32::MAX)),
                4 * c,
                src + pos * block
            ));
        }
        pos += 1;
    }
    e.line("    }");
    e.line("    storageBarrier();");
    Ok(())
}

/// A one-line description of an operation for the WGSL comment.
fn describe(op: &GrfOp) -> String {
    match op {
        GrfOp::Alu { op, sat, .. } => {
            format!("{op:?}{}", if *sat { ".sat" } else { "" }).to_lowercase()
        }
        GrfOp::Cmp { rel, .. } => format!("cmp.{rel:?}").to_lowercase(),
        GrfOp::Setp { .. } => "setp".into(),
        GrfOp::StageAddress { .. } => "stage the address VGPRs".into(),
        GrfOp::SetExec { .. } => "EXEC = channel enable".into(),
        GrfOp::ScatterResult { .. } => "scatter the results".into(),
        GrfOp::StoreScaled { .. } => "scatter4_scaled".into(),
    }
}
