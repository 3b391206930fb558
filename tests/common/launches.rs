//! Launches the GPU tests share: every asset manifest, plus manifests generated
//! around the format-sweep and atomics kernels for every format pair and every
//! atomic. Generated manifests are written to a scratch directory and name
//! their code by absolute path.

use gcnrun::launch::run::{prepare_manifest, Prepared};
use gcnrun::texture::format::{check, NumFormat, DATA_FORMATS};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// `assets/`.
pub fn assets() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("assets")
}

/// Every file under `assets/`, subfolders included, whose extension is one
/// of `exts`, relative to the package root (the tests run from it), sorted.
pub fn asset_files(exts: &[&str]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut dirs = vec![PathBuf::from("assets")];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).expect("assets/ is readable") {
            let p = e.expect("directory entry").path();
            if p.is_dir() {
                dirs.push(p);
            } else if p
                .extension()
                .and_then(|x| x.to_str())
                .is_some_and(|x| exts.contains(&x))
            {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Every `assets/*.toml`, sorted.
pub fn asset_manifests() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(assets())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    v.sort();
    v
}

/// Every Intel launch manifest under `assets/visa/`, its subfolders included
/// (`igc/` holds the real dumps' launches), except `bin/` (binary objects), sorted.
pub fn visa_manifests() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for p in std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()) {
            if p.is_dir() {
                if p.file_name().is_some_and(|n| n != "bin") {
                    walk(&p, out);
                }
            } else if p.extension().is_some_and(|e| e == "toml") {
                out.push(p);
            }
        }
    }
    let mut v = Vec::new();
    walk(&assets().join("visa"), &mut v);
    v.sort();
    v
}

fn scratch_dir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("gcnrun-gpu-tests-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Writes a manifest and prepares it. Every call gets a file of its own:
/// tests of one binary run on parallel threads, and two of them writing the
/// same name raced (one truncated the file while the other read it).
pub fn prepare_text(name: &str, text: &str) -> Prepared {
    static SERIAL: AtomicUsize = AtomicUsize::new(0);
    let serial = SERIAL.fetch_add(1, Ordering::Relaxed);
    let path = scratch_dir().join(format!("{name}-{serial}.toml"));
    std::fs::write(&path, text).unwrap();
    prepare_manifest(&path, None, None, None).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// A manifest's `[[buffer]]` table `name` holding the words `data` from its
/// start, exactly as long as they are.
pub fn data_buffer(name: &str, data: &[u32]) -> String {
    let words: Vec<String> = data.iter().map(u32::to_string).collect();
    format!(
        "\n[[buffer]]\nname = \"{name}\"\nbytes = {}\ndata = {{ \"0x0\" = {{ u32 = [{}] }} }}\n",
        4 * data.len(),
        words.join(", ")
    )
}

/// A manifest's `[[buffer]]` table `name` of `bytes` zero bytes.
pub fn zero_buffer(name: &str, bytes: usize) -> String {
    format!("\n[[buffer]]\nname = \"{name}\"\nbytes = {bytes}\n")
}

/// Every number format with its manifest name (the format tests draw from it).
pub const NUM_FORMATS: [(NumFormat, &str); 8] = [
    (NumFormat::Unorm, "unorm"),
    (NumFormat::Snorm, "snorm"),
    (NumFormat::Uscaled, "uscaled"),
    (NumFormat::Sscaled, "sscaled"),
    (NumFormat::Uint, "uint"),
    (NumFormat::Sint, "sint"),
    (NumFormat::Float, "float"),
    (NumFormat::Srgb, "srgb"),
];

/// One launch per readable (data format, number format) pair: loads from a
/// noise image, and for storable pairs stores lane values and reads them back.
pub fn format_launches() -> Vec<(String, Prepared)> {
    let mut out = Vec::new();
    for df in DATA_FORMATS
        .iter()
        .filter(|d| d.layout != gcnrun::texture::format::Layout::Block)
    {
        for (nf, nf_name) in NUM_FORMATS {
            if check(df, nf).is_err() {
                continue;
            }
            let storable = gcnrun::texture::format::store_texel(df, nf, [0; 4]).is_some();
            let kernel = if storable {
                "format_sweep.bin"
            } else {
                "format_load.bin"
            };
            let name = format!("fmt_{}_{nf_name}", df.name);
            let text = format!(
                r#"arch = "gfx900"
code = "{code}"
waves = 2

[sgpr]
"s[4:11]" = {{ image = "src" }}
"s[16:23]" = {{ image = "dst" }}

[vgpr]
v0 = {{ u32 = "lane % 16" }}
v1 = {{ u32 = "lane / 16 + 4 * wave" }}
v8 = {{ u32 = "lane * 2654435761 + wave * 40503 + 12345" }}
v9 = {{ f32 = "(lane - 32) / 24.0 + wave / 7.0" }}
v10 = {{ f32 = "(lane + 0.5) / 255.0" }}
v11 = {{ u32 = "lane * 1103515245 + 12345 * wave" }}

[[image]]
name = "src"
type = "2d"
width = 16
height = 8
format = "{df}"
num_format = "{nf_name}"
init = "noise"

[[image]]
name = "dst"
type = "2d"
width = 16
height = 8
format = "{df}"
num_format = "{nf_name}"
init = "zero"
"#,
                code = assets().join(kernel).display(),
                df = df.name,
            );
            out.push((name.clone(), prepare_text(&name, &text)));
        }
    }
    out
}

/// The integer (gfx9) and float (gfx7) atomics kernels over noise images,
/// every lane on its own texel.
pub fn atomic_launches() -> Vec<(String, Prepared)> {
    let image = |name: &str, format: &str, nf: &str| {
        format!(
            "[[image]]\nname = \"{name}\"\ntype = \"1d\"\nwidth = 128\nformat = \"{format}\"\nnum_format = \"{nf}\"\ninit = \"noise\"\n\n"
        )
    };
    [("atomics_all", "gfx900"), ("atomics_float", "bonaire")]
        .iter()
        .map(|(kernel, arch)| {
            let text = format!(
                r#"arch = "{arch}"
code = "{code}"
waves = 2

[sgpr]
"s[4:11]" = {{ image = "u32" }}
"s[12:19]" = {{ image = "f32" }}
"s[20:27]" = {{ image = "u64" }}
"s[28:35]" = {{ image = "f64" }}

[vgpr]
v0 = {{ u32 = "lane + 64 * wave" }}
v2 = {{ u32 = "lane * 2654435761 + wave * 40503 + 7" }}
v3 = {{ u32 = "lane * 1103515245 + 12345 * wave + 3" }}
v4 = {{ u32 = "(lane % 7) * 1000000000" }}
v5 = {{ u32 = "wave" }}

{}{}{}{}"#,
                image("u32", "32", "uint"),
                image("f32", "32", "float"),
                image("u64", "32_32", "uint"),
                image("f64", "32_32", "float"),
                code = assets().join(format!("{kernel}.bin")).display(),
            );
            (kernel.to_string(), prepare_text(kernel, &text))
        })
        .collect()
}

/// Every asset manifest, the bare gradient kernel in the default environment,
/// the format launches and the atomics launches.
pub fn all_launches() -> Vec<(String, Prepared)> {
    let mut v: Vec<(String, Prepared)> = asset_manifests()
        .into_iter()
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            let prep =
                prepare_manifest(&p, None, None, None).unwrap_or_else(|e| panic!("{name}: {e}"));
            (name, prep)
        })
        .collect();
    let program = gcnrun::input::load_file(&assets().join("gradient_quad.bin")).unwrap();
    let arch = gcnrun::Arch::parse("gfx6").unwrap();
    v.push((
        "gradient_quad.bin".into(),
        gcnrun::launch::run::prepare_default(&program, arch, None, None).unwrap(),
    ));
    v.extend(format_launches());
    v.extend(atomic_launches());
    v
}

/// Launches the GPU backend refuses, with the words its error must contain
/// (docs/gpu.md, "What runs on the GPU"): none today.
pub const GPU_REFUSED: &[(&str, &str)] = &[];

/// The refusal a launch is expected to get, if any.
pub fn expected_refusal(name: &str) -> Option<&'static str> {
    GPU_REFUSED
        .iter()
        .find(|(prefix, _)| name.starts_with(prefix))
        .map(|&(_, why)| why)
}

/// The T# `words` a manifest placed for generation `gen`, re-encoded with a
/// random view with probability `p`: a random resource MIN_LOD (half the time;
/// gfx11 splits it over two words) and a random mip range
/// BASE_LEVEL..=LAST_LEVEL within the chain (a manifest always writes MIN_LOD 0
/// and the whole chain). A failure message's manifest does not show the view;
/// the random tests' seeds reproduce it.
pub fn random_view(
    rng: &mut impl rand::Rng,
    p: f64,
    words: &[u32],
    gen: gcnrun::arch::Gen,
) -> [u32; 8] {
    use gcnrun::texture::descriptor::{decode_image, encode_image, Image};
    let Ok(Image::Bound(mut d)) = decode_image(words, gen) else {
        panic!("the manifest's T# does not decode: {words:x?}");
    };
    if rng.gen_bool(p) {
        d.min_lod = if rng.gen_bool(0.5) {
            rng.gen_range(0..0x400)
        } else {
            0
        };
        let last = d.last_level;
        d.base_level = rng.gen_range(0..=last);
        d.last_level = rng.gen_range(d.base_level..=last);
    }
    encode_image(&d, gen).expect("a T# re-encodes")
}

/// `assets/kernels/`, the compiled kernels and their manifests.
pub fn kernels() -> PathBuf {
    assets().join("kernels")
}

/// The launch of code object `object` of `assets/kernels/` with `manifest`
/// (or the default environment) and command-line options, as `gcn-run`
/// prepares it.
pub fn kernel_launch(
    object: &str,
    manifest: Option<&str>,
    opts: &gcnrun::launch::hsa::Options,
) -> Prepared {
    let dir = kernels();
    let bytes = std::fs::read(dir.join(object)).unwrap();
    let mt = manifest.map(|text| gcnrun::launch::hsa::ManifestText {
        text,
        name: "test.toml",
        dir: &dir,
    });
    gcnrun::launch::hsa::prepare(object, &bytes, mt, opts)
        .unwrap_or_else(|e| panic!("{object}: {e}"))
}
