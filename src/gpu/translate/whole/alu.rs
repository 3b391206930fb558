//! The ALU and wave operations of a whole-program module: the library
//! function of each family (`shaders/alu_int.wgsl`, `alu_f32.wgsl`), source
//! and output modifiers, lane masks, EXEC and cross-lane moves.

use super::{err, Pair, Whole};
use crate::gpu::translate::alu_call::{self, fam};
use crate::gpu::translate::TranslateError;
use crate::ir::alu::{AluFn, AluOp, Dpp, Dst, Family, Packed, Ty, Unit};
use crate::ir::flow::{HwReg, WaveOp};
use crate::ir::{Operand, Reg, Src};

/// A vector result `v` of type `t` with its output modifiers
/// (`cpu::alu::output`): a float's OMOD and CLAMP, an integer's saturating
/// CLAMP (`int_saturate` on the inputs `x`).
pub(super) fn output(op: &AluOp, t: Ty, x: &[Pair; 3], k: &str, v: &str) -> String {
    let (omod, clamp) = (op.mods.omod, op.mods.clamp);
    match t {
        Ty::F32 if omod != 0 || clamp => format!("f32_output(mode, {v}, {omod}u, {clamp})"),
        Ty::F16 if omod != 0 || clamp => format!("f16_output(mode, {v}, {omod}u, {clamp})"),
        t if !t.is_float() && clamp => format!(
            "int_saturate({}, {}u, {}u, {}, {}, {}, {}, {k})",
            fam(op.func.family),
            alu_call::sub_code(op.func.family),
            t.bits(),
            t.is_signed(),
            x[0].0,
            x[1].0,
            x[2].0
        ),
        _ => v.to_string(),
    }
}

/// A zero input pair.
fn zero() -> Pair {
    ("0u".into(), "0u".into())
}

impl Whole<'_> {
    /// A float function under a MODE whose round mode is not nearest even
    /// faults, as the CPU refuses it (`float::Mode::check_round`).
    ///
    /// Checked once per block and round-mode field, at the first such
    /// operation and again after each MODE write: a block runs straight
    /// through before its faults are looked at, and the fault word keeps
    /// the largest code, the earliest operation's (`fault`), so a later
    /// check under the same MODE could only lose to the first — and each
    /// check cost the driver a branch and an atomic to build
    /// (`kernels/math.toml` had 232).
    pub(super) fn round_check(&mut self, offset: usize, op: &AluOp) {
        let ty = op.func.ty;
        if !ty.is_float() {
            return;
        }
        let field = usize::from(ty != Ty::F32);
        if std::mem::replace(&mut self.round_checked[field], true) {
            return;
        }
        let shift = 2 * field;
        let fault = self.fault(
            offset,
            format!(
                "MODE.FP_ROUND selects a round mode other than nearest even for {}: gcnrun executes round-to-nearest-even only",
                ty.name()
            ),
        );
        self.line(&format!("if ((mode >> {shift}u) & 3u) != 0u {{ {fault} }}"));
    }

    pub(super) fn emit_alu(&mut self, offset: usize, op: &AluOp) {
        self.round_check(offset, op);
        if let Some(site) = self.sites.site(op) {
            self.emit_shared_alu(op, site);
            return;
        }
        self.emit_alu_inline(op);
    }

    /// An ALU operation with its library call in place (the halves of a
    /// dual issue always: they read their sources before either writes).
    pub(super) fn emit_alu_inline(&mut self, op: &AluOp) {
        let sig = op.func.signature();
        self.line("{");
        match op.unit {
            Unit::Scalar => {
                let mut x: [Pair; 3] = Default::default();
                for (i, t) in sig.inputs.iter().enumerate() {
                    if let Some(t) = t {
                        x[i] = self.operand(op.src[i], t.slots());
                    } else {
                        x[i] = zero();
                    }
                }
                let k = match op.bit_src {
                    Some(b) => format!("({} & 1u) == 1u", self.operand(b, 1).0),
                    None => "false".into(),
                };
                let call = alu_call::call(op.func, op.unit, "mode", &x, &k);
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

    /// The inputs of a vector operation for this lane: [`Self::vector_input`]
    /// of each its function reads, 0 for the others.
    pub(super) fn vector_inputs(&mut self, op: &AluOp) -> [Pair; 3] {
        let sig = op.func.signature();
        let mut x: [Pair; 3] = Default::default();
        for (i, t) in sig.inputs.iter().enumerate() {
            x[i] = match t {
                Some(t) => self.vector_input(op, i, *t),
                None => zero(),
            };
        }
        x
    }

    /// Input `i` of a vector operation for this lane (`cpu::alu::input`).
    pub(super) fn vector_input(&mut self, op: &AluOp, i: usize, t: Ty) -> Pair {
        let (mut lo, hi) = if op.dpp.is_some() && i == op.dpp_input {
            // The shuffled register (emit_vector_alu's `dpp_v`).
            ("dpp_v".to_string(), "0u".to_string())
        } else {
            self.operand(op.src[i], t.slots())
        };
        if op.mix.is_some_and(|m| m.f16_inputs >> i & 1 == 1) {
            // Mixed precision: the f16 half OP_SEL picks, widened exactly
            // (the round mode plays no part: cpu::alu::f16_to_f32).
            let sel = 16 * u32::from(op.mods.op_sel >> i & 1);
            lo = format!("alu_f16_to_f32(mode & 0xfffffff0u, ({lo} >> {sel}u) & 0xffffu)");
        }
        if let Some(s) = op.sdwa.filter(|_| i < 2) {
            lo = format!("sdwa_select({lo}, {}u, {})", s.src_sel[i], s.sext[i]);
        }
        if t.bits() == 16 {
            if op.mods.op_sel >> i & 1 == 1 {
                lo = format!("({lo} >> 16u)");
            }
            lo = format!("({lo} & 0xffffu)");
        }
        if let Some(t) = op.func.modifier_type() {
            let sign: u64 = match t {
                Ty::F16 => 0x8000,
                Ty::F32 => 0x8000_0000,
                _ => 1 << 63,
            };
            let (abs, neg) = (op.mods.abs >> i & 1 == 1, op.mods.neg >> i & 1 == 1);
            if t == Ty::F64 {
                // The sign is bit 31 of the high dword.
                let mut hi = hi;
                if abs {
                    hi = format!("({hi} & 0x7fffffffu)");
                }
                if neg {
                    hi = format!("({hi} ^ 0x80000000u)");
                }
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
    pub(super) fn emit_vector_alu(&mut self, op: &AluOp) {
        let gathers = matches!(op.bit_dst, Some(Dst::Mask(_) | Dst::Exec(_)));
        let k = self.lane_bit_of(op.bit_src);
        if gathers {
            self.line("var bit = false;");
        }
        if let Some(d) = op.dpp {
            // Every lane offers its shuffled register, then reads its
            // source's (cpu::alu::execute_vector; cpu::alu::dpp::plan).
            let Operand::Reg(Reg::Vgpr(n)) = op.src[op.dpp_input] else {
                // The lowering only builds DPP on a VGPR.
                return;
            };
            let raw = self.e.v_read(n);
            let plan = match d {
                Dpp::Dpp16 {
                    ctrl,
                    row_mask,
                    bank_mask,
                    bound_ctrl,
                    fi,
                } => format!(
                    "dpp_plan(false, {ctrl}u, {row_mask}u, {bank_mask}u, {bound_ctrl}, {fi}, 0u, lane, exec_lo, exec_hi)"
                ),
                Dpp::Dpp8 { sel, fi } => {
                    let packed = sel
                        .iter()
                        .enumerate()
                        .fold(0u32, |a, (k, &l)| a | u32::from(l) << (3 * k));
                    format!("dpp_plan(true, 0u, 0u, 0u, false, {fi}, {packed}u, lane, exec_lo, exec_hi)")
                }
            };
            self.line(&format!("let dp = {plan};"));
            self.line(&format!("let dv = xl_value({raw}, lane, dp.y, xvc % 2u);"));
            self.line("xvc = xvc + 1u;");
            self.line("let dpp_v = select(0u, dv, dp.x == 1u);");
            self.line("if lane_on && dp.x != 0u {");
        } else {
            self.line("if lane_on {");
        }
        let x = self.vector_inputs(op);
        if let Some(p) = op.packed {
            self.emit_packed(op, p, &k);
            self.line("}");
            return;
        }
        let native = (op.bit_dst.is_none() && !op.mods.clamp)
            .then(|| alu_call::native_int(op.func, &x))
            .flatten();
        let call = native.unwrap_or_else(|| alu_call::call(op.func, op.unit, "mode", &x, &k));
        self.line(&format!("    let r = {call};"));
        self.emit_vector_result(op, &x, &k);
        if gathers {
            self.line("    bit = r.z == 1u;");
        }
        self.line("}");
        match op.bit_dst {
            // Gathered when something reads it whole (lanemask.rs).
            Some(Dst::Mask(r)) => self.defer_mask(r, "bit"),
            Some(Dst::Exec(also)) => {
                self.line("let mk = xl_mask(bit, lane, xmc % 3u);");
                self.line("xmc = xmc + 1u;");
                if let Some(r) = also {
                    self.write_mask(r, "mk.x", "mk.y");
                }
                self.write_exec("mk.x", "mk.y");
            }
            _ => {}
        }
    }

    /// The result `r` (in scope, a `vec3<u32>`) of an active lane written
    /// to the destination with its output modifiers, mixed-precision
    /// rounding, SDWA placement or 16-bit half (`cpu::alu::execute_vector`).
    pub(super) fn emit_vector_result(&mut self, op: &AluOp, x: &[Pair; 3], k: &str) {
        let sig = op.func.signature();
        if let (Some(Dst::Reg(r)), Some(t)) = (op.dst, sig.output) {
            let mut hi = "r.y";
            let (mut v, t) = if op.mix.is_some_and(|m| m.f16_result) {
                // v_fma_mixlo/hi_f16: rounded to f16 (v_cvt_f16_f32), then
                // CLAMP on f16, into one half (cpu::alu::execute_vector).
                let cvt = AluFn::new(Family::Cvt(Ty::F16), Ty::F32);
                let cvt = AluOp::new(cvt, Unit::Vector, None, &[]);
                let r: [Pair; 3] = [("r.x".into(), "0u".into()), zero(), zero()];
                let call = alu_call::call(cvt.func, cvt.unit, "mode", &r, "false");
                (output(op, Ty::F16, x, k, &format!("{call}.x")), Ty::F16)
            } else if t == Ty::F64 && (op.mods.omod != 0 || op.mods.clamp) {
                // Both dwords through f64_output (cpu::alu::output).
                self.line(&format!(
                    "    let r64 = f64_output(mode, r.xy, {}u, {});",
                    op.mods.omod, op.mods.clamp
                ));
                hi = "r64.y";
                ("r64.x".to_string(), t)
            } else {
                (output(op, t, x, k, "r.x"), t)
            };
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
            self.write_pair(r, t.slots(), "val", hi);
        }
    }

    /// The packed (VOP3P) result of an active lane (`cpu::alu::packed_value`):
    /// the function on each half its selections pick, with its output
    /// modifiers, low result then high, in one dword.
    fn emit_packed(&mut self, op: &AluOp, p: Packed, k: &str) {
        let sig = op.func.signature();
        let Some(t) = sig.output else { return };
        let mut halves = Vec::new();
        for (half, x) in self.packed_inputs(op, p).iter().enumerate() {
            let call = alu_call::call(op.func, op.unit, "mode", x, k);
            self.line(&format!("    let r{half} = {call};"));
            halves.push(output(op, t, x, k, &format!("r{half}.x")));
        }
        self.write_packed(op, &halves[0], &halves[1]);
    }

    /// The inputs of a packed operation's low and high halves: each the
    /// 16-bit half its OP_SEL (low) or OP_SEL_HI (high) bit picks, negated
    /// by NEG (NEG_HI) for floats.
    pub(super) fn packed_inputs(&mut self, op: &AluOp, p: Packed) -> [[Pair; 3]; 2] {
        let sig = op.func.signature();
        let float = op.func.modifier_type().is_some();
        let mut out: [[Pair; 3]; 2] = Default::default();
        for (x, (sel, neg)) in out
            .iter_mut()
            .zip([(op.mods.op_sel, op.mods.neg), (p.op_sel_hi, p.neg_hi)])
        {
            for (i, slot) in x.iter_mut().enumerate() {
                *slot = zero();
                if sig.inputs[i].is_none() {
                    continue;
                }
                let dword = if op.dpp.is_some() && i == op.dpp_input {
                    "dpp_v".to_string()
                } else {
                    self.operand(op.src[i], 1).0
                };
                let mut v = format!("(({dword} >> {}u) & 0xffffu)", 16 * (sel >> i & 1));
                if float && neg >> i & 1 == 1 {
                    v = format!("({v} ^ 0x8000u)");
                }
                slot.0 = v;
            }
        }
        out
    }

    /// Writes a packed result, its low and high halves' values (after the
    /// output modifiers) as WGSL expressions, in one dword.
    pub(super) fn write_packed(&mut self, op: &AluOp, lo: &str, hi: &str) {
        if let Some(Dst::Reg(r)) = op.dst {
            self.line(&format!(
                "    let val = ({lo} & 0xffffu) | (({hi} & 0xffffu) << 16u);"
            ));
            self.write_pair(r, 1, "val", "0u");
        }
    }

    /// A wave operation other than a branch or barrier (`cpu::wave_ops`).
    pub(super) fn emit_wave(
        &mut self,
        offset: usize,
        i: usize,
        w: &WaveOp,
    ) -> Result<(), TranslateError> {
        match *w {
            WaveOp::GetPc { sdst } => {
                let a = self.e.prog.next_address(i);
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
                let call = alu_call::call(op.func, op.unit, "mode", &[a, b, zero()], "false");
                self.line("{");
                self.line(&format!("let r = {call};"));
                self.line("let old_lo = exec_lo;");
                self.line("let old_hi = exec_hi;");
                if let Some(d) = sdst {
                    self.write_pair(Reg::Sgpr(d), slots, "old_lo", "old_hi");
                }
                self.write_exec("r.x", "r.y");
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
            WaveOp::Permlane {
                cross,
                vdst,
                src,
                sel_lo,
                sel_hi,
                fi,
                bound_ctrl,
            } => {
                let lo = self.src(sel_lo);
                let hi = self.src(sel_hi);
                let v = self.e.v_read(src);
                self.line(&format!(
                    "let pl{i} = permlane_source({cross}, {lo}, {hi}, lane);"
                ));
                self.line(&format!(
                    "let pv{i} = xl_value({v}, lane, pl{i}, xvc % 2u);"
                ));
                self.line("xvc = xvc + 1u;");
                if let Some(d) = self.e.v(vdst) {
                    self.line(&format!(
                        "if lane_on {{ if is_active(exec_lo, exec_hi, pl{i}) || {fi} {{ {d} = pv{i}; }} else if {bound_ctrl} {{ {d} = 0u; }} }}"
                    ));
                }
            }
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
                self.round_checked = [false; 2];
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
}
