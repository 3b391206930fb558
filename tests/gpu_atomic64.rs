//! 64-bit image atomics on both GPU paths (docs/gpu.md, "Memory"): native
//! 64-bit atomics on a device with `device::INT64_ATOMICS`, and the portable
//! fallback (lanes take turns, one dispatch per wave) on a device opened
//! without them. Every 64-bit atomic of `assets/atomics64.s` runs alone with
//! 256 lanes (4 waves) on 5 texels and one out of bounds, GLC on, and the atomics kernels of the
//! other GPU tests run too; each path must give zero differences from the CPU,
//! contended returns checked against a serial order by `diff::linearize`.
//!
//! Without an adapter (or, for the native path, without the features) the
//! tests fail under `CI=true` (lavapipe has both) and otherwise print
//! `SKIPPED` with the reason.

mod common;

use gcnrun::gpu::{self, translate, wgsl};
use gcnrun::launch::run::{run_diff, Prepared};
use std::sync::OnceLock;

const WAVES: usize = 4;
/// Texels of the images, which the lanes share; lanes also address texel
/// `TEXELS`, out of bounds (no write, GLC returns 0).
const TEXELS: u32 = 5;

fn ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true")
}

/// The adapter with its int64 atomics (the default device).
fn native_gpu(test: &str) -> Option<&'static gpu::Gpu> {
    let g = common::gpu::gpu(test)?;
    if g.int64_atomics {
        return Some(g);
    }
    let why = format!(
        "{} has no SHADER_INT64 + SHADER_INT64_ATOMIC_ALL_OPS",
        gpu::device::describe(&g.info)
    );
    assert!(!ci(), "{test}: {why} under CI=true (lavapipe has them)");
    println!("SKIPPED {test}: {why}");
    None
}

/// The same adapter opened without int64 atomics, as one that lacks them.
fn fallback_gpu(test: &str) -> Option<&'static gpu::Gpu> {
    static GPU: OnceLock<Result<gpu::Gpu, String>> = OnceLock::new();
    let g = GPU.get_or_init(|| {
        gpu::device::open_with(
            std::env::var("GCNRUN_ADAPTER").ok().as_deref(),
            gpu::device::Request {
                int64_atomics: false,
            },
        )
        .map_err(|e| e.to_string())
    });
    match g {
        Ok(g) => {
            assert!(!g.int64_atomics, "opened without int64 atomics");
            Some(g)
        }
        Err(e) if ci() => panic!("{test}: no GPU adapter under CI=true: {e}"),
        Err(e) => {
            println!("SKIPPED {test}: {e}");
            None
        }
    }
}

/// The initial image and the operands of one operation: (init, v2, v3, v4,
/// v5) — data low/high, compare low/high. Chosen so that values move on
/// every texel: random 64-bit data for the arithmetic, bitwise and ordering
/// operations; per-texel limits for INC/DEC (the texel number + 3) so that
/// they wrap; for the compare-swaps a zero image and compare values that a
/// cycle of data values meets (some compare values differ only in the high
/// word, or are −0).
fn operands(op: &str) -> [&'static str; 5] {
    match op {
        "inc" | "dec" => ["noise", "3 + (lane * 7 + wave * 3) % 6", "0", "0", "0"],
        "cmpswap" => [
            "zero",
            "(lane % 4 + 1) % 4",
            "0",
            "lane % 4",
            "(lane % 8) / 4",
        ],
        "fcmpswap" => [
            "zero",
            "(lane % 4 + 1) % 4",
            "0",
            "lane % 4",
            "(lane % 8) / 4 * 2147483648",
        ],
        _ => [
            "noise",
            "lane * 2654435761 + wave * 40503 + 7",
            "lane * 1103515245 + 12345 * wave + 3",
            "0",
            "0",
        ],
    }
}

/// One launch per instruction of `assets/atomics64.bin`: the instruction and
/// the final `s_endpgm`, named by its operation.
fn launches() -> Vec<(String, Prepared)> {
    let assets = common::launches::assets();
    let bin = std::fs::read(assets.join("atomics64.bin")).unwrap();
    let program = gcnrun::input::load_file(&assets.join("atomics64.bin")).unwrap();
    let arch = gcnrun::Arch::parse("bonaire").unwrap();
    let decoded = gcnrun::launch::run::prepare_default(&program, arch, None, None).unwrap();
    let ops = &decoded.prog.ops;
    let end = &bin[bin.len() - 4..];
    assert_eq!(
        end,
        [0x00, 0x00, 0x81, 0xbf],
        "atomics64.s ends in s_endpgm"
    );
    let mut out = Vec::new();
    for pair in ops.windows(2) {
        let (at, gcnrun::ir::Op::Image(m)) = (&pair[0].0, &pair[0].1) else {
            continue;
        };
        let op = m.name().strip_prefix("image_atomic_").unwrap().to_string();
        let hex: String = bin[*at..pair[1].0]
            .iter()
            .chain(end)
            .map(|b| format!("{b:02x}"))
            .collect();
        let [init, v2, v3, v4, v5] = operands(&op);
        let image = |name: &str, nf: &str| {
            format!(
                "[[image]]\nname = \"{name}\"\ntype = \"1d\"\nwidth = {TEXELS}\nformat = \"32_32\"\nnum_format = \"{nf}\"\ninit = \"{init}\"\n\n"
            )
        };
        let text = format!(
            r#"arch = "bonaire"
hex = "{hex}"
waves = {WAVES}

[sgpr]
"s[4:11]" = {{ image = "u64" }}
"s[12:19]" = {{ image = "f64" }}

[vgpr]
v0 = {{ u32 = "(lane * 7 + wave * 3) % ({TEXELS} + 1)" }}
v2 = {{ u32 = "{v2}" }}
v3 = {{ u32 = "{v3}" }}
v4 = {{ u32 = "{v4}" }}
v5 = {{ u32 = "{v5}" }}

{}{}"#,
            image("u64", "uint"),
            image("f64", "float"),
        );
        let name = format!("atomic64_{op}");
        out.push((name.clone(), common::launches::prepare_text(&name, &text)));
    }
    assert_eq!(out.len(), 17, "every 64-bit atomic of gfx7");
    out
}

#[test]
fn each_path_translates_as_documented() {
    // No GPU needed: the translation for a device with int64 atomics binds
    // the 64-bit view and runs waves together; the fallback neither.
    for (name, p) in launches() {
        for int64 in [true, false] {
            let options = translate::Options {
                trace_atomics: true,
                int64_atomics: int64,
                ..Default::default()
            };
            let tr = translate::translate_with(&p.prog, &p.waves, &p.memory, options).unwrap();
            let k = &tr.kernels[0];
            assert_eq!(k.mem64, int64, "{name}: 64-bit view");
            assert_eq!(k.serial_waves, !int64, "{name}: waves one at a time");
            assert_eq!(k.wgsl.contains(wgsl::MEM64_DECL), int64, "{name}");
            wgsl::validate(&k.wgsl).unwrap_or_else(|e| panic!("{name}: {e}"));
            // naga's SPIR-V back end (Vulkan) takes the 64-bit atomics,
            // compare-exchange included.
            let spv = wgsl::convert(&k.wgsl, "spirv").unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(&spv[..4], &0x0723_0203u32.to_le_bytes(), "SPIR-V magic");
        }
    }
}

#[test]
fn a_module_without_the_64_bit_view_may_not_use_64_bit_atomics() {
    // The capability is granted by the view's declaration only.
    let (_, p) = launches().remove(0);
    let options = translate::Options {
        trace_atomics: false,
        int64_atomics: true,
        ..Default::default()
    };
    let tr = translate::translate_with(&p.prog, &p.waves, &p.memory, options).unwrap();
    let undeclared = tr.kernels[0].wgsl.replace(
        wgsl::MEM64_DECL,
        "var<storage, read_write> mem64: array<atomic<u32>>;",
    );
    assert!(wgsl::validate(&undeclared).is_err());
}

/// Diffs every launch on `g` and checks how it ran.
fn all_equal(test: &str, g: &gpu::Gpu, native: bool) {
    let mut bad = Vec::new();
    let mut cases = launches();
    let single = cases.len();
    cases.extend(common::launches::atomic_launches());
    for (k, (name, p)) in cases.into_iter().enumerate() {
        let out = run_diff(p, g).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        let r = &out.report;
        if r.count > 0 {
            bad.push(format!(
                "{name}: {} difference(s), first {:?}",
                r.count,
                r.mismatches.first()
            ));
        }
        if k < single {
            // One atomic instruction: concurrent waves on the native path.
            assert_eq!(out.gpu_run.serial_waves, !native, "{name}");
            let dispatches = if native { 1 } else { WAVES as u32 };
            assert_eq!(out.gpu_run.stats.dispatches, dispatches, "{name}");
            assert_eq!(
                r.atomic_texels, TEXELS as usize,
                "{name}: every contended texel checked against a serial order"
            );
        }
    }
    println!(
        "{test}: {single} contended 64-bit atomics and the atomics kernels on {}",
        gpu::device::describe(&g.info)
    );
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn native_64_bit_atomics_equal_the_cpu() {
    let test = "native_64_bit_atomics_equal_the_cpu";
    let Some(g) = native_gpu(test) else { return };
    all_equal(test, g, true);
}

#[test]
fn fallback_64_bit_atomics_equal_the_cpu() {
    let test = "fallback_64_bit_atomics_equal_the_cpu";
    let Some(g) = fallback_gpu(test) else { return };
    all_equal(test, g, false);
}
