//! The GPU backend: the translator from `ir::Program` to WGSL
//! ([`translate`]), the WGSL library ([`wgsl`], `shaders/`), the wgpu runtime
//! ([`device`], [`runtime`]). The comparison with the CPU reference is
//! `crate::diff`. Design and policies: docs/gpu.md.

pub mod runtime;
pub mod translate;
pub mod wgsl;

pub use runtime::device::{self, Gpu};

/// Why a GPU run could not happen.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GpuError {
    /// No adapter (or none with the requested name): exit code 3.
    #[error("{0}")]
    NoAdapter(String),
    /// The device failed or refused something: exit code 3.
    #[error("{0}")]
    Device(String),
    /// The program uses something the translator does not support: exit code 2.
    #[error("{0}")]
    Translate(translate::TranslateError),
    /// Generated WGSL that naga or the driver rejected: a gcnrun bug.
    #[error("{0}")]
    ShaderBug(String),
}

/// A translator bug: the WGSL is written next to the temporary files so that it
/// can be attached to a report, and the message says where.
pub(crate) fn shader_bug(source: &str, error: &str) -> GpuError {
    use sha2::Digest;
    let digest: String = sha2::Sha256::digest(source.as_bytes())
        .iter()
        .take(6)
        .map(|b| format!("{b:02x}"))
        .collect();
    let path = std::env::temp_dir().join(format!("gcnrun-bug-{digest}.wgsl"));
    let saved = std::fs::write(&path, source).is_ok();
    let first = error
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or(error);
    GpuError::ShaderBug(format!(
        "bug in gcnrun's WGSL translator (please report it{}): {first}",
        if saved {
            format!(" with {}", path.display())
        } else {
            String::new()
        }
    ))
}
