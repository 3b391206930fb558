//! MIMG: image instructions of gfx6–gfx11.
//!
//! STUB: to be completed.

use super::Field;
use crate::arch::Arch;

/// A decoded MIMG instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mimg {
    /// Opcode.
    pub op: u32,
}

impl Mimg {
    /// The mnemonic.
    pub fn mnemonic(&self) -> &str {
        "image_unknown"
    }
    /// LLVM syntax.
    pub fn text(&self) -> String {
        self.mnemonic().to_string()
    }
    /// Raw fields.
    pub fn fields(&self) -> Vec<Field> {
        vec![Field::int("op", self.op)]
    }
}

/// Length of the MIMG instruction starting with `w0`, in dwords.
pub fn length_dwords(_w0: u32, _arch: &Arch) -> usize {
    2
}

/// Decodes one MIMG instruction.
pub fn decode(words: &[u32], _arch: &Arch) -> Result<Mimg, String> {
    Ok(Mimg {
        op: (words[0] >> 18) & 0x7f,
    })
}
