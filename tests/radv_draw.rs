//! Pixel shaders Mesa's RADV/ACO compiled for vega10, navi21 and gfx1100
//! (`assets/radv/`, written by `radv-corpus`), drawn by gcnrun
//! (docs/draw.md):
//! - `radv-corpus` regenerates the committed files byte for byte;
//! - the `.s` files are llvm-mc-19's disassembly of the `.bin` words;
//! - lavapipe, rendering the same GLSL over the same scene, covers exactly the
//!   pixels gcnrun's CPU run of RADV's ISA covers, with colours within the
//!   tolerance docs/draw.md derives ("The lavapipe oracle");
//! - `--diff`: the GPU backend draws every byte the CPU draws.
//!
//! The tools (glslangValidator, Mesa's RADV and lavapipe, llvm-mc-19) are
//! required under `CI=true`; elsewhere their absence prints `SKIPPED`.

mod common;

use gcnrun::launch::run::{prepare_manifest, run_diff, run_manifest, Outcome};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The scenes (`assets/radv/<scene>.scene.toml`).
const SCENES: &[&str] = &["tex", "varyings", "mrt", "trilinear", "immutable", "push"];
/// RADV's family names and the arch and LLVM processor of each.
const CHIPS: &[(&str, &str)] = &[
    ("vega10", "gfx900"),
    ("navi21", "gfx1030"),
    ("gfx1100", "gfx1100"),
];

fn radv_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/radv")
}

fn manifests() -> Vec<PathBuf> {
    let mut v = Vec::new();
    for s in SCENES {
        for (c, _) in CHIPS {
            v.push(radv_dir().join(format!("{s}.{c}.toml")));
        }
    }
    v
}

/// glslangValidator and Mesa's Vulkan drivers (RADV's null device, lavapipe):
/// `false` with `SKIPPED` printed when missing, a panic under CI=true.
fn tools(test: &str) -> bool {
    let glslang = Command::new("glslangValidator")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    let icd = |name: &str| Path::new("/usr/share/vulkan/icd.d").join(name).exists();
    if glslang && icd("radeon_icd.x86_64.json") && icd("lvp_icd.x86_64.json") {
        return true;
    }
    let msg = format!("{test}: glslangValidator or Mesa's Vulkan drivers missing (apt-get install glslang-tools mesa-vulkan-drivers libvulkan1)");
    if common::is_ci() {
        panic!("{msg} — CI=true requires them");
    }
    eprintln!("SKIPPED {msg}");
    false
}

fn radv_corpus(args: &[&str]) {
    let out = Command::new(env!("CARGO_BIN_EXE_radv-corpus"))
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "radv-corpus {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn scratch(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `radv-corpus` (assets/radv/regen.sh) reproduces every committed file.
#[test]
fn radv_corpus_regenerates_the_committed_files() {
    if !tools("radv_corpus_regenerates_the_committed_files") {
        return;
    }
    let out = scratch("radv-regen");
    let scenes: Vec<String> = SCENES
        .iter()
        .map(|s| {
            radv_dir()
                .join(format!("{s}.scene.toml"))
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    let mut args: Vec<&str> = scenes.iter().map(String::as_str).collect();
    args.extend(["--out-dir", out.to_str().unwrap()]);
    radv_corpus(&args);
    let mut n = 0;
    for s in SCENES {
        for (c, _) in CHIPS {
            for ext in ["bin", "s", "toml"] {
                let name = format!("{s}.{c}.{ext}");
                assert_eq!(
                    std::fs::read(radv_dir().join(&name)).unwrap(),
                    std::fs::read(out.join(&name)).unwrap(),
                    "{name} differs from what radv-corpus writes now"
                );
                n += 1;
            }
        }
    }
    assert_eq!(n, 3 * CHIPS.len() * SCENES.len());
}

/// Each `.s` holds, instruction by instruction, llvm-mc-19's disassembly of
/// the `.bin` words at the offsets it names.
#[test]
fn radv_listings_are_llvm_text() {
    let Some(mc) = common::llvm::LlvmMc::find("radv_listings_are_llvm_text") else {
        return;
    };
    for s in SCENES {
        for (c, mcpu) in CHIPS {
            let listing = std::fs::read_to_string(radv_dir().join(format!("{s}.{c}.s"))).unwrap();
            let bin = std::fs::read(radv_dir().join(format!("{s}.{c}.bin"))).unwrap();
            let mut texts = Vec::new();
            let mut groups = Vec::new();
            for l in listing.lines().filter(|l| !l.starts_with("//")) {
                let (text, comment) = l.split_once("//").unwrap();
                let (offset, words) = comment.trim().split_once(": ").unwrap();
                let at = usize::from_str_radix(offset, 16).unwrap();
                let len = 4 * words.split_whitespace().count();
                groups.push(bin[at..at + len].to_vec());
                texts.push(common::llvm::collapse_ws(text));
            }
            assert_eq!(
                groups.iter().map(Vec::len).sum::<usize>(),
                bin.len(),
                "{s}.{c}.s covers every word"
            );
            for (i, d) in mc.disassemble(mcpu, &groups).into_iter().enumerate() {
                match d {
                    common::llvm::Dis::Ok { text, .. } => {
                        assert_eq!(text, texts[i], "{s}.{c}.s instruction {i}")
                    }
                    common::llvm::Dis::Invalid => panic!("{s}.{c}: LLVM rejects instruction {i}"),
                }
            }
        }
    }
}

/// A target's texels, rows tightly packed, from a gcnrun run.
fn target_texels(out: &Outcome, k: usize) -> (Vec<u8>, u32, u32) {
    let i = out
        .launch
        .images
        .iter()
        .position(|im| im.name == format!("mrt{k}"))
        .unwrap();
    let d = &out.images[i].desc;
    let surf = gcnrun::texture::resource::surface_of(d).unwrap();
    let mut v = Vec::new();
    for y in 0..d.height {
        for x in 0..d.width {
            let o = surf.texel_offset(0, 0, x, y, 0).unwrap();
            v.extend_from_slice(out.memory.read(d.base_address + o, surf.bpe).unwrap());
        }
    }
    (v, d.width, surf.bpe)
}

/// lavapipe draws each scene from its GLSL; gcnrun's CPU run of RADV's ISA
/// for every chip covers the same pixels (a pixel is covered when any of
/// its bytes is nonzero: both start from zero) and gives the same colours:
/// integer targets exactly, UNORM8 targets within 1 (RADV exports them as f16 rounded toward zero
/// with `v_cvt_pkrtz_f16_f32`, lavapipe converts its f32 colour directly:
/// a value within one f16 step above a rounding midpoint goes down on the
/// hardware), 32-bit float targets within one f32 ulp (lavapipe turns a
/// UNORM8 texel k into k × (1/255), which can miss the correctly rounded
/// k/255 gcnrun returns by one ulp: 98/255 is 0x3ec4c4c5, lavapipe gives
/// 0x3ec4c4c6). A scene may declare a wider float bound in its `[oracle]`
/// table, with the Vulkan limit it follows from (trilinear.scene.toml).
#[test]
fn lavapipe_draws_what_gcnrun_draws() {
    if !tools("lavapipe_draws_what_gcnrun_draws") {
        return;
    }
    let out = scratch("radv-lavapipe");
    for s in SCENES {
        let scene = radv_dir().join(format!("{s}.scene.toml"));
        radv_corpus(&[
            "--render",
            scene.to_str().unwrap(),
            "--out-dir",
            out.to_str().unwrap(),
        ]);
        // A scene whose LOD comes from implicit derivatives declares the
        // bound Vulkan's mipmapPrecisionBits allows (its [oracle] table).
        let table: toml::Table = std::fs::read_to_string(&scene).unwrap().parse().unwrap();
        let float_tolerance = table
            .get("oracle")
            .and_then(|o| o.get("float_tolerance"))
            .and_then(|v| v.as_float())
            .map(|f| f as f32);
        for (c, _) in CHIPS {
            let name = format!("{s}.{c}");
            let run =
                run_manifest(&radv_dir().join(format!("{name}.toml")), None, None, None).unwrap();
            let targets = run
                .launch
                .images
                .iter()
                .filter(|i| i.name.starts_with("mrt"))
                .count();
            assert!(targets > 0);
            for k in 0..targets {
                let lp = std::fs::read(out.join(format!("{s}.lavapipe.mrt{k}.bin"))).unwrap();
                let (ours, width, bpe) = target_texels(&run, k);
                assert_eq!(lp.len(), ours.len(), "{name} mrt{k}");
                let float = bpe == 16;
                // Integer targets (NUM_FORMAT UINT) hold exact results.
                let integer = run
                    .launch
                    .images
                    .iter()
                    .find(|i| i.name == format!("mrt{k}"))
                    .is_some_and(|i| i.num_format == 4);
                let mut covered = 0;
                for (p, (a, b)) in ours
                    .chunks(bpe as usize)
                    .zip(lp.chunks(bpe as usize))
                    .enumerate()
                {
                    let (x, y) = (p as u32 % width, p as u32 / width);
                    let on = |t: &[u8]| t.iter().any(|&v| v != 0);
                    assert_eq!(on(a), on(b), "{name} mrt{k}: coverage of pixel ({x}, {y})");
                    covered += usize::from(on(a));
                    if integer {
                        assert_eq!(a, b, "{name} mrt{k} pixel ({x}, {y})");
                    } else if float {
                        for (ca, cb) in a.chunks(4).zip(b.chunks(4)) {
                            let bits = |c: &[u8]| u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
                            let (fa, fb) = (f32::from_bits(bits(ca)), f32::from_bits(bits(cb)));
                            let ok = bits(ca).abs_diff(bits(cb)) <= 1
                                || float_tolerance.is_some_and(|t| (fa - fb).abs() <= t);
                            assert!(
                                ok,
                                "{name} mrt{k} pixel ({x}, {y}): gcnrun {fa} (of {a:?}), lavapipe {fb} (of {b:?})"
                            );
                        }
                    } else {
                        for (ca, cb) in a.iter().zip(b) {
                            assert!(
                                ca.abs_diff(*cb) <= 1,
                                "{name} mrt{k} pixel ({x}, {y}): gcnrun {a:?}, lavapipe {b:?}"
                            );
                        }
                    }
                }
                assert!(covered > 100, "{name} mrt{k} covers {covered} pixels");
            }
        }
    }
}

/// `--diff` on every RADV draw: the GPU backend's registers and memory
/// (export slots and render targets included) equal the CPU's.
#[test]
fn radv_draws_are_bit_identical_on_cpu_and_gpu() {
    let Some(g) = common::gpu::gpu("radv_draws_are_bit_identical_on_cpu_and_gpu") else {
        return;
    };
    for m in manifests() {
        let p = prepare_manifest(&m, None, None, None).unwrap();
        let d = run_diff(p, g).unwrap_or_else(|e| panic!("{}: {e}", m.display()));
        assert_eq!(
            d.report.count,
            0,
            "{}: {:?}",
            m.display(),
            d.report.mismatches
        );
    }
}

/// Bad `[draw]` fields are one-line errors naming the field, exit 2, before
/// anything runs: each case replaces one line of a committed draw manifest.
#[test]
fn bad_draws_are_refused_in_one_line() {
    let good = std::fs::read_to_string(radv_dir().join("varyings.navi21.toml")).unwrap();
    let dir = scratch("radv-bad");
    std::fs::copy(
        radv_dir().join("varyings.navi21.bin"),
        dir.join("varyings.navi21.bin"),
    )
    .unwrap();
    let cases: &[(&str, &str, &str)] = &[
        ("width = 32", "width = 0", "draw.width"),
        ("width = 32", "width = 5000", "draw.width"),
        ("prim_mask = \"s2\"", "prim_mask = \"v2\"", "draw.prim_mask"),
        ("inputs = [", "inputs = [\"pos_w_float\", ", "draw.inputs"),
        ("inputs = [", "inputs = [\"bogus\", ", "draw.inputs"),
        (
            "wave_size = 64",
            "wave_size = 64\nwaves = 4",
            "leave `waves` out",
        ),
        ("height = 24", "height = 24\ncolour = 1", "draw.colour"),
        (
            "export = \"fp16_abgr\"",
            "export = \"fp8\"",
            "draw.targets[0].export",
        ),
        (
            "format = \"rgba8_unorm\"",
            "format = \"bgra8\"",
            "draw.targets[0].format",
        ),
        (
            "[[-1.0, -1.0, 0.0, 1.0]",
            "[[-1.0, -1.0, 0.0, 0.0]",
            "draw.positions[0]",
        ),
        (
            "positions = [[",
            "positions = [[0.0, 0.0, 0.0, 1.0], [",
            "draw.positions",
        ),
    ];
    for (from, to, field) in cases {
        assert!(good.contains(from), "{from}");
        let m = dir.join("bad.toml");
        std::fs::write(&m, good.replacen(from, to, 1)).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_gcn-run"))
            .arg(&m)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{to}: {stderr}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{to}: {stderr}");
        assert!(stderr.contains(field), "{to}: {stderr}");
    }
    // --draw takes draws only; with one it runs as without.
    let plain_manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/image_rw.toml");
    let out = Command::new(env!("CARGO_BIN_EXE_gcn-run"))
        .args(["--draw", plain_manifest.to_str().unwrap()])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("--draw: not a draw"), "{stderr}");
    let out = Command::new(env!("CARGO_BIN_EXE_gcn-run"))
        .arg("--draw")
        .arg(radv_dir().join("varyings.navi21.toml"))
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("drew 2 triangle(s)"));
    // A draw's `exp` outside a draw: the same code without [draw] refuses it
    // on both back ends by name.
    let plain = "arch = \"gfx1030\"\ncode = \"varyings.navi21.bin\"\nwave_size = 64\n";
    let m = dir.join("plain.toml");
    std::fs::write(&m, plain).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_gcn-run"))
        .arg(&m)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("runs only in a draw launch"), "{stderr}");
}
