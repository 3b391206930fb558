//! The stream decoder: walks a byte buffer instruction by instruction.
//!
//! Each step classifies the first dword ([`encoding::classify`]), asks the class
//! for the instruction's exact length ([`encoding::length_dwords`]: 32-bit literal
//! constants and NSA address dwords included), then hands the words to the module
//! that owns the class. A word that is not a valid instruction becomes a
//! [`Kind::Invalid`] entry one dword long, as llvm-objdump continues after it.

use super::{encoding, interp, mimg, other, sopp, Encoding, Inst, Kind};
use crate::arch::Arch;

/// Why a byte stream cannot be decoded at all. Each names the byte offset.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// There are no bytes.
    #[error("empty code: no instructions")]
    Empty,
    /// The byte count is not a multiple of four.
    #[error(
        "offset {offset:#x}: {len} bytes is not a whole number of dwords (trailing {rest} bytes)"
    )]
    Unaligned {
        /// Where the trailing partial dword starts.
        offset: usize,
        /// Total byte count.
        len: usize,
        /// Bytes past the last whole dword.
        rest: usize,
    },
    /// The last instruction needs more dwords than remain.
    #[error("offset {offset:#x}: truncated {encoding} instruction: needs {needed} bytes, {available} remain")]
    Truncated {
        /// Where the instruction starts.
        offset: usize,
        /// Its encoding class.
        encoding: Encoding,
        /// Its full length in bytes.
        needed: usize,
        /// The bytes left in the stream.
        available: usize,
    },
}

/// Decodes a whole stream of little-endian instruction dwords.
///
/// Structural problems (empty input, a partial dword, an instruction running past
/// the end) are errors; words that are not valid instructions are returned as
/// [`Kind::Invalid`] entries so that a caller can print everything it saw.
pub fn decode_stream(bytes: &[u8], arch: &Arch) -> Result<Vec<Inst>, DecodeError> {
    if bytes.is_empty() {
        return Err(DecodeError::Empty);
    }
    let rest = bytes.len() % 4;
    if rest != 0 {
        return Err(DecodeError::Unaligned {
            offset: bytes.len() - rest,
            len: bytes.len(),
            rest,
        });
    }
    let words: Vec<u32> = bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let inst = decode_one(&words[i..], i * 4, arch)?;
        i += inst.words.len();
        out.push(inst);
    }
    Ok(out)
}

/// Decodes the instruction that starts at `words[0]`; `offset` is its byte offset.
pub fn decode_one(words: &[u32], offset: usize, arch: &Arch) -> Result<Inst, DecodeError> {
    let enc = encoding::classify(words, arch);
    let len = encoding::length_dwords(words, enc, arch);
    if len > words.len() {
        return Err(DecodeError::Truncated {
            offset,
            encoding: enc,
            needed: len * 4,
            available: words.len() * 4,
        });
    }
    let body = &words[..len];
    let decoded: Result<Kind, String> = match enc {
        Encoding::Mimg => mimg::decode(body, arch).map(Kind::Mimg),
        Encoding::Sopp => sopp::decode(body, arch).map(Kind::Sopp),
        _ => match interp::decode(enc, body, arch) {
            Some(r) => r.map(Kind::Interp),
            None => other::decode(enc, body, arch).map(Kind::Other),
        },
    };
    Ok(match decoded {
        Ok(kind) => Inst {
            offset,
            words: body.to_vec(),
            encoding: enc,
            kind,
        },
        Err(reason) => Inst {
            offset,
            words: vec![words[0]],
            encoding: enc,
            kind: Kind::Invalid { reason },
        },
    })
}
