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
//! `gcn-run` binary, which must exit 2 with that one line. The HSA code
//! objects of `assets/kernels/` are mutated the same way (bytes of the ELF,
//! of the MessagePack metadata note, of a kernel descriptor; cut short) and
//! prepared as kernel launches.
//!
//! Deterministic: ChaCha8 from `GCNRUN_FUZZ_SEED` (default 1), with
//! `GCNRUN_FUZZ_CASES` mutants per seed manifest (default 40). A failure prints
//! the seed manifest, the case number and the mutant.

mod common;

use common::launches::{asset_manifests, assets, visa_manifests};
use gcnrun::launch::run::{
    prepare_manifest, prepare_visa, run_cpu, run_diff, GpuRunError, Prepared,
};
use gcnrun::launch::LaunchError;
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

/// What went wrong with one mutant, if anything: `prepare` builds its launch
/// (a refusal is fine if it is one line naming a file under `root`), and a
/// small launch then runs on the CPU. `Ok(Some(line))` is a refusal.
fn check(
    prepare: impl FnOnce() -> Result<Prepared, LaunchError>,
    root: &str,
) -> Result<Option<String>, String> {
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        let p = match prepare() {
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

/// Runs a prepared mutant on the GPU and the CPU when it is small and the CPU
/// runs it: `tally` counts (equal, refused by the GPU); a difference, or a
/// translator or device error, is a failure labelled `label` with `mutant`.
fn diff_on_gpu(
    g: &gcnrun::gpu::Gpu,
    p: Prepared,
    label: &str,
    mutant: &str,
    tally: &mut (usize, usize),
    failures: &mut Vec<String>,
) {
    let lanes: usize = p.waves.iter().map(|w| w.wave_size as usize).sum();
    if lanes > 64 * 64 || run_cpu(p.clone()).is_err() {
        return;
    }
    match run_diff(p, g) {
        Ok(d) if d.report.count == 0 => tally.0 += 1,
        Ok(d) => failures.push(format!(
            "{label}: {} difference(s), first {:?}\n{mutant}",
            d.report.count,
            d.report.mismatches.first()
        )),
        Err(GpuRunError::Input(e)) => {
            tally.1 += 1;
            println!("refused on the GPU: {e}");
        }
        Err(e) => failures.push(format!("{label}: {e:?}\n{mutant}")),
    }
}

/// Every seed manifest: the AMD assets and the Intel launches.
fn seed_manifests() -> Vec<PathBuf> {
    // Three RADV draws (assets/radv) stand for the [draw] section.
    let draws = [
        "radv/tex.navi21.toml",
        "radv/varyings.gfx1100-w32.toml",
        "radv/mrt.vega10.toml",
    ];
    let seeds: Vec<PathBuf> = asset_manifests()
        .into_iter()
        .chain(visa_manifests())
        .chain(draws.iter().map(|d| assets().join(d)))
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

/// Draws mutants with `draw` (given the generator and the try number; `None`
/// when the mutant does not prepare) until `GCNRUN_FUZZ_GPU_CASES` (default
/// 24) of them ran on the GPU and the CPU with equal bits; a difference, or a
/// translator or device error, fails. `kind` names them in the summary.
fn gpu_campaign(
    test: &str,
    kind: &str,
    salt: u64,
    mut draw: impl FnMut(&mut ChaCha8Rng, usize) -> Option<(Prepared, String, String)>,
) {
    let Some(g) = common::gpu::gpu(test) else {
        return;
    };
    let seed: u64 = common::env_number("GCNRUN_FUZZ_SEED", 1);
    let wanted: usize = common::env_number("GCNRUN_FUZZ_GPU_CASES", 24);
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ salt);
    let (mut tally, mut tries) = ((0usize, 0usize), 0usize);
    let mut failures = Vec::new();
    while tally.0 < wanted && tries < 200 * wanted.max(1) {
        tries += 1;
        if let Some((p, label, mutant)) = draw(&mut rng, tries) {
            diff_on_gpu(g, p, &label, &mutant, &mut tally, &mut failures);
        }
    }
    let (diffed, refused) = tally;
    println!("{diffed} {kind} equal on GPU and CPU, {refused} refused by the GPU, {tries} tried");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert_eq!(
        diffed, wanted,
        "only {diffed} runnable mutants in {tries} tries"
    );
}

/// Mutants that prepare and run on the CPU, ran on the GPU as well: whatever
/// odd but valid launch a mutation makes (another format, size, address mode,
/// register, arch), the GPU must give the CPU's bits, or refuse by name.
#[test]
fn mutated_manifests_run_alike_on_gpu_and_cpu() {
    let root = assets_copy("gpu");
    let src = assets();
    let seeds = seed_manifests();
    let test = "mutated_manifests_run_alike_on_gpu_and_cpu";
    gpu_campaign(test, "manifest mutants", 0x6770_7500, |rng, tries| {
        let seed_path = &seeds[rng.gen_range(0..seeds.len())];
        let rel = seed_path.strip_prefix(&src).unwrap();
        // One mutation: a launch that still prepares.
        let mutant = mutate(&std::fs::read_to_string(seed_path).unwrap(), rng);
        let path = mutant_path(&root, rel, tries);
        std::fs::write(&path, &mutant).unwrap();
        let p = prepare_manifest(&path, None, None, Some(16 << 20)).ok()?;
        Some((p, format!("{} mutant {tries}", rel.display()), mutant))
    });
    let _ = std::fs::remove_dir_all(&root);
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
            match check(
                || prepare_manifest(&path, None, None, Some(16 << 20)),
                &root_text,
            ) {
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

/// Words a vISA mutation puts where a program had a word: instructions and
/// sub-ops of the subset and some it refuses, channel masks, execution masks,
/// types, predicates and variables IGC predefines.
const VISA_WORDS: &[&str] = &[
    "mov",
    "movs",
    "add",
    "mul",
    "sel",
    "or",
    "and",
    "xor",
    "shl",
    "shr",
    "asr",
    "not",
    "rndd",
    "rnde",
    "cmp",
    "setp",
    "goto",
    "jmp",
    "ret",
    "mad",
    "frc",
    "call",
    "sample",
    "sample_b",
    "sample_l",
    "sample_c",
    "sample_d",
    "sample_b_c",
    "sample_l_c",
    "sample_d_c",
    "sample_lz",
    "sample_c_lz",
    "lod",
    "load",
    "load_lz",
    "load_l",
    "load_2dms_w",
    "load_mcs",
    "sample4",
    "sample4_c",
    "sample4_po",
    "sample4_po_c",
    "resinfo",
    "sampleinfo",
    "R",
    "RG",
    "RGBA",
    "GA",
    "A",
    "M1",
    "M2",
    "M5",
    "M8",
    "M1_NM",
    "NM",
    "f",
    "hf",
    "d",
    "ud",
    "w",
    "uw",
    "b",
    "ub",
    "q",
    "df",
    "P1",
    "P2",
    "null",
    "V32",
    "T0",
    "T6",
    "S0",
    "S31",
    "pixel_null_mask",
    "cps",
    "divS",
    "all",
    "any8h",
    "lt",
    "le",
    "eq",
    "ne",
    "ge",
    "gt",
];

/// Numbers a vISA mutation puts where a program had a number: exec sizes
/// legal and not, register rows and offsets at and past a variable's end,
/// immediates at the edges of their types.
const VISA_NUMBERS: &[&str] = &[
    "0",
    "1",
    "2",
    "3",
    "4",
    "7",
    "8",
    "15",
    "16",
    "17",
    "31",
    "32",
    "33",
    "63",
    "64",
    "127",
    "255",
    "256",
    "4095",
    "4096",
    "65535",
    "0x7fffffff",
    "0x80000000",
    "0xffffffff",
    "-1",
    "-8",
    "99999999999",
];

/// The byte ranges of the words (identifiers, not numbers) of `text`.
fn words(text: &str) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
        if word(b[i]) {
            let start = i;
            while i < b.len() && word(b[i]) {
                i += 1;
            }
            if !b[start].is_ascii_digit() {
                out.push((start, i));
            }
        } else {
            i += 1;
        }
    }
    out
}

/// One mutation of vISA program `text`; `splice` holds lines of every vISA
/// asset, so an inserted line is real vISA (from another program, whose
/// variables this one may lack).
fn mutate_visa(text: &str, splice: &[String], rng: &mut ChaCha8Rng) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let pick_line = |rng: &mut ChaCha8Rng| rng.gen_range(0..lines.len().max(1));
    let replace =
        |(a, b): (usize, usize), with: &str| format!("{}{with}{}", &text[..a], &text[b..]);
    match rng.gen_range(0..7) {
        // A word: another word of the same program (a variable, type or
        // op it already uses), or one from the pool.
        0 | 1 => {
            let w = words(text);
            if w.is_empty() {
                return text.to_string();
            }
            let at = w[rng.gen_range(0..w.len())];
            let with = if rng.gen_bool(0.6) {
                let (a, b) = w[rng.gen_range(0..w.len())];
                text[a..b].to_string()
            } else {
                VISA_WORDS[rng.gen_range(0..VISA_WORDS.len())].to_string()
            };
            replace(at, &with)
        }
        2 | 3 => {
            let s = spans(text, false);
            if s.is_empty() {
                return text.to_string();
            }
            let at = s[rng.gen_range(0..s.len())];
            replace(at, VISA_NUMBERS[rng.gen_range(0..VISA_NUMBERS.len())])
        }
        4 => {
            let mut v = lines.clone();
            let at = pick_line(rng);
            if at < v.len() {
                if rng.gen_bool(0.5) {
                    v.remove(at);
                } else {
                    v.insert(at, lines[at]);
                }
            }
            v.join("\n")
        }
        5 => {
            let mut v = lines.clone();
            let at = pick_line(rng).min(v.len());
            v.insert(at, &splice[rng.gen_range(0..splice.len())]);
            v.join("\n")
        }
        _ => {
            let mut v = lines.clone();
            let (x, y) = (pick_line(rng), pick_line(rng));
            if x < v.len() && y < v.len() {
                v.swap(x, y);
            }
            v.join("\n")
        }
    }
}

/// The file a manifest's `code = "…"` line names, when it ends in `ext`.
fn code_file(manifest: &str, ext: &str) -> Option<String> {
    manifest.lines().find_map(|l| {
        let v = l.strip_prefix("code = \"")?.strip_suffix('"')?;
        v.ends_with(ext).then(|| v.to_string())
    })
}

/// The Intel launches whose code is vISA text: (manifest, program), relative
/// to `assets/`.
fn visa_programs() -> Vec<(PathBuf, PathBuf)> {
    let src = assets();
    let mut out = Vec::new();
    for m in visa_manifests() {
        let text = std::fs::read_to_string(&m).unwrap();
        if let Some(code) = code_file(&text, ".visaasm") {
            let rel = m.strip_prefix(&src).unwrap().to_path_buf();
            let program = rel.with_file_name(code);
            out.push((rel, program));
        }
    }
    assert!(out.len() >= 20, "only {} vISA launches", out.len());
    out
}

/// Every line of every vISA program asset, for splicing.
fn visa_lines(programs: &[(PathBuf, PathBuf)]) -> Vec<String> {
    let src = assets();
    let mut v: Vec<String> = programs
        .iter()
        .flat_map(|(_, p)| {
            std::fs::read_to_string(src.join(p))
                .unwrap()
                .lines()
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .collect();
    v.sort();
    v.dedup();
    v
}

/// Mutated vISA programs (real IGC dumps and the hand-written assets), each
/// run with its own launch manifest: the parser, `check_supported`, the
/// lowering and the CPU interpreter must refuse in one line naming a file, or
/// run. Cases per program: `GCNRUN_FUZZ_CASES` (default 40).
#[test]
fn mutated_visa_programs_run_or_fail_in_one_line() {
    let seed: u64 = common::env_number("GCNRUN_FUZZ_SEED", 1);
    let cases: usize = common::env_number("GCNRUN_FUZZ_CASES", 40);
    let root = assets_copy("visa-cpu");
    let root_text = root.display().to_string();
    let programs = visa_programs();
    let splice = visa_lines(&programs);
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x7669_7361);
    let (mut refused, mut ran) = (0usize, 0usize);
    let mut failures = Vec::new();
    for (manifest, program) in &programs {
        let text = std::fs::read_to_string(assets().join(program)).unwrap();
        let manifest = root.join("assets").join(manifest);
        for case in 0..cases {
            let mut mutant = text.clone();
            for _ in 0..rng.gen_range(1..=2) {
                mutant = mutate_visa(&mutant, &splice, &mut rng);
            }
            let path = manifest.with_file_name(format!("__fuzz_{case}.visaasm"));
            std::fs::write(&path, &mutant).unwrap();
            match check(
                || prepare_visa(&manifest, &path, Some(16 << 20)),
                &root_text,
            ) {
                Err(why) => failures.push(format!(
                    "{} case {case}: {why}\n--- mutant ---\n{mutant}\n---",
                    program.display()
                )),
                Ok(None) => ran += 1,
                Ok(Some(_)) => refused += 1,
            }
            if failures.len() >= 5 {
                break;
            }
        }
    }
    let _ = std::fs::remove_dir_all(&root);
    println!(
        "{} vISA programs × {cases} mutants (seed {seed}): {ran} ran, {refused} refused in one line",
        programs.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(
        ran > programs.len() && refused > programs.len(),
        "ran {ran}, refused {refused}"
    );
}

/// Mutated vISA programs that run on the CPU, run on the GPU too (the vISA
/// translator on programs no one wrote): equal bits, or a refusal by name.
#[test]
fn mutated_visa_programs_run_alike_on_gpu_and_cpu() {
    let root = assets_copy("visa-gpu");
    let programs = visa_programs();
    let splice = visa_lines(&programs);
    let test = "mutated_visa_programs_run_alike_on_gpu_and_cpu";
    gpu_campaign(test, "vISA mutants", 0x7669_7367, |rng, tries| {
        let (manifest, program) = &programs[rng.gen_range(0..programs.len())];
        let text = std::fs::read_to_string(assets().join(program)).unwrap();
        let mutant = mutate_visa(&text, &splice, rng);
        let manifest = root.join("assets").join(manifest);
        let path = manifest.with_file_name(format!("__fuzz_{tries}.visaasm"));
        std::fs::write(&path, &mutant).unwrap();
        let p = prepare_visa(&manifest, &path, Some(16 << 20)).ok()?;
        Some((p, format!("{} mutant {tries}", program.display()), mutant))
    });
    let _ = std::fs::remove_dir_all(&root);
}

/// The vISA fuzz findings, pinned: each was a panic (an arithmetic overflow)
/// and is now a one-line refusal naming the program.
#[test]
fn visa_fuzz_findings_are_refused_in_one_line() {
    let igc = assets().join("visa/igc");
    let dir = std::env::temp_dir().join(format!("gcnrun-fuzz-findings-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cases = [
        // An operand on a predefined variable far past it.
        (
            "image_loops__loop_divergent",
            "or (M1_NM, 1) %cr0(0,0)<1>",
            "or (M1_NM, 1) %cr0(0,0x80000000)<1>",
            "lies past `%cr0`",
        ),
        // An alias past its predefined base.
        (
            "image_reads__image_size",
            "alias=<%r0, 0>",
            "alias=<%r0, 0xffffffff>",
            "does not fit inside `%r0`",
        ),
        // A channel group past channel 31.
        (
            "image_reads__read_1d_array",
            "cmp.eq (M5_NM, 16) P1",
            "cmp.eq (M5_NM, 32) P1",
            "exec mask M5 with exec size 32",
        ),
    ];
    for (name, from, to, says) in cases {
        let text = std::fs::read_to_string(igc.join(format!("{name}.visaasm"))).unwrap();
        assert!(text.contains(from), "{name} lacks `{from}`");
        let program = dir.join(format!("{name}.visaasm"));
        std::fs::write(&program, text.replacen(from, to, 1)).unwrap();
        let manifest = igc.join(format!("{name}.toml"));
        let e = match prepare_visa(&manifest, &program, None).and_then(run_cpu) {
            Ok(_) => panic!("{name}: `{to}` ran"),
            Err(e) => e.to_string(),
        };
        assert!(!e.contains('\n') && e.contains(says), "{name}: {e}");
        assert!(e.contains(&program.display().to_string()), "{name}: {e}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The AMD launches whose code is a file: (manifest text, code bytes, path
/// of the manifest relative to `assets/`).
fn amd_programs() -> Vec<(String, Vec<u8>, PathBuf)> {
    let src = assets();
    let mut out = Vec::new();
    for m in asset_manifests() {
        let text = std::fs::read_to_string(&m).unwrap();
        if let Some(code) = code_file(&text, ".bin") {
            let bytes = std::fs::read(m.with_file_name(&code)).unwrap();
            let text = text.replace(&format!("code = \"{code}\""), "code = \"__fuzz.bin\"");
            out.push((text, bytes, m.strip_prefix(&src).unwrap().to_path_buf()));
        }
    }
    assert!(
        out.len() >= 20,
        "only {} AMD launches with code files",
        out.len()
    );
    out
}

/// One to three bit flips in the code, all in one random instruction dword
/// (the opcode, a register field, a modifier: what a miscompile or a corrupt
/// file gives).
fn flip_bits(code: &[u8], rng: &mut ChaCha8Rng) -> Vec<u8> {
    let mut c = code.to_vec();
    if c.len() >= 4 {
        let word = rng.gen_range(0..c.len() / 4);
        for _ in 0..rng.gen_range(1..=3) {
            let bit = rng.gen_range(0..32);
            c[4 * word + bit / 8] ^= 1 << (bit % 8);
        }
    }
    c
}

/// AMD code with flipped bits, run with its launch: the decoder, the lowering
/// and the CPU interpreter refuse in one line naming a file, or run; and the
/// `GCNRUN_FUZZ_GPU_CASES` runnable mutants spread over the programs (default
/// 12: their kernels are larger than the other tests' and lavapipe compiles
/// each) equal the CPU on the GPU. Cases per program: `GCNRUN_FUZZ_CASES`
/// (default 40).
#[test]
fn amd_code_with_flipped_bits_runs_alike_or_fails_in_one_line() {
    let seed: u64 = common::env_number("GCNRUN_FUZZ_SEED", 1);
    let cases: usize = common::env_number("GCNRUN_FUZZ_CASES", 40);
    let wanted: usize = common::env_number("GCNRUN_FUZZ_GPU_CASES", 12);
    let g = common::gpu::gpu("amd_code_with_flipped_bits_runs_alike_or_fails_in_one_line");
    let root = assets_copy("amd-code");
    let root_text = root.display().to_string();
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x616d_6463);
    let (mut refused, mut ran, mut tally) = (0usize, 0usize, (0usize, 0usize));
    let mut failures = Vec::new();
    let programs = amd_programs();
    // Spread the GPU diffs over every program: about every stride-th runnable
    // mutant (about half of them run).
    let stride = (programs.len() * cases / (2 * wanted.max(1))).max(1);
    for (manifest, code, rel) in programs {
        for case in 0..cases {
            let mutant = flip_bits(&code, &mut rng);
            let path = mutant_path(&root, &rel, case);
            std::fs::write(path.with_file_name("__fuzz.bin"), &mutant).unwrap();
            std::fs::write(&path, &manifest).unwrap();
            let prepare = || prepare_manifest(&path, None, None, Some(16 << 20));
            let label = format!("{} case {case}", rel.display());
            let hex: String = mutant.iter().map(|b| format!("{b:02x}")).collect();
            match check(prepare, &root_text) {
                Err(why) => failures.push(format!("{label}: {why}\ncode {hex}")),
                Ok(Some(_)) => refused += 1,
                Ok(None) => {
                    ran += 1;
                    if let (Some(g), true) = (g, tally.0 < wanted && ran % stride == 0) {
                        let p = prepare().unwrap();
                        diff_on_gpu(g, p, &label, &hex, &mut tally, &mut failures);
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
        "AMD code × {cases} bit-flip mutants (seed {seed}): {ran} ran, {refused} refused in one line; \
         {} equal on GPU and CPU, {} refused by the GPU",
        tally.0, tally.1
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(ran > 40 && refused > 40, "ran {ran}, refused {refused}");
    if g.is_some() {
        assert!(
            tally.0 >= wanted / 2,
            "only {} runnable mutants diffed",
            tally.0
        );
    }
}

/// The code objects of `assets/kernels/` (name, bytes).
fn code_objects() -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<(String, Vec<u8>)> = std::fs::read_dir(assets().join("kernels"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "hsaco"))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&p).unwrap())
        })
        .collect();
    v.sort();
    v
}

/// One mutation of a code object: bytes flipped anywhere, in the metadata
/// note (MessagePack), or in a kernel descriptor; or the file cut short.
fn mutate_code_object(bytes: &[u8], rng: &mut ChaCha8Rng) -> Vec<u8> {
    let mut m = bytes.to_vec();
    let note = bytes
        .windows(12)
        .position(|w| w == b"\x20\x00\x00\x00AMDGPU\x00\x00")
        .map(|p| p + 12);
    let kds: Vec<usize> = gcnrun::launch::hsa::elf::parse(bytes)
        .map(|c| c.kernels.iter().map(|k| k.file_offset).collect())
        .unwrap_or_default();
    let range = match rng.gen_range(0..4) {
        0 => 0..m.len(),
        1 => match note {
            Some(n) => n..(n + 1500).min(m.len()),
            None => 0..m.len(),
        },
        2 => match kds.first() {
            Some(&k) => k..k + 64,
            None => 0..m.len(),
        },
        _ => {
            m.truncate(rng.gen_range(0..bytes.len()));
            return m;
        }
    };
    for _ in 0..rng.gen_range(1..=4) {
        let at = rng.gen_range(range.clone());
        m[at] = match rng.gen_range(0..3) {
            0 => m[at] ^ (1 << rng.gen_range(0..8)),
            1 => rng.gen(),
            _ => [0x00, 0xff, 0x7f, 0x80, 0xc1, 0xcf, 0xdf][rng.gen_range(0..7)],
        };
    }
    m
}

/// Mutated HSA code objects (`launch::hsa`: ELF, MessagePack metadata, kernel
/// descriptors, kernarg layout): preparing a kernel launch never panics and
/// refuses in one line naming the file; the first refusals go through the
/// binary too (exit 2, that line). Cases per object: `GCNRUN_FUZZ_CASES`
/// (default 40).
#[test]
fn mutated_code_objects_prepare_or_fail_in_one_line() {
    let seed: u64 = common::env_number("GCNRUN_FUZZ_SEED", 1);
    let cases: usize = common::env_number("GCNRUN_FUZZ_CASES", 40);
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x6873_6163);
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("fuzz-hsa");
    std::fs::create_dir_all(&dir).unwrap();
    let (mut refused, mut prepared, mut through_binary) = (0usize, 0usize, 0usize);
    let mut failures = Vec::new();
    for (name, bytes) in code_objects() {
        let kernel = gcnrun::launch::hsa::elf::parse(&bytes).unwrap().kernels[0]
            .name
            .clone();
        for case in 0..cases {
            let mutant = mutate_code_object(&bytes, &mut rng);
            let path = dir.join(format!("{case}_{name}"));
            let file = path.display().to_string();
            let opts = gcnrun::launch::hsa::Options {
                kernel: Some(kernel.clone()),
                mem_cap: Some(16 << 20),
                ..Default::default()
            };
            let prepare = || {
                gcnrun::launch::hsa::prepare(&file, &mutant, None, &opts)
                    .map_err(gcnrun::launch::LaunchError::from)
            };
            match check(prepare, &file) {
                Err(why) => failures.push(format!("{name} case {case}: {why}")),
                Ok(None) => prepared += 1,
                Ok(Some(line)) => {
                    refused += 1;
                    if through_binary < 8 && gcnrun::launch::hsa::is_code_object(&mutant) {
                        through_binary += 1;
                        std::fs::write(&path, &mutant).unwrap();
                        let out = std::process::Command::new(env!("CARGO_BIN_EXE_gcn-run"))
                            .args([&file, "--kernel", &kernel, "--mem-cap", "16m"])
                            .output()
                            .unwrap();
                        let err = String::from_utf8_lossy(&out.stderr);
                        if out.status.code() != Some(2)
                            || err.trim_end() != format!("gcn-run: {line}")
                        {
                            failures.push(format!(
                                "{name} case {case}: the binary said {:?} / {err:?}, the library {line:?}",
                                out.status.code()
                            ));
                        }
                    }
                }
            }
            if failures.len() >= 5 {
                break;
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    println!(
        "code objects × {cases} mutants (seed {seed}): {prepared} prepared, {refused} refused in one line ({through_binary} through the binary)"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(refused > 40, "refused {refused}");
}
