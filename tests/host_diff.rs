//! The host differential: `assets/kernels/hostdiff.cl` compiled by clang-19
//! for the host (C, with `hostdiff.h` as the shim for the work-item function
//! and the builtins) runs natively on the same inputs as its code objects for
//! gfx900, gfx1030 and gfx1100 run under `gcn-run`, on the CPU reference and
//! with `--gpu`; every output word must be identical. Integer results compare bit for bit; float results too, except
//! that two NaNs are equal (the host's default NaN is negative, gcnrun's
//! positive: docs/errata.md, "NaN results").
//!
//! The inputs are random with a fixed seed (`GCNRUN_SEED` picks another,
//! `GCNRUN_HOSTDIFF_N` the work-items), mixed with edge values: 0, ±1, the
//! extreme integers, ±0.0, ±∞, quiet NaNs, denormals, values near 2^31.
//! Signalling NaNs are made quiet: IEEE 754 lets `fmin`/`fmax` treat them
//! either way, and the host's libm and the hardware choose differently.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

/// Words each work-item writes (`OUTS` in hostdiff.cl).
const OUTS: usize = 52;
/// Output words that hold floats (compared with NaN = NaN).
fn is_float_out(slot: usize) -> bool {
    (12..20).contains(&slot) || (24..26).contains(&slot) || (50..52).contains(&slot)
}
/// Output words that hold doubles, low word first (compared with NaN = NaN).
const F64_OUTS: std::ops::Range<usize> = 38..50;
/// Output words that hold two f16 (compared half by half, NaN = NaN).
const F16X2_OUTS: std::ops::Range<usize> = 33..34;
/// Output words of fmin/fmax.
const MINMAX_OUTS: std::ops::Range<usize> = 16..18;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn have(tool: &str) -> bool {
    Command::new(tool)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// xorshift64*: the inputs, reproducible from the seed.
fn inputs(seed: u64, n: usize) -> Vec<u32> {
    const EDGES: &[u32] = &[
        0,
        1,
        0xffff_ffff,
        0x8000_0000,
        0x7fff_ffff,
        0x3f80_0000,
        0xbf80_0000,
        0x8000_0000,
        0x7f80_0000,
        0xff80_0000,
        0x7fc0_0000,
        0xffc0_1234,
        0x0000_0001,
        0x807f_ffff,
        0x4f00_0000,
        0xcf00_0000,
        0x4effffff,
        0x3f00_0000,
        0x4b00_0001,
        0x0080_0000,
    ];
    let mut s = seed.max(1);
    let mut next = || {
        s ^= s >> 12;
        s ^= s << 25;
        s ^= s >> 27;
        (s.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 32) as u32
    };
    (0..n)
        .map(|i| {
            let v = if i < EDGES.len() { EDGES[i] } else { next() };
            // Quiet every signalling NaN (see the module comment).
            if v & 0x7f80_0000 == 0x7f80_0000 && v & 0x007f_ffff != 0 {
                v | 0x0040_0000
            } else {
                v
            }
        })
        .collect()
}

/// Compiles hostdiff.cl for the host and runs it on `input`.
fn host_outputs(dir: &Path, input: &[u32]) -> Vec<u32> {
    let kernels = root().join("assets/kernels");
    let main = dir.join("main.c");
    std::fs::write(
        &main,
        format!("#define OUTS {OUTS}\n")
            + r#"#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
uint32_t hostdiff_gid;
void hostdiff(const uint32_t *in, uint32_t *out, uint32_t n);
int main(void) {
  uint32_t n;
  if (fread(&n, 4, 1, stdin) != 1) return 2;
  uint32_t *in = malloc(4 * (size_t)n), *out = calloc((size_t)n * OUTS, 4);
  if (fread(in, 4, n, stdin) != n) return 2;
  for (uint32_t i = 0; i < n; i++) { hostdiff_gid = i; hostdiff(in, out, n); }
  fwrite(out, 4, (size_t)n * OUTS, stdout);
  return 0;
}
"#,
    )
    .unwrap();
    let exe = dir.join("hostdiff");
    let kernel_obj = dir.join("kernel.o");
    let cc = |args: &[&std::ffi::OsStr]| {
        let status = Command::new("clang-19")
            .args(["-std=gnu11", "-O1", "-ffp-contract=off", "-fno-fast-math"])
            .args(["-Xclang", "-ffloat16-excess-precision=none"])
            .args(args)
            .status()
            .unwrap();
        assert!(status.success(), "clang-19 {args:?} failed");
    };
    cc(&[
        "-x".as_ref(),
        "c".as_ref(),
        "-I".as_ref(),
        kernels.as_os_str(),
        "-include".as_ref(),
        "hostdiff.h".as_ref(),
        "-c".as_ref(),
        kernels.join("hostdiff.cl").as_os_str(),
        "-o".as_ref(),
        kernel_obj.as_os_str(),
    ]);
    cc(&[
        main.as_os_str(),
        kernel_obj.as_os_str(),
        "-lm".as_ref(),
        "-o".as_ref(),
        exe.as_os_str(),
    ]);
    let mut bytes = (input.len() as u32).to_le_bytes().to_vec();
    bytes.extend(input.iter().flat_map(|v| v.to_le_bytes()));
    let input_file = dir.join("input.bin");
    std::fs::write(&input_file, bytes).unwrap();
    let out = Command::new(&exe)
        .stdin(std::fs::File::open(&input_file).unwrap())
        .output()
        .unwrap();
    assert!(out.status.success(), "the host program failed");
    out.stdout
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

/// Runs the code object for `cpu` under gcn-run on `input`.
fn gcnrun_outputs(dir: &Path, cpu: &str, backend: &[&str], input: &[u32]) -> Vec<u32> {
    let n = input.len();
    let code = root().join(format!("assets/kernels/hostdiff_{cpu}.hsaco"));
    let manifest = format!(
        r#"code = "{code}"

[kernel]
grid = [{n}]
block = [64]

[kernel.args]
in = {{ buffer = "in" }}
out = {{ buffer = "out" }}
n = {{ u32 = {n} }}
{}{}"#,
        common::launches::data_buffer("in", input),
        common::launches::zero_buffer("out", 4 * n * OUTS),
        code = code.display(),
    );
    let path = dir.join(format!("hostdiff_{cpu}.toml"));
    std::fs::write(&path, manifest).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_gcn-run"))
        .arg(&path)
        .arg("--json")
        .args(backend)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{cpu}: gcn-run failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    json["buffers"]["out"]["u32"]
        .as_array()
        .unwrap_or_else(|| panic!("{cpu}: no out buffer in the JSON"))
        .iter()
        .map(|v| v.as_u64().unwrap() as u32)
        .collect()
}

fn is_nan(v: u32) -> bool {
    v & 0x7f80_0000 == 0x7f80_0000 && v & 0x007f_ffff != 0
}

/// Two f16 equal half by half, any NaN equal to any NaN.
fn same_f16x2(h: u32, d: u32) -> bool {
    let nan = |x: u32| x & 0x7c00 == 0x7c00 && x & 0x3ff != 0;
    [0, 16].into_iter().all(|s| {
        let (a, b) = (h >> s & 0xffff, d >> s & 0xffff);
        a == b || nan(a) && nan(b)
    })
}

#[test]
fn hostdiff_kernel_equals_the_host_on_every_target() {
    if !have("clang-19") {
        let msg = "host_diff: clang-19 missing (apt-get install clang-19)";
        assert!(!common::is_ci(), "{msg} — CI=true requires it");
        eprintln!("SKIPPED {msg}");
        return;
    }
    let seed = common::env_number("GCNRUN_SEED", 1u64);
    // The run JSON lists at most 4,096 words of a buffer: 120 work-items × 34.
    let most = 4096 / OUTS;
    let n = common::env_number("GCNRUN_HOSTDIFF_N", most).clamp(1, most);
    let input = inputs(seed, n);
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("host-diff-{seed}"));
    std::fs::create_dir_all(&dir).unwrap();
    let host = host_outputs(&dir, &input);
    assert_eq!(host.len(), n * OUTS);
    // The CPU reference, and the GPU backend when there is an adapter
    // (lavapipe in CI; without one the GPU half fails under CI=true).
    let mut backends: Vec<(&str, &[&str])> = vec![("CPU", &[])];
    if common::gpu::gpu("hostdiff_kernel_equals_the_host_on_every_target").is_some() {
        backends.push(("GPU", &["--gpu"]));
    }
    for (cpu, (backend, flags)) in ["gfx900", "gfx1030", "gfx1100"]
        .into_iter()
        .flat_map(|c| backends.iter().map(move |b| (c, *b)))
    {
        let dev = gcnrun_outputs(&dir, cpu, flags, &input);
        assert_eq!(dev.len(), n * OUTS, "{cpu}: output size");
        let mut bad = Vec::new();
        for (k, (&h, &d)) in host.iter().zip(&dev).enumerate() {
            let slot = k % OUTS;
            // fmin/fmax of +0 and −0 may return either (IEEE 754-2008
            // minNum/maxNum; OpenCL C fmin): gcnrun orders −0 below +0
            // (docs/errata.md, "NaN results"), glibc returns the first.
            let zeros = MINMAX_OUTS.contains(&slot) && h << 1 == 0 && d << 1 == 0;
            // A double's two words: both NaN (the host's default NaN is
            // negative, gcnrun's positive), judged from its high word.
            let f64_nan = |k: usize| {
                let hi = k - (slot - F64_OUTS.start) % 2 + 1;
                let nan = |w: &[u32]| {
                    let x = u64::from(w[hi - 1]) | u64::from(w[hi]) << 32;
                    f64::from_bits(x).is_nan()
                };
                nan(&host) && nan(&dev)
            };
            let same = h == d
                || zeros
                || (is_float_out(slot) && is_nan(h) && is_nan(d))
                || (F16X2_OUTS.contains(&slot) && same_f16x2(h, d))
                || (F64_OUTS.contains(&slot) && f64_nan(k));
            if !same {
                bad.push(format!(
                    "work-item {} out[{slot}]: host {h:#010x}, gcn-run {d:#010x} (a = {:#010x})",
                    k / OUTS,
                    input[k / OUTS]
                ));
            }
        }
        assert!(
            bad.is_empty(),
            "{cpu} on the {backend}, seed {seed}: {} of {} words differ:\n{}",
            bad.len(),
            host.len(),
            bad.iter().take(20).cloned().collect::<Vec<_>>().join("\n")
        );
    }
}
