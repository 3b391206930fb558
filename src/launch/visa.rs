//! The Intel form of the launch manifest (SPEC.md, "Launch manifest, Intel
//! form"): a `.visaasm` kernel, the thread payload, a binding table and a
//! sampler table. The `[[image]]` and `[[sampler]]` sections are the shared
//! ones; `[[buffer]]` and `[intel]` are Intel's.
//!
//! ```toml
//! code = "samp.visaasm"
//! threads = 2                    # SIMD threads (default 1)
//! [intel]
//! platform = "tgllp"             # GRF 32 bytes; "xe2" = 64
//! simd = 32                      # default: the SimdSize attribute, else 16
//! binding_table = { 0 = "img", 1 = "out" }   # index → [[image]] or [[buffer]]
//! sampler_table = { 0 = "clamp" }            # index → [[sampler]]
//!                                # ([[sampler]] address may be ["cube", "cube", "cube"])
//! [intel.input]                  # the payload, per declared input variable
//! V0038 = { w = "lane" }         # per element: lane = element index, wave = thread
//! V0037 = { d = [32, 1, 1] }     # one value per element (a short list pads with 0)
//! S0 = 0                         # surface/sampler inputs: their index
//! [intel.expect]
//! out = { f = [0.5, 0.5], offset = 0 }        # buffer contents from a byte offset
//! V0059 = { thread = 0, f = [0.25, 0.25] }    # a variable's first elements
//! [[buffer]]
//! name = "out"
//! bytes = 1024                   # zero-filled
//! ```

use super::build::{place_images, Mismatch, Placed};
use super::error::LaunchError;
use super::expr::{LaneExpr, LaneVars};
use super::manifest::Problem;
use super::manifest::{parse, Caps, CodeSource, Launch, ManifestError, SamplerSpec};
use crate::ir::visa::{ElemType, DISPATCH_SGPR};
use crate::machine::{Memory, WaveState};
use crate::texture::convert::f32_to_f16;
use crate::texture::descriptor::encode_sampler;
use crate::visa::lower::{self, layout::elem_type, Binding, Target};
use crate::visa::{self, DialectChoice, VarKind};
use std::collections::BTreeSet;
use std::path::Path;

fn err(field: impl Into<String>, problem: impl Into<super::manifest::Problem>) -> ManifestError {
    ManifestError::new(field, problem)
}

pub use super::buffer::Buffer;

/// One `[intel.expect]` entry.
#[derive(Clone, Debug, PartialEq)]
pub struct VisaExpect {
    /// Variable or buffer name.
    pub name: String,
    /// Thread (variables only).
    pub thread: u32,
    /// Byte offset (buffers only).
    pub offset: u64,
    /// Element type of the values.
    pub ty: ElemType,
    /// The values' bits.
    pub values: Vec<u64>,
}

/// What an Intel launch adds to a prepared launch.
#[derive(Clone, Debug)]
pub struct VisaRun {
    /// The parsed program.
    pub program: visa::Program,
    /// The variables' places.
    pub layout: lower::layout::Layout,
    /// The same by name, for reports.
    pub vars: crate::ir::visa::VarMap,
    /// SIMD width.
    pub simd: u32,
    /// Buffers.
    pub buffers: Vec<Buffer>,
    /// Expectations.
    pub expect: Vec<VisaExpect>,
}

impl VisaRun {
    /// Each buffer's name, base address and size, for reports.
    pub fn buffer_ranges(&self) -> Vec<(&str, u64, u64)> {
        self.buffers
            .iter()
            .map(|b| (b.name.as_str(), b.base, b.bytes))
            .collect()
    }
}

/// True when a manifest's text is the Intel form (it has an `[intel]` table).
pub fn is_visa(text: &str) -> bool {
    text.parse::<toml::Table>()
        .is_ok_and(|t| t.contains_key("intel"))
}

/// GRF bytes of a platform name (research/visa.md §4.2, IGC `visa/common.cpp`).
const PLATFORMS: &[(&str, u32)] = &[
    ("tgllp", 32),
    ("dg1", 32),
    ("adl", 32),
    ("dg2", 32),
    ("mtl", 32),
    ("xe2", 64),
    ("lnl", 64),
    ("bmg", 64),
];

/// The prepared parts of an Intel launch.
pub struct VisaPrepared {
    /// The shared launch fields (images, samplers, threads as waves).
    pub launch: Launch,
    /// The lowered program.
    pub prog: crate::ir::Program,
    /// Initial thread states.
    pub waves: Vec<WaveState>,
    /// Images and buffers.
    pub memory: Memory,
    /// Placed images.
    pub images: Vec<Placed>,
    /// Intel specifics.
    pub visa: VisaRun,
}

/// Reads an Intel manifest and prepares its launch. `name` names the
/// manifest in errors; the code errors name the `.visaasm` file and line.
pub fn prepare(
    path: &Path,
    code: Option<&Path>,
    mem_cap: u64,
) -> Result<VisaPrepared, LaunchError> {
    let name = path.display().to_string();
    let text = crate::input::read_text(path, crate::input::FileKind::MANIFEST)?;
    let dir = path.parent().unwrap_or(Path::new("."));
    prepare_text(&text, &name, dir, VisaCode::File(code), mem_cap)
}

/// The program of an Intel launch.
pub enum VisaCode<'a> {
    /// This file, or (`None`) the one the manifest's `code` names.
    File(Option<&'a Path>),
    /// A program already read (`gcn-run bench` embeds its kernel), with the
    /// name its errors give.
    Program(visa::Program, &'a str),
}

/// [`prepare`] of manifest text: `name` names it in errors, `dir` is where
/// its relative paths start.
pub fn prepare_text(
    text: &str,
    name: &str,
    dir: &Path,
    code: VisaCode,
    mem_cap: u64,
) -> Result<VisaPrepared, LaunchError> {
    let name = name.to_string();
    let whole = |e: ManifestError| LaunchError::manifest(&name, e);
    let mut table: toml::Table = text
        .parse()
        .map_err(|e: toml::de::Error| whole(super::manifest::toml_error(text, &e)))?;
    let intel = match table.remove("intel") {
        Some(toml::Value::Table(t)) => t,
        _ => return Err(whole(err("intel", "must be a table"))),
    };
    let threads = match table.remove("threads") {
        None => 1,
        Some(toml::Value::Integer(n)) if (1..=4096).contains(&n) => n as u32,
        Some(_) => return Err(whole(err("threads", "must be an integer in 1..=4096"))),
    };
    for k in [
        "sgpr",
        "vgpr",
        "lds",
        "expect",
        "waves",
        "wave_size",
        "arch",
        "hex",
    ] {
        if table.contains_key(k) {
            return Err(whole(err(
                k,
                "not part of an Intel launch (see SPEC.md, \"Launch manifest, Intel form\")",
            )));
        }
    }
    let cube_modes = take_cube_modes(&mut table).map_err(whole)?;
    table.insert("arch".into(), toml::Value::String("gfx1030".into()));
    table.insert("wave_size".into(), toml::Value::Integer(32));
    table.insert("waves".into(), toml::Value::Integer(i64::from(threads)));
    let rest = toml::to_string(&table).map_err(|e| LaunchError::Toml {
        name: name.clone(),
        message: e.to_string(),
    })?;
    let launch = parse(&rest, &Caps::default()).map_err(whole)?;
    let (program, code_name) = match (&launch.code, code) {
        (_, VisaCode::Program(program, code_name)) => (program, code_name.to_string()),
        (source, VisaCode::File(file)) => {
            let path = match (source, file) {
                (_, Some(c)) => c.to_path_buf(),
                (CodeSource::File(f), None) => dir.join(f),
                (CodeSource::Bytes(_), None) => {
                    return Err(whole(err("code", "an Intel launch names a .visaasm file")))
                }
            };
            let program = visa::load_file(&path, DialectChoice::Auto)?;
            (program, path.display().to_string())
        }
    };
    prepare_parsed(
        launch,
        program,
        &cube_modes,
        &intel,
        mem_cap,
        &name,
        &code_name,
        dir,
    )
}

#[allow(clippy::too_many_arguments)]
fn prepare_parsed(
    mut launch: Launch,
    program: visa::Program,
    cube_modes: &BTreeSet<String>,
    intel: &toml::Table,
    mem_cap: u64,
    name: &str,
    code_name: &str,
    dir: &Path,
) -> Result<VisaPrepared, LaunchError> {
    let whole = |e: ManifestError| LaunchError::manifest(name, e);
    // PNG images are read relative to the manifest.
    for (i, im) in launch.images.iter_mut().enumerate() {
        if let super::manifest::ImageInit::Png(file) = &im.init {
            let bytes = super::png::texels_from_png(&dir.join(file), im)
                .map_err(|e| whole(err(format!("image[{i}].init"), e)))?;
            im.init = super::manifest::ImageInit::Bytes(bytes);
        }
    }
    for key in intel.keys() {
        if ![
            "platform",
            "simd",
            "binding_table",
            "sampler_table",
            "input",
            "expect",
        ]
        .contains(&key.as_str())
        {
            return Err(whole(err(format!("intel.{key}"), "unknown key")));
        }
    }
    let grf = match intel.get("platform") {
        None => 32,
        Some(toml::Value::String(p)) => PLATFORMS
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(p))
            .map(|(_, g)| *g)
            .ok_or_else(|| whole(err("intel.platform", format!("unknown platform `{p}`"))))?,
        Some(_) => return Err(whole(err("intel.platform", "must be a string"))),
    };
    let attr_simd = program
        .attrs
        .iter()
        .find_map(|a| match (&a.name[..], &a.value) {
            ("SimdSize", Some(visa::AttrValue::Int(n))) => Some(*n),
            _ => None,
        });
    let simd = match intel.get("simd").map(|v| v.as_integer()) {
        None => attr_simd.unwrap_or(16),
        Some(Some(n)) => n,
        Some(None) => return Err(whole(err("intel.simd", "must be 8, 16 or 32"))),
    };
    if !matches!(simd, 8 | 16 | 32) {
        return Err(whole(err(
            "intel.simd",
            format!("{simd} is not 8, 16 or 32"),
        )));
    }
    let simd = simd as u32;
    let (mut memory, images) = place_images(&launch, mem_cap).map_err(whole)?;
    // Buffers follow the images, 256-byte aligned, zero-filled (launch::buffer).
    let image_names: Vec<&str> = launch.images.iter().map(|i| i.name.as_str()).collect();
    let buffers = super::buffer::place_buffers(&launch.buffers, &mut memory, &image_names, mem_cap)
        .map_err(whole)?;
    let mut target = Target {
        grf,
        ..Target::default()
    };
    for (key, v) in table_of(intel, "binding_table").map_err(whole)? {
        let field = format!("intel.binding_table.{key}");
        let idx: u32 = key
            .parse()
            .ok()
            .filter(|n| *n < 256)
            .ok_or_else(|| whole(err(&field, "the key must be an index 0..=255")))?;
        let n = v
            .as_str()
            .ok_or_else(|| whole(err(&field, "must name an [[image]] or [[buffer]]")))?;
        let binding = if let Some(i) = launch.images.iter().position(|im| im.name == n) {
            Binding::Image {
                tsharp: images[i].tsharp,
                desc: images[i].desc,
            }
        } else if let Some(b) = buffers.iter().find(|b| b.name == n) {
            Binding::Buffer {
                base: b.base,
                bytes: b.bytes,
            }
        } else {
            return Err(whole(err(
                &field,
                format!("no [[image]] or [[buffer]] named `{n}`"),
            )));
        };
        target.surfaces.insert(idx, binding);
    }
    for (key, v) in table_of(intel, "sampler_table").map_err(whole)? {
        let field = format!("intel.sampler_table.{key}");
        let idx: u32 = key
            .parse()
            .ok()
            .filter(|n| *n < 16)
            .ok_or_else(|| whole(err(&field, "the key must be an index 0..=15")))?;
        let n = v
            .as_str()
            .ok_or_else(|| whole(err(&field, "must name a [[sampler]]")))?;
        let s = launch
            .samplers
            .iter()
            .find(|s| s.name == n)
            .ok_or_else(|| whole(err(&field, format!("no [[sampler]] named `{n}`"))))?;
        intel_sampler_check(s).map_err(|m| whole(err(&field, m)))?;
        if cube_modes.contains(n) {
            target.cube_samplers.insert(idx);
        }
        target
            .samplers
            .insert(idx, encode_sampler(&super::build::sampler_desc(s)));
    }
    // The payload.
    let inputs = table_of(intel, "input").map_err(whole)?;
    let mut payload: Vec<(String, ElemType, Vec<PayloadValue>)> = Vec::new();
    for (key, v) in inputs {
        let field = format!("intel.input.{key}");
        let Some(d) = program.decls.iter().find(|d| &d.name == key) else {
            if key != "%r0" {
                return Err(whole(err(&field, "not a declared variable")));
            }
            let (ty, vals) = typed(&field, v).map_err(whole)?;
            payload.push((key.clone(), ty, vals));
            continue;
        };
        if !program.inputs.iter().any(|i| &i.name == key) {
            return Err(whole(err(
                &field,
                format!("`{key}` is not an .input of the kernel"),
            )));
        }
        match d.kind {
            VarKind::Sampler { .. } | VarKind::Surface { .. } => {
                let n = v
                    .as_integer()
                    .filter(|n| (0..256).contains(n))
                    .ok_or_else(|| {
                        whole(err(
                            &field,
                            "a surface or sampler input is an index 0..=255",
                        ))
                    })?;
                target.state_inputs.insert(key.clone(), n as u32);
            }
            VarKind::General { .. } => {
                let (ty, vals) = typed(&field, v).map_err(whole)?;
                payload.push((key.clone(), ty, vals));
            }
            _ => {
                return Err(whole(err(
                    &field,
                    "only general, surface and sampler inputs",
                )))
            }
        }
    }
    let lowered = lower::lower(&program, &target).map_err(|source| LaunchError::VisaLower {
        name: code_name.to_string(),
        source,
    })?;
    let layout = lowered.layout;
    let dispatch = if simd == 32 {
        u32::MAX
    } else {
        (1u32 << simd) - 1
    };
    let mut waves = Vec::with_capacity(launch.waves as usize);
    for t in 0..launch.waves {
        // Fallible: a launch's state is sized by its `threads`.
        let mut w = WaveState::try_new(t, 32, 0).map_err(|source| {
            whole(err(
                "threads",
                Problem::Alloc {
                    what: format!("the state of thread {t}"),
                    source,
                },
            ))
        })?;
        w.exec = u64::from(dispatch);
        w.set_sgpr(DISPATCH_SGPR, dispatch);
        for (vname, ty, vals) in &payload {
            let field = format!("intel.input.{vname}");
            let var = layout.var(vname).map_err(|m| whole(err(&field, m)))?;
            let n = ty.bytes();
            for k in 0..var.bytes / n {
                let v =
                    match vals
                        .get(k as usize)
                        .or(if vals.len() == 1 { vals.first() } else { None })
                    {
                        None => 0,
                        Some(p) => p.eval(*ty, k, t, simd).map_err(|m| whole(err(&field, m)))?,
                    };
                w.set_grf_bits(var.byte + k * n, n, v);
            }
        }
        waves.push(w);
    }
    let expect = expects(intel, &layout, &buffers, launch.waves).map_err(whole)?;
    Ok(VisaPrepared {
        launch,
        prog: lowered.prog,
        waves,
        memory,
        images,
        visa: VisaRun {
            program,
            vars: lowered.names,
            layout,
            simd,
            buffers,
            expect,
        },
    })
}

/// Intel's address mode CUBE (SAMPLER_STATE TCX/TCY/TCZ = 3, research/visa.md
/// §4.4), which the shared manifest does not know: a `[[sampler]]` whose
/// `address` names `cube` must name it on all three axes (cube maps use one
/// mode on every axis, Mesa i965/crocus); it is replaced by
/// `clamp_last_texel` and the sampler's name returned, and the lowering turns
/// it into seamless cube filtering (`visa::lower`'s cube module). AMD's
/// `seamless` key has no Intel counterpart and is refused.
fn take_cube_modes(table: &mut toml::Table) -> Result<BTreeSet<String>, ManifestError> {
    let mut names = BTreeSet::new();
    let Some(toml::Value::Array(samplers)) = table.get_mut("sampler") else {
        return Ok(names);
    };
    for (i, s) in samplers.iter_mut().enumerate() {
        let Some(t) = s.as_table_mut() else { continue };
        if t.contains_key("seamless") {
            return Err(err(
                format!("sampler[{i}].seamless"),
                "not an Intel sampler field: seamless cube filtering is address mode `cube` on all three axes",
            ));
        }
        let Some(toml::Value::Array(modes)) = t.get_mut("address") else {
            continue;
        };
        let cube = |m: &toml::Value| m.as_str().is_some_and(|m| m.eq_ignore_ascii_case("cube"));
        let count = modes.iter().filter(|m| cube(m)).count();
        if count == 0 {
            continue;
        }
        if count != 3 || modes.len() != 3 {
            return Err(err(
                format!("sampler[{i}].address"),
                "`cube` applies to all three axes (Intel cube maps use one address mode)",
            ));
        }
        for m in modes.iter_mut() {
            *m = toml::Value::String("clamp_last_texel".into());
        }
        if let Some(n) = t.get("name").and_then(|n| n.as_str()) {
            names.insert(n.to_string());
        }
    }
    Ok(names)
}

/// Refuses S# settings whose Intel SAMPLER_STATE meaning is not the AMD one
/// (docs/semantics/intel.md, "Sampler state": what maps and what does not).
fn intel_sampler_check(s: &SamplerSpec) -> Result<(), Problem> {
    // SQ_TEX_CLAMP 4, 5, 7: half-border and mirror-once-border have no
    // documented Intel equivalent (Intel's HALF_BORDER/MIRROR_101 differ).
    if let Some(a) = s.address.iter().find(|a| matches!(a, 4 | 5 | 7)) {
        return Err(format!(
            "address mode {} has no Intel equivalent modelled (wrap, mirror, clamp_last_texel, mirror_once_last_texel, clamp_border map)",
            super::names::ADDRESS_MODES.iter().find(|m| m.1 == *a).map_or("?", |m| m.0)
        )
        .into());
    }
    if s.max_aniso > 0 {
        return Err(Problem::Invalid(
            "anisotropic filtering: Intel's footprint is not public".into(),
        ));
    }
    if s.force_degamma {
        return Err("force_degamma is AMD-only".into());
    }
    // Intel's LOD bias is signed 4.8 fixed point: [-16, 16).
    if !(-16 * 256..16 * 256).contains(&i32::from(s.lod_bias)) {
        return Err("lod_bias outside Intel's [-16, 16)".into());
    }
    Ok(())
}

fn table_of<'a>(
    t: &'a toml::Table,
    key: &str,
) -> Result<Vec<(&'a String, &'a toml::Value)>, ManifestError> {
    match t.get(key) {
        None => Ok(Vec::new()),
        Some(toml::Value::Table(t)) => Ok(t.iter().collect()),
        Some(_) => Err(err(format!("intel.{key}"), "must be a table")),
    }
}

/// A payload value: a constant or a per-element expression.
#[derive(Clone, Debug)]
enum PayloadValue {
    Int(i64),
    Float(f64),
    Expr(LaneExpr),
}

impl PayloadValue {
    fn eval(&self, ty: ElemType, element: u32, thread: u32, simd: u32) -> Result<u64, Problem> {
        let vars = LaneVars {
            lane: element,
            wave: thread,
            wave_size: simd,
        };
        let mask = if ty.bytes() >= 8 {
            u64::MAX
        } else {
            (1u64 << (8 * ty.bytes())) - 1
        };
        Ok(match (self, ty.is_float()) {
            (PayloadValue::Int(i), false) => *i as u64 & mask,
            (PayloadValue::Int(i), true) => float_bits(*i as f32, ty),
            (PayloadValue::Float(f), true) => float_bits(*f as f32, ty),
            (PayloadValue::Float(_), false) => return Err("a float for an integer type".into()),
            (PayloadValue::Expr(e), true) => float_bits(f32::from_bits(e.eval_f32_bits(vars)?), ty),
            (PayloadValue::Expr(e), false) => u64::from(e.eval_u32(vars)?) & mask,
        })
    }
}

fn float_bits(f: f32, ty: ElemType) -> u64 {
    if ty == ElemType::Hf {
        u64::from(f32_to_f16(f))
    } else {
        u64::from(f.to_bits())
    }
}

/// `{ TYPE = value | "expr" | [values…] }`.
fn typed(field: &str, v: &toml::Value) -> Result<(ElemType, Vec<PayloadValue>), ManifestError> {
    let t = v.as_table().filter(|t| t.len() == 1).ok_or_else(|| {
        err(
            field,
            "write `{ TYPE = values }` with one vISA type (f, hf, d, ud, w, uw, b, ub, q, uq)",
        )
    })?;
    let (tname, val) = t.iter().next().ok_or_else(|| err(field, "empty"))?;
    let ty = visa::tables::VisaType::from_name(tname)
        .and_then(elem_type)
        .ok_or_else(|| err(field, format!("`{tname}` is not an executed vISA type")))?;
    let one = |x: &toml::Value| -> Result<PayloadValue, ManifestError> {
        Ok(match x {
            toml::Value::Integer(i) => PayloadValue::Int(*i),
            toml::Value::Float(f) => PayloadValue::Float(*f),
            toml::Value::String(s) => {
                PayloadValue::Expr(LaneExpr::parse(s).map_err(|m| err(field, m))?)
            }
            _ => return Err(err(field, "values are numbers or expression strings")),
        })
    };
    let vals = match val {
        toml::Value::Array(a) => {
            if a.len() > 4096 {
                return Err(err(field, "more than 4096 values"));
            }
            a.iter().map(one).collect::<Result<_, _>>()?
        }
        x => vec![one(x)?],
    };
    Ok((ty, vals))
}

/// `[intel.expect]`. What the launch cannot hold is refused here, naming
/// the field, as AMD `[expect]` refuses a wave or lane outside the launch: a
/// thread past `threads`, values past the end of the variable or buffer
/// (they used to read as zero and fail the run with exit 1).
fn expects(
    intel: &toml::Table,
    layout: &lower::layout::Layout,
    buffers: &[Buffer],
    threads: u32,
) -> Result<Vec<VisaExpect>, ManifestError> {
    let mut out = Vec::new();
    for (key, v) in table_of(intel, "expect")? {
        let field = format!("intel.expect.{key}");
        let mut t = v
            .as_table()
            .cloned()
            .ok_or_else(|| err(&field, "must be a table"))?;
        let thread = t
            .remove("thread")
            .map(|x| x.as_integer().unwrap_or(-1))
            .unwrap_or(0);
        let offset = t
            .remove("offset")
            .map(|x| x.as_integer().unwrap_or(-1))
            .unwrap_or(0);
        if thread < 0 || offset < 0 {
            return Err(err(&field, "thread and offset are non-negative integers"));
        }
        if thread >= i64::from(threads) {
            return Err(err(
                format!("{field}.thread"),
                format!("thread {thread} of a launch of {threads} thread(s): expected an integer in 0..{threads}"),
            ));
        }
        let (ty, vals) = typed(&field, &toml::Value::Table(t))?;
        let bytes = vals.len() as u64 * u64::from(ty.bytes());
        if let Some(b) = buffers.iter().find(|b| &b.name == key) {
            if (offset as u64).saturating_add(bytes) > b.bytes {
                return Err(err(
                    &field,
                    format!(
                        "{} values of {} bytes from offset {offset} run past the buffer's {} bytes",
                        vals.len(),
                        ty.bytes(),
                        b.bytes
                    ),
                ));
            }
        } else {
            let var = layout
                .var(key)
                .map_err(|_| err(&field, "names neither a buffer nor a general variable"))?;
            if bytes > u64::from(var.bytes) {
                return Err(err(
                    &field,
                    format!(
                        "{} values of {} bytes run past `{key}`'s {} bytes",
                        vals.len(),
                        ty.bytes(),
                        var.bytes
                    ),
                ));
            }
        }
        let values = vals
            .iter()
            .enumerate()
            .map(|(k, p)| p.eval(ty, k as u32, thread as u32, 0))
            .collect::<Result<_, _>>()
            .map_err(|m| err(&field, m))?;
        out.push(VisaExpect {
            name: key.clone(),
            thread: thread as u32,
            offset: offset as u64,
            ty,
            values,
        });
    }
    Ok(out)
}

/// Element `k` of variable `name` in thread `w`, as `ty`'s bits.
pub fn variable_element(
    run: &VisaRun,
    w: &WaveState,
    name: &str,
    ty: ElemType,
    k: u32,
) -> Option<u64> {
    let v = run.layout.var(name).ok()?;
    let n = ty.bytes();
    (k * n + n <= v.bytes).then(|| w.grf_bits(v.byte + k * n, n))
}

/// Checks `[intel.expect]` (exact bits).
pub fn check(run: &VisaRun, waves: &[WaveState], mem: &Memory) -> Vec<Mismatch> {
    let mut out = Vec::new();
    for e in &run.expect {
        let n = e.ty.bytes();
        for (k, want) in e.values.iter().enumerate() {
            let got = if let Some(b) = run.buffers.iter().find(|b| b.name == e.name) {
                let at = e.offset + k as u64 * u64::from(n);
                (at + u64::from(n) <= b.bytes)
                    .then(|| mem.read(b.base + at, n))
                    .flatten()
                    .map(|s| s.iter().rev().fold(0u64, |a, &x| (a << 8) | u64::from(x)))
            } else {
                waves
                    .get(e.thread as usize)
                    .and_then(|w| variable_element(run, w, &e.name, e.ty, k as u32))
            };
            if got != Some(*want) {
                out.push(Mismatch {
                    register: e.name.clone(),
                    wave: e.thread,
                    lane: k as u32,
                    expected: vec![*want as u32],
                    actual: vec![got.unwrap_or(0) as u32],
                });
            }
        }
    }
    out
}

/// The typed values of element `k` of `name` in `w` as JSON (the variable's
/// declared type: floats as numbers, integers as integers).
fn typed_json(bits: u64, ty: ElemType) -> serde_json::Value {
    use crate::texture::convert::f16_to_f32;
    match ty {
        ElemType::F => serde_json::json!(f32::from_bits(bits as u32)),
        ElemType::Hf => serde_json::json!(f16_to_f32(bits as u16)),
        t if t.is_signed() => {
            let shift = 64 - 8 * t.bytes();
            serde_json::json!(((bits << shift) as i64) >> shift)
        }
        _ => serde_json::json!(bits),
    }
}

/// A variable `--dump` names that cannot be shown.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DumpError {
    /// The program's layout has no such general variable.
    #[error("`{name}`: {source}")]
    Variable {
        /// The name given.
        name: String,
        /// Why it is no variable.
        source: crate::visa::lower::layout::LayoutError,
    },
    /// A variable of a type the report does not show.
    #[error("`{name}` has a type that is not shown")]
    Hidden {
        /// The name given.
        name: String,
    },
}

/// What `--dump`/`--json` show of an Intel run: the named variables (default:
/// those `[intel.expect]` names) per thread, by their vISA names and typed
/// values, and every buffer's dwords.
pub fn describe(
    run: &VisaRun,
    waves: &[WaveState],
    mem: &Memory,
    names: Option<&str>,
) -> Result<serde_json::Value, DumpError> {
    use sha2::Digest;
    let list: Vec<String> = match names {
        Some(l) => l
            .split(',')
            .map(|t| t.trim().to_string())
            .filter(|t| !t.is_empty())
            .collect(),
        None => run
            .expect
            .iter()
            .filter(|e| !run.buffers.iter().any(|b| b.name == e.name))
            .map(|e| e.name.clone())
            .collect(),
    };
    let mut vars = serde_json::Map::new();
    for n in list {
        if vars.contains_key(&n) {
            continue;
        }
        let v = run.layout.var(&n).map_err(|source| DumpError::Variable {
            name: n.clone(),
            source,
        })?;
        let ty = v.ty.ok_or_else(|| DumpError::Hidden { name: n.clone() })?;
        let count = v.bytes / ty.bytes();
        let threads: Vec<serde_json::Value> = waves
            .iter()
            .map(|w| {
                (0..count)
                    .map(|k| typed_json(w.grf_bits(v.byte + k * ty.bytes(), ty.bytes()), ty))
                    .collect()
            })
            .collect();
        vars.insert(
            n,
            serde_json::json!({ "type": v.visa.name(), "threads": threads }),
        );
    }
    let mut bufs = serde_json::Map::new();
    for b in &run.buffers {
        let bytes = mem.read(b.base, b.bytes as u32).unwrap_or(&[]);
        let digest: String = sha2::Sha256::digest(bytes)
            .iter()
            .map(|x| format!("{x:02x}"))
            .collect();
        let dwords: Vec<u32> = bytes
            .chunks_exact(4)
            .take(4096)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        bufs.insert(
            b.name.clone(),
            serde_json::json!({ "bytes": b.bytes, "sha256": digest, "u32": dwords }),
        );
    }
    Ok(serde_json::json!({ "variables": vars, "buffers": bufs }))
}
