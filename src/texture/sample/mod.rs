//! The sampler pipeline (docs/semantics/sampling.md): one pure function per
//! stage, on plain integers and f32, in the order the texture unit applies them
//! (research/sampling.md §5.2):
//!
//! 1. [`coord`]: normalized or unnormalized coordinate → fixed-point texel
//!    coordinate with [`coord::SUBTEXEL_BITS`] fractional bits; texel offsets.
//! 2. [`lod`]: LOD from derivatives (fixed point, [`lod::LOD_FRAC_BITS`]
//!    fractional bits), bias, clamps, mag/min choice, mip-level selection.
//! 3. [`address`]: the eight SQ_TEX_CLAMP modes on integer texel indices, and the
//!    border colours.
//! 4. [`cube`]: seamless cube-map edges and corners; [`cube_direction`]: a
//!    direction vector (Intel's cube coordinates) → face and face coordinates.
//! 5. [`filter`]: point / linear taps per axis with integer weights, the blend of
//!    the taps and of two mip levels, min/max reduction, anisotropic sample
//!    positions.
//! 6. [`compare`]: the depth compare applied to each texel before filtering.
//!
//! Each stage is written so that a WGSL function can mirror it bit for bit:
//! integer arithmetic where the hardware is fixed point, f32 operations in a
//! stated order with every intermediate rounded (no fused multiply-add), no f64
//! and no transcendental function (the LOD's log2 is a table lookup). The
//! interpreter glue that reads registers and memory is `crate::cpu::sample`.

pub mod address;
pub mod compare;
pub mod coord;
pub mod cube;
pub mod cube_direction;
pub mod filter;
pub mod lod;
pub mod status;
pub mod vaddr;
