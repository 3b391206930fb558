//! Block-compressed formats BC1–BC7: one texel of a 4×4 block, as the four
//! load values X, Y, Z, W before DST_SEL. Read-only (nothing encodes BCn).
//!
//! The block decoding itself is the `bcdec_rs` crate (a port of bcdec, which
//! follows Microsoft's "Texture Block Compression in Direct3D 11", the BC6H
//! and BC7 format references): it yields 8-bit RGBA (BC1–BC3, BC7), 8-bit
//! channels (BC4, BC5) or IEEE half floats (BC6H), which this module converts
//! with the ordinary load rules of [`super::convert`] — 8-bit UNORM/SNORM/sRGB,
//! and FLOAT 16 for BC6H. The hardware's own interpolation precision is not
//! public (D3D allows a tolerance), so the decoder's palette values are
//! gcnrun's documented choice (docs/errata.md X13). `shaders/bcn.wgsl` mirrors
//! the decoder's arithmetic bit for bit.
//!
//! BC6H's signedness: gfx6–gfx9 have one data format, BC6, and the number
//! format says which: Mesa's `ac_translate_tex_numformat`
//! (`src/amd/common/ac_formats.c`, before it radeonsi's
//! `si_translate_texformat`) programs SNORM for `BPTC_RGB_FLOAT` (signed, with
//! the comment "implies float, so use SNORM/UNORM to determine whether data is
//! signed or not") and UNORM for `BPTC_RGB_UFLOAT`. gfx10 names the same two
//! pairs BC6_UFLOAT (179) and BC6_SFLOAT (180).

use super::convert::{f16_to_f32, snorm_to_f32, srgb_to_linear, unorm_to_f32};
use super::error::FormatError;
use super::format::NumFormat;

/// A texel as the block decoder produces it, before number conversion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decoded {
    /// 8-bit R, G, B, A (BC1–BC3, BC7).
    Rgba8([u8; 4]),
    /// 8-bit channels, two's complement when signed (BC4: 1, BC5: 2).
    Channels8 {
        /// The channel bytes (BC4 leaves the second 0).
        c: [u8; 2],
        /// How many the format has.
        n: usize,
    },
    /// IEEE binary16 R, G, B (BC6H).
    Half3([u16; 3]),
}

/// One BCn data format: its IMG_DATA_FORMAT code (research/sampling.md §3.1),
/// name, block size, stored components, the number formats it has a meaning
/// for, and the decoder of one texel (block, texel index 0..15 in row order,
/// signed).
pub struct BcFormat {
    /// The T# data format code.
    pub code: u8,
    /// AMD's name (`bc1`).
    pub name: &'static str,
    /// Bytes per 4×4 block.
    pub bytes: usize,
    /// Components stored (BC4: X; BC5: X, Y; BC6: X, Y, Z; the others all four)
    /// — what a driver's DST_SEL reads as X..W rather than 0/1.
    pub components: usize,
    /// Number formats with a meaning: BC1–BC3/BC7 UNORM and SRGB; BC4/BC5
    /// UNORM and SNORM; BC6 UNORM (unsigned half floats, UF16) and SNORM
    /// (signed, SF16) — the gfx10 FORMAT list has exactly these pairs.
    pub nums: &'static [NumFormat],
    decode: fn(&[u8], usize, bool) -> Decoded,
}

use NumFormat::{Snorm, Srgb, Unorm};

/// Every BCn format, by code.
pub const BC_FORMATS: [BcFormat; 7] = [
    bc(35, "bc1", 8, 4, &[Unorm, Srgb], decode_bc1),
    bc(36, "bc2", 16, 4, &[Unorm, Srgb], decode_bc2),
    bc(37, "bc3", 16, 4, &[Unorm, Srgb], decode_bc3),
    bc(38, "bc4", 8, 1, &[Unorm, Snorm], decode_bc4),
    bc(39, "bc5", 16, 2, &[Unorm, Snorm], decode_bc5),
    bc(40, "bc6", 16, 3, &[Unorm, Snorm], decode_bc6h),
    bc(41, "bc7", 16, 4, &[Unorm, Srgb], decode_bc7),
];

const fn bc(
    code: u8,
    name: &'static str,
    bytes: usize,
    components: usize,
    nums: &'static [NumFormat],
    decode: fn(&[u8], usize, bool) -> Decoded,
) -> BcFormat {
    BcFormat {
        code,
        name,
        bytes,
        components,
        nums,
        decode,
    }
}

/// Runs a bcdec RGBA8 decoder over the block and keeps one texel.
fn rgba8(decode: fn(&[u8], &mut [u8], usize), block: &[u8], texel: usize) -> Decoded {
    let mut out = [0u8; 64];
    decode(block, &mut out, 16);
    let mut t = [0u8; 4];
    t.copy_from_slice(&out[4 * texel..4 * texel + 4]);
    Decoded::Rgba8(t)
}

/// WGSL twin: `bc1_texel` (which goes on to `convert`) in `shaders/bcn.wgsl` (docs/gpu.md,
/// "Twins").
fn decode_bc1(block: &[u8], texel: usize, _: bool) -> Decoded {
    rgba8(bcdec_rs::bc1, block, texel)
}

/// WGSL twin: `bc2_texel` (which goes on to `convert`) in `shaders/bcn.wgsl` (docs/gpu.md,
/// "Twins").
fn decode_bc2(block: &[u8], texel: usize, _: bool) -> Decoded {
    rgba8(bcdec_rs::bc2, block, texel)
}

/// WGSL twin: `bc3_texel` (which goes on to `convert`) in `shaders/bcn.wgsl` (docs/gpu.md,
/// "Twins").
fn decode_bc3(block: &[u8], texel: usize, _: bool) -> Decoded {
    rgba8(bcdec_rs::bc3, block, texel)
}

/// WGSL twin: `bc7_texel` (which goes on to `convert`) in `shaders/bcn.wgsl` (docs/gpu.md,
/// "Twins").
fn decode_bc7(block: &[u8], texel: usize, _: bool) -> Decoded {
    rgba8(bcdec_rs::bc7, block, texel)
}

/// WGSL twin: `bc4_texel` (which goes on to `convert`) in `shaders/bcn.wgsl` (docs/gpu.md,
/// "Twins").
fn decode_bc4(block: &[u8], texel: usize, signed: bool) -> Decoded {
    let mut out = [0u8; 16];
    bcdec_rs::bc4(block, &mut out, 4, signed);
    Decoded::Channels8 {
        c: [out[texel], 0],
        n: 1,
    }
}

/// WGSL twin: `bc5_texel` (which goes on to `convert`) in `shaders/bcn.wgsl` (docs/gpu.md,
/// "Twins").
fn decode_bc5(block: &[u8], texel: usize, signed: bool) -> Decoded {
    let mut out = [0u8; 32];
    bcdec_rs::bc5(block, &mut out, 8, signed);
    Decoded::Channels8 {
        c: [out[2 * texel], out[2 * texel + 1]],
        n: 2,
    }
}

/// WGSL twin: `bc6_texel` (which goes on to `convert`) in `shaders/bcn.wgsl` (docs/gpu.md,
/// "Twins").
fn decode_bc6h(block: &[u8], texel: usize, signed: bool) -> Decoded {
    let mut out = [0u16; 48];
    bcdec_rs::bc6h_half(block, &mut out, 12, signed);
    Decoded::Half3([out[3 * texel], out[3 * texel + 1], out[3 * texel + 2]])
}

/// The BCn format with data format `code`, if it is one.
pub fn format(code: u8) -> Option<&'static BcFormat> {
    BC_FORMATS.iter().find(|b| b.code == code)
}

/// Components a BCn format stores (4 for a code that is not BCn).
pub fn components(code: u8) -> usize {
    format(code).map_or(4, |b| b.components)
}

/// Checks that number format `nf` has a meaning for BCn data format `code`
/// (the error names both).
pub fn check(code: u8, nf: NumFormat) -> Result<&'static BcFormat, FormatError> {
    let f = format(code).ok_or(FormatError::NotBlock { code })?;
    if f.nums.contains(&nf) {
        Ok(f)
    } else {
        Err(FormatError::BlockNumFormat {
            format: f.name,
            num: nf,
            allowed: f.nums,
        })
    }
}

/// The decoded texel as X, Y, Z, W load values: 8-bit values as UNORM8
/// (sRGB: X, Y, Z decoded, W linear; sampling.md §3.3) or SNORM8, half floats
/// as FLOAT 16 (exact); components the format lacks read 0, 0, 0, 1.0
/// (`format::missing_component` for a float class).
///
/// WGSL twins: `bcn_rgba8_load` (`Decoded::Rgba8`), `bcn_channel8` (one channel of
/// `Decoded::Channels8`), `bcn_channels8_load` (`Decoded::Channels8`), `bcn_half3_load`
/// (`Decoded::Half3`) in `shaders/bcn.wgsl` (docs/gpu.md, "Twins").
pub fn convert(d: Decoded, nf: NumFormat) -> [u32; 4] {
    let one = 1.0f32.to_bits();
    let unorm = |c: u8| unorm_to_f32(c.into(), 8).to_bits();
    match d {
        Decoded::Rgba8(t) if nf == Srgb => [
            srgb_to_linear(unorm_to_f32(t[0].into(), 8)).to_bits(),
            srgb_to_linear(unorm_to_f32(t[1].into(), 8)).to_bits(),
            srgb_to_linear(unorm_to_f32(t[2].into(), 8)).to_bits(),
            unorm(t[3]),
        ],
        Decoded::Rgba8(t) => t.map(unorm),
        Decoded::Channels8 { c, n } => {
            let conv = |c: u8| {
                if nf == Snorm {
                    snorm_to_f32(c.into(), 8).to_bits()
                } else {
                    unorm(c)
                }
            };
            [conv(c[0]), if n == 2 { conv(c[1]) } else { 0 }, 0, one]
        }
        Decoded::Half3(h) => [
            f16_to_f32(h[0]).to_bits(),
            f16_to_f32(h[1]).to_bits(),
            f16_to_f32(h[2]).to_bits(),
            one,
        ],
    }
}

/// Texel `(x % 4, y % 4)` of `block` (at least the format's block size) of
/// BCn data format `code` with number format `nf`, before conversion. SNORM
/// selects the signed decoders of BC4, BC5 and BC6H.
///
/// WGSL twin: `bcn_texel_index` (its texel index `4 × (y % 4) + x % 4`) in `shaders/bcn.wgsl`
/// (docs/gpu.md, "Twins").
pub fn decode_texel(
    code: u8,
    nf: NumFormat,
    block: &[u8],
    x: u32,
    y: u32,
) -> Result<Decoded, FormatError> {
    let f = check(code, nf)?;
    let block = block
        .get(..f.bytes)
        .ok_or(FormatError::ShortBlock { format: f.name })?;
    let texel = (4 * (y % 4) + x % 4) as usize;
    Ok((f.decode)(block, texel, nf == Snorm))
}

/// Texel `(x % 4, y % 4)` of `block` of BCn data format `code` with number
/// format `nf`: X, Y, Z, W as 32-bit load values ([`decode_texel`], then
/// [`convert`]). Errors name a number format the format has no meaning for,
/// or a short block.
pub fn load_texel(
    code: u8,
    nf: NumFormat,
    block: &[u8],
    x: u32,
    y: u32,
) -> Result<[u32; 4], FormatError> {
    decode_texel(code, nf, block, x, y).map(|d| convert(d, nf))
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

    /// A 128-bit block from (first bit, width, value) fields, bit 0 = bit 0 of
    /// byte 0 (the BC6H/BC7 bit order).
    fn block128(fields: &[(u32, u32, u64)]) -> [u8; 16] {
        let mut v = 0u128;
        for &(at, width, value) in fields {
            assert!(value < 1 << width);
            v |= u128::from(value) << at;
        }
        v.to_le_bytes()
    }

    /// The half-float bits of a BC6H texel (its X, Y, Z as f32 → f16 exactly).
    fn halves(t: [u32; 4]) -> [u16; 3] {
        assert_eq!(t[3], 1.0f32.to_bits(), "W reads 1.0");
        [0, 1, 2].map(|c| crate::texture::convert::f32_to_f16(f32::from_bits(t[c])))
    }

    /// BC6H mode 11 (mode bits 00011; the D3D table's mode 11, bcdec's index
    /// 10): one region, endpoints stored whole as 10-bit values, no deltas.
    /// Fields after the 5 mode bits: rw[9:0] at 5, gw at 15, bw at 25, rx at
    /// 35, gx at 45, bx at 55; then 4-bit indices from bit 65, texel 0 (the
    /// anchor) with 3 bits.
    fn bc6h_mode11() -> [u8; 16] {
        block128(&[
            (0, 5, 0b00011),
            (5, 10, 0x3ff),  // rw
            (15, 10, 0x200), // gw
            (45, 10, 0x3ff), // gx
            (65, 3, 0),      // texel 0: index 0 (weight 0: endpoint w)
            (68, 4, 15),     // texel 1: index 15 (weight 64: endpoint x)
        ])
    }

    #[test]
    fn bc6h_mode11_unsigned() {
        let b = bc6h_mode11();
        // Unsigned unquantize of a 10-bit e: 0x3ff (the maximum) → 0xffff;
        // 0x200 → ((512 << 16) + 0x8000) >> 10 = 32800; 0 → 0. Weight 0 keeps
        // endpoint w ((64·a + 32) >> 6 = a), then the final scale ·31/64:
        // R = 0xffff·31 >> 6 = 0x7bff (65504, the largest half);
        // G = 32800·31 >> 6 = 15887 = 0x3e0f (1 + 527/1024); B = 0.
        let t0 = load_texel(40, NumFormat::Unorm, &b, 0, 0).unwrap();
        assert_eq!(halves(t0), [0x7bff, 0x3e0f, 0]);
        assert_eq!(f32::from_bits(t0[1]), 1.0 + 527.0 / 1024.0);
        // Texel 1, weight 64: endpoint x = (0, 0xffff, 0) → (0, 0x7bff, 0).
        let t1 = load_texel(40, NumFormat::Unorm, &b, 1, 0).unwrap();
        assert_eq!(halves(t1), [0, 0x7bff, 0]);
        assert_eq!(f32::from_bits(t1[1]), 65504.0);
    }

    #[test]
    fn bc6h_mode11_signed() {
        let b = bc6h_mode11();
        // Signed: rw = 0x3ff sign-extends to −1; unquantize |−1| = 1:
        // ((1 << 15) + 0x4000) >> 9 = 96 → −96; scale ·31/32: −(96·31 >> 5) =
        // −93 → sign-magnitude 0x8000 | 93 = 0x805d (a denormal half,
        // −93·2^−24). gw = 0x200 is −512, |−512| ≥ 2^9 − 1 → 0x7fff → −32767 →
        // −(32767·31 >> 5) = −31743 → 0xfbff (−65504).
        let t0 = load_texel(40, NumFormat::Snorm, &b, 0, 0).unwrap();
        assert_eq!(halves(t0), [0x805d, 0xfbff, 0]);
        assert_eq!(f32::from_bits(t0[0]), -93.0 / 16_777_216.0);
        // Texel 1: endpoint x = (0, gx = 0x3ff = −1 → 0x805d, 0).
        let t1 = load_texel(40, NumFormat::Snorm, &b, 1, 0).unwrap();
        assert_eq!(halves(t1), [0, 0x805d, 0]);
    }

    /// BC6H mode 3 (mode bits 00010; bcdec's index 2): two regions, an 11-bit
    /// base endpoint and 5/4/4-bit deltas (R/G/B) added to it. Fields: rw[9:0]
    /// at 5, rx[4:0] at 35, rw[10] at 40, the partition d[4:0] at 77; indices
    /// from bit 82, 3 bits each, 2 for texel 0 and for region 1's anchor.
    #[test]
    fn bc6h_mode3_delta() {
        let b = block128(&[
            (0, 5, 0b00010),
            (40, 1, 1),       // rw[10]: rw = 0x400 = 1024
            (35, 5, 0b11111), // rx: delta −1 → rx = 1024 − 1 = 1023
            (77, 5, 0),       // partition 0: texels 0 and 1 in region 0
            (82, 2, 3),       // texel 0: index 3 (3-bit weight table: 27)
            (84, 3, 0),       // texel 1: index 0
        ]);
        // Unquantize (11 bits): 1024 → ((1024 << 16) + 0x8000) >> 11 = 32784;
        // 1023 → 32752. Texel 1, weight 0: 32784 · 31 >> 6 = 15879 = 0x3e07
        // (1 + 519/1024).
        let t1 = load_texel(40, NumFormat::Unorm, &b, 1, 0).unwrap();
        assert_eq!(halves(t1), [0x3e07, 0, 0]);
        // Texel 0, weight 27: (32784·37 + 32752·27 + 32) >> 6 = 32771;
        // 32771 · 31 >> 6 = 15873 = 0x3e01 (exponent 15, mantissa 0x201:
        // 1 + 513/1024).
        let t0 = load_texel(40, NumFormat::Unorm, &b, 0, 0).unwrap();
        assert_eq!(halves(t0), [0x3e01, 0, 0]);
        assert_eq!(f32::from_bits(t0[0]), 1.0 + 513.0 / 1024.0);
    }

    #[test]
    fn bc6h_reserved_mode_reads_zero() {
        // Mode bits 10011 are reserved: every channel 0, W still 1.0.
        let b = block128(&[(0, 5, 0b10011), (5, 10, 0x3ff)]);
        assert_eq!(
            load_texel(40, NumFormat::Unorm, &b, 2, 2).unwrap(),
            [0, 0, 0, 1.0f32.to_bits()]
        );
    }

    #[test]
    fn refusals() {
        assert!(load_texel(40, NumFormat::Float, &[0; 16], 0, 0)
            .unwrap_err()
            .to_string()
            .contains("bc6"));
        assert!(load_texel(40, NumFormat::Srgb, &[0; 16], 0, 0).is_err());
        assert!(load_texel(35, NumFormat::Snorm, &[0; 8], 0, 0).is_err());
        assert!(load_texel(38, NumFormat::Srgb, &[0; 8], 0, 0).is_err());
        assert!(load_texel(36, NumFormat::Unorm, &[0; 8], 0, 0)
            .unwrap_err()
            .to_string()
            .contains("short block"));
        assert!(load_texel(10, NumFormat::Unorm, &[0; 16], 0, 0).is_err());
    }
}
