//! The resource an image operation names, as both back ends read it: the T# in
//! SGPRs, the linear surface it describes, where a texel of it lies in memory,
//! and the refusals of resources gcnrun does not model (tiled, outside memory).
//! Sources: research/sampling.md §1 (descriptors), §4.1–4.4 (addressing), §5.14
//! (unbound).

use super::descriptor::{decode_image, Image, ImageDesc, ImageType};
use super::error::TextureError;
use super::format::{self, data_format};
use super::layout::Surface;
use super::vaddr::{self, Coords};
use crate::arch::{Arch, Gen};
use crate::ir::image::ImageOp;
use crate::machine::WaveState;

/// Samples per pixel of an MSAA view: `1 << LAST_LEVEL` (the field holds
/// log2(samples) for the MSAA types; sampling.md §1.2); 1 for other types.
pub fn samples(d: &ImageDesc) -> u32 {
    if d.image_type.is_msaa() {
        1u32 << (d.last_level & 15)
    } else {
        1
    }
}

/// The linear surface a bound T# describes (docs/semantics/resources.md, "Linear layout"):
/// levels `0..=last_level` of the resource, slices from the type. An MSAA
/// resource has one level and `layers × samples` slices, the sample index
/// varying fastest (gcnrun's reference layout for MSAA: real MSAA surfaces are
/// tiled and FMASK-compressed; docs/errata.md S7).
pub fn surface_of(d: &ImageDesc) -> Result<Surface, TextureError> {
    let df = data_format(d.data_format).ok_or(TextureError::DataFormat {
        code: d.data_format,
    })?;
    let block = df.layout == format::Layout::Block;
    let layers = || d.last_array.checked_add(1).ok_or(TextureError::Layers);
    let (depth, slices) = match d.image_type {
        ImageType::D3 => (d.depth, 1),
        ImageType::D1Array | ImageType::D2Array | ImageType::Cube => (1, layers()?),
        ImageType::D2Msaa => (1, samples(d)),
        ImageType::D2MsaaArray => (
            1,
            layers()?
                .checked_mul(samples(d))
                .ok_or(TextureError::Slices)?,
        ),
        ImageType::D1 | ImageType::D2 => (1, 1),
    };
    Ok(Surface {
        bpe: df.bytes,
        block,
        width: d.width,
        height: if matches!(d.image_type, ImageType::D1 | ImageType::D1Array) {
            1
        } else {
            d.height
        },
        depth,
        slices,
        // The T# PITCH counts texels; a BCn row holds pitch / 4 blocks (Mesa
        // writes `nblk_x × block width` on gfx6–gfx8; docs/errata.md X13).
        pitch: if block { d.pitch.div_ceil(4) } else { d.pitch },
        levels: if d.image_type.is_msaa() {
            1
        } else {
            u32::from(d.last_level) + 1
        },
    })
}

/// The byte offset of the texel at view coordinates `c`, or `None` when it is
/// out of bounds (sampling.md §4.4). The view's level L is resource level
/// BASE_LEVEL + L and its slice S resource slice BASE_ARRAY + S; a cube's
/// `slice × 6 + face` is such a slice (sampling.md §5.7: non-sampler ops address
/// faces as slices). MSAA: slice `layer × samples + sample`, a sample past the
/// count is out of bounds.
pub fn texel_offset(d: &ImageDesc, surf: &Surface, c: &Coords) -> Option<u64> {
    let level = u32::from(d.base_level).checked_add(c.level)?;
    let t = d.image_type;
    let layer = if t.is_layered() {
        let s = d.base_array.checked_add(c.slice)?;
        (s <= d.last_array).then_some(s)?
    } else {
        0
    };
    let slice = if t.is_msaa() {
        let n = samples(d);
        (c.sample < n).then_some(layer.checked_mul(n)?.checked_add(c.sample)?)?
    } else {
        layer
    };
    // BCn: the texel must lie inside the level; its 4×4 block is the element.
    surf.element_of_texel(level, slice, c.x, c.y, c.z)?
        .checked_add(d.base_address)
}

/// The byte address of the texel a lane addresses, or `None` when it is out of
/// bounds: the lane's coordinates ([`vaddr::coords`], laid out per
/// [`vaddr::layout_type`]) at [`texel_offset`].
pub fn texel_address(
    m: &ImageOp,
    w: &WaveState,
    lane: u32,
    d: &ImageDesc,
    surf: &Surface,
    mip: bool,
) -> Result<Option<u64>, TextureError> {
    let t = vaddr::layout_type(m, d.image_type)?;
    let c = vaddr::coords(m, w, lane, t, mip)?;
    Ok(texel_offset(d, surf, &c))
}

/// Reads and decodes the T# an instruction names: 8 SGPRs from `srsrc × 4`
/// (R128: dwords 0–3, the rest read 0).
pub fn read_tsharp(m: &ImageOp, w: &WaveState, arch: &Arch) -> Result<Image, TextureError> {
    let base = m.srsrc;
    let tsharp = crate::texture::sample::status::tsharp_words(m, |n| w.sgpr(n));
    decode_image(&tsharp, arch.gen).map_err(|e| TextureError::in_sgprs(base, 8, e))
}

/// Refuses a bound T# whose surface (every level and slice it describes) does
/// not lie inside image memory: the descriptor points at memory the launch does
/// not have, which on hardware is a fault or garbage, and is bad input here
/// (docs/semantics/resources.md, "Descriptors outside memory").
pub fn require_in_memory(
    d: &ImageDesc,
    surf: &Surface,
    mem: std::ops::Range<u64>,
) -> Result<(), TextureError> {
    let end = mem.end;
    let size = surf.total_bytes().unwrap_or(u64::MAX);
    let inside = d.base_address >= mem.start
        && d.base_address
            .checked_add(size)
            .is_some_and(|last| last <= end);
    if inside {
        Ok(())
    } else {
        Err(TextureError::OutsideMemory {
            address: d.base_address,
            bytes: size,
            base: mem.start,
            end,
        })
    }
}

/// Refuses tiled T#s: gcnrun reads linear images only (TILING_INDEX 8 on
/// gfx6–gfx8, SW_MODE 0 on gfx9+; sampling.md §4.2).
pub fn require_linear(d: &ImageDesc, arch: &Arch) -> Result<(), TextureError> {
    let linear = if arch.gen <= Gen::Gfx8 { 8 } else { 0 };
    if d.tiling != linear {
        return Err(TextureError::Tiled { tiling: d.tiling });
    }
    Ok(())
}
