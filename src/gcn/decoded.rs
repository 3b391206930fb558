//! The decoded form of the operand-decoded classes' modifiers, shared by them:
//! what a lowering to [`crate::ir`] reads instead of re-parsing text.
//!
//! Each class struct ([`super::salu::Salu`], [`super::vop::Vop`],
//! [`super::vopd::Vopd`], [`super::smem::Smem`], [`super::smrd::Smrd`],
//! [`super::ds::Ds`], [`super::buffer::Buffer`], [`super::flat::Flat`],
//! [`super::exp::Exp`]) keeps its raw encoding (`enc`) and carries, as public
//! fields filled when it is decoded, its mnemonic, its typed operands
//! ([`TypedOperand`]: the encoding field, the SGPR/VGPR tuple, special register,
//! inline constant or literal, and the type constants in it have) and its
//! modifiers as the values below. The fields hold what LLVM's printer shows:
//! a modifier bit the opcode does not have (LLVM ignores it) reads as unset.

use super::operand::TypedOperand;

/// A source operand with its input modifiers (AMD ISA "input modifiers";
/// LLVM `printOperandAndFPInputMods` / `printOperandAndIntInputMods`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Src {
    /// The operand.
    pub opd: TypedOperand,
    /// Negate (`-x`; VOP3P packed math: the low half's negate, `neg_lo`).
    pub neg: bool,
    /// Absolute value (`|x|`).
    pub abs: bool,
    /// Sign-extend an integer operand (`sext(x)`: SDWA, and the integer
    /// operands of the VOP3 DPP forms).
    pub sext: bool,
    /// VOP3P packed math: the high half's negate (`neg_hi`).
    pub neg_hi: bool,
}

impl Src {
    /// A source without modifiers.
    pub fn plain(opd: TypedOperand) -> Src {
        Src {
            opd,
            neg: false,
            abs: false,
            sext: false,
            neg_hi: false,
        }
    }
}

/// The output modifier (VOP3 and SDWA `OMOD`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Omod {
    /// None.
    #[default]
    None,
    /// `mul:2`.
    Mul2,
    /// `mul:4`.
    Mul4,
    /// `div:2`.
    Div2,
}

impl Omod {
    /// From the 2-bit field.
    pub fn from_bits(v: u32) -> Omod {
        match v & 3 {
            1 => Omod::Mul2,
            2 => Omod::Mul4,
            3 => Omod::Div2,
            _ => Omod::None,
        }
    }
}

/// An SDWA operand select (`BYTE_0` … `DWORD`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum SdwaSel {
    Byte0,
    Byte1,
    Byte2,
    Byte3,
    Word0,
    Word1,
    Dword,
}

impl SdwaSel {
    /// From the 3-bit field; 7 selects nothing (the decoder refuses it).
    pub fn from_bits(v: u32) -> Option<SdwaSel> {
        use SdwaSel::*;
        [Byte0, Byte1, Byte2, Byte3, Word0, Word1, Dword]
            .get(v as usize)
            .copied()
    }
}

/// What SDWA does with the destination bits a select leaves out
/// (`dst_unused`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DstUnused {
    /// `UNUSED_PAD`: zeros (also the field's value 3, which LLVM prints so).
    Pad,
    /// `UNUSED_SEXT`: the sign of the selected part.
    Sext,
    /// `UNUSED_PRESERVE`: the destination's old bits.
    Preserve,
}

/// The SDWA dword's selects, where the opcode has each operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sdwa {
    /// The destination select (`None` for VOPC).
    pub dst_sel: Option<SdwaSel>,
    /// What happens to the unselected destination bits (`None` for VOPC).
    pub dst_unused: Option<DstUnused>,
    /// SRC0's select.
    pub src0_sel: Option<SdwaSel>,
    /// SRC1's select (VOP2, VOPC).
    pub src1_sel: Option<SdwaSel>,
}

/// The DPP extension of a vector ALU instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dpp {
    /// DPP16: a lane pattern by control word, and the row/bank write masks.
    Dpp16 {
        /// `dpp_ctrl` (9 bits): `quad_perm`, `row_shl`, … (AMD ISA "DPP_CTRL").
        ctrl: u16,
        /// `row_mask`: rows written.
        row_mask: u8,
        /// `bank_mask`: banks written.
        bank_mask: u8,
        /// `bound_ctrl:1`: a lane reading outside the row reads 0.
        bound_ctrl: bool,
        /// `fi:1` (gfx10+): fetch inactive lanes.
        fi: bool,
    },
    /// DPP8: each lane of an 8-lane group reads lane `lanes[i]`.
    Dpp8 {
        /// The eight 3-bit lane selects.
        lanes: [u8; 8],
        /// `fi:1`: fetch inactive lanes (SRC0 0xEA).
        fi: bool,
    },
}

/// The data format of a typed buffer access (MTBUF).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BufFormat {
    /// gfx6–gfx9: separate data and numeric formats (`BUF_DATA_FORMAT_*`,
    /// `BUF_NUM_FORMAT_*`).
    Split {
        /// DFMT (4 bits; 7 on gfx6/gfx7 is 3 bits + reserved).
        dfmt: u8,
        /// NFMT (3 bits).
        nfmt: u8,
    },
    /// gfx10+: one unified format (`BUF_FMT_*`, 7 bits).
    Unified(u8),
}

/// The hardware register operand of `s_getreg`/`s_setreg`
/// (`hwreg(id, offset, size)`; the same SIMM16 layout on every generation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HwReg {
    /// The register id (`HW_REG_*`).
    pub id: u8,
    /// The first bit.
    pub offset: u8,
    /// The number of bits (1–32).
    pub size: u8,
}

impl HwReg {
    /// From SIMM16: id 5:0, offset 10:6, size − 1 15:11.
    pub fn from_simm16(v: u32) -> HwReg {
        HwReg {
            id: (v & 0x3f) as u8,
            offset: ((v >> 6) & 0x1f) as u8,
            size: (((v >> 11) & 0x1f) + 1) as u8,
        }
    }
}
