//! Refusals both back ends make, each written once: the CPU interpreter calls
//! these before it executes an operation and the WGSL translator before it
//! emits one, so a launch is refused alike on both, with the same words.
//! docs/semantics/ lists each rule and its source. Each refusal is a
//! [`Refusal`], which names the operation and what it refuses.

use crate::arch::Arch;
use crate::ir::atomic::AtomicOp;
use crate::ir::image::{flag, ImageOp, ImageType};
use crate::texture::descriptor::{ImageDesc, SamplerDesc};
use crate::texture::error::TextureError;
use crate::texture::format::NumFormat;
use crate::texture::layout::Surface;
use crate::texture::resource::{require_linear, surface_of};
use crate::texture::sample::address::{self, border_color};
use crate::texture::sample::vaddr::Shape;

/// Why both back ends refuse an image operation: the operation (its
/// mnemonic) and what about it or its resource is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// The texture model refuses the resource ([`TextureError`]).
    #[error(transparent)]
    Texture(#[from] TextureError),
    /// An operation whose semantics no public source documents.
    #[error("`{op}` is not executed: its texel footprint is not publicly documented (docs/errata.md S15)")]
    Undocumented {
        /// The operation.
        op: &'static str,
    },
    /// A sampler operation whose DIM does not match the T#'s type.
    #[error("`{op}` dim {} does not match the T# type {resource:?}", dim.index())]
    SampleDim {
        /// The operation.
        op: &'static str,
        /// The instruction's DIM.
        dim: ImageType,
        /// The T#'s type.
        resource: ImageType,
    },
    /// Sampling an MSAA view.
    #[error("`{op}` on an MSAA image")]
    SampleMsaa {
        /// The operation.
        op: &'static str,
    },
    /// A border from the driver's border-colour table (S# BORDER_COLOR_TYPE 3).
    #[error("S# border_color_type = 3 (the driver's border-colour table) is not modelled")]
    BorderTable,
    /// Depth compare on an integer view.
    #[error("`{op}`: depth compare on an integer ({num:?}) image")]
    CompareInteger {
        /// The operation.
        op: &'static str,
        /// The view's number format.
        num: NumFormat,
    },
    /// Unnormalised coordinates on a cube.
    #[error("`{op}`: unnormalized coordinates on a cube image")]
    UnnormalizedCube {
        /// The operation.
        op: &'static str,
    },
    /// An atomic shape asked of an operation that is not an atomic.
    #[error("`{op}` is not an atomic")]
    NotAtomic {
        /// The operation.
        op: &'static str,
    },
    /// D16 on an operation that has no D16 form.
    #[error("`{op}` has no d16 form")]
    NoD16 {
        /// The operation.
        op: &'static str,
    },
    /// An atomic's DMASK that is no data size.
    #[error("`{op}`: dmask {dmask:#x} is not an atomic data size")]
    AtomicDmask {
        /// The operation.
        op: &'static str,
        /// DMASK.
        dmask: u32,
    },
    /// An atomic on a view of the wrong data format.
    #[error("`{op}` needs a {} image, not data format {data_format}", if *wide { "32_32" } else { "32" })]
    AtomicDataFormat {
        /// The operation.
        op: &'static str,
        /// The atomic is 64-bit (it needs `32_32`; else `32`).
        wide: bool,
        /// The view's data format.
        data_format: u8,
    },
    /// A float atomic on an integer view or an integer atomic on a float one.
    #[error("`{op}` on number format {num_format}: float atomics need FLOAT images, integer atomics integer ones")]
    AtomicNumFormat {
        /// The operation.
        op: &'static str,
        /// The view's number format code.
        num_format: u8,
    },
}

/// Refuses, by name, sampler operations whose semantics gcnrun does not model:
/// ops flagged [`flag::UNDOCUMENTED`] — `image_gather4h` (gfx9 0x42, gfx10
/// 0x61), a gather of a horizontal run of texels whose footprint, order and
/// address operands no public AMD source documents (LLVM gives only its
/// encoding; docs/errata.md S15). Running it as a plain gather4 would return a
/// plausible but wrong answer.
pub fn sampler_op(m: &ImageOp) -> Result<(), Refusal> {
    if m.op.has(flag::UNDOCUMENTED) {
        return Err(Refusal::Undocumented { op: m.name() });
    }
    Ok(())
}

/// What a sample, gather4 or get_lod may rely on about its bound view once
/// [`sample_view`] has accepted it.
#[derive(Clone, Debug)]
pub struct SampleView {
    /// The view's shape as the sampler sees it.
    pub shape: Shape,
    /// The linear surface the T# describes.
    pub surf: Surface,
    /// Number format.
    pub nf: NumFormat,
    /// Normalised coordinates (neither the instruction's UNORM nor the S#'s
    /// FORCE_UNNORMALIZED).
    pub normalized: bool,
    /// The border colour, where the S# names one gcnrun models.
    pub border: Option<[u32; 4]>,
}

/// Accepts a bound view for sampling, or refuses it naming why (sampling.md
/// §5): a DIM that does not match the T#'s type (gfx10+), MSAA views (which
/// cannot be sampled), tiled surfaces, an unknown number format, the driver's
/// border-colour table (S# BORDER_COLOR_TYPE 3) where a border is used, depth
/// compare on an integer view, and unnormalised coordinates on a cube.
pub fn sample_view(
    m: &ImageOp,
    d: &ImageDesc,
    sampler: &SamplerDesc,
    arch: &Arch,
) -> Result<SampleView, Refusal> {
    if let Some(dim) = m.dim.filter(|&t| t != d.image_type) {
        return Err(Refusal::SampleDim {
            op: m.name(),
            dim,
            resource: d.image_type,
        });
    }
    let shape = Shape::of(d.image_type).ok_or(Refusal::SampleMsaa { op: m.name() })?;
    require_linear(d, arch)?;
    let surf = surface_of(d)?;
    let nf =
        NumFormat::from_code(d.num_format).ok_or(TextureError::NumFormat { code: d.num_format })?;
    let border_used =
        (0..shape.axes).any(|a| address::uses_border(sampler.clamp[a] & 7)) && !shape.cube;
    let border = border_color(sampler.border_type, nf.is_integer());
    if border_used && border.is_none() {
        return Err(Refusal::BorderTable);
    }
    if m.op.has(flag::C) && nf.is_integer() {
        return Err(Refusal::CompareInteger {
            op: m.name(),
            num: nf,
        });
    }
    let normalized = !(m.unorm || sampler.force_unnormalized);
    if shape.cube && !normalized {
        return Err(Refusal::UnnormalizedCube { op: m.name() });
    }
    Ok(SampleView {
        shape,
        surf,
        nf,
        normalized,
        border,
    })
}

/// The data an image atomic sends and returns, from its operation and DMASK.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AtomicShape {
    /// The operation.
    pub op: AtomicOp,
    /// Compare-swap: a compare value follows the data.
    pub two_operands: bool,
    /// 64-bit texels (format `32_32`).
    pub wide: bool,
    /// Data dwords DMASK sends.
    pub dwords: u32,
}

/// An image atomic's data size (sampling.md §3.4): DMASK 0x1 (32-bit), 0x3
/// (64-bit, or 32-bit compare-swap), 0xf (64-bit compare-swap); no D16 form.
pub fn atomic_shape(m: &ImageOp) -> Result<AtomicShape, Refusal> {
    let op = m.atomic.ok_or(Refusal::NotAtomic { op: m.name() })?;
    if m.d16 {
        return Err(Refusal::NoD16 { op: m.name() });
    }
    let two_operands = matches!(op, AtomicOp::CmpSwap | AtomicOp::FCmpSwap);
    let dwords = (m.dmask & 0xf).count_ones();
    let wide = match (two_operands, dwords) {
        (false, 1) | (true, 2) => false,
        (false, 2) | (true, 4) => true,
        _ => {
            return Err(Refusal::AtomicDmask {
                op: m.name(),
                dmask: m.dmask,
            })
        }
    };
    Ok(AtomicShape {
        op,
        two_operands,
        wide,
        dwords,
    })
}

/// An image atomic's view: one 32-bit (data format `32`) or 64-bit (`32_32`)
/// component, FLOAT for the float atomics and an integer format for the others.
pub fn atomic_view(m: &ImageOp, a: &AtomicShape, d: &ImageDesc) -> Result<(), Refusal> {
    let want = if a.wide { 11 } else { 4 };
    if d.data_format != want {
        return Err(Refusal::AtomicDataFormat {
            op: m.name(),
            wide: a.wide,
            data_format: d.data_format,
        });
    }
    let float = matches!(a.op, AtomicOp::FCmpSwap | AtomicOp::Fmin | AtomicOp::Fmax);
    if float != (NumFormat::from_code(d.num_format) == Some(NumFormat::Float)) {
        return Err(Refusal::AtomicNumFormat {
            op: m.name(),
            num_format: d.num_format,
        });
    }
    Ok(())
}
