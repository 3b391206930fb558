//! The program both backends run: a flat list of operations lowered from a
//! front end (`gcn::lower`, `visa::lower`).
//!
//! Registers are named by [`Reg`]. A GCN register is a 32-bit slot of the scalar
//! or vector file; an Intel vISA GRF variable is byte-addressed per lane, and will
//! lower to a run of 32-bit VGPR-like slots (`Vgpr` with a base chosen by the
//! lowering), so both ISAs share one register model: per-lane 32-bit slots plus
//! wave-uniform 32-bit slots.

pub mod alu;
pub mod atomic;
pub mod budget;
pub mod export;
pub mod fixed;
pub mod flow;
pub mod image;
pub mod mem;
pub mod visa;

use crate::arch::Arch;

/// A 32-bit register slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reg {
    /// Scalar register `s<n>` (wave-uniform).
    Sgpr(u32),
    /// Vector register `v<n>` (per lane).
    Vgpr(u32),
    /// M0.
    M0,
    /// Low / high half of EXEC.
    ExecLo,
    /// High half of EXEC.
    ExecHi,
    /// Low half of VCC.
    VccLo,
    /// High half of VCC.
    VccHi,
    /// The scalar condition code (one bit, read as 0 or 1; AMD `src_scc`).
    Scc,
}

/// A source of an ALU or wave operation: a register (the first of as many
/// consecutive slots as the operand's type takes) or a constant already
/// extended by the lowering to the operand's width (an inline constant of a
/// 64-bit float operand is its f64 bits; a 32-bit literal of a 64-bit
/// operand is extended as the encoding says).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operand {
    /// A register.
    Reg(Reg),
    /// A constant, low bits first.
    Const(u64),
}

impl From<Src> for Operand {
    /// A 32-bit source as an operand (a constant zero-extended).
    fn from(s: Src) -> Operand {
        match s {
            Src::Reg(r) => Operand::Reg(r),
            Src::Const(c) => Operand::Const(u64::from(c)),
        }
    }
}

/// A 32-bit source value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Src {
    /// A register.
    Reg(Reg),
    /// A constant (inline constant or literal), already as its 32 bits.
    Const(u32),
}

/// Interpolation steps (VINTRP, the VOP3 `_e64` f32 forms and the VOP3 f16
/// forms of gfx8–gfx10).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InterpStep {
    /// `vdst = P0 + i * P10`.
    P1,
    /// `vdst = vdst + j * P20`.
    P2,
    /// `vdst = P10 | P20 | P0` (the parameter index 0, 1, 2).
    Mov(u32),
    /// `v_interp_p1ll_f16`: `vdst.f32 = P0.f16 + i * P10.f16`.
    P1llF16,
    /// `v_interp_p1lv_f16`: `vdst.f32 = vsrc2.f16 + i * P10.f16` (P0 from a VGPR).
    P1lvF16,
    /// `v_interp_p2_f16`: `vdst.f16 = vsrc2.f32 + j * P20.f16`.
    P2F16,
}

/// The VOP3 parts of an interpolation: source and output modifiers and the f16
/// operands. All zero for VINTRP.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct InterpMods {
    /// Negate bits (VOP3 NEG): bit 1 = the I/J source, bit 2 = `vsrc2`.
    pub neg: u32,
    /// Absolute-value bits (VOP3 ABS), numbered as `neg`.
    pub abs: u32,
    /// Clamp the result to [0, 1].
    pub clamp: bool,
    /// Output modifier: 0 none, 1 ×2, 2 ×4, 3 ÷2.
    pub omod: u32,
    /// f16 forms: use the high 16 bits of each parameter dword (and of the
    /// p1lv VGPR) — the `high` operand (AMD's `attr_word`).
    pub high: bool,
    /// f16 p1lv/p2: the VGPR of the second source.
    pub vsrc2: u32,
}

/// gfx11 VINTERP arithmetic (RDNA3 ISA guide §16.13). Every step is a fused
/// multiply-add whose first source is read from a fixed lane of the quad.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VinterpStep {
    /// `v_interp_p10_f32`: `fma(src0[quad + 1], src1, src2[quad + 0])`.
    P10F32,
    /// `v_interp_p2_f32`: `fma(src0[quad + 2], src1, src2)`.
    P2F32,
    /// `v_interp_p10_f16_f32`: the p10 step on f16 halves, f32 result.
    P10F16F32,
    /// `v_interp_p2_f16_f32`: the p2 step with an f16 parameter, f16 result.
    P2F16F32,
}

/// The operands of an interpolation step ([`Op::Interp`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Interp {
    /// The step.
    pub step: InterpStep,
    /// Destination VGPR.
    pub vdst: u32,
    /// VGPR with the I (P1) or J (P2) barycentric; unused by `Mov`.
    pub ij: u32,
    /// Attribute (0–63).
    pub attr: u32,
    /// Channel (0–3).
    pub chan: u32,
    /// VOP3 modifiers and f16 operands.
    pub mods: InterpMods,
}

/// The operands of a gfx11 VINTERP step ([`Op::Vinterp`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Vinterp {
    /// The step.
    pub step: VinterpStep,
    /// Destination VGPR.
    pub vdst: u32,
    /// The three source VGPRs.
    pub src: [u32; 3],
    /// Negate bits (bit n = source n).
    pub neg: u32,
    /// Clamp the result to [0, 1].
    pub clamp: bool,
    /// OP_SEL: bit 0 high half of src0, bit 2 of src2 (p10 f16), bit 3
    /// the destination half (p2 f16).
    pub op_sel: u32,
}

/// One operation. Kept small (16 bytes): the ops of a 64 MiB code file must
/// fit in memory, so the rare large operands are boxed (README, "Memory").
#[derive(Clone, Debug, PartialEq)]
pub enum Op {
    /// Scalar 32-bit move (`s_mov_b32`, `s_movk_i32` with its constant
    /// sign-extended by the lowering).
    SMov {
        /// Destination.
        dst: Reg,
        /// Source.
        src: Src,
    },
    /// Vector move (`v_mov_b32`): every active lane (EXEC) gets `src`, read per
    /// lane for a VGPR source.
    VMov {
        /// Destination VGPR.
        dst: u32,
        /// Source.
        src: Src,
    },
    /// Attribute interpolation from LDS (VINTRP and the VOP3 interps; boxed,
    /// so that the common ops stay small).
    Interp(Box<Interp>),
    /// gfx11 `lds_param_load`: P0, P10, P20 and 0.0 of one attribute channel
    /// into lanes 0–3 of every quad with an active lane.
    LdsParamLoad {
        /// Destination VGPR.
        vdst: u32,
        /// Attribute (the raw 6-bit field).
        attr: u32,
        /// Channel (0–3).
        chan: u32,
    },
    /// gfx11 `lds_direct_load`: the dword at LDS byte address M0\[15:0\] into
    /// every lane of every quad with an active lane.
    LdsDirectLoad {
        /// Destination VGPR.
        vdst: u32,
    },
    /// gfx11 VINTERP (boxed, as [`Op::Interp`]).
    Vinterp(Box<Vinterp>),
    /// An image operation.
    Image(Box<image::ImageOp>),
    /// An operation on an Intel thread's GRF file (the vISA lowering).
    Visa(Box<visa::VisaOp>),
    /// Arithmetic or logic on the scalar or vector unit ([`alu`]).
    Alu(Box<alu::AluOp>),
    /// Two vector ALU operations issued together (AMD gfx11 VOPD), in the
    /// order to run them: the lowering puts Y first when Y reads X's
    /// destination (and refuses a pair where each reads the other's), so
    /// running them in order is running them together.
    Dual(Box<[alu::AluOp; 2]>),
    /// A branch, a program-counter, EXEC, cross-lane, barrier or MODE
    /// operation ([`flow`]).
    Wave(Box<flow::WaveOp>),
    /// A vector load, store or atomic on memory ([`mem`]).
    VectorMem(Box<mem::VectorMem>),
    /// A scalar load from memory ([`mem`]).
    ScalarLoad(Box<mem::ScalarLoad>),
    /// An LDS operation ([`mem`]).
    Ds(Box<mem::Ds>),
    /// A pixel shader's export to a colour or depth target ([`export`]);
    /// `exp null` lowers to [`Op::Nop`].
    Export(export::Export),
    /// `s_sendmsg` of a message that ends the wave (`MSG_DEALLOC_VGPRS`
    /// before the end is not one) — the wave stops as at `s_endpgm`.
    EndMsg,
    /// `s_waitcnt`: the interpreter completes every access in program order, so
    /// there is nothing to wait for.
    Wait,
    /// `s_nop`.
    Nop,
    /// `s_endpgm`.
    End,
}

/// What an operation does to the launch's memory (not LDS, not registers).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum MemUse {
    /// Nothing.
    None,
    /// Reads it only.
    Reads,
    /// Writes it (and may read it).
    Writes,
}

impl Op {
    /// What the operation does to the launch's memory: the CPU reference
    /// runs a program that only reads it fully in parallel, and commits a
    /// program that writes it in launch order (`cpu::run_with`).
    pub fn memory_use(&self) -> MemUse {
        use image::ImageKind;
        match self {
            Op::Image(m) => match m.op.kind {
                ImageKind::Store | ImageKind::Atomic => MemUse::Writes,
                _ => MemUse::Reads,
            },
            Op::VectorMem(v) => match v.access {
                mem::Access::Load(_) | mem::Access::Typed { store: false, .. } => MemUse::Reads,
                _ => MemUse::Writes,
            },
            Op::ScalarLoad(_) => MemUse::Reads,
            Op::Export(_) => MemUse::Writes,
            Op::Visa(g) if matches!(**g, visa::VisaOp::StoreScaled { .. }) => MemUse::Writes,
            _ => MemUse::None,
        }
    }

    /// Whether the operation may read or write the LDS: the DS and
    /// interpolation operations, and a flat access (its address may fall in
    /// the LDS aperture, `cpu::memops`).
    pub fn uses_lds(&self) -> bool {
        match self {
            Op::Ds(_) | Op::Interp(_) | Op::LdsParamLoad { .. } | Op::LdsDirectLoad { .. } => true,
            Op::VectorMem(v) => matches!(v.addr, mem::Addr::Flat { .. }),
            _ => false,
        }
    }
}

/// A lowered program.
#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    /// The target the code was decoded for.
    pub arch: Arch,
    /// Operations with the byte offset of the instruction each came from, in
    /// offset order (an instruction may lower to several ops, e.g. VOPD's two).
    pub ops: Vec<(usize, Op)>,
    /// The address of the code's byte 0 in the launch's memory
    /// (`s_getpc_b64` reads it; `s_setpc_b64` jumps to an address relative
    /// to it). 0 for programs not placed in memory.
    pub code_base: u64,
    /// The op a wave starts at: 0, or the kernel's entry when the launch
    /// decoded the functions it calls with it and some lie before it
    /// (`launch::hsa::prepare`).
    pub entry: usize,
    /// Where the launch placed private (scratch) memory, for the
    /// `scratch_*` instructions (gfx11's architected flat scratch).
    pub scratch: mem::Scratch,
    /// Where a draw launch collects exports ([`export::slot_address`]);
    /// `None` outside a draw, where both back ends refuse `exp`.
    pub exports: Option<u64>,
    /// How many VGPR rows a wave of the program is expected to store: one
    /// past the highest VGPR its instructions name (the front end's count;
    /// 0 when not known). A launch gives each wave that many rows before it
    /// runs, so that a run does not grow its waves' files register by
    /// register; a hint only, since the file grows to any register written
    /// (`machine::WaveState`).
    pub vgpr_rows: u32,
}

impl Program {
    /// A program of `ops` not placed in memory.
    pub fn new(arch: Arch, ops: Vec<(usize, Op)>) -> Program {
        Program {
            arch,
            ops,
            code_base: 0,
            entry: 0,
            scratch: mem::Scratch::default(),
            exports: None,
            vgpr_rows: 0,
        }
    }

    /// The address of the instruction after op `i`'s: what `s_getpc_b64`
    /// reads and `s_swappc_b64` returns to (both back ends).
    pub fn next_address(&self, i: usize) -> u64 {
        let here = self.ops[i].0;
        let next = self.ops[i + 1..]
            .iter()
            .map(|(o, _)| *o)
            .find(|&o| o > here)
            .unwrap_or(here + 4);
        self.code_base + next as u64
    }

    /// What the program as a whole does to memory: the most any op does.
    pub fn memory_use(&self) -> MemUse {
        self.ops
            .iter()
            .map(|(_, op)| op.memory_use())
            .max()
            .unwrap_or(MemUse::None)
    }

    /// Whether any op may touch the LDS ([`Op::uses_lds`]).
    pub fn uses_lds(&self) -> bool {
        self.ops.iter().any(|(_, op)| op.uses_lds())
    }

    /// The index of the first op of the instruction at byte `offset`, if an
    /// instruction starts there.
    pub fn op_at(&self, offset: usize) -> Option<usize> {
        let i = self.ops.partition_point(|(o, _)| *o < offset);
        (self.ops.get(i)?.0 == offset).then_some(i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The memory bound of README ("Memory") rests on these sizes: an op is 16
    /// bytes (24 with its offset) whatever it is, the large operands boxed; a
    /// decoded image instruction holds no heap allocation of its own.
    #[test]
    fn ops_stay_small() {
        assert!(
            std::mem::size_of::<Op>() <= 16,
            "{}",
            std::mem::size_of::<Op>()
        );
        assert!(std::mem::size_of::<(usize, Op)>() <= 24);
        assert!(std::mem::size_of::<Interp>() <= 48);
        assert!(
            std::mem::size_of::<image::ImageOp>() <= 72,
            "{}",
            std::mem::size_of::<image::ImageOp>()
        );
    }
}
