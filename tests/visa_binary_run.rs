//! Binary vISA objects run exactly as their text: every repaired object
//! `assets/visa/bin/NAME.isa` (not Intel's damaged `NAME.genxir12504.isa`,
//! docs/visa.md "Binary objects") run with a launch manifest must leave the
//! same final state as `NAME.visaasm` under the same manifest, bit for bit
//! (every register of every thread, every byte of memory), on the CPU and, for
//! one, on the GPU through `--diff`. An object the executor refuses must be
//! refused for the same instruction in both forms.

mod common;

use gcnrun::launch::run::{prepare_visa, run_cpu, run_diff, Outcome, Prepared};
use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_gcn-run");

/// Objects that do not run, with the instruction their refusal names: they
/// carry instructions outside the executed subset on purpose (docs/visa.md).
const REFUSED: &[(&str, &str)] = &[("sampler_ops", "`mad` is not supported")];

fn bin_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/visa/bin")
}

/// The repaired objects, by stem.
fn objects() -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(bin_dir())
        .unwrap()
        .filter_map(|e| {
            let name = e.unwrap().file_name().into_string().ok()?;
            let stem = name.strip_suffix(".isa")?;
            (!stem.contains('.')).then(|| stem.to_string())
        })
        .collect();
    v.sort();
    v
}

fn prepare(manifest: &Path, code: &Path) -> Prepared {
    prepare_visa(manifest, code, None)
        .unwrap_or_else(|e| panic!("{} with {}: {e}", code.display(), manifest.display()))
}

fn run(manifest: &Path, code: &Path) -> Outcome {
    run_cpu(prepare(manifest, code)).unwrap_or_else(|e| panic!("{}: {e}", code.display()))
}

/// Differences between two final states, through the diff the CLI reports.
fn differences(a: &Outcome, b: &Outcome) -> usize {
    gcnrun::diff::compare((&a.waves, &a.memory), (&b.waves, &b.memory), &[], None).count
}

#[test]
fn every_repaired_object_runs_as_its_text() {
    let all = objects();
    assert!(all.len() >= 2, "{all:?}");
    let mut ran = 0;
    for stem in &all {
        let dir = bin_dir();
        let text = dir.join(format!("{stem}.visaasm"));
        let object = dir.join(format!("{stem}.isa"));
        let manifest = dir.join(format!("{stem}.toml"));
        if let Some((_, why)) = REFUSED.iter().find(|(s, _)| s == stem) {
            assert!(
                !manifest.exists(),
                "{stem} is listed as refused but has a manifest"
            );
            // Any manifest reaches the refusal: it comes from the program.
            let m = dir.join("sample3d.toml");
            for code in [&text, &object] {
                let out = Command::new(BIN)
                    .arg(code)
                    .arg("--manifest")
                    .arg(&m)
                    .output()
                    .unwrap();
                let err = String::from_utf8_lossy(&out.stderr);
                assert_eq!(out.status.code(), Some(2), "{}: {err}", code.display());
                assert_eq!(err.lines().count(), 1, "{err}");
                assert!(err.contains(why), "{}: {err}", code.display());
            }
            continue;
        }
        assert!(manifest.exists(), "{stem}.isa has no {stem}.toml");
        let from_text = run(&manifest, &text);
        let from_object = run(&manifest, &object);
        assert!(
            from_text.mismatches.is_empty(),
            "{stem}: {:?}",
            from_text.mismatches
        );
        assert!(
            !from_text.visa.as_ref().unwrap().expect.is_empty(),
            "{stem}.toml expects nothing"
        );
        assert_eq!(differences(&from_text, &from_object), 0, "{stem}");
        assert_eq!(from_text.waves, from_object.waves, "{stem}");
        assert_eq!(from_text.memory, from_object.memory, "{stem}");
        ran += 1;
    }
    assert!(ran >= 1);
}

/// The comparison can fail: the object run with one input changed differs.
#[test]
fn a_changed_input_is_a_difference() {
    let dir = bin_dir();
    let manifest = dir.join("sample3d.toml");
    let changed = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("visa_binary_run");
    std::fs::create_dir_all(&changed).unwrap();
    let text = std::fs::read_to_string(&manifest)
        .unwrap()
        .replace("(lane / 4 + 0.5) / 4", "(lane / 4 + 1.5) / 4");
    let m2 = changed.join("sample3d.toml");
    std::fs::write(&m2, text).unwrap();
    std::fs::copy(
        dir.join("sample3d.visaasm"),
        changed.join("sample3d.visaasm"),
    )
    .unwrap();
    let a = run(&manifest, &dir.join("sample3d.isa"));
    let b = run(&m2, &dir.join("sample3d.isa"));
    assert!(differences(&a, &b) > 0);
    assert!(
        !b.mismatches.is_empty(),
        "the changed run misses its expectations"
    );
}

/// The CLI runs the object as the text: the same `--json` document (the
/// variables dumped by name, buffers, images) apart from timing.
#[test]
fn the_cli_runs_an_object_like_its_text() {
    let dir = bin_dir();
    let doc = |code: &str| -> serde_json::Value {
        let out = Command::new(BIN)
            .arg(dir.join(code))
            .arg("--manifest")
            .arg(dir.join("sample3d.toml"))
            .args(["--json", "--dump", "D,E,L,R"])
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{code}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let mut d: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        d.as_object_mut().unwrap().remove("timing");
        d
    };
    let text = doc("sample3d.visaasm");
    assert_eq!(text["variables"]["E"]["threads"][0][2], 23.0);
    assert_eq!(text, doc("sample3d.isa"));
}

/// `--diff` of the binary object: the GPU gives the CPU's bits.
#[test]
fn an_object_runs_on_the_gpu_as_on_the_cpu() {
    let test = "an_object_runs_on_the_gpu_as_on_the_cpu";
    let Some(g) = common::gpu::gpu(test) else {
        return;
    };
    let dir = bin_dir();
    let p = prepare(&dir.join("sample3d.toml"), &dir.join("sample3d.isa"));
    let d = run_diff(p, g).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(d.report.count, 0, "{:?}", d.report.mismatches.first());
    assert!(d.gpu.mismatches.is_empty(), "{:?}", d.gpu.mismatches);
    // The same through the CLI, with the Intel verdict.
    let out = Command::new(BIN)
        .arg("--diff")
        .arg(dir.join("sample3d.isa"))
        .arg("--manifest")
        .arg(dir.join("sample3d.toml"))
        .arg("--quiet")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(
        text.ends_with("diff: GPU equals CPU (every variable, predicate and register of every thread, every byte of memory)\n"),
        "{text}"
    );
}
