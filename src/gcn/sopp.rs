//! SOPP: program control (`s_endpgm`, `s_waitcnt`, `s_nop`, `s_branch`, …).
//!
//! STUB: to be completed.

use super::Field;
use crate::arch::Arch;

/// A decoded SOPP instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sopp {
    /// Opcode (bits 22:16).
    pub op: u32,
    /// SIMM16 (bits 15:0).
    pub simm16: u32,
    /// Mnemonic.
    pub name: &'static str,
}

impl Sopp {
    /// The mnemonic.
    pub fn mnemonic(&self) -> &str {
        self.name
    }
    /// LLVM syntax.
    pub fn text(&self) -> String {
        format!("{} 0x{:x}", self.name, self.simm16)
    }
    /// Raw fields.
    pub fn fields(&self) -> Vec<Field> {
        vec![Field::int("op", self.op), Field::int("simm16", self.simm16)]
    }
}

/// Decodes one SOPP dword.
pub fn decode(words: &[u32], _arch: &Arch) -> Result<Sopp, String> {
    let w = words[0];
    let op = (w >> 16) & 0x7f;
    let name = match op {
        1 => "s_endpgm",
        _ => return Err(format!("unknown SOPP opcode {op:#x}")),
    };
    Ok(Sopp {
        op,
        simm16: w & 0xffff,
        name,
    })
}
