//! What `gcn-run --disasm` prints, and the error that decides its exit code.
//!
//! [`Listing`] decodes a [`Program`] one instruction at a time and keeps going
//! when the stream has problems, so the listing always shows what was seen (as
//! llvm-objdump does); the first problem becomes one [`InputError`].
//! [`write_listing`] streams the plain-text form and [`write_json`] the
//! `--disasm --json` document of SPEC.md as instructions are decoded (memory:
//! the input, and one instruction at a time); [`disassemble`], [`listing`] and
//! [`json`] are the same in memory.

use crate::arch::Arch;
use crate::gcn::{self, DecodeError, FieldValue, Inst, Kind};
use crate::input::{InputError, Program};
use serde::Serialize;
use std::io::Write;

/// The outcome of decoding a program for display.
#[derive(Clone, Debug)]
pub struct Disassembly {
    /// Every instruction decoded, invalid words included, in stream order.
    pub insts: Vec<Inst>,
    /// The first problem, if any: an invalid instruction, or a stream that ends
    /// inside an instruction. Present means exit code 2.
    pub error: Option<InputError>,
}

/// Decodes `program` for `arch`, keeping every instruction (see [`Listing`] to
/// take them one at a time instead).
///
/// A stream that ends mid-instruction still lists every instruction before the
/// cut; invalid words are listed as `.long` entries and the first of them is
/// reported.
pub fn disassemble(program: &Program, arch: &Arch) -> Disassembly {
    let mut listing = Listing::new(program, arch);
    let insts = listing.by_ref().collect();
    Disassembly {
        insts,
        error: listing.error(),
    }
}

/// The instructions of a program, decoded one at a time as they are taken,
/// and the error that decides the exit code once they are all taken
/// ([`Listing::error`]). The `--disasm` listing and JSON document stream from
/// it, so they need no memory per instruction beyond the one being printed.
#[derive(Debug)]
pub struct Listing<'a> {
    stream: gcn::Stream<'a>,
    name: &'a str,
    arch: Arch,
    /// The first invalid word: offset, word, encoding, reason.
    first_invalid: Option<(usize, u32, gcn::Encoding, String)>,
    /// Invalid words so far.
    invalid: usize,
}

impl<'a> Listing<'a> {
    /// The listing of `program` decoded for `arch`.
    pub fn new(program: &'a Program, arch: &Arch) -> Listing<'a> {
        Listing {
            stream: gcn::Stream::new(&program.bytes, arch),
            name: &program.name,
            arch: *arch,
            first_invalid: None,
            invalid: 0,
        }
    }

    /// The first problem of the instructions taken so far (complete once the
    /// iteration has ended): the first invalid word, which comes before any
    /// truncation point, else the cut or other structural error. Present means
    /// exit code 2.
    pub fn error(&self) -> Option<InputError> {
        if let Some((offset, word, encoding, reason)) = &self.first_invalid {
            let mut message = format!(
                "invalid {encoding} instruction {word:#010x} for {} ({}): {reason}",
                self.arch, self.arch.mcpu
            );
            if self.invalid > 1 {
                message.push_str(&format!(" ({} invalid dwords in all)", self.invalid));
            }
            return Some(InputError::at(self.name, *offset, message));
        }
        self.stream.error().map(|e| InputError {
            name: self.name.to_string(),
            offset: decode_error_offset(e),
            message: strip_offset(&e.to_string()),
        })
    }
}

impl Iterator for Listing<'_> {
    type Item = Inst;

    fn next(&mut self) -> Option<Inst> {
        let inst = self.stream.next()?;
        if let Kind::Invalid { reason } = &inst.kind {
            if self.first_invalid.is_none() {
                let word = inst.words.first().copied().unwrap_or(0);
                self.first_invalid = Some((inst.offset, word, inst.encoding, reason.clone()));
            }
            self.invalid += 1;
        }
        Some(inst)
    }
}

/// A writer that keeps going after its first failure, dropping the rest: a
/// closed pipe (`gcn-run --disasm … | head`) is not worth a message, and the
/// stream is still decoded to its end, so the exit code is the same.
struct Lenient<W: Write> {
    inner: W,
    failed: bool,
}

impl<W: Write> Write for Lenient<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if !self.failed && self.inner.write_all(buf).is_err() {
            self.failed = true;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if !self.failed && self.inner.flush().is_err() {
            self.failed = true;
        }
        Ok(())
    }
}

/// Streams the plain-text listing of `program` ([`listing`]'s lines) to `out`
/// as the instructions are decoded, and returns the stream's first problem.
/// Write errors end the output, not the decoding.
pub fn write_listing(program: &Program, arch: &Arch, out: impl Write) -> Option<InputError> {
    let mut out = Lenient {
        inner: out,
        failed: false,
    };
    let mut insts = Listing::new(program, arch);
    for inst in insts.by_ref() {
        let _ = out.write_all(listing_line(&inst).as_bytes());
    }
    let _ = out.flush();
    insts.error()
}

/// Streams the `--disasm --json` document of `program` ([`json`]'s text, byte
/// for byte) to `out` as the instructions are decoded, and returns the
/// stream's first problem. Write errors end the output, not the decoding.
pub fn write_json(program: &Program, arch: &Arch, out: impl Write) -> Option<InputError> {
    let mut out = Lenient {
        inner: out,
        failed: false,
    };
    let mut insts = Listing::new(program, arch);
    let mut ser = serde_json::Serializer::pretty(&mut out);
    // The writer never fails and the values are plain strings, integers and
    // maps, so serialising cannot fail.
    let _ = serde::Serializer::collect_seq(&mut ser, insts.by_ref().map(|i| JsonInst::new(&i)));
    let _ = out.flush();
    insts.error()
}

/// The byte offset a decode error names, if any.
fn decode_error_offset(e: &DecodeError) -> Option<usize> {
    match e {
        DecodeError::Truncated { offset, .. } | DecodeError::Unaligned { offset, .. } => {
            Some(*offset)
        }
        _ => None,
    }
}

/// Drops a leading `offset 0x..: ` from a decoder message: the error line prints
/// the offset itself.
fn strip_offset(message: &str) -> String {
    match message.strip_prefix("offset ") {
        Some(rest) => match rest.split_once(": ") {
            Some((num, tail)) if num.starts_with("0x") => tail.to_string(),
            _ => message.to_string(),
        },
        None => message.to_string(),
    }
}

/// Column at which the `//` comment of a listing line starts, so that the
/// instructions read as a column (llvm-objdump pads the same way).
const TEXT_COLUMN: usize = 56;

/// The plain-text listing: one line per instruction, LLVM assembler syntax, then
/// a `//` comment with the byte offset and the instruction dwords in the form
/// llvm-objdump prints (`// 00000000000C: F0800F00 00610101`). llvm-mc accepts
/// `//` (and `;`) comments for amdgcn (verified with llvm-mc-19), so the output
/// reassembles as is.
///
/// Instructions outside gcnrun's scope (neither image, interpolation nor program
/// control) are decoded to their class, length and name only; their text is
/// their `.long` words, which reassemble exactly, and the comment ends with the
/// name in angle brackets (`<v_and_b32_e32>`) so the listing stays readable.
pub fn listing(insts: &[Inst]) -> String {
    insts.iter().map(listing_line).collect()
}

/// One line of the listing, newline included.
fn listing_line(inst: &Inst) -> String {
    let words: Vec<String> = inst.words.iter().map(|w| format!("{w:08X}")).collect();
    let text = inst.text();
    let name = match (&inst.kind, inst.mnemonic()) {
        (Kind::Other(_), Some(name)) if text.starts_with(".long") => format!(" <{name}>"),
        _ => String::new(),
    };
    format!(
        "{text:<width$} // {:012X}: {}{name}\n",
        inst.offset,
        words.join(" "),
        width = TEXT_COLUMN
    )
}

/// One instruction of the `--disasm --json` document (SPEC.md).
#[derive(Clone, Debug, Serialize)]
pub struct JsonInst {
    /// Byte offset in the code.
    pub offset: usize,
    /// The instruction's bytes in memory order, lower-case hex.
    pub hex: String,
    /// LLVM assembler syntax (`.long 0x…` for an invalid word).
    pub text: String,
    /// The mnemonic; `null` when the instruction is invalid or unnamed.
    pub mnemonic: Option<String>,
    /// The encoding class (`MIMG`, `VINTRP`, `SOPP`, …).
    pub encoding: &'static str,
    /// Every field of the encoding by ISA name, as raw integers (lists for NSA).
    /// Absent for invalid words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fields: Option<serde_json::Map<String, serde_json::Value>>,
    /// `true` for words that are not a valid instruction of the arch.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub invalid: bool,
    /// Why the words are invalid.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

impl JsonInst {
    /// The JSON form of one decoded instruction.
    pub fn new(inst: &Inst) -> JsonInst {
        let (fields, reason) = match &inst.kind {
            Kind::Invalid { reason } => (None, Some(reason.clone())),
            _ => {
                let map = inst
                    .fields()
                    .into_iter()
                    .map(|f| (f.name.to_string(), field_json(&f.value)))
                    .collect();
                (Some(map), None)
            }
        };
        JsonInst {
            offset: inst.offset,
            hex: inst.hex(),
            text: inst.text(),
            mnemonic: inst.mnemonic().map(str::to_string),
            encoding: inst.encoding.name(),
            fields,
            invalid: inst.is_invalid(),
            reason,
        }
    }
}

fn field_json(value: &FieldValue) -> serde_json::Value {
    match value {
        FieldValue::Int(v) => serde_json::Value::from(*v),
        FieldValue::List(l) => serde_json::Value::from(l.clone()),
    }
}

/// The `--disasm --json` document: one array, one object per instruction.
pub fn json(insts: &[Inst]) -> String {
    let doc: Vec<JsonInst> = insts.iter().map(JsonInst::new).collect();
    // Serialising plain strings, integers and maps cannot fail.
    serde_json::to_string_pretty(&doc).unwrap_or_else(|_| "[]".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strip_offset_only_strips_an_offset() {
        assert_eq!(strip_offset("offset 0x8: truncated"), "truncated");
        assert_eq!(strip_offset("empty code"), "empty code");
        assert_eq!(strip_offset("offset x: y"), "offset x: y");
    }
}
