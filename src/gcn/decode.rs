//! The stream decoder: walks a byte buffer instruction by instruction.
//!
//! Each step classifies the first dword ([`encoding::classify`]), asks the class
//! for the instruction's exact length ([`encoding::length_dwords`]: 32-bit literal
//! constants and NSA address dwords included), then hands the words to the module
//! that owns the class. A word that is not a valid instruction becomes a
//! [`Kind::Invalid`] entry one dword long, as llvm-objdump continues after it.

use super::signature::Form;
use super::{
    buffer, ds, encoding, exp, flat, interp, mimg, other, salu, smem, smrd, sopp, vop, vopd,
    Encoding, Inst, Kind,
};
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

/// The operand-decoded result of a class, or (`None`: no signature rows, as on
/// gfx6/gfx7 for now) the class/length/name decoding of [`other`].
fn or_other(
    r: Option<Result<Kind, String>>,
    enc: Encoding,
    body: &[u32],
    arch: &Arch,
) -> Result<Kind, String> {
    r.unwrap_or_else(|| other::decode(enc, body, arch).map(Kind::Other))
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
    let mut body = &words[..len];
    let decoded: Result<Kind, String> = match enc {
        Encoding::Mimg => mimg::decode(body, arch).map(Kind::Mimg),
        Encoding::Sopp => sopp::decode(body, arch).map(Kind::Sopp),
        Encoding::Sop1 | Encoding::Sop2 | Encoding::Sopk | Encoding::Sopc => {
            match salu::decode(enc, body, arch) {
                Some(r) => r.map(Kind::Salu),
                None => other::decode(enc, body, arch).map(Kind::Other),
            }
        }
        Encoding::Smrd => or_other(
            smrd::decode(body, arch).map(|r| r.map(Kind::Smrd)),
            enc,
            body,
            arch,
        ),
        Encoding::Smem if arch.gen >= crate::arch::Gen::Gfx8 => or_other(
            smem::decode(body, arch).map(|r| r.map(Kind::Smem)),
            enc,
            body,
            arch,
        ),
        Encoding::Vopd => vopd::decode(body, arch).map(Kind::Vopd),
        Encoding::Ds => or_other(
            ds::decode(body, arch).map(|r| r.map(Kind::Ds)),
            enc,
            body,
            arch,
        ),
        Encoding::Mubuf | Encoding::Mtbuf => {
            let form = if enc == Encoding::Mubuf {
                Form::Mubuf
            } else {
                Form::Mtbuf
            };
            or_other(
                buffer::decode(form, body, arch).map(|r| r.map(Kind::Buffer)),
                enc,
                body,
                arch,
            )
        }
        Encoding::Flat => or_other(
            flat::decode(body, arch).map(|r| r.map(Kind::Flat)),
            enc,
            body,
            arch,
        ),
        Encoding::Exp => or_other(
            exp::decode(body, arch).map(|r| r.map(Kind::Exp)),
            enc,
            body,
            arch,
        ),
        _ => match interp::decode(enc, body, arch) {
            Some(r) => r.map(Kind::Interp),
            None => match vop::decode(enc, body, arch) {
                // An SDWA/DPP extension LLVM does not take leaves the 32-bit
                // form (one dword) where the opcode ignores SRC0.
                Some(Ok((v, n))) => {
                    body = &body[..n.min(body.len())];
                    Ok(Kind::Vop(v))
                }
                Some(Err(e)) => Err(e),
                None => other::decode(enc, body, arch).map(Kind::Other),
            },
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
