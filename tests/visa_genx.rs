//! Intel's own vISA assembler as a judge of the hand-written vISA in assets/:
//! every `assets/visa/**/*.visaasm` that is not an IGC dump (`assets/visa/igc/`)
//! must be accepted by `GenX_IR <file> -platform TGLLP` (IGC 1.0.12504,
//! Debian's `libigc-tools`), which parses, verifies and compiles it to Gen
//! code. A file GenX_IR 12504 cannot read on purpose (a newer-IGC feature such
//! as the `lod` mnemonic) says so on a line `// GenX_IR 12504 rejects: why`,
//! and must then be rejected. Negative controls show that a bad file fails.
//!
//! Without GenX_IR the test fails under `CI=true` (.ci/run installs it) and
//! otherwise prints `SKIPPED <reason>` and passes.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The marker of a file that GenX_IR 12504 must reject.
const REJECTS: &str = "// GenX_IR 12504 rejects:";

fn is_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true" || v == "1")
}

/// `GenX_IR` on PATH, or why not (a failure under CI=true).
fn genx_ir(test: &str) -> Option<&'static str> {
    match Command::new("GenX_IR").output() {
        Ok(_) => Some("GenX_IR"),
        Err(e) => {
            let msg =
                format!("SKIPPED {test}: GenX_IR not found ({e}); install Debian's libigc-tools");
            assert!(!is_ci(), "{msg} — CI=true requires it");
            eprintln!("{msg}");
            None
        }
    }
}

/// Runs GenX_IR on a copy of `text` in a fresh directory (it writes its
/// `.isa`/`.dat` next to the input).
fn assemble(tool: &str, name: &str, text: &str) -> Output {
    let dir = std::env::temp_dir().join(format!("gcnrun-genx-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = format!("{name}.visaasm");
    std::fs::write(dir.join(&file), text).unwrap();
    let out = Command::new(tool)
        .current_dir(&dir)
        .args([file.as_str(), "-platform", "TGLLP"])
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    out
}

fn hand_written(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap().filter_map(Result::ok) {
        let p = e.path();
        if p.is_dir() {
            // IGC's own dumps are not hand-written.
            if p.file_name().is_some_and(|n| n != "igc") {
                hand_written(&p, out);
            }
        } else if p.extension().is_some_and(|x| x == "visaasm") {
            out.push(p);
        }
    }
}

fn report(out: &Output) -> String {
    format!(
        "exit {:?}\n{}{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[test]
fn genx_ir_accepts_every_hand_written_visaasm() {
    let Some(tool) = genx_ir("genx_ir_accepts_every_hand_written_visaasm") else {
        return;
    };
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets/visa");
    let mut files = Vec::new();
    hand_written(&root, &mut files);
    // The vISA bench kernel sits beside the AMD ones (assets/bench_*.visaasm).
    let assets = root.parent().unwrap();
    files.extend(
        std::fs::read_dir(assets)
            .unwrap()
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "visaasm")),
    );
    files.sort();
    assert!(
        files.len() >= 2,
        "no hand-written .visaasm under {}",
        root.display()
    );
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let stem = f.file_stem().unwrap().to_string_lossy();
        let out = assemble(tool, &stem, &text);
        let rel = f.strip_prefix(assets).unwrap().display();
        match text.lines().find_map(|l| l.trim().strip_prefix(REJECTS)) {
            None => assert!(
                out.status.success(),
                "GenX_IR rejects {rel}: {}",
                report(&out)
            ),
            Some(why) => assert!(
                !out.status.success(),
                "{rel} says GenX_IR 12504 rejects it ({}), but it was accepted",
                why.trim()
            ),
        }
        eprintln!("GenX_IR checked {rel}");
    }
}

#[test]
fn genx_ir_rejects_bad_files() {
    let Some(tool) = genx_ir("genx_ir_rejects_bad_files") else {
        return;
    };
    let good = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets/visa/bin/sample3d.visaasm"),
    )
    .unwrap();
    // The control itself passes…
    assert!(assemble(tool, "control", &good).status.success());
    // …and each mutation fails.
    let bad = [
        ("undeclared", good.replace("D.0 U.0 V.0", "D.0 NOPE.0 V.0")),
        ("mnemonic", good.replace("sample_l.RG", "sample_q.RG")),
        (
            "decl_type",
            good.replace("type=f num_elts=16", "type=zz num_elts=16"),
        ),
        ("no_kernel", good.replace(".kernel \"smp\"", "")),
    ];
    for (name, text) in bad {
        assert_ne!(text, good, "{name}: the mutation did not apply");
        let out = assemble(tool, name, &text);
        assert!(
            !out.status.success(),
            "{name} was accepted: {}",
            report(&out)
        );
    }
}
