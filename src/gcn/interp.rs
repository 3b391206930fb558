//! Interpolation: VINTRP, the VOP3-encoded interps (gfx8–gfx10), gfx11 VINTERP
//! and LDSDIR.
//!
//! STUB: to be completed.

use super::{Encoding, Field};
use crate::arch::Arch;

/// A decoded interpolation instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Interp {
    /// Mnemonic.
    pub name: &'static str,
}

impl Interp {
    /// The mnemonic.
    pub fn mnemonic(&self) -> &str {
        self.name
    }
    /// LLVM syntax.
    pub fn text(&self) -> String {
        self.name.to_string()
    }
    /// Raw fields.
    pub fn fields(&self) -> Vec<Field> {
        Vec::new()
    }
}

/// Decodes an interpolation instruction; `None` when `words` is not one (so the
/// caller falls through to the generic classes).
pub fn decode(_enc: Encoding, _words: &[u32], _arch: &Arch) -> Option<Result<Interp, String>> {
    None
}
