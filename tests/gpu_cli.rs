//! The GPU modes of the command line: `--gpu`, `--diff`, `--emit-wgsl`,
//! `--list-adapters`, `bench`, and their exit codes (SPEC.md: 1 for
//! differences, 2 for bad input, 3 for no usable adapter).

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn asset(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("assets")
        .join(name)
}

fn gcn_run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gcn-run"))
        .args(args)
        .output()
        .unwrap()
}

/// True when an adapter exists; under `CI=true` its absence fails the test.
fn have_adapter(test: &str) -> bool {
    let out = gcn_run(&["--list-adapters"]);
    if out.status.success() {
        return true;
    }
    let why = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        std::env::var("CI").map_or(true, |v| v != "true"),
        "{test}: no GPU adapter under CI=true: {why}"
    );
    println!("SKIPPED {test}: {why}");
    false
}

#[test]
fn emit_wgsl_prints_a_module_without_a_gpu() {
    let out = gcn_run(&["--emit-wgsl", asset("image_rw.toml").to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("@compute @workgroup_size(64)"));
    assert!(
        text.contains("fn load_texel("),
        "the format library is included"
    );
    assert!(
        text.contains("// 0x0000: image_load"),
        "instructions are commented"
    );
    let spv = gcn_run(&[
        "--emit-wgsl",
        "--target",
        "spirv",
        asset("image_rw.toml").to_str().unwrap(),
    ]);
    assert!(spv.status.success());
    assert_eq!(&spv.stdout[..4], &0x0723_0203u32.to_le_bytes());
}

/// FORCE_DEGAMMA on a BC6H image: the CPU decodes sRGB of half floats in f64,
/// which WGSL cannot mirror, so the translator refuses it (docs/gpu.md).
#[test]
fn untranslatable_programs_exit_2_naming_the_instruction() {
    let dir = std::env::temp_dir().join(format!("gcnrun-untranslatable-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let manifest = dir.join("bc6_degamma.toml");
    std::fs::write(
        &manifest,
        format!(
            "arch = \"gfx900\"\ncode = {:?}\n[sgpr]\n\"s[4:11]\" = {{ image = \"hdr\" }}\n\
             \"s[12:15]\" = {{ sampler = \"degamma\" }}\n[[image]]\nname = \"hdr\"\ntype = \"2d\"\n\
             width = 8\nheight = 4\nformat = \"bc6\"\nnum_format = \"ufloat\"\n[[sampler]]\n\
             name = \"degamma\"\nforce_degamma = true\n",
            asset("sample_bcn.bin").to_str().unwrap()
        ),
    )
    .unwrap();
    let out = gcn_run(&["--emit-wgsl", manifest.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("sample_bcn.bin") && err.contains("offset 0x0") && err.contains("bc6"),
        "{err}"
    );
}

#[test]
fn an_unknown_adapter_exits_3_with_the_adapters_found() {
    let out = gcn_run(&[
        "--gpu",
        "--adapter",
        "no-such-adapter-xyz",
        asset("image_rw.toml").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(3));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("no-such-adapter-xyz"), "{err}");
}

#[test]
fn gpu_and_diff_run_a_manifest() {
    if !have_adapter("gpu_and_diff_run_a_manifest") {
        return;
    }
    let m = asset("image_rw.toml");
    let out = gcn_run(&["--gpu", m.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("expect: all"));
    let out = gcn_run(&["--diff", "--json", m.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["backend"], "diff");
    assert_eq!(doc["diff"]["count"], 0);
}

#[test]
fn gpu_writes_the_default_picture() {
    if !have_adapter("gpu_writes_the_default_picture") {
        return;
    }
    let dir = std::env::temp_dir().join(format!("gcnrun-gpu-out-{}", std::process::id()));
    let out = gcn_run(&[
        "--gpu",
        asset("gradient_quad.bin").to_str().unwrap(),
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let cpu_dir = dir.join("cpu");
    let out = gcn_run(&[
        asset("gradient_quad.bin").to_str().unwrap(),
        "--out",
        cpu_dir.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    assert_eq!(
        std::fs::read(dir.join("output.png")).unwrap(),
        std::fs::read(cpu_dir.join("output.png")).unwrap(),
        "GPU and CPU pictures are identical"
    );
}

/// `bench --speculate on` runs a whole program that writes memory through its
/// speculative module on any adapter and says the result was kept (the clang
/// image kernel's eight workgroups touch disjoint memory); `off` runs the
/// serial dispatches and reports nothing.
#[test]
fn bench_speculation_can_be_forced_either_way() {
    if !have_adapter("bench_speculation_can_be_forced_either_way") {
        return;
    }
    let run = |mode: &str| {
        let doc = common::bench_json(&[
            "--workload",
            "clang_image_sample",
            "--lanes",
            "512",
            "--seconds",
            "0.05",
            "--speculate",
            mode,
        ]);
        doc["workloads"][0].clone()
    };
    let on = run("on");
    assert_eq!(on["gpu_speculation"], "kept", "{on}");
    assert!(on["gpu_lane_ops_per_s"].as_f64().unwrap() > 0.0);
    let off = run("off");
    assert!(off.get("gpu_speculation").is_none(), "{off}");
    let bad = gcn_run(&["bench", "--speculate", "maybe"]);
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn bench_reports_both_backends_as_json() {
    if !have_adapter("bench_reports_both_backends_as_json") {
        return;
    }
    let doc = common::bench_json(&[
        "--workload",
        "load_store_copy",
        "--lanes",
        "256",
        "--seconds",
        "0.05",
    ]);
    let w = &doc["workloads"][0];
    assert_eq!(w["name"], "load_store_copy");
    assert_eq!(w["lanes"], 256);
    assert!(w["cpu_lane_ops_per_s"].as_f64().unwrap() > 0.0);
    assert!(w["gpu_lane_ops_per_s"].as_f64().unwrap() > 0.0);
    // 4 waves, each its 106 SGPRs and the rows of the six VGPRs the copy
    // uses (v0-v5: a wave stores the rows it writes; no LDS, as the copy has
    // no LDS operation), and two 256×1 RGBA8 images.
    let bytes = w["launch_bytes"].as_u64().unwrap();
    assert_eq!(bytes, 4 * (106 * 4 + 6 * 64 * 4) + 2 * 256 * 4);
    assert!(w["peak_rss_bytes"].as_u64().unwrap() > 0);
    assert_eq!(doc["sweep"], false);
    let bad = gcn_run(&["bench", "--workload", "nope"]);
    assert_eq!(bad.status.code(), Some(2));
    // A sweep chooses its own sizes.
    let bad = gcn_run(&["bench", "--sweep", "--lanes", "64"]);
    assert_eq!(bad.status.code(), Some(2));
    // Progress goes to a terminal only: with stderr a pipe, the text run
    // writes its table to stdout and no progress line to stderr.
    let out = gcn_run(&[
        "bench",
        "--workload",
        "load_store_copy",
        "--lanes",
        "256",
        "--seconds",
        "0.05",
    ]);
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !err.contains("load_store_copy") && !err.contains('\r'),
        "{err}"
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("load_store_copy"));
    // The ALU workload with its float calls in place and shared (its module
    // shares at the default; docs/gpu.md, "Shared ALU sites"): both run.
    for share in ["1g", "64k"] {
        let doc = common::bench_json(&[
            "--workload",
            "alu_mix",
            "--lanes",
            "64",
            "--seconds",
            "0.01",
            "--share-alu-above",
            share,
        ]);
        let w = &doc["workloads"][0];
        assert!(
            w["gpu_lane_ops_per_s"].as_f64().unwrap() > 0.0,
            "{share}: {w}"
        );
    }
}

/// A float operation under a round mode other than nearest even stops the
/// run naming the same instruction on both backends. The GPU checks the
/// round mode once per block and MODE field, again after each MODE write
/// (`Whole::round_check`): here an f32 add passes its check before
/// `s_setreg` selects round-up for f32, and the multiply after it faults
/// (not the one after that); and with round-up for f16/f64 only, an f32 add
/// runs and the first f64 add faults.
#[test]
fn a_round_mode_fault_names_the_same_instruction_on_both_backends() {
    let test = "a_round_mode_fault_names_the_same_instruction_on_both_backends";
    // v_add_f32 v2, v0, v0; s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 2), 1;
    // v_mul_f32 v3, v0, v0 (0xc); v_mul_f32 v4, v0, v0; s_endpgm.
    let f32_after_setreg =
        "00 01 04 02 01 08 00 ba 01 00 00 00 00 01 06 0a 00 01 08 0a 00 00 81 bf";
    // s_setreg_imm32_b32 hwreg(HW_REG_MODE, 2, 2), 1; v_add_f32 v2, v0, v0;
    // v_add_u32 v5, v0, v0; v_add_f64 v[6:7] (0x10); v_add_f64 v[8:9]; s_endpgm.
    let f64_field = "81 08 00 ba 01 00 00 00 00 01 04 02 00 01 0a 68 06 00 80 d2 00 01 02 00 08 00 80 d2 00 01 02 00 00 00 81 bf";
    let cases = [
        (f32_after_setreg, "offset 0xc: ", "for f32"),
        (f64_field, "offset 0x10: ", "for f64"),
    ];
    let gpu = have_adapter(test);
    for (hex, at, ty) in cases {
        let modes: &[&str] = if gpu { &["--cpu", "--gpu"] } else { &["--cpu"] };
        for mode in modes {
            let out = gcn_run(&[mode, "--arch", "gfx900", "--hex", hex, "--waves", "1"]);
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{mode} {hex}: {err}");
            assert!(err.contains(at) && err.contains(ty), "{mode} {hex}: {err}");
            assert!(err.contains("round"), "{mode} {hex}: {err}");
        }
    }
}
