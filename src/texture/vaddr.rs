//! Address VGPRs of the non-sampler image instructions (load, store, atomic,
//! resinfo): which VGPRs hold the address, how A16 packs it, and what each
//! component means for a resource type (docs/semantics/addressing.md, "Image addresses").

use super::descriptor::ImageType;
use super::error::TextureError;
use crate::ir::image::ImageOp;
use crate::machine::WaveState;

/// The meaning of one address component of a load/store/atomic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Axis {
    /// Texel column.
    X,
    /// Texel row.
    Y,
    /// 3D depth coordinate.
    Z,
    /// Array slice (cubes: `slice × 6 + face`, the face index as a slice).
    Slice,
    /// MSAA sample (fragment) index.
    Sample,
}

/// The body of a load/store/atomic address per resource type, in VGPR order
/// (research/sampling.md §4.1; RDNA text "image address VGPRs"): data, not code.
/// Cube and 2D array share one layout, which is why a cube view may be
/// addressed with either DIM on gfx10.
pub fn body(t: ImageType) -> &'static [Axis] {
    use Axis::*;
    match t {
        ImageType::D1 => &[X],
        ImageType::D2 => &[X, Y],
        ImageType::D3 => &[X, Y, Z],
        ImageType::Cube | ImageType::D2Array => &[X, Y, Slice],
        ImageType::D1Array => &[X, Slice],
        ImageType::D2Msaa => &[X, Y, Sample],
        ImageType::D2MsaaArray => &[X, Y, Slice, Sample],
    }
}

/// Integer coordinates of one lane's access.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Coords {
    /// Column.
    pub x: u32,
    /// Row.
    pub y: u32,
    /// 3D depth.
    pub z: u32,
    /// Array slice relative to the view (cube: `slice × 6 + face`).
    pub slice: u32,
    /// MSAA sample.
    pub sample: u32,
    /// Mip level relative to the view (`_mip` forms; 0 otherwise).
    pub level: u32,
}

/// Splits A16 address dwords into 16-bit components, low half first
/// (research/sampling.md §5.13; RDNA3 ISA §10.4 "t, s" packing), each
/// zero-extended: load/store/atomic/resinfo addresses are unsigned integers.
pub fn unpack_a16(dwords: &[u32]) -> Vec<u32> {
    dwords.iter().flat_map(|&d| [d & 0xffff, d >> 16]).collect()
}

/// The type whose address layout the instruction uses: the T#'s TYPE on
/// gfx6–gfx9 (the address count is not encoded there; the DA bit is not
/// consulted), the instruction's DIM on gfx10+, which must lay out the same
/// components as the T#'s TYPE (cube and 2D array do) — a mismatch is an error
/// naming both rather than a guess.
pub fn layout_type(m: &ImageOp, t: ImageType) -> Result<ImageType, TextureError> {
    let Some(dim) = m.dim else {
        return Ok(t);
    };
    if body(dim) != body(t) {
        return Err(TextureError::Dim { dim, resource: t });
    }
    Ok(dim)
}

/// The address components of `lane` for `count` logical components: read from
/// consecutive VGPRs from `vaddr` (gfx6–gfx9 and gfx10 non-NSA) or from the NSA
/// list (gfx10+), one dword per component or, with A16 (gfx9+), two 16-bit
/// components per dword. An NSA form that lists too few VGPRs is an error.
pub fn components(
    m: &ImageOp,
    w: &WaveState,
    lane: u32,
    count: u32,
) -> Result<Vec<u32>, TextureError> {
    let a16 = m.a16;
    let dwords = if a16 { count.div_ceil(2) } else { count };
    let regs = m.address_regs(dwords)?;
    let raw: Vec<u32> = regs
        .iter()
        .take(dwords as usize)
        .map(|&v| w.vgpr(v, lane))
        .collect();
    Ok(if a16 { unpack_a16(&raw) } else { raw })
}

/// The coordinates of one lane for a load/store/atomic on a resource laid out
/// as `t`, with a trailing mip level for the `_mip` forms (not for MSAA types:
/// research/sampling.md §5.11).
pub fn coords(
    m: &ImageOp,
    w: &WaveState,
    lane: u32,
    t: ImageType,
    mip: bool,
) -> Result<Coords, TextureError> {
    if mip && t.is_msaa() {
        return Err(TextureError::MipOnMsaa { op: m.name() });
    }
    let axes = body(t);
    let count = axes.len() as u32 + u32::from(mip);
    let comps = components(m, w, lane, count)?;
    let mut c = Coords::default();
    for (axis, &v) in axes.iter().zip(&comps) {
        match axis {
            Axis::X => c.x = v,
            Axis::Y => c.y = v,
            Axis::Z => c.z = v,
            Axis::Slice => c.slice = v,
            Axis::Sample => c.sample = v,
        }
    }
    if mip {
        c.level = comps.get(axes.len()).copied().unwrap_or(0);
    }
    Ok(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a16_is_low_half_first() {
        assert_eq!(unpack_a16(&[0x0002_0001, 0xffff_0007]), [1, 2, 7, 0xffff]);
    }

    #[test]
    fn cube_and_2d_array_share_a_layout() {
        assert_eq!(body(ImageType::Cube), body(ImageType::D2Array));
        assert_ne!(body(ImageType::D2Msaa), body(ImageType::D3));
        assert_eq!(body(ImageType::D2MsaaArray).last(), Some(&Axis::Sample));
    }
}
