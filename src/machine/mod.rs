//! The machine state both back ends share: a wave's registers and LDS
//! ([`WaveState`]) and the launch's memory ([`Memory`]). The CPU interpreter
//! updates it in place; the GPU runtime uploads it, runs, and reads it back into
//! the same types, which is what lets `diff` compare the two.
//!
//! Errors: [`AllocError`] (the machine cannot give the memory a state needs)
//! and [`LdsError`] (an M0 that addresses LDS in a way gcnrun refuses).

pub mod access;
pub mod buffer;
pub mod lds;
pub mod memory;
pub mod state;

pub use access::MemAccess;
pub use lds::LdsError;
pub use memory::{AllocError, Memory};
pub use state::WaveState;
