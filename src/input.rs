//! Reading program input: raw `.bin`, AMDGPU ELF code objects, `--hex` strings.
//!
//! STUB: to be completed.
