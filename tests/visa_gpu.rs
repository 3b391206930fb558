//! Intel vISA programs on the GPU against the CPU reference: every
//! launch under `assets/visa/` (not `bin/`), and random sequences of the ALU operations
//! (`mov add mul sel or shl and xor not shr asr rndd rndu rnde rndz cmp setp`, `.sat`, every executed type, regions,
//! Mk/_NM exec masks, predicates with `!`/`.any`/`.all`) generated as
//! `.visaasm` text from fixed seeds. Both must give zero differences. The
//! modules are also validated by naga without a GPU.

mod common;

use gcnrun::gpu;
use gcnrun::launch::run::{prepare_manifest, run_cpu, run_diff, Prepared};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

fn prepare(path: &Path) -> Prepared {
    prepare_manifest(path, None, None, None).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Runs both backends; panics unless they agree bit for bit and the
/// launch's `[intel.expect]` holds on the GPU.
fn assert_equal(name: &str, p: Prepared, g: &gpu::Gpu) {
    let d = run_diff(p, g).unwrap_or_else(|e| panic!("{name}: {e:?}"));
    assert_eq!(
        d.report.count,
        0,
        "{name}: {} difference(s), first {:?}",
        d.report.count,
        d.report.mismatches.first()
    );
    assert!(
        d.gpu.mismatches.is_empty(),
        "{name}: {:?}",
        d.gpu.mismatches
    );
}

#[test]
fn every_visa_asset_equals_the_cpu() {
    let test = "every_visa_asset_equals_the_cpu";
    let Some(g) = common::gpu::gpu(test) else {
        return;
    };
    let assets = common::launches::visa_manifests();
    assert!(assets.len() >= 11, "{assets:?}");
    for path in assets {
        assert_equal(&path.display().to_string(), prepare(&path), g);
    }
}

#[test]
fn visa_modules_validate_without_a_gpu() {
    let mut launches: Vec<(String, Prepared)> = common::launches::visa_manifests()
        .iter()
        .map(|p| (p.display().to_string(), prepare(p)))
        .collect();
    launches.extend((0..PROGRAMS).map(|seed| (format!("random {seed}"), random_launch(seed))));
    for (name, p) in launches {
        let tr = gpu::translate::translate(&p.prog, &p.waves, &p.memory)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        for k in &tr.kernels {
            if let Err(e) = gpu::wgsl::validate(&k.wgsl) {
                panic!("{name}: {e}");
            }
        }
    }
}

/// Random programs: each runs on both backends with zero differences.
#[test]
fn random_grf_programs_equal_the_cpu() {
    let test = "random_grf_programs_equal_the_cpu";
    let Some(g) = common::gpu::gpu(test) else {
        return;
    };
    for seed in 0..PROGRAMS {
        assert_equal(&format!("random program {seed}"), random_launch(seed), g);
    }
}

/// A `scatter4_scaled` to an address that is not dword-aligned stops the
/// CPU run with an error naming the line; the GPU run reports the same line.
#[test]
fn a_misaligned_scatter_is_an_error_on_both_backends() {
    let test = "a_misaligned_scatter_is_an_error_on_both_backends";
    let dir = scratch();
    let code = ".version 4.1\n.kernel \"k\"\n.decl OFF v_type=G type=ud num_elts=16 align=GRF\n.decl DATA v_type=G type=ud num_elts=16 align=GRF\n.decl T6 v_type=T num_elts=1\n.kernel_attr SimdSize=16\n    mov (M1, 16) DATA(0,0)<1> 0x7:ud\n    shl (M1, 16) OFF(0,0)<1> DATA(0,0)<1;1,0> 0x1:ud\n    movs (M1_NM, 1) T6(0) 0x0:ud\n    scatter4_scaled.R (M1, 16) T6 0x0:ud OFF.0 DATA.0\n    ret (M1, 1)\n";
    std::fs::write(dir.join("misaligned.visaasm"), code).unwrap();
    let manifest = dir.join("misaligned.toml");
    std::fs::write(
        &manifest,
        "code = \"misaligned.visaasm\"\n[intel]\nbinding_table = { 0 = \"out\" }\n[[buffer]]\nname = \"out\"\nbytes = 256\n",
    )
    .unwrap();
    let cpu = run_cpu(prepare(&manifest)).expect_err("the CPU refuses it");
    assert!(cpu.to_string().contains("line 10"), "{cpu}");
    let Some(g) = common::gpu::gpu(test) else {
        return;
    };
    let e = gcnrun::launch::run::run_gpu(prepare(&manifest), g).expect_err("the GPU too");
    let text = e.to_string();
    assert!(
        text.contains("line 10") && text.contains("dword-aligned"),
        "{text}"
    );
}

/// A loop that never ends stops at the jump budget (MAX_BACK_JUMPS backward
/// jumps per thread) with an error naming its backward branch, on the CPU
/// and on the GPU alike: neither hangs, and the GPU does not end it early
/// without a word (llvmpipe stops loops after 65535 iterations by itself).
#[test]
fn a_loop_that_never_ends_stops_at_the_step_budget_on_both_backends() {
    let test = "a_loop_that_never_ends_stops_at_the_step_budget_on_both_backends";
    let dir = scratch();
    // The counter N (`_NM`) shows how many trips ran before the stop.
    let code = ".version 4.1\n.kernel \"k\"\n.decl N v_type=G type=ud num_elts=16 align=GRF\n.kernel_attr SimdSize=16\nL:\n    add (M1_NM, 1) N(0,0)<1> N(0,0)<0;1,0> 0x1:ud\n    goto (M1, 16) L\n";
    std::fs::write(dir.join("endless.visaasm"), code).unwrap();
    let manifest = dir.join("endless.toml");
    std::fs::write(
        &manifest,
        "code = \"endless.visaasm\"\n[intel]\nsimd = 16\n",
    )
    .unwrap();
    let budget = gcnrun::ir::visa::MAX_BACK_JUMPS;
    let cpu = run_cpu(prepare(&manifest)).expect_err("the CPU stops it");
    let text = cpu.to_string();
    assert!(
        text.contains("line 7") && text.contains(&format!("more than {budget} backward jumps")),
        "{text}"
    );
    let Some(g) = common::gpu::gpu(test) else {
        return;
    };
    let e = gcnrun::launch::run::run_gpu(prepare(&manifest), g).expect_err("the GPU too");
    let text = e.to_string();
    assert!(
        text.contains("line 7") && text.contains(&format!("more than {budget} backward jumps")),
        "{text}"
    );
    // One trip short of the budget's end runs to completion on both, with
    // the same count: a loop of budget + 1 trips (budget backward jumps).
    let code = code
        .replace(
            ".kernel_attr",
            ".decl P1 v_type=P num_elts=16\n.kernel_attr",
        )
        .replace(
            "    goto (M1, 16) L",
            &format!(
                "    cmp.lt (M1_NM, 16) P1 N(0,0)<0;1,0> {}:ud\n    (P1) goto (M1, 16) L",
                budget + 1
            ),
        );
    std::fs::write(dir.join("endless.visaasm"), code).unwrap();
    std::fs::write(
        &manifest,
        format!(
            "code = \"endless.visaasm\"\n[intel]\nsimd = 16\n[intel.expect]\nN = {{ ud = [{}] }}\n",
            budget + 1
        ),
    )
    .unwrap();
    let out = run_cpu(prepare(&manifest)).unwrap();
    assert!(out.mismatches.is_empty(), "{:?}", out.mismatches);
    assert_equal("budget + 1 trips", prepare(&manifest), g);
}

// ---- the random program generator ----

const PROGRAMS: u64 = 32;
const INSTRUCTIONS: usize = 24;

/// xorshift64*: a fixed sequence per seed, no dependency.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn pick<'a, T>(&mut self, v: &'a [T]) -> &'a T {
        &v[self.below(v.len() as u64) as usize]
    }
    fn chance(&mut self, one_in: u64) -> bool {
        self.below(one_in) == 0
    }
}

/// A variable of the random programs: name, type, element size, elements,
/// byte offset in the payload block `RAW`.
struct Var {
    name: &'static str,
    ty: &'static str,
    size: u32,
    elts: u32,
    at: u32,
}

/// `FA`/`HA` hold finite values of bounded magnitude and are the only
/// float sources of `add`/`mul`, so no float arithmetic produces a NaN
/// (whose payload a GPU may choose differently; docs/gpu.md). Every other
/// variable starts with random bits: NaNs, infinities, denormals included.
const VARS: &[Var] = &[
    var("FA", "f", 4, 32, 0),
    var("HA", "hf", 2, 32, 128),
    var("VUD", "ud", 4, 64, 192),
    var("VD", "d", 4, 64, 448),
    var("VUW", "uw", 2, 64, 704),
    var("VW", "w", 2, 64, 832),
    var("VUB", "ub", 1, 64, 960),
    var("VB", "b", 1, 64, 1024),
    var("VUQ", "uq", 8, 32, 1088),
    var("VQ", "q", 8, 32, 1344),
    var("VF", "f", 4, 64, 1600),
    var("VHF", "hf", 2, 64, 1856),
];
const RAW_BYTES: u32 = 1984;

const fn var(name: &'static str, ty: &'static str, size: u32, elts: u32, at: u32) -> Var {
    Var {
        name,
        ty,
        size,
        elts,
        at,
    }
}

/// Source regions `<v;w,h>`.
const REGIONS: &[(u32, u32, u32)] = &[
    (1, 1, 0),
    (0, 1, 0),
    (2, 1, 0),
    (0, 4, 1),
    (4, 4, 1),
    (8, 4, 2),
    (16, 8, 2),
];
/// `(Mk, N)` pairs that stay inside 32 channels.
const EXECS: &[(u32, u32)] = &[
    (1, 32),
    (1, 16),
    (5, 16),
    (1, 8),
    (3, 8),
    (7, 8),
    (2, 4),
    (1, 1),
];

fn var_named(name: &str) -> &'static Var {
    VARS.iter().find(|v| v.name == name).unwrap()
}

fn writable(r: &mut Rng) -> &'static Var {
    &VARS[2 + r.below(VARS.len() as u64 - 2) as usize]
}

fn int_vars() -> Vec<&'static Var> {
    VARS.iter().filter(|v| !v.ty.ends_with('f')).collect()
}

/// A destination `V(0,col)<h>` that fits `n` elements.
fn dst(r: &mut Rng, v: &Var, n: u32) -> String {
    let h = if r.chance(3) && 2 * (n - 1) < v.elts {
        2
    } else {
        1
    };
    let span = (n - 1) * h + 1;
    let col = r.below(u64::from(v.elts - span + 1).min(8)) as u32;
    format!("{}(0,{col})<{h}>", v.name)
}

/// A source region of `v` for `n` elements, with an optional modifier.
fn region(r: &mut Rng, v: &Var, n: u32, mods: bool) -> String {
    let (vs, w, h) = *r.pick(REGIONS);
    let last = (0..n)
        .map(|i| (i / w) * vs + (i % w) * h)
        .max()
        .unwrap_or(0);
    let (vs, w, h, col) = if last < v.elts {
        let col = r.below(u64::from(v.elts - last).min(8)) as u32;
        (vs, w, h, col)
    } else {
        (0, 1, 0, r.below(u64::from(v.elts)) as u32)
    };
    let m = if mods {
        *r.pick(&["", "", "", "(-)", "(abs)", "(-abs)"])
    } else {
        ""
    };
    format!("{m}{}(0,{col})<{vs};{w},{h}>", v.name)
}

/// An immediate of type `ty`; float immediates are finite (`finite`:
/// bounded too).
fn imm(r: &mut Rng, ty: &str, finite: bool) -> String {
    let bits = match ty {
        "f" if finite => bounded_f32(r),
        "f" => u64::from(special_u32(r)),
        "hf" => bounded_f16(r),
        "ud" | "d" => u64::from(special_u32(r)),
        "uw" | "w" => r.next() & 0xffff,
        "ub" | "b" => r.next() & 0xff,
        _ => r.next(),
    };
    format!("0x{bits:x}:{ty}")
}

fn bounded_f32(r: &mut Rng) -> u64 {
    match r.below(8) {
        0 => 0,
        1 => 0x8000_0000,
        2 => r.next() & 0x007f_ffff | (r.next() & 0x8000_0000), // denormal
        _ => {
            let e = 107 + r.below(40);
            (r.next() & 0x8000_0000) | (e << 23) | (r.next() & 0x7f_ffff)
        }
    }
}

fn bounded_f16(r: &mut Rng) -> u64 {
    match r.below(8) {
        0 => 0,
        1 => r.next() & 0x83ff, // denormal
        _ => {
            let e = 1 + r.below(24);
            (r.next() & 0x8000) | (e << 10) | (r.next() & 0x3ff)
        }
    }
}

/// Random bits with the interesting patterns often.
fn special_u32(r: &mut Rng) -> u32 {
    const SPECIAL: [u32; 10] = [
        0x7fc0_0001,
        0xff80_0000,
        0x7f80_0000,
        0x8000_0000,
        0xffff_ffff,
        0x4f00_0000,
        0xdf00_0000,
        0x3f80_0000,
        0x0000_0001,
        0x3eff_ffff,
    ];
    if r.chance(2) {
        *r.pick(&SPECIAL)
    } else {
        r.next() as u32
    }
}

fn pred(r: &mut Rng) -> String {
    let p = r.pick(&["P1", "P2"]);
    let inv = if r.chance(3) { "!" } else { "" };
    let ctrl = r.pick(&["", "", "", ".any", ".all"]);
    format!("({inv}{p}{ctrl}) ")
}

/// A source of any type: a region of any variable, or an immediate.
fn any_src(r: &mut Rng, n: u32, mods: bool) -> String {
    if r.chance(4) {
        let ty = r.pick(&["ud", "d", "uw", "w", "f", "hf", "q", "uq"]);
        imm(r, ty, false)
    } else {
        let v = r.pick(VARS);
        region(r, v, n, mods)
    }
}

fn int_src(r: &mut Rng, n: u32, mods: bool) -> String {
    let ints = int_vars();
    if r.chance(4) {
        let ty = r.pick(&["ud", "d", "uw", "w", "q", "uq"]);
        imm(r, ty, false)
    } else {
        let v = *r.pick(&ints);
        region(r, v, n, mods)
    }
}

fn instruction(r: &mut Rng) -> String {
    let (k, n) = *r.pick(EXECS);
    let nm = if r.chance(4) { "_NM" } else { "" };
    let exec = format!("(M{k}{nm}, {n})");
    let p = if r.chance(4) { pred(r) } else { String::new() };
    let sat = |r: &mut Rng| if r.chance(4) { ".sat" } else { "" };
    match r.below(13) {
        0 | 1 => {
            let d = writable(r);
            let s = sat(r);
            format!("{p}mov{s} {exec} {} {}", dst(r, d, n), any_src(r, n, true))
        }
        2 => {
            // Float arithmetic: one type for every operand (IGC's rule).
            let (src, dv, ty) = if r.chance(2) {
                ("FA", "VF", "f")
            } else {
                ("HA", "VHF", "hf")
            };
            let op = r.pick(&["add", "mul"]);
            let s = sat(r);
            let a = region(r, var_named(src), n, true);
            let b = if r.chance(3) {
                imm(r, ty, true)
            } else {
                region(r, var_named(src), n, true)
            };
            format!("{p}{op}{s} {exec} {} {a} {b}", dst(r, var_named(dv), n))
        }
        3 | 4 => {
            let op = r.pick(&["add", "mul", "or", "shl"]);
            let arith = matches!(*op, "add" | "mul");
            let ints = int_vars();
            let d = *r.pick(&ints);
            let s = if arith { sat(r) } else { "" };
            let a = int_src(r, n, arith);
            let b = int_src(r, n, arith);
            format!("{p}{op}{s} {exec} {} {a} {b}", dst(r, d, n))
        }
        5 => {
            let d = writable(r);
            let s = sat(r);
            let a = any_src(r, n, true);
            let b = any_src(r, n, true);
            format!("{}sel{s} {exec} {} {a} {b}", pred(r), dst(r, d, n))
        }
        6 | 7 => {
            let rel = r.pick(&["eq", "ne", "gt", "ge", "lt", "le"]);
            let grf = r.chance(3);
            // A modifier may follow a predicate destination (`P2 (-)X(..)`).
            let a = any_src(r, n, true);
            let b = any_src(r, n, true);
            let to = if grf {
                let ints = int_vars();
                let d = *r.pick(&ints);
                dst(r, d, n)
            } else {
                r.pick(&["P1", "P2"]).to_string()
            };
            format!("cmp.{rel} {exec} {to} {a} {b}")
        }
        9 => {
            // Logic: integer operands, no source modifier (AND.md, NOT.md).
            let op = *r.pick(&["and", "xor", "not", "or"]);
            let ints = int_vars();
            let d = *r.pick(&ints);
            let a = int_src(r, n, false);
            let b = if op == "not" {
                String::new()
            } else {
                format!(" {}", int_src(r, n, false))
            };
            format!("{p}{op} {exec} {} {a}{b}", dst(r, d, n))
        }
        10 => {
            // shr: unsigned dst and src0; asr: signed (SHR.md, ASR.md).
            let signed = r.chance(2);
            let (op, tys): (&str, &[&str]) = if signed {
                ("asr", &["d", "w", "q"])
            } else {
                ("shr", &["ud", "uw", "uq"])
            };
            let vars: Vec<&Var> = VARS
                .iter()
                .filter(|v| !v.ty.ends_with('f') && v.ty.starts_with('u') != signed)
                .collect();
            let d = *r.pick(&vars);
            let s = sat(r);
            let a = if r.chance(4) {
                let ty = *r.pick(tys);
                imm(r, ty, false)
            } else {
                let v = *r.pick(&vars);
                region(r, v, n, true)
            };
            let b = int_src(r, n, true);
            format!("{p}{op}{s} {exec} {} {a} {b}", dst(r, d, n))
        }
        11 | 12 => {
            // Roundings: F only (RNDD.md); VF's random bits bring NaNs,
            // infinities and denormals.
            let op = r.pick(&["rndd", "rndu", "rnde", "rndz"]);
            let s = sat(r);
            let a = if r.chance(4) {
                imm(r, "f", false)
            } else {
                let name = if r.chance(2) { "FA" } else { "VF" };
                let v = var_named(name);
                region(r, v, n, true)
            };
            format!("{p}{op}{s} {exec} {} {a}", dst(r, var_named("VF"), n))
        }
        _ => {
            let src = if r.chance(2) {
                imm(r, "ud", false)
            } else {
                let ints = int_vars();
                let v = *r.pick(&ints);
                format!("{}(0,0)<0;1,0>", v.name)
            };
            format!("setp {exec} {} {src}", r.pick(&["P1", "P2"]))
        }
    }
}

/// The `.visaasm` text and manifest of random program `seed`.
fn random_program(seed: u64) -> (String, String) {
    let mut r = Rng::new(seed);
    let simd = *r.pick(&[16u32, 32]);
    let mut code = String::from(".version 4.1\n.kernel \"random\"\n");
    writeln!(
        code,
        ".decl RAW v_type=G type=ud num_elts={} align=GRF",
        RAW_BYTES / 4
    )
    .unwrap();
    for v in VARS {
        assert!(
            v.at + v.size * v.elts <= RAW_BYTES,
            "{} lies inside RAW",
            v.name
        );
        writeln!(
            code,
            ".decl {} v_type=G type={} num_elts={} align=GRF alias=<RAW, {}>",
            v.name, v.ty, v.elts, v.at
        )
        .unwrap();
    }
    code.push_str(".decl P1 v_type=P num_elts=32\n.decl P2 v_type=P num_elts=32\n");
    // The loop's trip counts and counters, apart from RAW (so the random
    // instructions leave them alone), and its predicate.
    code.push_str(".decl LC v_type=G type=ud num_elts=32 align=GRF\n.decl LI v_type=G type=ud num_elts=32 align=GRF\n.decl P3 v_type=P num_elts=32\n");
    writeln!(code, ".input RAW offset=32 size={RAW_BYTES}").unwrap();
    writeln!(code, ".kernel_attr SimdSize={simd}").unwrap();
    // Odd seeds wrap half the instructions in a divergent loop: channel c
    // runs it 1 + (VUD[c] & 3) times (VUD's random bits, read before any
    // instruction writes them). Decided by the seed alone, so the random
    // sequence (and the instructions) stay those of the seed.
    let looped = seed % 2 == 1;
    let start = (seed as usize * 7) % (INSTRUCTIONS / 2);
    if looped {
        writeln!(
            code,
            "    and (M1, {simd}) LC(0,0)<1> VUD(0,0)<1;1,0> 0x3:ud"
        )
        .unwrap();
        writeln!(code, "    mov (M1, {simd}) LI(0,0)<1> 0x0:ud").unwrap();
    }
    for k in 0..INSTRUCTIONS {
        if looped && k == start {
            code.push_str("LOOP:\n");
        }
        writeln!(code, "    {}", instruction(&mut r)).unwrap();
        if looped && k == start + INSTRUCTIONS / 2 {
            writeln!(
                code,
                "    add (M1, {simd}) LI(0,0)<1> LI(0,0)<1;1,0> 0x1:ud"
            )
            .unwrap();
            writeln!(
                code,
                "    cmp.le (M1, {simd}) P3 LI(0,0)<1;1,0> LC(0,0)<1;1,0>"
            )
            .unwrap();
            writeln!(code, "    (P3) goto (M1, {simd}) LOOP").unwrap();
        }
    }
    code.push_str("    ret (M1, 1)\n");
    // RAW's dwords: bounded floats in FA, bounded halves in HA, bits elsewhere.
    let words: Vec<String> = (0..RAW_BYTES / 4)
        .map(|k| {
            let b = k * 4;
            let w = if b < 128 {
                bounded_f32(&mut r)
            } else if b < 192 {
                bounded_f16(&mut r) | bounded_f16(&mut r) << 16
            } else {
                u64::from(special_u32(&mut r))
            };
            w.to_string()
        })
        .collect();
    let manifest = format!(
        "code = \"random_{seed}.visaasm\"\n[intel]\nsimd = {simd}\n[intel.input]\nRAW = {{ ud = [{}] }}\n",
        words.join(", ")
    );
    (code, manifest)
}

fn scratch() -> PathBuf {
    let d = std::env::temp_dir().join(format!("gcnrun-visa-gpu-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Writes random program `seed` to files of its own and prepares it. Two
/// tests build the same seeds on parallel threads, so each call gets its own
/// directory: a shared file could be read while the other thread rewrites it.
fn random_launch(seed: u64) -> Prepared {
    static SERIAL: AtomicUsize = AtomicUsize::new(0);
    let (code, manifest) = random_program(seed);
    let dir = scratch().join(SERIAL.fetch_add(1, Ordering::Relaxed).to_string());
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(format!("random_{seed}.visaasm")), &code).unwrap();
    let path = dir.join(format!("random_{seed}.toml"));
    std::fs::write(&path, manifest).unwrap();
    prepare_manifest(&path, None, None, None)
        .unwrap_or_else(|e| panic!("random program {seed}: {e}\n{code}"))
}

/// A program whose GRF is larger than the workgroup memory the GPU grants is
/// refused before it runs: exit 2, one line naming the program, no `line 0`
/// (the refusal is about the program as a whole; the launch fuzzer met it).
#[test]
fn a_grf_too_large_for_the_gpu_is_refused_naming_the_program() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/visa");
    let text = std::fs::read_to_string(dir.join("hand_ops_simd16.visaasm")).unwrap();
    // 4096 floats (16 KiB) used at their last rows: past the 15360 bytes.
    let big = text
        .replacen(
            ".decl U ",
            ".decl BIG v_type=G type=f num_elts=4096 align=GRF\n.decl U ",
            1,
        )
        .replacen(
            "    ret ",
            "    mov (M1, 16) BIG(496,0)<1> 0x0:f\n    ret ",
            1,
        );
    assert_ne!(big, text);
    let scratch = std::env::temp_dir().join(format!("gcnrun-visa-big-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    let program = scratch.join("big.visaasm");
    std::fs::write(&program, &big).unwrap();
    let manifest = dir.join("hand_ops_simd16.toml");
    // The CPU runs it: only the GPU's workgroup memory is too small.
    let p = gcnrun::launch::run::prepare_visa(&manifest, &program, None).unwrap();
    gcnrun::launch::run::run_cpu(p).unwrap();
    if common::gpu::gpu("a_grf_too_large_for_the_gpu_is_refused_naming_the_program").is_none() {
        return;
    }
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_gcn-run"))
        .args(["--gpu", program.to_str().unwrap(), "--manifest"])
        .arg(&manifest)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(
        err.contains("big.visaasm: GPU backend: the program's GRF needs"),
        "{err}"
    );
    assert!(!err.contains("line 0"), "{err}");
    let _ = std::fs::remove_dir_all(&scratch);
}
