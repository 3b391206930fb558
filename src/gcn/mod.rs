//! The AMD GCN/RDNA frontend: bytes → decoded instructions → LLVM-syntax text.
//!
//! Layout:
//! - [`encoding`]: which encoding class a dword starts, and how long the instruction is;
//! - [`mimg`] (+ [`mimg_ops`], the per-generation opcode tables as data): image instructions;
//! - [`interp`]: VINTRP, the VOP3-encoded interps, gfx11 VINTERP and LDSDIR;
//! - [`sopp`]: program-control instructions;
//! - [`salu`]: scalar ALU (SOP1, SOP2, SOPK, SOPC);
//! - [`vop`] (+ [`vop_ext`], DPP/SDWA): vector ALU, every VOP form;
//! - [`vopd`]: gfx11 dual-issue VALU;
//! - [`smem`] (gfx8+), [`smrd`] (gfx6/gfx7), [`ds`], [`buffer`] (MUBUF/MTBUF), [`flat`] (FLAT/GLOBAL/SCRATCH),
//!   [`exp`]: memory and exports;
//! - [`layout`] and [`encoded`]: the bit layouts of those forms and what they
//!   share (field access, operand decoding, LLVM's validity rules);
//! - [`decoded`]: the modifier values their decoded forms expose as public
//!   fields (source modifiers, omod, SDWA selects, DPP fields, buffer formats);
//! - [`signature`] (+ [`signature_tables`], generated from llvm-mc-19): per opcode,
//!   the operands LLVM prints, their register counts and constant types;
//! - [`other`]: the fallback for a class without signature rows: class, length and
//!   (where known) name;
//! - [`operand`]: typed operands ([`operand::Operand`]) and their spelling;
//!   [`immediate`]: constants by operand type;
//! - [`decode`]: the stream decoder that ties them together;
//! - [`lower`]: decoded instructions into [`crate::ir`] (`lower_inst`, `image_op`).

pub mod buffer;
pub mod decode;
pub mod decoded;
pub mod ds;
pub mod encoded;
pub mod encoding;
pub mod exp;
pub mod flat;
pub mod immediate;
pub mod interp;
pub mod layout;
pub mod lower;
pub mod lower_alu;
pub mod lower_mem;
pub mod mimg;
pub mod mimg_ops;
pub mod operand;
pub mod ops;
pub mod ops_tables;
pub mod other;
pub mod salu;
pub mod signature;
pub mod signature_tables;
pub mod smem;
pub mod smrd;
pub mod sopp;
pub mod vop;
pub mod vop_ext;
pub mod vopd;

pub use decode::{decode_stream, DecodeError, Stream};
pub use encoding::Encoding;

use serde::Serialize;

/// The raw value of one encoding field, as it sits in the bit layout.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum FieldValue {
    /// A scalar field (`dmask`, `vaddr`, `srsrc` as SGPR/4, …).
    Int(u64),
    /// A list field: the extra address VGPRs of an NSA form.
    List(Vec<u32>),
}

/// One named field of an encoding; names are the ISA's, in lower case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    /// The field's ISA name in lower case (`dmask`, `srsrc`, `attrchan`, …).
    pub name: &'static str,
    /// Its raw value.
    pub value: FieldValue,
}

impl Field {
    /// A scalar field.
    pub fn int(name: &'static str, value: impl Into<u64>) -> Field {
        Field {
            name,
            value: FieldValue::Int(value.into()),
        }
    }
}

/// What an instruction decoded to.
#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    /// An image (MIMG) instruction, fully decoded (boxed: it is the largest
    /// kind, and lowering moves it into [`crate::ir::Op::Image`] as it is).
    Mimg(Box<mimg::Mimg>),
    /// An interpolation instruction (VINTRP, VOP3 interp, VINTERP, LDSDIR).
    Interp(interp::Interp),
    /// A SOPP program-control instruction.
    Sopp(sopp::Sopp),
    /// A scalar ALU instruction (SOP1, SOP2, SOPK, SOPC).
    Salu(salu::Salu),
    /// A vector ALU instruction (VOP1, VOP2, VOPC, VOP3, VOP3P and their
    /// SDWA/DPP forms).
    Vop(vop::Vop),
    /// A gfx11 dual-issue VALU instruction (VOPD).
    Vopd(vopd::Vopd),
    /// A scalar memory instruction (SMEM).
    Smem(smem::Smem),
    /// A gfx6/gfx7 scalar memory read (SMRD).
    Smrd(smrd::Smrd),
    /// An LDS/GDS instruction (DS).
    Ds(ds::Ds),
    /// A buffer instruction (MUBUF, MTBUF).
    Buffer(buffer::Buffer),
    /// A FLAT, GLOBAL or SCRATCH instruction.
    Flat(flat::Flat),
    /// An export (EXP).
    Exp(exp::Exp),
    /// Any other instruction: class, length and, where known, its name.
    Other(other::Other),
    /// Not a valid instruction of the chosen generation; `reason` says why.
    /// Like llvm-objdump, the stream continues after one dword.
    Invalid {
        /// Why the words are not a valid instruction.
        reason: String,
    },
}

/// One decoded instruction of a stream.
#[derive(Clone, Debug, PartialEq)]
pub struct Inst {
    /// Byte offset from the start of the stream.
    pub offset: usize,
    /// The instruction's dwords, in stream order (literal constants and NSA
    /// address dwords included).
    pub words: Vec<u32>,
    /// The encoding class the first dword selects.
    pub encoding: Encoding,
    /// The decoded content.
    pub kind: Kind,
}

impl Kind {
    /// The mnemonic, or `None` for an invalid or unnamed instruction.
    pub fn mnemonic(&self) -> Option<&str> {
        match self {
            Kind::Mimg(m) => Some(m.mnemonic()),
            Kind::Interp(i) => Some(i.mnemonic()),
            Kind::Sopp(s) => Some(s.mnemonic()),
            Kind::Salu(s) => Some(s.mnemonic()),
            Kind::Vop(v) => Some(v.mnemonic()),
            Kind::Vopd(x) => Some(x.mnemonic()),
            Kind::Smem(x) => Some(x.mnemonic()),
            Kind::Smrd(x) => Some(x.mnemonic()),
            Kind::Ds(x) => Some(x.mnemonic()),
            Kind::Buffer(x) => Some(x.mnemonic()),
            Kind::Flat(x) => Some(x.mnemonic()),
            Kind::Exp(x) => Some(x.mnemonic()),
            Kind::Other(o) => o.mnemonic(),
            Kind::Invalid { .. } => None,
        }
    }
}

impl Inst {
    /// Length in bytes.
    pub fn len_bytes(&self) -> usize {
        self.words.len() * 4
    }

    /// The instruction's bytes in memory order, as lower-case hex.
    pub fn hex(&self) -> String {
        self.words
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .map(|b| format!("{b:02x}"))
            .collect()
    }

    /// True when the words are not a valid instruction of the generation.
    pub fn is_invalid(&self) -> bool {
        matches!(self.kind, Kind::Invalid { .. })
    }

    /// The mnemonic, or `None` for an invalid or unnamed instruction.
    pub fn mnemonic(&self) -> Option<&str> {
        self.kind.mnemonic()
    }

    /// LLVM assembler syntax. Words that are not a valid instruction print as
    /// llvm-objdump prints them: `.long 0x…`.
    pub fn text(&self) -> String {
        match &self.kind {
            Kind::Mimg(m) => m.text(),
            Kind::Interp(i) => i.text(),
            Kind::Sopp(s) => s.text(),
            Kind::Salu(s) => s.text(),
            Kind::Vop(v) => v.text(),
            Kind::Vopd(x) => x.text(),
            Kind::Smem(x) => x.text(),
            Kind::Smrd(x) => x.text(),
            Kind::Ds(x) => x.text(),
            Kind::Buffer(x) => x.text(),
            Kind::Flat(x) => x.text(),
            Kind::Exp(x) => x.text(),
            Kind::Other(o) => o.text(&self.words),
            Kind::Invalid { .. } => format!(".long 0x{:08x}", self.words[0]),
        }
    }

    /// One past the highest VGPR the instruction names: its register
    /// operands, MIMG's data and address tuples, the interpolation sources and
    /// destination; 0 when it names none. A hint for how many rows a wave's
    /// VGPR file will store (`ir::Program::vgpr_rows`), not a bound: a
    /// register reached another way (M0-relative moves) is not counted, and
    /// the file still grows to it when written.
    pub fn vgpr_end(&self, arch: &crate::arch::Arch) -> u32 {
        use operand::Operand;
        let named = self.operands().iter().fold(0, |end, t| match t.operand {
            Operand::Vgpr { first, count } => end.max(u32::from(first) + u32::from(count)),
            Operand::VgprHalf { reg, .. } => end.max(u32::from(reg) + 1),
            _ => end,
        });
        let own = match &self.kind {
            Kind::Mimg(m) => {
                let data = m.raw.vdata + m.vdata_count.max(m.data_dwords(arch));
                let addr = m.addrs.iter().map(|(f, n)| f + n).max().unwrap_or(0);
                data.max(addr)
            }
            Kind::Interp(i) => [Some(i.vdst), i.ij, i.vsrc2]
                .into_iter()
                .chain(i.vsrcs)
                .flatten()
                .map(|v| v + 1)
                .max()
                .unwrap_or(0),
            _ => 0,
        };
        named.max(own).min(256)
    }

    /// The typed register and constant operands of the classes decoded from
    /// signature rows, in LLVM's order (VOPD: X then Y); empty for MIMG,
    /// interpolation, SOPP (they have their own accessors) and undecoded words.
    /// Each carries its field, its registers (with their count) or constant,
    /// and the type constants in it have ([`signature::Ty`]).
    pub fn operands(&self) -> Vec<operand::TypedOperand> {
        match &self.kind {
            Kind::Salu(s) => s.operands(),
            Kind::Vop(v) => v.operands(),
            Kind::Vopd(x) => {
                let mut v = x.x.operands(x.literal);
                v.extend(x.y.operands(x.literal));
                v
            }
            Kind::Smem(x) => x.operands(),
            Kind::Smrd(x) => x.operands(),
            Kind::Ds(x) => x.operands(),
            Kind::Buffer(x) => x.operands(),
            Kind::Flat(x) => x.operands(),
            Kind::Exp(x) => x.operands(),
            _ => Vec::new(),
        }
    }

    /// Every field of the encoding by its ISA name, as raw values.
    pub fn fields(&self) -> Vec<Field> {
        match &self.kind {
            Kind::Mimg(m) => m.fields(),
            Kind::Interp(i) => i.fields(),
            Kind::Sopp(s) => s.fields(),
            Kind::Salu(s) => s.fields(),
            Kind::Vop(v) => v.fields(),
            Kind::Vopd(x) => x.fields(),
            Kind::Smem(x) => x.fields(),
            Kind::Smrd(x) => x.fields(),
            Kind::Ds(x) => x.fields(),
            Kind::Buffer(x) => x.fields(),
            Kind::Flat(x) => x.fields(),
            Kind::Exp(x) => x.fields(),
            Kind::Other(o) => o.fields(&self.words),
            Kind::Invalid { .. } => Vec::new(),
        }
    }
}
