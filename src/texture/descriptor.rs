//! Image (T#) and sampler (S#) descriptors: the dwords a kernel finds in SGPRs,
//! decoded into one model and encoded back (research/sampling.md §1–§2).
//!
//! Bit positions are data: one table of `(field, first bit, width)` per layout
//! family (gfx6–gfx8, gfx9 for T#; gfx6–gfx9 for S#), read and written by the same
//! two helpers. gfx10's combined 9-bit FORMAT field is not modelled yet: a gfx10+
//! T# is refused by name rather than misread.

use super::format::{check, data_format, NumFormat};
use crate::arch::Gen;

/// A bit field of a descriptor: absolute first bit (word * 32 + bit) and width.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bits {
    /// First bit, counting from bit 0 of dword 0.
    pub lo: u16,
    /// Width in bits (1..=32).
    pub width: u8,
}

const fn b(lo: u16, width: u8) -> Bits {
    Bits { lo, width }
}

/// Reads a field from descriptor dwords (bits past the end read 0).
pub fn get(dw: &[u32], f: Bits) -> u32 {
    let mut v = 0u64;
    for (i, word) in [f.lo / 32, f.lo / 32 + 1].into_iter().enumerate() {
        if let Some(&w) = dw.get(usize::from(word)) {
            v |= u64::from(w) << (32 * i);
        }
    }
    ((v >> (f.lo % 32)) & ((1u64 << f.width) - 1)) as u32
}

/// Writes a field into descriptor dwords (value truncated to the width).
pub fn set(dw: &mut [u32], f: Bits, value: u32) {
    for bit in 0..u16::from(f.width) {
        let pos = f.lo + bit;
        if let Some(w) = dw.get_mut(usize::from(pos / 32)) {
            let mask = 1u32 << (pos % 32);
            if (value >> bit) & 1 == 1 {
                *w |= mask;
            } else {
                *w &= !mask;
            }
        }
    }
}

/// T# field positions of one layout family (sampling.md §1.2, §1.3).
struct TLayout {
    base_lo: Bits,
    base_hi: Bits,
    min_lod: Bits,
    data_format: Bits,
    num_format: Bits,
    width: Bits,
    height: Bits,
    dst_sel: [Bits; 4],
    base_level: Bits,
    last_level: Bits,
    tiling: Bits,
    kind: Bits,
    depth: Bits,
    pitch: Bits,
    base_array: Bits,
    /// gfx6–gfx8: LAST_ARRAY; gfx9 has none (DEPTH holds the last slice).
    last_array: Option<Bits>,
}

const T_GFX6: TLayout = TLayout {
    base_lo: b(0, 32),
    base_hi: b(32, 8),
    min_lod: b(40, 12),
    data_format: b(52, 6),
    num_format: b(58, 4),
    width: b(64, 14),
    height: b(78, 14),
    dst_sel: [b(96, 3), b(99, 3), b(102, 3), b(105, 3)],
    base_level: b(108, 4),
    last_level: b(112, 4),
    tiling: b(116, 5),
    kind: b(124, 4),
    depth: b(128, 13),
    pitch: b(141, 14),
    base_array: b(160, 13),
    last_array: Some(b(173, 13)),
};

const T_GFX9: TLayout = TLayout {
    pitch: b(141, 16),
    last_array: None,
    ..T_GFX6
};

/// Resource type (T# TYPE, `SQ_RSRC_IMG_*`): 8 = 1D … 15 = 2D MSAA array.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImageType {
    /// 1D.
    D1,
    /// 2D.
    D2,
    /// 3D.
    D3,
    /// Cube (6 faces as slices).
    Cube,
    /// 1D array.
    D1Array,
    /// 2D array.
    D2Array,
    /// 2D multisampled.
    D2Msaa,
    /// 2D multisampled array.
    D2MsaaArray,
}

const TYPES: [ImageType; 8] = [
    ImageType::D1,
    ImageType::D2,
    ImageType::D3,
    ImageType::Cube,
    ImageType::D1Array,
    ImageType::D2Array,
    ImageType::D2Msaa,
    ImageType::D2MsaaArray,
];

impl ImageType {
    /// The T# TYPE code (8..=15).
    pub fn code(self) -> u32 {
        8 + TYPES.iter().position(|&t| t == self).unwrap_or(0) as u32
    }
    /// From the gfx10 `DIM` number (0..=7), which has the same order.
    pub fn from_dim(dim: u8) -> Option<ImageType> {
        TYPES.get(usize::from(dim)).copied()
    }
}

/// A decoded image descriptor, the same for every generation it came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ImageDesc {
    /// Byte address of mip 0 (256-byte aligned).
    pub base_address: u64,
    /// Resource LOD clamp, unsigned 4.8 fixed point.
    pub min_lod: u32,
    /// `IMG_DATA_FORMAT`.
    pub data_format: u8,
    /// `IMG_NUM_FORMAT`.
    pub num_format: u8,
    /// Width of mip 0.
    pub width: u32,
    /// Height of mip 0.
    pub height: u32,
    /// 3D: depth; arrays: the DEPTH field + 1 as the generation defines it.
    pub depth: u32,
    /// Row pitch in texels.
    pub pitch: u32,
    /// DST_SEL for X, Y, Z, W (0 = 0, 1 = 1, 4..7 = X..W).
    pub dst_sel: [u8; 4],
    /// First mip level of the view.
    pub base_level: u8,
    /// Last mip level (MSAA: log2 of the sample count).
    pub last_level: u8,
    /// TILING_INDEX (gfx6–8) / SW_MODE (gfx9): gcnrun supports linear only.
    pub tiling: u8,
    /// Resource type.
    pub image_type: ImageType,
    /// First array slice of the view.
    pub base_array: u32,
    /// Last array slice of the view (gfx6–8 LAST_ARRAY; gfx9: the DEPTH field).
    pub last_array: u32,
}

/// What a T# in SGPRs is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Image {
    /// No resource: all dwords zero, or a TYPE below 8 (sampling.md §5.14, the
    /// documented rule). Loads return 0, stores and atomics are dropped.
    Unbound,
    /// A null view: a valid TYPE with DATA_FORMAT 0 (radeonsi's null texture).
    /// Loads return just the DST_SEL constants; stores and atomics are dropped.
    Null {
        /// DST_SEL for X, Y, Z, W.
        dst_sel: [u8; 4],
    },
    /// A valid descriptor.
    Bound(ImageDesc),
}

fn t_layout(gen: Gen) -> Result<&'static TLayout, String> {
    match gen {
        Gen::Gfx6 | Gen::Gfx7 | Gen::Gfx8 => Ok(&T_GFX6),
        Gen::Gfx9 => Ok(&T_GFX9),
        Gen::Gfx10 | Gen::Gfx11 => Err(format!(
            "{} image descriptors (combined FORMAT field) are not modelled yet",
            gen.name()
        )),
    }
}

/// Decodes a T# (8 dwords; for a 128-bit T# pass 4 and the rest read as zero).
/// Never panics; an invalid field is an error naming it.
pub fn decode_image(dw: &[u32], gen: Gen) -> Result<Image, String> {
    if dw.iter().all(|&w| w == 0) {
        return Ok(Image::Unbound);
    }
    let l = t_layout(gen)?;
    let g = |f: Bits| get(dw, f);
    let kind = g(l.kind);
    let Some(image_type) = kind
        .checked_sub(8)
        .and_then(|d| ImageType::from_dim(d as u8))
    else {
        return Ok(Image::Unbound);
    };
    let dfmt = g(l.data_format) as u8;
    if dfmt == 0 {
        return Ok(Image::Null {
            dst_sel: l.dst_sel.map(|f| g(f) as u8),
        });
    }
    let nfmt = g(l.num_format) as u8;
    let df = data_format(dfmt).ok_or_else(|| format!("T# data_format {dfmt} is not supported"))?;
    let nf = NumFormat::from_code(nfmt)
        .ok_or_else(|| format!("T# num_format {nfmt} is not supported"))?;
    check(df, nf).map_err(|e| format!("T# format: {e}"))?;
    let dst_sel = l.dst_sel.map(|f| g(f) as u8);
    if let Some(s) = dst_sel.iter().find(|&&s| s == 2 || s == 3) {
        return Err(format!("T# dst_sel {s} is reserved"));
    }
    let depth = g(l.depth) + 1;
    let last_array = match l.last_array {
        Some(f) => g(f),
        None => g(l.depth),
    };
    Ok(Image::Bound(ImageDesc {
        base_address: (u64::from(g(l.base_lo)) << 8) | (u64::from(g(l.base_hi)) << 40),
        min_lod: g(l.min_lod),
        data_format: dfmt,
        num_format: nfmt,
        width: g(l.width) + 1,
        height: g(l.height) + 1,
        depth,
        pitch: g(l.pitch) + 1,
        dst_sel,
        base_level: g(l.base_level) as u8,
        last_level: g(l.last_level) as u8,
        tiling: g(l.tiling) as u8,
        image_type,
        base_array: g(l.base_array),
        last_array,
    }))
}

/// Encodes a T# (8 dwords). Fields wider than their bit field are truncated;
/// [`decode_image`] of the result gives `d` back for every representable `d`.
pub fn encode_image(d: &ImageDesc, gen: Gen) -> Result<[u32; 8], String> {
    let l = t_layout(gen)?;
    let mut dw = [0u32; 8];
    let mut s = |f: Bits, v: u32| set(&mut dw, f, v);
    s(l.base_lo, (d.base_address >> 8) as u32);
    s(l.base_hi, (d.base_address >> 40) as u32);
    s(l.min_lod, d.min_lod);
    s(l.data_format, d.data_format.into());
    s(l.num_format, d.num_format.into());
    s(l.width, d.width.wrapping_sub(1));
    s(l.height, d.height.wrapping_sub(1));
    for (f, &v) in l.dst_sel.iter().zip(&d.dst_sel) {
        s(*f, v.into());
    }
    s(l.base_level, d.base_level.into());
    s(l.last_level, d.last_level.into());
    s(l.tiling, d.tiling.into());
    s(l.kind, d.image_type.code());
    s(l.pitch, d.pitch.wrapping_sub(1));
    s(l.base_array, d.base_array);
    match l.last_array {
        Some(f) => {
            s(l.depth, d.depth.wrapping_sub(1));
            s(f, d.last_array);
        }
        // gfx9: DEPTH holds the last slice for arrays, depth − 1 for 3D.
        None => s(l.depth, d.depth.wrapping_sub(1)),
    }
    Ok(dw)
}

/// S# field positions, gfx6–gfx9 (sampling.md §2.1).
mod s_bits {
    use super::{b, Bits};
    pub const CLAMP: [Bits; 3] = [b(0, 3), b(3, 3), b(6, 3)];
    pub const MAX_ANISO: Bits = b(9, 3);
    pub const COMPARE: Bits = b(12, 3);
    pub const FORCE_UNNORM: Bits = b(15, 1);
    pub const FORCE_DEGAMMA: Bits = b(20, 1);
    pub const DISABLE_CUBE_WRAP: Bits = b(28, 1);
    pub const FILTER_MODE: Bits = b(29, 2);
    pub const MIN_LOD: Bits = b(32, 12);
    pub const MAX_LOD: Bits = b(44, 12);
    pub const LOD_BIAS: Bits = b(64, 14);
    pub const MAG: Bits = b(84, 2);
    pub const MIN: Bits = b(86, 2);
    pub const Z_FILTER: Bits = b(88, 2);
    pub const MIP: Bits = b(90, 2);
    pub const BORDER_PTR: Bits = b(96, 12);
    pub const BORDER_TYPE: Bits = b(126, 2);
}

/// A decoded sampler descriptor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SamplerDesc {
    /// `SQ_TEX_CLAMP` for x, y, z.
    pub clamp: [u8; 3],
    /// Anisotropy: 0 = 1x … 4 = 16x.
    pub max_aniso: u8,
    /// `SQ_TEX_DEPTH_COMPARE`.
    pub compare: u8,
    /// Coordinates in texels (ORed with the instruction's UNORM bit).
    pub force_unnormalized: bool,
    /// sRGB-decode RGB whatever the number format.
    pub force_degamma: bool,
    /// No seamless filtering across cube faces.
    pub disable_cube_wrap: bool,
    /// 0 blend, 1 min, 2 max.
    pub filter_mode: u8,
    /// Unsigned 4.8 fixed point.
    pub min_lod: u16,
    /// Unsigned 4.8 fixed point.
    pub max_lod: u16,
    /// Signed 14-bit, 8 fractional bits.
    pub lod_bias: i16,
    /// 0 point, 1 bilinear (2, 3 aniso variants).
    pub mag_filter: u8,
    /// Min filter, as mag.
    pub min_filter: u8,
    /// 0 none, 1 point, 2 linear.
    pub z_filter: u8,
    /// 0 none, 1 point, 2 linear.
    pub mip_filter: u8,
    /// Border-colour table index (type 3).
    pub border_ptr: u16,
    /// 0 transparent black, 1 opaque black, 2 opaque white, 3 register table.
    pub border_type: u8,
}

/// Decodes an S# (4 dwords, gfx6–gfx9 layout; gfx10 keeps these positions for the
/// fields modelled here, sampling.md §2.1).
pub fn decode_sampler(dw: &[u32]) -> SamplerDesc {
    use s_bits::*;
    let g = |f: Bits| get(dw, f);
    SamplerDesc {
        clamp: CLAMP.map(|f| g(f) as u8),
        max_aniso: g(MAX_ANISO) as u8,
        compare: g(COMPARE) as u8,
        force_unnormalized: g(FORCE_UNNORM) == 1,
        force_degamma: g(FORCE_DEGAMMA) == 1,
        disable_cube_wrap: g(DISABLE_CUBE_WRAP) == 1,
        filter_mode: g(FILTER_MODE) as u8,
        min_lod: g(MIN_LOD) as u16,
        max_lod: g(MAX_LOD) as u16,
        lod_bias: super::convert::sign_extend(g(LOD_BIAS), 14) as i16,
        mag_filter: g(MAG) as u8,
        min_filter: g(MIN) as u8,
        z_filter: g(Z_FILTER) as u8,
        mip_filter: g(MIP) as u8,
        border_ptr: g(BORDER_PTR) as u16,
        border_type: g(BORDER_TYPE) as u8,
    }
}

/// Encodes an S# (4 dwords).
pub fn encode_sampler(d: &SamplerDesc) -> [u32; 4] {
    use s_bits::*;
    let mut dw = [0u32; 4];
    let mut s = |f: Bits, v: u32| set(&mut dw, f, v);
    for (f, &v) in CLAMP.iter().zip(&d.clamp) {
        s(*f, v.into());
    }
    s(MAX_ANISO, d.max_aniso.into());
    s(COMPARE, d.compare.into());
    s(FORCE_UNNORM, d.force_unnormalized.into());
    s(FORCE_DEGAMMA, d.force_degamma.into());
    s(DISABLE_CUBE_WRAP, d.disable_cube_wrap.into());
    s(FILTER_MODE, d.filter_mode.into());
    s(MIN_LOD, d.min_lod.into());
    s(MAX_LOD, d.max_lod.into());
    s(LOD_BIAS, d.lod_bias as u32);
    s(MAG, d.mag_filter.into());
    s(MIN, d.min_filter.into());
    s(Z_FILTER, d.z_filter.into());
    s(MIP, d.mip_filter.into());
    s(BORDER_PTR, d.border_ptr.into());
    s(BORDER_TYPE, d.border_type.into());
    dw
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_helpers_span_words() {
        let mut dw = [0u32; 8];
        // A 16-bit field starting at bit 24 spans words 0 and 1.
        set(&mut dw, b(24, 16), 0xabcd);
        assert_eq!(dw[0], 0xcd00_0000);
        assert_eq!(dw[1], 0x0000_00ab);
        assert_eq!(get(&dw, b(24, 16)), 0xabcd);
    }

    #[test]
    fn hand_encoded_t_sharp() {
        // A 64x32 8_8_8_8 UNORM 2D image at 0x1_0000_0000, identity swizzle,
        // levels 0..6, linear (tiling 8 on gfx6-8 tables), pitch 64.
        let d = ImageDesc {
            base_address: 0x1_0000_0000,
            min_lod: 0,
            data_format: 10,
            num_format: 0,
            width: 64,
            height: 32,
            depth: 1,
            pitch: 64,
            dst_sel: [4, 5, 6, 7],
            base_level: 0,
            last_level: 6,
            tiling: 8,
            image_type: ImageType::D2,
            base_array: 0,
            last_array: 0,
        };
        let dw = encode_image(&d, Gen::Gfx7).unwrap();
        // W0 = address >> 8 = 0x0100_0000; W1 = data_format 10 << 20.
        assert_eq!(dw[0], 0x0100_0000);
        assert_eq!(dw[1], 10 << 20);
        // W2 = (width-1) | (height-1) << 14 = 63 | 31 << 14.
        assert_eq!(dw[2], 63 | (31 << 14));
        // W3: dst_sel 4,5,6,7 = 0b111_110_101_100; last_level 6 << 16; tiling 8 << 20;
        // type 9 (2D) << 28.
        assert_eq!(dw[3], 0xfac | (6 << 16) | (8 << 20) | (9 << 28));
        // W4: pitch-1 = 63 at bit 13.
        assert_eq!(dw[4], 63 << 13);
        assert_eq!(decode_image(&dw, Gen::Gfx7), Ok(Image::Bound(d)));
    }

    #[test]
    fn unbound_and_invalid() {
        assert_eq!(decode_image(&[0; 8], Gen::Gfx8), Ok(Image::Unbound));
        // TYPE below 8 (here 0, with an address) is no image resource: unbound.
        assert_eq!(
            decode_image(&[1, 0, 0, 0, 0, 0, 0, 0], Gen::Gfx8),
            Ok(Image::Unbound)
        );
        // radeonsi's null texture: TYPE 1D (8), DST_SEL_W = SEL_1 (bits 11:9 = 1),
        // everything else 0: a null view returning (0, 0, 0, 1).
        assert_eq!(
            decode_image(&[0, 0, 0, (8 << 28) | (1 << 9), 0, 0, 0, 0], Gen::Gfx8),
            Ok(Image::Null {
                dst_sel: [0, 0, 0, 1]
            })
        );
        // A supported type with an unsupported data format is an error.
        assert!(
            decode_image(&[0, 63 << 20, 0, 9 << 28, 0, 0, 0, 0], Gen::Gfx8)
                .unwrap_err()
                .contains("data_format")
        );
        assert!(decode_image(&[1; 8], Gen::Gfx10).is_err());
    }

    #[test]
    fn hand_encoded_s_sharp() {
        // wrap/wrap/clamp_last_texel, bilinear min/mag, linear mip, bias −1.5.
        let d = SamplerDesc {
            clamp: [0, 0, 2],
            max_aniso: 0,
            compare: 0,
            force_unnormalized: false,
            force_degamma: false,
            disable_cube_wrap: false,
            filter_mode: 0,
            min_lod: 0,
            max_lod: 15 * 256,
            lod_bias: -384,
            mag_filter: 1,
            min_filter: 1,
            z_filter: 0,
            mip_filter: 2,
            border_ptr: 0,
            border_type: 0,
        };
        let dw = encode_sampler(&d);
        assert_eq!(dw[0], 2 << 6);
        assert_eq!(dw[1], (15 * 256) << 12);
        // −384 in 14-bit two's complement = 0x3e80; filters at bits 84..91 of the S#.
        assert_eq!(dw[2], 0x3e80 | (1 << 20) | (1 << 22) | (2 << 26));
        assert_eq!(decode_sampler(&dw), d);
    }
}
