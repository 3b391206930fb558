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
    let mut stream = Stream::new(bytes, arch);
    let out: Vec<Inst> = stream.by_ref().collect();
    match stream.error {
        Some(e) => Err(e),
        None => Ok(out),
    }
}

/// Decodes a byte stream lazily, one instruction per [`Iterator::next`], so
/// that a caller that prints or lowers each instruction as it comes holds no
/// more than the one in hand (the input bytes are borrowed, not copied).
///
/// It yields what [`decode_stream`] returns, in order; where `decode_stream`
/// fails (empty, a partial dword, an instruction running past the end), the
/// iteration ends after every instruction before the problem and
/// [`Stream::error`] holds it. Invalid words are yielded as [`Kind::Invalid`].
#[derive(Clone, Debug)]
pub struct Stream<'a> {
    bytes: &'a [u8],
    arch: Arch,
    /// Byte offset of the next instruction.
    pos: usize,
    error: Option<DecodeError>,
}

/// Dwords handed to [`decode_one`] at a time: more than the longest
/// instruction (gfx10 NSA MIMG: 5 dwords), so no instruction is cut by the
/// window; a longer one would be decoded from a wider window all the same.
const WINDOW: usize = 16;

impl<'a> Stream<'a> {
    /// A stream over `bytes` for `arch`. An empty or unaligned input yields
    /// nothing and reports the error [`decode_stream`] would.
    pub fn new(bytes: &'a [u8], arch: &Arch) -> Stream<'a> {
        let rest = bytes.len() % 4;
        let error = if bytes.is_empty() {
            Some(DecodeError::Empty)
        } else if rest != 0 {
            Some(DecodeError::Unaligned {
                offset: bytes.len() - rest,
                len: bytes.len(),
                rest,
            })
        } else {
            None
        };
        Stream {
            bytes,
            arch: *arch,
            pos: if error.is_some() { bytes.len() } else { 0 },
            error,
        }
    }

    /// The problem that ended the stream early, once iteration has stopped.
    pub fn error(&self) -> Option<&DecodeError> {
        self.error.as_ref()
    }

    /// Up to `n` dwords from byte offset `pos`, little-endian.
    fn words_at(&self, pos: usize, n: usize, buf: &mut [u32]) -> usize {
        let avail = (self.bytes.len() - pos) / 4;
        let n = n.min(avail).min(buf.len());
        for (k, w) in buf[..n].iter_mut().enumerate() {
            let at = pos + 4 * k;
            *w = u32::from_le_bytes([
                self.bytes[at],
                self.bytes[at + 1],
                self.bytes[at + 2],
                self.bytes[at + 3],
            ]);
        }
        n
    }
}

impl Iterator for Stream<'_> {
    type Item = Inst;

    fn next(&mut self) -> Option<Inst> {
        if self.pos >= self.bytes.len() {
            return None;
        }
        let mut buf = [0u32; WINDOW];
        let n = self.words_at(self.pos, WINDOW, &mut buf);
        let decoded = match decode_one(&buf[..n], self.pos, &self.arch) {
            // Longer than the window (no known instruction is): decode it again
            // from the words it needs, or all that remain, so that the result
            // and a truncation's byte counts are those of the whole stream.
            Err(DecodeError::Truncated { needed, .. }) if n == WINDOW => {
                let avail = (self.bytes.len() - self.pos) / 4;
                let mut wide = vec![0u32; (needed / 4).min(avail)];
                let m = self.words_at(self.pos, wide.len(), &mut wide);
                decode_one(&wide[..m], self.pos, &self.arch)
            }
            r => r,
        };
        match decoded {
            Ok(inst) => {
                self.pos += inst.len_bytes();
                Some(inst)
            }
            Err(e) => {
                self.pos = self.bytes.len();
                self.error = Some(e);
                None
            }
        }
    }
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
        // An SDWA/DPP selector in the last dword: LLVM (reading only the 4
        // bytes left) takes the 32-bit form where the opcode ignores SRC0
        // (`v_nop`), as it does when the extension dword does not decode.
        if matches!(enc, Encoding::Vop1 | Encoding::Vop2 | Encoding::Vopc) && words.len() == 1 {
            if let Some(Ok((v, 1))) = vop::decode(enc, words, arch) {
                return Ok(Inst {
                    offset,
                    words: words.to_vec(),
                    encoding: enc,
                    kind: Kind::Vop(v),
                });
            }
        }
        return Err(DecodeError::Truncated {
            offset,
            encoding: enc,
            needed: len * 4,
            available: words.len() * 4,
        });
    }
    let mut body = &words[..len];
    let decoded: Result<Kind, String> = match enc {
        Encoding::Mimg => mimg::decode(body, arch).map(|m| Kind::Mimg(Box::new(m))),
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The stream decodes lazily: the first instruction of a long stream that
    /// ends in a cut instruction comes before the cut is seen, and the cut is
    /// reported once the iteration reaches it (what lets the listing stream).
    #[test]
    fn the_stream_is_lazy() {
        let arch = Arch::default_arch();
        // s_nop 0 many times, then the first dword of an 8-byte MIMG.
        let mut bytes: Vec<u8> = std::iter::repeat_n(0xbf80_0000u32.to_le_bytes(), 1 << 16)
            .flatten()
            .collect();
        bytes.extend_from_slice(&0xf000_1300u32.to_le_bytes());
        let mut s = Stream::new(&bytes, &arch);
        assert_eq!(s.next().map(|i| i.offset), Some(0));
        assert!(s.error().is_none(), "decoded ahead");
        assert_eq!(s.by_ref().count(), (1 << 16) - 1);
        assert!(
            matches!(s.error(), Some(DecodeError::Truncated { offset, .. }) if *offset == 4 << 16)
        );
    }

    /// The stream yields what a whole-buffer decode of the same words does,
    /// for every generation, on words of every class (random, truncated or not).
    #[test]
    fn the_stream_is_decode_one_over_the_whole_buffer() {
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for name in [
            "gfx6", "gfx7", "gfx8", "gfx9", "gfx1010", "gfx1030", "gfx1100",
        ] {
            let arch = Arch::parse(name).unwrap();
            for _ in 0..200 {
                let n = 1 + (x % 24) as usize;
                let words: Vec<u32> = (0..n)
                    .map(|_| {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        x as u32
                    })
                    .collect();
                let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
                let mut want = Vec::new();
                let mut cut = None;
                let mut i = 0;
                while i < words.len() {
                    match decode_one(&words[i..], i * 4, &arch) {
                        Ok(inst) => {
                            i += inst.words.len();
                            want.push(inst);
                        }
                        Err(e) => {
                            cut = Some(e);
                            break;
                        }
                    }
                }
                let mut s = Stream::new(&bytes, &arch);
                let got: Vec<Inst> = s.by_ref().collect();
                assert_eq!(got, want, "{name} {words:08x?}");
                assert_eq!(s.error(), cut.as_ref(), "{name} {words:08x?}");
            }
        }
    }
}
