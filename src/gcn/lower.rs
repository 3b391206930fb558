//! Lowering decoded GCN instructions into [`crate::ir`].
//!
//! Only what the interpreter executes is lowered; anything else is a
//! [`LowerError`] naming the instruction and its offset — never skipped.

use super::mimg::Mimg;
use super::{
    interp::{Interp, InterpOp},
    DecodeError, Inst, Kind,
};
use crate::arch::{Arch, Gen};
use crate::ir::image::{AddrRegs, ImageOp, ImageType};
use crate::ir::{self, InterpMods, InterpStep, Op, Program, Reg, Src, VinterpStep};

/// An instruction the interpreter does not execute.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("offset {offset:#x}: {what}")]
pub struct LowerError {
    /// Byte offset of the instruction.
    pub offset: usize,
    /// What it is and why it cannot run.
    pub what: String,
}

/// Lowers a decoded stream.
pub fn lower(insts: &[Inst], arch: &Arch) -> Result<Program, LowerError> {
    let mut ops: Vec<(usize, Op)> = insts
        .iter()
        .map(|inst| lower_inst(inst.clone(), arch))
        .collect::<Result<_, _>>()?;
    resolve_branches(&mut ops)?;
    let vgpr_rows = insts.iter().map(|i| i.vgpr_end(arch)).max().unwrap_or(0);
    Ok(Program {
        vgpr_rows,
        ..Program::new(*arch, ops)
    })
}

/// Turns the byte-offset targets of the lowered branches into op indices
/// (the first op of the instruction there). A target where no instruction
/// starts is refused, naming the branch.
pub fn resolve_branches(ops: &mut [(usize, Op)]) -> Result<(), LowerError> {
    let starts: Vec<usize> = ops.iter().map(|(o, _)| *o).collect();
    for (offset, op) in ops.iter_mut() {
        if let Op::Wave(w) = op {
            if let crate::ir::flow::WaveOp::Branch { target, .. } = &mut **w {
                let t = *target as usize;
                let i = starts.partition_point(|&o| o < t);
                if starts.get(i) != Some(&t) {
                    return Err(LowerError {
                        offset: *offset,
                        what: format!(
                            "the branch targets offset {t:#x}, where no instruction starts"
                        ),
                    });
                }
                *target = i as u32;
            }
        }
    }
    Ok(())
}

/// Why [`lower_bytes`] failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LowerBytesError {
    /// The stream cannot be decoded (empty, a partial dword, a truncated last
    /// instruction).
    #[error(transparent)]
    Decode(#[from] DecodeError),
    /// An instruction that is not executed.
    #[error(transparent)]
    Lower(#[from] LowerError),
}

/// Decodes and lowers `bytes` one instruction at a time, so that the decoded
/// program is never held whole: the memory it takes is the lowered program's
/// (see [`crate::ir::Op`]). The result, and which error wins, are those of
/// [`super::decode_stream`] then [`lower`]: a stream that cannot be decoded is
/// that error even when an instruction before the problem is refused.
pub fn lower_bytes(bytes: &[u8], arch: &Arch) -> Result<Program, LowerBytesError> {
    let mut stream = super::Stream::new(bytes, arch);
    let mut ops = Vec::new();
    let mut refused = None;
    let mut vgpr_rows = 0;
    for inst in stream.by_ref() {
        if refused.is_some() {
            // Only decoding is left to do: a decode error still comes first.
            continue;
        }
        vgpr_rows = inst.vgpr_end(arch).max(vgpr_rows);
        match lower_inst(inst, arch) {
            Ok(op) => ops.push(op),
            Err(e) => {
                refused = Some(e);
                ops = Vec::new();
            }
        }
    }
    if let Some(e) = stream.error() {
        return Err(e.clone().into());
    }
    match refused {
        Some(e) => Err(e.into()),
        None => {
            resolve_branches(&mut ops)?;
            Ok(Program {
                vgpr_rows,
                ..Program::new(*arch, ops)
            })
        }
    }
}

/// Lowers one decoded instruction, with the byte offset it came from. It is
/// taken by value: an image instruction's decoded form moves into its op.
pub fn lower_inst(inst: Inst, arch: &Arch) -> Result<(usize, Op), LowerError> {
    let Inst {
        offset,
        words,
        kind,
        ..
    } = inst;
    let fail = |what: String| LowerError { offset, what };
    let op = match kind {
        Kind::Invalid { reason } => return Err(fail(format!("invalid instruction: {reason}"))),
        Kind::Mimg(m) => Op::Image(Box::new(image_op(&m).map_err(fail)?)),
        Kind::Sopp(s) => match s.mnemonic() {
            "s_endpgm" => Op::End,
            "s_nop" => Op::Nop,
            "s_waitcnt" => Op::Wait,
            _ => super::lower_mem::lower_sopp(&s, offset).map_err(fail)?,
        },
        // The plain moves keep their own ops (both back ends run them).
        Kind::Salu(ref s) if matches!(s.mnemonic(), "s_mov_b32" | "s_movk_i32") => {
            lower_other(kind.mnemonic(), &words, arch).map_err(fail)?
        }
        Kind::Vop(ref v) if v.mnemonic() == "v_mov_b32_e32" => {
            lower_other(kind.mnemonic(), &words, arch).map_err(fail)?
        }
        Kind::Salu(s) => super::lower_alu::lower_salu(&s, arch).map_err(fail)?,
        Kind::Vop(v) => super::lower_alu::lower_vop(&v, arch).map_err(fail)?,
        // Cache write-backs and invalidations: gcnrun's memory has no
        // caches, every access completes in program order.
        Kind::Buffer(ref b)
            if matches!(
                b.mnemonic(),
                "buffer_gl0_inv"
                    | "buffer_gl1_inv"
                    | "buffer_wbinvl1"
                    | "buffer_wbinvl1_vol"
                    | "buffer_wbinvl1_sc"
                    | "buffer_inv"
            ) =>
        {
            Op::Wait
        }
        Kind::Buffer(b) => super::lower_mem::lower_buffer(&b, arch).map_err(fail)?,
        Kind::Vopd(d) => super::lower_alu::lower_vopd(&d, arch).map_err(fail)?,
        Kind::Smem(s) => super::lower_mem::lower_smem(&s).map_err(fail)?,
        Kind::Smrd(s) => super::lower_mem::lower_smrd(&s).map_err(fail)?,
        Kind::Flat(f) => super::lower_mem::lower_flat(&f).map_err(fail)?,
        Kind::Ds(d) => super::lower_mem::lower_ds(&d).map_err(fail)?,
        Kind::Interp(i) => lower_interp(&i).map_err(fail)?,
        Kind::Exp(x) => lower_exp(&x).map_err(fail)?,
        // Every other class by its mnemonic: the operand-decoded classes
        // (SALU, VALU, scalar and vector memory, LDS, exports) and `Other`.
        other => lower_other(other.mnemonic(), &words, arch).map_err(fail)?,
    };
    Ok((offset, op))
}

/// A decoded MIMG word as the operation it performs: registers as numbers (the
/// descriptor fields hold SGPR / 4), the DIM field as the image type it names
/// (gfx10+; before, the address layout comes from the resource), NSA forms as
/// their list of address VGPRs, and the gradient width resolved per generation
/// ([`gradients_16`]).
pub fn image_op(m: &Mimg) -> Result<ImageOp, String> {
    let r = &m.raw;
    let listed = m.nsa_form || m.op.kind == crate::ir::image::ImageKind::Bvh;
    let addr = if listed {
        // BVH addresses are a fixed count the decoder already expanded.
        AddrRegs::list(&m.address_vgprs())
            .ok_or_else(|| format!("`{}` lists too many address VGPRs", m.op.name))?
    } else {
        AddrRegs::Contiguous(r.vaddr)
    };
    Ok(ImageOp {
        op: m.op.sem,
        dim: (m.gen >= Gen::Gfx10).then(|| ImageType::ALL[(r.dim & 7) as usize]),
        dmask: r.dmask,
        unorm: r.unorm,
        atomic: super::mimg_ops::atomic_op(m.op.name),
        glc: r.glc,
        da: r.da,
        r128: r.r128,
        a16: r.a16,
        g16: m.op.gradients() && gradients_16(m.op.flags, r.a16, m.gen),
        tfe: r.tfe,
        lwe: r.lwe,
        d16: r.d16,
        vdata: r.vdata,
        addr,
        srsrc: r.srsrc * 4,
        ssamp: r.ssamp * 4,
    })
}

/// True when the derivatives of a gradient op are 16-bit: the `_g16` opcodes,
/// and A16 on gfx9, where gradients follow the address width because the
/// generation has no G16 control (LLVM `legalizeImageIntrinsic`: "16 bit
/// gradients are supported, but are tied to the A16 control"; `FeatureG16` is
/// in `FeatureGFX10`, not in gfx9's features).
pub fn gradients_16(flags: u16, a16: bool, gen: Gen) -> bool {
    flags & crate::ir::image::flag::G16 != 0 || (a16 && gen < Gen::Gfx10)
}

/// VINTRP and the VOP3 interps of gfx8–gfx10: the f32 steps with their VOP3
/// modifiers, and the f16 steps; gfx11 LDSDIR and VINTERP ([`lower_gfx11`]).
/// `v_interp_p2_legacy_f16` (gfx9), VOP3 OP_SEL, the gfx11 rtz forms and
/// special-register sources are refused by name.
fn lower_interp(i: &Interp) -> Result<Op, String> {
    if let Some(op) = lower_gfx11(i)? {
        return Ok(op);
    }
    let step = match (i.op, i.param) {
        (InterpOp::P1F32, _) => InterpStep::P1,
        (InterpOp::P2F32, _) => InterpStep::P2,
        (InterpOp::MovF32, Some(p)) if p <= 2 => InterpStep::Mov(p),
        (InterpOp::P1llF16, _) => InterpStep::P1llF16,
        (InterpOp::P1lvF16, _) => InterpStep::P1lvF16,
        (InterpOp::P2F16, _) => InterpStep::P2F16,
        _ => return Err(format!("`{}` is not executed yet", i.name)),
    };
    if i.op_sel != 0 {
        return Err(format!("`{}` with op_sel is not executed yet", i.name));
    }
    let ij = match step {
        InterpStep::Mov(_) => 0,
        _ => {
            i.ij.ok_or_else(|| format!("`{}` without a VGPR barycentric", i.name))?
        }
    };
    let vsrc2 = match step {
        InterpStep::P1lvF16 | InterpStep::P2F16 => i
            .vsrc2
            .ok_or_else(|| format!("`{}` without a VGPR second source", i.name))?,
        _ => 0,
    };
    Ok(Op::Interp(Box::new(ir::Interp {
        step,
        vdst: i.vdst,
        ij,
        attr: i.attr,
        chan: i.chan,
        mods: InterpMods {
            neg: i.neg,
            abs: i.abs,
            clamp: i.clamp,
            omod: i.omod,
            high: i.high,
            vsrc2,
        },
    })))
}

/// gfx11 LDSDIR and VINTERP (docs/semantics/interpolation.md, "gfx11 interpolation");
/// `None` for the older interps. `wait_vdst` / `wait_exp` are dependency
/// counters: the interpreter completes every instruction in order, so there is
/// nothing to wait for and the fields are dropped.
fn lower_gfx11(i: &Interp) -> Result<Option<Op>, String> {
    let step = match i.op {
        InterpOp::LdsParamLoad => {
            return Ok(Some(Op::LdsParamLoad {
                vdst: i.vdst,
                attr: i.attr,
                chan: i.chan,
            }))
        }
        InterpOp::LdsDirectLoad => return Ok(Some(Op::LdsDirectLoad { vdst: i.vdst })),
        InterpOp::P10F32 => VinterpStep::P10F32,
        InterpOp::P2F32Vinterp => VinterpStep::P2F32,
        InterpOp::P10F16F32 => VinterpStep::P10F16F32,
        InterpOp::P2F16F32 => VinterpStep::P2F16F32,
        // Round-toward-zero fused multiply-add and f16 conversion: not
        // executed (docs/errata.md IP4).
        InterpOp::P10RtzF16F32 | InterpOp::P2RtzF16F32 => {
            return Err(format!("`{}` is not executed yet", i.name))
        }
        _ => return Ok(None),
    };
    // OP_SEL bits that pick a half of an f16 operand (RDNA3 ISA §16.13: S0 and
    // S2 of p10 f16, D and S0 of p2 f16). The other bits would select a half of
    // a 32-bit operand, which no source describes (docs/errata.md IP3).
    let halves = match step {
        VinterpStep::P10F16F32 => 0b0101,
        VinterpStep::P2F16F32 => 0b1001,
        _ => 0,
    };
    if i.op_sel & !halves != 0 {
        return Err(format!(
            "`{}` with op_sel bits {:#06b} (a half of a 32-bit operand) is not executed",
            i.name,
            i.op_sel & !halves
        ));
    }
    let vgpr = |k: usize| {
        i.vsrcs[k].ok_or_else(|| format!("`{}` with a non-VGPR src{k} is not executed", i.name))
    };
    Ok(Some(Op::Vinterp(Box::new(ir::Vinterp {
        step,
        vdst: i.vdst,
        src: [vgpr(0)?, vgpr(1)?, vgpr(2)?],
        neg: i.neg,
        clamp: i.clamp,
        op_sel: i.op_sel,
    }))))
}

/// `s_mov_b32`, `s_movk_i32`, `v_mov_b32_e32`.
fn lower_other(name: Option<&str>, words: &[u32], arch: &Arch) -> Result<Op, String> {
    let w = words.first().copied().unwrap_or(0);
    let literal = words.get(1).copied();
    match name {
        Some("s_mov_b32") => Ok(Op::SMov {
            dst: scalar_reg((w >> 16) & 0x7f, arch).ok_or("s_mov_b32: unsupported destination")?,
            src: source(w & 0xff, literal, arch).ok_or("s_mov_b32: unsupported source")?,
        }),
        // SOPK: the 16-bit constant is sign-extended (LLVM SOPInstructions.td).
        Some("s_movk_i32") => Ok(Op::SMov {
            dst: scalar_reg((w >> 16) & 0x7f, arch).ok_or("s_movk_i32: unsupported destination")?,
            src: Src::Const(i32::from(w as u16 as i16) as u32),
        }),
        Some("v_mov_b32_e32") => Ok(Op::VMov {
            dst: (w >> 17) & 0xff,
            src: source(w & 0x1ff, literal, arch).ok_or("v_mov_b32: unsupported source")?,
        }),
        Some(n) => Err(format!("`{n}` is not executed by gcnrun (neither backend)")),
        None => Err("unnamed instruction".into()),
    }
}

/// `exp`: a colour or depth export as the slot dwords it writes
/// (`ir::export`); `exp null` writes nothing. Position and parameter exports
/// (vertex and primitive shaders) are refused.
fn lower_exp(x: &super::exp::Exp) -> Result<Op, String> {
    let target = x.target();
    if target == 9 {
        return Ok(Op::Nop);
    }
    if target > 8 {
        let name = super::exp::target_name(target, x.enc.gen).unwrap_or_else(|| target.to_string());
        return Err(format!(
            "`exp {name}`: only pixel-shader exports (mrt0–mrt7, mrtz, null) are executed by gcnrun"
        ));
    }
    let vgpr = |n: u32| match x.source(n) {
        Some(super::operand::Operand::Vgpr { first, .. }) => Some(first),
        _ => None,
    };
    // With COMPR each source VGPR holds two 16-bit components: EN bits 0–1
    // name VSRC0, bits 2–3 VSRC1 (gcn::exp::Exp::source).
    let dwords = if x.compr() {
        [vgpr(0).or(vgpr(1)), vgpr(2).or(vgpr(3)), None, None]
    } else {
        [vgpr(0), vgpr(1), vgpr(2), vgpr(3)]
    };
    Ok(Op::Export(crate::ir::export::Export {
        target: target as u8,
        dwords,
    }))
}

/// Where gcnrun keeps FLAT_SCRATCH (gfx7–gfx9), which kernel prologues
/// write: the SGPR pair gfx7 encodes it as, s104–s105 (on gfx8 and gfx9 those
/// codes are XNACK_MASK, which gcnrun refuses, and FLAT_SCRATCH is encodable
/// nowhere else), read back as written. No instruction gcnrun runs addresses
/// through it: private memory is where the launch lays it out
/// (docs/errata.md MB5).
pub(super) const FLAT_SCRATCH_SGPR: u32 = 104;

/// A scalar register code (SOP `sdst` / low part of a source) as an IR register.
/// m0 is 124 before gfx11 and 125 on gfx11 (LLVM SIRegisterInfo; operand.rs).
fn scalar_reg(code: u32, arch: &Arch) -> Option<Reg> {
    let m0 = if arch.gen == Gen::Gfx11 { 125 } else { 124 };
    // Plain SGPRs: s0–s103 on gfx6/7, s0–s101 on gfx8/9 (102–105 are
    // flat_scratch/xnack_mask), s0–s105 on gfx10+.
    let sgprs = match arch.gen {
        Gen::Gfx6 | Gen::Gfx7 => 104,
        Gen::Gfx8 | Gen::Gfx9 => 102,
        Gen::Gfx10 | Gen::Gfx11 => 106,
    };
    match code {
        c if c < sgprs => Some(Reg::Sgpr(c)),
        // FLAT_SCRATCH (codes 102–103 on gfx8/gfx9, 104–105 on gfx7).
        102 | 103 if matches!(arch.gen, Gen::Gfx8 | Gen::Gfx9) => {
            Some(Reg::Sgpr(FLAT_SCRATCH_SGPR + code - 102))
        }
        104 | 105 if arch.gen == Gen::Gfx7 => Some(Reg::Sgpr(FLAT_SCRATCH_SGPR + code - 104)),
        106 => Some(Reg::VccLo),
        107 => Some(Reg::VccHi),
        126 => Some(Reg::ExecLo),
        127 => Some(Reg::ExecHi),
        c if c == m0 => Some(Reg::M0),
        _ => None,
    }
}

/// A 9-bit source operand: registers, integer inline constants (128..=208),
/// f32 inline constants (240..=247), the 32-bit literal (255), VGPRs (256+).
pub(super) fn source(code: u32, literal: Option<u32>, arch: &Arch) -> Option<Src> {
    const F32_INLINE: [f32; 8] = [0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 4.0, -4.0];
    Some(match code {
        128..=192 => Src::Const(code - 128),
        193..=208 => Src::Const((-((code - 192) as i32)) as u32),
        240..=247 => Src::Const(F32_INLINE[(code - 240) as usize].to_bits()),
        // 1/(2π) (gfx8+).
        248 if arch.gen >= Gen::Gfx8 => Src::Const(0x3e22_f983),
        255 => Src::Const(literal?),
        256..=511 => Src::Reg(Reg::Vgpr(code - 256)),
        c => Src::Reg(scalar_reg(c, arch)?),
    })
}
