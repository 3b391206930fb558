//! Every instruction class that gcnrun decodes only to its class, length and name.
//!
//! STUB: to be completed by the owner of the encoding tables.

use super::{Encoding, Field};
use crate::arch::Arch;

/// An instruction of a class that is not decoded operand by operand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Other {
    /// The encoding class.
    pub encoding: Encoding,
    /// The opcode field, where the class has one.
    pub opcode: Option<u32>,
    /// The mnemonic, where known.
    pub name: Option<&'static str>,
}

impl Other {
    /// The mnemonic, where known.
    pub fn mnemonic(&self) -> Option<&str> {
        self.name
    }
    /// Text: llvm-objdump's spelling of words it does not decode.
    pub fn text(&self, words: &[u32]) -> String {
        words
            .iter()
            .map(|w| format!(".long 0x{w:08x}"))
            .collect::<Vec<_>>()
            .join("; ")
    }
    /// Fields: the opcode where the class has one.
    pub fn fields(&self, _words: &[u32]) -> Vec<Field> {
        self.opcode
            .map(|op| vec![Field::int("op", op)])
            .unwrap_or_default()
    }
}

/// Decodes a non-MIMG, non-SOPP, non-interp instruction.
pub fn decode(enc: Encoding, _words: &[u32], _arch: &Arch) -> Result<Other, String> {
    if enc == Encoding::Unknown {
        return Err("no encoding class of this generation starts with this dword".into());
    }
    Ok(Other {
        encoding: enc,
        opcode: None,
        name: None,
    })
}
