//! Draw launches (`[draw]`; docs/draw.md): a pixel shader run over the
//! pixels of a list of triangles, as a GPU's fixed-function stages would run
//! it — rasterization ([`raster`]), 2×2 quads with helper lanes, quads
//! packed into waves, attribute parameters in LDS with the primitive mask,
//! the barycentric and position VGPRs — and the exports collected into
//! render targets afterwards ([`resolve`]).

pub mod raster;

use super::build::Placed;
use super::manifest::{ImageInit, ImageSpec, ManifestError};
use crate::arch::Gen;
use crate::machine::{Memory, WaveState};
use raster::{to_window, Triangle};

fn err(field: impl Into<String>, problem: impl Into<super::manifest::Problem>) -> ManifestError {
    ManifestError::new(field, problem)
}

/// The pixel shader's VGPR inputs (SPI_PS_INPUT_ENA bits 0–15, AMD's
/// register headers) with the VGPRs each takes, in the order the hardware
/// loads the enabled ones.
pub const PS_INPUTS: &[(&str, u32)] = &[
    ("persp_sample", 2),
    ("persp_center", 2),
    ("persp_centroid", 2),
    ("persp_pull_model", 3),
    ("linear_sample", 2),
    ("linear_center", 2),
    ("linear_centroid", 2),
    ("line_stipple", 1),
    ("pos_x_float", 1),
    ("pos_y_float", 1),
    ("pos_z_float", 1),
    ("pos_w_float", 1),
    ("front_face", 1),
    ("ancillary", 1),
    ("sample_coverage", 1),
    ("pos_fixed_pt", 1),
];

/// A render target's format: gcnrun's name, the image's data and number
/// format codes.
pub const TARGET_FORMATS: &[(&str, u8, u8)] = &[
    ("rgba8_unorm", 10, 0),
    ("rgba8_uint", 10, 4),
    ("rgba16_float", 12, 7),
    ("r32_float", 4, 7),
    ("rgba32_float", 14, 7),
    ("rgba32_uint", 14, 4),
];

/// How the shader's export dwords hold a target's components
/// (SPI_SHADER_COL_FORMAT): name, 16-bit packed, number class.
const EXPORT_FORMATS: &[(&str, ExportFormat)] = &[
    ("32_r", ExportFormat::F32(1)),
    ("32_gr", ExportFormat::F32(2)),
    ("32_ar", ExportFormat::F32Ar),
    ("32_abgr", ExportFormat::F32(4)),
    ("fp16_abgr", ExportFormat::Packed(Pack16::Float)),
    ("unorm16_abgr", ExportFormat::Packed(Pack16::Unorm)),
    ("snorm16_abgr", ExportFormat::Packed(Pack16::Snorm)),
    ("uint16_abgr", ExportFormat::Packed(Pack16::Uint)),
    ("sint16_abgr", ExportFormat::Packed(Pack16::Sint)),
];

/// The number class of a 16-bit packed export format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pack16 {
    /// IEEE half.
    Float,
    /// c / 65535.
    Unorm,
    /// max(c / 32767, −1).
    Snorm,
    /// Zero-extended.
    Uint,
    /// Sign-extended.
    Sint,
}

/// An export format: where each component's bits are in the slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExportFormat {
    /// The first n components, one dword each.
    F32(usize),
    /// Red in dword 0, alpha in dword 1.
    F32Ar,
    /// Four 16-bit components, two per dword.
    Packed(Pack16),
}

/// One render target.
#[derive(Clone, Debug, PartialEq)]
pub struct Target {
    /// The target's format name.
    pub format: String,
    /// Its export format.
    pub export: ExportFormat,
}

/// A `[draw]` section.
#[derive(Clone, Debug, PartialEq)]
pub struct DrawSpec {
    /// Render-target width in pixels.
    pub width: u32,
    /// Height.
    pub height: u32,
    /// Clip-space positions, three per triangle.
    pub positions: Vec<[f32; 4]>,
    /// Per vertex, the four 32-bit channels of each attribute.
    pub attributes: Vec<Vec<[u32; 4]>>,
    /// The enabled inputs, as indices into [`PS_INPUTS`] (ascending).
    pub inputs: Vec<usize>,
    /// The SGPR the primitive mask arrives in.
    pub prim_mask: u32,
    /// The high dword of the driver's 32-bit addresses (RADV: 0xffff8000):
    /// the launch's memory lies at `(address32_hi & 0xffff) << 32` on, where
    /// a scalar load through a 32-bit pointer reaches it.
    pub address32_hi: u32,
    /// Colour targets `mrt0`…, in order.
    pub targets: Vec<Target>,
    /// `[[draw.expect]]`: pixels the run must produce.
    pub expect: Vec<PixelExpect>,
    /// Attributes interpolated as two f16 per dword (SPI_PS_INPUT_CNTL's
    /// FP16_INTERP_MODE): their P10 and P20 are formed half by half.
    pub fp16: Vec<u32>,
}

/// A `[[draw.expect]]` entry: the texel of target `target` at (x, y), as an
/// image load of the target reads it (`texture::format::load_texel`: f32
/// bits for float and normalized formats, integers for integer ones).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PixelExpect {
    /// The target (0 = `mrt0`).
    pub target: u32,
    /// The pixel's column.
    pub x: u32,
    /// Its row.
    pub y: u32,
    /// The four components.
    pub values: Vec<u32>,
    /// Given as f32 (compared within `ulp`).
    pub is_f32: bool,
    /// Allowed f32 difference in units of the last place.
    pub ulp: u32,
}

/// Most vertices of one draw (a third as many triangles).
const MAX_VERTICES: usize = 3 * 4096;
/// Most attributes (LDS parameters per primitive).
const MAX_ATTRIBUTES: usize = 32;
/// Largest target side.
const MAX_SIDE: u32 = 4096;
/// Most pixel-centre tests one draw may ask for (the triangles' bounding
/// boxes, clipped to the target, summed): rasterization time is bounded by
/// the input checked before it starts, not by the input's whim. Two
/// full-target triangles of 2048 × 2048 fit; the 16384-wave cap of a launch
/// (a million lanes) is reached first anyway.
const MAX_PIXEL_TESTS: u64 = 1 << 23;

/// Parses `[draw]`. The render targets become images `mrt0`, `mrt1`, … of
/// `images` (zero-filled, 2D), which `--out` writes as PNG.
pub fn parse(t: &toml::Table, images: &mut Vec<ImageSpec>) -> Result<DrawSpec, ManifestError> {
    const KEYS: &[&str] = &[
        "width",
        "height",
        "positions",
        "attributes",
        "inputs",
        "prim_mask",
        "address32_hi",
        "targets",
        "expect",
        "fp16_attributes",
    ];
    let f = |k: &str| format!("draw.{k}");
    if let Some(k) = t.keys().find(|k| !KEYS.contains(&k.as_str())) {
        return Err(err(f(k), format!("unknown key ({})", KEYS.join(", "))));
    }
    let side = |k: &str| -> Result<u32, ManifestError> {
        t.get(k)
            .and_then(|v| v.as_integer())
            .filter(|n| (1..=i64::from(MAX_SIDE)).contains(n))
            .map(|n| n as u32)
            .ok_or_else(|| err(f(k), format!("a size in 1..={MAX_SIDE} pixels")))
    };
    let (width, height) = (side("width")?, side("height")?);
    let array = |k: &str| -> Result<&Vec<toml::Value>, ManifestError> {
        t.get(k)
            .and_then(|v| v.as_array())
            .ok_or_else(|| err(f(k), "missing, or not an array"))
    };
    let number = |field: &str, v: &toml::Value| -> Result<f64, ManifestError> {
        match v {
            toml::Value::Float(x) => Ok(*x),
            toml::Value::Integer(n) => Ok(*n as f64),
            _ => Err(err(field, "a number")),
        }
    };
    let positions = array("positions")?;
    if positions.is_empty() || positions.len() % 3 != 0 || positions.len() > MAX_VERTICES {
        return Err(err(
            f("positions"),
            format!("three vertices per triangle, at most {MAX_VERTICES}"),
        ));
    }
    let positions = positions
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let field = format!("draw.positions[{i}]");
            let a = p
                .as_array()
                .filter(|a| a.len() == 4)
                .ok_or_else(|| err(&field, "four numbers: clip-space x, y, z, w"))?;
            let mut out = [0f32; 4];
            for (o, v) in out.iter_mut().zip(a) {
                *o = number(&field, v)? as f32;
            }
            Ok(out)
        })
        .collect::<Result<Vec<_>, ManifestError>>()?;
    let attributes = match t.get("attributes") {
        None => vec![Vec::new(); positions.len()],
        Some(_) => {
            let rows = array("attributes")?;
            if rows.len() != positions.len() {
                return Err(err(f("attributes"), "one row per vertex of `positions`"));
            }
            let mut out = Vec::new();
            for (i, row) in rows.iter().enumerate() {
                let field = format!("draw.attributes[{i}]");
                let row = row
                    .as_array()
                    .filter(|r| r.len() <= MAX_ATTRIBUTES)
                    .ok_or_else(|| {
                        err(
                            &field,
                            format!("an array of at most {MAX_ATTRIBUTES} attributes"),
                        )
                    })?;
                let mut attrs = Vec::new();
                for a in row {
                    let a = a
                        .as_array()
                        .filter(|a| a.len() == 4)
                        .ok_or_else(|| err(&field, "each attribute is four channels"))?;
                    let mut ch = [0u32; 4];
                    for (c, v) in ch.iter_mut().zip(a) {
                        // A float is its f32 bits; an integer its 32 bits.
                        *c = match v {
                            toml::Value::Integer(n)
                                if (i64::from(i32::MIN)..=i64::from(u32::MAX)).contains(n) =>
                            {
                                *n as u32
                            }
                            v => (number(&field, v)? as f32).to_bits(),
                        };
                    }
                    attrs.push(ch);
                }
                out.push(attrs);
            }
            if out.iter().any(|r| r.len() != out[0].len()) {
                return Err(err(f("attributes"), "every vertex has the same attributes"));
            }
            out
        }
    };
    let mut inputs = Vec::new();
    for v in array("inputs")? {
        let name = v.as_str().unwrap_or("");
        let i = PS_INPUTS
            .iter()
            .position(|(n, _)| *n == name)
            .ok_or_else(|| {
                let all: Vec<&str> = PS_INPUTS.iter().map(|p| p.0).collect();
                err(
                    f("inputs"),
                    format!("unknown input `{name}` ({})", all.join(", ")),
                )
            })?;
        if matches!(
            PS_INPUTS[i].0,
            "persp_pull_model" | "line_stipple" | "pos_w_float" | "pos_fixed_pt"
        ) {
            return Err(err(
                f("inputs"),
                format!("`{name}` is not modelled (docs/draw.md)"),
            ));
        }
        if inputs.last().is_some_and(|&l| l >= i) {
            return Err(err(f("inputs"), "each input once, in the hardware's order"));
        }
        inputs.push(i);
    }
    if !inputs.iter().any(|&i| i < 7) {
        return Err(err(
            f("inputs"),
            "the hardware needs at least one barycentric input (PERSP_* or LINEAR_*)",
        ));
    }
    let prim_mask = t
        .get("prim_mask")
        .and_then(|v| v.as_str())
        .and_then(|s| s.strip_prefix('s'))
        .and_then(|n| n.parse::<u32>().ok())
        .filter(|n| *n < 104)
        .ok_or_else(|| {
            err(
                f("prim_mask"),
                "the SGPR the primitive mask arrives in (`s3`)",
            )
        })?;
    let address32_hi = match t.get("address32_hi") {
        None => 0xffff_8000,
        Some(v) => v
            .as_integer()
            .and_then(|n| u32::try_from(n).ok())
            .ok_or_else(|| err(f("address32_hi"), "a 32-bit value"))?,
    };
    let mut targets = Vec::new();
    for (k, v) in array("targets")?.iter().enumerate() {
        let field = format!("draw.targets[{k}]");
        let tt = v
            .as_table()
            .ok_or_else(|| err(&field, "a table { format, export }"))?;
        let name = tt.get("format").and_then(|v| v.as_str()).unwrap_or("");
        let &(_, df, nf) = TARGET_FORMATS.iter().find(|t| t.0 == name).ok_or_else(|| {
            let all: Vec<&str> = TARGET_FORMATS.iter().map(|t| t.0).collect();
            err(
                format!("{field}.format"),
                format!("unknown `{name}` ({})", all.join(", ")),
            )
        })?;
        let ex = tt.get("export").and_then(|v| v.as_str()).unwrap_or("");
        let &(_, export) = EXPORT_FORMATS.iter().find(|e| e.0 == ex).ok_or_else(|| {
            let all: Vec<&str> = EXPORT_FORMATS.iter().map(|e| e.0).collect();
            err(
                format!("{field}.export"),
                format!("unknown `{ex}` ({})", all.join(", ")),
            )
        })?;
        let image = format!("mrt{k}");
        if images.iter().any(|i| i.name == image) {
            return Err(err(
                &field,
                format!("an [[image]] is already named `{image}`"),
            ));
        }
        images.push(ImageSpec {
            name: image,
            dim: 1,
            buffer: false,
            width,
            height,
            depth: 1,
            layers: 1,
            mips: 1,
            samples: 1,
            data_format: df,
            num_format: nf,
            init: ImageInit::Zero,
        });
        targets.push(Target {
            format: name.into(),
            export,
        });
    }
    if targets.is_empty() || targets.len() > 8 {
        return Err(err(f("targets"), "one to eight colour targets"));
    }
    let nattr = attributes.first().map_or(0, |a| a.len()) as i64;
    let fp16 = match t.get("fp16_attributes") {
        None => Vec::new(),
        Some(_) => array("fp16_attributes")?
            .iter()
            .map(|v| {
                v.as_integer()
                    .filter(|n| (0..nattr).contains(n))
                    .map(|n| n as u32)
                    .ok_or_else(|| {
                        err(
                            f("fp16_attributes"),
                            format!("attribute indices in 0..{nattr}"),
                        )
                    })
            })
            .collect::<Result<Vec<_>, _>>()?,
    };
    let expect = match t.get("expect") {
        None => Vec::new(),
        Some(_) => array("expect")?
            .iter()
            .enumerate()
            .map(|(i, e)| {
                pixel_expect(
                    &format!("draw.expect[{i}]"),
                    e,
                    (width, height),
                    targets.len(),
                )
            })
            .collect::<Result<Vec<_>, _>>()?,
    };
    Ok(DrawSpec {
        width,
        height,
        positions,
        attributes,
        inputs,
        prim_mask,
        address32_hi,
        targets,
        expect,
        fp16,
    })
}

/// One `[[draw.expect]]` entry: `{ target = 0, x = 3, y = 5, f32 = [r, g,
/// b, a], ulp = 1 }` (or `u32 = […]`; `target` defaults to 0).
fn pixel_expect(
    field: &str,
    v: &toml::Value,
    (width, height): (u32, u32),
    targets: usize,
) -> Result<PixelExpect, ManifestError> {
    let t = v
        .as_table()
        .ok_or_else(|| err(field, "a table { target, x, y, u32 | f32, ulp }"))?;
    let mut data = toml::Table::new();
    let (mut target, mut x, mut y, mut ulp) = (0, None, None, 0);
    for (k, val) in t {
        let sub = format!("{field}.{k}");
        let small = |limit: u32| match val.as_integer() {
            Some(n) if (0..i64::from(limit)).contains(&n) => Ok(n as u32),
            _ => Err(err(&sub, format!("an integer in 0..{limit}"))),
        };
        match k.as_str() {
            "target" => target = small(targets as u32)?,
            "x" => x = Some(small(width)?),
            "y" => y = Some(small(height)?),
            "ulp" => ulp = small(1 << 24)?,
            "u32" | "f32" => {
                data.insert(k.clone(), val.clone());
            }
            _ => return Err(err(&sub, "unknown key (target, x, y, u32, f32, ulp)")),
        }
    }
    let (values, is_f32) = super::manifest::typed_values(field, &toml::Value::Table(data))?;
    if values.len() != 4 {
        return Err(err(field, "four components"));
    }
    Ok(PixelExpect {
        target,
        x: x.ok_or_else(|| err(format!("{field}.x"), "missing"))?,
        y: y.ok_or_else(|| err(format!("{field}.y"), "missing"))?,
        values,
        is_f32,
        ulp,
    })
}

/// The `[[draw.expect]]` entries a run's targets do not hold (after
/// [`resolve`]), named `mrt<k>(x, y)` with the wave and lane that drew the
/// pixel last (`mrt<k>(x, y) undrawn`, wave and lane 0, when none did).
pub fn check(
    d: &DrawSpec,
    run: &DrawRun,
    images: &[Placed],
    memory: &Memory,
) -> Vec<super::build::Mismatch> {
    use crate::texture::format::load_texel;
    let targets = target_images(images, d.targets.len());
    let mut out = Vec::new();
    for e in &d.expect {
        let Some(img) = targets.get(e.target as usize) else {
            continue;
        };
        let actual = target_texel(img, e.x, e.y)
            .and_then(|(at, df, nf)| {
                memory
                    .read(at, df.bytes)
                    .and_then(|b| load_texel(df, nf, b))
            })
            .unwrap_or([0; 4]);
        let holds = e.values.iter().zip(actual).all(|(&want, got)| {
            want == got || (e.is_f32 && super::build::ulp_distance(want, got) <= u64::from(e.ulp))
        });
        if !holds {
            let drawn = run
                .lanes
                .iter()
                .rposition(|l| l.is_some_and(|l| l.covered && (l.x, l.y) == (e.x, e.y)));
            let ws = run.wave_size as usize;
            out.push(super::build::Mismatch {
                register: format!(
                    "mrt{}({}, {}){}",
                    e.target,
                    e.x,
                    e.y,
                    if drawn.is_some() { "" } else { " undrawn" }
                ),
                wave: drawn.map_or(0, |i| (i / ws) as u32),
                lane: drawn.map_or(0, |i| (i % ws) as u32),
                expected: e.values.clone(),
                actual: actual.to_vec(),
            });
        }
    }
    out
}

impl DrawSpec {
    /// Where the launch's memory starts: above the 32-bit address space the
    /// driver's pointers extend into, at the same 0x10000 offset as other
    /// launches.
    pub fn memory_base(&self) -> u64 {
        (u64::from(self.address32_hi & 0xffff) << 32) + super::build::IMAGE_BASE
    }
}

/// Which pixel a lane shades.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LanePixel {
    /// The pixel.
    pub x: u32,
    /// Its row.
    pub y: u32,
    /// Whether the triangle covers it (a lane that is not covered is a
    /// helper: it runs for its quad's derivatives, and its exports are
    /// dropped).
    pub covered: bool,
}

/// A quad of one primitive: its top-left pixel and which of its four pixels
/// the primitive covers (bit = lane in the quad: 0 top-left, 1 top-right,
/// 2 bottom-left, 3 bottom-right).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Quad {
    /// The triangle's index in the draw (its vertices' attributes).
    prim: u32,
    x: u32,
    y: u32,
    mask: u8,
}

/// What the launch keeps of a draw to resolve its exports after the run.
#[derive(Clone, Debug)]
pub struct DrawRun {
    /// The export area's address (`ir::export`).
    pub export_base: u64,
    /// Lanes per wave.
    pub wave_size: u32,
    /// For every lane of every wave (wave-major), the pixel it shades.
    pub lanes: Vec<Option<LanePixel>>,
    /// The targets' export formats, in order (images `mrt0`… ).
    pub exports: Vec<ExportFormat>,
}

impl DrawRun {
    /// The lanes that shade a covered pixel, and the helper lanes.
    pub fn lane_counts(&self) -> (usize, usize) {
        let covered = self.lanes.iter().flatten().filter(|l| l.covered).count();
        let all = self.lanes.iter().flatten().count();
        (covered, all - covered)
    }
}

/// The quads of the draw in the order waves take them: primitive by
/// primitive, quad rows top to bottom, left to right in a row.
/// Also returns every triangle by its index in the draw (`None`: zero area,
/// nothing drawn), which is the index of its vertices' attributes.
fn quads(d: &DrawSpec) -> Result<(Vec<Quad>, Vec<Option<Triangle>>), ManifestError> {
    let mut tris = Vec::new();
    let mut out = Vec::new();
    let mut tests = 0u64;
    for (p, v) in d.positions.chunks(3).enumerate() {
        let mut w = [None; 3];
        for k in 0..3 {
            w[k] = to_window(v[k], d.width, d.height);
        }
        let [Some(a), Some(b), Some(c)] = w else {
            return Err(err(
                format!("draw.positions[{}]", 3 * p),
                "a triangle with w ≤ 0 or far outside the target needs clipping, which is not modelled",
            ));
        };
        let t = Triangle::new([a, b, c]);
        tris.push(t);
        let Some(t) = t else {
            continue;
        };
        let prim = p as u32;
        let Some((x0, y0, x1, y1)) = t.bounds(d.width, d.height) else {
            continue;
        };
        tests += u64::from(x1 - x0 + 2) * u64::from(y1 - y0 + 2);
        if tests > MAX_PIXEL_TESTS {
            return Err(err(
                format!("draw.positions[{}]", 3 * p),
                format!(
                    "the triangles' bounding boxes ask for more than {MAX_PIXEL_TESTS} pixel tests"
                ),
            ));
        }
        let mut qy = y0 & !1;
        while qy <= y1 {
            let mut qx = x0 & !1;
            while qx <= x1 {
                let mut mask = 0u8;
                for (bit, (dx, dy)) in [(0, 0), (1, 0), (0, 1), (1, 1)].into_iter().enumerate() {
                    let (px, py) = (qx + dx, qy + dy);
                    if px < d.width && py < d.height && t.covers(px, py) {
                        mask |= 1 << bit;
                    }
                }
                if mask != 0 {
                    out.push(Quad {
                        prim,
                        x: qx,
                        y: qy,
                        mask,
                    });
                }
                qx += 2;
            }
            qy += 2;
        }
    }
    Ok((out, tris))
}

/// Quads packed into waves: `wave_size / 4` quads each, in order; a wave
/// holds at most 16 primitives (NEWPRIMMASK has 15 bits). Returns each
/// wave's quads.
fn pack(quads: &[Quad], wave_size: u32) -> Vec<Vec<Quad>> {
    let per_wave = (wave_size / 4) as usize;
    let mut waves: Vec<Vec<Quad>> = Vec::new();
    for q in quads {
        let fits = waves.last().is_some_and(|w| {
            let prims = 1 + w.windows(2).filter(|p| p[0].prim != p[1].prim).count();
            let new_prim = w.last().is_some_and(|l| l.prim != q.prim);
            w.len() < per_wave && (prims < 16 || !new_prim)
        });
        if !fits {
            waves.push(Vec::new());
        }
        if let Some(w) = waves.last_mut() {
            w.push(*q);
        }
    }
    waves
}

/// A rasterized draw: its triangles and each wave's quads, computed once
/// ([`plan`]) for both the wave count and [`setup`].
#[derive(Clone, Debug)]
pub struct Plan {
    /// Every triangle by its index in the draw (`None`: zero area).
    tris: Vec<Option<Triangle>>,
    /// Each wave's quads.
    waves: Vec<Vec<Quad>>,
}

impl Plan {
    /// The waves the launch needs (for `initial_waves`): at least one.
    pub fn wave_count(&self) -> u32 {
        self.waves.len().max(1) as u32
    }
}

/// Rasterizes the draw and packs its quads into waves of `wave_size`; more
/// waves than `max_waves` is an error naming `draw`.
pub fn plan(d: &DrawSpec, wave_size: u32, max_waves: u32) -> Result<Plan, ManifestError> {
    let (q, tris) = quads(d)?;
    let waves = pack(&q, wave_size);
    let n = waves.len().max(1);
    if n > max_waves as usize {
        return Err(err(
            "draw",
            format!("the draw needs {n} waves, more than the {max_waves} a launch may hold"),
        ));
    }
    Ok(Plan { tris, waves })
}

/// Sets up the waves of a draw (built by `initial_waves` with the manifest's
/// SGPRs): EXEC = the covered lanes, the primitive mask in its SGPR, the
/// input VGPRs, each primitive's attribute parameters in the wave's LDS; and
/// places the export area after `memory`'s contents. Returns what
/// [`resolve`] needs.
pub fn setup(
    d: &DrawSpec,
    plan: &Plan,
    gen: Gen,
    waves: &mut [WaveState],
    memory: &mut Memory,
    cap: u64,
) -> Result<DrawRun, ManifestError> {
    let (tris, packed) = (&plan.tris, &plan.waves);
    let ws = waves.first().map_or(64, |w| w.wave_size);
    let mut lanes = vec![None; waves.len() * ws as usize];
    for (wi, (w, wq)) in waves.iter_mut().zip(packed).enumerate() {
        // NEWPRIMMASK: bit k set when quad k + 1 starts a new primitive.
        let mut newprim = 0u32;
        let mut prims: Vec<u32> = Vec::new();
        for (k, q) in wq.iter().enumerate() {
            if prims.last() != Some(&q.prim) {
                if k > 0 {
                    newprim |= 1 << (k - 1);
                }
                prims.push(q.prim);
            }
        }
        let m0 = newprim << 16;
        w.set_sgpr(d.prim_mask, m0);
        let mut exec = 0u64;
        for (k, q) in wq.iter().enumerate() {
            // A quad exists only for a triangle with an area.
            let Some(t) = tris.get(q.prim as usize).copied().flatten() else {
                continue;
            };
            for bit in 0..4u32 {
                let lane = 4 * k as u32 + bit;
                let (px, py) = (q.x + (bit & 1), q.y + (bit >> 1));
                let covered = q.mask >> bit & 1 != 0;
                if covered {
                    exec |= 1 << lane;
                }
                lanes[wi * ws as usize + lane as usize] = Some(LanePixel {
                    x: px,
                    y: py,
                    covered,
                });
                let mut vgpr = 0;
                for &i in &d.inputs {
                    let (name, n) = PS_INPUTS[i];
                    let values: Vec<u32> = match name {
                        // One sample per pixel: sample, centre and centroid
                        // are the pixel centre.
                        "persp_sample" | "persp_center" | "persp_centroid" => {
                            t.ij(px, py, true).map(f32::to_bits).to_vec()
                        }
                        "linear_sample" | "linear_center" | "linear_centroid" => {
                            t.ij(px, py, false).map(f32::to_bits).to_vec()
                        }
                        "pos_x_float" => vec![(px as f32 + 0.5).to_bits()],
                        "pos_y_float" => vec![(py as f32 + 0.5).to_bits()],
                        "pos_z_float" => vec![t.z(px, py).to_bits()],
                        // Nonzero for a front face (ACO tests it against 0).
                        "front_face" => vec![u32::from(t.front_facing())],
                        "ancillary" => vec![0],
                        "sample_coverage" => vec![u32::from(covered)],
                        _ => vec![0; n as usize],
                    };
                    for v in values {
                        w.set_vgpr(vgpr, lane, v);
                        vgpr += 1;
                    }
                }
            }
        }
        w.exec = exec;
        // Parameters: P0 = the provoking (first) vertex's value, P10 and
        // P20 the differences to vertices 1 and 2, rounded to f32; for an
        // FP16 attribute, half by half, each difference computed in f32 and
        // rounded to f16 (docs/errata.md IP5).
        let numprim = prims.len() as u32;
        let nattr = d.attributes.first().map_or(0, |a| a.len()) as u32;
        for (p, &prim) in prims.iter().enumerate() {
            let v = &d.attributes[3 * prim as usize..3 * prim as usize + 3];
            for a in 0..nattr {
                for c in 0..4u32 {
                    let at = |k: usize| v[k][a as usize][c as usize];
                    let half = d.fp16.contains(&a);
                    let diff = |k: usize| diff_param(at(k), at(0), half);
                    for (param, value) in [(0, at(0)), (1, diff(1)), (2, diff(2))] {
                        let addr = param_address(gen, numprim, a, p as u32, c, param);
                        if let Some(dst) = w.lds.get_mut(addr as usize..addr as usize + 4) {
                            dst.copy_from_slice(&value.to_le_bytes());
                        }
                    }
                }
            }
        }
    }
    for w in waves.iter_mut().skip(packed.len()) {
        w.exec = 0;
    }
    let start = (memory.bytes.len() as u64).next_multiple_of(256);
    let end = start + crate::ir::export::area_bytes(lanes.len() as u64);
    if end > cap {
        return Err(err(
            "draw",
            format!("the draw's export area brings memory to {end} bytes, past the {cap}-byte cap"),
        ));
    }
    memory.try_grow(end).map_err(|source| {
        err(
            "draw",
            super::manifest::Problem::Alloc {
                what: format!("the draw's export area brings memory to {end} bytes"),
                source,
            },
        )
    })?;
    Ok(DrawRun {
        export_base: memory.base + start,
        wave_size: ws,
        lanes,
        exports: d.targets.iter().map(|t| t.export).collect(),
    })
}

/// `vertex − provoking` as a parameter: one f32 difference, or with `half`
/// two f16 differences (low and high halves), each computed in f32 and
/// rounded to f16 (round to nearest even).
fn diff_param(vertex: u32, provoking: u32, half: bool) -> u32 {
    use crate::texture::convert::{f16_to_f32, f32_to_f16};
    if !half {
        return (f32::from_bits(vertex) - f32::from_bits(provoking)).to_bits();
    }
    let h = |x: u32, s: u32| f16_to_f32((x >> s) as u16);
    let d = |s: u32| u32::from(f32_to_f16(h(vertex, s) - h(provoking, s))) << s;
    d(0) | d(16)
}

/// The LDS byte address of parameter `param` (0 P0, 1 P10, 2 P20) of channel
/// `chan` of attribute `attr` for the wave's primitive `prim` of `numprim`,
/// LDS base 0: the layout the interpolation instructions read
/// (`cpu::interp::param_address` before gfx11, `machine::lds::param_address`
/// on gfx11), found by asking those rules for the first quad of `prim`.
fn param_address(gen: Gen, numprim: u32, attr: u32, prim: u32, chan: u32, param: u32) -> u64 {
    // A mask whose first `prim` bits are set puts quad `prim` in primitive
    // `prim` and makes `numprim` primitives with the rest.
    let mask = (1u32 << (numprim - 1)) - 1;
    let m0 = mask << 16;
    if gen == Gen::Gfx11 {
        crate::machine::lds::param_address(m0, attr, chan, prim, param)
    } else {
        let index = match param {
            0 => 2 * chan,
            1 => 2 * chan + 1,
            _ => 8 + chan,
        };
        crate::cpu::interp::param_address(m0, attr, 4 * prim, index)
    }
}

/// After a run: every covered lane's exports into its pixel of each target,
/// in wave and lane order (a later primitive's pixel replaces an earlier
/// one's), converted by the target's export format and then by the target's
/// format as an image store converts (`texture::format::store_texel`).
/// Lanes that did not export (killed, or outside EXEC) leave the pixel.
pub fn resolve(run: &DrawRun, images: &[Placed], memory: &mut Memory) {
    use crate::ir::export::slot_address;
    use crate::texture::format::{load_texel, store_texel};
    let targets = target_images(images, run.exports.len());
    for (i, lp) in run.lanes.iter().enumerate() {
        let Some(lp) = lp.filter(|l| l.covered) else {
            continue;
        };
        let (wave, lane) = (
            (i / run.wave_size as usize) as u32,
            i as u32 % run.wave_size,
        );
        for (t, (fmt, img)) in run.exports.iter().zip(targets).enumerate() {
            let slot = slot_address(run.export_base, wave, run.wave_size, lane, t as u32);
            let Some(b) = memory.read(slot, 20) else {
                continue;
            };
            let dw: Vec<u32> = b
                .chunks(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect();
            let mask = dw[0];
            if mask == 0 {
                continue;
            }
            let Some((addr, df, nf)) = target_texel(img, lp.x, lp.y) else {
                continue;
            };
            let old = memory
                .read(addr, df.bytes)
                .and_then(|b| load_texel(df, nf, b))
                .unwrap_or([0; 4]);
            let comps = export_components(*fmt, &dw[1..5], mask);
            let mut rgba = old;
            for (c, v) in comps.iter().enumerate() {
                if let Some(v) = v {
                    rgba[c] = *v;
                }
            }
            if let Some(bytes) = store_texel(df, nf, rgba) {
                memory.write(addr, &bytes);
            }
        }
    }
}

/// The render targets among a launch's placed images: [`parse`] appends
/// them, `count` of them, after the manifest's images.
fn target_images(images: &[Placed], count: usize) -> &[Placed] {
    &images[images.len().saturating_sub(count)..]
}

/// Where pixel (x, y) of a target lies in memory (level 0, the image's own
/// layout: `texture::layout::Surface::texel_offset`) and its formats.
fn target_texel(
    img: &Placed,
    x: u32,
    y: u32,
) -> Option<(
    u64,
    &'static crate::texture::format::DataFormat,
    crate::texture::format::NumFormat,
)> {
    use crate::texture::format::{data_format, NumFormat};
    let d = &img.desc;
    let df = data_format(d.data_format)?;
    let nf = NumFormat::from_code(d.num_format)?;
    let surf = crate::texture::resource::surface_of(d).ok()?;
    Some((d.base_address + surf.texel_offset(0, 0, x, y, 0)?, df, nf))
}

/// The components a slot holds under an export format: f32 bits for float
/// and normalized classes, integers for the integer ones; `None` for a
/// component the instruction did not write (its dword's mask bit).
fn export_components(fmt: ExportFormat, dw: &[u32], mask: u32) -> [Option<u32>; 4] {
    use crate::texture::convert::f16_to_f32;
    let has = |d: usize| mask >> d & 1 != 0;
    match fmt {
        ExportFormat::F32(n) => std::array::from_fn(|c| (c < n && has(c)).then(|| dw[c])),
        ExportFormat::F32Ar => [has(0).then(|| dw[0]), None, None, has(1).then(|| dw[1])],
        ExportFormat::Packed(class) => std::array::from_fn(|c| {
            let d = c / 2;
            has(d).then(|| {
                let h = (dw[d] >> (16 * (c % 2))) & 0xffff;
                match class {
                    Pack16::Float => f16_to_f32(h as u16).to_bits(),
                    Pack16::Unorm => (h as f32 / 65535.0).to_bits(),
                    Pack16::Snorm => (f32::from(h as u16 as i16) / 32767.0).max(-1.0).to_bits(),
                    Pack16::Uint => h,
                    Pack16::Sint => h as u16 as i16 as i32 as u32,
                }
            })
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quad(prim: u32, x: u32) -> Quad {
        Quad {
            prim,
            x,
            y: 0,
            mask: 0xf,
        }
    }

    /// Waves take `wave_size / 4` quads in order; a 17th primitive starts a
    /// new wave even when quads remain (NEWPRIMMASK has 15 bits).
    #[test]
    fn packing_respects_quads_and_primitives() {
        let q: Vec<Quad> = (0..20).map(|i| quad(0, 2 * i)).collect();
        let w = pack(&q, 64);
        assert_eq!(w.iter().map(Vec::len).collect::<Vec<_>>(), [16, 4]);
        let w = pack(&q, 32);
        assert_eq!(w.iter().map(Vec::len).collect::<Vec<_>>(), [8, 8, 4]);
        let q: Vec<Quad> = (0..17).map(|i| quad(i, 0)).collect();
        let w = pack(&q, 64);
        assert_eq!(w.iter().map(Vec::len).collect::<Vec<_>>(), [16, 1]);
    }

    /// The LDS parameters land where the interpolation rules read them: for
    /// every generation's rule, the first quad of primitive p reads P0, P10
    /// and P20 of primitive p.
    #[test]
    fn parameters_sit_where_interpolation_reads_them() {
        for numprim in 1..=4u32 {
            let mask = (1u32 << (numprim - 1)) - 1;
            for prim in 0..numprim {
                for attr in 0..3 {
                    for chan in 0..4 {
                        let g10 = param_address(Gen::Gfx10, numprim, attr, prim, chan, 2);
                        let read =
                            crate::cpu::interp::param_address(mask << 16, attr, 4 * prim, 8 + chan);
                        assert_eq!(g10, read);
                        let g11 = param_address(Gen::Gfx11, numprim, attr, prim, chan, 1);
                        let read =
                            crate::machine::lds::param_address(mask << 16, attr, chan, prim, 1);
                        assert_eq!(g11, read);
                    }
                }
            }
        }
    }

    /// A zero-area triangle draws nothing, and the triangles after it keep
    /// their own vertices' attributes: P0 of the wave's only primitive is
    /// vertex 3's.
    #[test]
    fn a_degenerate_triangle_keeps_the_others_attributes() {
        let t: toml::Table = r#"
            width = 4
            height = 4
            positions = [[0.0, 0.0, 0.0, 1.0], [0.0, 0.0, 0.0, 1.0], [0.0, 0.0, 0.0, 1.0],
                         [-1.0, -1.0, 0.0, 1.0], [1.0, -1.0, 0.0, 1.0], [-1.0, 1.0, 0.0, 1.0]]
            attributes = [[[1, 0, 0, 0]], [[1, 0, 0, 0]], [[1, 0, 0, 0]],
                          [[7, 0, 0, 0]], [[7, 0, 0, 0]], [[7, 0, 0, 0]]]
            inputs = ["persp_center"]
            prim_mask = "s3"
            targets = [{ format = "rgba8_unorm", export = "fp16_abgr" }]
        "#
        .parse()
        .unwrap();
        let d = parse(&t, &mut Vec::new()).unwrap();
        let mut waves = vec![WaveState::new(0, 64, 64 * 1024)];
        let plan = plan(&d, 64, 16).unwrap();
        setup(
            &d,
            &plan,
            Gen::Gfx9,
            &mut waves,
            &mut Memory::default(),
            1 << 20,
        )
        .unwrap();
        assert_eq!(waves[0].sgpr(3), 0, "one primitive");
        assert_eq!(
            waves[0].lds_dword(param_address(Gen::Gfx9, 1, 0, 0, 0, 0)),
            7
        );
    }

    /// NEWPRIMMASK and the helper lanes of a small draw: two triangles
    /// sharing a diagonal of a 4×4 target; every pixel is covered once, the
    /// quads of each triangle have helpers where the other one covers.
    #[test]
    fn a_square_of_two_triangles() {
        let t: toml::Table = r#"
            width = 4
            height = 4
            positions = [[-1.0, -1.0, 0.0, 1.0], [1.0, -1.0, 0.0, 1.0], [-1.0, 1.0, 0.0, 1.0],
                         [1.0, -1.0, 0.0, 1.0], [1.0, 1.0, 0.0, 1.0], [-1.0, 1.0, 0.0, 1.0]]
            inputs = ["persp_center"]
            prim_mask = "s3"
            targets = [{ format = "rgba8_unorm", export = "fp16_abgr" }]
        "#
        .parse()
        .unwrap();
        let mut images = Vec::new();
        let d = parse(&t, &mut images).unwrap();
        assert_eq!(images[0].name, "mrt0");
        let (q, _) = quads(&d).unwrap();
        // Triangle 0 touches quads (0,0), (2,0), (0,2); triangle 1 (2,0),
        // (0,2), (2,2); the diagonal quads are partial in both.
        let covered: u32 = q.iter().map(|q| q.mask.count_ones()).sum();
        assert_eq!(covered, 16);
        assert_eq!(q.len(), 6);
        let mut waves = vec![WaveState::new(0, 64, 64 * 1024)];
        let mut mem = Memory::default();
        let plan = plan(&d, 64, 16).unwrap();
        assert_eq!(plan.wave_count(), 1);
        let run = setup(&d, &plan, Gen::Gfx9, &mut waves, &mut mem, 1 << 20).unwrap();
        // Quads 0–2 are primitive 0, 3–5 primitive 1: bit 2 of NEWPRIMMASK.
        assert_eq!(waves[0].sgpr(3), 0b100 << 16);
        assert_eq!(waves[0].exec.count_ones(), 16);
        let helpers = run.lanes.iter().flatten().filter(|l| !l.covered).count();
        assert_eq!(helpers, 24 - 16);
    }
}
