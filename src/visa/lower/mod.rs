//! Lowering a checked vISA [`Program`] into [`crate::ir`] for one launch
//! (docs/visa.md, "Execution"; docs/semantics/intel.md).
//!
//! An Intel thread runs as one gfx10 wave32 wave whose lanes are its
//! channels; its GRF is laid over the VGPR file ([`layout`]). Setup
//! instructions become [`VisaOp`]s. Each sampler instruction becomes: SGPR
//! moves staging the T#/S# that the binding and sampler tables give for its
//! surface/sampler index, an address-staging op, EXEC = the channel-enable
//! mask, a synthesised AMD `Mimg` of the same meaning run by the shared
//! sampler, and a scatter of the results into the vISA destination layout
//! ([`sample`]). Surface and sampler indices must be launch constants: the
//! inputs' values from the manifest, or `movs` of an immediate.

pub mod aoffimmi;
mod cube;
pub mod flow;
pub mod gather;
pub mod layout;
pub mod msaa;
pub mod sample;

use super::inst::{BranchKind, Exec, Inst, Modifier, Operand, Pred};
use super::{Item, Program, VisaError};
use crate::arch::Arch;
use crate::ir::alu::{AluFn, Family, Rel, Ty};
use crate::ir::visa::{
    exec_float, Channels, CmpDst, ElemType, GrfDst, GrfSrc, NamedVar, PredCtrl, PredUse, Region,
    SrcMod, Staging, VarMap, VisaOp, ADDR_SPAN, DATA_SPAN, GRF_VGPRS, PRED_SGPR, THREAD_LANES,
};
use crate::ir::{Op, Program as IrProgram};
use crate::texture::descriptor::ImageDesc;
use layout::Layout;
use std::collections::BTreeMap;

/// What a binding-table entry holds.
#[derive(Clone, Debug, PartialEq)]
pub enum Binding {
    /// An image: its T# (gfx10) and the model of it.
    Image {
        /// T# dwords.
        tsharp: [u32; 8],
        /// Decoded model.
        desc: ImageDesc,
    },
    /// A buffer in memory.
    Buffer {
        /// Address.
        base: u64,
        /// Size in bytes.
        bytes: u64,
    },
}

/// The launch state a lowering needs.
#[derive(Clone, Debug, Default)]
pub struct Target {
    /// GRF size in bytes (32 on TGLLP, 64 on Xe2+).
    pub grf: u32,
    /// Binding table: surface index → binding.
    pub surfaces: BTreeMap<u32, Binding>,
    /// Sampler table: sampler index → S# (gfx10).
    pub samplers: BTreeMap<u32, [u32; 4]>,
    /// Sampler indices whose Intel address mode is CUBE (seamless cube
    /// filtering; their S# clamps to the last texel).
    pub cube_samplers: std::collections::BTreeSet<u32>,
    /// Values of surface/sampler variables given as inputs, by name.
    pub state_inputs: BTreeMap<String, u32>,
}

impl Target {
    /// True on an Xe2 platform: every 64-byte-GRF platform gcnrun knows is one
    /// (its Xe2-only sampler messages run; the gather4 programmable-offset
    /// ones do not).
    pub fn xe2(&self) -> bool {
        self.grf == 64
    }
}

/// The arch lowered vISA runs as: gfx10 (wave32, so a SIMD32 thread is one wave).
pub fn arch() -> Arch {
    Arch::parse("gfx1030").unwrap_or_else(Arch::default_arch)
}

fn at(line: usize, message: impl Into<String>) -> VisaError {
    VisaError::new(line, super::VisaErrorKind::Lower(message.into()))
}

/// The lowering of one program: its ops (the offset of each is its source
/// line) and its register layout.
#[derive(Clone, Debug)]
pub struct Lowered {
    /// The IR program.
    pub prog: IrProgram,
    /// Where each variable lives.
    pub layout: Layout,
    /// The same, by name, for reports ([`var_map`]).
    pub names: VarMap,
}

/// The program's variables and predicates with their places, in the terms a
/// report uses (`diff::compare_visa`): each variable's bytes and element type,
/// and whether it aliases another's bytes.
pub fn var_map(prog: &Program, layout: &Layout) -> VarMap {
    let vars = layout
        .vars
        .iter()
        .map(|(name, v)| NamedVar {
            name: name.clone(),
            byte: v.byte,
            bytes: v.bytes,
            ty: v.visa.name(),
            elem: v.visa.bytes().clamp(1, 8),
            alias: prog.decls.iter().any(|d| {
                &d.name == name
                    && matches!(
                        &d.kind,
                        crate::visa::VarKind::General { alias: Some(_), .. }
                    )
            }),
        })
        .collect();
    VarMap {
        grf: layout.grf,
        vars,
        predicates: layout.preds.iter().map(|(n, s)| (n.clone(), *s)).collect(),
    }
}

/// Lowers `prog` for `target`. Refuses (by line) what
/// [`Program::check_supported`] refuses and whatever the lowering does not
/// model, never skipping an instruction.
pub fn lower(prog: &Program, target: &Target) -> Result<Lowered, VisaError> {
    // The staging VGPRs go right above the GRF rows the operations touch, as
    // many as the image ops stage, which the lowering tells: lowered once
    // with the widest staging, then again with the staging fitted (the GRF
    // operations do not depend on where the staging is).
    let top = lower_with(prog, target, Staging::TOP)?;
    let (mut grf_end, mut addr_rows, mut data_rows) = (top.layout.total, 0, 0);
    for (_, op) in &top.prog.ops {
        match op {
            Op::Visa(g) => {
                grf_end = grf_end.max(g.grf_end());
                match &**g {
                    VisaOp::StageAddress { slots, .. } => {
                        addr_rows = addr_rows.max(slots.len() as u32);
                    }
                    // s', t', face_id from `at`.
                    VisaOp::StageCube { at, .. } => addr_rows = addr_rows.max(at + 3),
                    VisaOp::ScatterResult { count, .. } => data_rows = data_rows.max(*count),
                    VisaOp::Resinfo { values, .. } => {
                        data_rows = data_rows.max(values.len() as u32);
                    }
                    _ => {}
                }
            }
            // An image op returns at least one value, even with DMASK 0.
            Op::Image(_) => data_rows = data_rows.max(1),
            _ => {}
        }
    }
    if addr_rows > ADDR_SPAN || data_rows > DATA_SPAN {
        return Ok(top);
    }
    let rows = grf_end.div_ceil(THREAD_LANES * 4).min(GRF_VGPRS);
    lower_with(prog, target, Staging::fitted(rows, addr_rows, data_rows))
}

/// [`lower`] with the image ops' staging VGPRs at `staging`.
fn lower_with(prog: &Program, target: &Target, staging: Staging) -> Result<Lowered, VisaError> {
    prog.check_supported()?;
    let layout = layout::layout(prog, target.grf).map_err(|e| VisaError::new(0, e))?;
    let preds = layout.preds.len() as u32;
    let flow = flow::analyse(prog, PRED_SGPR + preds, preds)?;
    let mut cx = Cx {
        layout: &layout,
        target,
        staging,
        state: target.state_inputs.clone(),
        ops: Vec::new(),
        waits: flow.waits.clone(),
        diverged: false,
        loop_depth: 0,
    };
    // SIMD control flow (docs/semantics/intel.md): after the first branch or `ret`
    // a channel set may be empty, and then nothing executes until a label
    // where channels wait. So the code from each branch, `ret` or label (after
    // the first branch) to the next label is an `IfActive` region. `guard`:
    // the next instruction opens one; `open`: regions open now.
    let (mut guard, mut open) = (false, 0);
    // The surface/sampler values every jump source so far agrees on: code
    // after a label may be reached from any of them, skipping `movs`.
    let mut sources: Option<BTreeMap<String, u32>> = None;
    // The surface/sampler values assumed at each open loop's header: its
    // backward branch must bring the same ones.
    let mut headers: Vec<BTreeMap<String, u32>> = Vec::new();
    for (k, s) in prog.body.iter().enumerate() {
        match (&s.item, flow.closed_at(k)) {
            (Item::Label(l), _) => {
                for _ in 0..open {
                    cx.push(s.line, VisaOp::EndIfActive);
                }
                open = 0;
                if let Some(m) = &sources {
                    cx.state = meet(&cx.state, m);
                }
                // A loop's header: `Loop` opens it before the label's join,
                // so that channels waiting there rejoin on the first trip.
                if flow.loops.contains_key(l) {
                    cx.push(s.line, VisaOp::Loop);
                    cx.loop_depth += 1;
                    headers.push(cx.state.clone());
                }
                if let Some(&wait) = cx.waits.get(l) {
                    cx.push(s.line, VisaOp::Join { wait });
                }
                guard = cx.diverged;
            }
            (Item::Inst(i), Some(lp)) => {
                if guard {
                    cx.push(s.line, VisaOp::IfActive);
                    open += 1;
                }
                cx.back_branch(i, s.line, lp).map_err(|m| at(s.line, m))?;
                let header = headers.pop().unwrap_or_default();
                if let Some((name, v)) = header.iter().find(|(n, v)| cx.state.get(*n) != Some(v)) {
                    return Err(at(
                        s.line,
                        format!("`{name}` is {v} at the loop's header but not at its backward branch: a surface or sampler index that changes around a loop is not modelled"),
                    ));
                }
                // The loop's end: the regions opened inside it close before
                // it, then the channels parked by the branch rejoin.
                for _ in 0..open {
                    cx.push(s.line, VisaOp::EndIfActive);
                }
                open = 0;
                cx.push(s.line, VisaOp::EndLoop { again: lp.again });
                cx.push(s.line, VisaOp::Join { wait: lp.wait });
                cx.loop_depth -= 1;
                cx.diverged = true;
                guard = true;
            }
            (Item::Inst(i), None) => {
                if guard {
                    cx.push(s.line, VisaOp::IfActive);
                    open += 1;
                    guard = false;
                }
                cx.inst(i, s.line).map_err(|m| at(s.line, m))?;
                if matches!(i, Inst::Branch { .. } | Inst::Ret { .. }) {
                    cx.diverged = true;
                    guard = true;
                    sources = Some(match sources {
                        None => cx.state.clone(),
                        Some(m) => meet(&m, &cx.state),
                    });
                }
            }
            (Item::Function(_), _) => {}
        }
    }
    for _ in 0..open {
        cx.push(prog.body.last().map_or(0, |s| s.line), VisaOp::EndIfActive);
    }
    Ok(Lowered {
        prog: IrProgram {
            // The GRF's rows (those below the staging), then the staged
            // addresses and the results, as many as the image ops use (none
            // for a program without them): the file a thread stores before
            // it runs.
            vgpr_rows: staging.end,
            ..IrProgram::new(arch(), cx.ops)
        },
        names: var_map(prog, &layout),
        layout,
    })
}

/// The entries on which two surface/sampler value maps agree.
fn meet(a: &BTreeMap<String, u32>, b: &BTreeMap<String, u32>) -> BTreeMap<String, u32> {
    a.iter()
        .filter(|(k, v)| b.get(*k) == Some(v))
        .map(|(k, v)| (k.clone(), *v))
        .collect()
}

/// What operands a vISA ALU instruction takes (IGC's instruction pages).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// Any type (`mov`, `sel`).
    Any,
    /// Integer or float arithmetic (`add`, `mul`).
    Arith,
    /// Bitwise logic: integers, no arithmetic source modifier (AND.md, NOT.md).
    Logic,
    /// Shifts: integers (SHL.md, SHR.md, ASR.md).
    Shift,
    /// Roundings: F only (RNDD.md).
    Round,
}

/// vISA mnemonic → the shared ALU family it runs, and its operand kind
/// (every entry of [`super::tables::ALU_OPS`]). The family's type is the
/// instruction's execution type ([`alu_fn`]).
const ALU_LOWERING: &[(&str, Family, Kind)] = &[
    ("mov", Family::Mov, Kind::Any),
    ("add", Family::Add, Kind::Arith),
    ("mul", Family::Mul, Kind::Arith),
    ("sel", Family::Select, Kind::Any),
    ("or", Family::Or, Kind::Logic),
    ("shl", Family::Shl, Kind::Shift),
    ("and", Family::And, Kind::Logic),
    ("xor", Family::Xor, Kind::Logic),
    ("not", Family::Not, Kind::Logic),
    ("shr", Family::Lshr, Kind::Shift),
    ("asr", Family::Ashr, Kind::Shift),
    ("rndd", Family::Floor, Kind::Round),
    ("rndu", Family::Ceil, Kind::Round),
    ("rnde", Family::Rndne, Kind::Round),
    ("rndz", Family::Trunc, Kind::Round),
];

/// The shared function an ALU instruction runs: its family on the
/// execution type (`ir::visa::VisaOp::Alu`). Floats compute on F32 (a
/// rounding's only type); integers on 64 bits — signed for arithmetic and
/// `asr`, unsigned for `shr`, plain bits for logic, `shl` and moves. `sel`
/// selects the bits of its sources converted to the destination type.
fn alu_fn(family: Family, srcs: &[GrfSrc]) -> AluFn {
    let ty = match family {
        Family::Select => Ty::B64,
        _ if exec_float(srcs) => Ty::F32,
        Family::Add | Family::Mul | Family::Ashr => Ty::I64,
        Family::Lshr => Ty::U64,
        _ => Ty::B64,
    };
    AluFn::new(family, ty)
}

/// vISA's relations, in its binary order (`super::tables::RELATIONS`: eq, ne,
/// gt, ge, lt, le), as shared compares on floats and on integers: `ne` holds
/// for unordered floats (`!(a == b)`, IEEE), the others do not.
const RELATIONS: [(Rel, Rel); 6] = [
    (Rel::Eq, Rel::Eq),
    (Rel::Neq, Rel::Lg),
    (Rel::Gt, Rel::Gt),
    (Rel::Ge, Rel::Ge),
    (Rel::Lt, Rel::Lt),
    (Rel::Le, Rel::Le),
];

/// The operand types the vISA instruction pages allow (checked here so
/// that neither backend meets another type): logic ops and shifts are
/// integer (AND.md, NOT.md, SHR.md, ASR.md: `shr` on unsigned dst and src0,
/// `asr` on signed), the roundings F only (RNDD.md).
fn check_types(name: &str, family: Family, kind: Kind, dst: ElemType, srcs: &[GrfSrc]) -> Res<()> {
    let tys = || std::iter::once(dst).chain(srcs.iter().map(|s| s.ty()));
    if matches!(kind, Kind::Logic | Kind::Shift) && tys().any(|t| t.is_float()) {
        return Err(format!("`{name}` takes integer operands only"));
    }
    if kind == Kind::Round && tys().any(|t| t != ElemType::F) {
        return Err(format!(
            "`{name}` takes F operands only (RNDD.md: supported type F)"
        ));
    }
    let src0 = srcs.first().map(|s| s.ty());
    let both = [Some(dst), src0];
    match family {
        Family::Lshr if both.iter().any(|t| t.is_some_and(|t| t.is_signed())) => {
            Err(format!("`{name}`: dst and src0 must be unsigned (SHR.md)"))
        }
        Family::Ashr if both.iter().any(|t| t.is_some_and(|t| !t.is_signed())) => {
            Err(format!("`{name}`: dst and src0 must be signed (ASR.md)"))
        }
        _ => Ok(()),
    }
}

struct Cx<'a> {
    layout: &'a Layout,
    target: &'a Target,
    /// Where image ops stage their addresses and results.
    staging: Staging,
    /// Known surface/sampler values: `name` → index.
    state: BTreeMap<String, u32>,
    ops: Vec<(usize, Op)>,
    /// Branch-target label → its wait-mask SGPR ([`flow`]).
    waits: BTreeMap<String, u32>,
    /// A branch or `ret` came before: channels may be waiting or returned.
    diverged: bool,
    /// Loops open at the instruction being lowered.
    loop_depth: usize,
}

/// The lowering's own refusals, in its words: [`lower`] gives them their line
/// as a [`VisaError`] of kind [`super::VisaErrorKind::Lower`].
type Res<T> = Result<T, String>;

impl Cx<'_> {
    fn push(&mut self, line: usize, op: VisaOp) {
        self.ops.push((line, Op::Visa(Box::new(op))));
    }

    fn inst(&mut self, i: &Inst, line: usize) -> Res<()> {
        match i {
            Inst::Alu {
                op,
                sat,
                pred,
                exec,
                dst,
                srcs,
            } => {
                let (family, kind) = ALU_LOWERING
                    .iter()
                    .find(|a| a.0 == *op)
                    .map(|a| (a.1, a.2))
                    .ok_or_else(|| format!("`{op}` is not lowered"))?;
                let p = pred.as_ref().map(|p| self.pred(p)).transpose()?;
                let (ch_pred, select) = if family == Family::Select {
                    (None, p)
                } else {
                    (p, None)
                };
                let ch = self.channels(*exec, ch_pred);
                let dst = self.dst(dst, *exec)?;
                if dst.byte == Some(self.var("%cr0")?.byte) {
                    // The model rounds to nearest even and keeps denormals:
                    // only mode bits that select exactly that may be set.
                    self.check_cr0(srcs)?;
                }
                // AND.md, NOT.md: logic ops take the logic modifier only (not
                // parsed here); SHR.md/ASR.md allow arithmetic ones.
                if kind == Kind::Logic
                    && srcs.iter().any(|s| {
                        matches!(s, Operand::Var { modifier, .. } if *modifier != Modifier::None)
                    })
                {
                    return Err(format!(
                        "`{op}` takes no arithmetic source modifier (vISA logic instruction)"
                    ));
                }
                let srcs = srcs
                    .iter()
                    .map(|s| self.src(s, *exec))
                    .collect::<Res<Vec<_>>>()?;
                check_types(op, family, kind, dst.ty, &srcs)?;
                // IGC's verifier (GenX_IR 12504, checked on TGLLP): arithmetic
                // with an F/HF operand must use one type for all operands.
                let tys = std::iter::once(dst.ty).chain(srcs.iter().map(|s| s.ty()));
                if kind == Kind::Arith
                    && tys.clone().any(|t| t.is_float())
                    && tys.clone().any(|t| t != dst.ty)
                {
                    return Err(format!(
                        "`{op}` mixes types with a float operand; vISA requires one type (convert with `mov`)"
                    ));
                }
                let func = alu_fn(family, &srcs);
                let needed = func.signature().inputs.iter().flatten().count();
                if srcs.len() < needed {
                    return Err(format!("`{op}` takes {needed} sources"));
                }
                self.push(
                    line,
                    VisaOp::Alu {
                        func,
                        sat: *sat,
                        ch,
                        select,
                        dst,
                        srcs,
                    },
                );
            }
            Inst::Movs { dst, src, .. } => {
                let Operand::State { name, index } = dst else {
                    return Err("`movs` into a general variable is not modelled".into());
                };
                let Operand::Imm { bits, .. } = src else {
                    return Err(
                        "`movs` of a non-immediate: surface and sampler indices must be launch constants"
                            .into(),
                    );
                };
                if *index != 0 {
                    return Err(format!("`{name}({index})`: only element 0 is modelled"));
                }
                self.state.insert(name.clone(), *bits as u32);
            }
            Inst::Setp { exec, dst, src } => {
                let sgpr = self.pred_sgpr(dst)?;
                let ch = self.channels(*exec, None);
                let src = self.src(src, *exec)?;
                self.push(line, VisaOp::Setp { ch, sgpr, src });
            }
            Inst::Cmp {
                rel,
                exec,
                dst,
                srcs,
            } => {
                let (float_rel, int_rel) = RELATIONS
                    .get(usize::from(*rel))
                    .copied()
                    .ok_or("unknown relation")?;
                let dst = match dst {
                    Operand::Pred(p) => CmpDst::Pred(self.pred_sgpr(p)?),
                    d => CmpDst::Grf(self.dst(d, *exec)?),
                };
                let ch = self.channels(*exec, None);
                let srcs = [self.src(&srcs[0], *exec)?, self.src(&srcs[1], *exec)?];
                let func = if exec_float(&srcs) {
                    AluFn::new(Family::Cmp(float_rel), Ty::F32)
                } else {
                    AluFn::new(Family::Cmp(int_rel), Ty::I64)
                };
                self.push(
                    line,
                    VisaOp::Cmp {
                        func,
                        ch,
                        dst,
                        srcs,
                    },
                );
            }
            // RET.md: exec size 1 ends the thread when its predicate holds;
            // a wider one retires the predicated active channels. Before any
            // branch an unpredicated one is certainly reached with every
            // channel, and is the end of the program (outside loops, whose
            // structure the backends keep whole).
            Inst::Ret { pred: None, exec }
                if exec.size == 1 && !self.diverged && self.loop_depth == 0 =>
            {
                self.ops.push((line, Op::End))
            }
            Inst::Ret { pred, exec } => {
                if exec.size > 1 && exec.no_mask {
                    return Err(
                        "`ret` wider than 1 with `_NM` is not modelled: it retires active channels"
                            .into(),
                    );
                }
                let p = pred.as_ref().map(|p| self.pred(p)).transpose()?;
                let ch = self.channels(*exec, p);
                self.push(
                    line,
                    VisaOp::Ret {
                        ch,
                        uniform: exec.size == 1,
                    },
                );
            }
            // GOTO.md / JMP.md; a jmp is a branch of the whole thread, which
            // for a forward target is a goto of exec size 1 (flow.rs refuses
            // the one difference: passing a label where channels wait).
            Inst::Branch {
                kind,
                pred,
                exec,
                label,
            } => {
                let wait = *self.waits.get(label).ok_or_else(|| {
                    format!("`{}` to `{label}`: not a branch target", kind.name())
                })?;
                let p = pred.as_ref().map(|p| self.pred(p)).transpose()?;
                let ch = self.channels(*exec, p);
                let uniform = *kind == BranchKind::Jmp || exec.size == 1;
                self.push(line, VisaOp::Goto { ch, uniform, wait });
            }
            Inst::Sampler(s) => sample::lower(self, s, line)?,
            Inst::Scatter4Scaled {
                pred,
                channels,
                exec,
                surface,
                offset,
                element_offset,
                src,
            } => {
                let p = pred.as_ref().map(|p| self.pred(p)).transpose()?;
                let ch = self.channels(*exec, p);
                let (base, bytes) = match self.binding(surface)? {
                    Binding::Buffer { base, bytes } => (*base, *bytes),
                    Binding::Image { .. } => {
                        return Err(format!(
                        "`scatter4_scaled` to `{surface}`: its binding is an image, not a buffer"
                    ))
                    }
                };
                let global = self.src(offset, Exec { size: 1, ..*exec })?;
                let off = self.raw(element_offset)?;
                let data = self.raw(src)?;
                let block = 4 * u32::from(exec.size).max(self.layout.grf / 4);
                self.push(
                    line,
                    VisaOp::StoreScaled {
                        ch,
                        base,
                        bytes,
                        global,
                        offsets: Region {
                            byte: off.0,
                            ty: crate::ir::visa::ElemType::Ud,
                            vstride: 1,
                            width: 1,
                            hstride: 1,
                        },
                        src: data.0,
                        mask: *channels,
                        block,
                    },
                );
            }
            Inst::Unsupported { mnemonic, .. } => {
                return Err(format!("`{mnemonic}` is not supported (see docs/visa.md)"))
            }
        }
        Ok(())
    }

    /// A backward `goto` or `jmp` closing loop `lp` (GOTO.md, backward
    /// jump; a `jmp` is a branch of the whole thread, JMP.md).
    fn back_branch(&mut self, i: &Inst, line: usize, lp: &flow::Loop) -> Res<()> {
        let Inst::Branch {
            kind, pred, exec, ..
        } = i
        else {
            return Err("a loop closes at an instruction that is not a branch".into());
        };
        let p = pred.as_ref().map(|p| self.pred(p)).transpose()?;
        let ch = self.channels(*exec, p);
        let uniform = *kind == BranchKind::Jmp || exec.size == 1;
        self.push(
            line,
            VisaOp::BackGoto {
                ch,
                uniform,
                wait: lp.wait,
                again: lp.again,
            },
        );
        Ok(())
    }

    fn check_cr0(&self, srcs: &[Operand]) -> Res<()> {
        // cr0.0 bits 5:4 = rounding mode (0 = nearest even); other bits are
        // denormal retention and exception enables, which the model's choice
        // (keep denormals) already matches for IGC's 0x4c0.
        for s in srcs {
            if let Operand::Imm { bits, .. } = s {
                if bits & 0x30 != 0 {
                    return Err(format!(
                        "%cr0 rounding mode {:#x}: only round-to-nearest-even is modelled",
                        (bits >> 4) & 3
                    ));
                }
            }
        }
        Ok(())
    }

    /// The binding of a surface variable's (launch-constant) index.
    /// The variable a name denotes ([`Layout::var`]), its refusal in the
    /// lowering's words.
    fn var(&self, name: &str) -> Res<layout::Var> {
        self.layout.var(name).map_err(|e| e.to_string())
    }

    fn binding(&self, surface: &str) -> Res<&Binding> {
        let idx = self.state_value(surface)?;
        self.target.surfaces.get(&idx).ok_or_else(|| {
            format!("surface `{surface}` = {idx}: the binding table has no entry {idx}")
        })
    }

    fn state_value(&self, name: &str) -> Res<u32> {
        self.state.get(name).copied().ok_or_else(|| {
            format!(
                "`{name}` has no known value: set it with `movs` of an immediate or give it as an input in the manifest (after a label, only a value every branch into it agrees on is known)"
            )
        })
    }

    fn pred_sgpr(&self, name: &str) -> Res<u32> {
        self.layout
            .preds
            .get(name)
            .copied()
            .ok_or_else(|| format!("`{name}` is not a predicate"))
    }

    fn pred(&self, p: &Pred) -> Res<PredUse> {
        Ok(PredUse {
            sgpr: self.pred_sgpr(&p.name)?,
            invert: p.invert,
            ctrl: match p.ctrl {
                super::inst::PredCtrl::None => PredCtrl::None,
                super::inst::PredCtrl::Any => PredCtrl::Any,
                super::inst::PredCtrl::All => PredCtrl::All,
            },
        })
    }

    fn channels(&self, e: Exec, pred: Option<PredUse>) -> Channels {
        Channels {
            first: 4 * u32::from(e.mask),
            size: u32::from(e.size),
            no_mask: e.no_mask,
            pred,
        }
    }

    /// A raw operand's GRF byte and variable.
    fn raw(&self, r: &super::inst::Raw) -> Res<(u32, layout::Var)> {
        let v = self.var(&r.name)?;
        if r.offset >= v.bytes {
            return Err(format!("`{}.{}` lies past `{}`", r.name, r.offset, r.name));
        }
        Ok((v.byte + r.offset, v))
    }

    fn region_of(&self, name: &str, row: u32, col: u32) -> Res<(u32, layout::Var)> {
        let v = self.var(name)?;
        let ty = v
            .ty
            .ok_or_else(|| format!("`{name}` has type {}, which is not executed", v.visa.name()))?;
        // Rows and columns come from the text unchecked on predefined variables
        // (the parser cannot size them): measure in u64 and refuse a start past
        // the variable (`%cr0(0,0x80000000)` had overflowed here).
        let byte =
            u64::from(row) * u64::from(self.layout.grf) + u64::from(col) * u64::from(ty.bytes());
        if byte >= u64::from(v.bytes) {
            return Err(format!("`{name}({row},{col})` lies past `{name}`"));
        }
        Ok((v.byte + byte as u32, v))
    }

    fn dst(&self, d: &Operand, e: Exec) -> Res<GrfDst> {
        let Operand::Var {
            name,
            row,
            col,
            region,
            ..
        } = d
        else {
            return Err("the destination is not a general variable".into());
        };
        if name == "%null" {
            return Ok(GrfDst {
                byte: None,
                ty: crate::ir::visa::ElemType::Ud,
                hstride: 1,
            });
        }
        let (byte, v) = self.region_of(name, *row, *col)?;
        let ty = v.ty.ok_or("unexecuted type")?;
        let h = u32::from(region.h).max(1);
        let last = byte + (u32::from(e.size) - 1) * h * ty.bytes() + ty.bytes();
        if last > v.byte + v.bytes {
            return Err(format!(
                "destination `{name}({row},{col})` runs past `{name}`"
            ));
        }
        Ok(GrfDst {
            byte: Some(byte),
            ty,
            hstride: h,
        })
    }

    fn src(&self, s: &Operand, e: Exec) -> Res<GrfSrc> {
        match s {
            Operand::Imm { bits, ty } => {
                let t = layout::elem_type(*ty)
                    .ok_or_else(|| format!("an immediate of type {} is not executed", ty.name()))?;
                Ok(GrfSrc::Imm(*bits, t))
            }
            Operand::Var {
                name,
                modifier,
                row,
                col,
                region,
            } => {
                if name == "%null" {
                    return Ok(GrfSrc::Imm(0, crate::ir::visa::ElemType::Ud));
                }
                let (byte, v) = self.region_of(name, *row, *col)?;
                let ty = v.ty.ok_or("unexecuted type")?;
                let (vs, w) = region
                    .vw
                    .map_or((0, 1), |(v, w)| (u32::from(v), u32::from(w)));
                let r = Region {
                    byte,
                    ty,
                    vstride: vs,
                    width: w.max(1),
                    hstride: u32::from(region.h),
                };
                let last = r.element(u32::from(e.size) - 1) + ty.bytes();
                if last > v.byte + v.bytes {
                    return Err(format!("source `{name}({row},{col})` runs past `{name}`"));
                }
                let m = match modifier {
                    Modifier::None => SrcMod::None,
                    Modifier::Neg => SrcMod::Neg,
                    Modifier::Abs => SrcMod::Abs,
                    Modifier::NegAbs => SrcMod::NegAbs,
                };
                Ok(GrfSrc::Region(r, m))
            }
            Operand::Pred(p) => Err(format!("predicate `{p}` as a source is not modelled")),
            Operand::State { name, .. } => Err(format!(
                "`{name}` (a surface or sampler) as an ALU source is not modelled"
            )),
        }
    }
}
