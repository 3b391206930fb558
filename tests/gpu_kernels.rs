//! Whole compute kernels from their code objects (`assets/kernels/`, built
//! by clang-19 from the `.cl` sources beside them) on the GPU: every kernel
//! the GPU translates runs under `--diff` with zero differences on every
//! target it was built for — multi-wave workgroups with LDS and barriers
//! (`lds_reduce`), loops (`loops`), global atomics with returns (`atomics`),
//! 3-D grids with partial workgroups (`ids`), the host-differential kernel
//! (`hostdiff`), and the image kernels whose descriptors come from memory
//! (`img`, `image_sample`, the texel buffers of `texel`) against
//! hand-derived expectations.
//!
//! Without an adapter the tests fail under `CI=true` and otherwise print
//! `SKIPPED`.

mod common;

use common::gpu::gpu;
use common::launches::{kernel_launch as prepared, kernels};
use gcnrun::launch::hsa::dispatch::Dims;
use gcnrun::launch::hsa::Options;
use gcnrun::launch::run::run_diff;

fn grid(grid: &str, block: &str) -> Options {
    Options {
        grid: Some(Dims::parse(grid).unwrap()),
        block: Some(Dims::parse(block).unwrap()),
        ..Options::default()
    }
}

#[test]
fn compiled_kernels_equal_the_cpu_on_the_gpu() {
    let Some(g) = gpu("compiled_kernels_equal_the_cpu_on_the_gpu") else {
        return;
    };
    let mut launches: Vec<(String, gcnrun::launch::run::Prepared)> = Vec::new();
    for target in ["gfx900", "gfx1030", "gfx1100"] {
        for k in ["vadd", "loops", "lds_reduce", "atomics", "hostdiff"] {
            let object = format!("{k}_{target}.hsaco");
            launches.push((object.clone(), prepared(&object, None, &Options::default())));
        }
        // Partial work-groups in three dimensions, several waves per group
        // on wave32 (assets/kernels/ids.toml: 7×5×3 in 4×4×2).
        let object = format!("ids_{target}.hsaco");
        let ids = std::fs::read_to_string(kernels().join("ids.toml")).unwrap();
        launches.push((
            format!("{object} 7×5×3 in 4×4×2"),
            prepared(&object, Some(&ids), &Options::default()),
        ));
    }
    launches.push((
        "vadd_gfx1030_w64.hsaco".into(),
        prepared("vadd_gfx1030_w64.hsaco", None, &Options::default()),
    ));
    // gfx7 (FLAT) and gfx6 (MUBUF with ADDR64: no flat address space): the
    // kernels whose every instruction the CPU runs there.
    for target in ["bonaire", "tahiti"] {
        for k in ["loops", "lds_reduce", "atomics"] {
            let object = format!("{k}_{target}.hsaco");
            launches.push((object.clone(), prepared(&object, None, &Options::default())));
        }
    }
    // lds_reduce with workgroups of four waves (wave64: 256 items), the
    // waves taking turns between barriers.
    launches.push((
        "lds_reduce_gfx900.hsaco 512 in 256".into(),
        prepared("lds_reduce_gfx900.hsaco", None, &grid("512", "256")),
    ));
    let mut bad = Vec::new();
    let n = launches.len();
    for (name, p) in launches {
        match run_diff(p, g) {
            Ok(out) if out.report.count == 0 => println!("{name}: equal"),
            Ok(out) => bad.push(format!(
                "{name}: {} difference(s), first {:?}",
                out.report.count,
                out.report.mismatches.first()
            )),
            Err(e) => bad.push(format!("{name}: {e:?}")),
        }
    }
    println!(
        "{n} kernel launches on {}",
        gcnrun::gpu::device::describe(&g.info)
    );
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// The image kernels, whose T#s, S#s and (texel buffers) V#s the kernels
/// load from memory, with hand-derived expectations
/// (`assets/kernels/img.toml`, `image_sample.toml`, `texel.toml`): CPU = GPU
/// on every target, and the GPU's run passes the manifest's
/// `[kernel.expect]`.
#[test]
fn image_kernels_equal_the_cpu_and_the_expectations() {
    let Some(g) = gpu("image_kernels_equal_the_cpu_and_the_expectations") else {
        return;
    };
    let mut bad = Vec::new();
    let pairs = [
        ("image_sample", "image_sample.toml"),
        ("img", "img.toml"),
        ("texel", "texel.toml"),
    ];
    for target in ["tahiti", "gfx900", "gfx1030", "gfx1100"] {
        // img and texel need OpenCL 2's image writes, which regen.sh does
        // not build for gfx6.
        let pairs = if target == "tahiti" {
            &pairs[..1]
        } else {
            &pairs[..]
        };
        for &(kernel, manifest) in pairs {
            let object = format!("{kernel}_{target}.hsaco");
            let text = std::fs::read_to_string(kernels().join(manifest)).unwrap();
            diff_into(g, &object, &text, &mut bad);
            // The GPU's own result against the hand-derived expectations.
            let run = std::process::Command::new(env!("CARGO_BIN_EXE_gcn-run"))
                .arg(kernels().join(&object))
                .arg("--manifest")
                .arg(kernels().join(manifest))
                .arg("--gpu")
                .output()
                .unwrap();
            let text = String::from_utf8_lossy(&run.stdout);
            if !run.status.success() || !text.contains("expect: all") {
                bad.push(format!(
                    "{object} --gpu: {text}{}",
                    String::from_utf8_lossy(&run.stderr)
                ));
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// A loop of 100,000 trips, past llvmpipe's 65,535 loop iterations per
/// invocation: the module suspends the wave's turn before the limit and the
/// runtime submits the launch again until it ends (docs/gpu.md, "Whole
/// programs"): CPU = GPU. Were the device to stop a loop early all the
/// same, the run would fail naming the limit, never report wrong registers.
#[test]
fn a_loop_past_llvmpipes_iteration_limit_runs_in_several_submissions() {
    use gcnrun::ir::alu::{AluFn, AluOp, Dst, Family, Rel, Ty, Unit};
    use gcnrun::ir::flow::{Cond, WaveOp};
    use gcnrun::ir::{Op, Operand, Program, Reg, Src};
    let Some(g) = gpu("a_loop_past_llvmpipes_iteration_limit_runs_in_several_submissions") else {
        return;
    };
    let s0 = Reg::Sgpr(0);
    let add = AluOp::new(
        AluFn::new(Family::Add, Ty::U32),
        Unit::Scalar,
        Some(Dst::Reg(s0)),
        &[Operand::Reg(s0), Operand::Const(1)],
    );
    let mut cmp = AluOp::new(
        AluFn::new(Family::Cmp(Rel::Lt), Ty::U32),
        Unit::Scalar,
        None,
        &[Operand::Reg(s0), Operand::Const(100_000)],
    );
    cmp.bit_dst = Some(Dst::Scc);
    let ops = vec![
        (
            0,
            Op::SMov {
                dst: s0,
                src: Src::Const(0),
            },
        ),
        (4, Op::Alu(Box::new(add))),
        (8, Op::Alu(Box::new(cmp))),
        (
            12,
            Op::Wave(Box::new(WaveOp::Branch {
                target: 1,
                cond: Cond::SccNz,
            })),
        ),
        (
            16,
            Op::VMov {
                dst: 0,
                src: Src::Reg(s0),
            },
        ),
        (20, Op::End),
    ];
    let prog = Program::new(gcnrun::Arch::parse("gfx900").unwrap(), ops);
    let mut waves = vec![gcnrun::machine::WaveState::new(0, 64, 0)];
    waves[0].exec = u64::MAX;
    let max_steps = 1 << 30;
    let mut cpu = waves.clone();
    let mut mem = gcnrun::machine::Memory::default();
    let limits = gcnrun::cpu::Limits {
        max_steps,
        ..Default::default()
    };
    gcnrun::cpu::run_with(&prog, &mut cpu, &mut mem, &limits).unwrap();
    assert_eq!(cpu[0].vgpr(0, 5), 100_000);
    let options = gcnrun::gpu::translate::Options {
        max_steps,
        ..Default::default()
    };
    let tr = gcnrun::gpu::translate::translate_with(&prog, &waves, &mem, options).unwrap();
    let out = gcnrun::gpu::runtime::run(g, &tr, &mut waves, &mut mem).unwrap();
    assert_eq!(waves[0].vgpr(0, 5), 100_000);
    assert_eq!(waves[0].sgpr(0), 100_000);
    // 100,000 trips of the loop's block, at most 60,000 loop iterations a
    // submission: two submissions at least, on every adapter (the budget is
    // the module's, not the device's).
    assert!(out.stats.resubmissions >= 1, "{:?}", out.stats);
}

/// Sub-group collectives (`assets/kernels/subgroups.cl`), which the device
/// libraries build from DPP, `ds_swizzle`, `ds_permute`, `v_permlanex16` and
/// readlane: on every target the CPU's output is the collectives'
/// definition over sub-groups of the wave size (64 on gfx900, 32 on gfx1030
/// and gfx1100), and the GPU equals the CPU.
#[test]
fn subgroup_collectives_equal_their_definition() {
    let Some(g) = gpu("subgroup_collectives_equal_their_definition") else {
        return;
    };
    let manifest = kernels().join("subgroups.toml");
    let mut bad = Vec::new();
    for (target, wave) in [("gfx900", 64u32), ("gfx1030", 32), ("gfx1100", 32)] {
        let object = format!("subgroups_{target}.hsaco");
        let out = cpu_out(&object, "subgroups.toml");
        for k in 0..64u32 {
            // in[k] = k + 1; the sub-group is the wave's `wave` items.
            let first = k / wave * wave;
            let group = first + 1..=first + wave;
            let want = [
                group.clone().sum::<u32>(),
                (first + 1..=k + 1).sum(),
                first + 4,
                first + wave,
            ];
            let got = &out[4 * k as usize..4 * k as usize + 4];
            if got != want {
                bad.push(format!("{object} item {k}: {got:?}, want {want:?}"));
            }
        }
        let text = std::fs::read_to_string(&manifest).unwrap();
        diff_into(g, &object, &text, &mut bad);
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// The integer dot products (`assets/kernels/dot.cl`, every `v_dot*` shape
/// of gfx1030 and gfx1100 with and without CLAMP): the GPU equals the CPU,
/// whose values tests/hsa.rs checks against the hand-derived ones.
#[test]
fn dot_products_equal_the_cpu_on_the_gpu() {
    let Some(g) = gpu("dot_products_equal_the_cpu_on_the_gpu") else {
        return;
    };
    let mut bad = Vec::new();
    for (object, manifest) in [
        ("dot_gfx1030.hsaco", "dot.toml"),
        ("dot_gfx1100.hsaco", "dot_gfx1100.toml"),
    ] {
        let text = std::fs::read_to_string(kernels().join(manifest)).unwrap();
        diff_into(g, object, &text, &mut bad);
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// `--diff` of `object` in the manifest `text`: a difference or an error
/// goes into `bad`.
fn diff_into(g: &gcnrun::gpu::Gpu, object: &str, text: &str, bad: &mut Vec<String>) {
    let p = prepared(object, Some(text), &Options::default());
    match run_diff(p, g) {
        Ok(out) if out.report.count == 0 => {}
        Ok(out) => bad.push(format!("{object}: {} difference(s)", out.report.count)),
        Err(e) => bad.push(format!("{object}: {e:?}")),
    }
}

/// The `out` buffer of a CPU run of `object` in `manifest`, whose
/// `[kernel.expect]` must hold.
fn cpu_out(object: &str, manifest: &str) -> Vec<u32> {
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_gcn-run"))
        .arg(kernels().join(object))
        .arg("--manifest")
        .arg(kernels().join(manifest))
        .arg("--json")
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{object}: {}{}",
        String::from_utf8_lossy(&run.stdout),
        String::from_utf8_lossy(&run.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
    json["buffers"]["out"]["u32"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap() as u32)
        .collect()
}

/// A private array in scratch (`assets/kernels/private.cl`): on tahiti,
/// bonaire, tonga, gfx900 and gfx1030, MUBUF through the launch's swizzled,
/// ADD_TID scratch V# (machine::buffer; the gfx7/gfx8 prologues write
/// FLAT_SCRATCH); on gfx1100, and on gfx900 and gfx1030 built with flat
/// scratch (`private_fs_*`), `scratch_*` instructions
/// (ir::mem::scratch_address). Every item's result equals the source's
/// arithmetic, and the GPU equals the CPU.
#[test]
fn private_arrays_live_in_swizzled_scratch() {
    let Some(g) = gpu("private_arrays_live_in_swizzled_scratch") else {
        return;
    };
    let mut bad = Vec::new();
    for target in [
        "tahiti",
        "bonaire",
        "tonga",
        "gfx900",
        "gfx1030",
        "gfx1100",
        "fs_gfx900",
        "fs_gfx1030",
    ] {
        let object = format!("private_{target}.hsaco");
        let out = cpu_out(&object, "private.toml");
        let input = |k: u32| k % 64 + 1;
        for gid in 0..64u32 {
            let a = |i: u32| input(gid + i) * i;
            let want = a(input(gid) % 32) + a(gid * 7 % 32);
            if out[gid as usize] != want {
                bad.push(format!(
                    "{object} item {gid}: {}, want {want}",
                    out[gid as usize]
                ));
            }
        }
        let text = std::fs::read_to_string(kernels().join("private.toml")).unwrap();
        diff_into(g, &object, &text, &mut bad);
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// The device libraries' float functions (`assets/kernels/math.cl`: exp,
/// exp2, log, log2, pow, sin, cos through ROCm's OCML, the native_ forms
/// that are one `v_exp`/`v_log`/`v_sin`/`v_cos` each, division and square
/// root) on gfx900, gfx1030 and gfx1100: every output within OpenCL C's ulp
/// bound of the host's f64 function (3 ulp for exp, exp2, log, log2; 16 for
/// pow; 4 for sin and cos; the native_ forms are gcnrun's correctly rounded
/// rules, so 1 ulp for native_exp2 and native_log2, and for native_sin and
/// native_cos the error of scaling x by an f32 1/2π first), and CPU = GPU on
/// gfx1100 (lavapipe takes about two minutes per target to build these
/// 320 KB modules with a cold shader cache; tools/device_check.sh diffs all
/// three on a real GPU).
#[test]
fn math_functions_are_within_their_ulp_bounds_and_the_gpu_equals_the_cpu() {
    let Some(g) = gpu("math_functions_are_within_their_ulp_bounds_and_the_gpu_equals_the_cpu")
    else {
        return;
    };
    let text = std::fs::read_to_string(kernels().join("math.toml")).unwrap();
    // The inputs: the manifest's x buffer.
    let x: Vec<f32> = {
        let start = text.find("u32 = [").unwrap() + 7;
        let end = start + text[start..].find(']').unwrap();
        text[start..end]
            .split(',')
            .filter_map(|w| u32::from_str_radix(w.trim().trim_start_matches("0x"), 16).ok())
            .map(f32::from_bits)
            .collect()
    };
    assert_eq!(x.len(), 64);
    let ulps = |got: f32, want: f64| -> f64 {
        if want.is_nan() || got.is_nan() {
            return if want.is_nan() == got.is_nan() {
                0.0
            } else {
                f64::INFINITY
            };
        }
        let w32 = want as f32;
        if w32.is_infinite() || w32 == 0.0 {
            return if got == w32 || (got.abs() < 1e-37 && w32 == 0.0) {
                0.0
            } else {
                f64::INFINITY
            };
        }
        let ulp = f64::from(f32::from_bits(w32.abs().to_bits() + 1)) - f64::from(w32.abs());
        (f64::from(got) - want).abs() / ulp
    };
    let mut bad = Vec::new();
    for target in ["gfx900", "gfx1030", "gfx1100"] {
        let object = format!("math_{target}.hsaco");
        let out = cpu_out(&object, "math.toml");
        for (i, &v) in x.iter().enumerate() {
            let o = |k: usize| f32::from_bits(out[12 * i + k]);
            let (d, a) = (f64::from(v), f64::from(v).abs());
            let tau_x = f64::from(v * (0.5 / std::f32::consts::PI));
            let checks: [(&str, f32, f64, f64); 11] = [
                ("exp", o(0), d.exp(), 3.0),
                ("exp2", o(1), d.exp2(), 3.0),
                ("log", o(2), a.ln(), 3.0),
                ("log2", o(3), a.log2(), 3.0),
                ("pow", o(4), a.powf(1.5), 16.0),
                ("sin", o(5), d.sin(), 4.0),
                ("cos", o(6), d.cos(), 4.0),
                ("native_exp2", o(7), d.exp2(), 1.0),
                ("native_log2", o(8), a.log2(), 1.0),
                // v_sin of x × f32(1/2π): correctly rounded sin of that turn.
                (
                    "native_sin",
                    o(9),
                    (tau_x * std::f64::consts::TAU).sin(),
                    1.0,
                ),
                (
                    "native_cos",
                    o(10),
                    (tau_x * std::f64::consts::TAU).cos(),
                    1.0,
                ),
            ];
            for (name, got, want, bound) in checks {
                let u = ulps(got, want);
                if u > bound {
                    bad.push(format!(
                        "{target} {name}({v:e}) = {got:e}, host {want:e}: {u:.1} ulp"
                    ));
                }
            }
            // 1/v + √|v|: two correctly rounded operations (2.5 ulp division
            // allowed) and a sum, bounded against the larger term.
            let want = 1.0 / d + a.sqrt();
            let scale = (1.0 / d).abs().max(a.sqrt());
            if (f64::from(o(11)) - want).abs() > 4.0 * scale * f64::from(f32::EPSILON) {
                bad.push(format!(
                    "{target} 1/v + sqrt({v:e}) = {:e}, host {want:e}",
                    o(11)
                ));
            }
        }
        if target == "gfx1100" {
            diff_into(g, &object, &text, &mut bad);
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
