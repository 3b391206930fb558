//! Data VGPRs of loads and stores: D16 packing and the TFE/LWE status dword
//! (docs/semantics/images.md, "Image loads and stores").

use crate::texture::convert::{
    d16_from_f32_bits, d16_from_int, d16_to_f32_bits, d16_to_sint, d16_to_uint,
};
use crate::texture::format::NumFormat;

/// How an instruction's data VGPRs hold components.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DataWidth {
    /// One 32-bit component per VGPR.
    Full,
    /// D16, two 16-bit components per VGPR, the first in the low half (gfx8.1
    /// and gfx9+: `Arch::packed_d16`; RDNA3 ISA §10.4 "D16": "LSBs first, then
    /// MSBs").
    Packed16,
    /// D16 on gfx8.0 (gfx801–gfx805): one 16-bit component per VGPR, in the low
    /// half (LLVM's unpacked-D16 subtargets).
    Unpacked16,
}

impl DataWidth {
    /// The width an instruction's D16 bit and the target give.
    pub fn of(d16: bool, packed_d16: bool) -> DataWidth {
        match (d16, packed_d16) {
            (false, _) => DataWidth::Full,
            (true, true) => DataWidth::Packed16,
            (true, false) => DataWidth::Unpacked16,
        }
    }

    /// VGPRs that `n` components occupy.
    pub fn dwords(self, n: u32) -> u32 {
        match self {
            DataWidth::Packed16 => n.div_ceil(2),
            _ => n,
        }
    }
}

/// The VGPR values of loaded components (32-bit results, after DST_SEL and
/// DMASK). D16 converts each to 16 bits by number-format class
/// ([`d16_from_f32_bits`] for float classes, [`d16_from_int`] for UINT/SINT) and
/// packs them; an unused high half (odd count, or unpacked D16) is written as
/// zero — a documented choice: drivers never read it.
pub fn load_dwords(vals: &[u32], width: DataWidth, integer: bool) -> Vec<u32> {
    let half = |v: u32| {
        u32::from(if integer {
            d16_from_int(v)
        } else {
            d16_from_f32_bits(v)
        })
    };
    match width {
        DataWidth::Full => vals.to_vec(),
        DataWidth::Unpacked16 => vals.iter().map(|&v| half(v)).collect(),
        DataWidth::Packed16 => vals
            .chunks(2)
            .map(|p| half(p[0]) | p.get(1).map_or(0, |&v| half(v) << 16))
            .collect(),
    }
}

/// The 32-bit component values of `n` stored components read from `dwords`
/// (as many as [`DataWidth::dwords`] says). D16 takes 16-bit halves (low half
/// first; unpacked: each VGPR's low half, the high half ignored) and widens
/// them by class: float classes exactly to f32, UINT zero-, SINT sign-extended.
pub fn store_values(dwords: &[u32], n: u32, width: DataWidth, nf: NumFormat) -> Vec<u32> {
    let widen = |h: u16| match nf {
        NumFormat::Uint => d16_to_uint(h),
        NumFormat::Sint => d16_to_sint(h),
        _ => d16_to_f32_bits(h),
    };
    let at = |k: usize| dwords.get(k).copied().unwrap_or(0);
    (0..n as usize)
        .map(|k| match width {
            DataWidth::Full => at(k),
            DataWidth::Unpacked16 => widen(at(k) as u16),
            DataWidth::Packed16 => widen((at(k / 2) >> (16 * (k % 2))) as u16),
        })
        .collect()
}

/// The status dword TFE or LWE adds after the data VGPRs (RDNA3 ISA §10.1.1;
/// research/sampling.md §5.12): bit 0 TEXEL_FAIL (a non-resident PRT page),
/// bit 1 LOD_WARNING (a sampled LOD below the T#'s MIN_LOD_WARN), bits 31:16
/// the LOD of the warning. gcnrun models no partially resident textures, and
/// loads, stores and atomics compute no LOD, so the dword is 0 for every access
/// — in range, out of range or unbound.
pub const STATUS_OK: u32 = 0;

/// True when the instruction writes the status dword: TFE or LWE. (LLVM's
/// compiler counts the extra dword for either bit; its disassembler prints the
/// width for TFE only — docs/errata.md S6.)
pub fn has_status(tfe: bool, lwe: bool) -> bool {
    tfe || lwe
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packed_d16_is_low_half_first() {
        // 1.0 → 0x3c00, 0.5 → 0x3800, 2.0 → 0x4000.
        let v = [1.0f32, 0.5, 2.0].map(f32::to_bits);
        assert_eq!(
            load_dwords(&v, DataWidth::Packed16, false),
            [0x3800_3c00, 0x0000_4000]
        );
        assert_eq!(
            load_dwords(&v, DataWidth::Unpacked16, false),
            [0x3c00, 0x3800, 0x4000]
        );
        assert_eq!(
            load_dwords(&[0x1_2345, 7], DataWidth::Packed16, true),
            [0x0007_2345]
        );
    }

    #[test]
    fn d16_store_widens_by_class() {
        // Halves 0xc000 (f16 −2.0) and 0x3800 (0.5).
        let d = [0x3800_c000];
        assert_eq!(
            store_values(&d, 2, DataWidth::Packed16, NumFormat::Sint),
            [0xffff_c000, 0x3800]
        );
        assert_eq!(
            store_values(&d, 2, DataWidth::Packed16, NumFormat::Uint),
            [0xc000, 0x3800]
        );
        assert_eq!(
            store_values(&d, 2, DataWidth::Packed16, NumFormat::Unorm),
            [(-2.0f32).to_bits(), 0.5f32.to_bits()]
        );
        // Unpacked: each VGPR's low half; the high half is ignored.
        assert_eq!(
            store_values(
                &[0x1234_3c00, 0x3800],
                2,
                DataWidth::Unpacked16,
                NumFormat::Float
            ),
            [1.0f32.to_bits(), 0.5f32.to_bits()]
        );
    }
}
