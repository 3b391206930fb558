//! Data formats and number formats: how a texel's bytes become the four 32-bit
//! values an image load returns, and back (research/sampling.md §3).
//!
//! The data-format table is data: each row gives the texel size and each
//! component's bit position, low bit first (sampling.md §3.1: AMD names widths
//! from the most significant end, X sits in the least significant bits). The
//! number format then converts each component with one function of
//! [`super::convert`].

use super::convert::*;
use super::error::FormatError;

/// How a format's components are interpreted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// Independent components, each converted by the number format.
    Plain,
    /// 10_11_11 / 11_11_10: with FLOAT, 11- and 10-bit unsigned floats.
    PackedFloat,
    /// BC1–BC7: 4×4 blocks; decoded a block at a time (not per texel).
    Block,
}

/// One `IMG_DATA_FORMAT`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DataFormat {
    /// The T# field value.
    pub code: u8,
    /// AMD's name (`8_8_8_8`).
    pub name: &'static str,
    /// Bytes per texel (per 4×4 block for BCn).
    pub bytes: u32,
    /// `(low bit, width)` of X, Y, Z, W that exist, within the texel as a
    /// little-endian integer.
    pub comps: &'static [(u8, u8)],
    /// Interpretation.
    pub layout: Layout,
}

const fn df(
    code: u8,
    name: &'static str,
    bytes: u32,
    comps: &'static [(u8, u8)],
    layout: Layout,
) -> DataFormat {
    DataFormat {
        code,
        name,
        bytes,
        comps,
        layout,
    }
}

use Layout::*;

/// The data formats gcnrun implements (sampling.md §3.1, "recommended subset"),
/// with component positions from the same table.
pub const DATA_FORMATS: &[DataFormat] = &[
    df(1, "8", 1, &[(0, 8)], Plain),
    df(2, "16", 2, &[(0, 16)], Plain),
    df(3, "8_8", 2, &[(0, 8), (8, 8)], Plain),
    df(4, "32", 4, &[(0, 32)], Plain),
    df(5, "16_16", 4, &[(0, 16), (16, 16)], Plain),
    df(
        6,
        "10_11_11",
        4,
        &[(0, 11), (11, 11), (22, 10)],
        PackedFloat,
    ),
    df(
        7,
        "11_11_10",
        4,
        &[(0, 10), (10, 11), (21, 11)],
        PackedFloat,
    ),
    df(
        8,
        "10_10_10_2",
        4,
        &[(0, 2), (2, 10), (12, 10), (22, 10)],
        Plain,
    ),
    df(
        9,
        "2_10_10_10",
        4,
        &[(0, 10), (10, 10), (20, 10), (30, 2)],
        Plain,
    ),
    df(10, "8_8_8_8", 4, &[(0, 8), (8, 8), (16, 8), (24, 8)], Plain),
    df(11, "32_32", 8, &[(0, 32), (32, 32)], Plain),
    df(
        12,
        "16_16_16_16",
        8,
        &[(0, 16), (16, 16), (32, 16), (48, 16)],
        Plain,
    ),
    df(13, "32_32_32", 12, &[(0, 32), (32, 32), (64, 32)], Plain),
    df(
        14,
        "32_32_32_32",
        16,
        &[(0, 32), (32, 32), (64, 32), (96, 32)],
        Plain,
    ),
    df(16, "5_6_5", 2, &[(0, 5), (5, 6), (11, 5)], Plain),
    df(17, "1_5_5_5", 2, &[(0, 5), (5, 5), (10, 5), (15, 1)], Plain),
    df(18, "5_5_5_1", 2, &[(0, 1), (1, 5), (6, 5), (11, 5)], Plain),
    df(19, "4_4_4_4", 2, &[(0, 4), (4, 4), (8, 4), (12, 4)], Plain),
    df(20, "8_24", 4, &[(0, 24), (24, 8)], Plain),
    df(21, "24_8", 4, &[(0, 8), (8, 24)], Plain),
    df(35, "bc1", 8, &[], Block),
    df(36, "bc2", 16, &[], Block),
    df(37, "bc3", 16, &[], Block),
    df(38, "bc4", 8, &[], Block),
    df(39, "bc5", 16, &[], Block),
    df(40, "bc6", 16, &[], Block),
    df(41, "bc7", 16, &[], Block),
];

/// Looks a data format up by its T# code.
pub fn data_format(code: u8) -> Option<&'static DataFormat> {
    DATA_FORMATS.iter().find(|d| d.code == code)
}

/// `IMG_NUM_FORMAT` (sampling.md §3.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NumFormat {
    /// `c / (2^n − 1)`.
    Unorm,
    /// `max(s / (2^(n−1) − 1), −1)`.
    Snorm,
    /// `(float)c`.
    Uscaled,
    /// `(float)s`.
    Sscaled,
    /// Zero-extended integer.
    Uint,
    /// Sign-extended integer.
    Sint,
    /// IEEE float of the component's width (16, 32; 10/11 in packed floats).
    Float,
    /// UNORM, then sRGB decode of X, Y, Z.
    Srgb,
}

impl NumFormat {
    /// From the T# field value.
    pub fn from_code(code: u8) -> Option<NumFormat> {
        Some(match code {
            0 => NumFormat::Unorm,
            1 => NumFormat::Snorm,
            2 => NumFormat::Uscaled,
            3 => NumFormat::Sscaled,
            4 => NumFormat::Uint,
            5 => NumFormat::Sint,
            7 => NumFormat::Float,
            9 => NumFormat::Srgb,
            _ => return None,
        })
    }

    /// The T# field value (inverse of [`NumFormat::from_code`]).
    pub fn code(self) -> u8 {
        match self {
            NumFormat::Unorm => 0,
            NumFormat::Snorm => 1,
            NumFormat::Uscaled => 2,
            NumFormat::Sscaled => 3,
            NumFormat::Uint => 4,
            NumFormat::Sint => 5,
            NumFormat::Float => 7,
            NumFormat::Srgb => 9,
        }
    }

    /// True for the classes whose results are integers (UINT, SINT): their
    /// "one" for a missing W component is integer 1, not 1.0.
    ///
    /// WGSL twin: `nf_is_integer` in `shaders/format.wgsl` (docs/gpu.md, "Twins").
    pub fn is_integer(self) -> bool {
        matches!(self, NumFormat::Uint | NumFormat::Sint)
    }
}

/// Checks that `nf` is defined for `df` on gfx6–gfx9, where the data and number
/// formats are separate T# fields and the hardware's list of valid pairs is not
/// public. The rule: a BCn format takes the number formats of
/// [`super::bcn::BC_FORMATS`]; FLOAT needs 16- or 32-bit components (or a packed-float
/// format); sRGB needs 8-bit components; SNORM needs components of at least 2
/// bits (sampling.md §3.2–3.3); the packed-float formats 10_11_11 / 11_11_10 take
/// every number format but sRGB — the gfx10 FORMAT list names them with UNORM,
/// SNORM, USCALED, SSCALED, UINT, SINT and FLOAT (Mesa gfx10-rsrc.json
/// `IMG_FORMAT` 30–43), and with the non-float formats their components are plain
/// 11/11/10-bit integers. gfx10+ validity is exactly [`GFX10_FORMATS`].
pub fn check(df: &DataFormat, nf: NumFormat) -> Result<(), FormatError> {
    let widths_ok = |ok: &dyn Fn(u8) -> bool| df.comps.iter().all(|&(_, w)| ok(w));
    let fine = match (df.layout, nf) {
        // BCn: the pairs of `bcn::BC_FORMATS` (the gfx10 FORMAT list's).
        (Block, _) => super::bcn::check(df.code, nf).is_ok(),
        (PackedFloat, NumFormat::Srgb) => false,
        (PackedFloat, _) => true,
        (Plain, NumFormat::Float) => widths_ok(&|w| w == 16 || w == 32),
        (Plain, NumFormat::Srgb) => widths_ok(&|w| w == 8),
        // A 1-bit SNORM has no positive code (2^0 − 1 = 0 steps): undefined.
        (Plain, NumFormat::Snorm) => widths_ok(&|w| w >= 2),
        (Plain, _) => true,
    };
    if fine {
        Ok(())
    } else {
        Err(FormatError::Undefined {
            data: df.name,
            num: nf,
        })
    }
}

/// A run of consecutive combined `FORMAT` codes (gfx10 or gfx11) over one data format: code
/// `first + i` is `data_format` with number format `nums[i]`.
#[derive(Clone, Copy, Debug)]
pub struct Gfx10Run {
    /// First FORMAT code of the run.
    pub first: u16,
    /// The gfx6–gfx9 `IMG_DATA_FORMAT` it stands for.
    pub data_format: u8,
    /// The number formats, in code order.
    pub nums: &'static [NumFormat],
}

use NumFormat as N;
const NORM_INT: &[NumFormat] = &[N::Unorm, N::Snorm, N::Uscaled, N::Sscaled, N::Uint, N::Sint];
const NORM_INT_FLOAT: &[NumFormat] = &[
    N::Unorm,
    N::Snorm,
    N::Uscaled,
    N::Sscaled,
    N::Uint,
    N::Sint,
    N::Float,
];
const INT_FLOAT: &[NumFormat] = &[N::Uint, N::Sint, N::Float];

const fn run(first: u16, data_format: u8, nums: &'static [NumFormat]) -> Gfx10Run {
    Gfx10Run {
        first,
        data_format,
        nums,
    }
}

/// gfx10/gfx10.3 T# `FORMAT` (W1\[28:20\], 9 bits): one code per (data format,
/// number format) pair that the hardware supports, replacing gfx6–gfx9's two
/// fields (sampling.md §1.4). Codes and names from Mesa's register database
/// (`src/amd/registers/gfx10-rsrc.json`, enum `IMG_FORMAT`), restricted to the
/// data formats of [`DATA_FORMATS`]; 5_9_9_9, X24_8_32, 32_FLOAT_CLAMP and the
/// FMASK/MM/YCbCr codes are not modelled. BC6_UFLOAT/BC6_SFLOAT are gfx6–gfx9's
/// BC6 with UNORM/SNORM, the pairs Mesa programs for unsigned and signed BC6H
/// there ([`super::bcn`]). Note what the list leaves out: no 32-bit UNORM/SNORM,
/// no FLOAT for 8-bit or 10-bit components, and the 16-bit packed formats are
/// UNORM only.
pub const GFX10_FORMATS: &[Gfx10Run] = &[
    run(1, 1, NORM_INT),
    run(7, 2, NORM_INT_FLOAT),
    run(14, 3, NORM_INT),
    run(20, 4, INT_FLOAT),
    run(23, 5, NORM_INT_FLOAT),
    run(30, 6, NORM_INT_FLOAT),
    run(37, 7, NORM_INT_FLOAT),
    run(44, 8, NORM_INT),
    run(50, 9, NORM_INT),
    run(56, 10, NORM_INT),
    run(62, 11, INT_FLOAT),
    run(65, 12, NORM_INT_FLOAT),
    run(72, 13, INT_FLOAT),
    run(75, 14, INT_FLOAT),
    run(128, 1, &[N::Srgb]),
    run(129, 3, &[N::Srgb]),
    run(130, 10, &[N::Srgb]),
    run(133, 16, &[N::Unorm]),
    run(134, 17, &[N::Unorm]),
    run(135, 18, &[N::Unorm]),
    run(136, 19, &[N::Unorm]),
    run(141, 20, &[N::Unorm, N::Uint]),
    run(143, 21, &[N::Unorm, N::Uint]),
    run(169, 35, &[N::Unorm, N::Srgb]),
    run(171, 36, &[N::Unorm, N::Srgb]),
    run(173, 37, &[N::Unorm, N::Srgb]),
    run(175, 38, &[N::Unorm, N::Snorm]),
    run(177, 39, &[N::Unorm, N::Snorm]),
    run(179, 40, &[N::Unorm, N::Snorm]),
    run(181, 41, &[N::Unorm, N::Srgb]),
];

/// gfx11 T# `FORMAT` (W1\[27:20\], 8 bits): gfx11 renumbered the combined format.
/// It keeps gfx10's codes 1–29, keeps only FLOAT of the packed-float formats
/// (10_11_11 = 30, 11_11_10 = 31), drops USCALED/SSCALED of 10_10_10_2, and
/// closes up every later run (8_8_8_8_UNORM is 42, not 56; 8_8_8_8_SRGB 66, not
/// 130). Codes 1–63 from LLVM `SIDefines.h` `UfmtGFX11` (the unified format
/// gfx11 shares between buffers and images); codes 1–81 from ROCm ROCR-Runtime
/// `src/image/resource_gfx11.h` (`enum FORMAT`, `CFMT_*`), which agree on 1–63.
/// The BCn codes, 109–122 (BC1_UNORM … BC7_SRGB, gfx10's 169–182 moved down by
/// 60), from AMD's Radeon GPU Detective RDNA3 descriptor disassembler
/// (`rgd_srd_disassembler_rdna3.cpp`, `GetImageFormatString`), which lists 1–81
/// exactly as the two sources above. 5_9_9_9, 4_4, 1, 1_REVERSED,
/// 32_FLOAT_CLAMP, X24_8_32 and the GB_GR/BG_RG/MM/YCbCr codes are not modelled
/// (as on gfx10).
pub const GFX11_FORMATS: &[Gfx10Run] = &[
    run(1, 1, NORM_INT),
    run(7, 2, NORM_INT_FLOAT),
    run(14, 3, NORM_INT),
    run(20, 4, INT_FLOAT),
    run(23, 5, NORM_INT_FLOAT),
    run(30, 6, &[N::Float]),
    run(31, 7, &[N::Float]),
    run(32, 8, &[N::Unorm, N::Snorm, N::Uint, N::Sint]),
    run(36, 9, NORM_INT),
    run(42, 10, NORM_INT),
    run(48, 11, INT_FLOAT),
    run(51, 12, NORM_INT_FLOAT),
    run(58, 13, INT_FLOAT),
    run(61, 14, INT_FLOAT),
    run(64, 1, &[N::Srgb]),
    run(65, 3, &[N::Srgb]),
    run(66, 10, &[N::Srgb]),
    run(68, 16, &[N::Unorm]),
    run(69, 17, &[N::Unorm]),
    run(70, 18, &[N::Unorm]),
    run(71, 19, &[N::Unorm]),
    run(76, 20, &[N::Unorm, N::Uint]),
    run(78, 21, &[N::Unorm, N::Uint]),
    run(109, 35, &[N::Unorm, N::Srgb]),
    run(111, 36, &[N::Unorm, N::Srgb]),
    run(113, 37, &[N::Unorm, N::Srgb]),
    run(115, 38, &[N::Unorm, N::Snorm]),
    run(117, 39, &[N::Unorm, N::Snorm]),
    run(119, 40, &[N::Unorm, N::Snorm]),
    run(121, 41, &[N::Unorm, N::Srgb]),
];

/// The (data format, number format) pair a combined `FORMAT` code stands for in
/// `table` ([`GFX10_FORMATS`] or [`GFX11_FORMATS`]).
pub fn combined_format(table: &[Gfx10Run], code: u16) -> Option<(&'static DataFormat, NumFormat)> {
    table.iter().find_map(|r| {
        let i = usize::from(code.checked_sub(r.first)?);
        Some((data_format(r.data_format)?, *r.nums.get(i)?))
    })
}

/// The combined `FORMAT` code of a (data format, number format) pair in `table`,
/// if the table has one.
pub fn combined_code(table: &[Gfx10Run], data_format: u8, nf: NumFormat) -> Option<u16> {
    table.iter().find_map(|r| {
        let i = r.nums.iter().position(|&n| n == nf)?;
        (r.data_format == data_format).then(|| r.first + i as u16)
    })
}

/// The (data format, number format) pair a gfx10 `FORMAT` code stands for.
pub fn gfx10_format(code: u16) -> Option<(&'static DataFormat, NumFormat)> {
    combined_format(GFX10_FORMATS, code)
}

/// The gfx10 `FORMAT` code of a (data format, number format) pair, if gfx10 has one.
pub fn gfx10_code(data_format: u8, nf: NumFormat) -> Option<u16> {
    combined_code(GFX10_FORMATS, data_format, nf)
}

/// The default for a component the format lacks: 0 for X, Y, Z and one for W
/// (1.0 for float classes, integer 1 for UINT/SINT) (sampling.md §3.4).
///
/// WGSL twin: `missing_component` in `shaders/format.wgsl` (docs/gpu.md, "Twins").
pub fn missing_component(index: usize, nf: NumFormat) -> u32 {
    match (index, nf.is_integer()) {
        (3, true) => 1,
        (3, false) => 1.0f32.to_bits(),
        _ => 0,
    }
}

/// Reads bits `[lo, lo + width)` of a little-endian texel.
///
/// WGSL twin: `get_bits` in `shaders/format.wgsl` (docs/gpu.md, "Twins").
fn get_bits(texel: &[u8], lo: u32, width: u32) -> u32 {
    let mut v: u64 = 0;
    for i in 0..width.div_ceil(8) + 1 {
        let byte = (lo / 8 + i) as usize;
        if let Some(&b) = texel.get(byte) {
            v |= u64::from(b) << (8 * i);
        }
    }
    ((v >> (lo % 8)) & ((1u64 << width) - 1)) as u32
}

/// Writes bits `[lo, lo + width)` of a little-endian texel.
///
/// WGSL twin: `set_bits` in `shaders/format.wgsl` (docs/gpu.md, "Twins").
fn set_bits(texel: &mut [u8], lo: u32, width: u32, value: u32) {
    for bit in 0..width {
        let pos = lo + bit;
        if let Some(b) = texel.get_mut((pos / 8) as usize) {
            let mask = 1u8 << (pos % 8);
            if (value >> bit) & 1 == 1 {
                *b |= mask;
            } else {
                *b &= !mask;
            }
        }
    }
}

/// Converts one memory component to its VGPR value (load direction): one
/// [`super::convert`] function per number format. `index` is 0..3 for X..W (sRGB
/// leaves W linear: sampling.md §3.2).
///
/// WGSL twin: `load_component` in `shaders/format.wgsl`, a `switch` over one
/// function per arm (`load_unorm`, `load_snorm`, `load_uscaled`,
/// `load_sscaled`, `load_uint`, `load_sint`, `load_float`, `load_srgb`;
/// docs/gpu.md, "Twins").
pub fn load_component(c: u32, width: u32, nf: NumFormat, layout: Layout, index: usize) -> u32 {
    if let Some(t) = load_table(width, nf, index) {
        return t[(c & ((1 << width) - 1)) as usize];
    }
    match nf {
        NumFormat::Unorm => unorm_to_f32(c, width).to_bits(),
        NumFormat::Snorm => snorm_to_f32(c, width).to_bits(),
        NumFormat::Uscaled => uscaled_to_f32(c, width).to_bits(),
        NumFormat::Sscaled => sscaled_to_f32(c, width).to_bits(),
        NumFormat::Uint => uint_to_u32(c, width),
        NumFormat::Sint => sint_to_i32(c, width) as u32,
        NumFormat::Float => match (layout, width) {
            (_, 32) => c,
            (_, 16) => f16_to_f32(c as u16).to_bits(),
            (PackedFloat, 11) => uf11_to_f32(c).to_bits(),
            (PackedFloat, 10) => uf10_to_f32(c).to_bits(),
            // `check` rejects other widths; an unchecked pair reads as 0.
            _ => 0,
        },
        NumFormat::Srgb if index < 3 => srgb_to_linear(unorm_to_f32(c, width)).to_bits(),
        NumFormat::Srgb => unorm_to_f32(c, width).to_bits(),
    }
}

/// The widest component whose UNORM, SNORM and sRGB loads are read from a
/// table (`narrow_tables`).
pub const TABLE_BITS: u32 = 10;

/// The table [`load_component`] reads component `index` of `width` bits in
/// number format `nf` from, if it has one: UNORM, SNORM, and sRGB (whose W
/// is linear, the UNORM table) up to [`TABLE_BITS`] bits. (The GPU computes
/// the same values by integer steps, `repeat_ratio_bits` in
/// `shaders/convert.wgsl`.)
pub(crate) fn load_table(width: u32, nf: NumFormat, index: usize) -> Option<&'static [u32]> {
    let t = narrow_tables(width)?;
    match nf {
        NumFormat::Unorm => Some(&t.unorm),
        NumFormat::Snorm => Some(&t.snorm),
        NumFormat::Srgb if index < 3 => Some(&t.srgb),
        NumFormat::Srgb => Some(&t.unorm),
        _ => None,
    }
}

/// Every load of one component width as a table (f32 bits by code).
struct NarrowTables {
    unorm: Vec<u32>,
    snorm: Vec<u32>,
    srgb: Vec<u32>,
}

/// The load tables of `width` ≤ [`TABLE_BITS`] bits, built once from the
/// conversion functions themselves (so a table lookup is the function's
/// value, bit for bit; `tables_are_the_functions` checks every entry): a
/// sample reads four to sixteen texels per lane, and the exact integer
/// division of [`unorm_to_f32`] was half of the CPU's sampling time.
fn narrow_tables(width: u32) -> Option<&'static NarrowTables> {
    static TABLES: std::sync::OnceLock<Vec<NarrowTables>> = std::sync::OnceLock::new();
    if width == 0 || width > TABLE_BITS {
        return None;
    }
    let all = TABLES.get_or_init(|| {
        (1..=TABLE_BITS)
            .map(|w| {
                let codes = 0..1u32 << w;
                NarrowTables {
                    unorm: codes
                        .clone()
                        .map(|c| unorm_to_f32(c, w).to_bits())
                        .collect(),
                    snorm: codes
                        .clone()
                        .map(|c| snorm_to_f32(c, w).to_bits())
                        .collect(),
                    srgb: codes
                        .map(|c| srgb_to_linear(unorm_to_f32(c, w)).to_bits())
                        .collect(),
                }
            })
            .collect()
    });
    all.get(width as usize - 1)
}

/// Converts one VGPR value to its memory component (store direction); `None`
/// for the read-only number formats (USCALED, SSCALED, SRGB: CLRX's ImgW column,
/// sampling.md §3.2).
///
/// WGSL twin: `store_component` in `shaders/format.wgsl`, a `switch` over
/// one function per arm (`store_unorm`, `store_snorm`, `store_int`,
/// `store_float`; docs/gpu.md, "Twins").
pub fn store_component(v: u32, width: u32, nf: NumFormat, layout: Layout) -> Option<u32> {
    let x = f32::from_bits(v);
    Some(match nf {
        NumFormat::Unorm => f32_to_unorm(x, width),
        NumFormat::Snorm => f32_to_snorm(x, width),
        NumFormat::Uint | NumFormat::Sint => u32_to_uint(v, width),
        NumFormat::Float => match (layout, width) {
            (_, 32) => v,
            (_, 16) => u32::from(f32_to_f16(x)),
            (PackedFloat, 11) => f32_to_uf11(x),
            (PackedFloat, 10) => f32_to_uf10(x),
            _ => return None,
        },
        NumFormat::Uscaled | NumFormat::Sscaled | NumFormat::Srgb => return None,
    })
}

/// Loads one texel (`texel` holds at least `df.bytes` bytes) as the four VGPR
/// values X, Y, Z, W before DST_SEL, missing components filled per
/// [`missing_component`]. Block formats are decoded elsewhere; here they give `None`.
///
/// WGSL twin: `load_texel` in `shaders/format.wgsl` (docs/gpu.md, "Twins").
pub fn load_texel(df: &DataFormat, nf: NumFormat, texel: &[u8]) -> Option<[u32; 4]> {
    if df.layout == Block || texel.len() < df.bytes as usize {
        return None;
    }
    let mut out = [0u32; 4];
    for (i, slot) in out.iter_mut().enumerate() {
        *slot = match df.comps.get(i) {
            Some(&(lo, w)) => load_component(
                get_bits(texel, lo.into(), w.into()),
                w.into(),
                nf,
                df.layout,
                i,
            ),
            None => missing_component(i, nf),
        };
    }
    Some(out)
}

/// [`load_texel`] for one (data format, number format) pair, with what can
/// be chosen once chosen once: a component of at most [`TABLE_BITS`] bits in
/// a UNORM, SNORM or sRGB format is a table lookup, a missing component a
/// constant; the rest goes through [`load_component`]. The same values as
/// [`load_texel`] (`decoders_are_load_texel` checks every pair).
#[derive(Clone, Copy, Debug)]
pub struct TexelDecoder {
    df: &'static DataFormat,
    nf: NumFormat,
    /// Per component: its table, if it has one.
    tables: [Option<&'static [u32]>; 4],
    /// [`missing_component`] of each component.
    missing: [u32; 4],
    /// The four tables of a texel of four whole bytes in X, Y, Z, W order
    /// (8_8_8_8 as UNORM, SNORM or sRGB), where a texel is four lookups and
    /// nothing else: the sampler's commonest texel, chosen once.
    bytes: Option<[&'static [u32; 256]; 4]>,
    /// Every component comes from a table or is a missing component's
    /// constant, so no decoded value is an f32 denormal (no table holds one:
    /// `table_values_are_never_subnormal`), and flushing them is a no-op.
    never_subnormal: bool,
}

impl TexelDecoder {
    /// The decoder of `df` read as `nf`.
    pub fn new(df: &'static DataFormat, nf: NumFormat) -> TexelDecoder {
        let tables = std::array::from_fn(|i| {
            let &(_, w) = df.comps.get(i)?;
            load_table(w.into(), nf, i)
        });
        let whole_bytes = df.layout != Block
            && df.comps.len() == 4
            && df
                .comps
                .iter()
                .zip(0..)
                .all(|(&(lo, w), i)| (lo, w) == (8 * i, 8));
        let bytes = whole_bytes
            .then(|| {
                let t = |i: usize| tables[i].and_then(|t: &'static [u32]| t.try_into().ok());
                Some([t(0)?, t(1)?, t(2)?, t(3)?])
            })
            .flatten();
        let never_subnormal = df.layout != Block
            && !nf.is_integer()
            && tables.iter().take(df.comps.len()).all(Option::is_some);
        TexelDecoder {
            df,
            nf,
            tables,
            never_subnormal,
            missing: std::array::from_fn(|i| missing_component(i, nf)),
            bytes,
        }
    }

    /// True when no texel this decodes holds an f32 denormal (each component
    /// read from a UNORM, SNORM or sRGB table, or a missing component's 0 or
    /// 1.0): a sampler's denormal flush of its values changes nothing.
    pub fn never_subnormal(&self) -> bool {
        self.never_subnormal
    }

    /// [`load_texel`]. Inlined: a texel returned through memory from a call
    /// is read back whole before its four stores have landed, a
    /// store-forwarding stall that cost a third of the sampler's footprint.
    #[inline(always)]
    pub fn decode(&self, texel: &[u8]) -> Option<[u32; 4]> {
        if let Some(t) = &self.bytes {
            let b = texel.get(..4)?;
            return Some([
                t[0][usize::from(b[0])],
                t[1][usize::from(b[1])],
                t[2][usize::from(b[2])],
                t[3][usize::from(b[3])],
            ]);
        }
        let df = self.df;
        if df.layout == Block || texel.len() < df.bytes as usize {
            return None;
        }
        let mut out = self.missing;
        for (i, &(lo, w)) in df.comps.iter().enumerate().take(4) {
            let c = if w == 8 && lo % 8 == 0 {
                // A whole byte (the 8-bit formats): get_bits' answer at once.
                texel.get(usize::from(lo / 8)).map_or(0, |&b| u32::from(b))
            } else {
                get_bits(texel, lo.into(), w.into())
            };
            out[i] = match self.tables[i] {
                Some(t) => t[(c & ((1 << w) - 1)) as usize],
                None => load_component(c, w.into(), self.nf, df.layout, i),
            };
        }
        Some(out)
    }
}

/// Stores X, Y, Z, W into one texel (whole texel written); `None` for
/// read-only number formats or block formats.
///
/// WGSL twin: `store_texel` in `shaders/format.wgsl` (docs/gpu.md, "Twins").
pub fn store_texel(df: &DataFormat, nf: NumFormat, rgba: [u32; 4]) -> Option<Vec<u8>> {
    if df.layout == Block {
        return None;
    }
    let mut texel = vec![0u8; df.bytes as usize];
    for (i, &(lo, w)) in df.comps.iter().enumerate() {
        let c = store_component(rgba[i], w.into(), nf, df.layout)?;
        set_bits(&mut texel, lo.into(), w.into(), c);
    }
    Some(texel)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(code: u8) -> &'static DataFormat {
        data_format(code).unwrap()
    }

    /// Every (data format, number format) pair with its decoder.
    fn every_decoder() -> impl Iterator<Item = (&'static DataFormat, NumFormat, TexelDecoder)> {
        (0..=255u8).filter_map(data_format).flat_map(|df| {
            (0..16)
                .filter_map(NumFormat::from_code)
                .map(move |nf| (df, nf, TexelDecoder::new(df, nf)))
        })
    }

    #[test]
    fn decoders_are_load_texel() {
        let mut seed = 0x9e37_79b9_u32;
        for (df, nf, d) in every_decoder() {
            for _ in 0..64 {
                let texel: Vec<u8> = (0..df.bytes.max(1))
                    .map(|_| {
                        seed ^= seed << 13;
                        seed ^= seed >> 17;
                        seed ^= seed << 5;
                        seed as u8
                    })
                    .collect();
                assert_eq!(d.decode(&texel), load_texel(df, nf, &texel), "{}", df.name);
            }
        }
    }

    #[test]
    fn table_values_are_never_subnormal() {
        // What `TexelDecoder::never_subnormal` rests on.
        for w in 1..=TABLE_BITS {
            for nf in [NumFormat::Unorm, NumFormat::Snorm, NumFormat::Srgb] {
                for i in 0..4 {
                    for &v in load_table(w, nf, i).unwrap() {
                        assert!(!f32::from_bits(v).is_subnormal(), "{nf:?} width {w}");
                    }
                }
            }
        }
        // And the decoders that claim it decode no denormal (the loads whose
        // values can be denormal, 32-bit floats, do not claim it).
        let mut claimed = 0;
        let denormal = [1u8, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0];
        for (df, nf, d) in every_decoder() {
            if nf == NumFormat::Float && df.comps.iter().all(|&(_, w)| w == 32) {
                assert!(!d.never_subnormal(), "{}", df.name);
            }
            if d.never_subnormal() {
                claimed += 1;
                let v = d.decode(&denormal[..df.bytes as usize]).unwrap();
                assert!(v.iter().all(|&b| !f32::from_bits(b).is_subnormal()));
            }
        }
        assert!(claimed > 0);
    }

    #[test]
    fn tables_are_the_functions() {
        for w in 1..=TABLE_BITS {
            for c in 0..1u32 << w {
                let x = |nf, i| load_component(c, w, nf, Plain, i);
                assert_eq!(x(NumFormat::Unorm, 0), unorm_to_f32(c, w).to_bits());
                assert_eq!(x(NumFormat::Snorm, 0), snorm_to_f32(c, w).to_bits());
                let srgb = srgb_to_linear(unorm_to_f32(c, w)).to_bits();
                assert_eq!(x(NumFormat::Srgb, 2), srgb, "width {w} code {c}");
                assert_eq!(x(NumFormat::Srgb, 3), unorm_to_f32(c, w).to_bits());
                // Bits above the width are not part of the code.
                assert_eq!(
                    load_component(c | 1 << w, w, NumFormat::Unorm, Plain, 0),
                    x(NumFormat::Unorm, 0)
                );
            }
        }
    }

    #[test]
    fn table_is_consistent() {
        for d in DATA_FORMATS {
            // Components lie inside the texel and do not overlap.
            let mut used = 0u128;
            for &(lo, w) in d.comps {
                assert!(u32::from(lo) + u32::from(w) <= d.bytes * 8, "{}", d.name);
                let mask = ((1u128 << w) - 1) << lo;
                assert_eq!(used & mask, 0, "{} overlaps", d.name);
                used |= mask;
            }
            // Plain and packed formats cover the texel exactly.
            if d.layout != Block {
                assert_eq!(used.count_ones(), d.bytes * 8, "{}", d.name);
            }
        }
    }

    #[test]
    fn rgba8_unorm() {
        // Bytes 00 80 ff 40: X = 0 → 0.0, Y = 128 → 128/255, Z = 255 → 1.0,
        // W = 64 → 64/255.
        let t = load_texel(f(10), NumFormat::Unorm, &[0x00, 0x80, 0xff, 0x40]).unwrap();
        let w = ((64.0f64 / 255.0) as f32).to_bits();
        assert_eq!(t, [0, 0x3f00_8081, 1.0f32.to_bits(), w]);
        assert_eq!(
            store_texel(f(10), NumFormat::Unorm, t).unwrap(),
            vec![0x00, 0x80, 0xff, 0x40]
        );
    }

    #[test]
    fn r8_fills_missing_components() {
        // One component: Y, Z = 0 and W = 1.0 (float classes) or 1 (integer).
        let t = load_texel(f(1), NumFormat::Unorm, &[0xff]).unwrap();
        assert_eq!(t, [1.0f32.to_bits(), 0, 0, 1.0f32.to_bits()]);
        let t = load_texel(f(1), NumFormat::Uint, &[0xff]).unwrap();
        assert_eq!(t, [255, 0, 0, 1]);
    }

    #[test]
    fn packed_layouts() {
        // 5_6_5 word 0xf800: X = bits 4:0 = 0, Y = bits 10:5 = 0, Z = bits 15:11 = 31.
        let t = load_texel(f(16), NumFormat::Uint, &0xf800u16.to_le_bytes()).unwrap();
        assert_eq!(t, [0, 0, 31, 1]);
        // 2_10_10_10 word 0xc000_0001: X = 1, W = bits 31:30 = 3.
        let t = load_texel(f(9), NumFormat::Uint, &0xc000_0001u32.to_le_bytes()).unwrap();
        assert_eq!(t, [1, 0, 0, 3]);
        // 10_10_10_2 puts the 2-bit component in X (bits 1:0).
        let t = load_texel(f(8), NumFormat::Uint, &0x0000_0003u32.to_le_bytes()).unwrap();
        assert_eq!(t, [3, 0, 0, 0]);
        // 24_8: X = stencil bits 7:0, Y = depth bits 31:8.
        let t = load_texel(f(21), NumFormat::Uint, &0x1234_5678u32.to_le_bytes()).unwrap();
        assert_eq!(&t[..2], &[0x78, 0x12_3456]);
    }

    #[test]
    fn packed_floats() {
        // 10_11_11 FLOAT: X = uf11 1.0 (0x3c0), Y = uf11 2.0 (16 << 6 = 0x400),
        // Z = uf10 0.5 (14 << 5 = 0x1c0).
        let word = 0x3c0 | (0x400 << 11) | (0x1c0 << 22);
        let t = load_texel(f(6), NumFormat::Float, &(word as u32).to_le_bytes()).unwrap();
        assert_eq!(
            t,
            [
                1.0f32.to_bits(),
                2.0f32.to_bits(),
                0.5f32.to_bits(),
                1.0f32.to_bits()
            ]
        );
        assert_eq!(
            store_texel(f(6), NumFormat::Float, t).unwrap(),
            (word as u32).to_le_bytes()
        );
        // With a non-float number format the components are plain integers:
        // 10_11_11 UINT of the same word reads X = 0x3c0, Y = 0x400, Z = 0x1c0.
        assert!(check(f(6), NumFormat::Srgb).is_err());
        let t = load_texel(f(6), NumFormat::Uint, &(word as u32).to_le_bytes()).unwrap();
        assert_eq!(t, [0x3c0, 0x400, 0x1c0, 1]);
    }

    #[test]
    fn snorm_and_sint() {
        // 16_16 SNORM 0x8000 (−32768) and 0x8001 (−32767) both read −1.0.
        let t = load_texel(f(5), NumFormat::Snorm, &[0x00, 0x80, 0x01, 0x80]).unwrap();
        assert_eq!(&t[..2], &[(-1.0f32).to_bits(), (-1.0f32).to_bits()]);
        let t = load_texel(f(3), NumFormat::Sint, &[0xff, 0x80]).unwrap();
        assert_eq!(&t[..2], &[(-1i32) as u32, (-128i32) as u32]);
        // SINT store keeps the low bits: −1 → 0xff.
        assert_eq!(
            store_texel(f(3), NumFormat::Sint, [(-1i32) as u32, 5, 0, 0]).unwrap(),
            vec![0xff, 5]
        );
    }

    #[test]
    fn srgb_decodes_xyz_not_w() {
        let t = load_texel(f(10), NumFormat::Srgb, &[0x80, 0x80, 0x80, 0x80]).unwrap();
        let lin = srgb_to_linear(unorm_to_f32(0x80, 8)).to_bits();
        assert_eq!(t, [lin, lin, lin, 0x3f00_8081]);
        assert!(
            store_texel(f(10), NumFormat::Srgb, t).is_none(),
            "sRGB is read-only"
        );
    }

    #[test]
    fn validity() {
        assert!(check(f(10), NumFormat::Float).is_err());
        assert!(check(f(12), NumFormat::Float).is_ok());
        assert!(check(f(5), NumFormat::Srgb).is_err());
        assert!(check(f(14), NumFormat::Uint).is_ok());
    }

    /// gfx10 `IMG_FORMAT` codes and names as Mesa's register database lists them
    /// (`src/amd/registers/gfx10-rsrc.json`), the FMASK, MM_* and YCbCr codes left
    /// out: test data, independent of the run-length table above.
    const MESA_GFX10_FORMATS: &[(u16, &str)] = &[
        (1, "8_UNORM"),
        (2, "8_SNORM"),
        (3, "8_USCALED"),
        (4, "8_SSCALED"),
        (5, "8_UINT"),
        (6, "8_SINT"),
        (7, "16_UNORM"),
        (8, "16_SNORM"),
        (9, "16_USCALED"),
        (10, "16_SSCALED"),
        (11, "16_UINT"),
        (12, "16_SINT"),
        (13, "16_FLOAT"),
        (14, "8_8_UNORM"),
        (15, "8_8_SNORM"),
        (16, "8_8_USCALED"),
        (17, "8_8_SSCALED"),
        (18, "8_8_UINT"),
        (19, "8_8_SINT"),
        (20, "32_UINT"),
        (21, "32_SINT"),
        (22, "32_FLOAT"),
        (23, "16_16_UNORM"),
        (24, "16_16_SNORM"),
        (25, "16_16_USCALED"),
        (26, "16_16_SSCALED"),
        (27, "16_16_UINT"),
        (28, "16_16_SINT"),
        (29, "16_16_FLOAT"),
        (30, "10_11_11_UNORM"),
        (31, "10_11_11_SNORM"),
        (32, "10_11_11_USCALED"),
        (33, "10_11_11_SSCALED"),
        (34, "10_11_11_UINT"),
        (35, "10_11_11_SINT"),
        (36, "10_11_11_FLOAT"),
        (37, "11_11_10_UNORM"),
        (38, "11_11_10_SNORM"),
        (39, "11_11_10_USCALED"),
        (40, "11_11_10_SSCALED"),
        (41, "11_11_10_UINT"),
        (42, "11_11_10_SINT"),
        (43, "11_11_10_FLOAT"),
        (44, "10_10_10_2_UNORM"),
        (45, "10_10_10_2_SNORM"),
        (46, "10_10_10_2_USCALED"),
        (47, "10_10_10_2_SSCALED"),
        (48, "10_10_10_2_UINT"),
        (49, "10_10_10_2_SINT"),
        (50, "2_10_10_10_UNORM"),
        (51, "2_10_10_10_SNORM"),
        (52, "2_10_10_10_USCALED"),
        (53, "2_10_10_10_SSCALED"),
        (54, "2_10_10_10_UINT"),
        (55, "2_10_10_10_SINT"),
        (56, "8_8_8_8_UNORM"),
        (57, "8_8_8_8_SNORM"),
        (58, "8_8_8_8_USCALED"),
        (59, "8_8_8_8_SSCALED"),
        (60, "8_8_8_8_UINT"),
        (61, "8_8_8_8_SINT"),
        (62, "32_32_UINT"),
        (63, "32_32_SINT"),
        (64, "32_32_FLOAT"),
        (65, "16_16_16_16_UNORM"),
        (66, "16_16_16_16_SNORM"),
        (67, "16_16_16_16_USCALED"),
        (68, "16_16_16_16_SSCALED"),
        (69, "16_16_16_16_UINT"),
        (70, "16_16_16_16_SINT"),
        (71, "16_16_16_16_FLOAT"),
        (72, "32_32_32_UINT"),
        (73, "32_32_32_SINT"),
        (74, "32_32_32_FLOAT"),
        (75, "32_32_32_32_UINT"),
        (76, "32_32_32_32_SINT"),
        (77, "32_32_32_32_FLOAT"),
        (128, "8_SRGB"),
        (129, "8_8_SRGB"),
        (130, "8_8_8_8_SRGB"),
        (131, "6E4_FLOAT"),
        (132, "5_9_9_9_FLOAT"),
        (133, "5_6_5_UNORM"),
        (134, "1_5_5_5_UNORM"),
        (135, "5_5_5_1_UNORM"),
        (136, "4_4_4_4_UNORM"),
        (137, "4_4_UNORM"),
        (138, "1_UNORM"),
        (139, "1_REVERSED_UNORM"),
        (140, "32_FLOAT_CLAMP"),
        (141, "8_24_UNORM"),
        (142, "8_24_UINT"),
        (143, "24_8_UNORM"),
        (144, "24_8_UINT"),
        (145, "X24_8_32_UINT"),
        (146, "X24_8_32_FLOAT"),
        (147, "GB_GR_UNORM"),
        (148, "GB_GR_SNORM"),
        (149, "GB_GR_UINT"),
        (150, "GB_GR_SRGB"),
        (151, "BG_RG_UNORM"),
        (152, "BG_RG_SNORM"),
        (153, "BG_RG_UINT"),
        (154, "BG_RG_SRGB"),
        (169, "BC1_UNORM"),
        (170, "BC1_SRGB"),
        (171, "BC2_UNORM"),
        (172, "BC2_SRGB"),
        (173, "BC3_UNORM"),
        (174, "BC3_SRGB"),
        (175, "BC4_UNORM"),
        (176, "BC4_SNORM"),
        (177, "BC5_UNORM"),
        (178, "BC5_SNORM"),
        (179, "BC6_UFLOAT"),
        (180, "BC6_SFLOAT"),
        (181, "BC7_UNORM"),
        (182, "BC7_SRGB"),
    ];

    /// The gfx10 names gcnrun does not model (no data format or number format of
    /// its own to map them to).
    const NOT_MODELLED: &[&str] = &[
        "6E4",
        "5_9_9_9",
        "4_4_UNORM",
        "1_UNORM",
        "1_REVERSED",
        "32_FLOAT_CLAMP",
        "X24_8_32",
        "GB_GR",
        "BG_RG",
    ];

    /// gfx10 names whose (data format, number format) pair gcnrun spells the
    /// gfx6–gfx9 way: BC6H unsigned/signed is BC6 with UNORM/SNORM (Mesa
    /// `ac_translate_tex_numformat`; texture::bcn).
    const SAME_PAIR: &[(&str, &str)] = &[("BC6_UNORM", "BC6_UFLOAT"), ("BC6_SNORM", "BC6_SFLOAT")];

    #[test]
    fn gfx10_table_matches_mesa_names() {
        for &(code, name) in MESA_GFX10_FORMATS {
            match gfx10_format(code) {
                Some((df, nf)) => {
                    let ours = format!("{}_{:?}", df.name, nf).to_uppercase();
                    let ours = SAME_PAIR
                        .iter()
                        .find(|p| p.0 == ours)
                        .map_or(ours.as_str(), |p| p.1);
                    assert_eq!(ours, name, "code {code}");
                    assert_eq!(gfx10_code(df.code, nf), Some(code), "{name}");
                    assert!(check(df, nf).is_ok(), "{name} is valid on gfx6-9 too");
                }
                None => assert!(
                    NOT_MODELLED.iter().any(|p| name.starts_with(p)),
                    "{code} {name} missing from GFX10_FORMATS"
                ),
            }
        }
        // Codes between the runs decode to nothing.
        for code in [0u16, 78, 127, 155, 168, 183, 511] {
            assert!(gfx10_format(code).is_none(), "{code}");
        }
        // Pairs gfx10 cannot express: 32-bit UNORM, 8-bit FLOAT, 5_6_5 UINT.
        assert_eq!(gfx10_code(4, NumFormat::Unorm), None);
        assert_eq!(gfx10_code(1, NumFormat::Float), None);
        assert_eq!(gfx10_code(16, NumFormat::Uint), None);
    }

    /// gfx11 combined `FORMAT` names in code order 1–81, as ROCm ROCR-Runtime
    /// `src/image/resource_gfx11.h` lists them (`CFMT_*`; LLVM `UfmtGFX11` lists
    /// 1–63 in the same order): test data, independent of [`GFX11_FORMATS`].
    const GFX11_NAMES: &[&str] = &[
        "8_UNORM",
        "8_SNORM",
        "8_USCALED",
        "8_SSCALED",
        "8_UINT",
        "8_SINT",
        "16_UNORM",
        "16_SNORM",
        "16_USCALED",
        "16_SSCALED",
        "16_UINT",
        "16_SINT",
        "16_FLOAT",
        "8_8_UNORM",
        "8_8_SNORM",
        "8_8_USCALED",
        "8_8_SSCALED",
        "8_8_UINT",
        "8_8_SINT",
        "32_UINT",
        "32_SINT",
        "32_FLOAT",
        "16_16_UNORM",
        "16_16_SNORM",
        "16_16_USCALED",
        "16_16_SSCALED",
        "16_16_UINT",
        "16_16_SINT",
        "16_16_FLOAT",
        "10_11_11_FLOAT",
        "11_11_10_FLOAT",
        "10_10_10_2_UNORM",
        "10_10_10_2_SNORM",
        "10_10_10_2_UINT",
        "10_10_10_2_SINT",
        "2_10_10_10_UNORM",
        "2_10_10_10_SNORM",
        "2_10_10_10_USCALED",
        "2_10_10_10_SSCALED",
        "2_10_10_10_UINT",
        "2_10_10_10_SINT",
        "8_8_8_8_UNORM",
        "8_8_8_8_SNORM",
        "8_8_8_8_USCALED",
        "8_8_8_8_SSCALED",
        "8_8_8_8_UINT",
        "8_8_8_8_SINT",
        "32_32_UINT",
        "32_32_SINT",
        "32_32_FLOAT",
        "16_16_16_16_UNORM",
        "16_16_16_16_SNORM",
        "16_16_16_16_USCALED",
        "16_16_16_16_SSCALED",
        "16_16_16_16_UINT",
        "16_16_16_16_SINT",
        "16_16_16_16_FLOAT",
        "32_32_32_UINT",
        "32_32_32_SINT",
        "32_32_32_FLOAT",
        "32_32_32_32_UINT",
        "32_32_32_32_SINT",
        "32_32_32_32_FLOAT",
        "8_SRGB",
        "8_8_SRGB",
        "8_8_8_8_SRGB",
        "5_9_9_9_FLOAT",
        "5_6_5_UNORM",
        "1_5_5_5_UNORM",
        "5_5_5_1_UNORM",
        "4_4_4_4_UNORM",
        "4_4_UNORM",
        "1_UNORM",
        "1_REVERSED_UNORM",
        "32_FLOAT_CLAMP",
        "8_24_UNORM",
        "8_24_UINT",
        "24_8_UNORM",
        "24_8_UINT",
        "X24_8_32_UINT",
        "X24_8_32_FLOAT",
    ];

    /// gfx11 BCn `FORMAT` codes as AMD's Radeon GPU Detective RDNA3 descriptor
    /// disassembler names them (test data).
    const GFX11_BCN: [(u16, &str); 14] = [
        (109, "BC1_UNORM"),
        (110, "BC1_SRGB"),
        (111, "BC2_UNORM"),
        (112, "BC2_SRGB"),
        (113, "BC3_UNORM"),
        (114, "BC3_SRGB"),
        (115, "BC4_UNORM"),
        (116, "BC4_SNORM"),
        (117, "BC5_UNORM"),
        (118, "BC5_SNORM"),
        (119, "BC6_UFLOAT"),
        (120, "BC6_SFLOAT"),
        (121, "BC7_UNORM"),
        (122, "BC7_SRGB"),
    ];

    #[test]
    fn gfx11_table_matches_rocr_names() {
        for (i, name) in GFX11_NAMES.iter().enumerate() {
            let code = i as u16 + 1;
            match combined_format(GFX11_FORMATS, code) {
                Some((df, nf)) => {
                    let ours = format!("{}_{:?}", df.name, nf).to_uppercase();
                    assert_eq!(&ours, name, "gfx11 code {code}");
                    assert_eq!(combined_code(GFX11_FORMATS, df.code, nf), Some(code));
                }
                None => assert!(
                    NOT_MODELLED.iter().any(|p| name.starts_with(p)),
                    "gfx11 {code} {name} missing from GFX11_FORMATS"
                ),
            }
        }
        // The BCn codes (Radeon GPU Detective's RDNA3 list), named as gfx10 does.
        for (code, name) in GFX11_BCN {
            let (df, nf) = combined_format(GFX11_FORMATS, code).expect(name);
            let ours = format!("{}_{:?}", df.name, nf).to_uppercase();
            let ours = SAME_PAIR
                .iter()
                .find(|p| p.0 == ours)
                .map_or(ours.as_str(), |p| p.1);
            assert_eq!(ours, name, "gfx11 code {code}");
            assert_eq!(combined_code(GFX11_FORMATS, df.code, nf), Some(code));
        }
        // Between and past the lists, and gfx10's BCn codes, decode to nothing.
        for code in [0u16, 82, 108, 123, 130, 169, 255] {
            assert!(combined_format(GFX11_FORMATS, code).is_none(), "{code}");
        }
        // The renumbering: 8_8_8_8_UNORM is 56 on gfx10 and 42 on gfx11; 16_FLOAT
        // keeps 13; gfx11 has no 10_11_11_UNORM nor 10_10_10_2_USCALED.
        assert_eq!(gfx10_code(10, NumFormat::Unorm), Some(56));
        assert_eq!(combined_code(GFX11_FORMATS, 10, NumFormat::Unorm), Some(42));
        assert_eq!(combined_code(GFX11_FORMATS, 2, NumFormat::Float), Some(13));
        assert_eq!(combined_code(GFX11_FORMATS, 6, NumFormat::Unorm), None);
        assert_eq!(combined_code(GFX11_FORMATS, 8, NumFormat::Uscaled), None);
    }
}
