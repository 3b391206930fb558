//! Block-compressed formats BC1–BC5 and BC7: one texel of a 4×4 block, as the
//! four load values X, Y, Z, W before DST_SEL. Read-only (nothing encodes BCn).
//!
//! The block decoding itself is the `bcdec_rs` crate (a port of bcdec, which
//! follows Microsoft's "Texture Block Compression in Direct3D 11" and the
//! BC7 format reference): it yields 8-bit RGBA (BC1–BC3, BC7) or 8-bit
//! channels (BC4, BC5), which this module converts with the ordinary 8-bit
//! UNORM/SNORM/sRGB load rules of [`super::convert`]. The hardware's own
//! interpolation precision is not public (D3D allows a tolerance), so the 8-bit
//! palette values of the decoder are gcnrun's documented choice
//! (docs/errata.md X13). BC6 has no gfx6–gfx9 number format that says whether it
//! is signed and is refused by name.

use super::convert::{snorm_to_f32, srgb_to_linear, unorm_to_f32};
use super::format::NumFormat;

/// The BCn data formats (IMG_DATA_FORMAT codes, research/sampling.md §3.1):
/// their code, name and block size in bytes.
pub const BCN: [(u8, &str, usize); 7] = [
    (35, "bc1", 8),
    (36, "bc2", 16),
    (37, "bc3", 16),
    (38, "bc4", 8),
    (39, "bc5", 16),
    (40, "bc6", 16),
    (41, "bc7", 16),
];

/// Components a BCn format stores (BC4: X; BC5: X, Y; BC6: X, Y, Z; the
/// others all four) — what a driver's DST_SEL reads as X..W rather than 0/1.
pub fn components(code: u8) -> usize {
    match code {
        38 => 1,
        39 => 2,
        40 => 3,
        _ => 4,
    }
}

/// Texel `(x % 4, y % 4)` of `block` (8 or 16 bytes) of BCn data format `code`
/// with number format `nf`: X, Y, Z, W as 32-bit load values (components the
/// format lacks read 0, 0, 0, 1.0). Errors name what is not supported: BC6, and
/// number formats the format has no meaning for (BC1–BC3/BC7: UNORM, SRGB;
/// BC4/BC5: UNORM, SNORM).
pub fn load_texel(
    code: u8,
    nf: NumFormat,
    block: &[u8],
    x: u32,
    y: u32,
) -> Result<[u32; 4], String> {
    let &(_, name, bytes) = BCN
        .iter()
        .find(|b| b.0 == code)
        .ok_or_else(|| format!("data format {code} is not block-compressed"))?;
    if block.len() < bytes {
        return Err(format!("{name}: short block"));
    }
    let block = &block[..bytes];
    let texel = (4 * (y % 4) + x % 4) as usize;
    let one = 1.0f32.to_bits();
    let unorm = |c: u8| unorm_to_f32(c.into(), 8).to_bits();
    let rgba8 = |decode: fn(&[u8], &mut [u8], usize)| {
        let mut out = [0u8; 64];
        decode(block, &mut out, 16);
        let t = &out[4 * texel..4 * texel + 4];
        match nf {
            // sRGB decodes X, Y, Z; W stays linear (sampling.md §3.3).
            NumFormat::Srgb => Ok([
                srgb_to_linear(unorm_to_f32(t[0].into(), 8)).to_bits(),
                srgb_to_linear(unorm_to_f32(t[1].into(), 8)).to_bits(),
                srgb_to_linear(unorm_to_f32(t[2].into(), 8)).to_bits(),
                unorm(t[3]),
            ]),
            NumFormat::Unorm => Ok([unorm(t[0]), unorm(t[1]), unorm(t[2]), unorm(t[3])]),
            _ => Err(format!(
                "{name} with number format {nf:?} (UNORM or SRGB only)"
            )),
        }
    };
    let channels = |n: usize| -> Result<[u32; 4], String> {
        let signed = match nf {
            NumFormat::Unorm => false,
            NumFormat::Snorm => true,
            _ => {
                return Err(format!(
                    "{name} with number format {nf:?} (UNORM or SNORM only)"
                ))
            }
        };
        let mut out = [0u8; 32];
        if n == 1 {
            bcdec_rs::bc4(block, &mut out, 4, signed);
        } else {
            bcdec_rs::bc5(block, &mut out, 8, signed);
        }
        let conv = |c: u8| {
            if signed {
                snorm_to_f32(c.into(), 8).to_bits()
            } else {
                unorm(c)
            }
        };
        let r = conv(out[n * texel]);
        let g = if n == 2 { conv(out[n * texel + 1]) } else { 0 };
        Ok([r, g, 0, one])
    };
    match code {
        35 => rgba8(bcdec_rs::bc1),
        36 => rgba8(bcdec_rs::bc2),
        37 => rgba8(bcdec_rs::bc3),
        38 => channels(1),
        39 => channels(2),
        41 => rgba8(bcdec_rs::bc7),
        _ => Err(format!(
            "{name} is not modelled (its gfx6–gfx9 number format does not say signed or unsigned)"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A BC1 block by hand: colour 0 = 0xf800 (RGB565 red: R = 31 → 255),
    /// colour 1 = 0x001f (blue); c0 > c1 selects the four-colour mode, where
    /// index 2 = (2·c0 + c1)/3 and 3 = (c0 + 2·c1)/3. Indices (2 bits per texel,
    /// texel 0 in the low bits): 0b11_10_01_00 for row 0 → texels 0..3 use
    /// colours 0, 1, 2, 3.
    fn bc1_block() -> [u8; 8] {
        [0x00, 0xf8, 0x1f, 0x00, 0b1110_0100, 0, 0, 0]
    }

    #[test]
    fn bc1_palette() {
        let b = bc1_block();
        let f = |v: u32| f32::from_bits(v);
        // Texel 0: red, opaque.
        assert_eq!(
            load_texel(35, NumFormat::Unorm, &b, 0, 0).unwrap(),
            [1.0f32.to_bits(), 0, 0, 1.0f32.to_bits()]
        );
        // Texel 1: blue.
        assert_eq!(
            load_texel(35, NumFormat::Unorm, &b, 1, 0).unwrap(),
            [0, 0, 1.0f32.to_bits(), 1.0f32.to_bits()]
        );
        // Texel 2: 2/3 red + 1/3 blue = (170, 0, 85) in 8 bits → 170/255, 85/255.
        let t = load_texel(35, NumFormat::Unorm, &b, 2, 0).unwrap();
        assert_eq!((f(t[0]), f(t[2])), (170.0 / 255.0, 85.0 / 255.0));
        // Rows 1–3 have index 0: red; x and y wrap modulo the block.
        assert_eq!(
            load_texel(35, NumFormat::Unorm, &b, 4, 7).unwrap()[0],
            1.0f32.to_bits()
        );
    }

    #[test]
    fn bc4_signed_and_unsigned() {
        // Endpoints 200 and 100 (a0 > a1: eight-value mode); every index 0 → 200.
        let b = [200, 100, 0, 0, 0, 0, 0, 0];
        assert_eq!(
            load_texel(38, NumFormat::Unorm, &b, 3, 3).unwrap(),
            [unorm_to_f32(200, 8).to_bits(), 0, 0, 1.0f32.to_bits()]
        );
        // As SNORM the same endpoint byte 200 is −56 → −56/127.
        assert_eq!(
            load_texel(38, NumFormat::Snorm, &b, 0, 0).unwrap()[0],
            (-56.0f32 / 127.0).to_bits()
        );
    }

    #[test]
    fn refusals() {
        assert!(load_texel(40, NumFormat::Float, &[0; 16], 0, 0)
            .unwrap_err()
            .contains("bc6"));
        assert!(load_texel(35, NumFormat::Snorm, &[0; 8], 0, 0).is_err());
        assert!(load_texel(38, NumFormat::Srgb, &[0; 8], 0, 0).is_err());
        assert!(load_texel(36, NumFormat::Unorm, &[0; 8], 0, 0).is_err());
    }
}
