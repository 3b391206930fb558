//! Fuzzes the launch-manifest reader, the input a user writes by hand.
//!
//! Every asset manifest (AMD and Intel) is the seed of a stream of mutations:
//! a number or a string replaced by a hostile one, a line deleted, doubled,
//! swapped or added from a pool of hostile lines, or the text cut short. Each
//! mutant is written into a copy of `assets/` (so relative code, vISA and PNG
//! paths still resolve) and prepared with a 16 MiB memory cap; a mutant that
//! prepares is also run on the CPU when it is small. What must hold: no panic
//! (and no abort, which would kill this binary), and every refusal one line
//! that names a file of the copy. The first refusals also go through the
//! `gcn-run` binary, which must exit 2 with that one line.
//!
//! Deterministic: ChaCha8 from `GCNRUN_FUZZ_SEED` (default 1), with
//! `GCNRUN_FUZZ_CASES` mutants per seed manifest (default 40). A failure prints
//! the seed manifest, the case number and the mutant.

mod common;

use common::launches::{asset_manifests, assets, visa_manifests};
use gcnrun::launch::run::{prepare_manifest, run_cpu, run_diff, GpuRunError};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

/// Numbers a mutation puts where the manifest had one: zero and signs, the
/// edges of u8/u16/u32/i64, sizes just past the caps (16384 waves and
/// dimensions, 4096 threads), float specials. No value makes a legal launch
/// large: the largest legal counts here (300 waves, a 16 MiB image cap) stay
/// fast.
const NUMBERS: &[&str] = &[
    "0",
    "1",
    "-1",
    "2",
    "3",
    "7",
    "255",
    "256",
    "300",
    "4097",
    "16385",
    "65535",
    "65536",
    "2147483647",
    "2147483648",
    "4294967295",
    "4294967296",
    "9223372036854775807",
    "-9223372036854775808",
    "0x7fffffff",
    "0xffffffff",
    "1e308",
    "-0.0",
    "0.5",
    "nan",
    "inf",
    "\"12\"",
    "[]",
    "{}",
];

/// Strings a mutation puts where the manifest had a quoted string: empty,
/// unknown names, names of other kinds, register ranges that overflow or run
/// backwards, expressions that divide by zero or overflow, control characters.
const STRINGS: &[&str] = &[
    "",
    "zero",
    "checker",
    "gradient",
    "noise",
    "cube",
    "3d",
    "2d_msaa_array",
    "1d_array",
    "8_8_8_8",
    "32_32_32_32",
    "bc6",
    "bc7",
    "srgb",
    "float",
    "gfx1100",
    "gfx1030",
    "gfx6",
    "gfx99",
    "s[0:200]",
    "s[5:4]",
    "v[0:255]",
    "v[250:260]",
    "v255",
    "m0",
    "exec",
    "lane / 0",
    "lane % 0",
    "1 << 40",
    "0xffffffffffffffff + 1",
    "2147483647 * 2147483647",
    "lane * 1e39",
    "wave_size - 100",
    "a\nb",
    "\\u0000",
    "../../../../etc/passwd",
    "nonexistent.bin",
    "mirror_once_half_border",
    "clamp_border",
    "nearest",
    "aniso16",
];

/// Lines a mutation adds: cap-sized launches, contradictory or unknown keys,
/// tables out of place.
const LINES: &[&str] = &[
    "waves = 16385",
    "waves = 0",
    "threads = 4097",
    "mem_cap = 0",
    "mem_cap = 1",
    "wave_size = 48",
    "arch = \"gfx1100\"",
    "arch = \"gfx8\"",
    "unknown_key = 1",
    "[[image]]",
    "[[buffer]]",
    "[[sampler]]",
    "[sgpr]",
    "[vgpr]",
    "[lds]",
    "[expect]",
    "[intel]",
    "width = 16384",
    "height = 16384",
    "depth = 16384",
    "layers = 16384",
    "levels = 40",
    "samples = 3",
    "samples = 16",
    "bytes = 4294967296",
    "init = { hex = \"0\" }",
    "init = { png = \"missing.png\" }",
    "v0 = { u32 = \"lane / 0\" }",
    "v255 = { f32 = \"lane\" }",
    "\"v[254:257]\" = 1",
    "\"s[100:120]\" = [1, 2]",
    "\"0x10000\" = [1, 2, 3]",
    "grf_size = 48",
    "simd = 4",
    "hex = \"zz\"",
    "hex = \"\"",
];

/// A copy of `assets/` for the mutants of test `test` (the tests of this
/// binary run in parallel, each in its own copy).
fn assets_copy(test: &str) -> PathBuf {
    fn copy(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).unwrap();
        for e in std::fs::read_dir(from).unwrap() {
            let p = e.unwrap().path();
            let dst = to.join(p.file_name().unwrap());
            if p.is_dir() {
                copy(&p, &dst);
            } else {
                std::fs::copy(&p, &dst).unwrap();
            }
        }
    }
    let root = std::env::temp_dir().join(format!(
        "gcnrun-fuzz-manifest-{test}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&root);
    copy(&assets(), &root.join("assets"));
    root
}

/// Byte ranges of the numbers (or, with `strings`, the quoted strings) in `text`.
fn spans(text: &str, strings: bool) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'#' {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i] == b'"' {
            let start = i;
            i += 1;
            while i < b.len() && b[i] != b'"' && b[i] != b'\n' {
                i += 1;
            }
            if strings && i < b.len() && b[i] == b'"' {
                out.push((start + 1, i));
            }
            i += 1;
        } else if b[i].is_ascii_digit() && (i == 0 || !b[i - 1].is_ascii_alphanumeric()) {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'.' || b[i] == b'_') {
                i += 1;
            }
            if !strings {
                out.push((start, i));
            }
        } else {
            i += 1;
        }
    }
    out
}

/// One mutation of `text`.
fn mutate(text: &str, rng: &mut ChaCha8Rng) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let pick_line = |rng: &mut ChaCha8Rng| rng.gen_range(0..lines.len().max(1));
    match rng.gen_range(0..8) {
        // Numbers (0, 1) or quoted strings (2, 3) replaced from their pool.
        k @ 0..=3 => {
            let (s, pool) = if k < 2 {
                (spans(text, false), NUMBERS)
            } else {
                (spans(text, true), STRINGS)
            };
            if s.is_empty() {
                return text.to_string();
            }
            let (a, b) = s[rng.gen_range(0..s.len())];
            let with = pool[rng.gen_range(0..pool.len())];
            format!("{}{with}{}", &text[..a], &text[b..])
        }
        4 => {
            let at = pick_line(rng);
            let mut v = lines.clone();
            if at < v.len() {
                v.remove(at);
            }
            v.join("\n")
        }
        5 => {
            let at = pick_line(rng);
            let mut v = lines.clone();
            if let Some(l) = lines.get(at) {
                v.insert(at, l);
            }
            let (x, y) = (pick_line(rng), pick_line(rng));
            if x < v.len() && y < v.len() {
                v.swap(x, y);
            }
            v.join("\n")
        }
        6 => {
            let at = pick_line(rng).min(lines.len());
            let mut v = lines.clone();
            v.insert(at, LINES[rng.gen_range(0..LINES.len())]);
            v.join("\n")
        }
        _ => {
            let mut cut = rng.gen_range(0..=text.len());
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            text[..cut].to_string()
        }
    }
}

/// What went wrong with one mutant, if anything.
fn check(path: &Path, root: &str) -> Result<Option<String>, String> {
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        let p = match prepare_manifest(path, None, None, Some(16 << 20)) {
            Ok(p) => p,
            Err(e) => return Err(e.to_string()),
        };
        // Small launches also run: execution reads what preparation built.
        let lanes: usize = p.waves.iter().map(|w| w.wave_size as usize).sum();
        if lanes <= 64 * 64 {
            run_cpu(p).map(|_| ()).map_err(|e| e.to_string())
        } else {
            Ok(())
        }
    }));
    match outcome {
        Err(panic) => {
            let what = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            Err(format!("panicked: {what}"))
        }
        Ok(Ok(())) => Ok(None),
        Ok(Err(e)) if e.contains('\n') => Err(format!("error of more than one line: {e}")),
        Ok(Err(e)) if !e.contains(root) => Err(format!("error names no file of the launch: {e}")),
        Ok(Err(e)) => Ok(Some(e)),
    }
}

/// Every seed manifest: the AMD assets and the Intel launches.
fn seed_manifests() -> Vec<PathBuf> {
    let seeds: Vec<PathBuf> = asset_manifests()
        .into_iter()
        .chain(visa_manifests())
        .collect();
    assert!(seeds.len() > 40, "only {} seed manifests", seeds.len());
    seeds
}

/// Where mutant `case` of the seed at `rel` (relative to `assets/`) lives in
/// the copy under `root`.
fn mutant_path(root: &Path, rel: &Path, case: usize) -> PathBuf {
    root.join("assets")
        .join(rel)
        .with_file_name(format!("__fuzz_{case}.toml"))
}

/// Mutants that prepare and run on the CPU, ran on the GPU as well: whatever
/// odd but valid launch a mutation makes (another format, size, address mode,
/// register, arch), the GPU must give the CPU's bits, or refuse by name. The
/// first `GCNRUN_FUZZ_GPU_CASES` (default 24) such mutants are diffed; a
/// translator or device error fails.
#[test]
fn mutated_manifests_run_alike_on_gpu_and_cpu() {
    let Some(g) = common::gpu::gpu("mutated_manifests_run_alike_on_gpu_and_cpu") else {
        return;
    };
    let seed: u64 = common::env_number("GCNRUN_FUZZ_SEED", 1);
    let wanted: usize = common::env_number("GCNRUN_FUZZ_GPU_CASES", 24);
    let root = assets_copy("gpu");
    let src = assets();
    let seeds = seed_manifests();
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x6770_7500);
    let (mut diffed, mut refused, mut tries) = (0usize, 0usize, 0usize);
    let mut failures = Vec::new();
    while diffed < wanted && tries < 200 * wanted.max(1) {
        let seed_path = &seeds[rng.gen_range(0..seeds.len())];
        let rel = seed_path.strip_prefix(&src).unwrap();
        // One mutation: a launch that still prepares.
        let mutant = mutate(&std::fs::read_to_string(seed_path).unwrap(), &mut rng);
        let path = mutant_path(&root, rel, tries);
        tries += 1;
        std::fs::write(&path, &mutant).unwrap();
        let Ok(p) = prepare_manifest(&path, None, None, Some(16 << 20)) else {
            continue;
        };
        let lanes: usize = p.waves.iter().map(|w| w.wave_size as usize).sum();
        if lanes > 64 * 64 || run_cpu(p.clone()).is_err() {
            continue;
        }
        match run_diff(p, g) {
            Ok(d) if d.report.count == 0 => diffed += 1,
            Ok(d) => failures.push(format!(
                "{} mutant {tries}: {} difference(s), first {:?}\n{mutant}",
                rel.display(),
                d.report.count,
                d.report.mismatches.first()
            )),
            Err(GpuRunError::Input(e)) => {
                refused += 1;
                println!("refused on the GPU: {e}");
            }
            Err(e) => failures.push(format!("{} mutant {tries}: {e:?}\n{mutant}", rel.display())),
        }
    }
    let _ = std::fs::remove_dir_all(&root);
    println!("{diffed} mutants equal on GPU and CPU, {refused} refused by the GPU, {tries} tried");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert_eq!(
        diffed, wanted,
        "only {diffed} runnable mutants in {tries} tries"
    );
}

#[test]
fn mutated_manifests_prepare_or_fail_in_one_line() {
    let seed: u64 = common::env_number("GCNRUN_FUZZ_SEED", 1);
    let cases: usize = common::env_number("GCNRUN_FUZZ_CASES", 40);
    let root = assets_copy("cpu");
    let root_text = root.display().to_string();
    let src = assets();
    let seeds = seed_manifests();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut refused, mut ran, mut cli_checked) = (0usize, 0usize, 0usize);
    let mut failures = Vec::new();
    for seed_path in &seeds {
        let rel = seed_path.strip_prefix(&src).unwrap();
        let text = std::fs::read_to_string(seed_path).unwrap();
        for case in 0..cases {
            // One to three mutations stacked.
            let mut mutant = text.clone();
            for _ in 0..rng.gen_range(1..=3) {
                mutant = mutate(&mutant, &mut rng);
            }
            let path = mutant_path(&root, rel, case);
            std::fs::write(&path, &mutant).unwrap();
            match check(&path, &root_text) {
                Err(why) => failures.push(format!(
                    "{} case {case}: {why}\n--- mutant ---\n{mutant}\n---",
                    rel.display()
                )),
                Ok(None) => ran += 1,
                Ok(Some(line)) => {
                    refused += 1;
                    // The binary turns the same refusal into exit 2 and that line
                    // (control characters quoted from the input escaped).
                    if refused % 50 == 1 {
                        let out = std::process::Command::new(env!("CARGO_BIN_EXE_gcn-run"))
                            .arg(&path)
                            .args(["--mem-cap", "16m"])
                            .output()
                            .unwrap();
                        let stderr = String::from_utf8_lossy(&out.stderr);
                        if out.status.code() != Some(2)
                            || stderr.trim_end().lines().count() != 1
                            || !stderr.contains(&gcnrun::input::one_line(&line))
                        {
                            failures.push(format!(
                                "{} case {case}: library said `{line}`, gcn-run exited {:?} with `{stderr}`",
                                rel.display(),
                                out.status.code()
                            ));
                        }
                        cli_checked += 1;
                    }
                }
            }
            if failures.len() >= 5 {
                break;
            }
        }
    }
    let _ = std::fs::remove_dir_all(&root);
    println!(
        "{} seed manifests × {cases} mutants (seed {seed}): {ran} prepared (and ran when small), \
         {refused} refused in one line ({cli_checked} of them checked through gcn-run)",
        seeds.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    // The mutations must exercise both sides, or the test proves nothing.
    assert!(
        ran > seeds.len() && refused > seeds.len() * cases / 4,
        "ran {ran}, refused {refused}"
    );
}
