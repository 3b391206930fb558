//! vISA name tables: element types, alignments, sampler sub-ops, the setup
//! instructions the frontend understands, and vISA mnemonics it recognises but
//! does not support. They are data so that the parser, the printer and the
//! documentation agree on one list (facts from docs/visa.md and the project's
//! research notes on IGC's `visa_igc_common_header.h` / `Common_ISA.cpp`).

use super::inst::BranchKind;

/// A vISA element type, by its binary code (`VISA_Type`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VisaType(pub u8);

/// Text name, binary code and element size in bytes of every vISA type the
/// 4.1 writers use.
const TYPES: &[(&str, u8, u8)] = &[
    ("ud", 0, 4),
    ("d", 1, 4),
    ("uw", 2, 2),
    ("w", 3, 2),
    ("ub", 4, 1),
    ("b", 5, 1),
    ("df", 6, 8),
    ("f", 7, 4),
    ("v", 8, 4),
    ("vf", 9, 4),
    ("bool", 10, 1),
    ("uq", 11, 8),
    ("uv", 12, 4),
    ("q", 13, 8),
    ("hf", 14, 2),
    ("bf", 15, 2),
];

impl VisaType {
    /// 32-bit float.
    pub const F: VisaType = VisaType(7);
    /// 16-bit float.
    pub const HF: VisaType = VisaType(14);

    /// The type a text name (any case) spells.
    pub fn from_name(name: &str) -> Option<VisaType> {
        TYPES
            .iter()
            .find(|t| t.0.eq_ignore_ascii_case(name))
            .map(|t| VisaType(t.1))
    }

    /// The type a binary code (`VISA_Type`, low nibble of a type byte) names.
    pub fn from_code(code: u8) -> Option<VisaType> {
        TYPES.iter().find(|t| t.1 == code).map(|t| VisaType(t.1))
    }

    fn entry(self) -> &'static (&'static str, u8, u8) {
        // Every VisaType is built from the table, so the lookup finds it; the
        // fallback keeps a hand-made out-of-range value from panicking.
        TYPES.iter().find(|t| t.1 == self.0).unwrap_or(&TYPES[0])
    }

    /// The canonical (lower-case) text name.
    pub fn name(self) -> &'static str {
        self.entry().0
    }

    /// Element size in bytes.
    pub fn bytes(self) -> u32 {
        u32::from(self.entry().2)
    }
}

/// Variable alignment names in the order of their binary codes (0 = byte …
/// 9 = 64word); the canonical spelling is the one listed.
pub const ALIGNS: &[&str] = &[
    "byte", "word", "dword", "qword", "oword", "GRF", "GRFx2", "hword", "32word", "64word",
];

/// The vISA instruction a sampler sub-op belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SamplerClass {
    /// 3D_SAMPLE, opcode 0x6D.
    Sample,
    /// 3D_LOAD, opcode 0x6E (no sampler operand).
    Load,
    /// 3D_GATHER4, opcode 0x6F (one source channel instead of a mask).
    Gather4,
    /// 3D_INFO, opcode 0x70.
    Info,
}

impl SamplerClass {
    /// The binary opcode.
    pub fn opcode(self) -> u8 {
        match self {
            SamplerClass::Sample => 0x6D,
            SamplerClass::Load => 0x6E,
            SamplerClass::Gather4 => 0x6F,
            SamplerClass::Info => 0x70,
        }
    }
}

/// One sampler sub-op (`VISASampler3DSubOpCode`).
#[derive(Debug, PartialEq, Eq)]
pub struct SubOp {
    /// The lower-case text mnemonic.
    pub name: &'static str,
    /// The sub-op code (also the hardware message type for codes < 32).
    pub code: u8,
    /// The instruction it is spelled with.
    pub class: SamplerClass,
    /// Parameter names in order, where the documentation gives them; `None`
    /// where it does not (the parser then accepts up to 15 parameters, and an
    /// executor must refuse the op rather than guess their meaning).
    pub params: Option<&'static [&'static str]>,
}

const UVRA: &[&str] = &["u", "v", "r", "ai"];
const REF_UVRA: &[&str] = &["ref", "u", "v", "r", "ai"];
const GRADS: &[&str] = &[
    "u", "dudx", "dudy", "v", "dvdx", "dvdy", "r", "drdx", "drdy", "ai",
];

macro_rules! sub_op {
    ($name:literal, $code:literal, $class:ident, $params:expr) => {
        SubOp {
            name: $name,
            code: $code,
            class: SamplerClass::$class,
            params: $params,
        }
    };
}

/// Every sampler sub-op below 32 that has a text mnemonic.
pub const SUB_OPS: &[SubOp] = &[
    sub_op!("sample_3d", 0, Sample, Some(UVRA)),
    sub_op!("sample_b", 1, Sample, Some(&["bias", "u", "v", "r", "ai"])),
    sub_op!("sample_l", 2, Sample, Some(&["lod", "u", "v", "r", "ai"])),
    sub_op!("sample_c", 3, Sample, Some(&["ref", "u", "v", "r", "ai"])),
    sub_op!("sample_d", 4, Sample, Some(GRADS)),
    sub_op!(
        "sample_b_c",
        5,
        Sample,
        Some(&["ref", "bias", "u", "v", "r", "ai"])
    ),
    sub_op!(
        "sample_l_c",
        6,
        Sample,
        Some(&["ref", "lod", "u", "v", "r", "ai"])
    ),
    sub_op!("load_3d", 7, Load, Some(&["u", "v", "lod", "r"])),
    // Gathers: IGC `3D_SAMPLE4.md` (sample4, _c, _po, _po_c); the Xe2-only
    // ones from Mesa `brw_sampler.c` (GATHER4_L/_B/_I/_I_C/_L_C payloads).
    sub_op!("sample4", 8, Gather4, Some(UVRA)),
    sub_op!("lod", 9, Sample, Some(UVRA)),
    sub_op!("resinfo", 10, Info, Some(&["lod"])),
    sub_op!("sampleinfo", 11, Info, Some(&[])),
    sub_op!(
        "sample4_l",
        13,
        Gather4,
        Some(&["lod", "u", "v", "r", "ai"])
    ),
    sub_op!(
        "sample4_b",
        14,
        Gather4,
        Some(&["bias", "u", "v", "r", "ai"])
    ),
    sub_op!("sample4_i", 15, Gather4, Some(UVRA)),
    sub_op!("sample4_c", 16, Gather4, Some(REF_UVRA)),
    sub_op!(
        "sample4_po",
        17,
        Gather4,
        Some(&["u", "v", "offu", "offv", "r"])
    ),
    sub_op!("sample_d_c_mlod", 17, Sample, None),
    sub_op!(
        "sample4_po_c",
        18,
        Gather4,
        Some(&["ref", "u", "v", "offu", "offv", "r"])
    ),
    sub_op!("sample_mlod", 18, Sample, None),
    sub_op!("sample_c_mlod", 19, Sample, None),
    sub_op!(
        "sample_d_c",
        20,
        Sample,
        Some(&["ref", "u", "dudx", "dudy", "v", "dvdx", "dvdy", "r", "drdx", "drdy", "ai"])
    ),
    sub_op!("sample4_i_c", 21, Gather4, Some(REF_UVRA)),
    sub_op!(
        "sample4_l_c",
        23,
        Gather4,
        Some(&["ref", "lod", "u", "v", "r", "ai"])
    ),
    sub_op!("sample_lz", 24, Sample, Some(UVRA)),
    sub_op!(
        "sample_c_lz",
        25,
        Sample,
        Some(&["ref", "u", "v", "r", "ai"])
    ),
    // Gfx9+ ld_lz is ld without its LOD slot: u, v, r (Mesa brw
    // `lower_sampler_logical_send`, TXF with a zero LOD; IGC 12504's dumps
    // pass u, v for a 2D surface).
    sub_op!("load_lz", 26, Load, Some(&["u", "v", "r"])),
    // ld_l: neither IGC's 3D_LOAD.md nor Mesa (no message 27) gives its layout.
    sub_op!("load_l", 27, Load, None),
    // UD form (IGC 3D_LOAD.md's parameter table and text, Mesa brw_sampler.c
    // LD2DMS_W; the doc's format table, u v lod r, is wrong: docs/errata.md).
    sub_op!(
        "load_2dms_w",
        28,
        Load,
        Some(&["si", "mcsl", "mcsh", "u", "v", "r", "lod"])
    ),
    // IGC 3D_LOAD.md: u v r lod (its format table says u v lod r, as above).
    sub_op!("load_mcs", 29, Load, Some(&["u", "v", "r", "lod"])),
];

/// The sub-op a mnemonic names (mnemonics are lower case in vISA text).
pub fn sub_op(name: &str) -> Option<&'static SubOp> {
    SUB_OPS.iter().find(|s| s.name == name)
}

/// The most parameters a sampler instruction carries (the binary count field
/// must be below 16).
pub const MAX_PARAMS: usize = 15;

/// Plain ALU instructions the frontend parses: mnemonic and source count. Their
/// shape is `[pred] op[.sat] (exec) dst src…`.
pub const ALU_OPS: &[(&str, usize)] = &[
    ("mov", 1),
    ("add", 2),
    ("mul", 2),
    ("sel", 2),
    ("or", 2),
    ("shl", 2),
    ("and", 2),
    ("xor", 2),
    ("not", 1),
    ("shr", 2),
    ("asr", 2),
    ("rndd", 1),
    ("rndu", 1),
    ("rnde", 1),
    ("rndz", 1),
];

/// SIMD branch instructions: `[pred] goto|jmp (exec) label` (IGC
/// `instructions/GOTO.md`, `JMP.md`).
pub const BRANCH_OPS: &[(&str, BranchKind)] =
    &[("goto", BranchKind::Goto), ("jmp", BranchKind::Jmp)];

/// `cmp` relations in binary-code order (0 eq … 5 le).
pub const RELATIONS: &[&str] = &["eq", "ne", "gt", "ge", "lt", "le"];

/// vISA mnemonics that are real instructions but outside this frontend's
/// subset. A program may contain them (so real IGC dumps can be listed), but
/// [`super::Program::check_supported`] refuses them by name and line before
/// anything runs. A word in neither list is a parse error.
pub const KNOWN_UNSUPPORTED: &[&str] = &[
    "gather4_scaled",
    "scatter_scaled",
    "gather_scaled",
    "scatter4_typed",
    "gather4_typed",
    "oword_ld",
    "oword_ld_unaligned",
    "oword_st",
    "media_ld",
    "media_st",
    "svm_block_ld",
    "svm_block_st",
    "svm_gather",
    "svm_scatter",
    "svm_gather4_scaled",
    "svm_scatter4_scaled",
    "lsc_load",
    "lsc_store",
    "lsc_load_quad",
    "lsc_store_quad",
    "lsc_load_block2d",
    "lsc_store_block2d",
    "lsc_fence",
    "lsc_atomic_iadd",
    "mad",
    "min",
    "max",
    "div",
    "mod",
    "inv",
    "sqrt",
    "rsqrt",
    "log",
    "exp",
    "sin",
    "cos",
    "pow",
    "frc",
    "lzd",
    "fbl",
    "fbh",
    "cbit",
    "bfrev",
    "bfe",
    "bfi",
    "addc",
    "subb",
    "mulh",
    "avg",
    "dp2",
    "dp3",
    "dp4",
    "dph",
    "line",
    "lrp",
    "plane",
    "sad2",
    "sada2",
    "fminmax",
    "fcvt",
    "srnd",
    "addr_add",
    "call",
    "fcall",
    "ifcall",
    "faddr",
    "fret",
    "swjmp",
    "barrier",
    "sbarrier",
    "fence",
    "wait",
    "yield",
    "raw_send",
    "raw_sends",
    "raw_sendc",
    "raw_sendsc",
    "dword_atomic_add",
    "typed_atomic_add",
    "rt_write_3d",
    "urb_write_3d",
    "sample_unorm",
    "sample",
    "load",
    "avs",
    "lifetime",
    "dpas",
    "dpasw",
    "bf_cvt",
    "qw_gather",
    "qw_scatter",
];
