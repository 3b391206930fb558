//! The binary vISA object reader (`.isa`, magic `CISA`), versions 3.4–4.1.
//!
//! A binary object holds a file header, then one kernel object: a string
//! pool, the variable / address / predicate / label / sampler / surface
//! tables, the inputs, the kernel attributes and an instruction stream. This
//! module reads all of it into the same [`Program`] the `.visaasm` frontend
//! produces, naming variables the way IGC's disassembler does (general
//! variables by their string-pool name, `P<n>`, `S<n>`, `T<n>` by id). The
//! layout and its version gates are the project's research notes on IGC's
//! `ByteCodeReaderNG.cpp` (`shared/research/visa.md` §1–§2), listed in
//! docs/visa.md.
//!
//! Every read is bounds-checked and every count is checked against the bytes
//! left before anything is allocated for it; an error is one line naming the
//! byte offset of the bad field. The structural rules (declared names,
//! operand bounds, parameter counts) are the text frontend's: the decoded
//! program is printed and read back by [`super::parse()`], and an error there is
//! reported at the offset of the table entry or instruction it came from, so
//! each rule exists once.

mod attrs;
mod cursor;
mod header;
mod opcodes;
mod sampler;
mod stream;
mod symbols;

use super::{print, Dialect, DialectChoice, Program, Version};
use cursor::{Cur, Res};

/// The file magic, "CISA" (`0x41534943` little-endian).
pub const MAGIC: &[u8; 4] = b"CISA";

/// The oldest version read: ids are 32-bit from 3.4 on, and the 3D sampler's
/// texel-offset operand became a vector operand there.
const MIN_VERSION: (u8, u8) = (3, 4);
/// The newest version read: 4.1 is the last version IGC wrote binaries for
/// (the writer was removed in 2023); IGC's own reader refuses 4.2 binaries.
const MAX_VERSION: (u8, u8) = (4, 1);

/// A binary decoding error: the byte offset of the bad field, and what is
/// wrong (the decoder's words: a field's refusal has no structure above its
/// offset worth a type of its own).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("offset {offset:#x}: {message}")]
pub struct BinError {
    /// Byte offset from the start of the file.
    pub offset: usize,
    /// What is wrong.
    pub message: String,
}

/// Whether `bytes` start with the binary vISA magic.
pub fn is_binary(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

/// The header, tables and instruction-stream extent of a binary object,
/// without the instructions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tables {
    /// The program with declarations, inputs and attributes; an empty body.
    pub program: Program,
    /// File offset of the first instruction.
    pub stream_start: usize,
    /// File offset one past the last instruction byte.
    pub stream_end: usize,
    /// File offset of the kernel object's instruction-stream size field (u32).
    pub stream_size_at: usize,
    /// The label table in id order (labels are statements, not declarations,
    /// in a [`Program`]).
    pub labels: Vec<String>,
}

/// Reads the header and tables only (no instructions). Useful for objects
/// whose instruction stream is damaged, such as everything the 2022 IGC
/// writer produced (docs/visa.md).
pub fn read_tables(bytes: &[u8]) -> Result<Tables, BinError> {
    Ok(decode_tables(bytes)?.0)
}

/// Reads a whole binary object. `dialect` says whether sampler instructions
/// carry a paired-surface operand after the destination; `Auto` means no, as
/// in every object a real IGC wrote (the field exists only in IGC's reader
/// since 2024).
pub fn read(bytes: &[u8], dialect: DialectChoice) -> Result<Program, BinError> {
    let (t, syms) = decode_tables(bytes)?;
    let dialect = match dialect {
        DialectChoice::Force(d) => d,
        DialectChoice::Auto => Dialect::V41_2022,
    };
    let mut program = t.program;
    program.dialect = dialect;
    let mut cur = Cur::range(bytes, t.stream_start, t.stream_end);
    let offsets = stream::decode(&mut cur, &syms, program.version, dialect, &mut program)?;
    check_by_reparse(&program, &syms.table_offsets, &offsets)?;
    Ok(program)
}

/// The header and kernel tables, and the id → name tables the instruction
/// stream needs.
fn decode_tables(bytes: &[u8]) -> Res<(Tables, symbols::Symbols)> {
    let mut c = Cur::new(bytes);
    if !is_binary(bytes) {
        return Err(Cur::err_at(
            0,
            "not a binary vISA object: it does not start with the magic `CISA`",
        ));
    }
    c.pos = MAGIC.len();
    let major = c.u8("major version")?;
    let minor = c.u8("minor version")?;
    if (major, minor) < MIN_VERSION || (major, minor) > MAX_VERSION {
        return Err(Cur::err_at(
            4,
            format!(
                "vISA binary version {major}.{minor} is not read (3.4–4.1: older ones use 16-bit ids, 4.2 and later have no defined binary form)"
            ),
        ));
    }
    let version = Version { major, minor };
    let header = header::header(&mut c, version)?;
    let (program, syms, stream) = symbols::kernel(bytes, &header, version)?;
    Ok((
        Tables {
            program,
            stream_start: stream.start,
            stream_end: stream.end,
            stream_size_at: stream.size_at,
            labels: syms.label_names(),
        },
        syms,
    ))
}

/// Runs the text frontend's checks on the decoded program by printing it and
/// parsing it back; an error is moved from its listing line to the offset
/// the line was decoded from. `tables` holds the offsets of the `.kernel`,
/// `.decl`, `.input` and `.kernel_attr` lines in print order, `body` those of
/// the body lines.
fn check_by_reparse(p: &Program, tables: &[usize], body: &[usize]) -> Res<()> {
    let text = print::program(p);
    match super::parse(&text, DialectChoice::Force(p.dialect)) {
        Ok(_) => Ok(()),
        Err(e) => {
            // Line 1 is `.version` (offset 4), then the table lines, then the body.
            let at = match e.line {
                0 | 1 => 4,
                l => tables.iter().chain(body).nth(l - 2).copied().unwrap_or(0),
            };
            Err(Cur::err_at(at, e.kind.to_string()))
        }
    }
}
