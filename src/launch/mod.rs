//! Launches: the TOML manifest of SPEC.md, validated into a [`Launch`] that the
//! interpreter (and later the GPU backend) builds its initial state from.
//!
//! - [`manifest`]: parsing and validation, one-line errors that name the field;
//! - [`expr`]: per-lane expressions (`lane`, `wave`, `quad`, `wave_size`);
//! - [`regs`]: register names (`s[4:11]`, `v0`, `m0`, `exec`);
//! - [`buffer`]: `[[buffer]]` memory ranges (Intel bindings, AMD BVHs);
//! - [`names`]: manifest spellings of hardware enumerations (formats, address modes, …).
//!
//! Errors: [`LaunchError`] for a launch as a whole (it names the file or
//! option, and wraps what the layer below refused); [`ManifestError`] for a
//! manifest field, with its [`Problem`]; the leaves [`expr::ExprError`],
//! [`regs::RegError`], [`names::UnknownName`], [`png::PngError`] and
//! [`visa::DumpError`].

pub mod buffer;
pub mod build;
pub mod default_env;
pub mod draw;
mod error;
pub mod expr;
pub mod hsa;
pub mod manifest;
pub mod names;
pub mod png;
pub mod regs;
pub mod run;
pub mod visa;

pub use error::LaunchError;
pub use manifest::{parse, Caps, Launch, ManifestError, Problem};
