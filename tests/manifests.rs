//! The manifests and assembly kernels in `assets/`: every kernel's `.bin` is
//! llvm-mc-19's assembly of its `.s`, every manifest runs with its `[expect]`
//! holding, and broken manifests fail the way SPEC.md says.

mod common;

use common::llvm::LlvmMc;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Every assembly asset and the processor it is written for (as in assets/regen.sh).
const KERNELS: &[(&str, &str)] = &[
    ("sample_quad", "bonaire"),
    ("interp_p1p2", "gfx900"),
    ("image_rw", "gfx900"),
    ("gradient_quad", "tahiti"),
    ("atomics", "gfx900"),
    ("resinfo", "gfx900"),
    ("format_sweep", "gfx900"),
    ("format_load", "gfx900"),
    ("atomics_all", "gfx900"),
    ("atomics_float", "bonaire"),
    ("atomics64", "bonaire"),
    ("bench_copy", "gfx900"),
    ("bench_atomic", "gfx900"),
    ("bench_interp", "gfx900"),
    ("bench_sample", "gfx900"),
    ("bench_trilinear", "gfx900"),
    ("bench_gather4", "gfx900"),
    ("bench_alu", "gfx900"),
    ("image_ext", "gfx900"),
    ("image_d16_gfx8", "tonga"),
    ("image_gfx10", "gfx1030"),
    ("image_gfx11", "gfx1100"),
    ("interp_vop3", "gfx900"),
    ("interp_gfx11", "gfx1100"),
    ("image_bcn", "gfx900"),
    ("sample_bcn", "gfx900"),
    ("sample_filter", "gfx900"),
    ("sample_address", "gfx900"),
    ("sample_lod", "gfx900"),
    ("sample_compare", "gfx900"),
    ("gather4", "gfx900"),
    ("gather4_gfx8", "gfx803"),
    ("sample_cube", "gfx900"),
    ("sample_3d_array", "gfx900"),
    ("sample_gfx10", "gfx1010"),
    ("sample_gfx11", "gfx1100"),
    ("sample_d16", "gfx900"),
    ("sample_a16", "gfx900"),
    ("sample_g16", "gfx1030"),
    ("sample_degamma", "gfx900"),
    ("degamma_sweep", "gfx900"),
    ("buffer_ranges", "gfx900"),
    ("buffer_ranges_gfx6", "tahiti"),
    ("carry_gfx6", "tahiti"),
    ("dpp", "gfx900"),
    ("dpp_gfx10", "gfx1030"),
    ("ds_lanes", "gfx900"),
    ("lane_masks", "gfx900"),
    ("packed", "gfx900"),
    ("packed_gfx10", "gfx1030"),
    ("dx9_mul", "gfx900"),
    ("dx9_mul_gfx10", "gfx1030"),
    ("typed_buffer", "gfx900"),
    ("typed_buffer_gfx10", "gfx1030"),
    ("f64", "gfx900"),
    ("draw_interp", "gfx900"),
    ("draw_f16", "gfx900"),
    ("bvh_box", "gfx1030"),
    ("bvh_triangle", "gfx1030"),
    ("oracle_sample_l", "gfx900"),
    ("oracle_sample_d", "gfx900"),
    ("oracle_sample_b", "gfx900"),
    ("oracle_gather4", "gfx900"),
    ("oracle_gather4_c", "gfx900"),
    ("oracle_sample_c", "gfx900"),
];

fn assets() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("assets")
}

fn files_with(ext: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(assets())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    v.sort();
    v
}

fn gcn_run(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_gcn-run"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn every_kernel_is_registered_and_assembles_to_its_bin() {
    let sources: Vec<String> = files_with("s")
        .iter()
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    let mut known: Vec<String> = KERNELS.iter().map(|k| k.0.to_string()).collect();
    known.sort();
    assert_eq!(
        sources, known,
        "register new assets/*.s in KERNELS and assets/regen.sh"
    );
    let Some(mc) = LlvmMc::find("every_kernel_is_registered_and_assembles_to_its_bin") else {
        return;
    };
    for (name, mcpu) in KERNELS {
        let src = std::fs::read_to_string(assets().join(format!("{name}.s"))).unwrap();
        let lines: Vec<String> = src
            .lines()
            .map(|l| l.split("//").next().unwrap().trim().to_string())
            .filter(|l| !l.is_empty())
            .collect();
        let bytes: Vec<u8> = mc
            .assemble(mcpu, &lines)
            .into_iter()
            .flat_map(|r| r.unwrap_or_else(|e| panic!("{name}.s: {e}")))
            .collect();
        let bin = std::fs::read(assets().join(format!("{name}.bin"))).unwrap();
        assert_eq!(
            bytes, bin,
            "assets/{name}.bin is stale: run assets/regen.sh"
        );
    }
}

#[test]
fn every_manifest_runs_and_its_expectations_hold() {
    let manifests = files_with("toml");
    assert!(!manifests.is_empty());
    for m in manifests {
        let out = gcn_run(&[m.to_str().unwrap(), "--json"]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{}: {stderr}", m.display());
        let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(doc["backend"], "cpu");
        assert_eq!(doc["mismatches"].as_array().map(Vec::len), Some(0));
    }
}

/// Writes a variant of interp_p1p2.toml next to the original (so `code` resolves).
fn variant(tag: &str, from: &str, to: &str) -> PathBuf {
    let text = std::fs::read_to_string(assets().join("interp_p1p2.toml")).unwrap();
    assert!(text.contains(from), "{from}");
    let dir = std::env::temp_dir().join(format!("gcnrun-manifest-{}-{tag}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(
        assets().join("interp_p1p2.bin"),
        dir.join("interp_p1p2.bin"),
    )
    .unwrap();
    let p = dir.join("m.toml");
    std::fs::write(&p, text.replacen(from, to, 1)).unwrap();
    p
}

/// A sampler asset run with its manifest edited (`from` → `to`), written beside
/// a copy of its kernel.
fn sample_variant(asset: &str, from: &str, to: &str) -> std::process::Output {
    let text = std::fs::read_to_string(assets().join(format!("{asset}.toml"))).unwrap();
    assert!(text.contains(from), "{from}");
    let dir = std::env::temp_dir().join(format!("gcnrun-sample-{}-{asset}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bin = format!("{asset}.bin");
    std::fs::copy(assets().join(&bin), dir.join(&bin)).unwrap();
    let p = dir.join("m.toml");
    std::fs::write(&p, text.replacen(from, to, 1)).unwrap();
    gcn_run(&[p.to_str().unwrap()])
}

/// Sampler inputs gcnrun does not model are refused with one line naming what,
/// exit 2: an S# whose border colour comes from the driver's table (type 3) with
/// a border address mode, and a manifest sampler field out of range.
#[test]
fn unmodelled_sampler_state_exits_2_naming_it() {
    // CLAMP_X/Y/Z = 6 (clamp_border): 6 | 6 << 3 | 6 << 6 = 0x1b6; MAX_LOD 0xfff at
    // bits 55:44 (word 1 bits 23:12); BORDER_COLOR_TYPE = 3 at bits 127:126.
    let out = sample_variant(
        "sample_address",
        r#""s[36:39]" = { sampler = "point_clamp_border" }"#,
        r#""s[36:39]" = [0x1b6, 0xfff000, 0, 0xc0000000]"#,
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("border_color_type"), "{stderr}");
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
    let out = sample_variant("sample_lod", "max_aniso = 4", "max_aniso = 3");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("max_aniso"), "{stderr}");
}

#[test]
fn a_failed_expectation_exits_1() {
    let p = variant("expect", "f32 = [1.75]", "f32 = [1.5]");
    let out = gcn_run(&[p.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("MISMATCH v2 wave 0 lane 2"), "{stdout}");
}

#[test]
fn bad_manifests_exit_2_with_one_line_naming_the_field() {
    for (tag, from, to, field) in [
        ("arch", "arch = \"gfx900\"", "arch = \"gfx42\"", "arch"),
        (
            "vgpr",
            "v0 = { f32 = \"0.25\" }",
            "v0 = { f32 = \"0.25 +\" }",
            "vgpr.\"v0\"",
        ),
        (
            "code",
            "code = \"interp_p1p2.bin\"",
            "code = \"missing.bin\"",
            "missing.bin",
        ),
        ("lds", "\"0x98\"", "\"0x10000\"", "lds.\"0x10000\""),
        // A carriage return alone at a line start: the toml crate's message
        // is empty there, the line says what is wrong.
        (
            "cr",
            "[vgpr]",
            "\r[vgpr]",
            "field `toml`: a carriage return not followed by a newline",
        ),
    ] {
        let p = variant(tag, from, to);
        let out = gcn_run(&[p.to_str().unwrap()]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{tag}: {stderr}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{tag}: {stderr}");
        assert!(stderr.contains(field), "{tag}: {stderr}");
    }
}

/// The README's first command: the bundled kernel in the default environment
/// writes a picture. Pixel (x, y) of `input` holds bytes (x·255/63, y·255/63, …)
/// (integer division, the gradient rule); the kernel loads R and G as UNORM
/// (c/255) and stores them back as UNORM (round(c/255 · 255) = c) with B = A =
/// 1.0 → 255. So output pixel (x, y) = (x·255/63, y·255/63, 255, 255).
#[test]
fn bundled_kernel_writes_the_expected_picture() {
    let dir = std::env::temp_dir().join(format!("gcnrun-out-{}", std::process::id()));
    let bin = assets().join("gradient_quad.bin");
    let out = gcn_run(&[bin.to_str().unwrap(), "--out", dir.to_str().unwrap()]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let img = image::open(dir.join("output.png")).unwrap().to_rgba8();
    assert_eq!(img.dimensions(), (64, 64));
    for (x, y, p) in img.enumerate_pixels() {
        let want = [(x * 255 / 63) as u8, (y * 255 / 63) as u8, 255, 255];
        assert_eq!(p.0, want, "pixel ({x}, {y})");
    }
    // --json names the images with their digests.
    let out = gcn_run(&[bin.to_str().unwrap(), "--json"]);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["waves"], 64);
    assert_eq!(
        doc["images"]["output"]["sha256"].as_str().map(str::len),
        Some(64)
    );
}

/// Image memory is capped: `--mem-cap` on the command line, `mem_cap` in a
/// manifest (which can only lower it). image_rw.toml places two 4×4 images of
/// 256 bytes each (RGBA8 at a 16-texel pitch: 16 × 4 × 4 = 256; RG16 likewise),
/// so the second brings the total to 512 bytes.
#[test]
fn image_memory_cap_names_the_image_and_exits_2() {
    let rw = assets().join("image_rw.toml");
    let one_line = |out: &std::process::Output| {
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
        stderr
    };
    let e = one_line(&gcn_run(&[rw.to_str().unwrap(), "--mem-cap", "300"]));
    assert!(e.contains("image[1].width") && e.contains("`rg16`"), "{e}");
    assert!(e.contains("512 bytes") && e.contains("300-byte cap"), "{e}");
    // Exactly enough is enough; suffixes are binary.
    let ok = gcn_run(&[rw.to_str().unwrap(), "--mem-cap", "512"]);
    assert_eq!(ok.status.code(), Some(0));
    let e = one_line(&gcn_run(&[rw.to_str().unwrap(), "--mem-cap", "0"]));
    assert!(e.contains("--mem-cap"), "{e}");
    // The bundled kernel's default environment: two 64×64 RGBA8 images of
    // 16 KiB each.
    let bin = assets().join("gradient_quad.bin");
    let e = one_line(&gcn_run(&[bin.to_str().unwrap(), "--mem-cap", "16k"]));
    assert!(
        e.contains("`output`") && e.contains("16384-byte cap"),
        "{e}"
    );
    // A manifest's mem_cap lowers the cap but cannot raise it.
    let dir = std::env::temp_dir().join(format!("gcnrun-memcap-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(assets().join("image_rw.bin"), dir.join("image_rw.bin")).unwrap();
    let text = std::fs::read_to_string(&rw).unwrap();
    let capped = dir.join("capped.toml");
    std::fs::write(&capped, format!("mem_cap = 256\n{text}")).unwrap();
    let e = one_line(&gcn_run(&[capped.to_str().unwrap()]));
    assert!(e.contains("`rg16`") && e.contains("mem_cap"), "{e}");
    let generous = dir.join("generous.toml");
    std::fs::write(&generous, format!("mem_cap = 1000000\n{text}")).unwrap();
    let e = one_line(&gcn_run(&[generous.to_str().unwrap(), "--mem-cap", "300"]));
    assert!(e.contains("300-byte cap (--mem-cap)"), "{e}");
}

/// `init = { hex = … }` is exactly level 0 (every slice) or the whole mip
/// chain; any other length is one line naming the field and both sizes, exit
/// 2 (a 2-byte string for 4-byte texels used to be accepted, the rest zero).
/// A 2×2 RGBA8 image with its full chain: level 0 is 16 bytes, the chain 20.
#[test]
fn image_hex_init_is_level_0_or_the_whole_chain() {
    let dir = std::env::temp_dir().join(format!("gcnrun-hexinit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let run = |bytes: usize, layers: u32| {
        let hex = "ab".repeat(bytes);
        let (ty, extra) = if layers > 1 {
            ("2d_array", format!("layers = {layers}\n"))
        } else {
            ("2d", String::new())
        };
        let m = dir.join(format!("m{bytes}_{layers}.toml"));
        std::fs::write(
            &m,
            format!("arch = \"gfx900\"\nhex = \"000081bf\"\n[[image]]\nname = \"img\"\ntype = \"{ty}\"\nwidth = 2\nheight = 2\n{extra}mips = \"full\"\nformat = \"8_8_8_8\"\nnum_format = \"unorm\"\ninit = {{ hex = \"{hex}\" }}\n"),
        )
        .unwrap();
        gcn_run(&[m.to_str().unwrap()])
    };
    for ok in [16, 20] {
        let out = run(ok, 1);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{ok}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    // Three layers: level 0 is 48 bytes, the chain 60.
    for ok in [48, 60] {
        assert_eq!(run(ok, 3).status.code(), Some(0), "{ok} bytes, 3 layers");
    }
    for (bad, layers, sizes) in [
        (2, 1, ["16 bytes", "20 bytes"]),
        (18, 1, ["16 bytes", "20 bytes"]),
        (24, 1, ["16 bytes", "20 bytes"]),
        (16, 3, ["48 bytes", "60 bytes"]),
    ] {
        let out = run(bad, layers);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{bad}: {stderr}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
        assert!(stderr.contains("field `image[0].init.hex`"), "{stderr}");
        assert!(stderr.contains(&format!("{bad} bytes of hex")), "{stderr}");
        for s in sizes {
            assert!(stderr.contains(s), "{stderr} lacks {s}");
        }
    }
}

/// Image instructions the interpreter cannot execute as written stop the run
/// with one line naming the instruction's offset and why, exit 2: a store into
/// a block-compressed image, a gfx10 DIM that does not address the T#'s type,
/// and a `_mip` access to an MSAA image.
#[test]
fn impossible_image_accesses_exit_2_naming_the_reason() {
    let Some(mc) = LlvmMc::find("impossible_image_accesses_exit_2_naming_the_reason") else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("gcnrun-imgerr-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (tag, mcpu, line, image, reason) in [
        (
            "bc-store",
            "gfx900",
            "image_store v[0:3], v[4:5], s[4:11] dmask:0xf unorm",
            "type = \"2d\"\nformat = \"bc1\"\nnum_format = \"unorm\"",
            "read-only",
        ),
        (
            "dim",
            "gfx1030",
            "image_load v0, v[4:6], s[4:11] dmask:0x1 dim:SQ_RSRC_IMG_3D unorm",
            "type = \"2d\"\nformat = \"32\"\nnum_format = \"uint\"",
            "dim:SQ_RSRC_IMG_3D does not address the T#'s 2D resource (TYPE 9)",
        ),
        (
            "msaa-mip",
            "gfx900",
            "image_load_mip v0, v[4:7], s[4:11] dmask:0x1 unorm",
            "type = \"2d_msaa\"\nsamples = 2\nformat = \"32\"\nnum_format = \"uint\"",
            "MSAA",
        ),
    ] {
        let bytes = mc.assemble(mcpu, &[line.to_string(), "s_endpgm".into()]);
        let hex: String = bytes
            .into_iter()
            .flat_map(|r| r.unwrap())
            .map(|b| format!("{b:02x}"))
            .collect();
        let text = format!(
            "arch = \"{mcpu}\"\nhex = \"{hex}\"\n[sgpr]\n\"s[4:11]\" = {{ image = \"i\" }}\n\
             [[image]]\nname = \"i\"\nwidth = 4\nheight = 4\n{image}\n"
        );
        let p = dir.join(format!("{tag}.toml"));
        std::fs::write(&p, text).unwrap();
        let out = gcn_run(&[p.to_str().unwrap()]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{tag}: {stderr}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{tag}: {stderr}");
        assert!(
            stderr.contains(reason) && stderr.contains("0x0"),
            "{tag}: {stderr}"
        );
    }
}
