//! Why a launch cannot be prepared or run: [`LaunchError`], which wraps the
//! error of the layer that refused (reading a file, the manifest, decoding,
//! lowering, a back end) with the file or option it names. Its `Display` is the
//! one line `gcn-run` prints; the command line adds nothing but `gcn-run: `.

use super::manifest::ManifestError;
use crate::cpu::{ExecError, ExecErrorKind};
use crate::gcn::lower::LowerBytesError;
use crate::gpu::translate::TranslateError;
use crate::input::InputError;
use crate::machine::AllocError;
use crate::visa::{LoadError, VisaError};

/// Why a launch cannot be prepared or run.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum LaunchError {
    /// An input file (the manifest, AMD code, inline hex) cannot be read.
    #[error(transparent)]
    Input(#[from] InputError),
    /// A vISA program file cannot be read or parsed.
    #[error(transparent)]
    Visa(#[from] LoadError),
    /// A field of the manifest `name` (a path, or the name an in-memory
    /// manifest was given) is refused.
    #[error("{name}: {source}")]
    Manifest {
        /// The manifest.
        name: String,
        /// The field and what is wrong with it.
        source: Box<ManifestError>,
    },
    /// `--arch` names no generation or processor.
    #[error("--arch: unknown arch `{arch}`")]
    UnknownArch {
        /// The name given.
        arch: String,
    },
    /// `--waves` outside what a launch holds.
    #[error("--waves: {waves} is outside 1..={max}")]
    Waves {
        /// The count given.
        waves: u32,
        /// The most a launch holds.
        max: u32,
    },
    /// `--arch` or `--waves` with an Intel launch.
    #[error("{name}: --arch and --waves do not apply to an Intel launch (set `threads`)")]
    IntelOptions {
        /// The manifest.
        name: String,
    },
    /// An Intel manifest given for AMD code.
    #[error(
        "{name}: an Intel launch manifest runs a vISA program (.visaasm or .isa), not AMD code"
    )]
    IntelManifest {
        /// The manifest.
        name: String,
    },
    /// An in-memory manifest whose code is a file.
    #[error("{name}: code `{code}`: an in-memory manifest needs inline `hex` code")]
    InlineCode {
        /// The manifest's name.
        name: String,
        /// The file its `code` names.
        code: String,
    },
    /// The manifest's TOML cannot be written back (an Intel manifest is
    /// re-read without its Intel sections).
    #[error("{name}: {message}")]
    Toml {
        /// The manifest.
        name: String,
        /// The TOML library's words.
        message: String,
    },
    /// AMD code that cannot be decoded or lowered.
    #[error("{name}: {source}")]
    Code {
        /// The code file (or `--hex`, or the manifest's inline hex).
        name: String,
        /// Where and why.
        source: LowerBytesError,
    },
    /// A vISA program the lowering refuses.
    #[error("{name}: {source}")]
    VisaLower {
        /// The program file.
        name: String,
        /// The line and why.
        source: VisaError,
    },
    /// The CPU run stopped: an operation failed (named by its byte offset in
    /// AMD code, its source line in vISA text), or a limit of the launch.
    #[error("{}", exec_line(name, *visa, source))]
    Exec {
        /// The code file.
        name: String,
        /// The code is vISA text (offsets are source lines).
        visa: bool,
        /// What stopped it.
        source: Box<ExecError>,
    },
    /// The GPU back end refuses the program (or a module faulted while it ran).
    #[error("{}", translate_line(name, *visa, source))]
    Translate {
        /// The code file.
        name: String,
        /// The code is vISA text (offsets are source lines).
        visa: bool,
        /// Where and why.
        source: Box<TranslateError>,
    },
    /// The machine cannot give the memory for a copy of the launch's state.
    #[error("{name}: {what}: {source}")]
    Alloc {
        /// The code file.
        name: String,
        /// What the copy is for.
        what: &'static str,
        /// The refused allocation.
        source: AllocError,
    },
}

/// `message` at op offset `offset`: a byte offset in AMD code, a source line in
/// vISA text (1-based, so line 0 is the program as a whole, e.g. a GRF too
/// large for the GPU, and is not printed).
fn at(name: &str, visa: bool, offset: usize, message: &str) -> String {
    if visa && offset == 0 {
        format!("{name}: {message}")
    } else if visa {
        format!("{name}: line {offset}: {message}")
    } else {
        format!("{name}: offset {offset:#x}: {message}")
    }
}

fn exec_line(name: &str, visa: bool, e: &ExecError) -> String {
    match &e.kind {
        ExecErrorKind::Op(op) => at(name, visa, e.offset, &format!("wave {}: {op}", e.wave)),
        // The launch as a whole: no wave or offset (cpu::ExecErrorKind).
        ExecErrorKind::Budget(_) | ExecErrorKind::Interrupted => format!("{name}: {e}"),
    }
}

/// What the translator refuses, the GPU back end refuses (the CPU may run
/// it): the line says so. A refusal of the launch as a whole (the work
/// budget, the module size) names no offset.
fn translate_line(name: &str, visa: bool, e: &TranslateError) -> String {
    let message = format!("GPU backend: {}", e.kind);
    if e.whole {
        format!("{name}: {message}")
    } else {
        at(name, visa, e.offset, &message)
    }
}

impl LaunchError {
    /// A field of the manifest `name` refused.
    pub fn manifest(name: &str, source: ManifestError) -> LaunchError {
        LaunchError::Manifest {
            name: name.to_string(),
            source: Box::new(source),
        }
    }

    /// The CPU run of the code `name` stopped.
    pub fn exec(name: &str, visa: bool, source: ExecError) -> LaunchError {
        LaunchError::Exec {
            name: name.to_string(),
            visa,
            source: Box::new(source),
        }
    }

    /// The GPU back end refused the code `name`.
    pub fn translate(name: &str, visa: bool, source: TranslateError) -> LaunchError {
        LaunchError::Translate {
            name: name.to_string(),
            visa,
            source: Box::new(source),
        }
    }
}
