//! gcnrun: a reference implementation of GPU image instructions.
//!
//! The data flows one way (see DESIGN.md): front ends ([`gcn`], [`visa`]) turn
//! bytes into decoded instructions and lower them into one IR ([`ir`]) that the
//! CPU interpreter ([`cpu`]) and the WGSL translator ([`gpu`]) both run; [`diff`]
//! compares the two (docs/architecture.md).

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
