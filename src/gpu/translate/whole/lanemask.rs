//! Lane masks gathered only where something reads them whole (docs/gpu.md,
//! "Whole programs", lane masks).
//!
//! A vector compare or carry writes a lane mask: the bits of every lane in
//! the wave's two dwords, which a lane can only learn through an exchange in
//! workgroup memory and a barrier (`xl_mask`). Most masks are read back lane
//! by lane instead: the selector of `v_cndmask`, the carry-in of `v_addc`,
//! VCC of `v_div_fmas` — and there a lane needs its own bit, which it already
//! has. So a mask written to VCC or an SGPR pair is kept as the lane's bit in
//! a private variable (`lm<k>`) and gathered into its registers only before an
//! operation that reads or writes those registers another way (a scalar
//! operation, a move, a vector operation's other inputs), before any operation
//! this module does not classify (memory, images, wave operations such as a
//! branch on VCC or `s_and_saveexec`), and at the end of the block, where the
//! registers go back to the state buffer or on to another block. A mask
//! written again before any such read is never gathered, nor the half of one
//! that a scalar move or scalar operation overwrites before it is read. The
//! registers hold the same bits as the eager gather would have put there
//! whenever anything can see them, so the results are the CPU's.
//!
//! Each gather is a barrier, and on llvmpipe a barrier is a suspend point of
//! the coroutine every workgroup runs as: splitting those coroutines took
//! about a quarter of the CPU time of a cold `--gpu` run of
//! `kernels/math.toml` (a profile), half that since.

use super::Whole;
use crate::ir::alu::{AluOp, Dst, Unit};
use crate::ir::mem::{Addr, VectorMem};
use crate::ir::{Op, Operand, Reg, Src};

/// Masks that may wait at once, each a private `bool` of every lane; a
/// fifth gathers the oldest.
const SLOTS: usize = 4;

/// A mask written and not yet gathered.
#[derive(Clone, Copy, Debug)]
struct Pending {
    /// Its first register.
    reg: Reg,
    /// Where each lane keeps its bit: `lm<slot>`.
    slot: usize,
    /// Which of its registers (low, high) still hold it: a half that a
    /// scalar write has replaced is not gathered into.
    live: [bool; 2],
}

/// What an operation does to a waiting mask.
enum Effect {
    /// Nothing it can see.
    None,
    /// It may read the registers whole: gather first.
    Gather,
    /// It replaces these halves whole without reading them.
    Kill([bool; 2]),
}

/// The masks written and not yet gathered.
#[derive(Debug, Default)]
pub(super) struct Lazy {
    /// Oldest first.
    pending: Vec<Pending>,
    /// Slots the module uses (declared at the top of `main`).
    pub(super) slots: usize,
}

/// A register operand's register.
fn reg(o: &Operand) -> Option<Reg> {
    match o {
        Operand::Reg(r) => Some(*r),
        Operand::Const(_) => None,
    }
}

/// A 32-bit source's register.
fn src_reg(s: &Src) -> Option<Reg> {
    match s {
        Src::Reg(r) => Some(*r),
        Src::Const(_) => None,
    }
}

impl Whole<'_> {
    /// The registers of the mask `p` that still hold it.
    fn live_regs(&self, p: &Pending) -> [Option<Reg>; 2] {
        let hi = if self.wave64 { Self::next(p.reg) } else { None };
        [Some(p.reg).filter(|_| p.live[0]), hi.filter(|_| p.live[1])]
    }

    /// Whether every register of the mask `p` still holds it, so that its
    /// waiting bit is each lane's bit of those registers.
    fn whole_mask(&self, p: &Pending) -> bool {
        p.live == [true, self.wave64]
    }

    /// Whether an access of `r` and the register after it (every operand
    /// read as up to 64 bits, to be safe) touches the mask `p`.
    fn touches(&self, p: &Pending, r: Reg) -> bool {
        let access = [Some(r), Self::next(r)];
        self.live_regs(p)
            .iter()
            .flatten()
            .any(|m| access.iter().flatten().any(|a| a == m))
    }

    /// Whether register `r` holds (part of) the mask `p`.
    fn holds(&self, p: &Pending, r: Reg) -> bool {
        self.live_regs(p).contains(&Some(r))
    }

    /// Whether SGPRs `first` .. `first + count` touch the mask `p`.
    fn sgprs_touch(&self, p: &Pending, first: u32, count: u32) -> bool {
        (0..count).any(|k| self.touches(p, Reg::Sgpr(first + k)))
    }

    /// The halves of `p` that a whole write of `regs` replaces.
    fn killed(&self, p: &Pending, regs: &[Reg]) -> Effect {
        let live = self.live_regs(p);
        let hit = [0, 1].map(|h| live[h].is_some_and(|m| regs.contains(&m)));
        if hit == [false, false] {
            Effect::None
        } else {
            Effect::Kill(hit)
        }
    }

    /// What ALU operation `a` does to the mask `p`. A vector operation may
    /// read it as its lane bit (`bit_src` exactly `p.reg`) and write a new
    /// mask in its place (`defer_mask`); a scalar operation that reads none
    /// of it may replace halves of it; anything else sees it whole.
    fn alu_effect(&self, a: &AluOp, p: &Pending) -> Effect {
        // Each input as wide as the function reads it (vector_inputs).
        let sig = a.func.signature();
        for (o, t) in a.src.iter().zip(sig.inputs) {
            let (Some(r), Some(t)) = (reg(o), t) else {
                continue;
            };
            let hi = if t.slots() == 2 { Self::next(r) } else { None };
            if [Some(r), hi]
                .into_iter()
                .flatten()
                .any(|r| self.holds(p, r))
            {
                return Effect::Gather;
            }
        }
        if let Some(r) = a.bit_src.as_ref().and_then(reg) {
            let lane_bit = a.unit == Unit::Vector && r == p.reg && self.whole_mask(p);
            if !lane_bit && self.touches(p, r) {
                return Effect::Gather;
            }
        }
        let mut written = Vec::new();
        for d in [a.dst, a.bit_dst].into_iter().flatten() {
            match d {
                Dst::Mask(r) if a.unit == Unit::Vector && r == p.reg => {}
                // Written whole only when the function has a value
                // (emit_alu_inline writes nothing otherwise).
                Dst::Reg(r) if a.unit == Unit::Scalar => {
                    if let Some(t) = sig.output {
                        written.push(r);
                        if t.slots() == 2 {
                            written.extend(Self::next(r));
                        }
                    }
                }
                Dst::Reg(r) | Dst::Mask(r) | Dst::Exec(Some(r)) => {
                    if self.touches(p, r) {
                        return Effect::Gather;
                    }
                }
                Dst::Exec(None) | Dst::Scc => {}
            }
        }
        self.killed(p, &written)
    }

    /// What vector memory operation `m` does to the mask `p`: it reads SGPRs
    /// only as its base, V# or offset, and writes only VGPRs.
    fn mem_effect(&self, m: &VectorMem, p: &Pending) -> Effect {
        let reads = match m.addr {
            Addr::Flat { .. } => false,
            Addr::Global { saddr, .. } => saddr.is_some_and(|n| self.sgprs_touch(p, n, 2)),
            Addr::Buffer { srsrc, soffset, .. } => {
                self.sgprs_touch(p, srsrc, 4)
                    || src_reg(&soffset).is_some_and(|r| self.touches(p, r))
            }
            Addr::Scratch { saddr, .. } => saddr.is_some_and(|n| self.sgprs_touch(p, n, 1)),
        };
        if reads {
            Effect::Gather
        } else {
            Effect::None
        }
    }

    /// What `op` does to the mask `p` (an operation not classified here may
    /// see it whole).
    fn effect(&self, op: &Op, p: &Pending) -> Effect {
        let gather_if = |b: bool| if b { Effect::Gather } else { Effect::None };
        match op {
            Op::Nop | Op::Wait => Effect::None,
            Op::Alu(a) => self.alu_effect(a, p),
            Op::VMov { src, .. } => gather_if(src_reg(src).is_some_and(|r| self.touches(p, r))),
            Op::SMov { dst, src } => {
                if src_reg(src).is_some_and(|r| self.touches(p, r)) {
                    Effect::Gather
                } else {
                    self.killed(p, &[*dst])
                }
            }
            Op::VectorMem(m) => self.mem_effect(m, p),
            Op::ScalarLoad(l) => {
                let base = if l.buffer { 4 } else { 2 };
                gather_if(
                    self.sgprs_touch(p, l.sbase, base)
                        || src_reg(&l.offset).is_some_and(|r| self.touches(p, r))
                        || self.sgprs_touch(p, l.sdst, l.dwords),
                )
            }
            // VGPRs, M0 and EXEC only.
            Op::Ds(_) => Effect::None,
            _ => Effect::Gather,
        }
    }

    /// Before `op`: gathers the waiting masks it may see otherwise than lane
    /// by lane, and forgets the halves it replaces unread.
    pub(super) fn settle_before(&mut self, op: &Op) {
        let pending = std::mem::take(&mut self.lazy.pending);
        for mut p in pending {
            match self.effect(op, &p) {
                Effect::None => self.lazy.pending.push(p),
                Effect::Gather => self.gather(&p),
                Effect::Kill(hit) => {
                    p.live = [p.live[0] && !hit[0], p.live[1] && !hit[1]];
                    if p.live != [false, false] {
                        self.lazy.pending.push(p);
                    }
                }
            }
        }
    }

    /// Gathers every waiting mask (the end of a block).
    pub(super) fn settle_all(&mut self) {
        for p in std::mem::take(&mut self.lazy.pending) {
            self.gather(&p);
        }
    }

    /// The mask `p` gathered into the registers that still hold it.
    fn gather(&mut self, p: &Pending) {
        let [lo, hi] = self.live_regs(p);
        self.line("{");
        self.line(&format!("let mk = xl_mask(lm{}, lane, xmc % 3u);", p.slot));
        self.line("xmc = xmc + 1u;");
        if let Some(r) = lo {
            self.write(r, "mk.x");
        }
        if let Some(r) = hi {
            self.write(r, "mk.y");
        }
        self.line("}");
    }

    /// Keeps the lane bit `bit` (in scope) as the mask written at `r`,
    /// gathering it at once where `r` is not VCC or an SGPR of the file.
    pub(super) fn defer_mask(&mut self, r: Reg, bit: &str) {
        let in_file = match r {
            Reg::VccLo => true,
            Reg::Sgpr(n) => n + u32::from(self.wave64) < crate::machine::state::SGPRS,
            _ => false,
        };
        if !in_file {
            self.line(&format!("let mk = xl_mask({bit}, lane, xmc % 3u);"));
            self.line("xmc = xmc + 1u;");
            self.write_mask(r, "mk.x", "mk.y");
            return;
        }
        // The mask it replaces was not read whole since (settle_before).
        let slot = if let Some(i) = self.lazy.pending.iter().position(|p| p.reg == r) {
            self.lazy.pending.remove(i).slot
        } else if self.lazy.pending.len() < SLOTS {
            (0..SLOTS)
                .find(|s| self.lazy.pending.iter().all(|p| p.slot != *s))
                .unwrap_or(0)
        } else {
            let old = self.lazy.pending.remove(0);
            self.gather(&old);
            old.slot
        };
        self.lazy.slots = self.lazy.slots.max(slot + 1);
        self.line(&format!("lm{slot} = {bit};"));
        self.lazy.pending.push(Pending {
            reg: r,
            slot,
            live: [true, self.wave64],
        });
    }

    /// This lane's bit of a vector operation's mask input `b` as a WGSL
    /// `bool`: the waiting bit when `b` is a mask not yet gathered, else
    /// the bit of its registers; `false` without one.
    pub(super) fn lane_bit_of(&mut self, b: Option<Operand>) -> String {
        if let Some(r) = b.as_ref().and_then(reg) {
            let waiting = self.lazy.pending.iter().find(|p| p.reg == r);
            if let Some(p) = waiting.filter(|p| self.whole_mask(p)) {
                return format!("lm{}", p.slot);
            }
        }
        match b {
            Some(b) => {
                let (lo, hi) = self.mask(b);
                format!("mask_bit({lo}, {hi}, lane)")
            }
            None => "false".into(),
        }
    }
}
