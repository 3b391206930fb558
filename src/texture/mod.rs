//! The texture model shared by everything that touches an image: number
//! conversions ([`convert`]); descriptors, data-format layouts and sampling
//! follow (DESIGN.md). Each rule is written once here, with its source, and the
//! WGSL library in `shaders/` will mirror these functions by name.

pub mod convert;
pub mod descriptor;
pub mod format;
pub mod layout;
