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

#[path = "translate_sample.rs"]
mod sample;
use crate::cpu::atomic::{self, AtomicOp};
use crate::cpu::image::{read_tsharp, require_linear, surface_of};
use crate::cpu::{Memory, WaveState};
use crate::gcn::mimg::Mimg;
use crate::gcn::mimg_ops::{flag, BaseKind};
use crate::ir::{InterpStep, Op, Program, Reg, Src};
use crate::texture::descriptor::{Image, ImageDesc, ImageType};
use crate::texture::format::{self, data_format, missing_component, NumFormat};
use crate::texture::layout::Surface;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Words of per-wave state before the VGPR slots: s0–s105, M0, EXEC lo/hi, VCC
/// lo/hi, one spare.
pub const HEADER_WORDS: u32 = 112;
/// State word of M0 (then EXEC lo, EXEC hi, VCC lo, VCC hi).
pub const M0_WORD: u32 = 106;

/// A translation failure: the instruction's byte offset and what is not
/// supported (or not valid) there.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("offset {offset:#x}: {message}")]
pub struct TranslateError {
    /// Byte offset of the instruction (0 for launch-wide problems).
    pub offset: usize,
    /// What went wrong.
    pub message: String,
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
    /// Dispatch the waves one at a time, in order (needed for exact 64-bit
    /// atomics and for programs whose waves read what other waves write).
    pub serial_waves: bool,
    /// The atomic instructions, in program order, when the translation traces
    /// them ([`Options::trace_atomics`]): their records are
    /// `trace[((wave × atomics.len() + k) × wave_size + lane) × TRACE_WORDS ..]`.
    pub atomics: Vec<TracedAtomic>,
}

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
}

/// Translation options.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options {
    /// Record every lane's atomic executions (address, old value, operands) in
    /// a trace buffer, for checking contended atomics against a serial order
    /// (`--diff`).
    pub trace_atomics: bool,
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
    let wave_size = waves.first().map_or(64, |w| w.wave_size);
    let lds_bytes = waves.first().map_or(0, |w| w.lds.len() as u32);
    let ops = live_ops(prog);
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
    let serial = needs_serial_waves(prog, &ops);
    let mut kernels = Vec::new();
    for (_, list) in groups {
        let first = &waves[list[0]];
        let mut e = Emitter::new(prog, mem, wave_size, lds_bytes);
        e.trace = options.trace_atomics;
        e.emit_program(&ops, first)?;
        let atomics = e.atomics.clone();
        let (wgsl, vgprs) = e.finish();
        kernels.push(Kernel {
            state_words: HEADER_WORDS + vgprs.len() as u32 * wave_size,
            wgsl,
            vgprs,
            waves: list,
            serial_waves: serial,
            atomics,
        });
    }
    Ok(Translation {
        wave_size,
        lds_bytes,
        kernels,
    })
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
                let base = m.raw.srsrc * 4;
                key.push(std::array::from_fn(|i| scratch.sgpr(base + i as u32)));
                if sample::is_sampler(m) {
                    // The S# is folded too: waves sharing a module share it.
                    let s = m.raw.ssamp * 4;
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

/// True when waves must run one after another: a 64-bit atomic (exact only when
/// serialised, docs/gpu.md), or memory that one instruction writes and a later
/// one reads, which the CPU reference orders wave by wave.
fn needs_serial_waves(prog: &Program, ops: &[(usize, &Op)]) -> bool {
    let mut wrote = false;
    for (_, op) in ops {
        let Op::Image(m) = op else { continue };
        match m.op.kind {
            BaseKind::Atomic => {
                let two = matches!(
                    atomic::from_mnemonic(m.mnemonic()),
                    Some(AtomicOp::CmpSwap | AtomicOp::FCmpSwap)
                );
                let dwords = (m.raw.dmask & 0xf).count_ones();
                if dwords == if two { 4 } else { 2 } {
                    return true;
                }
                if wrote {
                    return true;
                }
                wrote = true;
            }
            BaseKind::Store => wrote = true,
            BaseKind::ResInfo => {}
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
    /// The S# (SSAMP × 4 SGPRs) of the image instruction being emitted.
    ssharp: [u32; 4],
}

fn err(offset: usize, message: impl Into<String>) -> TranslateError {
    TranslateError {
        offset,
        message: message.into(),
    }
}

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
            ssharp: [0; 4],
        }
    }

    /// The WGSL place of VGPR `n` (`None` past the register file: reads give 0
    /// and writes are dropped, as on the CPU).
    fn v(&mut self, n: u32) -> Option<String> {
        if n >= crate::cpu::state::VGPRS {
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
        if n >= crate::cpu::state::SGPRS {
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
        }
    }

    fn src(&mut self, s: Src) -> String {
        match s {
            Src::Const(c) => format!("{c}u"),
            Src::Reg(r) => self.reg_read(r),
        }
    }

    fn line(&mut self, text: &str) {
        self.body.push_str("    ");
        self.body.push_str(text);
        self.body.push('\n');
    }

    fn emit_program(
        &mut self,
        ops: &[(usize, &Op)],
        wave: &WaveState,
    ) -> Result<(), TranslateError> {
        let mut scalars = WaveState::new(0, wave.wave_size, 0);
        scalars.copy_scalars_from(wave);
        for &(offset, op) in ops {
            match op {
                Op::End => break,
                Op::Nop | Op::Wait => {}
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
                        Reg::Vgpr(_) => None,
                    };
                    if let Some(p) = place {
                        self.line(&format!("{p} = {value};"));
                    }
                }
                Op::VMov { dst, src } => {
                    let value = self.src(*src);
                    if let Some(d) = self.v(*dst) {
                        self.line(&format!(
                            "if is_active(exec_lo, exec_hi, lane) {{ {d} = {value}; }}"
                        ));
                    }
                }
                Op::Interp {
                    step,
                    vdst,
                    ij,
                    attr,
                    chan,
                    mods,
                } => self.emit_interp(*step, *vdst, *ij, (*attr, *chan), mods),
                Op::Image(m) => {
                    let tsharp =
                        read_tsharp(m, &scalars, &self.prog.arch).map_err(|e| err(offset, e))?;
                    self.ssharp = std::array::from_fn(|i| scalars.sgpr(m.raw.ssamp * 4 + i as u32));
                    self.emit_image(offset, m, tsharp)?;
                }
            }
        }
        Ok(())
    }

    /// An interpolation step (cpu::interp::execute): parameters from this
    /// wave's LDS, VOP3 source and output modifiers, f16 forms.
    fn emit_interp(
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
        self.line(&format!(
            "if is_active(exec_lo, exec_hi, lane) {{ {d} = {bits}; }}"
        ));
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
            writeln!(
                f,
                "    if slice >= {}u || x >= w || y >= h || z >= d {{ return NO_TEXEL; }}\n    return {rel}u + lo + (slice * d + z) * plane + y * row + x * {}u;\n}}",
                surf.slices, surf.bpe
            )
            .ok();
        }
        self.decls.push_str(&f);
        self.surfaces.push((*surf, base, name.clone()));
        Ok(name)
    }

    /// `let off = …;` for the lane's texel (cpu::image::texel_address).
    fn emit_texel_offset(
        &mut self,
        offset: usize,
        m: &Mimg,
        d: &ImageDesc,
        surf: &Surface,
        mip: bool,
    ) -> Result<(), TranslateError> {
        let body = match d.image_type {
            ImageType::D1 => 1,
            ImageType::D1Array | ImageType::D2 => 2,
            ImageType::D2Array | ImageType::D3 | ImageType::Cube => 3,
            ImageType::D2Msaa | ImageType::D2MsaaArray => {
                return Err(err(offset, "MSAA image loads/stores are not executed yet"))
            }
        };
        let ncoord = body + u32::from(mip);
        let regs: Vec<u32> = if m.nsa_form {
            m.address_vgprs()
        } else {
            (0..ncoord).map(|k| m.raw.vaddr + k).collect()
        };
        let a: Vec<String> = (0..ncoord)
            .map(|k| match regs.get(k as usize) {
                Some(&r) => self.v_read(r),
                None => "0u".into(),
            })
            .collect();
        let zero = "0u".to_string();
        let (y, z, slice) = match d.image_type {
            ImageType::D1 => (&zero, &zero, &zero),
            ImageType::D1Array => (&zero, &zero, &a[1]),
            ImageType::D2 => (&a[1], &zero, &zero),
            ImageType::D2Array | ImageType::Cube => (&a[1], &zero, &a[2]),
            _ => (&a[1], &a[2], &zero),
        };
        let level = if mip {
            a[ncoord as usize - 1].clone()
        } else {
            zero.clone()
        };
        let is_array = matches!(
            d.image_type,
            ImageType::D1Array | ImageType::D2Array | ImageType::Cube
        );
        let f = self.surface_fn(offset, surf, d.base_address)?;
        let (x, y, z, slice) = (a[0].clone(), y.clone(), z.clone(), slice.clone());
        self.line(&format!("let level = {level};"));
        self.line(&format!("let rl = {}u + level;", d.base_level));
        if is_array {
            self.line(&format!("let rs = {}u + {slice};", d.base_array));
            self.line(&format!("var off = NO_TEXEL;\n    if rl >= level && rs >= {slice} {{ off = {f}(rl, rs, {x}, {y}, {z}); }}"));
        } else {
            self.line(&format!(
                "var off = NO_TEXEL;\n    if rl >= level {{ off = {f}(rl, 0u, {x}, {y}, {z}); }}"
            ));
        }
        Ok(())
    }

    fn emit_image(&mut self, offset: usize, m: &Mimg, tsharp: Image) -> Result<(), TranslateError> {
        writeln!(self.body, "    // {:#06x}: {}", offset, m.text()).ok();
        self.line("{");
        match m.op.kind {
            BaseKind::Load | BaseKind::Store => self.emit_load_store(offset, m, tsharp)?,
            BaseKind::Atomic => self.emit_atomic(offset, m, tsharp)?,
            BaseKind::ResInfo => self.emit_resinfo(offset, m, tsharp)?,
            BaseKind::Sample | BaseKind::Gather4 | BaseKind::GetLod => {
                sample::emit(self, offset, m, tsharp, self.ssharp)?
            }
            _ => {
                return Err(err(
                    offset,
                    format!("`{}` is not translated to WGSL yet", m.mnemonic()),
                ))
            }
        }
        self.line("}");
        self.line("storageBarrier();");
        Ok(())
    }

    /// Writes DMASK-selected values to consecutive VGPRs from VDATA.
    fn write_dmask(&mut self, vdata: u32, dmask: u32, values: [String; 4]) -> u32 {
        let mut k = 0;
        for (c, v) in values.into_iter().enumerate() {
            if dmask >> c & 1 == 1 {
                if let Some(d) = self.v(vdata + k) {
                    self.line(&format!("    {d} = {v};"));
                }
                k += 1;
            }
        }
        k
    }

    fn emit_load_store(
        &mut self,
        offset: usize,
        m: &Mimg,
        tsharp: Image,
    ) -> Result<(), TranslateError> {
        let r = &m.raw;
        let mip = m.op.has(flag::MIP);
        let raw_format = if m.mnemonic().contains("_pck_sgn") {
            Some(NumFormat::Sint)
        } else if m.mnemonic().contains("_pck") {
            Some(NumFormat::Uint)
        } else {
            None
        };
        if r.d16 || r.a16 || r.lwe {
            return Err(err(
                offset,
                format!("`{}` with d16/a16/lwe is not executed yet", m.mnemonic()),
            ));
        }
        if self.prog.arch.gen >= crate::arch::Gen::Gfx10 {
            return Err(err(offset, "gfx10+ image descriptors are not modelled yet"));
        }
        let dmask = r.dmask & 0xf;
        let loads = m.op.kind == BaseKind::Load;
        let comps = dmask.count_ones().max(1);
        let d = match tsharp {
            Image::Bound(d) => d,
            Image::Unbound | Image::Null { .. } => {
                if loads {
                    let sel = match tsharp {
                        Image::Null { dst_sel } => dst_sel,
                        _ => [0; 4],
                    };
                    self.line("if is_active(exec_lo, exec_hi, lane) {");
                    let consts =
                        sel.map(|s| format!("{}u", if s == 1 { 1.0f32.to_bits() } else { 0 }));
                    let k = self.write_dmask(r.vdata, dmask, consts);
                    for extra in k..comps + u32::from(r.tfe) {
                        if let Some(p) = self.v(r.vdata + extra) {
                            self.line(&format!("    {p} = 0u;"));
                        }
                    }
                    self.line("}");
                }
                return Ok(());
            }
        };
        require_linear(&d, &self.prog.arch).map_err(|e| err(offset, e))?;
        let surf = surface_of(&d).map_err(|e| err(offset, e))?;
        let df =
            data_format(d.data_format).ok_or_else(|| err(offset, "unsupported data format"))?;
        let nf = match raw_format {
            Some(raw) => raw,
            None => NumFormat::from_code(d.num_format)
                .ok_or_else(|| err(offset, "unsupported number format"))?,
        };
        if raw_format.is_some() && df.layout != format::Layout::Plain {
            return Err(err(
                offset,
                format!("`{}` on packed-float data format {}", m.mnemonic(), df.name),
            ));
        }
        let (lo, width) = component_layout(df);
        let pf = df.layout == format::Layout::PackedFloat;
        let fmt_args = format!("{}u, {pf}, {}u, {lo}, {width}", nf.code(), df.comps.len());
        self.emit_texel_offset(offset, m, &d, &surf, mip)?;
        let bytes = df.bytes;
        if loads {
            let identity = [4u8, 5, 6, 7];
            let dst_sel = if raw_format.is_some() {
                identity
            } else {
                d.dst_sel
            };
            self.line("if is_active(exec_lo, exec_hi, lane) {");
            self.line("    var t = vec4<u32>(0u);");
            self.line(&format!(
                "    if mem_in_range(off, {bytes}u) {{ t = load_texel(mem_read_texel(off, {bytes}u), {fmt_args}); }}"
            ));
            let sw = dst_sel.map(|s| match s {
                0 => "0u".to_string(),
                1 => format!("{}u", missing_component(3, nf)),
                s => ["t.x", "t.y", "t.z", "t.w"][usize::from(s - 4) & 3].to_string(),
            });
            self.write_dmask(r.vdata, dmask, sw);
            if dmask == 0 {
                if let Some(p) = self.v(r.vdata) {
                    self.line(&format!("    {p} = 0u;"));
                }
            }
            if r.tfe {
                if let Some(p) = self.v(r.vdata + comps) {
                    self.line(&format!("    {p} = 0u;"));
                }
            }
            self.line("}");
        } else {
            if format::store_texel(df, nf, [0; 4]).is_none() {
                return Err(err(
                    offset,
                    format!("number format {nf:?} cannot be stored"),
                ));
            }
            // Components DMASK leaves out take the first VGPR's value
            // (cpu::image::execute).
            let first = self.v_read(r.vdata);
            let mut k = 0;
            let mut rgba: [String; 4] = std::array::from_fn(|_| first.clone());
            for (c, slot) in rgba.iter_mut().enumerate() {
                if dmask >> c & 1 == 1 {
                    *slot = self.v_read(r.vdata + k);
                    k += 1;
                }
            }
            self.line(&format!(
                "if is_active(exec_lo, exec_hi, lane) && mem_in_range(off, {bytes}u) {{"
            ));
            self.line(&format!(
                "    mem_write_texel(off, {bytes}u, store_texel(vec4<u32>({}), {fmt_args}));",
                rgba.join(", ")
            ));
            self.line("}");
        }
        Ok(())
    }

    fn emit_atomic(
        &mut self,
        offset: usize,
        m: &Mimg,
        tsharp: Image,
    ) -> Result<(), TranslateError> {
        let op = atomic::from_mnemonic(m.mnemonic())
            .ok_or_else(|| err(offset, format!("`{}` is not an atomic", m.mnemonic())))?;
        let r = &m.raw;
        if r.d16 || r.a16 || r.lwe || r.tfe {
            return Err(err(
                offset,
                format!(
                    "`{}` with d16/a16/lwe/tfe is not executed yet",
                    m.mnemonic()
                ),
            ));
        }
        let two = matches!(op, AtomicOp::CmpSwap | AtomicOp::FCmpSwap);
        let dwords = (r.dmask & 0xf).count_ones();
        let wide = match (two, dwords) {
            (false, 1) | (true, 2) => false,
            (false, 2) | (true, 4) => true,
            _ => {
                return Err(err(
                    offset,
                    format!(
                        "`{}`: dmask {:#x} is not an atomic data size",
                        m.mnemonic(),
                        r.dmask
                    ),
                ))
            }
        };
        let Image::Bound(d) = tsharp else {
            if r.glc {
                self.line("if is_active(exec_lo, exec_hi, lane) {");
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
        let want = if wide { 11 } else { 4 };
        if d.data_format != want {
            return Err(err(
                offset,
                format!(
                    "`{}` needs a {} image, not data format {}",
                    m.mnemonic(),
                    if wide { "32_32" } else { "32" },
                    d.data_format
                ),
            ));
        }
        let float = matches!(op, AtomicOp::FCmpSwap | AtomicOp::Fmin | AtomicOp::Fmax);
        if float != (NumFormat::from_code(d.num_format) == Some(NumFormat::Float)) {
            return Err(err(offset, format!("`{}` on number format {}: float atomics need FLOAT images, integer atomics integer ones", m.mnemonic(), d.num_format)));
        }
        let surf = surface_of(&d).map_err(|e| err(offset, e))?;
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
            });
        }
        if wide {
            let data = format!("vec2<u32>({}, {})", vd(self, 0), vd(self, 1));
            let cmp = if two {
                format!("vec2<u32>({}, {})", vd(self, 2), vd(self, 3))
            } else {
                "vec2<u32>(0u, 0u)".into()
            };
            // Lanes one at a time (waves are serialised for this program): the
            // pair of dwords is read, combined and written with no other access
            // in between, in lane order as on the CPU.
            self.line("var old = vec2<u32>(0u, 0u);");
            self.line("let act = is_active(exec_lo, exec_hi, lane);");
            self.line("for (var l = 0u; l < WAVE_SIZE; l = l + 1u) {");
            self.line("    if l == lane && act && mem_in_range(off, 8u) {");
            self.line("        let w = off / 4u;");
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
        self.line("if is_active(exec_lo, exec_hi, lane) {");
        self.line("    var old = 0u;");
        self.line("    if mem_in_range(off, 4u) {");
        self.line("        let w = off / 4u;");
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

    fn emit_resinfo(
        &mut self,
        offset: usize,
        m: &Mimg,
        tsharp: Image,
    ) -> Result<(), TranslateError> {
        let r = &m.raw;
        if r.d16 || r.a16 || r.tfe || r.lwe {
            return Err(err(
                offset,
                format!(
                    "`{}` with d16/a16/tfe/lwe is not executed yet",
                    m.mnemonic()
                ),
            ));
        }
        let dmask = r.dmask & 0xf;
        let level_reg = m.address_vgprs().first().copied().unwrap_or(r.vaddr);
        let level = self.v_read(level_reg);
        self.line("if is_active(exec_lo, exec_hi, lane) {");
        self.line(&format!("    let level = {level};"));
        let vals: [String; 4] = match tsharp {
            Image::Bound(d) => {
                let levels = u32::from(d.last_level.saturating_sub(d.base_level)) + 1;
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
                    _ => (size(d.height), "1u".into()),
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
        let _ = offset;
        self.write_dmask(r.vdata, dmask, vals);
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
        out.push_str(&self.decls);
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
        for k in 0..vgprs.len() {
            writeln!(
                out,
                "    v[{k}] = st[sb + {}u + lane];",
                HEADER_WORDS + k as u32 * ws
            )
            .ok();
        }
        let m0 = M0_WORD;
        writeln!(out, "    var m0 = st[sb + {m0}u];\n    var exec_lo = st[sb + {}u];\n    var exec_hi = st[sb + {}u];\n    var vcc_lo = st[sb + {}u];\n    var vcc_hi = st[sb + {}u];", m0 + 1, m0 + 2, m0 + 3, m0 + 4).ok();
        out.push_str(&self.body);
        // Write back: registers every lane holds alike from lane 0, VGPRs per lane.
        out.push_str("    storageBarrier();\n    if lane == 0u {\n");
        for (k, n) in sgprs.iter().enumerate() {
            writeln!(out, "        st[sb + {n}u] = s[{k}];").ok();
        }
        writeln!(out, "        st[sb + {m0}u] = m0;\n        st[sb + {}u] = exec_lo;\n        st[sb + {}u] = exec_hi;\n        st[sb + {}u] = vcc_lo;\n        st[sb + {}u] = vcc_hi;\n    }}", m0 + 1, m0 + 2, m0 + 3, m0 + 4).ok();
        for k in 0..vgprs.len() {
            writeln!(
                out,
                "    st[sb + {}u + lane] = v[{k}];",
                HEADER_WORDS + k as u32 * ws
            )
            .ok();
        }
        out.push_str("}\n");
        (out, vgprs)
    }
}

/// The data format's component layout as WGSL `vec4<u32>` constants (lo bits,
/// widths), from the Rust table.
fn component_layout(df: &format::DataFormat) -> (String, String) {
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
