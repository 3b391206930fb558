//! The texture model's errors, each naming what its message names:
//!
//! - [`FormatError`]: a data/number format pair without a meaning, a BCn block
//!   too short;
//! - [`DescriptorError`]: a T#, S# or BVH T# field that cannot be decoded
//!   (unsupported, reserved, inconsistent) or encoded (does not fit);
//! - [`TextureError`]: what an image operation refuses about the resource it
//!   names — a descriptor read from SGPRs, a surface outside memory or tiled,
//!   an address form, the things gcnrun does not model.
//!
//! Both back ends raise these; they wrap them with the operation's wave and
//! offset (`cpu::ExecError`, `gpu::translate::TranslateError`).

use super::format::NumFormat;
use crate::arch::Gen;
use crate::ir::image::{ImageType, ShortAddress};

/// A data/number format pair the texture model has no meaning for.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FormatError {
    /// The number format is not defined for the data format
    /// ([`super::format::check`]).
    #[error("number format {num:?} is not defined for data format {data}")]
    Undefined {
        /// The data format's name (`8_8_8_8`).
        data: &'static str,
        /// The number format.
        num: NumFormat,
    },
    /// A BCn operation on a data format that is not block-compressed.
    #[error("data format {code} is not block-compressed")]
    NotBlock {
        /// The data format code.
        code: u8,
    },
    /// A BCn format with a number format it has no meaning for.
    #[error("{format} with number format {num:?} ({} only)", names(allowed))]
    BlockNumFormat {
        /// The BCn format's name (`bc1`).
        format: &'static str,
        /// The number format.
        num: NumFormat,
        /// The number formats it takes.
        allowed: &'static [NumFormat],
    },
    /// A BCn block shorter than the format's block size.
    #[error("{format}: short block")]
    ShortBlock {
        /// The BCn format's name.
        format: &'static str,
    },
}

fn names(nums: &[NumFormat]) -> String {
    let names: Vec<String> = nums.iter().map(|n| format!("{n:?}")).collect();
    names.join(" or ")
}

/// Which descriptor a field belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Desc {
    /// An image resource (T#).
    T,
    /// A sampler (S#).
    S,
}

impl std::fmt::Display for Desc {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Desc::T => "T#",
            Desc::S => "S#",
        })
    }
}

/// A descriptor field that cannot be decoded (the first group of variants) or
/// encoded (the second): the descriptor, the field and its value.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DescriptorError {
    /// A T# format field holds a code gcnrun does not implement.
    #[error("T# {field} = {value} is not supported")]
    Unsupported {
        /// `data_format`, `num_format` or (gfx10+) `format`.
        field: &'static str,
        /// The code.
        value: u32,
    },
    /// The T#'s number format has no meaning for its data format.
    #[error("T# num_format: {0}")]
    Format(#[source] FormatError),
    /// RESOURCE_LEVEL 0 where the generation requires 1.
    #[error("T# resource_level = 0 ({} requires 1)", gen.name())]
    ResourceLevel {
        /// The generation.
        gen: Gen,
    },
    /// A field holds a reserved value.
    #[error("{desc} {field} = {value} is reserved")]
    Reserved {
        /// T# or S#.
        desc: Desc,
        /// The field (`dst_sel_x`, `filter_mode`, …).
        field: &'static str,
        /// The value.
        value: u32,
    },
    /// BASE_LEVEL above LAST_LEVEL (non-MSAA view).
    #[error("T# base_level = {base_level} is above last_level = {last_level}")]
    BaseLevel {
        /// BASE_LEVEL.
        base_level: u8,
        /// LAST_LEVEL.
        last_level: u8,
    },
    /// A layered view's BASE_ARRAY above its last slice.
    #[error("T# base_array = {base_array} is above the last slice {last_array}")]
    BaseArray {
        /// BASE_ARRAY.
        base_array: u32,
        /// The last slice.
        last_array: u32,
    },
    /// gfx10+ S# DERIV_ADJUST_EN = 1: the relocated border-colour fields are
    /// not modelled.
    #[error("S# deriv_adjust_en = 1 (border colour in word 2) is not modelled")]
    DerivAdjust,
    /// A BVH T# whose type is not 8.
    #[error("BVH T# type is {ty}, not 8 (dword 3 bits 31:28): not a BVH resource")]
    NotBvh {
        /// The type field.
        ty: u32,
    },
    /// Encoding: a value wider than its field.
    #[error("T# {field} = {value} does not fit {bits} bits on {}", gen.name())]
    DoesNotFit {
        /// The field.
        field: &'static str,
        /// The value.
        value: u32,
        /// The field's width.
        bits: u32,
        /// The generation.
        gen: Gen,
    },
    /// Encoding: a T# base address that is not 256-byte aligned or needs more
    /// than 48 bits.
    #[error("T# base_address = {address:#x} is not a 256-byte aligned 48-bit address")]
    Address {
        /// The address.
        address: u64,
    },
    /// Encoding: a format pair the generation's combined FORMAT field has no
    /// code for.
    #[error("T# data_format = {data_format} with num_format = {num_format} has no {} FORMAT code", gen.name())]
    NoFormatCode {
        /// The data format code.
        data_format: u8,
        /// The number format code.
        num_format: u8,
        /// The generation.
        gen: Gen,
    },
    /// Encoding: a pitch other than the width on a generation without PITCH.
    #[error("T# pitch = {pitch} differs from width = {width}: {} has no PITCH field", gen.name())]
    Pitch {
        /// The pitch.
        pitch: u32,
        /// The width.
        width: u32,
        /// The generation.
        gen: Gen,
    },
    /// Encoding: a layered view whose last slice is not `depth - 1` where one
    /// DEPTH field holds both.
    #[error("T# last_array = {last_array} must be depth - 1 = {} on {} (DEPTH holds both)", depth.wrapping_sub(1), gen.name())]
    LastArray {
        /// The last slice.
        last_array: u32,
        /// The depth.
        depth: u32,
        /// The generation.
        gen: Gen,
    },
    /// Encoding: a BVH base address that is not 256-byte aligned or needs more
    /// than 48 bits.
    #[error("BVH base address {address:#x} is not a 256-byte aligned 48-bit address")]
    BvhAddress {
        /// The address.
        address: u64,
    },
    /// Encoding: a BVH size past its 42-bit field.
    #[error("BVH size {units} units does not fit 42 bits")]
    BvhSize {
        /// The size in 64-byte units, minus one.
        units: u64,
    },
}

/// What an image operation refuses about the resource it names (the rules of
/// `texture::resource`, `texture::vaddr`, `texture::bvh` and
/// `texture::sample::status`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TextureError {
    /// The descriptor in SGPRs `s[first:last]` is refused.
    #[error("s[{first}:{last}]: {source}")]
    Descriptor {
        /// The first SGPR.
        first: u32,
        /// The last SGPR.
        last: u32,
        /// What is wrong with it.
        source: DescriptorError,
    },
    /// A format pair without a meaning.
    #[error(transparent)]
    Format(#[from] FormatError),
    /// A data format code the texture model does not implement.
    #[error("unsupported data format")]
    DataFormat {
        /// The code.
        code: u8,
    },
    /// A number format code the texture model does not implement.
    #[error("unsupported number format")]
    NumFormat {
        /// The code.
        code: u8,
    },
    /// The T#'s layer count overflows.
    #[error("T# last_array out of range")]
    Layers,
    /// The T#'s slice count (layers × samples) overflows.
    #[error("T# slice count out of range")]
    Slices,
    /// The surface does not lie inside image memory.
    #[error("T# base address {address:#x} + {bytes} bytes lies outside image memory [{base:#x}, {end:#x})")]
    OutsideMemory {
        /// The T#'s base address.
        address: u64,
        /// The surface's size (`u64::MAX` when it overflows).
        bytes: u64,
        /// Image memory's first address.
        base: u64,
        /// One past its last.
        end: u64,
    },
    /// A tiled T#: gcnrun reads linear images only.
    #[error("tiled T# (tiling {tiling}) is not supported: gcnrun reads linear images only")]
    Tiled {
        /// The tiling field.
        tiling: u8,
    },
    /// A gfx10+ DIM that lays out other components than the T#'s TYPE.
    #[error("dim:SQ_RSRC_IMG_{} does not address the T#'s {} resource (TYPE {})", dim.name(), resource.name(), super::descriptor::type_code(*resource))]
    Dim {
        /// The instruction's DIM.
        dim: ImageType,
        /// The T#'s TYPE.
        resource: ImageType,
    },
    /// A `_mip` operation on an MSAA resource.
    #[error("`{op}` on an MSAA resource (no mip levels)")]
    MipOnMsaa {
        /// The operation.
        op: &'static str,
    },
    /// An NSA form that lists too few address VGPRs.
    #[error(transparent)]
    Address(#[from] ShortAddress),
    /// LWE on a T# that enables LOD warnings (not modelled).
    #[error("`{op}` with lwe on a T# with MIN_LOD_WARN = {warn:#x} (a LOD warning of a partially resident texture) is not modelled")]
    Lwe {
        /// The operation.
        op: &'static str,
        /// MIN_LOD_WARN.
        warn: u32,
    },
    /// A BVH operation on a generation whose BVH T# is not modelled.
    #[error("`{op}` is executed for gfx10.3 only: the {} BVH T# and A16 packing are not modelled", gen.name())]
    BvhGen {
        /// The operation.
        op: &'static str,
        /// The generation.
        gen: Gen,
    },
    /// A BVH operation on a gfx10 part other than gfx10.3.
    #[error("`{op}` is executed for gfx10.3 only: no public source describes {mcpu}'s BVH nodes")]
    BvhPart {
        /// The operation.
        op: &'static str,
        /// The processor.
        mcpu: &'static str,
    },
}

impl TextureError {
    /// `source`, the descriptor read from the `count` SGPRs from `first`.
    pub fn in_sgprs(first: u32, count: u32, source: DescriptorError) -> TextureError {
        TextureError::Descriptor {
            first,
            last: first + count - 1,
            source,
        }
    }
}
