//! `radv-corpus`: compiles a GLSL fragment shader through Mesa's RADV/ACO for an
//! AMD chip no one here has, and writes what gcnrun needs to draw with it.
//!
//! ```text
//! radv-corpus assets/radv/tex.scene.toml [--chip vega10|navi21|gfx1100]… [--out-dir DIR]
//! ```
//!
//! For each chip (default: all three) it
//! 1. makes SPIR-V of the scene's fragment shader and of a pass-through vertex
//!    shader written for it (`glslangValidator`);
//! 2. builds a graphics pipeline on RADV's null device (`RADV_FORCE_FAMILY`,
//!    no AMD GPU needed), in a child process whose stderr carries RADV's dump
//!    (`RADV_DEBUG=shaders`): ACO's disassembly, every line ending in the
//!    instruction's words, and the program's arguments (`p_startpgm`);
//! 3. writes `<shader>.<chip>.bin` (the pixel shader's words), `.s` (ACO's text,
//!    which llvm-mc-19 assembles back to the same words) and `.toml`: the
//!    scene as a `[draw]` manifest with the shader's input VGPRs, the SGPR the
//!    primitive mask arrives in, each target's export format and the descriptor
//!    sets laid out as RADV lays them out (docs/draw.md, "The RADV corpus").
//!
//! The layout rules below are Mesa 22.3's (Debian bookworm's
//! `mesa-vulkan-drivers`); `assets/radv/regen.sh` runs this tool and
//! `tests/radv_corpus.rs` checks that it reproduces the committed files.

mod render;
mod vulkan;

use ash::vk;
// The pixel shader's VGPR inputs in the hardware's order with their VGPR
// counts: the draw launch's own table.
use gcnrun::launch::draw::PS_INPUTS;
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

/// A target of the corpus: its name in file names, RADV's family, gcnrun's
/// arch, LLVM's processor, and whether the pixel shader is wave32.
struct Chip {
    name: &'static str,
    family: &'static str,
    arch: &'static str,
    mcpu: &'static str,
    wave32: bool,
}

/// The chips the corpus covers. RADV compiles pixel shaders wave64 on
/// gfx10+ unless `RADV_PERFTEST=pswave32` asks for wave32.
const CHIPS: &[Chip] = &[
    Chip {
        name: "vega10",
        family: "vega10",
        arch: "gfx900",
        mcpu: "gfx900",
        wave32: false,
    },
    Chip {
        name: "navi21",
        family: "navi21",
        arch: "gfx1030",
        mcpu: "gfx1030",
        wave32: false,
    },
    Chip {
        name: "navi21-w32",
        family: "navi21",
        arch: "gfx1030",
        mcpu: "gfx1030",
        wave32: true,
    },
    Chip {
        name: "gfx1100",
        family: "gfx1100",
        arch: "gfx1100",
        mcpu: "gfx1100",
        wave32: false,
    },
    Chip {
        name: "gfx1100-w32",
        family: "gfx1100",
        arch: "gfx1100",
        mcpu: "gfx1100",
        wave32: true,
    },
];

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = if args.first().map(String::as_str) == Some("--compile") {
        compile_child(&args[1..])
    } else {
        run(&args)
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("radv-corpus: {e}");
            ExitCode::from(2)
        }
    }
}

/// A render target of the scene: its Vulkan format and gcnrun's name for it.
struct Target {
    name: String,
    vk: vk::Format,
    /// Bytes per texel.
    bytes: u32,
}

/// One descriptor binding of the scene.
struct Binding {
    set: u32,
    binding: u32,
    kind: String,
    table: toml::Table,
}

/// A target format's Vulkan format and bytes per texel: the draw launch's
/// own table of target formats, its image codes in Vulkan's terms.
fn target_format(name: &str) -> Result<(vk::Format, u32), String> {
    let &(_, df, nf) = gcnrun::launch::draw::TARGET_FORMATS
        .iter()
        .find(|t| t.0 == name)
        .ok_or_else(|| format!("unknown target format `{name}`"))?;
    let bytes = gcnrun::texture::format::data_format(df).map_or(0, |f| f.bytes);
    Ok((render::image_format(df, nf)?, bytes))
}

fn run(args: &[String]) -> Result<(), String> {
    let mut scenes = Vec::new();
    let mut chips = Vec::new();
    let mut out_dir: Option<PathBuf> = None;
    let mut render = false;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--chip" => chips.push(it.next().ok_or("--chip needs a name")?.clone()),
            "--out-dir" => out_dir = Some(it.next().ok_or("--out-dir needs a path")?.into()),
            "--render" => render = true,
            "-h" | "--help" => {
                println!("radv-corpus SCENE.toml… [--chip vega10|navi21|gfx1100]… [--out-dir DIR]\nradv-corpus --render SCENE.toml… [--out-dir DIR]   (lavapipe draws the scene: <stem>.lavapipe.mrt<k>.bin)");
                return Ok(());
            }
            _ => scenes.push(PathBuf::from(a)),
        }
    }
    if scenes.is_empty() {
        return Err("give a scene (.scene.toml)".into());
    }
    if chips.is_empty() {
        chips = CHIPS.iter().map(|c| c.name.to_string()).collect();
    }
    let tmp = std::env::temp_dir().join(format!("radv-corpus-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).map_err(|e| format!("{}: {e}", tmp.display()))?;
    let result = scenes
        .iter()
        .try_for_each(|s| scene(s, &chips, out_dir.as_deref(), &tmp, render));
    let _ = std::fs::remove_dir_all(&tmp);
    result
}

fn scene(
    path: &Path,
    chips: &[String],
    out_dir: Option<&Path>,
    tmp: &Path,
    render: bool,
) -> Result<(), String> {
    let at = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    let text = std::fs::read_to_string(path).map_err(|e| at(&e))?;
    let table: toml::Table = text.parse().map_err(|e| at(&e))?;
    let dir = path.parent().unwrap_or(Path::new("."));
    let out_dir = out_dir.unwrap_or(dir);
    let shader = table
        .get("shader")
        .and_then(|v| v.as_str())
        .ok_or_else(|| at(&"`shader` (the .frag file) is missing"))?;
    let stem = shader
        .strip_suffix(".frag")
        .ok_or_else(|| at(&"`shader` must end in .frag"))?;
    let frag_src =
        std::fs::read_to_string(dir.join(shader)).map_err(|e| at(&format!("{shader}: {e}")))?;
    let draw = table
        .get("draw")
        .and_then(|v| v.as_table())
        .ok_or_else(|| at(&"[draw] is missing"))?;
    let targets = draw
        .get("targets")
        .and_then(|v| v.as_array())
        .ok_or_else(|| at(&"draw.targets is missing"))?
        .iter()
        .map(|t| {
            let name = t.get("format").and_then(|v| v.as_str()).unwrap_or("");
            target_format(name).map(|(vk, bytes)| Target {
                name: name.into(),
                vk,
                bytes,
            })
        })
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| at(&e))?;
    let bindings = draw
        .get("binding")
        .and_then(|v| v.as_array())
        .map(|a| a.as_slice())
        .unwrap_or(&[])
        .iter()
        .map(|b| {
            let t = b.as_table().ok_or("draw.binding entries are tables")?;
            let num = |k: &str| {
                t.get(k)
                    .and_then(|v| v.as_integer())
                    .and_then(|n| u32::try_from(n).ok())
                    .ok_or(format!("draw.binding.{k} is missing"))
            };
            Ok(Binding {
                set: num("set")?,
                binding: num("binding")?,
                kind: t
                    .get("type")
                    .and_then(|v| v.as_str())
                    .unwrap_or("")
                    .to_string(),
                table: t.clone(),
            })
        })
        .collect::<Result<Vec<_>, String>>()
        .map_err(|e| at(&e))?;
    let inputs = fragment_inputs(&frag_src).map_err(|e| at(&e))?;
    let vert_src = vertex_shader(&inputs);
    let frag_spv = tmp.join(format!("{stem}.frag.spv"));
    let vert_spv = tmp.join(format!("{stem}.vert.spv"));
    let vert_glsl = tmp.join(format!("{stem}.vert"));
    std::fs::write(&vert_glsl, &vert_src).map_err(|e| at(&e))?;
    glslang(&dir.join(shader), &frag_spv)?;
    glslang(&vert_glsl, &vert_spv)?;
    let spec = PipelineSpec {
        targets: targets.iter().map(|t| t.vk.as_raw()).collect(),
        bindings: bindings
            .iter()
            .map(|b| descriptor_type(&b.kind).map(|ty| (b.set, b.binding, ty.as_raw())))
            .collect::<Result<_, _>>()
            .map_err(|e| at(&e))?,
        attributes: inputs.len() as u32,
        immutable: immutable_samplers(&table, &bindings).map_err(|e| at(&e))?,
        push: push_words(draw).map_err(|e| at(&e))?,
    };
    if render {
        return render_scene(&RenderParts {
            path,
            dir,
            out_dir,
            stem,
            draw,
            inputs: &inputs,
            targets: &targets,
            bindings: &bindings,
            spec: &spec,
            vert: &vert_spv,
            frag: &frag_spv,
        });
    }
    for chip in chips {
        let c = CHIPS.iter().find(|c| c.name == chip).ok_or_else(|| {
            let all: Vec<&str> = CHIPS.iter().map(|c| c.name).collect();
            format!("unknown chip `{chip}` ({})", all.join(", "))
        })?;
        let (family, arch, mcpu) = (c.name, c.arch, c.mcpu);
        let dump = compile_on_radv(c, &vert_spv, &frag_spv, &spec)?;
        let ps = PixelShader::parse(&dump).map_err(|e| format!("{shader} on {family}: {e}"))?;
        // RADV 22.3 compiles every pixel shader at the wave size it was
        // asked for (`ps_wave_size`); the code confirms it where it can.
        let wave_size = if c.wave32 { 32 } else { 64 };
        if ps.wave_size.is_some_and(|w| w != wave_size) {
            return Err(format!(
                "{shader} on {family}: RADV compiled wave{}",
                ps.wave_size.unwrap_or(0)
            ));
        }
        let name = format!("{stem}.{family}");
        write_outputs(out_dir, &name, &ps, arch, mcpu)?;
        let manifest = manifest(&ManifestParts {
            scene: &table,
            scene_name: &path.file_name().unwrap_or_default().to_string_lossy(),
            shader,
            family,
            arch,
            name: &name,
            ps: &ps,
            targets: &targets,
            bindings: &bindings,
            inputs: &inputs,
            push: &spec.push,
            wave_size,
        })
        .map_err(|e| format!("{shader} on {family}: {e}"))?;
        let toml_path = out_dir.join(format!("{name}.toml"));
        std::fs::write(&toml_path, manifest)
            .map_err(|e| format!("{}: {e}", toml_path.display()))?;
        println!(
            "wrote {} ({} instructions, inputs {})",
            toml_path.display(),
            ps.lines.len(),
            ps.inputs.join(",")
        );
    }
    Ok(())
}

/// `draw.push_constants`: dwords, a float as its f32 bits, an integer as its
/// 32 bits.
fn push_words(draw: &toml::Table) -> Result<Vec<u32>, String> {
    let Some(v) = draw.get("push_constants") else {
        return Ok(Vec::new());
    };
    let a = v
        .as_array()
        .ok_or("draw.push_constants is an array of numbers")?;
    if a.len() > 32 {
        return Err("draw.push_constants: at most 32 dwords (128 bytes)".into());
    }
    a.iter()
        .map(|x| match x {
            toml::Value::Float(f) => Ok((*f as f32).to_bits()),
            toml::Value::Integer(n) => Ok(*n as u32),
            _ => Err("draw.push_constants holds numbers".to_string()),
        })
        .collect()
}

/// The immutable samplers of the scene's bindings (`immutable = true`), read
/// with gcnrun's own manifest rules from the scene's `[[sampler]]` tables.
fn immutable_samplers(
    scene: &toml::Table,
    bindings: &[Binding],
) -> Result<Vec<(u32, u32, vulkan::SamplerFields)>, String> {
    let wanted: Vec<&Binding> = bindings
        .iter()
        .filter(|b| b.table.get("immutable").and_then(|v| v.as_bool()) == Some(true))
        .collect();
    if wanted.is_empty() {
        return Ok(Vec::new());
    }
    let mut m = toml::Table::new();
    m.insert("hex".into(), "00000000".into());
    if let Some(s) = scene.get("sampler") {
        m.insert("sampler".into(), s.clone());
    }
    let text = toml::to_string(&m).map_err(|e| e.to_string())?;
    let launch =
        gcnrun::launch::manifest::parse(&text, &Default::default()).map_err(|e| e.to_string())?;
    wanted
        .iter()
        .map(|b| {
            let name = b
                .table
                .get("sampler")
                .and_then(|v| v.as_str())
                .unwrap_or("");
            let s = launch
                .samplers
                .iter()
                .find(|s| s.name == name)
                .ok_or(format!(
                    "binding {}.{}: no [[sampler]] named `{name}`",
                    b.set, b.binding
                ))?;
            Ok((b.set, b.binding, vulkan::SamplerFields::of(s)))
        })
        .collect()
}

/// What `--render` takes from a scene.
struct RenderParts<'a> {
    path: &'a Path,
    dir: &'a Path,
    out_dir: &'a Path,
    stem: &'a str,
    draw: &'a toml::Table,
    inputs: &'a [Input],
    targets: &'a [Target],
    bindings: &'a [Binding],
    spec: &'a PipelineSpec,
    vert: &'a Path,
    frag: &'a Path,
}

/// `--render`: lavapipe draws the scene; one file of texels per target.
fn render_scene(r: &RenderParts) -> Result<(), String> {
    let at = |e: &dyn std::fmt::Display| format!("{}: {e}", r.path.display());
    let positions = r
        .draw
        .get("positions")
        .and_then(|v| v.as_array())
        .ok_or_else(|| at(&"draw.positions is missing"))?;
    let rows = r.draw.get("attributes").and_then(|v| v.as_array());
    let mut vertices = Vec::new();
    let word = |v: &toml::Value| -> u32 {
        match v {
            toml::Value::Integer(n) => *n as u32,
            toml::Value::Float(f) => (*f as f32).to_bits(),
            _ => 0,
        }
    };
    for (i, p) in positions.iter().enumerate() {
        for k in 0..4 {
            let x = p.get(k).map_or(0.0, |v| {
                v.as_float()
                    .or(v.as_integer().map(|n| n as f64))
                    .unwrap_or(0.0)
            });
            vertices.extend_from_slice(&(x as f32).to_bits().to_le_bytes());
        }
        for input in r.inputs {
            let a = rows
                .and_then(|r| r.get(i))
                .and_then(|r| r.get(input.location as usize))
                .and_then(|a| a.as_array());
            for k in 0..4 {
                let w = a.and_then(|a| a.get(k)).map_or(0, word);
                vertices.extend_from_slice(&w.to_le_bytes());
            }
        }
    }
    let size = |k: &str| r.draw.get(k).and_then(|v| v.as_integer()).unwrap_or(0) as u32;
    let bindings = r
        .bindings
        .iter()
        .map(|b| {
            let name = |k: &str| {
                b.table
                    .get(k)
                    .and_then(|v| v.as_str())
                    .unwrap_or("")
                    .to_string()
            };
            (b.set, b.binding, name("image"), name("sampler"))
        })
        .collect();
    let vs = vulkan::read_spirv(&r.vert.to_string_lossy())?;
    let fs = vulkan::read_spirv(&r.frag.to_string_lossy())?;
    let scene = render::Scene {
        vs: &vs,
        fs: &fs,
        spec: r.spec,
        size: (size("width"), size("height")),
        vertices,
        vertex_count: positions.len() as u32,
        bindings,
        target_bytes: r.targets.iter().map(|t| t.bytes).collect(),
    };
    let manifest = r.dir.join(format!("{}.navi21.toml", r.stem));
    let texels = render::render(&scene, &manifest).map_err(|e| at(&e))?;
    for (k, t) in texels.iter().enumerate() {
        let p = r.out_dir.join(format!("{}.lavapipe.mrt{k}.bin", r.stem));
        std::fs::write(&p, t).map_err(|e| format!("{}: {e}", p.display()))?;
        println!("wrote {}", p.display());
    }
    Ok(())
}

/// A fragment shader input: location, interpolation qualifier, GLSL type.
struct Input {
    location: u32,
    qualifier: String,
    ty: String,
    name: String,
}

/// The `layout(location = N) [flat|noperspective|smooth] in TYPE NAME;` lines
/// of a fragment shader — the only input declarations the generator writes a
/// vertex shader for.
fn fragment_inputs(src: &str) -> Result<Vec<Input>, String> {
    let mut out = Vec::new();
    for line in src.lines() {
        let line = line.trim();
        let Some(rest) = line.strip_prefix("layout(location") else {
            continue;
        };
        let Some((loc, decl)) = rest.split_once(')') else {
            continue;
        };
        let words: Vec<&str> = decl
            .trim()
            .trim_end_matches(';')
            .split_whitespace()
            .collect();
        let Some(pos) = words.iter().position(|w| *w == "in") else {
            continue;
        };
        let location = loc
            .trim_start_matches([' ', '='])
            .trim()
            .parse()
            .map_err(|_| format!("cannot read the location of `{line}`"))?;
        let (ty, name) = match words.get(pos + 1..) {
            Some([ty, name]) => (ty.to_string(), name.to_string()),
            _ => return Err(format!("cannot read the input `{line}`")),
        };
        out.push(Input {
            location,
            qualifier: words[..pos].join(" "),
            ty,
            name,
        });
    }
    out.sort_by_key(|i| i.location);
    for (k, i) in out.iter().enumerate() {
        if i.location != k as u32 {
            return Err("inputs must use locations 0, 1, 2, … without gaps".into());
        }
    }
    Ok(out)
}

/// A vertex shader that passes attribute k+1 (four 32-bit patterns) to the
/// fragment shader's input at location k, bit for bit, and attribute 0 to
/// gl_Position.
fn vertex_shader(inputs: &[Input]) -> String {
    let mut s = String::from("#version 450\nlayout(location = 0) in vec4 gcnrun_position;\n");
    let mut body = String::from("    gl_Position = gcnrun_position;\n");
    for i in inputs {
        let k = i.location;
        let _ = writeln!(s, "layout(location = {}) in uvec4 gcnrun_a{k};", k + 1);
        let _ = writeln!(
            s,
            "layout(location = {k}) {} out {} {};",
            i.qualifier, i.ty, i.name
        );
        let n = match i.ty.as_bytes().last() {
            Some(c @ b'2'..=b'4') => (c - b'0') as usize,
            _ => 1,
        };
        let swz = &"xyzw"[..n];
        let value = match i.ty.chars().next() {
            Some('i') => format!("{}(gcnrun_a{k}.{swz})", i.ty),
            Some('u') => format!("gcnrun_a{k}.{swz}"),
            _ => format!("uintBitsToFloat(gcnrun_a{k}.{swz})"),
        };
        let _ = writeln!(body, "    {} = {value};", i.name);
    }
    format!("{s}void main() {{\n{body}}}\n")
}

fn glslang(src: &Path, out: &Path) -> Result<(), String> {
    let o = Command::new("glslangValidator")
        .arg("-V")
        .arg(src)
        .arg("-o")
        .arg(out)
        .output()
        .map_err(|e| format!("glslangValidator: {e} (Debian: apt-get install glslang-tools)"))?;
    if !o.status.success() {
        return Err(format!(
            "glslangValidator {}: {}",
            src.display(),
            String::from_utf8_lossy(&o.stdout).trim()
        ));
    }
    Ok(())
}

/// What the child process builds: target formats, bindings (set, binding,
/// VkDescriptorType) and the number of vertex attributes after the position.
pub struct PipelineSpec {
    targets: Vec<i32>,
    bindings: Vec<(u32, u32, i32)>,
    attributes: u32,
    /// Bindings (set, binding) with an immutable sampler, and its fields.
    immutable: Vec<(u32, u32, vulkan::SamplerFields)>,
    /// The push constants' dwords (the range is their size).
    push: Vec<u32>,
}

impl PipelineSpec {
    fn to_args(&self) -> Vec<String> {
        let list = |v: Vec<String>| v.join(",");
        vec![
            list(self.targets.iter().map(|t| t.to_string()).collect()),
            list(
                self.bindings
                    .iter()
                    .map(|(s, b, t)| format!("{s}:{b}:{t}"))
                    .collect(),
            ),
            self.attributes.to_string(),
            list(
                self.immutable
                    .iter()
                    .map(|(s, b, f)| {
                        let f: Vec<String> = f.0.iter().map(|x| x.to_string()).collect();
                        format!("{s}:{b}:{}", f.join(":"))
                    })
                    .collect(),
            ),
            list(self.push.iter().map(|w| w.to_string()).collect()),
        ]
    }

    fn from_args(a: &[String]) -> Result<PipelineSpec, String> {
        let bad = || "bad --compile arguments".to_string();
        let nums = |s: &str| -> Result<Vec<i64>, String> {
            s.split([',', ':'])
                .filter(|x| !x.is_empty())
                .map(|x| x.parse().map_err(|_| bad()))
                .collect()
        };
        let targets = nums(a.first().ok_or_else(bad)?)?
            .into_iter()
            .map(|t| t as i32)
            .collect();
        let b = nums(a.get(1).ok_or_else(bad)?)?;
        let bindings = b
            .chunks(3)
            .map(|c| (c[0] as u32, c[1] as u32, c[2] as i32))
            .collect();
        let attributes = a.get(2).ok_or_else(bad)?.parse().map_err(|_| bad())?;
        let i = nums(a.get(3).ok_or_else(bad)?)?;
        let immutable = i
            .chunks(13)
            .map(|c| {
                let mut f = [0i64; 11];
                f.copy_from_slice(&c[2..]);
                (c[0] as u32, c[1] as u32, vulkan::SamplerFields(f))
            })
            .collect();
        let push = nums(a.get(4).ok_or_else(bad)?)?
            .into_iter()
            .map(|w| w as u32)
            .collect();
        Ok(PipelineSpec {
            targets,
            bindings,
            attributes,
            immutable,
            push,
        })
    }
}

fn descriptor_type(kind: &str) -> Result<vk::DescriptorType, String> {
    Ok(match kind {
        "combined_image_sampler" => vk::DescriptorType::COMBINED_IMAGE_SAMPLER,
        "sampled_image" => vk::DescriptorType::SAMPLED_IMAGE,
        "sampler" => vk::DescriptorType::SAMPLER,
        _ => return Err(format!("unknown binding type `{kind}`")),
    })
}

/// Runs this program again as `--compile` with RADV's environment and returns
/// its stderr: RADV prints its shader dump there.
fn compile_on_radv(
    chip: &Chip,
    vert: &Path,
    frag: &Path,
    spec: &PipelineSpec,
) -> Result<String, String> {
    let me = std::env::current_exe().map_err(|e| e.to_string())?;
    let o = Command::new(me)
        .arg("--compile")
        .arg(vert)
        .arg(frag)
        .args(spec.to_args())
        .env("RADV_FORCE_FAMILY", chip.family)
        .env("RADV_PERFTEST", if chip.wave32 { "pswave32" } else { "" })
        .env("RADV_DEBUG", "shaders")
        // Mesa's shader cache would skip the compile, and with it the dump.
        .env("MESA_SHADER_CACHE_DISABLE", "true")
        .env("MESA_GLSL_CACHE_DISABLE", "true")
        .output()
        .map_err(|e| e.to_string())?;
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    if !o.status.success() {
        let last = err
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("");
        return Err(format!("compiling on RADV {} failed: {last}", chip.family));
    }
    Ok(err)
}

/// The child: create a Vulkan device on RADV's null winsys and build the
/// pipeline; RADV_DEBUG=shaders prints the shaders as they compile.
fn compile_child(args: &[String]) -> Result<(), String> {
    let vs = vulkan::read_spirv(args.first().ok_or("no vertex shader")?)?;
    let fs = vulkan::read_spirv(args.get(1).ok_or("no fragment shader")?)?;
    let spec = PipelineSpec::from_args(&args[2..])?;
    let ctx = vulkan::Context::new("RADV")?;
    ctx.pipeline(&vs, &fs, &spec)?;
    Ok(())
}

/// The pixel shader of a RADV dump.
struct PixelShader {
    /// ACO's disassembly lines (text, words) in order; labels have no words.
    lines: Vec<(String, Vec<u32>)>,
    /// The enabled SPI_PS_INPUT bits, hardware order.
    inputs: Vec<String>,
    /// The SGPR arguments of `p_startpgm`: first register and count.
    sgpr_args: Vec<(u32, u32)>,
    /// The wave size the code shows, where it touches EXEC.
    wave_size: Option<u32>,
    /// Where each input's components live: (input name, VARYING_SLOT_VARn,
    /// channel) per component, in component order.
    slots: Vec<(String, u32, u32)>,
}

impl PixelShader {
    fn parse(dump: &str) -> Result<PixelShader, String> {
        // ACO prints "After RA:" with the IR of each stage, then the stage's
        // disassembly under "<Stage> Shader\ndisasm:".
        let ir_at = dump
            .find("ACO shader stage: fragment_fs")
            .ok_or("no fragment shader in RADV's dump (RADV_DEBUG=shaders)")?;
        let ir = &dump[ir_at..];
        let start = ir
            .lines()
            .find(|l| l.contains("= p_startpgm"))
            .ok_or("no p_startpgm in the fragment shader's IR")?;
        let (sgpr_args, vgprs) = startpgm_args(start)?;
        let at = dump
            .find("Pixel Shader\ndisasm:")
            .ok_or("no pixel shader disassembly")?;
        let mut lines = Vec::new();
        for l in dump[at..].lines().skip(2) {
            let l = l.trim_end();
            if l.is_empty() {
                break;
            }
            match l.rsplit_once(';') {
                Some((text, hex)) => {
                    let words = hex
                        .split_whitespace()
                        .map(|w| {
                            u32::from_str_radix(w, 16)
                                .map_err(|_| format!("bad word `{w}` in `{l}`"))
                        })
                        .collect::<Result<Vec<_>, _>>()?;
                    lines.push((text.trim().to_string(), words));
                }
                None if l.ends_with(':') => lines.push((l.trim().to_string(), Vec::new())),
                None => return Err(format!("a disassembly line without words: `{l}`")),
            }
        }
        let nir_at = dump
            .find("shader: MESA_SHADER_FRAGMENT")
            .ok_or("no fragment NIR")?;
        let nir_end = dump[nir_at..]
            .find("After RA:")
            .map_or(dump.len(), |e| nir_at + e);
        let inputs = ps_inputs(&dump[nir_at..nir_end], vgprs)?;
        let slots = input_slots(&dump[nir_at..nir_end])?;
        // What the code says of its wave size where it touches EXEC: the
        // 64-bit forms are wave64's, EXEC_LO alone wave32's.
        let wave_size = if lines.iter().any(|(t, _)| t.contains("_b64 exec")) {
            Some(64)
        } else if lines.iter().any(|(t, _)| t.contains("exec_lo")) {
            Some(32)
        } else {
            None
        };
        Ok(PixelShader {
            lines,
            inputs,
            sgpr_args,
            wave_size,
            slots,
        })
    }
}

/// Where RADV put each fragment input's components: its linker packs
/// varyings, so a `vec4` at location 1 may sit in VAR0.zw and VAR1.xy. Read
/// from the NIR's `decl_var shader_in … NAME[@k] (VARYING_SLOT_VARn.xyzw, …)`
/// lines, one per scalar or vector piece, in component order.
fn input_slots(nir: &str) -> Result<Vec<(String, u32, u32)>, String> {
    let mut out = Vec::new();
    for l in nir.lines() {
        let Some(rest) = l.trim().strip_prefix("decl_var shader_in ") else {
            continue;
        };
        let Some((head, tail)) = rest.split_once(" (VARYING_SLOT_VAR") else {
            return Err(format!("an input outside the VARn slots: `{l}`"));
        };
        let name = head.split_whitespace().last().unwrap_or("");
        let name = name.split('@').next().unwrap_or(name).to_string();
        let (slot, chans) = tail
            .split_once('.')
            .ok_or_else(|| format!("cannot read `{l}`"))?;
        let slot: u32 = slot.parse().map_err(|_| format!("cannot read `{l}`"))?;
        for c in chans.chars().take_while(|c| "xyzw".contains(*c)) {
            out.push((name.clone(), slot, "xyzw".find(c).unwrap_or(0) as u32));
        }
    }
    Ok(out)
}

/// The scene's attributes (per vertex, per input location, four channels)
/// as the hardware's parameters (per vertex, per parameter, four channels):
/// parameter k is the k-th VARn slot the shader reads, and each input's
/// components land where [`input_slots`] says.
fn parameters(
    scene: &toml::Value,
    inputs: &[Input],
    slots: &[(String, u32, u32)],
) -> Result<toml::Value, String> {
    let used: BTreeSet<u32> = slots.iter().map(|s| s.1).collect();
    let rank = |slot: u32| used.iter().position(|&u| u == slot).unwrap_or(0);
    let rows = scene.as_array().ok_or("draw.attributes must be an array")?;
    let mut out = Vec::new();
    for row in rows {
        let row = row.as_array().ok_or("draw.attributes rows are arrays")?;
        let mut params = vec![vec![toml::Value::Float(0.0); 4]; used.len()];
        for input in inputs {
            let value = row
                .get(input.location as usize)
                .and_then(|v| v.as_array())
                .ok_or(format!("no attribute for input `{}`", input.name))?;
            let mine = slots.iter().filter(|s| s.0 == input.name);
            for (comp, (_, slot, chan)) in mine.enumerate() {
                params[rank(*slot)][*chan as usize] = value
                    .get(comp)
                    .cloned()
                    .ok_or(format!("input `{}` has too few channels", input.name))?;
            }
        }
        out.push(toml::Value::Array(
            params.into_iter().map(toml::Value::Array).collect(),
        ));
    }
    Ok(toml::Value::Array(out))
}

/// The SGPR arguments (first register, count) and the number of VGPRs of a
/// `p_startpgm` line such as `s2: %24:s[0-1],  s1: %25:s[2],  v2: %28:v[0-1] = p_startpgm`.
fn startpgm_args(line: &str) -> Result<(Vec<(u32, u32)>, u32), String> {
    let defs = line.split('=').next().unwrap_or("");
    let mut sgprs = Vec::new();
    let mut vgprs = 0;
    for d in defs.split(',') {
        let Some((_, reg)) = d.trim().rsplit_once(':') else {
            continue;
        };
        let (file, range) = reg.split_at(1);
        let range = range.trim_start_matches('[').trim_end_matches(']');
        let (a, b) = range.split_once('-').unwrap_or((range, range));
        let (a, b): (u32, u32) = (
            a.parse().map_err(|_| format!("cannot read `{d}`"))?,
            b.parse().map_err(|_| format!("cannot read `{d}`"))?,
        );
        match file {
            "s" => sgprs.push((a, b - a + 1)),
            "v" => vgprs += b - a + 1,
            _ => return Err(format!("unexpected argument `{d}`")),
        }
    }
    Ok((sgprs, vgprs))
}

/// The components (`x`…`w`) of SSA value `name` that any NIR line reads as
/// `name.xy…`.
fn components_read(nir: &str, name: &str) -> String {
    let prefix = format!("{name}.");
    let mut read = String::new();
    for u in nir.lines() {
        for (i, _) in u.match_indices(&prefix) {
            // `ssa_5.` but not `ssa_51.` or `xssa_5.`.
            let whole = u[..i]
                .chars()
                .last()
                .is_none_or(|p| !p.is_alphanumeric() && p != '_');
            if whole {
                for c in u[i + prefix.len()..]
                    .chars()
                    .take_while(|c| "xyzw".contains(*c))
                {
                    if !read.contains(c) {
                        read.push(c);
                    }
                }
            }
        }
    }
    "xyzw".chars().filter(|c| read.contains(*c)).collect()
}

/// SPI_PS_INPUT_ENA as RADV 22.3 sets it (`radv_compute_spi_ps_input`) from
/// what the NIR reads: the barycentrics by mode and location, the components
/// of gl_FragCoord, front face, sample id and mask. At least one barycentric
/// pair is always enabled (the hardware needs one: PERSP_CENTER when none is
/// read). Checked against the VGPR count of `p_startpgm`.
fn ps_inputs(nir: &str, vgprs: u32) -> Result<Vec<String>, String> {
    let mut on = BTreeSet::new();
    for l in nir.lines() {
        let mode = if l.contains("interp_mode=3") {
            "linear"
        } else {
            "persp"
        };
        for (what, loc) in [
            ("load_barycentric_pixel", "center"),
            ("load_barycentric_centroid", "centroid"),
            ("load_barycentric_sample", "sample"),
        ] {
            if l.contains(what) {
                on.insert(format!("{mode}_{loc}"));
            }
        }
        if l.contains("load_barycentric_at") {
            return Err("barycentrics at an offset or sample (pull model) are not modelled".into());
        }
        if l.contains("load_front_face") {
            on.insert("front_face".into());
        }
        if l.contains("load_sample_id") || l.contains("load_sample_mask_in") {
            on.insert("ancillary".into());
        }
        if l.contains("load_sample_mask_in") {
            on.insert("sample_coverage".into());
        }
        if l.contains(" = intrinsic load_frag_coord") {
            // RADV enables the components the NIR reads (`ssa_5.xy`); a use
            // of the whole vector reads all four.
            let name = l
                .split(" = ")
                .next()
                .and_then(|d| d.split_whitespace().last());
            let read = components_read(nir, name.unwrap_or(""));
            for c in if read.is_empty() {
                "xyzw".to_string()
            } else {
                read
            }
            .chars()
            {
                on.insert(format!("pos_{c}_float"));
            }
        }
    }
    if !PS_INPUTS[..7].iter().any(|(n, _)| on.contains(*n)) {
        on.insert("persp_center".into());
    }
    let inputs: Vec<String> = PS_INPUTS
        .iter()
        .filter(|(n, _)| on.contains(*n))
        .map(|(n, _)| n.to_string())
        .collect();
    let count: u32 = PS_INPUTS
        .iter()
        .filter(|(n, _)| on.contains(*n))
        .map(|(_, c)| c)
        .sum();
    if count != vgprs {
        return Err(format!(
            "the inputs read ({}) take {count} VGPRs but p_startpgm has {vgprs}",
            inputs.join(", ")
        ));
    }
    Ok(inputs)
}

/// Writes `<name>.bin` (the words) and `<name>.s`: gcnrun's disassembly of
/// them, which is llvm-mc-19's (`tests/radv_draw.rs` compares the two).
/// ACO's own text is LLVM 15's, and neither reassembles to the same bytes:
/// ACO sets fields LLVM leaves zero (the unused counters of `s_waitcnt`,
/// the unused sources of a COMPR `exp`).
fn write_outputs(
    dir: &Path,
    name: &str,
    ps: &PixelShader,
    arch: &str,
    mcpu: &str,
) -> Result<(), String> {
    let bin: Vec<u8> = ps
        .lines
        .iter()
        .flat_map(|(_, w)| w.iter().flat_map(|w| w.to_le_bytes()))
        .collect();
    let program = gcnrun::input::Program {
        name: format!("{name}.bin"),
        bytes: bin.clone(),
        format: gcnrun::input::Format::Raw,
        arch: None,
    };
    let arch = gcnrun::arch::Arch::parse(arch).ok_or("unknown arch")?;
    let mut listing = Vec::new();
    if let Some(e) = gcnrun::report::write_listing(&program, &arch, &mut listing) {
        return Err(format!("{name}: {e}"));
    }
    let mut s = format!(
        "// The pixel shader RADV/ACO compiled for {name} ({name}.bin), written by\n// radv-corpus: gcnrun's disassembly of its words, equal to llvm-mc-19's\n// (--disassemble -mcpu={mcpu}).\n"
    );
    s.push_str(&String::from_utf8_lossy(&listing));
    let w = |ext: &str, data: &[u8]| {
        let p = dir.join(format!("{name}.{ext}"));
        std::fs::write(&p, data).map_err(|e| format!("{}: {e}", p.display()))
    };
    w("bin", &bin)?;
    w("s", s.as_bytes())
}

/// Everything a draw manifest is made of.
struct ManifestParts<'a> {
    scene: &'a toml::Table,
    scene_name: &'a str,
    shader: &'a str,
    family: &'a str,
    arch: &'a str,
    name: &'a str,
    ps: &'a PixelShader,
    targets: &'a [Target],
    bindings: &'a [Binding],
    inputs: &'a [Input],
    push: &'a [u32],
    wave_size: u32,
}

/// The descriptors of a binding: what each is (`image`, `sampler`) and its
/// byte offset in the binding.
type DescriptorParts = &'static [(&'static str, u32)];

/// RADV 22.3's descriptor sizes and where a combined image sampler keeps its
/// S# (`radv_descriptor_set.c`): image 64 bytes (T# and FMASK), sampler 16,
/// combined 96 with the S# at 80. Bindings follow one another in binding
/// order, each aligned to its size's natural alignment (16 or 32).
fn descriptor_layout(kind: &str) -> Result<(u32, DescriptorParts), String> {
    Ok(match kind {
        "combined_image_sampler" => (96, &[("image", 0), ("sampler", 80)]),
        "sampled_image" => (64, &[("image", 0)]),
        "sampler" => (16, &[("sampler", 0)]),
        _ => return Err(format!("unknown binding type `{kind}`")),
    })
}

/// The export format RADV programs (SPI_SHADER_COL_FORMAT) for a target of
/// this format with blending off (`radv_choose_spi_color_format`): 8-bit
/// UNORM and 16-bit float as FP16_ABGR, 32-bit as 32_*, 8-bit integers as
/// UINT16_ABGR.
fn export_format(target: &str) -> &'static str {
    match target {
        "rgba8_unorm" | "rgba16_float" => "fp16_abgr",
        "r32_float" => "32_r",
        "rgba8_uint" => "uint16_abgr",
        _ => "32_abgr",
    }
}

fn manifest(p: &ManifestParts) -> Result<String, String> {
    let mut m = toml::Table::new();
    m.insert("arch".into(), p.arch.into());
    m.insert("code".into(), format!("{}.bin", p.name).into());
    m.insert("wave_size".into(), i64::from(p.wave_size).into());
    let mut draw = p
        .scene
        .get("draw")
        .and_then(|v| v.as_table())
        .cloned()
        .unwrap_or_default();
    draw.remove("binding");
    if let Some(a) = draw.get("attributes") {
        let params = parameters(a, p.inputs, &p.ps.slots)?;
        draw.insert("attributes".into(), params);
    }
    draw.insert(
        "inputs".into(),
        toml::Value::Array(p.ps.inputs.iter().map(|s| s.clone().into()).collect()),
    );
    // RADV's pixel shader SGPR arguments (`radv_declare_shader_args`): the
    // scratch ring pointer (2), one 32-bit pointer per descriptor set used,
    // the primitive mask, and before gfx11 (whose scratch is architected) the
    // scratch wave offset.
    let args = &p.ps.sgpr_args;
    let sets: BTreeSet<u32> = p.bindings.iter().map(|b| b.set).collect();
    // Push constants RADV inlines (AC_UD_INLINE_PUSH_CONSTANTS) follow the
    // set pointers, one SGPR per dword from dword 0 on; a push-constant
    // pointer (a larger range, or dynamic indexing) is not read here.
    let scratch = usize::from(p.arch != "gfx1100");
    let fixed = sets.len() + 2 + scratch;
    let inline = args.len().saturating_sub(fixed);
    if args.len() < fixed || args[0].1 != 2 || inline > p.push.len() {
        return Err(format!(
            "p_startpgm has SGPR arguments {args:?}; expected the ring pointer, {} set pointer(s), up to {} inline push-constant dwords, the primitive mask{}",
            sets.len(),
            p.push.len(),
            if scratch == 1 { " and the scratch offset" } else { "" }
        ));
    }
    draw.remove("push_constants");
    draw.insert(
        "prim_mask".into(),
        format!("s{}", args[1 + sets.len() + inline].0).into(),
    );
    draw.insert("address32_hi".into(), 0xffff_8000i64.into());
    let targets = p
        .targets
        .iter()
        .map(|t| {
            let mut e = toml::Table::new();
            e.insert("format".into(), t.name.clone().into());
            e.insert("export".into(), export_format(&t.name).into());
            toml::Value::Table(e)
        })
        .collect();
    draw.insert("targets".into(), toml::Value::Array(targets));
    m.insert("draw".into(), draw.into());
    let mut sgpr = toml::Table::new();
    let mut buffers = Vec::new();
    for (k, set) in sets.iter().enumerate() {
        let name = format!("set{set}");
        let mut ptr = toml::Table::new();
        ptr.insert("address".into(), name.clone().into());
        sgpr.insert(format!("s{}", args[1 + k].0), ptr.into());
        let mut offset = 0u32;
        let mut data = toml::Table::new();
        let mut in_set: Vec<&Binding> = p.bindings.iter().filter(|b| b.set == *set).collect();
        in_set.sort_by_key(|b| b.binding);
        for b in in_set {
            let (size, parts) = descriptor_layout(&b.kind)?;
            offset = offset.next_multiple_of(if size % 32 == 0 { 32 } else { 16 });
            let immutable = b.table.get("immutable").and_then(|v| v.as_bool()) == Some(true);
            for (what, at) in parts {
                // An immutable sampler's S# is in the code (RADV embeds it).
                if immutable && *what == "sampler" {
                    continue;
                }
                let target = b
                    .table
                    .get(*what)
                    .and_then(|v| v.as_str())
                    .ok_or(format!("binding {}.{} needs `{what}`", b.set, b.binding))?;
                let mut v = toml::Table::new();
                v.insert((*what).into(), target.into());
                data.insert(format!("{:#x}", offset + at), v.into());
            }
            offset += size;
        }
        let mut buf = toml::Table::new();
        buf.insert("name".into(), name.into());
        buf.insert("bytes".into(), i64::from(offset.max(16)).into());
        buf.insert("data".into(), data.into());
        buffers.push(toml::Value::Table(buf));
    }
    for (k, w) in p.push.iter().take(inline).enumerate() {
        sgpr.insert(
            format!("s{}", args[1 + sets.len() + k].0),
            i64::from(*w).into(),
        );
    }
    m.insert("sgpr".into(), sgpr.into());
    for key in ["image", "sampler", "expect"] {
        if let Some(v) = p.scene.get(key) {
            m.insert(key.into(), v.clone());
        }
    }
    m.insert("buffer".into(), toml::Value::Array(buffers));
    let body = toml::to_string(&m).map_err(|e| e.to_string())?;
    Ok(format!(
        "# Written by radv-corpus (assets/radv/regen.sh) from {} and {}: the pixel\n# shader RADV/ACO compiles for {} ({}), drawn by gcnrun (docs/draw.md).\n# Do not edit: edit the scene and regenerate.\n{body}",
        p.scene_name, p.shader, p.family, p.arch
    ))
}
