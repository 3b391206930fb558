//! What users see stays what it was: the SHA-256 of `gcn-run`'s outputs over every
//! asset, against `tests/fixtures/outputs.sha256`.
//!
//! For every code file and manifest under `assets/` this runs the CPU backend with
//! `--json` (the `timing` member removed: it is the only part that varies between
//! runs), `--disasm` and `--disasm --json` where the input has a listing, and hashes
//! stdout, stderr and the exit code of each. A refactoring must leave every line
//! unchanged; a change that means to alter an output re-records the fixture with
//! `GCNRUN_BLESS=1 cargo test --test outputs` and says so in its commit.

mod common;

use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

const FIXTURE: &str = "tests/fixtures/outputs.sha256";

/// Every asset the fixture covers, relative to the package root, sorted.
fn assets() -> Vec<PathBuf> {
    common::launches::asset_files(&["toml", "bin", "visaasm", "isa"])
}

/// The modes an asset is run in: a manifest runs; AMD code runs in the default
/// environment and lists; Intel programs list, and run with the manifest beside
/// them when there is one.
fn runs(p: &Path) -> Vec<Vec<String>> {
    let s = p.to_str().expect("asset paths are UTF-8").to_string();
    let ext = p.extension().and_then(|x| x.to_str()).unwrap_or("");
    let v = |a: &[&str]| a.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    match ext {
        "toml" => vec![v(&["--json", &s])],
        "bin" => vec![
            v(&["--json", &s]),
            v(&["--disasm", &s]),
            v(&["--disasm", "--json", &s]),
        ],
        _ => {
            let mut r = vec![v(&["--disasm", &s])];
            let m = p.with_extension("toml");
            if m.exists() {
                r.push(v(&["--json", &s, "--manifest", m.to_str().unwrap()]));
            }
            r
        }
    }
}

/// `--json` run output without its `timing` member.
fn without_timing(stdout: &[u8]) -> Vec<u8> {
    match serde_json::from_slice::<serde_json::Value>(stdout) {
        Ok(serde_json::Value::Object(mut m)) => {
            m.remove("timing");
            serde_json::to_vec(&m).expect("JSON re-serialises")
        }
        _ => stdout.to_vec(),
    }
}

fn digest(args: &[String]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_gcn-run"))
        .args(args)
        .output()
        .expect("gcn-run runs");
    let json_run = args.iter().any(|a| a == "--json") && !args.iter().any(|a| a == "--disasm");
    let stdout = if json_run {
        without_timing(&out.stdout)
    } else {
        out.stdout.clone()
    };
    let mut h = Sha256::new();
    h.update(&stdout);
    h.update(b"\0stderr\0");
    h.update(&out.stderr);
    h.update(format!("\0exit {:?}", out.status.code()).as_bytes());
    format!("{:x}", h.finalize())
}

#[test]
fn every_asset_output_is_unchanged() {
    let mut now = BTreeMap::new();
    for p in assets() {
        for args in runs(&p) {
            now.insert(args.join(" "), digest(&args));
        }
    }
    assert!(
        now.len() > 100,
        "found only {} runs under assets/",
        now.len()
    );
    let text: String = now.iter().map(|(k, v)| format!("{v}  {k}\n")).collect();
    if std::env::var_os("GCNRUN_BLESS").is_some() {
        std::fs::create_dir_all("tests/fixtures").expect("tests/fixtures");
        std::fs::write(FIXTURE, &text).expect("fixture written");
        return;
    }
    let want = std::fs::read_to_string(FIXTURE).expect("tests/fixtures/outputs.sha256 exists");
    let want: BTreeMap<&str, &str> = want
        .lines()
        .filter_map(|l| l.split_once("  ").map(|(h, k)| (k, h)))
        .collect();
    let mut diffs = Vec::new();
    for (k, h) in &now {
        match want.get(k.as_str()) {
            Some(w) if *w == h => {}
            Some(_) => diffs.push(format!("changed: gcn-run {k}")),
            None => diffs.push(format!("new (not in the fixture): gcn-run {k}")),
        }
    }
    for k in want.keys() {
        if !now.contains_key(*k) {
            diffs.push(format!("gone: gcn-run {k}"));
        }
    }
    assert!(
        diffs.is_empty(),
        "{} output(s) differ from {FIXTURE} (re-record with GCNRUN_BLESS=1 only for an intended change):\n{}",
        diffs.len(),
        diffs.join("\n")
    );
}
