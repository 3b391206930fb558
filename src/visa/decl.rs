//! Kernel-level declarations: `.decl`, `.input`, `.kernel_attr`, and the
//! predefined variables every kernel has without declaring them.

use super::tables::VisaType;

/// What a `.decl` declares (`v_type=`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VarKind {
    /// `v_type=G`: a general variable of `num_elts` elements of `ty`.
    General {
        /// Element type.
        ty: VisaType,
        /// Element count.
        num_elts: u32,
        /// Alignment code, an index into [`super::tables::ALIGNS`].
        align: Option<u8>,
        /// `alias=<base, byte offset>`.
        alias: Option<(String, u32)>,
    },
    /// `v_type=A`: address registers.
    Address {
        /// Element count.
        num_elts: u32,
    },
    /// `v_type=P`: a predicate of `num_elts` lanes.
    Predicate {
        /// Element count.
        num_elts: u32,
    },
    /// `v_type=S`: sampler state indices.
    Sampler {
        /// Element count.
        num_elts: u32,
    },
    /// `v_type=T`: surface (binding-table) indices.
    Surface {
        /// Element count.
        num_elts: u32,
    },
}

impl VarKind {
    /// The `v_type=` letter.
    pub fn letter(&self) -> &'static str {
        match self {
            VarKind::General { .. } => "G",
            VarKind::Address { .. } => "A",
            VarKind::Predicate { .. } => "P",
            VarKind::Sampler { .. } => "S",
            VarKind::Surface { .. } => "T",
        }
    }

    /// The element count.
    pub fn num_elts(&self) -> u32 {
        match self {
            VarKind::General { num_elts, .. }
            | VarKind::Address { num_elts }
            | VarKind::Predicate { num_elts }
            | VarKind::Sampler { num_elts }
            | VarKind::Surface { num_elts } => *num_elts,
        }
    }

    /// Size in bytes: general variables by type; samplers and surfaces hold one
    /// dword index each (that is what `.input` passes for them).
    pub fn bytes(&self) -> u32 {
        match self {
            VarKind::General { ty, num_elts, .. } => ty.bytes() * num_elts,
            VarKind::Sampler { num_elts } | VarKind::Surface { num_elts } => 4 * num_elts,
            VarKind::Address { num_elts } => 2 * num_elts,
            VarKind::Predicate { num_elts } => num_elts.div_ceil(8),
        }
    }
}

/// One `.decl`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decl {
    /// The variable's name.
    pub name: String,
    /// What it is.
    pub kind: VarKind,
    /// `v_name=` (IGC prints the binary name of S/T variables here).
    pub v_name: Option<String>,
    /// `attrs={...}`, kept as the text between the braces.
    pub attrs: Option<String>,
}

/// One `.input NAME offset=N [size=M]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Input {
    /// The declared variable the input fills.
    pub name: String,
    /// Byte offset in the input payload.
    pub offset: u32,
    /// Size in bytes, when written (otherwise the variable's size).
    pub size: Option<u32>,
}

/// The value of a `.kernel_attr`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AttrValue {
    /// An integer.
    Int(i64),
    /// A quoted string.
    Str(String),
}

/// One `.kernel_attr Name[=value]`. Parsed and kept; nothing interprets them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelAttr {
    /// The attribute name (`Target`, `SimdSize`, …).
    pub name: String,
    /// Its value, if any.
    pub value: Option<AttrValue>,
}

/// The class of a predefined (never declared) variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Predefined {
    /// A general variable (`%r0`, `%null`, …). Its size depends on the
    /// platform, so operands on it are not bounds-checked.
    General,
    /// A surface (`%bss`, `T1`, …).
    Surface,
    /// The bindless sampler `S31`.
    Sampler,
}

/// Predefined general variables (binary ids 0–20; 21–31 are reserved).
pub const PREDEFINED_GENERAL: &[&str] = &[
    "%null",
    "%thread_x",
    "%thread_y",
    "%group_id_x",
    "%group_id_y",
    "%group_id_z",
    "%tsc",
    "%r0",
    "%arg",
    "%retval",
    "%sp",
    "%fp",
    "%hw_id",
    "%sr0",
    "%cr0",
    "%ce0",
    "%dbg0",
    "%color",
    "%impl_arg_buf_ptr",
    "%local_id_buf_ptr",
    "%msg0",
];

/// Predefined surfaces T0–T5 by their text names (binary surface ids 0–5).
pub const PREDEFINED_SURFACES: &[&str] = &["%slm", "T1", "T2", "TSS", "%bss", "%scratch"];

/// Whether `name` is predefined, and as what.
pub fn predefined(name: &str) -> Option<Predefined> {
    if PREDEFINED_GENERAL.contains(&name) {
        Some(Predefined::General)
    } else if PREDEFINED_SURFACES.contains(&name) {
        Some(Predefined::Surface)
    } else if name == "S31" {
        Some(Predefined::Sampler)
    } else {
        None
    }
}
