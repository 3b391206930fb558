//! The vISA opcode table: each opcode's text mnemonic and how its operands
//! are laid out in the binary stream (IGC `visa_igc_common_header.h`
//! `ISA_Opcode`, operand shapes from `ByteCodeReaderNG.cpp` /
//! `IsaDescription.cpp`, research notes §1.4, §2). A binary stream has no
//! instruction lengths, so an opcode whose layout is not listed here stops
//! the decoder with an error naming it.

use crate::visa::tables::SamplerClass;

/// How an opcode's operands follow the opcode byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Layout {
    /// exec u8, [pred u16], dst vector, `srcs` source vectors
    /// (`readInstructionCommonNG`: the Mov, Arith and Logic classes).
    Alu { srcs: u8, pred: bool },
    /// exec u8, relation u8, dst (predicate or general), two sources.
    Cmp,
    /// label id u16 (`ISA_LABEL`).
    Label,
    /// label id u16, a subroutine entry (`ISA_SUBROUTINE`, printed as
    /// `.function "name"` followed by the label).
    Subroutine,
    /// exec u8, pred u16 (`ret`, `fret`).
    Ret,
    /// exec u8, pred u16, label id u16 (`jmp`, `call`, `goto`).
    Branch,
    /// exec u8, pred u16, channel mask u8, scale u16, surface u8, global
    /// offset vector, offsets raw, data raw (`gather4_scaled`,
    /// `scatter4_scaled`).
    Scaled4,
    /// The 3D sampler family (§2.1, §2.4).
    Sampler(SamplerClass),
    /// Known opcode, operand layout not decoded.
    Undecoded,
}

use Layout::*;

const fn alu(srcs: u8) -> Layout {
    Alu { srcs, pred: true }
}

/// Opcode, text mnemonic, layout. Opcodes not listed are reserved.
pub(crate) const OPCODES: &[(u8, &str, Layout)] = &[
    (0x01, "add", alu(2)),
    (0x02, "avg", alu(2)),
    (0x03, "div", alu(2)),
    (0x04, "dp2", alu(2)),
    (0x05, "dp3", alu(2)),
    (0x06, "dp4", alu(2)),
    (0x07, "dph", alu(2)),
    (0x08, "exp", alu(1)),
    (0x09, "frc", alu(1)),
    (0x0A, "line", alu(2)),
    (0x0B, "log", alu(1)),
    (0x0C, "mad", alu(3)),
    (0x0D, "mulh", alu(2)),
    (0x0E, "lrp", alu(3)),
    (0x0F, "mod", alu(2)),
    (0x10, "mul", alu(2)),
    (0x11, "pow", alu(2)),
    (0x12, "rndd", alu(1)),
    (0x13, "rndu", alu(1)),
    (0x14, "rnde", alu(1)),
    (0x15, "rndz", alu(1)),
    (0x16, "sad2", alu(2)),
    (0x17, "sin", alu(1)),
    (0x18, "cos", alu(1)),
    (0x19, "sqrt", alu(1)),
    (0x1A, "rsqrt", alu(1)),
    (0x1B, "inv", alu(1)),
    (0x1C, "dpasw", Undecoded),
    (0x1D, "fcvt", Undecoded),
    (0x1E, "srnd", Undecoded),
    (0x1F, "lzd", alu(1)),
    (0x20, "and", alu(2)),
    (0x21, "or", alu(2)),
    (0x22, "xor", alu(2)),
    (0x23, "not", alu(1)),
    (0x24, "shl", alu(2)),
    (0x25, "shr", alu(2)),
    (0x26, "asr", alu(2)),
    (0x27, "cbit", alu(1)),
    (0x28, "addr_add", Undecoded),
    (0x29, "mov", alu(1)),
    (0x2A, "sel", alu(2)),
    (
        0x2B,
        "setp",
        Alu {
            srcs: 1,
            pred: false,
        },
    ),
    (0x2C, "cmp", Cmp),
    (
        0x2D,
        "movs",
        Alu {
            srcs: 1,
            pred: false,
        },
    ),
    (0x2E, "fbl", alu(1)),
    (0x2F, "fbh", alu(1)),
    (0x30, "subroutine", Subroutine),
    (0x31, "label", Label),
    (0x32, "jmp", Branch),
    (0x33, "call", Branch),
    (0x34, "ret", Ret),
    (0x35, "oword_ld", Undecoded),
    (0x36, "oword_st", Undecoded),
    (0x37, "media_ld", Undecoded),
    (0x38, "media_st", Undecoded),
    (0x39, "gather", Undecoded),
    (0x3A, "scatter", Undecoded),
    (0x3C, "oword_ld_unaligned", Undecoded),
    (0x40, "sample", Undecoded),
    (0x41, "sample_unorm", Undecoded),
    (0x42, "load", Undecoded),
    (0x43, "avs", Undecoded),
    (0x44, "va", Undecoded),
    (0x45, "fminmax", Undecoded),
    (0x46, "bfe", alu(3)),
    (0x47, "bfi", alu(4)),
    (0x48, "bfrev", alu(1)),
    (0x49, "addc", Undecoded),
    (0x4A, "subb", Undecoded),
    (0x4B, "gather4_typed", Undecoded),
    (0x4C, "scatter4_typed", Undecoded),
    (0x4D, "va_skl_plus", Undecoded),
    (0x4E, "svm", Undecoded),
    (0x4F, "ifcall", Undecoded),
    (0x50, "faddr", Undecoded),
    (0x51, "file", Undecoded),
    (0x52, "loc", Undecoded),
    (0x54, "vme_ime", Undecoded),
    (0x55, "vme_sic", Undecoded),
    (0x56, "vme_fbr", Undecoded),
    (0x57, "vme_idm", Undecoded),
    (0x59, "barrier", Undecoded),
    (0x5A, "samplr_cache_flush", Undecoded),
    (0x5B, "wait", Undecoded),
    (0x5C, "fence", Undecoded),
    (0x5D, "raw_send", Undecoded),
    (0x5F, "yield", Undecoded),
    (0x60, "nbarrier", Undecoded),
    (0x67, "fcall", Undecoded),
    (0x68, "fret", Ret),
    (0x69, "switchjmp", Undecoded),
    (0x6A, "sad2add", Undecoded),
    (0x6B, "plane", Undecoded),
    (0x6C, "goto", Branch),
    (0x6D, "3d_sample", Sampler(SamplerClass::Sample)),
    (0x6E, "3d_load", Sampler(SamplerClass::Load)),
    (0x6F, "3d_gather4", Sampler(SamplerClass::Gather4)),
    (0x70, "3d_info", Sampler(SamplerClass::Info)),
    (0x71, "rt_write_3d", Undecoded),
    (0x72, "urb_write_3d", Undecoded),
    (0x73, "typed_atomic", Undecoded),
    (0x74, "gather4_scaled", Scaled4),
    (0x75, "scatter4_scaled", Scaled4),
    (0x78, "gather_scaled", Undecoded),
    (0x79, "scatter_scaled", Undecoded),
    (0x7A, "raw_sends", Undecoded),
    (0x7B, "lifetime", Undecoded),
    (0x7C, "sbarrier", Undecoded),
    (0x7D, "dword_atomic", Undecoded),
    (0x7E, "sqrtm", Undecoded),
    (0x7F, "divm", Undecoded),
    (0x80, "rol", Undecoded),
    (0x81, "ror", Undecoded),
    (0x82, "dp4a", Undecoded),
    (0x83, "dpas", Undecoded),
    (0x84, "add3", Undecoded),
    (0x85, "bfn", Undecoded),
    (0x86, "qw_gather", Undecoded),
    (0x87, "qw_scatter", Undecoded),
    (0x89, "lsc_untyped", Undecoded),
    (0x8A, "lsc_typed", Undecoded),
    (0x8B, "lsc_fence", Undecoded),
    (0x91, "madw", Undecoded),
    (0x92, "add3o", Undecoded),
    (0x94, "breakpoint", Undecoded),
    (0x9B, "invm", Undecoded),
    (0x9C, "rsqtm", Undecoded),
];

/// The mnemonic and layout of an opcode byte; `None` for reserved values.
pub(crate) fn lookup(op: u8) -> Option<(&'static str, Layout)> {
    OPCODES
        .iter()
        .find(|(code, ..)| *code == op)
        .map(|&(_, name, layout)| (name, layout))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::visa::tables::{ALU_OPS, BRANCH_OPS, KNOWN_UNSUPPORTED};

    #[test]
    fn codes_are_sorted_and_unique() {
        assert!(OPCODES.windows(2).all(|w| w[0].0 < w[1].0));
        assert!(OPCODES.iter().all(|o| o.0 != 0));
    }

    /// Every decoded opcode outside the text subset becomes `Inst::Unsupported`,
    /// which the text parser must know by name to read the listing back.
    #[test]
    fn decoded_names_are_known_to_the_text_parser() {
        for &(code, name, layout) in OPCODES {
            let subset = ALU_OPS.iter().any(|a| a.0 == name)
                || BRANCH_OPS.iter().any(|b| b.0 == name)
                || matches!(
                    name,
                    "movs" | "setp" | "cmp" | "ret" | "label" | "subroutine" | "scatter4_scaled"
                );
            let decoded = !matches!(layout, Layout::Undecoded | Layout::Sampler(_));
            if decoded && !subset {
                assert!(
                    KNOWN_UNSUPPORTED.contains(&name),
                    "{code:#04x} `{name}` is decoded but the text parser does not know it"
                );
            }
        }
    }
}
