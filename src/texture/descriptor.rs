//! Image (T#) and sampler (S#) descriptors: the dwords a kernel finds in SGPRs,
//! decoded into one model and encoded back (research/sampling.md §1–§2).
//!
//! Bit positions are data: one table of `(field, first bit, width)` per layout
//! family — T# gfx6–gfx8 (§1.2), gfx9 (§1.3), gfx10/gfx10.3 (§1.4, Mesa
//! `gfx10-rsrc.json`) and gfx11 (`T_GFX11`), S# gfx6–gfx10 (§2.1) and gfx11 —
//! read and written by the same two helpers, so decoding and encoding cannot
//! disagree.
//!
//! Decoding never panics and never guesses: a field gcnrun cannot interpret is an
//! error naming it (`T# num_format = 6 is not supported`).

use super::error::{Desc, DescriptorError};
use super::format::{
    check, combined_code, combined_format, data_format, Gfx10Run, NumFormat, GFX10_FORMATS,
    GFX11_FORMATS,
};
use super::swizzle::dst_sel_from_codes;
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

impl Bits {
    /// The largest value the field holds.
    pub fn max(self) -> u32 {
        ((1u64 << self.width) - 1) as u32
    }
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

/// Where a T# keeps its format.
enum FormatBits {
    /// gfx6–gfx9: `DATA_FORMAT` (6 bits) and `NUM_FORMAT` (4 bits).
    Split { data: Bits, num: Bits },
    /// gfx10+: one combined `FORMAT` field, its codes listed by `table`
    /// ([`GFX10_FORMATS`], [`GFX11_FORMATS`]).
    Combined {
        /// The field.
        bits: Bits,
        /// The generation's code table.
        table: &'static [Gfx10Run],
    },
}

/// T# field positions of one layout family.
struct TLayout {
    base_lo: Bits,
    base_hi: Bits,
    /// MIN_LOD (4.8 fixed point), low piece first (gfx11 splits it: W5[31:27]
    /// then W6[6:0]).
    min_lod: &'static [Bits],
    format: FormatBits,
    /// WIDTH − 1, low piece first (gfx10 splits it: W1[31:30] then W2[11:0]).
    width: &'static [Bits],
    height: Bits,
    dst_sel: [Bits; 4],
    base_level: Bits,
    last_level: Bits,
    /// TILING_INDEX (gfx6–gfx8) / SW_MODE (gfx9+).
    tiling: Bits,
    kind: Bits,
    depth: Bits,
    /// gfx6–gfx9: PITCH − 1; gfx10 has none (the hardware derives the pitch).
    pitch: Option<Bits>,
    base_array: Bits,
    /// gfx6–gfx8: LAST_ARRAY; gfx9+ have none (DEPTH holds the last slice).
    last_array: Option<Bits>,
    /// gfx10: RESOURCE_LEVEL, "must be 1" (Mesa gfx10-rsrc.json W2[31]).
    resource_level: Option<Bits>,
}

/// gfx6–gfx8 (sampling.md §1.2).
const T_GFX6: TLayout = TLayout {
    base_lo: b(0, 32),
    base_hi: b(32, 8),
    min_lod: &[b(40, 12)],
    format: FormatBits::Split {
        data: b(52, 6),
        num: b(58, 4),
    },
    width: &[b(64, 14)],
    height: b(78, 14),
    dst_sel: [b(96, 3), b(99, 3), b(102, 3), b(105, 3)],
    base_level: b(108, 4),
    last_level: b(112, 4),
    tiling: b(116, 5),
    kind: b(124, 4),
    depth: b(128, 13),
    pitch: Some(b(141, 14)),
    base_array: b(160, 13),
    last_array: Some(b(173, 13)),
    resource_level: None,
};

/// gfx9: 16-bit PITCH, no LAST_ARRAY (sampling.md §1.3).
const T_GFX9: TLayout = TLayout {
    pitch: Some(b(141, 16)),
    last_array: None,
    ..T_GFX6
};

/// gfx10 / gfx10.3 (sampling.md §1.4; Mesa `gfx10-rsrc.json` SQ_IMG_RSRC_WORD1–5):
/// FORMAT W1[28:20], WIDTH split over W1[31:30] and W2[11:0], RESOURCE_LEVEL
/// W2[31], BASE_ARRAY W4[28:16], no PITCH and no LAST_ARRAY. gfx10.3's custom
/// linear pitch (an overlay of W4 for 1D/2D) is not modelled.
const T_GFX10: TLayout = TLayout {
    format: FormatBits::Combined {
        bits: b(52, 9),
        table: GFX10_FORMATS,
    },
    width: &[b(62, 2), b(64, 12)],
    pitch: None,
    base_array: b(144, 13),
    last_array: None,
    resource_level: Some(b(95, 1)),
    ..T_GFX6
};

/// gfx11 (RDNA3): the gfx10 layout with three changes (ROCm ROCR-Runtime
/// `src/image/resource_gfx11.h` SQ_IMG_RSRC_WORD1–6; PAL `sq_img_rsrc_t` `gfx11`
/// view; Mesa `ac_build_gfx10_texture_descriptor`, which writes the gfx11 fields
/// under `gfx_level >= GFX11`):
/// - FORMAT is 8 bits, W1[27:20], with its own numbering ([`GFX11_FORMATS`]);
///   W1[19:16] is MAX_MIP, W1[15] BIG_PAGE, W1[14:13] LLC_NOALLOC (not modelled);
/// - MIN_LOD left W1[19:8]: MIN_LOD_LO is W5[31:27] (its 5 low bits) and
///   MIN_LOD_HI W6[6:0] (Mesa `S_00A014_MIN_LOD_LO_GFX11(v)`,
///   `S_00A018_MIN_LOD_HI(v >> 5)`);
/// - no RESOURCE_LEVEL: Mesa writes `RESOURCE_LEVEL(gfx_level < GFX11)` and W2[31]
///   is unnamed in both AMD headers, so an all-zero T# is unbound with no
///   exception.
///
/// W2 WIDTH_HI/HEIGHT, W3 and W4 DEPTH/BASE_ARRAY keep their gfx10 places.
const T_GFX11: TLayout = TLayout {
    min_lod: &[b(187, 5), b(192, 7)],
    format: FormatBits::Combined {
        bits: b(52, 8),
        table: GFX11_FORMATS,
    },
    resource_level: None,
    ..T_GFX10
};

pub use crate::ir::image::ImageType;

/// The T# TYPE code of an image type (`SQ_RSRC_IMG_*`: 8 = 1D … 15 = 2D MSAA
/// array, in [`ImageType::ALL`] order).
pub fn type_code(t: ImageType) -> u32 {
    8 + t.index() as u32
}

/// A decoded image descriptor, the same for every generation it came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ImageDesc {
    /// Byte address of mip 0 (256-byte aligned).
    pub base_address: u64,
    /// Resource LOD clamp, unsigned 4.8 fixed point.
    pub min_lod: u32,
    /// `IMG_DATA_FORMAT` (gfx10's FORMAT is mapped onto this pair).
    pub data_format: u8,
    /// `IMG_NUM_FORMAT`.
    pub num_format: u8,
    /// Width of mip 0.
    pub width: u32,
    /// Height of mip 0.
    pub height: u32,
    /// 3D: depth; arrays: the DEPTH field + 1 as the generation defines it.
    pub depth: u32,
    /// Row pitch in texels (gfx10: the width; the hardware derives its pitch).
    pub pitch: u32,
    /// DST_SEL for X, Y, Z, W (0 = 0, 1 = 1, 4..7 = X..W; see [`super::swizzle`]).
    pub dst_sel: [u8; 4],
    /// First mip level of the view.
    pub base_level: u8,
    /// Last mip level (MSAA: log2 of the sample count).
    pub last_level: u8,
    /// TILING_INDEX (gfx6–8) / SW_MODE (gfx9+): gcnrun supports linear only.
    pub tiling: u8,
    /// Resource type.
    pub image_type: ImageType,
    /// First array slice of the view.
    pub base_array: u32,
    /// Last array slice of the view (gfx6–8 LAST_ARRAY; gfx9+: the DEPTH field).
    pub last_array: u32,
}

/// What a T# in SGPRs is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Image {
    /// No resource: all dwords zero (gfx10: RESOURCE_LEVEL aside, "when checking
    /// for all zeros the resource-level field is ignored", RDNA ISA §image
    /// resource), or a TYPE below 8 (sampling.md §5.14, the documented rule).
    /// Loads return 0, stores and atomics are dropped.
    Unbound,
    /// A null view: a valid TYPE with DATA_FORMAT (gfx10: FORMAT) 0, radeonsi's
    /// null texture. Loads return just the DST_SEL constants; stores and atomics
    /// are dropped.
    Null {
        /// DST_SEL for X, Y, Z, W.
        dst_sel: [u8; 4],
    },
    /// A valid descriptor.
    Bound(ImageDesc),
}

fn t_layout(gen: Gen) -> &'static TLayout {
    match gen {
        Gen::Gfx6 | Gen::Gfx7 | Gen::Gfx8 => &T_GFX6,
        Gen::Gfx9 => &T_GFX9,
        Gen::Gfx10 => &T_GFX10,
        Gen::Gfx11 => &T_GFX11,
    }
}

/// Reads a field split into pieces, low piece first.
fn get_pieces(dw: &[u32], pieces: &[Bits]) -> u32 {
    let mut v = 0u64;
    let mut shift = 0;
    for &p in pieces {
        v |= u64::from(get(dw, p)) << shift;
        shift += u32::from(p.width);
    }
    v as u32
}

/// Total width of a split field.
fn pieces_width(pieces: &[Bits]) -> u32 {
    pieces.iter().map(|p| u32::from(p.width)).sum()
}

/// Writes a field split into pieces, low piece first; a value wider than the
/// pieces together is an error naming the field.
fn set_pieces(
    dw: &mut [u32],
    pieces: &[Bits],
    v: u32,
    name: &'static str,
    gen: Gen,
) -> Result<(), DescriptorError> {
    let total = pieces_width(pieces);
    if total < 32 && v >> total != 0 {
        return Err(DescriptorError::DoesNotFit {
            field: name,
            value: v,
            bits: total,
            gen,
        });
    }
    let mut shift = 0;
    for &p in pieces {
        set(dw, p, (v >> shift) & p.max());
        shift += u32::from(p.width);
    }
    Ok(())
}

/// Decodes a T# (8 dwords; for a 128-bit T# pass 4 and the rest read as zero).
/// Never panics; an invalid field is an error naming it.
///
/// Rejected (sampling.md §1–§3): a data/number format gcnrun does not implement or
/// an undefined pair (gfx10: a FORMAT code outside [`super::format::GFX10_FORMATS`]),
/// a reserved DST_SEL (2, 3), RESOURCE_LEVEL 0 on gfx10 ("must be 1"), a view whose
/// BASE_LEVEL exceeds LAST_LEVEL (non-MSAA), and a layered view whose BASE_ARRAY
/// exceeds its last slice.
pub fn decode_image(dw: &[u32], gen: Gen) -> Result<Image, DescriptorError> {
    let l = t_layout(gen);
    let rl_bit = l.resource_level.map(|f| (f.lo / 32, 1u32 << (f.lo % 32)));
    let all_zero = dw.iter().enumerate().all(|(i, &w)| match rl_bit {
        Some((word, mask)) if usize::from(word) == i => w & !mask == 0,
        _ => w == 0,
    });
    if all_zero {
        return Ok(Image::Unbound);
    }
    let g = |f: Bits| get(dw, f);
    let Some(image_type) = g(l.kind)
        .checked_sub(8)
        .and_then(|d| ImageType::from_index(d as usize))
    else {
        return Ok(Image::Unbound);
    };
    let raw_sel = l.dst_sel.map(|f| g(f) as u8);
    let (df, nf) = match l.format {
        FormatBits::Split { data, num } => {
            let dfmt = g(data) as u8;
            if dfmt == 0 {
                return Ok(Image::Null { dst_sel: raw_sel });
            }
            let nfmt = g(num) as u8;
            let df = data_format(dfmt).ok_or(DescriptorError::Unsupported {
                field: "data_format",
                value: dfmt.into(),
            })?;
            let nf = NumFormat::from_code(nfmt).ok_or(DescriptorError::Unsupported {
                field: "num_format",
                value: nfmt.into(),
            })?;
            check(df, nf).map_err(DescriptorError::Format)?;
            (df, nf)
        }
        FormatBits::Combined { bits, table } => {
            let code = g(bits) as u16;
            if code == 0 {
                return Ok(Image::Null { dst_sel: raw_sel });
            }
            combined_format(table, code).ok_or(DescriptorError::Unsupported {
                field: "format",
                value: code.into(),
            })?
        }
    };
    if let Some(f) = l.resource_level {
        if g(f) != 1 {
            return Err(DescriptorError::ResourceLevel { gen });
        }
    }
    dst_sel_from_codes(raw_sel)?;
    let width = get_pieces(dw, l.width) + 1;
    let depth = g(l.depth) + 1;
    let last_array = match l.last_array {
        Some(f) => g(f),
        None => g(l.depth),
    };
    let d = ImageDesc {
        base_address: (u64::from(g(l.base_lo)) << 8) | (u64::from(g(l.base_hi)) << 40),
        min_lod: get_pieces(dw, l.min_lod),
        data_format: df.code,
        num_format: nf.code(),
        width,
        height: g(l.height) + 1,
        depth,
        pitch: l.pitch.map_or(width, |f| g(f) + 1),
        dst_sel: raw_sel,
        base_level: g(l.base_level) as u8,
        last_level: g(l.last_level) as u8,
        tiling: g(l.tiling) as u8,
        image_type,
        base_array: g(l.base_array),
        last_array,
    };
    if !image_type.is_msaa() && d.base_level > d.last_level {
        return Err(DescriptorError::BaseLevel {
            base_level: d.base_level,
            last_level: d.last_level,
        });
    }
    if image_type.is_layered() && d.base_array > d.last_array {
        return Err(DescriptorError::BaseArray {
            base_array: d.base_array,
            last_array: d.last_array,
        });
    }
    Ok(Image::Bound(d))
}

/// Encodes a T# (8 dwords). A model value that the generation's fields cannot
/// hold is an error naming the field (not a silent truncation): an address that
/// is not 256-byte aligned or needs more than 48 bits, a size above the field,
/// a format pair gfx10 has no code for, a gfx9+ layered view whose `last_array`
/// is not `depth - 1` (one DEPTH field holds both), a gfx10 `pitch` other than
/// `width`.
pub fn encode_image(d: &ImageDesc, gen: Gen) -> Result<[u32; 8], DescriptorError> {
    let l = t_layout(gen);
    let mut dw = [0u32; 8];
    let mut put = |f: Bits, v: u32, name: &'static str| -> Result<(), DescriptorError> {
        if v > f.max() {
            return Err(DescriptorError::DoesNotFit {
                field: name,
                value: v,
                bits: f.width.into(),
                gen,
            });
        }
        set(&mut dw, f, v);
        Ok(())
    };
    if d.base_address & 0xff != 0 || d.base_address >> 48 != 0 {
        return Err(DescriptorError::Address {
            address: d.base_address,
        });
    }
    // `size - 1` of 0 wraps to u32::MAX, which no field holds: an error too.
    let minus1 = |v: u32| v.wrapping_sub(1);
    put(l.base_lo, (d.base_address >> 8) as u32, "base_address")?;
    put(l.base_hi, (d.base_address >> 40) as u32, "base_address")?;
    match l.format {
        FormatBits::Split { data, num } => {
            put(data, d.data_format.into(), "data_format")?;
            put(num, d.num_format.into(), "num_format")?;
        }
        FormatBits::Combined { bits, table } => {
            let code = NumFormat::from_code(d.num_format)
                .and_then(|nf| combined_code(table, d.data_format, nf))
                .ok_or(DescriptorError::NoFormatCode {
                    data_format: d.data_format,
                    num_format: d.num_format,
                    gen,
                })?;
            put(bits, code.into(), "format")?;
        }
    }
    let w = minus1(d.width);
    if w >= 1 << pieces_width(l.width) {
        return Err(DescriptorError::DoesNotFit {
            field: "width",
            value: d.width,
            bits: pieces_width(l.width),
            gen,
        });
    }
    put(l.height, minus1(d.height), "height")?;
    for (i, (f, &v)) in l.dst_sel.iter().zip(&d.dst_sel).enumerate() {
        put(*f, v.into(), super::swizzle::FIELD_NAMES[i])?;
    }
    put(l.base_level, d.base_level.into(), "base_level")?;
    put(l.last_level, d.last_level.into(), "last_level")?;
    put(l.tiling, d.tiling.into(), "tiling")?;
    put(l.kind, type_code(d.image_type), "type")?;
    put(l.depth, minus1(d.depth), "depth")?;
    match l.pitch {
        Some(f) => put(f, minus1(d.pitch), "pitch")?,
        None if d.pitch != d.width => {
            return Err(DescriptorError::Pitch {
                pitch: d.pitch,
                width: d.width,
                gen,
            })
        }
        None => {}
    }
    put(l.base_array, d.base_array, "base_array")?;
    match l.last_array {
        Some(f) => put(f, d.last_array, "last_array")?,
        // Only a layered view reads its last slice from DEPTH; for the others
        // decoding reports `depth - 1` there and encoding has nothing to store.
        None if d.image_type.is_layered() && d.last_array != minus1(d.depth) => {
            return Err(DescriptorError::LastArray {
                last_array: d.last_array,
                depth: d.depth,
                gen,
            })
        }
        None => {}
    }
    if let Some(f) = l.resource_level {
        put(f, 1, "resource_level")?;
    }
    // The split fields, written piece by piece (the width was checked above).
    set_pieces(&mut dw, l.width, w, "width", gen)?;
    set_pieces(&mut dw, l.min_lod, d.min_lod, "min_lod", gen)?;
    Ok(dw)
}

/// S# field positions of one layout family.
struct SLayout {
    clamp: [Bits; 3],
    max_aniso: Bits,
    compare: Bits,
    force_unnorm: Bits,
    force_degamma: Bits,
    disable_cube_wrap: Bits,
    filter_mode: Bits,
    min_lod: Bits,
    max_lod: Bits,
    lod_bias: Bits,
    mag: Bits,
    min: Bits,
    z_filter: Bits,
    mip: Bits,
    border_ptr: Bits,
    border_type: Bits,
}

/// gfx6–gfx10 (sampling.md §2.1; gfx10 keeps these positions for the fields
/// modelled here, Mesa gfx10-rsrc.json).
const S_GFX6: SLayout = SLayout {
    clamp: [b(0, 3), b(3, 3), b(6, 3)],
    max_aniso: b(9, 3),
    compare: b(12, 3),
    force_unnorm: b(15, 1),
    force_degamma: b(20, 1),
    disable_cube_wrap: b(28, 1),
    filter_mode: b(29, 2),
    min_lod: b(32, 12),
    max_lod: b(44, 12),
    lod_bias: b(64, 14),
    mag: b(84, 2),
    min: b(86, 2),
    z_filter: b(88, 2),
    mip: b(90, 2),
    border_ptr: b(96, 12),
    border_type: b(126, 2),
};

/// gfx11: BORDER_COLOR_PTR moved from W3[11:0] to W3[29:18] (Mesa writes
/// `S_008F3C_BORDER_COLOR_PTR_GFX11` under `gfx_level >= GFX11` in
/// `ac_build_sampler_descriptor`; ROCR-Runtime `resource_gfx11.h`
/// SQ_IMG_SAMP_WORD3 places it at bits 29:18). Every other modelled field keeps
/// its place (ROCR SQ_IMG_SAMP_WORD0–3 for gfx11 match §2.1).
const S_GFX11: SLayout = SLayout {
    border_ptr: b(114, 12),
    ..S_GFX6
};

fn s_layout(gen: Gen) -> &'static SLayout {
    if gen >= Gen::Gfx11 {
        &S_GFX11
    } else {
        &S_GFX6
    }
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

/// Decodes an S# (4 dwords, gfx6–gfx10 layout) without validation: every bit
/// pattern gives a model. [`decode_sampler_checked`] rejects reserved values.
pub fn decode_sampler(dw: &[u32]) -> SamplerDesc {
    decode_sampler_for(dw, Gen::Gfx6)
}

/// Decodes an S# in the layout of generation `gen` (gfx11 moved the border
/// colour pointer, `S_GFX11`) without validation.
pub fn decode_sampler_for(dw: &[u32], gen: Gen) -> SamplerDesc {
    let l = s_layout(gen);
    let g = |f: Bits| get(dw, f);
    SamplerDesc {
        clamp: l.clamp.map(|f| g(f) as u8),
        max_aniso: g(l.max_aniso) as u8,
        compare: g(l.compare) as u8,
        force_unnormalized: g(l.force_unnorm) == 1,
        force_degamma: g(l.force_degamma) == 1,
        disable_cube_wrap: g(l.disable_cube_wrap) == 1,
        filter_mode: g(l.filter_mode) as u8,
        min_lod: g(l.min_lod) as u16,
        max_lod: g(l.max_lod) as u16,
        lod_bias: super::convert::sign_extend(g(l.lod_bias), 14) as i16,
        mag_filter: g(l.mag) as u8,
        min_filter: g(l.min) as u8,
        z_filter: g(l.z_filter) as u8,
        mip_filter: g(l.mip) as u8,
        border_ptr: g(l.border_ptr) as u16,
        border_type: g(l.border_type) as u8,
    }
}

/// gfx10 S# W2[31] `DERIV_ADJUST_EN`: when set, W2[11:0]/[13:12] hold the border
/// colour pointer/type instead of LOD_BIAS (Mesa gfx10-rsrc.json SQ_IMG_SAMP_WORD2).
const S_DERIV_ADJUST_EN: Bits = b(95, 1);

/// Decodes an S# for generation `gen`, rejecting reserved values with an error
/// naming the field (sampling.md §2.1): FILTER_MODE 3, MAX_ANISO_RATIO above 4
/// (16x), Z_FILTER 3, MIP_FILTER 3 before gfx8 (gfx8 added POINT_ANISO_ADJ), and
/// on gfx10 and gfx11 DERIV_ADJUST_EN = 1 (the relocated border-colour fields are
/// not modelled; ROCR `resource_gfx11.h` keeps the bit at W2\[31\] on gfx11).
pub fn decode_sampler_checked(dw: &[u32], gen: Gen) -> Result<SamplerDesc, DescriptorError> {
    let d = decode_sampler_for(dw, gen);
    let reserved = |name: &'static str, v: u8| {
        Err(DescriptorError::Reserved {
            desc: Desc::S,
            field: name,
            value: v.into(),
        })
    };
    if d.filter_mode > 2 {
        return reserved("filter_mode", d.filter_mode);
    }
    if d.max_aniso > 4 {
        return reserved("max_aniso_ratio", d.max_aniso);
    }
    if d.z_filter > 2 {
        return reserved("z_filter", d.z_filter);
    }
    if d.mip_filter > 2 && gen < Gen::Gfx8 {
        return reserved("mip_filter", d.mip_filter);
    }
    if gen >= Gen::Gfx10 && get(dw, S_DERIV_ADJUST_EN) == 1 {
        return Err(DescriptorError::DerivAdjust);
    }
    Ok(d)
}

/// Encodes an S# (4 dwords, gfx6–gfx10 layout).
pub fn encode_sampler(d: &SamplerDesc) -> [u32; 4] {
    encode_sampler_for(d, Gen::Gfx6)
}

/// Encodes an S# in the layout of generation `gen`.
pub fn encode_sampler_for(d: &SamplerDesc, gen: Gen) -> [u32; 4] {
    let l = s_layout(gen);
    let mut dw = [0u32; 4];
    let mut s = |f: Bits, v: u32| set(&mut dw, f, v);
    for (f, &v) in l.clamp.iter().zip(&d.clamp) {
        s(*f, v.into());
    }
    s(l.max_aniso, d.max_aniso.into());
    s(l.compare, d.compare.into());
    s(l.force_unnorm, d.force_unnormalized.into());
    s(l.force_degamma, d.force_degamma.into());
    s(l.disable_cube_wrap, d.disable_cube_wrap.into());
    s(l.filter_mode, d.filter_mode.into());
    s(l.min_lod, d.min_lod.into());
    s(l.max_lod, d.max_lod.into());
    s(l.lod_bias, d.lod_bias as u32);
    s(l.mag, d.mag_filter.into());
    s(l.min, d.min_filter.into());
    s(l.z_filter, d.z_filter.into());
    s(l.mip, d.mip_filter.into());
    s(l.border_ptr, d.border_ptr.into());
    s(l.border_type, d.border_type.into());
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
                .to_string()
                .contains("data_format")
        );
        // Reserved DST_SEL and inverted ranges name their field.
        let mut dw = encode_image(&rgba8_2d(), Gen::Gfx8).unwrap();
        set(&mut dw, b(99, 3), 2);
        assert_eq!(
            decode_image(&dw, Gen::Gfx8).unwrap_err().to_string(),
            "T# dst_sel_y = 2 is reserved"
        );
        let d = ImageDesc {
            base_level: 4,
            last_level: 2,
            ..rgba8_2d()
        };
        let dw = encode_image(&d, Gen::Gfx8).unwrap();
        assert!(decode_image(&dw, Gen::Gfx8)
            .unwrap_err()
            .to_string()
            .contains("base_level"));
        let d = ImageDesc {
            image_type: ImageType::D2Array,
            base_array: 3,
            last_array: 1,
            ..rgba8_2d()
        };
        let dw = encode_image(&d, Gen::Gfx7).unwrap();
        assert!(decode_image(&dw, Gen::Gfx7)
            .unwrap_err()
            .to_string()
            .contains("base_array"));
    }

    /// The 64x32 RGBA8 UNORM 2D image of `hand_encoded_t_sharp`.
    fn rgba8_2d() -> ImageDesc {
        ImageDesc {
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
        }
    }

    #[test]
    fn hand_encoded_gfx10_t_sharp() {
        // The same image on gfx10: FORMAT 8_8_8_8_UNORM = 56 (Mesa IMG_FORMAT) at
        // W1[28:20]; width − 1 = 63 = 0b11_1111 splits into WIDTH_LO = 63 & 3 = 3
        // at W1[31:30] and WIDTH_HI = 63 >> 2 = 15 at W2[11:0]; RESOURCE_LEVEL = 1
        // at W2[31]; SW_MODE 0 (linear).
        let d = ImageDesc {
            tiling: 0,
            ..rgba8_2d()
        };
        let dw = encode_image(&d, Gen::Gfx10).unwrap();
        assert_eq!(dw[0], 0x0100_0000);
        assert_eq!(dw[1], (56 << 20) | (3 << 30));
        assert_eq!(dw[2], 15 | (31 << 14) | (1 << 31));
        assert_eq!(dw[3], 0xfac | (6 << 16) | (9 << 28));
        assert_eq!(&dw[4..], &[0, 0, 0, 0]);
        assert_eq!(decode_image(&dw, Gen::Gfx10), Ok(Image::Bound(d)));
        // A 2D array of 4 slices viewed from slice 2: DEPTH = last slice = 3 at
        // W4[12:0], BASE_ARRAY = 2 at W4[28:16] (Mesa gfx10-rsrc.json WORD4).
        let arr = ImageDesc {
            image_type: ImageType::D2Array,
            depth: 4,
            base_array: 2,
            last_array: 3,
            ..d
        };
        let adw = encode_image(&arr, Gen::Gfx10).unwrap();
        assert_eq!(adw[4], 3 | (2 << 16));
        assert_eq!(decode_image(&adw, Gen::Gfx10), Ok(Image::Bound(arr)));
        // gfx10 has no 32-bit UNORM and no PITCH field: both are encode errors.
        let r32_unorm = ImageDesc {
            data_format: 4,
            ..d
        };
        assert!(encode_image(&r32_unorm, Gen::Gfx10)
            .unwrap_err()
            .to_string()
            .contains("FORMAT"));
        let padded = ImageDesc { pitch: 80, ..d };
        assert!(encode_image(&padded, Gen::Gfx10)
            .unwrap_err()
            .to_string()
            .contains("pitch"));
        // Only RESOURCE_LEVEL set is still "all zero": unbound. Any other bit with
        // RESOURCE_LEVEL 0 is an error naming it.
        assert_eq!(
            decode_image(&[0, 0, 1 << 31, 0, 0, 0, 0, 0], Gen::Gfx10),
            Ok(Image::Unbound)
        );
        let mut bad = dw;
        bad[2] &= !(1 << 31);
        assert!(decode_image(&bad, Gen::Gfx10)
            .unwrap_err()
            .to_string()
            .contains("resource_level"));
        // A FORMAT code outside the table (155 lies between BG_RG_SRGB and FMASK).
        let mut bad = dw;
        set(&mut bad, b(52, 9), 155);
        assert_eq!(
            decode_image(&bad, Gen::Gfx10).unwrap_err().to_string(),
            "T# format = 155 is not supported"
        );
    }

    #[test]
    fn hand_encoded_gfx11_t_sharp() {
        // The 64x32 RGBA8 UNORM image on gfx11, every word written by hand from
        // the field positions of ROCR-Runtime resource_gfx11.h / PAL's gfx11
        // sq_img_rsrc_t (independent of T_GFX11): FORMAT 8_8_8_8_UNORM = 42
        // (CFMT_8_8_8_8_UNORM; gfx10's code is 56) at W1[27:20]; WIDTH_LO = 3 at
        // W1[31:30]; WIDTH_HI = 15 at W2[11:0], HEIGHT − 1 = 31 at W2[27:14] and
        // no RESOURCE_LEVEL at W2[31]; W3 as gfx10; MIN_LOD 1.5 = 0x180 (4.8)
        // splits into MIN_LOD_LO = 0x180 & 31 = 0 at W5[31:27] and MIN_LOD_HI =
        // 0x180 >> 5 = 12 at W6[6:0].
        let d = ImageDesc {
            tiling: 0,
            min_lod: 0x180,
            ..rgba8_2d()
        };
        let dw = encode_image(&d, Gen::Gfx11).unwrap();
        assert_eq!(dw[0], 0x0100_0000);
        assert_eq!(dw[1], (42 << 20) | (3 << 30));
        assert_eq!(dw[2], 15 | (31 << 14));
        assert_eq!(dw[3], 0xfac | (6 << 16) | (9 << 28));
        assert_eq!(&dw[4..], &[0, 0, 12, 0]);
        assert_eq!(decode_image(&dw, Gen::Gfx11), Ok(Image::Bound(d)));
        // A MIN_LOD with low bits: 0x123 -> LO = 3 at W5[31:27], HI = 9.
        let odd = ImageDesc {
            min_lod: 0x123,
            ..d
        };
        let odw = encode_image(&odd, Gen::Gfx11).unwrap();
        assert_eq!((odw[5], odw[6]), (3 << 27, 9));
        assert_eq!(decode_image(&odw, Gen::Gfx11), Ok(Image::Bound(odd)));
        // Read as gfx10 the same words are no valid T#: RESOURCE_LEVEL (W2[31])
        // is 0, which gfx10 refuses (and its FORMAT 42 would be 11_11_10_SINT).
        assert!(decode_image(&dw, Gen::Gfx10)
            .unwrap_err()
            .to_string()
            .contains("resource_level"));
        // A 2D array viewed from slice 2: W4 as gfx10 (DEPTH = last slice,
        // BASE_ARRAY at W4[28:16]).
        let arr = ImageDesc {
            image_type: ImageType::D2Array,
            depth: 4,
            base_array: 2,
            last_array: 3,
            min_lod: 0,
            ..d
        };
        let adw = encode_image(&arr, Gen::Gfx11).unwrap();
        assert_eq!(adw[4], 3 | (2 << 16));
        assert_eq!(decode_image(&adw, Gen::Gfx11), Ok(Image::Bound(arr)));
        // All zero is unbound; W2[31] alone is not (gfx11 has no RESOURCE_LEVEL,
        // so it is an ordinary non-zero bit and TYPE 0 reads as no image).
        assert_eq!(decode_image(&[0; 8], Gen::Gfx11), Ok(Image::Unbound));
        assert_eq!(
            decode_image(&[0, 0, 1 << 31, 0, 0, 0, 0, 0], Gen::Gfx11),
            Ok(Image::Unbound)
        );
        // W1[28] is FORMAT's ninth bit on gfx10 and reserved on gfx11 (AMD's
        // headers: 8 bits; Mesa writes the 9-bit gfx10 macro, docs/errata.md
        // X14): set, it does not change the format.
        let mut high = dw;
        high[1] |= 1 << 28;
        assert_eq!(decode_image(&high, Gen::Gfx11), Ok(Image::Bound(d)));
        // gfx11 codes outside the table (gfx10's BC1 code, 169) are refused by
        // value.
        let mut bad = dw;
        set(&mut bad, b(52, 8), 169);
        assert_eq!(
            decode_image(&bad, Gen::Gfx11).unwrap_err().to_string(),
            "T# format = 169 is not supported"
        );
        // 10_11_11 UNORM exists on gfx10 (30) but not on gfx11.
        let packed_unorm = ImageDesc {
            data_format: 6,
            ..d
        };
        assert!(encode_image(&packed_unorm, Gen::Gfx10).is_ok());
        assert!(encode_image(&packed_unorm, Gen::Gfx11)
            .unwrap_err()
            .to_string()
            .contains("FORMAT"));
    }

    #[test]
    fn gfx11_s_sharp_moves_the_border_pointer() {
        // Border pointer 0xabc with type 3: W3[11:0] before gfx11, W3[29:18] on
        // gfx11 (ROCR resource_gfx11.h SQ_IMG_SAMP_WORD3); type stays W3[31:30].
        let d = SamplerDesc {
            border_ptr: 0xabc,
            border_type: 3,
            ..decode_sampler(&[0; 4])
        };
        assert_eq!(encode_sampler_for(&d, Gen::Gfx10)[3], 0xabc | (3 << 30));
        let dw = encode_sampler_for(&d, Gen::Gfx11);
        assert_eq!(dw[3], (0xabc << 18) | (3 << 30));
        assert_eq!(decode_sampler_for(&dw, Gen::Gfx11), d);
        assert_eq!(decode_sampler_checked(&dw, Gen::Gfx11), Ok(d));
        // DERIV_ADJUST_EN (W2[31]) is refused on gfx11 as on gfx10.
        let mut deriv = dw;
        deriv[2] |= 1 << 31;
        assert!(decode_sampler_checked(&deriv, Gen::Gfx11)
            .unwrap_err()
            .to_string()
            .contains("deriv_adjust_en"));
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
        assert_eq!(decode_sampler_checked(&dw, Gen::Gfx9), Ok(d));
        // FILTER_MODE 3 (bits 30:29 of W0) is reserved.
        let mut bad = dw;
        bad[0] |= 3 << 29;
        assert_eq!(
            decode_sampler_checked(&bad, Gen::Gfx8)
                .unwrap_err()
                .to_string(),
            "S# filter_mode = 3 is reserved"
        );
        // MIP_FILTER 3 (W2[27:26]) is POINT_ANISO_ADJ from gfx8 on, reserved before.
        let mut adj = dw;
        adj[2] |= 3 << 26;
        assert!(decode_sampler_checked(&adj, Gen::Gfx7).is_err());
        assert!(decode_sampler_checked(&adj, Gen::Gfx8).is_ok());
        // gfx10 DERIV_ADJUST_EN (W2[31]) moves the border colour: refused by name.
        let mut deriv = dw;
        deriv[2] |= 1 << 31;
        assert!(decode_sampler_checked(&deriv, Gen::Gfx9).is_ok());
        assert!(decode_sampler_checked(&deriv, Gen::Gfx10)
            .unwrap_err()
            .to_string()
            .contains("deriv_adjust_en"));
    }
}
