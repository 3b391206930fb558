//! gcnrun: a reference implementation of GPU image instructions.
//!
//! The data flows one way (see DESIGN.md): a frontend ([`gcn`]) turns bytes into
//! decoded instructions; later stages lower them into an IR that a CPU interpreter
//! and a WGSL translator both run.

pub mod arch;
pub mod bench;
pub mod check;
pub mod cpu;
pub mod diff;
pub mod gcn;
pub mod gpu;
pub mod input;
pub mod ir;
pub mod launch;
pub mod machine;
pub mod oracle;
pub mod report;
pub mod texture;
pub mod visa;

pub use arch::{Arch, Gen};
