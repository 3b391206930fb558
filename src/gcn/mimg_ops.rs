//! MIMG opcode tables per generation (data).
//!
//! STUB: to be completed.
