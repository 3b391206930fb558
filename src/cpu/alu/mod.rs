//! The ALU: applying an [`AluOp`] to a wave (docs/semantics, "ALU").
//!
//! A scalar operation runs once on scalar registers; a vector one runs once
//! per active lane. Inputs are read with their modifiers (SDWA selection,
//! VOP3 OP_SEL halves, ABS/NEG), the function is evaluated on raw bits
//! ([`int::eval`], [`float::eval`]), the output modifiers are applied, and
//! the results are written: the value to its register, the bit to SCC
//! (scalar) or into a lane mask gathered over the wave (vector; lanes that
//! do not run read 0 in it — AMD Vega ISA §6.1.3 "VCC": "inactive lanes
//! write 0"), written after every lane has read its inputs.

mod division;
pub mod dpp;
mod exact;
pub mod float;
pub mod int;
mod transcendental;

use crate::ir::alu::{AluFn, AluOp, Dst, Family, Packed, Sdwa, Ty, Unit};
use crate::ir::{Operand, Reg};
use crate::machine::WaveState;

/// Evaluates one function on raw inputs: the value and the bit output.
pub fn eval(
    unit: Unit,
    func: AluFn,
    x: [u64; 3],
    k: bool,
    mode: u32,
) -> Result<(u64, bool), String> {
    match func.family {
        // Integer → float conversions round like the float unit.
        Family::Cvt(to) if to.is_float() && !func.ty.is_float() => Ok((
            float::from_int_bits(float::Mode::of(mode), func.ty, x[0], to),
            false,
        )),
        _ if func.ty.is_float() => float::eval(float::Mode::of(mode), func.family, func.ty, x, k),
        _ => int::eval(unit, func.family, func.ty, x, k),
    }
}

impl WaveState {
    /// A 32-bit register of `lane` (lane 0's view for scalar registers).
    fn reg32(&self, r: Reg, lane: u32) -> u32 {
        match r {
            Reg::Sgpr(n) => self.sgpr(n),
            Reg::Vgpr(n) => self.vgpr(n, lane),
            Reg::M0 => self.m0,
            Reg::ExecLo => self.exec as u32,
            Reg::ExecHi => (self.exec >> 32) as u32,
            Reg::VccLo => self.vcc as u32,
            Reg::VccHi => (self.vcc >> 32) as u32,
            Reg::Scc => u32::from(self.scc),
        }
    }

    /// The register after `r` (the high dword of a 64-bit operand).
    fn next_reg(r: Reg) -> Reg {
        match r {
            Reg::Sgpr(n) => Reg::Sgpr(n + 1),
            Reg::Vgpr(n) => Reg::Vgpr(n + 1),
            Reg::ExecLo => Reg::ExecHi,
            Reg::VccLo => Reg::VccHi,
            // M0 and SCC have no pair: a 64-bit read of them sees 0 above.
            other => other,
        }
    }

    /// An operand of `slots` dwords for `lane`.
    pub fn operand(&self, o: Operand, slots: u32, lane: u32) -> u64 {
        match o {
            Operand::Const(c) => c,
            Operand::Reg(r) => {
                let lo = u64::from(self.reg32(r, lane));
                if slots == 2 {
                    let hi_reg = Self::next_reg(r);
                    let hi = if hi_reg == r {
                        0
                    } else {
                        self.reg32(hi_reg, lane)
                    };
                    lo | u64::from(hi) << 32
                } else {
                    lo
                }
            }
        }
    }

    /// Writes a 32-bit register of `lane` (scalar registers ignore `lane`).
    fn set_reg32(&mut self, r: Reg, lane: u32, v: u32) {
        match r {
            Reg::Vgpr(n) => self.set_vgpr(n, lane, v),
            Reg::Scc => self.scc = v & 1 == 1,
            other => self.write_scalar(other, v),
        }
    }

    /// Writes a value of `slots` dwords.
    pub fn set_operand(&mut self, r: Reg, slots: u32, lane: u32, v: u64) {
        self.set_reg32(r, lane, v as u32);
        if slots == 2 {
            let hi = Self::next_reg(r);
            if hi != r {
                self.set_reg32(hi, lane, (v >> 32) as u32);
            }
        }
    }

    /// A lane mask: an SGPR pair (one SGPR in wave32), VCC or EXEC.
    pub fn mask(&self, r: Reg) -> u64 {
        let slots = if self.wave_size == 64 { 2 } else { 1 };
        self.operand(Operand::Reg(r), slots, 0)
    }

    /// Writes a lane mask (the bits past the wave size are dropped).
    pub fn set_mask(&mut self, r: Reg, v: u64) {
        let (slots, v) = if self.wave_size == 64 {
            (2, v)
        } else {
            (1, v & 0xffff_ffff)
        };
        self.set_operand(r, slots, 0, v);
    }
}

/// Reads input `i` of `op` for `lane` with its selections and modifiers.
fn input(w: &WaveState, op: &AluOp, i: usize, ty: Ty, lane: u32, raw: Option<u64>) -> u64 {
    let slots = ty.slots();
    // DPP: the shuffled input's register value comes from another lane
    // (`raw`); the modifiers apply after the shuffle.
    let mut x = raw.unwrap_or_else(|| w.operand(op.src[i], slots, lane));
    if op.mix.is_some_and(|m| m.f16_inputs >> i & 1 == 1) {
        // Mixed precision: the f16 half OP_SEL picks, converted to f32.
        let half = x >> (16 * u32::from(op.mods.op_sel >> i & 1)) & 0xffff;
        x = f16_to_f32(w.mode, half);
    }
    if let Some(sdwa) = op.sdwa.filter(|_| i < 2) {
        x = sdwa_select(x as u32, sdwa.src_sel[i], sdwa.sext[i]);
    }
    if ty.bits() == 16 && op.mods.op_sel >> i & 1 == 1 {
        x >>= 16;
    }
    if ty.bits() == 16 {
        x &= 0xffff;
    }
    if let Some(mt) = op.func.modifier_type() {
        x = float::modify(mt, x, op.mods.abs >> i & 1 == 1, op.mods.neg >> i & 1 == 1);
    }
    x
}

/// An f16 widened to f32 as `v_cvt_f32_f16` does under `mode` (MODE decides
/// whether an f16 denormal reads as zero). The conversion is exact, so the
/// round mode plays no part (and is not checked here).
fn f16_to_f32(mode: u32, h: u64) -> u64 {
    let cvt = AluFn::new(Family::Cvt(Ty::F32), Ty::F16);
    eval(Unit::Vector, cvt, [h, 0, 0], false, mode & !0xf).map_or(0, |r| r.0)
}

/// SDWA source selection: byte 0–3, word 0–1 (4–5) or the dword (6),
/// zero- or sign-extended (AMD Vega ISA §6.3.1 "SDWA").
///
/// WGSL twin: `sdwa_select` (docs/gpu.md, "Twins").
fn sdwa_select(x: u32, sel: u8, sext: bool) -> u64 {
    let (shift, bits) = match sel {
        0..=3 => (8 * u32::from(sel), 8),
        4 | 5 => (16 * u32::from(sel - 4), 16),
        _ => return u64::from(x),
    };
    let v = x >> shift & ((1 << bits) - 1);
    if sext {
        u64::from(((v << (32 - bits)) as i32 >> (32 - bits)) as u32)
    } else {
        u64::from(v)
    }
}

/// SDWA destination placement: the result's low bits at `dst_sel`, the other
/// bits zeroed, sign-extended or kept from `old` (DST_UNUSED 0, 1, 2).
///
/// WGSL twin: `sdwa_place` (docs/gpu.md, "Twins").
fn sdwa_place(sdwa: Sdwa, r: u32, old: u32) -> u32 {
    let (shift, bits) = match sdwa.dst_sel {
        0..=3 => (8 * u32::from(sdwa.dst_sel), 8),
        4 | 5 => (16 * u32::from(sdwa.dst_sel - 4), 16),
        _ => return r,
    };
    let field_mask = ((1u64 << bits) - 1) as u32;
    let field = (r & field_mask) << shift;
    let place = field_mask << shift;
    match sdwa.dst_unused {
        // Keep the other bits.
        2 => old & !place | field,
        // Sign-extend the field upward, zero below.
        1 => {
            let sign = r >> (bits - 1) & 1 == 1;
            let above = if shift + bits >= 32 {
                0
            } else {
                u32::MAX << (shift + bits)
            };
            field | if sign { above } else { 0 }
        }
        _ => field,
    }
}

/// Executes `op` on the wave.
pub fn execute(w: &mut WaveState, op: &AluOp) -> Result<(), String> {
    let sig = op.func.signature();
    let out_ty = sig.output;
    match op.unit {
        Unit::Scalar => {
            let mut x = [0u64; 3];
            for (i, t) in sig.inputs.iter().enumerate() {
                if let Some(t) = t {
                    x[i] = w.operand(op.src[i], t.slots(), 0);
                }
            }
            let k = op.bit_src.is_some_and(|b| w.operand(b, 1, 0) & 1 == 1);
            let (v, bit) = eval(Unit::Scalar, op.func, x, k, w.mode)?;
            if let (Some(Dst::Reg(r)), Some(t)) = (op.dst, out_ty) {
                w.set_operand(r, t.slots(), 0, v);
            }
            if let Some(Dst::Scc) = op.bit_dst {
                w.scc = bit;
            }
            Ok(())
        }
        Unit::Vector => execute_vector(w, op, out_ty),
    }
}

/// The vector unit: every active lane reads, computes and writes its value;
/// the bits are gathered and written once.
///
/// WGSL twin: `xl_mask` (docs/gpu.md, "Twins").
fn execute_vector(w: &mut WaveState, op: &AluOp, out_ty: Option<Ty>) -> Result<(), String> {
    let sig = op.func.signature();
    let lanes = w.active_lanes();
    let k_mask = op.bit_src.map(|b| match b {
        Operand::Reg(r) => w.mask(r),
        Operand::Const(c) => c,
    });
    let mut bits = 0u64;
    // DPP reads the shuffled register of every lane before any lane writes
    // (the destination may be that register).
    let shuffled: Vec<u64> = match op.dpp {
        Some(_) => (0..w.wave_size)
            .map(|l| w.operand(op.src[op.dpp_input], 1, l))
            .collect(),
        None => Vec::new(),
    };
    for lane in lanes {
        // DPP: where the shuffled input comes from, or no write at all.
        let raw = match &op.dpp {
            Some(d) => match dpp::plan(d, lane, w.wave_size, w.exec) {
                None => continue,
                Some(src) => {
                    Some(src.map_or(0, |s| shuffled.get(s as usize).copied().unwrap_or(0)))
                }
            },
            None => None,
        };
        let k = k_mask.is_some_and(|m| m >> lane & 1 == 1);
        if let Some(p) = op.packed {
            let v = packed_value(w, op, p, lane, raw, k)?;
            if let (Some(Dst::Reg(r)), Some(_)) = (op.dst, out_ty) {
                w.set_operand(r, 1, lane, v);
            }
            continue;
        }
        let mut x = [0u64; 3];
        for (i, t) in sig.inputs.iter().enumerate() {
            if let Some(t) = t {
                x[i] = input(w, op, i, *t, lane, raw.filter(|_| i == op.dpp_input));
            }
        }
        // v_mbcnt: only the mask bits of the lanes below this one count
        // (lo: lanes 0–31 from bit 0 of `a`; hi: lanes 32–63).
        match op.func.family {
            Family::MbcntLo => x[0] &= ((1u64 << lane.min(32)) - 1) & 0xffff_ffff,
            Family::MbcntHi => {
                x[0] &= ((1u64 << lane.saturating_sub(32).min(32)) - 1) & 0xffff_ffff
            }
            _ => {}
        }
        let (v, bit) = eval(Unit::Vector, op.func, x, k, w.mode)?;
        if bit {
            bits |= 1 << lane;
        }
        let (Some(Dst::Reg(r)), Some(t)) = (op.dst, out_ty) else {
            continue;
        };
        if op.mix.is_some_and(|m| m.f16_result) {
            // v_fma_mixlo/hi_f16: the f32 result rounded to f16, into one half.
            let cvt = AluFn::new(Family::Cvt(Ty::F16), Ty::F32);
            let h = eval(Unit::Vector, cvt, [v, 0, 0], false, w.mode)?.0;
            let h = output(w.mode, op, Ty::F16, x, k, h)?;
            let v = place16(w, op, r, lane, h);
            w.set_operand(r, 1, lane, v);
            continue;
        }
        let mut v = output(w.mode, op, t, x, k, v)?;
        if let Some(sdwa) = op.sdwa {
            let old = w.operand(Operand::Reg(r), 1, lane) as u32;
            v = u64::from(sdwa_place(sdwa, v as u32, old));
        } else if t.bits() == 16 {
            v = place16(w, op, r, lane, v);
        }
        w.set_operand(r, t.slots(), lane, v);
    }
    match op.bit_dst {
        Some(Dst::Mask(r)) => w.set_mask(r, bits),
        Some(Dst::Exec(also)) => {
            if let Some(r) = also {
                w.set_mask(r, bits);
            }
            w.exec = bits;
        }
        Some(Dst::Scc) | Some(Dst::Reg(_)) | None => {}
    }
    Ok(())
}

/// The output modifiers of a vector result `v` of type `t` computed from
/// inputs `x`: a float's omod and clamp ([`float::output`]); an integer's
/// clamp saturates ([`int::saturate`]).
fn output(mode: u32, op: &AluOp, t: Ty, x: [u64; 3], k: bool, v: u64) -> Result<u64, String> {
    if t.is_float() {
        return Ok(float::output(
            float::Mode::of(mode),
            t,
            v,
            op.mods.omod,
            op.mods.clamp,
        ));
    }
    if op.mods.omod != 0 {
        return Err("integer output modifiers do not exist".into());
    }
    if !op.mods.clamp {
        return Ok(v);
    }
    int::saturate(op.func.family, op.func.ty, x, k).ok_or_else(|| {
        format!(
            "integer clamp on {} is not executed by gcnrun",
            op.func.wgsl_name()
        )
    })
}

/// A packed (VOP3P) result for `lane`: the function on the halves
/// [`Packed`] selects, low result then high, each with its output
/// modifiers, in one dword. `raw` is a DPP input's shuffled register.
///
/// WGSL twin: the packed branch of `emit_vector_alu`.
fn packed_value(
    w: &WaveState,
    op: &AluOp,
    p: Packed,
    lane: u32,
    raw: Option<u64>,
    k: bool,
) -> Result<u64, String> {
    let sig = op.func.signature();
    let t = sig.output.ok_or("packed math without a result")?;
    let mut out = 0u64;
    for (half, (sel, neg)) in [(op.mods.op_sel, op.mods.neg), (p.op_sel_hi, p.neg_hi)]
        .into_iter()
        .enumerate()
    {
        let mut x = [0u64; 3];
        for (i, slot) in x.iter_mut().enumerate() {
            if sig.inputs[i].is_none() {
                continue;
            }
            let dword = raw
                .filter(|_| i == op.dpp_input)
                .unwrap_or_else(|| w.operand(op.src[i], 1, lane));
            let mut v = dword >> (16 * (sel >> i & 1)) & 0xffff;
            if let Some(mt) = op.func.modifier_type() {
                v = float::modify(mt, v, false, neg >> i & 1 == 1);
            }
            *slot = v;
        }
        let (v, _) = eval(Unit::Vector, op.func, x, k, w.mode)?;
        let v = output(w.mode, op, t, x, k, v)?;
        out |= (v & 0xffff) << (16 * half);
    }
    Ok(out)
}

/// Where a 16-bit vector result goes in its 32-bit register: OP_SEL bit 3
/// writes the high half and keeps the low one; otherwise the low half is
/// written and the high half kept on gfx10+ and zeroed before (LLVM
/// SIInstrInfo, "zeroesHigh16BitsOfDest": gfx8/gfx9 16-bit VALU results
/// clear bits 31:16).
fn place16(w: &WaveState, op: &AluOp, r: Reg, lane: u32, v: u64) -> u64 {
    let old = w.operand(Operand::Reg(r), 1, lane);
    if op.mods.op_sel >> 3 & 1 == 1 {
        old & 0xffff | (v & 0xffff) << 16
    } else if op.high_kept16 {
        old & 0xffff_0000 | v & 0xffff
    } else {
        v & 0xffff
    }
}
