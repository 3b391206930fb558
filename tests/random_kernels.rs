//! Random OpenCL C kernels, compiled by clang-19 for tahiti (gfx6: every
//! global access a MUBUF one), gfx900, gfx1030 and gfx1100 and for the
//! host, run on the same inputs: gcn-run's CPU reference and its GPU
//! backend must give the host's output word for word.
//!
//! A kernel (`generate`) is straight code over unsigned integer and exact
//! float operations (+ − × fma, / and √ correctly rounded, floor, trunc,
//! conversions, min/max, shifts with masked counts, mul_hi, popcount, clz,
//! rotate, signed compares),
//! divergent `if`/`else` on per-item values, bounded loops whose trip count
//! is per item, an LDS exchange across the work-group (64 items: one wave64,
//! or two wave32 waves meeting at the barrier) and non-returning atomic adds.
//! The host runs the same source through `random_kernel.h` (the work-item
//! function, the builtins, and the LDS exchange as the pure function of the
//! neighbour's input it is). Nothing in a kernel is undefined in C or
//! OpenCL C (unsigned arithmetic, masked shift counts, float → integer only as
//! bits, NaNs canonicalised and zeros made positive where IEEE leaves the
//! choice open).
//!
//! `GCNRUN_SEED` picks the first seed, `GCNRUN_RANDOM_KERNELS` how many
//! kernels (default 2). Without clang-19, lld and the device libraries the
//! test fails under `CI=true` and otherwise prints `SKIPPED`; without a GPU
//! adapter only the CPU half runs (and under `CI=true` it fails).

mod common;

use rand::{Rng, SeedableRng};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Words each work-item writes.
const OUTS: usize = 8;
/// Work-items (two work-groups of 64).
const N: usize = 128;
/// Atomic counters after the per-item words.
const COUNTERS: usize = 4;

fn have(tool: &str) -> bool {
    Command::new(tool)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// A random kernel's source.
struct Gen<R: Rng> {
    rng: R,
    /// Unsigned variables defined so far.
    uints: Vec<String>,
    /// Float variables defined so far.
    floats: Vec<String>,
    body: String,
    depth: usize,
}

impl<R: Rng> Gen<R> {
    fn uvar(&mut self) -> String {
        let i = self.rng.gen_range(0..self.uints.len());
        self.uints[i].clone()
    }

    fn fvar(&mut self) -> String {
        let i = self.rng.gen_range(0..self.floats.len());
        self.floats[i].clone()
    }

    fn uconst(&mut self) -> String {
        let v: u32 = match self.rng.gen_range(0..4) {
            0 => self.rng.gen_range(0..8),
            1 => self.rng.gen_range(0..=u32::MAX),
            2 => [0x7fff_ffff, 0x8000_0000, 0xffff_ffff, 0xffff][self.rng.gen_range(0..4)],
            _ => self.rng.gen_range(0..1000),
        };
        format!("{v}u")
    }

    /// An unsigned expression of depth at most `d`.
    fn uexpr(&mut self, d: u32) -> String {
        if d == 0 || self.rng.gen_bool(0.25) {
            return if self.rng.gen_bool(0.8) {
                self.uvar()
            } else {
                self.uconst()
            };
        }
        let a = self.uexpr(d - 1);
        let b = self.uexpr(d - 1);
        match self.rng.gen_range(0..20) {
            0 => format!("({a} + {b})"),
            1 => format!("({a} - {b})"),
            2 => format!("({a} * {b})"),
            3 => format!("({a} & {b})"),
            4 => format!("({a} | {b})"),
            5 => format!("({a} ^ {b})"),
            6 => format!("({a} << ({b} & 31u))"),
            7 => format!("({a} >> ({b} & 31u))"),
            8 => format!("((uint)((int)({a}) >> ({b} & 31u)))"),
            9 => format!("MULHI_U({a}, {b})"),
            10 => format!("((uint)MULHI_S({a}, {b}))"),
            11 => format!("POPCOUNT({a})"),
            12 => format!("CLZ({a})"),
            13 => format!("ROTATE({a}, {b})"),
            14 => format!("({a} < {b} ? {a} : {b})"),
            15 => format!("((int)({a}) > (int)({b}) ? {a} : {b})"),
            16 => format!("(uint)({a} == {b})"),
            17 => {
                let f = self.fexpr(d - 1);
                format!("FBITS({f})")
            }
            18 => format!("((({a}) & 0xffffu) * (({b}) >> 16))"),
            _ => format!("(~{a})"),
        }
    }

    /// A float expression of depth at most `d`.
    fn fexpr(&mut self, d: u32) -> String {
        if d == 0 || self.rng.gen_bool(0.25) {
            return match self.rng.gen_range(0..6) {
                0 => format!("{:?}f", self.rng.gen_range(-8.0f32..8.0)),
                1 => {
                    let u = self.uvar();
                    format!("(float)({u})")
                }
                2 => {
                    let u = self.uvar();
                    format!("(float)(int)({u})")
                }
                _ => self.fvar(),
            };
        }
        let a = self.fexpr(d - 1);
        let b = self.fexpr(d - 1);
        match self.rng.gen_range(0..11) {
            0 => format!("({a} + {b})"),
            1 => format!("({a} - {b})"),
            2 => format!("({a} * {b})"),
            3 => {
                let c = self.fexpr(d - 1);
                format!("FMA({a}, {b}, {c})")
            }
            // Correctly rounded on both sides (the device is compiled with
            // -cl-fp32-correctly-rounded-divide-sqrt): v_div_scale, v_rcp,
            // v_div_fmas, v_div_fixup; v_sqrt with its correction steps.
            8 => format!("({a} / {b})"),
            9 => format!("SQRT({a})"),
            // min/max of ±0 may return either zero: + 0.0f makes it +0.
            4 => format!("(FMIN({a}, {b}) + 0.0f)"),
            5 => format!("(FMAX({a}, {b}) + 0.0f)"),
            6 => format!("FLOOR({a})"),
            7 => format!("TRUNC({a})"),
            _ => format!("({a} * 0.5f)"),
        }
    }

    fn line(&mut self, s: &str) {
        for _ in 0..self.depth + 1 {
            self.body.push_str("  ");
        }
        self.body.push_str(s);
        self.body.push('\n');
    }

    /// `n` statements; new variables only at depth 0 (they stay in scope).
    fn stmts(&mut self, n: usize) {
        for _ in 0..n {
            let choice = self.rng.gen_range(0..10);
            match choice {
                0..=3 => {
                    let e = self.uexpr(3);
                    if self.depth == 0 {
                        let v = format!("u{}", self.uints.len());
                        self.line(&format!("uint {v} = {e};"));
                        self.uints.push(v);
                    } else {
                        // Never a loop's counter (`i…`): assigning it could
                        // keep the loop from ending (found with seed 8).
                        let v = loop {
                            let v = self.uvar();
                            if !v.starts_with('i') {
                                break v;
                            }
                        };
                        self.line(&format!("{v} = {e};"));
                    }
                }
                4 | 5 => {
                    let e = self.fexpr(3);
                    if self.depth == 0 {
                        let v = format!("f{}", self.floats.len());
                        self.line(&format!("float {v} = {e};"));
                        self.floats.push(v);
                    } else {
                        let v = self.fvar();
                        self.line(&format!("{v} = {e};"));
                    }
                }
                6 | 7 if self.depth < 2 => {
                    let c = self.uvar();
                    let k = self.rng.gen_range(0..4);
                    self.line(&format!("if (({c} & 3u) == {k}u) {{"));
                    self.depth += 1;
                    let n = self.rng.gen_range(1..4);
                    self.stmts(n);
                    self.depth -= 1;
                    self.line("} else {");
                    self.depth += 1;
                    let n = self.rng.gen_range(1..3);
                    self.stmts(n);
                    self.depth -= 1;
                    self.line("}");
                }
                8 if self.depth < 2 => {
                    let c = self.uvar();
                    let i = format!("i{}", self.rng.gen_range(0..1000));
                    self.line(&format!("for (uint {i} = 0u; {i} < ({c} & 7u); {i}++) {{"));
                    self.depth += 1;
                    self.uints.push(i.clone());
                    let n = self.rng.gen_range(1..3);
                    self.stmts(n);
                    self.uints.retain(|v| *v != i);
                    self.depth -= 1;
                    self.line("}");
                }
                _ => {
                    let v = self.uvar();
                    let k = self.rng.gen_range(0..COUNTERS);
                    self.line(&format!("ATOMIC_ADD(&out[n * {OUTS}u + {k}u], {v});"));
                }
            }
        }
    }
}

/// A random kernel `rk(in, out, n)`, its source text.
fn generate(seed: u64) -> String {
    let mut g = Gen {
        rng: rand::rngs::StdRng::seed_from_u64(seed),
        uints: vec!["x".into(), "y".into(), "gid".into()],
        floats: vec!["fx".into()],
        body: String::new(),
        depth: 0,
    };
    // The LDS value of an item: a function of its input alone, so that the
    // host computes it for any neighbour.
    let lds_expr = {
        let mut h = Gen {
            rng: rand::rngs::StdRng::seed_from_u64(seed ^ 0x1d5),
            uints: vec!["v".into()],
            floats: vec!["AS_FLOAT(v & 0x3fffffffu)".into()],
            body: String::new(),
            depth: 0,
        };
        h.uexpr(3)
    };
    g.stmts(10);
    let lds_at = g.uvar();
    g.line(&format!("uint nb = LDS_READ(({lds_at}) & 63u);"));
    g.uints.push("nb".into());
    g.stmts(6);
    let mut outs = String::new();
    for k in 0..OUTS {
        let e = if k % 3 == 2 {
            let f = g.fvar();
            format!("FBITS({f})")
        } else {
            g.uvar()
        };
        // GID(), not `gid`: the statements may assign to `gid` (found with
        // seeds 3 and 20: the host stored past `out` and crashed).
        writeln!(outs, "  out[GID() * {OUTS}u + {k}u] = {e};").ok();
    }
    format!(
        r#"// Generated by tests/random_kernels.rs (seed {seed}).
static uint lds_value(uint v) {{
  return {lds_expr};
}}

__kernel void rk(__global const uint *in, __global uint *out, uint n) {{
  uint gid = GID();
  uint x = in[gid];
  uint y = in[(gid * 7u + 3u) % n];
  float fx = AS_FLOAT(x & 0xbfffffffu);
  LDS_WRITE(lds_value(x));
{body}{outs}}}
"#,
        body = g.body
    )
}

const HEADER: &str = r#"// The builtins of tests/random_kernels.rs's kernels, for the device and
// for the host (the same source on both sides).
#ifdef __OPENCL_C_VERSION__
#define GID() ((uint)get_global_id(0))
#define AS_FLOAT(x) as_float((uint)(x))
#define AS_UINT(x) as_uint(x)
#define MULHI_U(a, b) mul_hi((uint)(a), (uint)(b))
#define MULHI_S(a, b) mul_hi((int)(a), (int)(b))
#define POPCOUNT(x) popcount((uint)(x))
#define CLZ(x) clz((uint)(x))
#define ROTATE(a, b) rotate((uint)(a), (uint)(b))
#define FMA(a, b, c) fma((float)(a), (float)(b), (float)(c))
#define FMIN(a, b) fmin((float)(a), (float)(b))
#define FMAX(a, b) fmax((float)(a), (float)(b))
#define FLOOR(x) floor((float)(x))
#define TRUNC(x) trunc((float)(x))
#define SQRT(x) sqrt((float)(x))
#define ISNAN(x) isnan(x)
#define ATOMIC_ADD(p, v) atomic_add((p), (v))
#define LDS_WRITE(v) __local uint lds[64]; lds[get_local_id(0)] = (v); barrier(CLK_LOCAL_MEM_FENCE)
#define LDS_READ(j) lds[(j)]
#else
#include <math.h>
#include <stdint.h>
#include <string.h>
typedef uint32_t uint;
typedef uint64_t ulong;
#define __kernel
#define __global
extern uint rk_gid;
extern const uint *rk_in;
#define GID() rk_gid
static inline float AS_FLOAT(uint x) { float f; memcpy(&f, &x, 4); return f; }
static inline uint AS_UINT(float f) { uint x; memcpy(&x, &f, 4); return x; }
#define MULHI_U(a, b) ((uint)(((ulong)(uint)(a) * (ulong)(uint)(b)) >> 32))
#define MULHI_S(a, b) ((int)(((int64_t)(int32_t)(a) * (int64_t)(int32_t)(b)) >> 32))
#define POPCOUNT(x) ((uint)__builtin_popcount((uint)(x)))
#define CLZ(x) ((uint)(x) == 0 ? 32u : (uint)__builtin_clz((uint)(x)))
static inline uint ROTATE(uint a, uint b) { b &= 31; return b ? (a << b) | (a >> (32 - b)) : a; }
#define FMA(a, b, c) fmaf(a, b, c)
#define FMIN(a, b) fminf(a, b)
#define FMAX(a, b) fmaxf(a, b)
#define FLOOR(x) floorf(x)
#define TRUNC(x) truncf(x)
#define SQRT(x) sqrtf(x)
#define ISNAN(x) isnan(x)
#define ATOMIC_ADD(p, v) (*(p) += (v))
// The LDS exchange: the neighbour's value is a function of its input.
#define LDS_WRITE(v) ((void)0)
#define LDS_READ(j) lds_value(rk_in[(GID() & ~63u) + (j)])
#endif
// A float's bits with every NaN the same (the host's default NaN is
// negative, gcnrun's positive: docs/errata.md, "NaN results").
#define FBITS(f) (ISNAN(f) ? 0x7fc00000u : AS_UINT(f))
"#;

const HOST_MAIN: &str = r#"#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
uint32_t rk_gid;
const uint32_t *rk_in;
void rk(const uint32_t *in, uint32_t *out, uint32_t n);
int main(void) {
  uint32_t n, words;
  if (fread(&n, 4, 1, stdin) != 1 || fread(&words, 4, 1, stdin) != 1) return 2;
  uint32_t *in = malloc(4 * (size_t)n), *out = calloc(words, 4);
  if (fread(in, 4, n, stdin) != n) return 2;
  rk_in = in;
  for (uint32_t i = 0; i < n; i++) { rk_gid = i; rk(in, out, n); }
  fwrite(out, 4, words, stdout);
  return 0;
}
"#;

fn inputs(seed: u64) -> Vec<u32> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed ^ 0x1a9u64);
    (0..N)
        .map(|_| match rng.gen_range(0..5) {
            0 => [0, 1, 0xffff_ffff, 0x8000_0000, 0x7fff_ffff, 0x3f80_0000][rng.gen_range(0..6)],
            1 => rng.gen_range(0..64),
            2 => (rng.gen_range(-100.0f32..100.0)).to_bits(),
            _ => rng.gen(),
        })
        .collect()
}

fn host_outputs(dir: &Path, src: &Path, input: &[u32]) -> Vec<u32> {
    let main = dir.join("main.c");
    std::fs::write(&main, HOST_MAIN).unwrap();
    let exe = src.with_extension("host");
    let status = Command::new("clang-19")
        .args([
            "-std=c11",
            "-O1",
            "-ffp-contract=off",
            "-fno-fast-math",
            "-x",
            "c",
        ])
        .arg("-include")
        .arg(dir.join("random_kernel.h"))
        .arg(src)
        .args(["-x", "none"])
        .arg(&main)
        .args(["-lm", "-o"])
        .arg(&exe)
        .status()
        .unwrap();
    assert!(
        status.success(),
        "clang-19 (host) failed on {}",
        src.display()
    );
    let words = (N * OUTS + COUNTERS) as u32;
    let mut bytes = (N as u32).to_le_bytes().to_vec();
    bytes.extend(words.to_le_bytes());
    bytes.extend(input.iter().flat_map(|v| v.to_le_bytes()));
    let input_file = src.with_extension("input");
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

/// The device library directory with gfx1100's ISA-version bitcode added
/// (Debian's rocm-device-libs lacks it; assets/kernels/regen.sh does the same).
fn device_libs(dir: &Path) -> PathBuf {
    let libs = dir.join("libs");
    if libs.join("oclc_isa_version_1100.bc").exists() {
        return libs;
    }
    std::fs::create_dir_all(&libs).unwrap();
    let bc = std::env::var("ROCM_DEVICE_LIBS")
        .unwrap_or_else(|_| "/usr/lib/x86_64-linux-gnu/amdgcn/bitcode".into());
    for e in std::fs::read_dir(&bc).unwrap() {
        let p = e.unwrap().path();
        let to = libs.join(p.file_name().unwrap());
        if !to.exists() {
            std::fs::copy(&p, &to).unwrap();
        }
    }
    let ll = libs.join("isa1100.ll");
    std::fs::write(
        &ll,
        "target datalayout = \"e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9\"\ntarget triple = \"amdgcn-amd-amdhsa\"\n@__oclc_ISA_version = linkonce_odr hidden local_unnamed_addr addrspace(4) constant i32 11000, align 4\n",
    )
    .unwrap();
    let status = Command::new("llvm-as-19")
        .arg(&ll)
        .arg("-o")
        .arg(libs.join("oclc_isa_version_1100.bc"))
        .status()
        .unwrap();
    assert!(status.success(), "llvm-as-19 failed");
    libs
}

fn compile_device(dir: &Path, src: &Path, libs: &Path, cpu: &str) -> PathBuf {
    let stem = src.file_stem().unwrap().to_string_lossy();
    let out = dir.join(format!("{stem}_{cpu}.hsaco"));
    let status = Command::new("clang-19")
        // tahiti (gfx6) has no flat address space: OpenCL 1.2 there, as
        // assets/kernels/regen.sh builds it.
        .args(["-x", "cl", "-cl-kernel-arg-info"])
        .arg(if cpu == "tahiti" {
            "-cl-std=CL1.2"
        } else {
            "-cl-std=CL2.0"
        })
        // LLVM flushes f32 denormals by default on gfx6 (no full-rate
        // denormal support there); the host keeps them, so ask for IEEE
        // denormals everywhere (the kernel descriptor's FLOAT_DENORM_MODE_32
        // then says so, and gcnrun follows the descriptor).
        .args(["-Xclang", "-fdenormal-fp-math-f32=ieee"])
        .args(["-target", "amdgcn-amd-amdhsa", "-O2", "-ffp-contract=off"])
        .arg("-cl-fp32-correctly-rounded-divide-sqrt")
        .arg(format!("-mcpu={cpu}"))
        .arg(format!("--rocm-device-lib-path={}", libs.display()))
        .arg("-include")
        .arg(dir.join("random_kernel.h"))
        .arg(src)
        .arg("-o")
        .arg(&out)
        .status()
        .unwrap();
    assert!(
        status.success(),
        "clang-19 ({cpu}) failed on {}",
        src.display()
    );
    out
}

fn gcnrun_outputs(code: &Path, flags: &[&str], input: &[u32]) -> Result<Vec<u32>, String> {
    let words: Vec<String> = input.iter().map(|v| v.to_string()).collect();
    let manifest = format!(
        "code = \"{}\"\n\n[kernel]\ngrid = [{N}]\nblock = [64]\n\n[kernel.args]\nin = {{ buffer = \"in\" }}\nout = {{ buffer = \"out\" }}\nn = {{ u32 = {N} }}\n\n[[buffer]]\nname = \"in\"\nbytes = {}\ndata = {{ \"0x0\" = {{ u32 = [{}] }} }}\n\n[[buffer]]\nname = \"out\"\nbytes = {}\n",
        code.display(),
        4 * N,
        words.join(", "),
        4 * (N * OUTS + COUNTERS)
    );
    let path = code.with_extension("toml");
    std::fs::write(&path, manifest).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_gcn-run"))
        .arg(&path)
        .arg("--json")
        .args(flags)
        .output()
        .unwrap();
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    Ok(json["buffers"]["out"]["u32"]
        .as_array()
        .ok_or("no out buffer in the JSON")?
        .iter()
        .map(|v| v.as_u64().unwrap() as u32)
        .collect())
}

#[test]
fn random_kernels_equal_the_host_on_cpu_and_gpu() {
    for tool in ["clang-19", "llvm-as-19"] {
        if !have(tool) {
            let msg = format!("random_kernels: {tool} missing (apt-get install clang-19 llvm-19 lld-19 rocm-device-libs)");
            assert!(!common::is_ci(), "{msg} — CI=true requires it");
            eprintln!("SKIPPED {msg}");
            return;
        }
    }
    let first = common::env_number("GCNRUN_SEED", 1u64);
    let count = common::env_number("GCNRUN_RANDOM_KERNELS", 2u64);
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("random-kernels");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("random_kernel.h"), HEADER).unwrap();
    let libs = device_libs(&dir);
    let mut backends: Vec<(&str, &[&str])> = vec![("CPU", &[])];
    if common::gpu::gpu("random_kernels_equal_the_host_on_cpu_and_gpu").is_some() {
        backends.push(("GPU", &["--gpu"]));
    }
    let mut bad = Vec::new();
    for seed in first..first + count {
        let text = generate(seed);
        let src = dir.join(format!("rk_{seed}.cl"));
        std::fs::write(&src, &text).unwrap();
        let input = inputs(seed);
        let host = host_outputs(&dir, &src, &input);
        for cpu in ["tahiti", "gfx900", "gfx1030", "gfx1100"] {
            let code = compile_device(&dir, &src, &libs, cpu);
            for (backend, flags) in &backends {
                let dev = match gcnrun_outputs(&code, flags, &input) {
                    Ok(d) => d,
                    Err(e) => {
                        bad.push(format!("seed {seed}, {cpu} on the {backend}: {e}"));
                        continue;
                    }
                };
                let diffs: Vec<String> = host
                    .iter()
                    .zip(&dev)
                    .enumerate()
                    .filter(|(_, (h, d))| h != d)
                    .take(5)
                    .map(|(k, (h, d))| format!("word {k}: host {h:#010x}, gcn-run {d:#010x}"))
                    .collect();
                if !diffs.is_empty() || dev.len() != host.len() {
                    bad.push(format!(
                        "seed {seed}, {cpu} on the {backend} ({}): {}",
                        src.display(),
                        diffs.join("; ")
                    ));
                }
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
