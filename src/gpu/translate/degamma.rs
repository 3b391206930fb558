//! sRGB decodes of sampled texels on the GPU: FORCE_DEGAMMA on UNORM
//! components, and the sRGB number format's X, Y, Z.
//!
//! The CPU decodes such a component as `srgb_to_linear(unorm_to_f32(c, w))`
//! (`cpu::sample::view::View::texel_value`), and `srgb_to_linear` is an f64
//! `powf` rounded once to f32, which WGSL cannot reproduce bit for bit. So the
//! host evaluates that very expression for every code of every width a data
//! format gives X, Y or Z (the rule stays written once, in `texture::convert`),
//! and a module that needs it reads the results from the host's tables
//! ([`super::tables`], where [`table`] comes first). Every sRGB decode reads it, the
//! 8-bit codes of image loads, typed buffer loads and the BCn decoders
//! included (`srgb8_to_linear_bits`, shaders/format.wgsl): a 256-entry WGSL
//! `const` array, which they once read, lavapipe copies into a local array at
//! every use — once per tap and component in a sample, four times in a typed
//! load whose format comes from the V#, which took seconds each to build.
//!
//! (Per-width `const` arrays in the module gave the same bits, but lavapipe
//! took about 14 minutes to compile a module holding the 65,536-entry one.)

use crate::texture::convert::{srgb_to_linear, unorm_to_f32};
use crate::texture::format::{check, Layout, NumFormat, DATA_FORMATS};
use std::sync::OnceLock;

/// The widest component with a table: a 24- or 32-bit UNORM component (8_24,
/// 24_8, the 32-bit formats) would need 2^24 or 2^32 entries, and stays refused
/// by the translator.
pub const MAX_WIDTH: u32 = 16;

/// The tabulated widths, ascending: every X/Y/Z width of a data format that
/// takes UNORM (`format::check`) up to [`MAX_WIDTH`]. Derived from the
/// data-format table, so a new format brings its width along.
pub fn widths() -> &'static [u32] {
    static WIDTHS: OnceLock<Vec<u32>> = OnceLock::new();
    WIDTHS.get_or_init(|| {
        let mut w: Vec<u32> = DATA_FORMATS
            .iter()
            .filter(|d| d.layout != Layout::Block && check(d, NumFormat::Unorm).is_ok())
            .flat_map(|d| d.comps.iter().take(3).map(|&(_, w)| u32::from(w)))
            .filter(|&w| w <= MAX_WIDTH)
            .collect();
        w.sort_unstable();
        w.dedup();
        w
    })
}

/// Index of the first entry of width `width` in [`table`]: the tables lie one
/// after another in [`widths`] order. `None` for an untabulated width.
pub fn base(width: u32) -> Option<u32> {
    let ws = widths();
    ws.contains(&width).then(|| {
        ws.iter()
            .take_while(|&&w| w < width)
            .map(|w| 1u32 << w)
            .sum()
    })
}

/// The table: for each width of [`widths`], the f32 bits of
/// `srgb_to_linear(unorm_to_f32(c, width))` for c = 0 ..= 2^width − 1,
/// computed once per process by the CPU's functions.
pub fn table() -> &'static [u32] {
    static TABLE: OnceLock<Vec<u32>> = OnceLock::new();
    TABLE.get_or_init(|| {
        widths()
            .iter()
            .flat_map(|&w| {
                (0..1u32 << w).map(move |c| srgb_to_linear(unorm_to_f32(c, w)).to_bits())
            })
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The widths the UNORM data formats give X, Y, Z: 5_5_5_1's 1-bit X,
    /// 10_10_10_2's 2-bit X, 4_4_4_4, 5_6_5 / 1_5_5_5, 5_6_5's 6-bit Y, the
    /// 8-bit formats, the 10-bit formats, the packed 11-bit ones, and 16.
    #[test]
    fn widths_are_those_of_the_unorm_formats() {
        assert_eq!(widths(), &[1, 2, 4, 5, 6, 8, 10, 11, 16]);
    }

    #[test]
    fn tables_lie_one_after_another() {
        assert_eq!(base(1), Some(0));
        assert_eq!(base(2), Some(2));
        assert_eq!(base(4), Some(6));
        assert_eq!(base(8), Some(2 + 4 + 16 + 32 + 64));
        assert_eq!(base(16), Some(2 + 4 + 16 + 32 + 64 + 256 + 1024 + 2048));
        assert_eq!(base(24), None);
        assert_eq!(table().len(), (base(16).unwrap() + 65536) as usize);
    }

    /// Spot values from the formula by hand: code 0 is 0.0 and the top code
    /// 1.0 in every width; 5-bit code 1 is 1/31 = 0.032258 ≤ 0.04045, so
    /// (1/31)/12.92; 2-bit code 1 is 1/3 > 0.04045, so
    /// ((1/3 + 0.055)/1.055)^2.4 = 0.09084172, f32 0x3dba0b39.
    #[test]
    fn entries_follow_the_formula() {
        let t = table();
        for &w in widths() {
            let b = base(w).unwrap() as usize;
            assert_eq!(t[b], 0, "width {w} code 0");
            assert_eq!(t[b + (1 << w) - 1], 1.0f32.to_bits(), "width {w} top code");
        }
        let b5 = base(5).unwrap() as usize;
        let fifth = f64::from(1.0f32 / 31.0);
        assert_eq!(t[b5 + 1], ((fifth / 12.92) as f32).to_bits());
        assert_eq!(t[base(2).unwrap() as usize + 1], 0x3dba_0b39);
    }
}
