//! Intel vISA frontend: the `.visaasm` text Intel's compiler (IGC) dumps.
//!
//! [`parse()`] reads one kernel into a [`Program`]: its declarations, inputs and
//! attributes, and a body of instructions — the 3D sampler family (3D_SAMPLE,
//! 3D_LOAD, 3D_GATHER4, 3D_INFO) and the setup instructions real dumps use
//! around them (`mov movs setp cmp add mul sel or shl ret`). Other real vISA
//! instructions are kept verbatim as [`Inst::Unsupported`] so a dump can be
//! listed, and [`Program::check_supported`] refuses them by name and line;
//! words that are not vISA at all are parse errors. [`print::program`] writes
//! the canonical spelling back. docs/visa.md describes the accepted grammar,
//! the two dialects and how one is chosen. [`binary`] reads binary vISA
//! objects (`.isa`, magic `CISA`) into the same [`Program`].

pub mod binary;
pub mod decl;
pub mod inst;
pub mod lexer;
pub mod lower;
pub mod parse;
pub mod print;
pub mod tables;

pub use decl::{AttrValue, Decl, Input, KernelAttr, VarKind};
pub use inst::{BranchKind, Exec, Inst, Modifier, Operand, Pred, PredCtrl, Raw, Region, Sampler};
pub use parse::parse;

use crate::input::{FileKind, InputError, MAX_TEXT_BYTES};
use std::io::Read;
use std::path::Path;

/// The two spellings of the sampler instructions that both say `.version 4.1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// IGC of 2022 (1.0.12504 and the last binary writer): no paired surface.
    V41_2022,
    /// Current IGC: a paired-surface raw operand (usually `%null.0`) follows
    /// the destination of 3D_SAMPLE / 3D_LOAD / 3D_GATHER4.
    Current,
}

impl Dialect {
    /// The name used on the command line and in docs.
    pub fn name(self) -> &'static str {
        match self {
            Dialect::V41_2022 => "v41-2022",
            Dialect::Current => "current",
        }
    }
}

/// How [`parse()`] picks the dialect.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DialectChoice {
    /// Detect it from the text (docs/visa.md, "Dialects").
    Auto,
    /// Use this one.
    Force(Dialect),
}

/// A `.visaasm` program refused: the 1-based line (0: the program as a
/// whole) and what is wrong there.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {kind}")]
pub struct VisaError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub kind: VisaErrorKind,
}

impl VisaError {
    /// The error at `line`.
    pub fn new(line: usize, kind: impl Into<VisaErrorKind>) -> VisaError {
        VisaError {
            line,
            kind: kind.into(),
        }
    }
}

/// What is wrong with a line of a `.visaasm` program, by the stage that
/// refuses it: the lexer, the parser, the supported subset, the register
/// layout, the lowering.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VisaErrorKind {
    /// A character the lexer does not take.
    #[error(transparent)]
    Lex(#[from] lexer::LexError),
    /// Text that is not vISA as docs/visa.md describes it, in the parser's
    /// words.
    #[error("{0}")]
    Syntax(String),
    /// A real vISA instruction outside the supported subset.
    #[error("`{mnemonic}` is not supported (see docs/visa.md)")]
    Unsupported {
        /// Its mnemonic.
        mnemonic: String,
    },
    /// A sampler sub-op whose parameter layout is not documented.
    #[error("`{op}` is not supported: its parameter layout is not documented")]
    UndocumentedParams {
        /// The sub-op.
        op: &'static str,
    },
    /// Variables that do not fit the GRF as gcnrun lays it out.
    #[error(transparent)]
    Layout(#[from] lower::layout::LayoutError),
    /// What the lowering to `ir` does not model, in its words.
    #[error("{0}")]
    Lower(String),
}

/// Why a vISA program file cannot be read: the file itself, or its text or
/// binary contents (each naming the file).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LoadError {
    /// The file cannot be read, or is not vISA at all.
    #[error(transparent)]
    Input(#[from] InputError),
    /// `.visaasm` text that does not parse.
    #[error("{name}: {source}")]
    Text {
        /// The file, as given.
        name: String,
        /// Line and reason.
        source: VisaError,
    },
    /// A binary object that does not decode.
    #[error("{name}: {source}")]
    Binary {
        /// The file, as given.
        name: String,
        /// Offset and reason.
        source: binary::BinError,
    },
}

/// `.version major.minor`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Version {
    /// Major version.
    pub major: u8,
    /// Minor version.
    pub minor: u8,
}

/// A body statement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Item {
    /// `.function "name"`.
    Function(String),
    /// `name:`.
    Label(String),
    /// An instruction.
    Inst(Inst),
}

/// A body statement and the line it was read from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stmt {
    /// 1-based source line (for error messages; not part of the program's meaning).
    pub line: usize,
    /// The statement.
    pub item: Item,
}

/// One parsed vISA kernel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    /// `.version`.
    pub version: Version,
    /// `.kernel "name"`.
    pub kernel: String,
    /// The dialect the sampler instructions were read in (and are printed in).
    pub dialect: Dialect,
    /// `.decl`s in source order.
    pub decls: Vec<Decl>,
    /// `.input`s in source order.
    pub inputs: Vec<Input>,
    /// `.kernel_attr`s in source order.
    pub attrs: Vec<KernelAttr>,
    /// Labels, `.function` markers and instructions in source order.
    pub body: Vec<Stmt>,
}

impl Program {
    /// The body without line numbers: what two programs must share to be the
    /// same program (a print/parse round trip changes the lines).
    pub fn items(&self) -> Vec<&Item> {
        self.body.iter().map(|s| &s.item).collect()
    }

    /// Refuses the first instruction outside the supported subset, or a sampler
    /// sub-op whose parameter layout the documentation does not give, by name
    /// and line. Anything that executes a program calls this first, so no such
    /// instruction is ever guessed at.
    pub fn check_supported(&self) -> Result<(), VisaError> {
        for s in &self.body {
            match &s.item {
                Item::Inst(Inst::Unsupported { mnemonic, .. }) => {
                    return Err(VisaError::new(
                        s.line,
                        VisaErrorKind::Unsupported {
                            mnemonic: mnemonic.clone(),
                        },
                    ))
                }
                Item::Inst(Inst::Sampler(smp)) if smp.op.params.is_none() => {
                    return Err(VisaError::new(
                        s.line,
                        VisaErrorKind::UndocumentedParams { op: smp.op.name },
                    ))
                }
                _ => {}
            }
        }
        Ok(())
    }
}

/// Whether a path names vISA text (`.visaasm`, `.isaasm`), by extension.
pub fn is_visa_text_path(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("visaasm") || e.eq_ignore_ascii_case("isaasm"))
}

/// Whether a path names a vISA program: `.visaasm`/`.isaasm` text, a `.isa`
/// binary, or any file that starts with the binary magic `CISA` (so a binary
/// object is recognised by content, whatever its name).
pub fn is_visa_input(path: &Path) -> bool {
    if is_visa_text_path(path) || is_visa_binary_path(path) {
        return true;
    }
    // Only a regular file is peeked at: opening a FIFO could block, and
    // whatever is refused here is refused with its reason by the loader next.
    let mut magic = [0u8; 4];
    crate::input::open_regular(path, FileKind::CODE)
        .is_ok_and(|(mut f, _)| f.read_exact(&mut magic).is_ok() && binary::is_binary(&magic))
}

/// Whether a path is named like a binary vISA object (`.isa`).
fn is_visa_binary_path(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("isa"))
}

/// Reads a vISA program: a binary object when the file starts with `CISA`
/// (docs/visa.md, "Binary objects"), `.visaasm` text otherwise. Errors are one
/// line naming the file and the byte offset (binary, or bad UTF-8) or line.
pub fn load_file(path: &Path, dialect: DialectChoice) -> Result<Program, LoadError> {
    let name = path.display().to_string();
    // Text is capped lower than binary objects (crate::input::MAX_TEXT_BYTES):
    // by name when the file says it is text, by content otherwise.
    let kind = if is_visa_text_path(path) {
        FileKind::VISA_TEXT
    } else {
        FileKind::CODE
    };
    let bytes = crate::input::read_regular(path, kind)?;
    if !binary::is_binary(&bytes) && bytes.len() as u64 > MAX_TEXT_BYTES {
        return Err(InputError::at(
            &name,
            usize::try_from(MAX_TEXT_BYTES).unwrap_or(usize::MAX),
            format!(
                "larger than the {} MiB gcn-run reads for a {}",
                MAX_TEXT_BYTES >> 20,
                FileKind::VISA_TEXT.what
            ),
        )
        .into());
    }
    if binary::is_binary(&bytes) {
        return binary::read(&bytes, dialect).map_err(|source| LoadError::Binary { name, source });
    }
    if is_visa_binary_path(path) {
        return Err(InputError::at(
            &name,
            0,
            "named like a binary vISA object but does not start with the magic `CISA`",
        )
        .into());
    }
    let text = std::str::from_utf8(&bytes)
        .map_err(|e| InputError::at(&name, e.valid_up_to(), "vISA text is not valid UTF-8"))?;
    parse(text, dialect).map_err(|source| LoadError::Text { name, source })
}
