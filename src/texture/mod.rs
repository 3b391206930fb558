//! The texture model shared by everything that touches an image: number
//! conversions ([`convert`]), data and number formats ([`format`](mod@format)), DST_SEL
//! ([`swizzle`]), T#/S# descriptors ([`descriptor`]) and the linear layout
//! ([`layout`]), the BVH T# and node tests ([`bvh`]); sampling follows (DESIGN.md). Each rule is written once here,
//! with its source, and the WGSL library in `shaders/` will mirror these
//! functions by name. docs/errata.md ("Texture model") lists the choices made where
//! public sources disagree or are silent.
//!
//! Errors ([`error`]): [`FormatError`], [`DescriptorError`] and, for what an
//! image operation refuses about its resource, [`TextureError`].

pub mod atomic;
pub mod bcn;
pub mod bvh;
pub mod convert;
pub mod data;
pub mod descriptor;
pub mod error;
pub mod format;
pub mod layout;
pub mod resource;
pub mod sample;
pub mod swizzle;
pub mod typed;
pub mod vaddr;

pub use error::{DescriptorError, FormatError, TextureError};
