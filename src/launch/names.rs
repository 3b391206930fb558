//! Manifest spellings of hardware enumerations, as data: each name maps to the
//! field value the hardware descriptor holds (research/sampling.md §2–§3).

/// `IMG_DATA_FORMAT` (T# word 1, bits 25:20), the formats gcnrun supports for
/// images (sampling.md §3.1, "recommended emulator subset").
pub const DATA_FORMATS: &[(&str, u8)] = &[
    ("8", 1),
    ("16", 2),
    ("8_8", 3),
    ("32", 4),
    ("16_16", 5),
    ("10_11_11", 6),
    ("11_11_10", 7),
    ("10_10_10_2", 8),
    ("2_10_10_10", 9),
    ("8_8_8_8", 10),
    ("32_32", 11),
    ("16_16_16_16", 12),
    ("32_32_32", 13),
    ("32_32_32_32", 14),
    ("5_6_5", 16),
    ("1_5_5_5", 17),
    ("5_5_5_1", 18),
    ("4_4_4_4", 19),
    ("8_24", 20),
    ("24_8", 21),
    ("bc1", 35),
    ("bc2", 36),
    ("bc3", 37),
    ("bc4", 38),
    ("bc5", 39),
    ("bc6", 40),
    ("bc7", 41),
];

/// `IMG_NUM_FORMAT` (T# word 1, bits 29:26; sampling.md §3.2).
pub const NUM_FORMATS: &[(&str, u8)] = &[
    ("unorm", 0),
    ("snorm", 1),
    ("uscaled", 2),
    ("sscaled", 3),
    ("uint", 4),
    ("sint", 5),
    ("float", 7),
    ("srgb", 9),
];

/// BC6H's own spellings of its two number formats, accepted with `format =
/// "bc6"` only: unsigned half floats (UF16) are BC6 UNORM, signed (SF16) BC6
/// SNORM, as Mesa programs them on gfx6–gfx9 (texture::bcn).
pub const BC6_NUM_FORMATS: &[(&str, u8)] = &[("ufloat", 0), ("sfloat", 1)];

/// `SQ_RSRC_IMG_*` resource types as gfx10 `DIM` numbers them (research/encodings.md).
pub const IMAGE_TYPES: &[(&str, u8)] = &[
    ("1d", 0),
    ("2d", 1),
    ("3d", 2),
    ("cube", 3),
    ("1d_array", 4),
    ("2d_array", 5),
    ("2d_msaa", 6),
    ("2d_msaa_array", 7),
];

/// `SQ_TEX_CLAMP` address modes (S# word 0; sampling.md §2.2).
pub const ADDRESS_MODES: &[(&str, u8)] = &[
    ("wrap", 0),
    ("mirror", 1),
    ("clamp_last_texel", 2),
    ("mirror_once_last_texel", 3),
    ("clamp_half_border", 4),
    ("mirror_once_half_border", 5),
    ("clamp_border", 6),
    ("mirror_once_border", 7),
];

/// `SQ_TEX_DEPTH_COMPARE` functions (S# word 0, bits 14:12).
pub const COMPARE_FUNCS: &[(&str, u8)] = &[
    ("never", 0),
    ("less", 1),
    ("equal", 2),
    ("less_equal", 3),
    ("greater", 4),
    ("not_equal", 5),
    ("greater_equal", 6),
    ("always", 7),
];

/// `BORDER_COLOR_TYPE` (S# word 3, bits 31:30); 3 (register) is not offered.
pub const BORDER_COLORS: &[(&str, u8)] = &[
    ("transparent_black", 0),
    ("opaque_black", 1),
    ("opaque_white", 2),
];

/// Filters (`XY_MAG_FILTER`/`XY_MIN_FILTER`: point 0, bilinear 1; `MIP_FILTER`:
/// none 0, point 1, linear 2).
pub const XY_FILTERS: &[(&str, u8)] = &[
    ("point", 0),
    ("nearest", 0),
    ("linear", 1),
    ("bilinear", 1),
    ("aniso_point", 2),
    ("aniso_linear", 3),
];
/// `Z_FILTER` (3D images): none 0 (follow the x/y filter), point 1, linear 2.
pub const Z_FILTERS: &[(&str, u8)] = &[("none", 0), ("point", 1), ("nearest", 1), ("linear", 2)];
/// `FILTER_MODE`: blend 0 (weighted average), min 1, max 2.
pub const REDUCTIONS: &[(&str, u8)] = &[("blend", 0), ("min", 1), ("max", 2)];
/// Mip filters.
pub const MIP_FILTERS: &[(&str, u8)] = &[("none", 0), ("point", 1), ("nearest", 1), ("linear", 2)];

/// A name no table entry has: what was looked up, the name, and the choices.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown {what} `{name}` (one of: {})", choices.join(" "))]
pub struct UnknownName {
    /// What the name names (`image type`, `address mode`, …).
    pub what: String,
    /// The name as written.
    pub name: String,
    /// The names the table has.
    pub choices: Vec<String>,
}

/// Looks `name` up (case-insensitively) in `table`; the error lists the choices.
pub fn lookup(table: &[(&str, u8)], name: &str, what: &str) -> Result<u8, UnknownName> {
    let lower = name.to_ascii_lowercase();
    table
        .iter()
        .find(|(n, _)| *n == lower)
        .map(|&(_, v)| v)
        .ok_or_else(|| UnknownName {
            what: what.to_string(),
            name: name.to_string(),
            choices: table.iter().map(|(n, _)| n.to_string()).collect(),
        })
}
