//! DST_SEL: how the four values of an expanded texel become the X, Y, Z, W an
//! image instruction returns (research/sampling.md §3.4).
//!
//! The order of the load path is: read the texel, convert each component
//! ([`super::format::load_texel`], which also fills the components the format
//! lacks), apply DST_SEL (this module), then DMASK picks which of the four go to
//! VGPRs (the interpreter). "The texture system ... expands it to a canonical
//! RGBA form ... Then, DMASK is applied" (AMD ISA text in
//! shared/reference/amd-image-opcodes-with-sampler.txt); RDNA's wording adds
//! "fills missing components based on T#.dst_sel" (rdna-image-instructions-zh.md).
//! Stores do not use DST_SEL: the data goes to memory in component order.

use super::error::{Desc, DescriptorError};
use super::format::NumFormat;

/// One DST_SEL field (3 bits; T# W3\[2:0\], \[5:3\], \[8:6\], \[11:9\] on every
/// generation gcnrun models: sampling.md §1.2, §1.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DstSel {
    /// `SQ_SEL_0`: constant 0.
    Zero,
    /// `SQ_SEL_1`: constant one (1.0 for float classes, integer 1 for UINT/SINT).
    One,
    /// `SQ_SEL_X`: the texel's first component (R).
    X,
    /// `SQ_SEL_Y`: the second component (G).
    Y,
    /// `SQ_SEL_Z`: the third component (B).
    Z,
    /// `SQ_SEL_W`: the fourth component (A).
    W,
}

/// Field value → selector, by code: 0 = SEL_0, 1 = SEL_1, 2 and 3 reserved,
/// 4..7 = X..W (sampling.md §1.2, Mesa `SQ_SEL_*`).
const CODES: [Option<DstSel>; 8] = [
    Some(DstSel::Zero),
    Some(DstSel::One),
    None,
    None,
    Some(DstSel::X),
    Some(DstSel::Y),
    Some(DstSel::Z),
    Some(DstSel::W),
];

/// Component names used in error messages (`dst_sel_x` … `dst_sel_w`).
pub const FIELD_NAMES: [&str; 4] = ["dst_sel_x", "dst_sel_y", "dst_sel_z", "dst_sel_w"];

impl DstSel {
    /// From the 3-bit field; `None` for the reserved codes 2 and 3 (and for
    /// anything wider than 3 bits).
    pub fn from_code(code: u8) -> Option<DstSel> {
        CODES.get(usize::from(code)).copied().flatten()
    }

    /// The field value.
    pub fn code(self) -> u8 {
        CODES
            .iter()
            .position(|&c| c == Some(self))
            .unwrap_or_default() as u8
    }
}

/// Decodes the four DST_SEL fields of a T#, naming the first reserved one.
pub fn dst_sel_from_codes(codes: [u8; 4]) -> Result<[DstSel; 4], DescriptorError> {
    let mut out = [DstSel::Zero; 4];
    for (i, (&code, slot)) in codes.iter().zip(out.iter_mut()).enumerate() {
        *slot = DstSel::from_code(code).ok_or(DescriptorError::Reserved {
            desc: Desc::T,
            field: FIELD_NAMES[i],
            value: code.into(),
        })?;
    }
    Ok(out)
}

/// The constant SEL_1 returns: integer 1 for UINT/SINT, 1.0 otherwise. radeonsi's
/// null texture uses SEL_1 in W to return alpha = 1 whatever the format
/// (sampling.md §3.4, §5.14); the integer form follows the number format's class
/// as the missing-W default does ([`super::format::missing_component`]).
pub fn one(nf: NumFormat) -> u32 {
    if nf.is_integer() {
        1
    } else {
        1.0f32.to_bits()
    }
}

/// Applies one selector to an expanded texel (VGPR bit patterns).
pub fn select(texel: [u32; 4], sel: DstSel, nf: NumFormat) -> u32 {
    match sel {
        DstSel::Zero => 0,
        DstSel::One => one(nf),
        DstSel::X => texel[0],
        DstSel::Y => texel[1],
        DstSel::Z => texel[2],
        DstSel::W => texel[3],
    }
}

/// Applies DST_SEL to an expanded texel: result component `i` is
/// `select(texel, sel[i])` (sampling.md §3.4). An out-of-bounds load applies it
/// to (0, 0, 0, 0), so SEL_1 still reads one (sampling.md §4.4).
pub fn apply_dst_sel(texel: [u32; 4], sel: [DstSel; 4], nf: NumFormat) -> [u32; 4] {
    sel.map(|s| select(texel, s, nf))
}

/// What an operation reads from a view that has no resource, before DMASK: a
/// null view's DST_SEL constants (SEL_1 = 1.0, every other selector 0) and
/// zeros for an unbound one (sampling.md §5.14). A bound view reads texels, not
/// this.
pub fn unbound_values(desc: &super::descriptor::Image) -> [u32; 4] {
    match desc {
        super::descriptor::Image::Null { dst_sel } => {
            dst_sel.map(|s| if s == 1 { 1.0f32.to_bits() } else { 0 })
        }
        _ => [0; 4],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_and_reserved() {
        for code in 0u8..8 {
            match DstSel::from_code(code) {
                Some(s) => assert_eq!(s.code(), code),
                None => assert!(code == 2 || code == 3, "{code}"),
            }
        }
        assert_eq!(DstSel::from_code(8), None);
        assert_eq!(
            dst_sel_from_codes([4, 5, 3, 7]).unwrap_err().to_string(),
            "T# dst_sel_z = 3 is reserved"
        );
    }

    #[test]
    fn bgra_view_and_constants() {
        // A BGRA view of RGBA memory: DST_SEL = (Z, Y, X, W) = codes (6, 5, 4, 7)
        // swaps the first and third components.
        let texel = [10, 20, 30, 40];
        let sel = dst_sel_from_codes([6, 5, 4, 7]).unwrap();
        assert_eq!(apply_dst_sel(texel, sel, NumFormat::Uint), [30, 20, 10, 40]);
        // R8 as drivers program it: (X, 0, 0, 1); SEL_1 is 1.0 for UNORM
        // (0x3f800000) and integer 1 for UINT.
        let sel = dst_sel_from_codes([4, 0, 0, 1]).unwrap();
        assert_eq!(
            apply_dst_sel(texel, sel, NumFormat::Unorm),
            [10, 0, 0, 0x3f80_0000]
        );
        assert_eq!(apply_dst_sel(texel, sel, NumFormat::Sint), [10, 0, 0, 1]);
        // Broadcast: (X, X, X, X).
        let sel = [DstSel::X; 4];
        assert_eq!(apply_dst_sel(texel, sel, NumFormat::Float), [10; 4]);
    }
}
