//! The launch manifest (SPEC.md, "Launch manifest"): TOML in, a validated
//! [`Launch`] out. Every error is one line that names the field.
//!
//! This module checks everything that can be checked without the texture model:
//! names, references between sections, register ranges against the register
//! file, value counts against range widths, sizes against caps. Turning images and
//! samplers into descriptor dwords and memory is the texture model's job.

use super::expr::LaneExpr;
use super::names::{self, lookup};
use super::regs::RegRange;
use crate::arch::{Arch, Gen};
use serde::Deserialize;

/// Caps that keep a manifest from asking for unbounded memory or time.
#[derive(Clone, Copy, Debug)]
pub struct Caps {
    /// Most waves in one launch. Each wave holds its registers and LDS
    /// (`WaveState`: about 128 KiB for wave64), so this bounds that state at
    /// 2 GiB; 16384 waves of 64 lanes are the 2^20 lanes `gcn-run bench` runs at
    /// most. (2^20 waves had let a manifest ask for 128 GiB and abort.)
    pub max_waves: u32,
    /// Largest image dimension (width, height, depth or layers).
    pub max_dim: u32,
    /// LDS bytes per wave.
    pub lds_bytes: u32,
}

impl Default for Caps {
    fn default() -> Caps {
        Caps {
            max_waves: 16384,
            max_dim: 16384,
            lds_bytes: 64 * 1024,
        }
    }
}

/// Why a manifest is rejected: the field (a dotted path) and what is wrong.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("field `{field}`: {problem}")]
pub struct ManifestError {
    /// Dotted path of the offending field, e.g. `sgpr."s[4:11]"` or `image[0].format`.
    pub field: String,
    /// What is wrong with it.
    pub problem: Problem,
}

impl ManifestError {
    /// The error of `field`.
    pub fn new(field: impl Into<String>, problem: impl Into<Problem>) -> ManifestError {
        ManifestError {
            field: field.into(),
            problem: problem.into(),
        }
    }
}

/// What is wrong with a manifest field: the manifest's own rules, or what a
/// lower layer refuses of the value the field gives.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum Problem {
    /// The value breaks a rule of the manifest (a name, a reference between
    /// sections, a range, a cap, the TOML syntax), in the manifest's words.
    #[error("{0}")]
    Invalid(String),
    /// A register name that does not parse.
    #[error(transparent)]
    Reg(#[from] super::regs::RegError),
    /// A name the table of its field does not have.
    #[error(transparent)]
    Name(#[from] names::UnknownName),
    /// An image name that is not a plain file name.
    #[error(transparent)]
    ImageName(#[from] ImageNameError),
    /// Hex bytes that do not parse.
    #[error(transparent)]
    Hex(crate::input::InputError),
    /// An expression that does not compile or evaluate.
    #[error(transparent)]
    Expr(#[from] super::expr::ExprError),
    /// A descriptor the field describes that cannot be encoded.
    #[error(transparent)]
    Descriptor(#[from] crate::texture::error::DescriptorError),
    /// An image the texture model cannot lay out.
    #[error(transparent)]
    Texture(#[from] crate::texture::error::TextureError),
    /// A PNG that cannot be read into the image.
    #[error(transparent)]
    Png(#[from] super::png::PngError),
    /// An Intel variable the program's layout does not have.
    #[error(transparent)]
    Layout(#[from] crate::visa::lower::layout::LayoutError),
    /// The machine cannot give the memory the field asks for: what for.
    #[error("{what}: {source}")]
    Alloc {
        /// What the memory was for.
        what: String,
        /// The refused allocation.
        source: crate::machine::AllocError,
    },
}

impl From<String> for Problem {
    fn from(s: String) -> Problem {
        Problem::Invalid(s)
    }
}

impl From<&str> for Problem {
    fn from(s: &str) -> Problem {
        Problem::Invalid(s.to_string())
    }
}

fn err(field: impl Into<String>, problem: impl Into<Problem>) -> ManifestError {
    ManifestError::new(field, problem)
}

/// Where the code comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CodeSource {
    /// A path relative to the manifest's directory.
    File(String),
    /// Inline bytes (`hex = "…"`).
    Bytes(Vec<u8>),
}

/// One image of the launch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImageSpec {
    /// Name the SGPR section refers to.
    pub name: String,
    /// Resource type, as gfx10 `DIM` numbers it (0 = 1D … 7 = 2D MSAA array).
    pub dim: u8,
    /// A 1D image in a typed buffer (`type = "1d_buffer"`, OpenCL's
    /// `image1d_buffer_t`): laid out as a 1D image (`dim` 0), described by a
    /// V# (`texture::typed::encode_vsharp`) instead of a T#.
    pub buffer: bool,
    /// Width, height, depth (3D) and layers (arrays; 6 for cube); unused ones are 1.
    pub width: u32,
    /// Height.
    pub height: u32,
    /// Depth (3D only).
    pub depth: u32,
    /// Array layers.
    pub layers: u32,
    /// Mip levels (`"full"` resolved to the full chain).
    pub mips: u32,
    /// MSAA samples (2D MSAA types).
    pub samples: u32,
    /// `IMG_DATA_FORMAT` code.
    pub data_format: u8,
    /// `IMG_NUM_FORMAT` code.
    pub num_format: u8,
    /// Initial contents.
    pub init: ImageInit,
}

/// Initial image contents.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ImageInit {
    /// A checkerboard.
    Checker,
    /// A gradient.
    Gradient,
    /// Deterministic noise.
    Noise,
    /// All zero.
    Zero,
    /// A PNG file, relative to the manifest.
    Png(String),
    /// `{ hex = … }`: texels tightly packed, level 0 first; exactly level 0
    /// (every slice of it) or the whole mip chain (`build::fill`).
    Hex(Vec<u8>),
    /// Texels of level 0 of slice 0 (a PNG, read before placement); the
    /// rest of the image is zero.
    Bytes(Vec<u8>),
}

/// One sampler of the launch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SamplerSpec {
    /// Name the SGPR section refers to.
    pub name: String,
    /// `XY_MAG_FILTER`, `XY_MIN_FILTER`, `MIP_FILTER` codes.
    pub mag: u8,
    /// Min filter.
    pub min: u8,
    /// Mip filter.
    pub mip: u8,
    /// `SQ_TEX_CLAMP` per axis.
    pub address: [u8; 3],
    /// `SQ_TEX_DEPTH_COMPARE`.
    pub compare: u8,
    /// `BORDER_COLOR_TYPE`.
    pub border: u8,
    /// `LOD_BIAS`, signed, 8 fractional bits (manifest `lod_bias`, in levels).
    pub lod_bias: i16,
    /// `MIN_LOD`, unsigned 4.8 (manifest `min_lod`, default 0).
    pub min_lod: u16,
    /// `MAX_LOD`, unsigned 4.8 (manifest `max_lod`, default 15.996 = 0xfff).
    pub max_lod: u16,
    /// `MAX_ANISO_RATIO` code: 0 = 1x … 4 = 16x (manifest `max_aniso` = 1…16).
    pub max_aniso: u8,
    /// `Z_FILTER`: 0 none (follow x/y), 1 point, 2 linear (manifest `filter.z`).
    pub z_filter: u8,
    /// `FILTER_MODE`: 0 blend, 1 min, 2 max (manifest `reduction`).
    pub reduction: u8,
    /// `FORCE_UNNORMALIZED` (manifest `unnormalized`).
    pub unnormalized: bool,
    /// `FORCE_DEGAMMA` (manifest `force_degamma`).
    pub force_degamma: bool,
    /// `DISABLE_CUBE_WRAP` (manifest `seamless = false`).
    pub disable_cube_wrap: bool,
}

/// An initial SGPR (or M0/EXEC/VCC) value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SgprInit {
    /// The T# of the named image.
    Image(String),
    /// The S# of the named sampler.
    Sampler(String),
    /// Raw dwords, one per register.
    Dwords(Vec<u32>),
    /// A BVH T# over the named `[[buffer]]`.
    Bvh(BvhInit),
    /// A buffer descriptor (V#) over the named `[[buffer]]`.
    Vsharp(VsharpInit),
    /// `{ address = "name" }`: the named `[[buffer]]`'s address, low dword
    /// first — one SGPR takes the low 32 bits, as a driver's 32-bit
    /// pointer (a draw's `address32_hi` supplies the rest).
    Address(String),
}

/// `{ vsharp = "name", stride = …, num_records = …, oob_select = …, word3 =
/// … }`: a V# whose base is the named `[[buffer]]`'s address
/// (machine::buffer). NUM_RECORDS defaults to the buffer's size in bytes
/// (divided by the stride when there is one: records); word 3 defaults to
/// DST_SEL XYZW with a 32-bit float format on gfx6–gfx9, and OOB_SELECT 3
/// (raw) on gfx10+; `word3` replaces it whole.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VsharpInit {
    /// The `[[buffer]]`.
    pub buffer: String,
    /// STRIDE (0..=16383).
    pub stride: u32,
    /// NUM_RECORDS, when given.
    pub num_records: Option<u32>,
    /// OOB_SELECT (gfx10+), when given.
    pub oob_select: Option<u32>,
    /// Word 3 whole, when given.
    pub word3: Option<u32>,
}

/// `{ bvh = "name", box_sort = …, box_grow = …, triangle_return = … }`: the BVH
/// T# fields a manifest sets (texture::bvh::BvhDesc; unset fields are 0, as in
/// the T#).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BvhInit {
    /// The `[[buffer]]` holding the nodes (the T# base and size).
    pub buffer: String,
    /// `box_sort_en`.
    pub box_sort: bool,
    /// `box_grow_value`.
    pub box_grow: u8,
    /// `triangle_return_mode` = 1 (`triangle_return = "barycentrics"`; the
    /// default `"hit_status"` is 0).
    pub barycentrics: bool,
}

/// An initial VGPR value: per register, either one constant for every lane or an
/// expression evaluated per lane.
#[derive(Clone, Debug)]
pub enum VgprInit {
    /// Raw 32-bit values, one per register.
    Consts(Vec<u32>),
    /// A `u32` expression (one register).
    U32(LaneExpr),
    /// An `f32` expression (one register).
    F32(LaneExpr),
}

/// One `[expect]` entry.
#[derive(Clone, Debug, PartialEq)]
pub struct Expect {
    /// Registers compared.
    pub reg: RegRange,
    /// Lane (every lane when absent).
    pub lane: Option<u32>,
    /// Wave (every wave when absent).
    pub wave: Option<u32>,
    /// Expected raw values, one per register.
    pub values: Vec<u32>,
    /// True when the values were given as f32 (compared with `ulp` tolerance).
    pub is_f32: bool,
    /// Allowed difference in units of the last place, for f32 values.
    pub ulp: u32,
}

/// A validated launch.
#[derive(Clone, Debug)]
pub struct Launch {
    /// Target.
    pub arch: Arch,
    /// The code.
    pub code: CodeSource,
    /// Number of waves.
    pub waves: u32,
    /// Lanes per wave.
    pub wave_size: u32,
    /// Initial scalar registers (the same in every wave).
    pub sgpr: Vec<(RegRange, SgprInit)>,
    /// Initial vector registers.
    pub vgpr: Vec<(RegRange, VgprInit)>,
    /// Images, in manifest order.
    pub images: Vec<ImageSpec>,
    /// Samplers, in manifest order.
    pub samplers: Vec<SamplerSpec>,
    /// Buffers (`[[buffer]]`), in manifest order, placed after the images.
    pub buffers: Vec<super::buffer::BufferSpec>,
    /// LDS initial contents: byte offset → dwords.
    pub lds: Vec<(u32, Vec<u32>)>,
    /// Expected values.
    pub expect: Vec<Expect>,
    /// The manifest's own cap on image memory (`mem_cap`, bytes): it can only
    /// lower the command line's (`--mem-cap`) or the default cap.
    pub mem_cap: Option<u64>,
    /// The manifest's own work budget (`max_steps`, docs/semantics/core.md, "The
    /// work budget"): like `mem_cap`, it can only lower the command line's
    /// (`--max-steps`) or the default budget.
    pub max_steps: Option<u64>,
    /// A draw launch's `[draw]` (docs/draw.md): its waves come from the
    /// triangles, not from `waves`.
    pub draw: Option<super::draw::DrawSpec>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawManifest {
    arch: Option<String>,
    code: Option<String>,
    hex: Option<String>,
    waves: Option<u32>,
    wave_size: Option<u32>,
    mem_cap: Option<u64>,
    max_steps: Option<u64>,
    #[serde(default)]
    sgpr: toml::Table,
    #[serde(default)]
    vgpr: toml::Table,
    #[serde(default)]
    image: Vec<RawImage>,
    #[serde(default)]
    sampler: Vec<RawSampler>,
    #[serde(default)]
    buffer: Vec<toml::Value>,
    #[serde(default)]
    lds: toml::Table,
    #[serde(default)]
    expect: toml::Table,
    draw: Option<toml::Table>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawImage {
    name: String,
    #[serde(rename = "type")]
    kind: String,
    width: u32,
    #[serde(default = "one")]
    height: u32,
    #[serde(default = "one")]
    depth: u32,
    #[serde(default = "one")]
    layers: u32,
    #[serde(default = "one")]
    samples: u32,
    #[serde(default)]
    mips: Option<toml::Value>,
    format: String,
    num_format: String,
    #[serde(default)]
    init: Option<toml::Value>,
}

fn one() -> u32 {
    1
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSampler {
    name: String,
    #[serde(default)]
    filter: Option<RawFilter>,
    #[serde(default)]
    address: Option<Vec<String>>,
    #[serde(default)]
    compare: Option<String>,
    #[serde(default)]
    border: Option<String>,
    #[serde(default)]
    lod_bias: Option<f64>,
    #[serde(default)]
    min_lod: Option<f64>,
    #[serde(default)]
    max_lod: Option<f64>,
    #[serde(default)]
    max_aniso: Option<u32>,
    #[serde(default)]
    reduction: Option<String>,
    #[serde(default)]
    unnormalized: Option<bool>,
    #[serde(default)]
    force_degamma: Option<bool>,
    #[serde(default)]
    seamless: Option<bool>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFilter {
    mag: Option<String>,
    min: Option<String>,
    mip: Option<String>,
    z: Option<String>,
}

/// Parses and validates a manifest's text. TOML syntax errors carry a line and
/// column; every other error names its field.
pub fn parse(text: &str, caps: &Caps) -> Result<Launch, ManifestError> {
    let raw: RawManifest = toml::from_str(text).map_err(|e| toml_error(text, &e))?;
    let arch = match &raw.arch {
        Some(a) => Arch::parse(a).ok_or_else(|| err("arch", format!("unknown arch `{a}`")))?,
        None => Arch::default_arch(),
    };
    let code = match (raw.code, raw.hex) {
        (Some(c), None) => CodeSource::File(c),
        (None, Some(h)) => {
            CodeSource::Bytes(crate::input::parse_hex(&h).map_err(|e| err("hex", Problem::Hex(e)))?)
        }
        (Some(_), Some(_)) => return Err(err("code", "give `code` or `hex`, not both")),
        (None, None) => {
            return Err(err(
                "code",
                "missing: name the code file (`code = …`) or give `hex = …`",
            ))
        }
    };
    let waves = raw.waves.unwrap_or(1);
    if waves == 0 || waves > caps.max_waves {
        return Err(err(
            "waves",
            format!("{waves} is outside 1..={}", caps.max_waves),
        ));
    }
    let wave_size = raw.wave_size.unwrap_or(64);
    match wave_size {
        64 => {}
        32 if arch.gen >= Gen::Gfx10 => {}
        32 => {
            return Err(err(
                "wave_size",
                format!("wave32 needs gfx10 or later, not {arch}"),
            ))
        }
        n => return Err(err("wave_size", format!("{n} is not 64 or 32"))),
    }
    let mut images = raw
        .image
        .iter()
        .enumerate()
        .map(|(i, im)| image(i, im, caps))
        .collect::<Result<Vec<_>, _>>()?;
    // A draw's render targets are images `mrt0`…, after the manifest's.
    let draw = match &raw.draw {
        Some(t) => {
            if raw.waves.is_some() {
                return Err(err(
                    "waves",
                    "a draw's waves come from its triangles: leave `waves` out",
                ));
            }
            Some(super::draw::parse(t, &mut images)?)
        }
        None => None,
    };
    let samplers = raw
        .sampler
        .iter()
        .enumerate()
        .map(|(i, s)| sampler(i, s))
        .collect::<Result<Vec<_>, _>>()?;
    let buffers = super::buffer::parse_buffers(&raw.buffer)?;
    unique_names(images.iter().map(|i| i.name.as_str()), "image")?;
    unique_names(samplers.iter().map(|s| s.name.as_str()), "sampler")?;
    let mut sgpr = Vec::new();
    for (key, value) in &raw.sgpr {
        let field = format!("sgpr.\"{key}\"");
        let reg = RegRange::parse(key).map_err(|m| err(&field, m))?;
        if matches!(reg, RegRange::Vgpr { .. }) {
            return Err(err(&field, "a VGPR in the [sgpr] section"));
        }
        let init = sgpr_init(&field, reg, value)?;
        match &init {
            SgprInit::Image(n) if !images.iter().any(|i| &i.name == n) => {
                return Err(err(&field, format!("no [[image]] named `{n}`")))
            }
            SgprInit::Sampler(n) if !samplers.iter().any(|s| &s.name == n) => {
                return Err(err(&field, format!("no [[sampler]] named `{n}`")))
            }
            SgprInit::Bvh(b) if !buffers.iter().any(|s| s.name == b.buffer) => {
                return Err(err(&field, format!("no [[buffer]] named `{}`", b.buffer)))
            }
            SgprInit::Vsharp(v) if !buffers.iter().any(|s| s.name == v.buffer) => {
                return Err(err(&field, format!("no [[buffer]] named `{}`", v.buffer)))
            }
            SgprInit::Address(n) if !buffers.iter().any(|s| &s.name == n) => {
                return Err(err(&field, format!("no [[buffer]] named `{n}`")))
            }
            _ => {}
        }
        sgpr.push((reg, init));
    }
    let mut vgpr = Vec::new();
    for (key, value) in &raw.vgpr {
        let field = format!("vgpr.\"{key}\"");
        let reg = RegRange::parse(key).map_err(|m| err(&field, m))?;
        if !matches!(reg, RegRange::Vgpr { .. }) {
            return Err(err(&field, "not a VGPR"));
        }
        vgpr.push((reg, vgpr_init(&field, reg, value)?));
    }
    let mut lds = Vec::new();
    for (key, value) in &raw.lds {
        let field = format!("lds.\"{key}\"");
        let offset = parse_u32(key).ok_or_else(|| err(&field, "the key must be a byte offset"))?;
        let (values, _) = typed_values(&field, value)?;
        let end = u64::from(offset) + 4 * values.len() as u64;
        if offset % 4 != 0 || end > u64::from(caps.lds_bytes) {
            return Err(err(
                &field,
                format!(
                    "dwords at {offset:#x}..{end:#x} are not aligned or pass the {} LDS bytes",
                    caps.lds_bytes
                ),
            ));
        }
        lds.push((offset, values));
    }
    let mut expect = Vec::new();
    for (key, value) in &raw.expect {
        let field = format!("expect.\"{key}\"");
        let reg = RegRange::parse(key).map_err(|m| err(&field, m))?;
        // One table, or an array of tables (several lanes of one register).
        match value {
            toml::Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    let f = format!("{field}[{i}]");
                    expect.push(expect_entry(&f, reg, item, wave_size, waves)?);
                }
            }
            _ => expect.push(expect_entry(&field, reg, value, wave_size, waves)?),
        }
    }
    Ok(Launch {
        arch,
        code,
        waves,
        wave_size,
        sgpr,
        vgpr,
        images,
        samplers,
        buffers,
        lds,
        expect,
        mem_cap: match raw.mem_cap {
            Some(0) => return Err(err("mem_cap", "0 bytes cannot hold an image")),
            c => c,
        },
        max_steps: match raw.max_steps {
            Some(0) => return Err(err("max_steps", "a budget of 0 steps runs nothing")),
            n => n,
        },
        draw,
    })
}

/// A TOML error as one line with its line and column.
/// A TOML syntax error as field `toml`, with the line and column. The toml
/// crate's message is empty for some characters it cannot place (a carriage
/// return alone at the start of a line or inside a comment): the message then
/// says what is there. A carriage return not followed by a newline is named
/// as such wherever the error points at one (TOML 1.0 ends a line with LF or
/// CR LF only).
pub(crate) fn toml_error(text: &str, e: &toml::de::Error) -> ManifestError {
    let start = e.span().map(|s| s.start.min(text.len()));
    let at = start.map(|s| {
        let before = &text.as_bytes()[..s];
        let line = before.iter().filter(|b| **b == b'\n').count() + 1;
        let col = s - before
            .iter()
            .rposition(|b| *b == b'\n')
            .map_or(0, |i| i + 1)
            + 1;
        format!(" (line {line}, column {col})")
    });
    let mut message = e.message().replace('\n', " ").trim().to_string();
    let here = start.and_then(|s| text.get(s..)).unwrap_or("");
    if here.starts_with('\r') && !here.starts_with("\r\n") {
        message =
            "a carriage return not followed by a newline (TOML ends lines with LF or CR LF)".into();
    } else if message.is_empty() {
        message = match here.chars().next() {
            Some(c) => format!("unexpected character {c:?} (U+{:04X})", u32::from(c)),
            None => "unexpected end of the manifest".into(),
        };
    }
    err("toml", format!("{message}{}", at.unwrap_or_default()))
}

fn unique_names<'a>(names: impl Iterator<Item = &'a str>, what: &str) -> Result<(), ManifestError> {
    let mut seen = std::collections::BTreeSet::new();
    for n in names {
        if !seen.insert(n) {
            return Err(err(
                format!("{what}.name"),
                format!("two [[{what}]] entries are named `{n}`"),
            ));
        }
    }
    Ok(())
}

/// The longest image name, in bytes: `--out` writes `<name>.png` through a
/// temporary file with a longer name, and both must fit the 255 bytes a file
/// name may have on common file systems.
pub const MAX_IMAGE_NAME_BYTES: usize = 200;

/// Device names Windows reserves in every folder, whatever the extension.
const RESERVED_NAMES: &[&str] = &[
    "con", "prn", "aux", "nul", "com1", "com2", "com3", "com4", "com5", "com6", "com7", "com8",
    "com9", "lpt1", "lpt2", "lpt3", "lpt4", "lpt5", "lpt6", "lpt7", "lpt8", "lpt9",
];

/// Checks that an image name is a plain file name, since `--out` writes the
/// image as `<DIR>/<name>.png`: letters and digits (any script), `_`, `-` and
/// `.`, starting with a letter, digit or `_` (so no `.`, `..`, hidden or
/// option-like names, and no separators or control characters), at most
/// [`MAX_IMAGE_NAME_BYTES`] bytes, and not a device name Windows reserves.
pub fn check_image_name(name: &str) -> Result<(), ImageNameError> {
    let plain = |c: char| c.is_alphanumeric() || matches!(c, '_' | '-' | '.');
    let why = if name.is_empty() {
        Some("is empty".to_string())
    } else if name.len() > MAX_IMAGE_NAME_BYTES {
        Some(format!(
            "has {} bytes, more than {MAX_IMAGE_NAME_BYTES}",
            name.len()
        ))
    } else if let Some(c) = name.chars().find(|&c| !plain(c)) {
        Some(format!("holds {c:?}"))
    } else if !name.starts_with(|c: char| c.is_alphanumeric() || c == '_') {
        Some("does not start with a letter, digit or `_`".to_string())
    } else if RESERVED_NAMES.contains(&name.split('.').next().unwrap_or("").to_lowercase().as_str())
    {
        Some("is a device name on Windows".to_string())
    } else {
        None
    };
    match why {
        None => Ok(()),
        Some(why) => Err(ImageNameError {
            name: name.to_string(),
            why,
        }),
    }
}

/// An image name that is not a plain file name ([`check_image_name`]): the
/// name and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{name}` {why}: an image name must be a plain file name (`--out` writes `<name>.png`): letters, digits, `_`, `-` and `.`, starting with a letter, digit or `_`")]
pub struct ImageNameError {
    /// The name.
    pub name: String,
    /// What is wrong with it.
    pub why: String,
}

fn image(i: usize, im: &RawImage, caps: &Caps) -> Result<ImageSpec, ManifestError> {
    let f = |name: &str| format!("image[{i}].{name}");
    check_image_name(&im.name).map_err(|m| err(f("name"), m))?;
    let buffer = im.kind == "1d_buffer";
    let dim = if buffer {
        for (name, v) in [
            ("height", im.height),
            ("depth", im.depth),
            ("layers", im.layers),
            ("samples", im.samples),
        ] {
            if v != 1 {
                return Err(err(
                    f(name),
                    "a 1d_buffer image has one row, slice and sample",
                ));
            }
        }
        if im.mips.is_some() {
            return Err(err(f("mips"), "a 1d_buffer image has one mip level"));
        }
        0
    } else {
        lookup(names::IMAGE_TYPES, &im.kind, "image type (or 1d_buffer)")
            .map_err(|m| err(f("type"), m))?
    };
    let data_format =
        lookup(names::DATA_FORMATS, &im.format, "data format").map_err(|m| err(f("format"), m))?;
    let num_format = lookup(names::NUM_FORMATS, &im.num_format, "number format")
        .or_else(|m| match crate::texture::bcn::format(data_format) {
            Some(b) if b.name == "bc6" => lookup(names::BC6_NUM_FORMATS, &im.num_format, "")
                .map_err(|_| Problem::Invalid(format!("{m} (bc6 also takes ufloat, sfloat)"))),
            _ => Err(m.into()),
        })
        .map_err(|m| err(f("num_format"), m))?;
    for (name, v) in [
        ("width", im.width),
        ("height", im.height),
        ("depth", im.depth),
        ("layers", im.layers),
    ] {
        if v == 0 || v > caps.max_dim {
            return Err(err(f(name), format!("{v} is outside 1..={}", caps.max_dim)));
        }
    }
    if !matches!(im.samples, 1 | 2 | 4 | 8) {
        return Err(err(
            f("samples"),
            format!("{} is not 1, 2, 4 or 8", im.samples),
        ));
    }
    let largest = im
        .width
        .max(im.height)
        .max(if dim == 2 { im.depth } else { 1 });
    let full = 32 - largest.leading_zeros();
    let mips = match &im.mips {
        None => 1,
        Some(toml::Value::String(s)) if s == "full" => full,
        Some(toml::Value::Integer(n)) if (1..=i64::from(full)).contains(n) => *n as u32,
        Some(v) => {
            return Err(err(
                f("mips"),
                format!("{v} is not \"full\" or a count in 1..={full}"),
            ))
        }
    };
    let init = match &im.init {
        None => ImageInit::Zero,
        Some(toml::Value::String(s)) => match s.as_str() {
            "checker" => ImageInit::Checker,
            "gradient" => ImageInit::Gradient,
            "noise" => ImageInit::Noise,
            "zero" => ImageInit::Zero,
            other => return Err(err(f("init"), format!("unknown init `{other}` (checker gradient noise zero, or {{ png = … }} / {{ hex = … }})"))),
        },
        Some(toml::Value::Table(t)) if t.len() == 1 => match t.iter().next() {
            Some((k, toml::Value::String(p))) if k == "png" => ImageInit::Png(p.clone()),
            Some((k, toml::Value::String(h))) if k == "hex" => ImageInit::Hex(
                crate::input::parse_hex(h).map_err(|e| err(f("init.hex"), Problem::Hex(e)))?,
            ),
            _ => return Err(err(f("init"), "expected { png = \"file\" } or { hex = \"…\" }")),
        },
        Some(_) => return Err(err(f("init"), "expected a name or { png = … } / { hex = … }")),
    };
    Ok(ImageSpec {
        name: im.name.clone(),
        dim,
        buffer,
        width: im.width,
        height: im.height,
        depth: im.depth,
        layers: im.layers,
        mips,
        samples: im.samples,
        data_format,
        num_format,
        init,
    })
}

fn sampler(i: usize, s: &RawSampler) -> Result<SamplerSpec, ManifestError> {
    let f = |name: &str| format!("sampler[{i}].{name}");
    let pick = |table, v: &Option<String>, default: &str, what, field: &str| {
        lookup(table, v.as_deref().unwrap_or(default), what).map_err(|m| err(f(field), m))
    };
    let (mag, min, mip, z) = match &s.filter {
        Some(fl) => (fl.mag.clone(), fl.min.clone(), fl.mip.clone(), fl.z.clone()),
        None => (None, None, None, None),
    };
    // A LOD in levels as the S#'s fixed point with 8 fractional bits, which
    // must represent it within `lo..=hi` levels.
    let lod = |v: Option<f64>, default: i32, lo: f64, hi: f64, field: &str| match v {
        None => Ok(default),
        Some(x) if x.is_finite() && (lo..=hi).contains(&x) => Ok((x * 256.0).round() as i32),
        Some(x) => Err(err(f(field), format!("{x} is outside {lo}..={hi} levels"))),
    };
    let max_aniso = match s.max_aniso {
        None | Some(1) => 0,
        Some(r @ (2 | 4 | 8 | 16)) => r.trailing_zeros() as u8,
        Some(r) => return Err(err(f("max_aniso"), format!("{r} is not one of 1 2 4 8 16"))),
    };
    let mut address = [0u8; 3];
    if let Some(a) = &s.address {
        if a.len() != 3 {
            return Err(err(f("address"), "give three modes, for x, y and z"));
        }
        for (k, m) in a.iter().enumerate() {
            address[k] = lookup(names::ADDRESS_MODES, m, "address mode")
                .map_err(|e| err(f("address"), e))?;
        }
    }
    Ok(SamplerSpec {
        name: s.name.clone(),
        mag: pick(names::XY_FILTERS, &mag, "point", "filter", "filter.mag")?,
        min: pick(names::XY_FILTERS, &min, "point", "filter", "filter.min")?,
        mip: pick(names::MIP_FILTERS, &mip, "none", "mip filter", "filter.mip")?,
        address,
        compare: pick(
            names::COMPARE_FUNCS,
            &s.compare,
            "never",
            "compare function",
            "compare",
        )?,
        border: pick(
            names::BORDER_COLORS,
            &s.border,
            "transparent_black",
            "border color",
            "border",
        )?,
        lod_bias: lod(s.lod_bias, 0, -32.0, 8191.0 / 256.0, "lod_bias")? as i16,
        min_lod: lod(s.min_lod, 0, 0.0, 4095.0 / 256.0, "min_lod")? as u16,
        max_lod: lod(s.max_lod, 0xfff, 0.0, 4095.0 / 256.0, "max_lod")? as u16,
        max_aniso,
        z_filter: pick(names::Z_FILTERS, &z, "none", "z filter", "filter.z")?,
        reduction: pick(
            names::REDUCTIONS,
            &s.reduction,
            "blend",
            "reduction",
            "reduction",
        )?,
        unnormalized: s.unnormalized.unwrap_or(false),
        force_degamma: s.force_degamma.unwrap_or(false),
        disable_cube_wrap: !s.seamless.unwrap_or(true),
    })
}

fn parse_u32(s: &str) -> Option<u32> {
    let s = s.trim();
    match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(h) => u32::from_str_radix(h, 16).ok(),
        None => s.parse().ok(),
    }
}

/// A TOML integer as a 32-bit register value: 0..=u32::MAX, or a negative i32
/// (two's complement).
fn int_dword(field: &str, v: &toml::Value) -> Result<u32, ManifestError> {
    match v {
        toml::Value::Integer(n) if (i64::from(i32::MIN)..=i64::from(u32::MAX)).contains(n) => {
            Ok(*n as u32)
        }
        toml::Value::Integer(n) => Err(err(field, format!("{n} does not fit in 32 bits"))),
        other => Err(err(
            field,
            format!("expected an integer, found {}", other.type_str()),
        )),
    }
}

fn float_dword(field: &str, v: &toml::Value) -> Result<u32, ManifestError> {
    match v {
        toml::Value::Float(x) => Ok((*x as f32).to_bits()),
        toml::Value::Integer(n) => Ok((*n as f32).to_bits()),
        other => Err(err(
            field,
            format!("expected a number, found {}", other.type_str()),
        )),
    }
}

/// `{ u32 = [..] }` / `{ f32 = [..] }` (or a single value): raw dwords, and whether
/// they were floats.
pub(super) fn typed_values(
    field: &str,
    v: &toml::Value,
) -> Result<(Vec<u32>, bool), ManifestError> {
    let t = v
        .as_table()
        .ok_or_else(|| err(field, "expected { u32 = … } or { f32 = … }"))?;
    let (ty, vals) = match (t.get("u32"), t.get("f32")) {
        (Some(v), None) => (false, v),
        (None, Some(v)) => (true, v),
        _ => return Err(err(field, "give exactly one of u32 = … or f32 = …")),
    };
    let one = |x: &toml::Value| {
        if ty {
            float_dword(field, x)
        } else {
            int_dword(field, x)
        }
    };
    let values = match vals {
        toml::Value::Array(a) => a.iter().map(one).collect::<Result<Vec<_>, _>>()?,
        x => vec![one(x)?],
    };
    Ok((values, ty))
}

fn sgpr_init(field: &str, reg: RegRange, v: &toml::Value) -> Result<SgprInit, ManifestError> {
    let init = match v {
        toml::Value::Table(t) if t.contains_key("bvh") => SgprInit::Bvh(bvh_init(field, t)?),
        toml::Value::Table(t) if t.contains_key("vsharp") => {
            SgprInit::Vsharp(vsharp_init(field, t)?)
        }
        toml::Value::Table(t) if t.len() == 1 => match t.iter().next() {
            Some((k, toml::Value::String(n))) if k == "image" => SgprInit::Image(n.clone()),
            Some((k, toml::Value::String(n))) if k == "sampler" => SgprInit::Sampler(n.clone()),
            Some((k, toml::Value::String(n))) if k == "address" => SgprInit::Address(n.clone()),
            _ => {
                return Err(err(
                    field,
                    "expected { image = \"name\" }, { sampler = \"name\" }, { address = \"buffer\" }, { bvh = \"name\", … }, { vsharp = \"name\", … } or dwords",
                ))
            }
        },
        toml::Value::Array(a) => SgprInit::Dwords(
            a.iter()
                .map(|x| int_dword(field, x))
                .collect::<Result<_, _>>()?,
        ),
        // EXEC/VCC take one 64-bit integer (TOML integers are i64: -1 = all lanes).
        toml::Value::Integer(n) if reg.dwords() == 2 => {
            SgprInit::Dwords(vec![*n as u32, (*n >> 32) as u32])
        }
        x => SgprInit::Dwords(vec![int_dword(field, x)?]),
    };
    let want = match &init {
        SgprInit::Address(_) if reg.dwords() <= 2 && matches!(reg, RegRange::Sgpr { .. }) => {
            return Ok(init)
        }
        SgprInit::Address(_) => {
            return Err(err(
                field,
                "an address takes one SGPR (the low 32 bits) or two",
            ))
        }
        SgprInit::Image(_) => &[4u32, 8][..],
        SgprInit::Sampler(_) | SgprInit::Bvh(_) | SgprInit::Vsharp(_) => &[4][..],
        SgprInit::Dwords(d) => {
            if d.len() as u32 != reg.dwords() {
                return Err(err(
                    field,
                    format!("{} values for {} registers", d.len(), reg.dwords()),
                ));
            }
            return Ok(init);
        }
    };
    if !want.contains(&reg.dwords())
        || !matches!(reg, RegRange::Sgpr { first, .. } if first % 4 == 0)
    {
        return Err(err(
            field,
            format!("a descriptor needs an aligned range of {want:?} SGPRs (s[4*k:…]), not {reg}"),
        ));
    }
    Ok(init)
}

/// `{ bvh = "name", box_sort = bool, box_grow = 0..=255, triangle_return =
/// "hit_status" | "barycentrics" }`; each key but `bvh` is optional.
fn bvh_init(field: &str, t: &toml::Table) -> Result<BvhInit, ManifestError> {
    let mut b = BvhInit {
        buffer: String::new(),
        box_sort: false,
        box_grow: 0,
        barycentrics: false,
    };
    for (k, v) in t {
        let sub = format!("{field}.{k}");
        match (k.as_str(), v) {
            ("bvh", toml::Value::String(n)) => b.buffer = n.clone(),
            ("box_sort", toml::Value::Boolean(on)) => b.box_sort = *on,
            ("box_grow", toml::Value::Integer(n)) if (0..=255).contains(n) => b.box_grow = *n as u8,
            ("triangle_return", toml::Value::String(m)) if m == "hit_status" => {
                b.barycentrics = false
            }
            ("triangle_return", toml::Value::String(m)) if m == "barycentrics" => {
                b.barycentrics = true
            }
            ("bvh", _) => return Err(err(sub, "expected the name of a [[buffer]]")),
            ("box_sort", _) => return Err(err(sub, "expected true or false")),
            ("box_grow", _) => return Err(err(sub, "expected an integer in 0..=255")),
            ("triangle_return", _) => {
                return Err(err(sub, "expected \"hit_status\" or \"barycentrics\""))
            }
            _ => {
                return Err(err(
                    sub,
                    "unknown key (bvh, box_sort, box_grow, triangle_return)",
                ))
            }
        }
    }
    Ok(b)
}

/// `{ vsharp = "name", stride = 0..=16383, num_records = u32, oob_select =
/// 0..=3, word3 = u32 }`; each key but `vsharp` is optional.
fn vsharp_init(field: &str, t: &toml::Table) -> Result<VsharpInit, ManifestError> {
    let mut v = VsharpInit {
        buffer: String::new(),
        stride: 0,
        num_records: None,
        oob_select: None,
        word3: None,
    };
    for (k, x) in t {
        let sub = format!("{field}.{k}");
        let int = |max: i64| match x {
            toml::Value::Integer(n) if (0..=max).contains(n) => Ok(*n as u32),
            _ => Err(err(&sub, format!("expected an integer in 0..={max}"))),
        };
        match k.as_str() {
            "vsharp" => match x {
                toml::Value::String(n) => v.buffer = n.clone(),
                _ => return Err(err(sub, "expected the name of a [[buffer]]")),
            },
            "stride" => v.stride = int(0x3fff)?,
            "num_records" => v.num_records = Some(int(u32::MAX.into())?),
            "oob_select" => v.oob_select = Some(int(3)?),
            "word3" => v.word3 = Some(int(u32::MAX.into())?),
            _ => {
                return Err(err(
                    sub,
                    "unknown key (vsharp, stride, num_records, oob_select, word3)",
                ))
            }
        }
    }
    Ok(v)
}

fn vgpr_init(field: &str, reg: RegRange, v: &toml::Value) -> Result<VgprInit, ManifestError> {
    let t = v
        .as_table()
        .ok_or_else(|| err(field, "expected { u32 = … } or { f32 = … }"))?;
    let expr_of = |x: &toml::Value| x.as_str().map(LaneExpr::parse);
    let init = match (
        t.get("u32").and_then(expr_of),
        t.get("f32").and_then(expr_of),
    ) {
        (Some(e), None) => VgprInit::U32(e.map_err(|m| err(field, m))?),
        (None, Some(e)) => VgprInit::F32(e.map_err(|m| err(field, m))?),
        _ => VgprInit::Consts(typed_values(field, v)?.0),
    };
    let n = match &init {
        VgprInit::Consts(c) => c.len() as u32,
        _ => 1,
    };
    if n != reg.dwords() {
        return Err(err(
            field,
            format!(
                "{n} values for {} registers (an expression sets one register)",
                reg.dwords()
            ),
        ));
    }
    Ok(init)
}

fn expect_entry(
    field: &str,
    reg: RegRange,
    v: &toml::Value,
    wave_size: u32,
    waves: u32,
) -> Result<Expect, ManifestError> {
    let t = v.as_table().ok_or_else(|| err(field, "expected a table"))?;
    let mut data = toml::Table::new();
    let mut lane = None;
    let mut wave = None;
    let mut ulp = 0;
    for (k, x) in t {
        let sub = format!("{field}.{k}");
        let small = |limit: u32| match x.as_integer() {
            Some(n) if (0..i64::from(limit)).contains(&n) => Ok(n as u32),
            _ => Err(err(&sub, format!("expected an integer in 0..{limit}"))),
        };
        match k.as_str() {
            "lane" => lane = Some(small(wave_size)?),
            "wave" => wave = Some(small(waves)?),
            "ulp" => ulp = small(1 << 24)?,
            "u32" | "f32" => {
                data.insert(k.clone(), x.clone());
            }
            _ => return Err(err(&sub, "unknown key (lane, wave, ulp, u32, f32)")),
        }
    }
    let (values, is_f32) = typed_values(field, &toml::Value::Table(data))?;
    if values.len() as u32 != reg.dwords() {
        return Err(err(
            field,
            format!("{} values for {} registers", values.len(), reg.dwords()),
        ));
    }
    Ok(Expect {
        reg,
        lane,
        wave,
        values,
        is_f32,
        ulp,
    })
}
