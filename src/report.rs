//! What `gcn-run --disasm` prints, and the error that decides its exit code.
//!
//! [`disassemble`] decodes a [`Program`] and keeps everything it could decode even
//! when the stream has problems, so the listing always shows what was seen (as
//! llvm-objdump does); the first problem becomes one [`InputError`].
//! [`listing`] is the plain-text form, [`json`] the `--disasm --json` document of
//! SPEC.md.

use crate::arch::Arch;
use crate::gcn::{self, DecodeError, FieldValue, Inst, Kind};
use crate::input::{InputError, Program};
use serde::Serialize;

/// The outcome of decoding a program for display.
#[derive(Clone, Debug)]
pub struct Disassembly {
    /// Every instruction decoded, invalid words included, in stream order.
    pub insts: Vec<Inst>,
    /// The first problem, if any: an invalid instruction, or a stream that ends
    /// inside an instruction. Present means exit code 2.
    pub error: Option<InputError>,
}

/// Decodes `program` for `arch`.
///
/// A stream that ends mid-instruction still lists every instruction before the
/// cut (the prefix is decoded again on its own); invalid words are listed as
/// `.long` entries and the first of them is reported.
pub fn disassemble(program: &Program, arch: &Arch) -> Disassembly {
    let (insts, cut) = match gcn::decode_stream(&program.bytes, arch) {
        Ok(insts) => (insts, None),
        Err(e) => {
            let offset = decode_error_offset(&e);
            let prefix = match &e {
                DecodeError::Truncated { offset, .. } => program
                    .bytes
                    .get(..*offset)
                    .filter(|p| !p.is_empty())
                    .and_then(|p| gcn::decode_stream(p, arch).ok())
                    .unwrap_or_default(),
                _ => Vec::new(),
            };
            let message = strip_offset(&e.to_string());
            let error = InputError {
                name: program.name.clone(),
                offset,
                message,
            };
            (prefix, Some(error))
        }
    };
    let invalid: Vec<&Inst> = insts.iter().filter(|i| i.is_invalid()).collect();
    let error = match invalid.first() {
        // An invalid word comes before any truncation point: report it first.
        Some(first) => {
            let reason = match &first.kind {
                Kind::Invalid { reason } => reason.as_str(),
                _ => "",
            };
            let word = first.words.first().copied().unwrap_or(0);
            let mut message = format!(
                "invalid {} instruction {word:#010x} for {} ({}): {reason}",
                first.encoding, arch, arch.mcpu
            );
            if invalid.len() > 1 {
                message.push_str(&format!(" ({} invalid dwords in all)", invalid.len()));
            }
            Some(InputError::at(&program.name, first.offset, message))
        }
        None => cut,
    };
    Disassembly { insts, error }
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
    let mut out = String::new();
    for inst in insts {
        let words: Vec<String> = inst.words.iter().map(|w| format!("{w:08X}")).collect();
        let text = inst.text();
        let name = match (&inst.kind, inst.mnemonic()) {
            (Kind::Other(_), Some(name)) if text.starts_with(".long") => format!(" <{name}>"),
            _ => String::new(),
        };
        out.push_str(&format!(
            "{text:<width$} // {:012X}: {}{name}\n",
            inst.offset,
            words.join(" "),
            width = TEXT_COLUMN
        ));
    }
    out
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
