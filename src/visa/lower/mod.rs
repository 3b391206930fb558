//! Lowering a checked vISA [`Program`] into [`crate::ir`] for one launch
//! (docs/visa.md, "Execution"; docs/semantics.md, "Intel vISA").
//!
//! An Intel thread runs as one gfx10 wave32 wave whose lanes are its
//! channels; its GRF is laid over the VGPR file ([`layout`]). Setup
//! instructions become [`GrfOp`]s. Each sampler instruction becomes: SGPR
//! moves staging the T#/S# that the binding and sampler tables give for its
//! surface/sampler index, an address-staging op, EXEC = the channel-enable
//! mask, a synthesised AMD `Mimg` of the same meaning run by the shared
//! sampler, and a scatter of the results into the vISA destination layout
//! ([`sample`]). Surface and sampler indices must be launch constants: the
//! inputs' values from the manifest, or `movs` of an immediate.

pub mod aoffimmi;
pub mod gather;
pub mod layout;
pub mod msaa;
pub mod sample;

use super::inst::{Exec, Inst, Modifier, Operand, Pred};
use super::{Item, Program, VisaError};
use crate::arch::Arch;
use crate::ir::grf::{
    AluOp, Channels, CmpDst, GrfDst, GrfOp, GrfSrc, PredCtrl, PredUse, Region, Relation, SrcMod,
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
    /// True on an Xe2 platform (its Xe2-only sampler messages run; the gather4
    /// programmable-offset ones do not).
    pub xe2: bool,
    /// Binding table: surface index → binding.
    pub surfaces: BTreeMap<u32, Binding>,
    /// Sampler table: sampler index → S# (gfx10).
    pub samplers: BTreeMap<u32, [u32; 4]>,
    /// Values of surface/sampler variables given as inputs, by name.
    pub state_inputs: BTreeMap<String, u32>,
}

/// The arch lowered vISA runs as: gfx10 (wave32, so a SIMD32 thread is one wave).
pub fn arch() -> Arch {
    Arch::parse("gfx1030").unwrap_or_else(Arch::default_arch)
}

fn at(line: usize, message: impl Into<String>) -> VisaError {
    VisaError {
        line,
        message: message.into(),
    }
}

/// The lowering of one program: its ops (the offset of each is its source
/// line) and its register layout.
#[derive(Clone, Debug)]
pub struct Lowered {
    /// The IR program.
    pub prog: IrProgram,
    /// Where each variable lives.
    pub layout: Layout,
}

/// Lowers `prog` for `target`. Refuses (by line) what
/// [`Program::check_supported`] refuses and whatever the lowering does not
/// model, never skipping an instruction.
pub fn lower(prog: &Program, target: &Target) -> Result<Lowered, VisaError> {
    prog.check_supported()?;
    let layout = layout::layout(prog, target.grf).map_err(|m| at(0, m))?;
    let mut cx = Cx {
        layout: &layout,
        target,
        state: target.state_inputs.clone(),
        ops: Vec::new(),
    };
    for s in &prog.body {
        if let Item::Inst(i) = &s.item {
            cx.inst(i, s.line).map_err(|m| at(s.line, m))?;
        }
    }
    Ok(Lowered {
        prog: IrProgram {
            arch: arch(),
            ops: cx.ops,
        },
        layout,
    })
}

struct Cx<'a> {
    layout: &'a Layout,
    target: &'a Target,
    /// Known surface/sampler values: `name` → index.
    state: BTreeMap<String, u32>,
    ops: Vec<(usize, Op)>,
}

type Res<T> = Result<T, String>;

impl Cx<'_> {
    fn push(&mut self, line: usize, op: GrfOp) {
        self.ops.push((line, Op::Grf(Box::new(op))));
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
                let alu = match *op {
                    "mov" => AluOp::Mov,
                    "add" => AluOp::Add,
                    "mul" => AluOp::Mul,
                    "sel" => AluOp::Sel,
                    "or" => AluOp::Or,
                    "shl" => AluOp::Shl,
                    other => return Err(format!("`{other}` is not lowered")),
                };
                let p = pred.as_ref().map(|p| self.pred(p)).transpose()?;
                let (ch_pred, select) = if alu == AluOp::Sel {
                    (None, p)
                } else {
                    (p, None)
                };
                let ch = self.channels(*exec, ch_pred);
                let dst = self.dst(dst, *exec)?;
                if dst.byte == Some(self.layout.var("%cr0")?.byte) {
                    // The model rounds to nearest even and keeps denormals:
                    // only mode bits that select exactly that may be set.
                    self.check_cr0(srcs)?;
                }
                let srcs = srcs
                    .iter()
                    .map(|s| self.src(s, *exec))
                    .collect::<Res<Vec<_>>>()?;
                // IGC's verifier (GenX_IR 12504, checked on TGLLP): arithmetic
                // with an F/HF operand must use one type for all operands.
                let tys = std::iter::once(dst.ty).chain(srcs.iter().map(|s| s.ty()));
                if matches!(alu, AluOp::Add | AluOp::Mul)
                    && tys.clone().any(|t| t.is_float())
                    && tys.clone().any(|t| t != dst.ty)
                {
                    return Err(format!(
                        "`{op}` mixes types with a float operand; vISA requires one type (convert with `mov`)"
                    ));
                }
                self.push(
                    line,
                    GrfOp::Alu {
                        op: alu,
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
                self.push(line, GrfOp::Setp { ch, sgpr, src });
            }
            Inst::Cmp {
                rel,
                exec,
                dst,
                srcs,
            } => {
                let rel = [
                    Relation::Eq,
                    Relation::Ne,
                    Relation::Gt,
                    Relation::Ge,
                    Relation::Lt,
                    Relation::Le,
                ]
                .get(usize::from(*rel))
                .copied()
                .ok_or("unknown relation")?;
                let dst = match dst {
                    Operand::Pred(p) => CmpDst::Pred(self.pred_sgpr(p)?),
                    d => CmpDst::Grf(self.dst(d, *exec)?),
                };
                let ch = self.channels(*exec, None);
                let srcs = [self.src(&srcs[0], *exec)?, self.src(&srcs[1], *exec)?];
                self.push(line, GrfOp::Cmp { rel, ch, dst, srcs });
            }
            Inst::Ret { pred: None, .. } => self.ops.push((line, Op::End)),
            Inst::Ret { pred: Some(_), .. } => {
                return Err("a predicated `ret` (per-channel control flow) is not modelled".into())
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
                    GrfOp::StoreScaled {
                        ch,
                        base,
                        bytes,
                        global,
                        offsets: Region {
                            byte: off.0,
                            ty: crate::ir::grf::ElemType::Ud,
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
    fn binding(&self, surface: &str) -> Res<&Binding> {
        let idx = self.state_value(surface)?;
        self.target.surfaces.get(&idx).ok_or_else(|| {
            format!("surface `{surface}` = {idx}: the binding table has no entry {idx}")
        })
    }

    fn state_value(&self, name: &str) -> Res<u32> {
        self.state.get(name).copied().ok_or_else(|| {
            format!(
                "`{name}` has no known value: set it with `movs` of an immediate or give it as an input in the manifest"
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
        let v = self.layout.var(&r.name)?;
        if r.offset >= v.bytes {
            return Err(format!("`{}.{}` lies past `{}`", r.name, r.offset, r.name));
        }
        Ok((v.byte + r.offset, v))
    }

    fn region_of(&self, name: &str, row: u32, col: u32) -> Res<(u32, layout::Var)> {
        let v = self.layout.var(name)?;
        let ty = v
            .ty
            .ok_or_else(|| format!("`{name}` has type {}, which is not executed", v.visa.name()))?;
        Ok((v.byte + row * self.layout.grf + col * ty.bytes(), v))
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
                ty: crate::ir::grf::ElemType::Ud,
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
                    return Ok(GrfSrc::Imm(0, crate::ir::grf::ElemType::Ud));
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
