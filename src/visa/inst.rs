//! Decoded vISA instructions: the subset the frontend understands, plus a
//! verbatim record of recognised-but-unsupported ones.

use super::tables::{SubOp, VisaType};

/// Execution size and emask: `(M5, 16)`, `(M1_NM, 1)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Exec {
    /// Lanes: 1, 2, 4, 8, 16 or 32.
    pub size: u8,
    /// Mask group 0..=7 for M1..M8: the first lane is `4 * mask`.
    pub mask: u8,
    /// `_NM`: ignore the dispatch mask.
    pub no_mask: bool,
}

/// `.any` / `.all` on a predicate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PredCtrl {
    /// Per lane.
    None,
    /// `.any`.
    Any,
    /// `.all`.
    All,
}

/// An instruction predicate `([!]Pn[.any|.all])`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pred {
    /// The predicate variable.
    pub name: String,
    /// `!`.
    pub invert: bool,
    /// `.any` / `.all`.
    pub ctrl: PredCtrl,
}

/// A source modifier on a general operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Modifier {
    /// None.
    None,
    /// `(-)`.
    Neg,
    /// `(abs)`.
    Abs,
    /// `(-abs)`.
    NegAbs,
}

/// A region: `<v;w,h>` for sources, `<h>` for destinations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Region {
    /// Vertical stride and width (sources only).
    pub vw: Option<(u8, u8)>,
    /// Horizontal stride.
    pub h: u8,
}

/// A vector operand of an ALU or move instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Operand {
    /// `[mod]Name(row,col)<region>`; `row` counts GRFs, `col` elements.
    Var {
        /// The variable.
        name: String,
        /// Source modifier (always `None` for a destination).
        modifier: Modifier,
        /// Row offset in GRFs.
        row: u32,
        /// Column offset in elements.
        col: u32,
        /// The region.
        region: Region,
    },
    /// `0x3f800000:f`: raw bits of the given type.
    Imm {
        /// The bits, truncated to the type's width.
        bits: u64,
        /// The type.
        ty: VisaType,
    },
    /// A predicate variable as a `cmp`/`setp` destination.
    Pred(String),
    /// `S0(0)` / `T6(0)`: one element of a sampler or surface variable.
    State {
        /// The variable.
        name: String,
        /// Element index.
        index: u32,
    },
}

/// A raw operand `Name.byteoffset` (sampler destination and parameters).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Raw {
    /// The variable (`%null` for none).
    pub name: String,
    /// Byte offset from the start of the variable.
    pub offset: u32,
}

/// A 3D sampler-family instruction: 3D_SAMPLE, 3D_LOAD, 3D_GATHER4, 3D_INFO.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sampler {
    /// The sub-op (its class says which instruction).
    pub op: &'static SubOp,
    /// Instruction predicate.
    pub pred: Option<Pred>,
    /// `.pixel_null_mask`.
    pub pixel_null_mask: bool,
    /// `.cps`.
    pub cps: bool,
    /// `.divS` (non-uniform sampler).
    pub div_s: bool,
    /// Channel mask, bit 0 = R … bit 3 = A; for 3D_GATHER4 exactly one bit (the
    /// source channel).
    pub channels: u8,
    /// Execution size and mask.
    pub exec: Exec,
    /// The texel offset operand (not for 3D_INFO).
    pub aoffimmi: Option<Operand>,
    /// Sampler variable (3D_SAMPLE and 3D_GATHER4 only).
    pub sampler: Option<String>,
    /// Surface variable.
    pub surface: String,
    /// Result.
    pub dst: Raw,
    /// The paired surface (current dialect only).
    pub paired: Option<Raw>,
    /// Parameters in sub-op order.
    pub params: Vec<Raw>,
}

/// The two branch instructions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BranchKind {
    /// `goto` (GOTO 0x6C): each channel branches on its own predicate bit.
    Goto,
    /// `jmp` (JMP 0x32): the whole thread branches (exec size 1).
    Jmp,
}

impl BranchKind {
    /// The mnemonic.
    pub fn name(self) -> &'static str {
        super::tables::BRANCH_OPS
            .iter()
            .find(|b| b.1 == self)
            .map_or("goto", |b| b.0)
    }
}

/// One instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Inst {
    /// The plain ALU ops of [`super::tables::ALU_OPS`].
    Alu {
        /// The mnemonic, from [`super::tables::ALU_OPS`].
        op: &'static str,
        /// `.sat`.
        sat: bool,
        /// Predicate.
        pred: Option<Pred>,
        /// Execution size and mask.
        exec: Exec,
        /// Destination (a `Var`).
        dst: Operand,
        /// Sources.
        srcs: Vec<Operand>,
    },
    /// `movs (exec) dst src`: sets sampler/surface values.
    Movs {
        /// Execution size and mask.
        exec: Exec,
        /// Destination (`State` or `Var`).
        dst: Operand,
        /// Source.
        src: Operand,
    },
    /// `setp (exec) Pn src`.
    Setp {
        /// Execution size and mask.
        exec: Exec,
        /// The predicate set.
        dst: String,
        /// The lane bits.
        src: Operand,
    },
    /// `cmp.rel (exec) dst src0 src1`.
    Cmp {
        /// Index into [`super::tables::RELATIONS`].
        rel: u8,
        /// Execution size and mask.
        exec: Exec,
        /// Destination: a predicate or a general variable.
        dst: Operand,
        /// The two sources.
        srcs: [Operand; 2],
    },
    /// `[pred] goto|jmp (exec) label`: a SIMD (`goto`) or scalar (`jmp`)
    /// branch to a block label.
    Branch {
        /// Which branch.
        kind: BranchKind,
        /// Predicate.
        pred: Option<Pred>,
        /// Execution size and mask.
        exec: Exec,
        /// The target label.
        label: String,
    },
    /// `ret (exec)`.
    Ret {
        /// Predicate.
        pred: Option<Pred>,
        /// Execution size and mask.
        exec: Exec,
    },
    /// A sampler-family instruction.
    Sampler(Box<Sampler>),
    /// `[pred] scatter4_scaled.CH (exec) surface offset element_offset src`
    /// (IGC `instructions/SCATTER4_SCALED.md`): untyped dword stores.
    Scatter4Scaled {
        /// Predicate.
        pred: Option<Pred>,
        /// Colour channel mask, bit 0 = R.
        channels: u8,
        /// Execution size and mask.
        exec: Exec,
        /// Surface variable.
        surface: String,
        /// Global byte offset (a scalar UD operand).
        offset: Operand,
        /// Per-channel byte offsets (UD).
        element_offset: Raw,
        /// The values, one block per enabled colour channel.
        src: Raw,
    },
    /// A real vISA instruction this frontend does not support, kept as its
    /// source text so it can be listed; refused before execution.
    Unsupported {
        /// The mnemonic.
        mnemonic: String,
        /// The statement text (predicate to last token).
        text: String,
    },
}
