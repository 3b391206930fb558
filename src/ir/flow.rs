//! Control flow and the operations on a wave as a whole: branches, the program
//! counter, EXEC bookkeeping, cross-lane moves, barriers and the MODE register.
//!
//! The program counter is wave-uniform: a branch's condition reads scalar
//! state only (SCC, VCC, EXEC), so every lane of a wave follows it together,
//! and lanes are switched off and on through EXEC. Branch targets are indices
//! into [`super::Program::ops`], resolved by the lowering from byte offsets.

use super::alu::AluFn;
use super::{Operand, Src};

/// When a branch is taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cond {
    /// Always (`s_branch`).
    Always,
    /// SCC = 0.
    SccZ,
    /// SCC = 1.
    SccNz,
    /// VCC = 0 (every bit of the wave's mask).
    VccZ,
    /// VCC ≠ 0.
    VccNz,
    /// EXEC = 0.
    ExecZ,
    /// EXEC ≠ 0.
    ExecNz,
}

/// A hardware register `s_getreg`/`s_setreg` reach (AMD HW_REG): only MODE is
/// modelled; the lowering refuses the others by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HwReg {
    /// MODE: float round mode (bits 3:0), denormal modes (7:4), DX10_CLAMP (8),
    /// IEEE (9).
    Mode,
}

/// A wave-level operation.
#[derive(Clone, Debug, PartialEq)]
pub enum WaveOp {
    /// Jump to op `target` when `cond` holds.
    Branch {
        /// Index of the target op.
        target: u32,
        /// The condition.
        cond: Cond,
    },
    /// `s_getpc_b64`: the byte address of the next instruction
    /// ([`super::Program::code_base`] + its offset) into SGPRs `sdst`, `sdst+1`.
    GetPc {
        /// First destination SGPR.
        sdst: u32,
    },
    /// `s_setpc_b64`: continue at the address in SGPRs `src`, `src+1` (which
    /// must be an instruction's).
    SetPc {
        /// First source SGPR.
        src: u32,
    },
    /// `s_swappc_b64`: `sdst` gets the next instruction's address, then
    /// continue at `src`'s (a call).
    SwapPc {
        /// First destination SGPR.
        sdst: u32,
        /// First source SGPR.
        src: u32,
    },
    /// `s_<op>_saveexec`: `sdst` = EXEC; EXEC = `func(src, EXEC)` (or
    /// `func(EXEC, src)` when `exec_first`, for the `_n1`/`_n2` forms); SCC =
    /// EXEC ≠ 0. `wrexec` forms (`s_and_not0_wrexec`) write EXEC only.
    SaveExec {
        /// The function of `src` and EXEC (And, Or, Xor, AndNot, OrNot, Nand,
        /// Nor, Xnor on B32 or B64).
        func: AluFn,
        /// Where the old EXEC goes; `None` for the `wrexec` forms.
        sdst: Option<u32>,
        /// The operand.
        src: Operand,
        /// EXEC is the first operand.
        exec_first: bool,
    },
    /// `v_readlane_b32`: SGPR `sdst` = VGPR `src` of lane `lane` (mod wave size).
    ReadLane {
        /// Destination SGPR.
        sdst: u32,
        /// Source VGPR.
        src: u32,
        /// The lane (an SGPR, M0 or a constant).
        lane: Src,
    },
    /// `v_readfirstlane_b32`: SGPR `sdst` = VGPR `src` of the lowest active
    /// lane (lane 0 when EXEC is 0).
    ReadFirstLane {
        /// Destination SGPR.
        sdst: u32,
        /// Source VGPR (or a scalar source, read as is).
        src: Src,
    },
    /// `v_writelane_b32`: VGPR `vdst` of lane `lane` = `src`, whatever EXEC says.
    WriteLane {
        /// Destination VGPR.
        vdst: u32,
        /// The value.
        src: Src,
        /// The lane.
        lane: Src,
    },
    /// `v_permlane16_b32` / `v_permlanex16_b32` (gfx10+): each active lane
    /// reads VGPR `src` of a lane its row picks from the 64-bit select
    /// `{sel_hi, sel_lo}` (4 bits per lane of the row), in its own row
    /// (`cross` false) or the other row of its 32 (`cross`); FI and
    /// BOUND_CTRL (OP_SEL bits 0 and 1) as for DPP.
    Permlane {
        /// The `x16` form: the source row is the other one of the lane's 32.
        cross: bool,
        /// Destination VGPR.
        vdst: u32,
        /// Source VGPR.
        src: u32,
        /// Lane selects of lanes 0–7 of each row.
        sel_lo: Src,
        /// Lane selects of lanes 8–15.
        sel_hi: Src,
        /// An inactive source lane is read all the same.
        fi: bool,
        /// An inactive source lane reads 0 (else the lane is not written).
        bound_ctrl: bool,
    },
    /// `s_barrier`: wait until every wave of the workgroup arrives.
    Barrier,
    /// `s_getreg_b32`: bits `offset..offset+size` of a hardware register into
    /// SGPR `sdst` (zero-extended).
    GetReg {
        /// The register.
        reg: HwReg,
        /// First bit.
        offset: u32,
        /// Bits (1–32).
        size: u32,
        /// Destination SGPR.
        sdst: u32,
    },
    /// `s_setreg_b32` / `s_setreg_imm32_b32` / `s_denorm_mode` /
    /// `s_round_mode`: bits `offset..offset+size` of a hardware register from
    /// the low bits of `src`.
    SetReg {
        /// The register.
        reg: HwReg,
        /// First bit.
        offset: u32,
        /// Bits (1–32).
        size: u32,
        /// The value.
        src: Src,
    },
}
