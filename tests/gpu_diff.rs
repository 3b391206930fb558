//! GPU against CPU on a real adapter (lavapipe in CI): every asset manifest, the
//! bare default kernel, every readable format pair and every atomic give the
//! same registers in every lane and the same image memory byte for byte.
//!
//! Without an adapter the tests fail under `CI=true` and otherwise print
//! `SKIPPED` with the reason.

mod common;

use common::gpu::gpu;

use gcnrun::diff;
use gcnrun::gpu;
use gcnrun::launch::run::{run_diff, Prepared};

/// Runs both backends and returns the diff report.
fn diff_of(name: &str, p: Prepared, g: &gpu::Gpu) -> diff::Report {
    run_diff(p, g)
        .unwrap_or_else(|e| panic!("{name}: {e:?}"))
        .report
}

fn assert_all_equal(test: &str, launches: Vec<(String, Prepared)>) {
    let Some(g) = gpu(test) else { return };
    let mut bad = Vec::new();
    let n = launches.len();
    for (name, p) in launches {
        if let Some(why) = common::launches::expected_refusal(&name) {
            let e = run_diff(p, g).expect_err(&name);
            let text = format!("{e:?}");
            assert!(
                text.contains(why),
                "{name}: refused for another reason: {text}"
            );
            println!("refused as documented: {name}");
            continue;
        }
        let r = diff_of(&name, p, g);
        if r.count > 0 {
            bad.push(format!(
                "{name}: {} difference(s), first {:?}",
                r.count,
                r.mismatches.first()
            ));
        }
    }
    println!("{test}: {n} launches on {}", gpu::device::describe(&g.info));
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn every_asset_equals_the_cpu() {
    let mut v: Vec<(String, Prepared)> = common::launches::all_launches()
        .into_iter()
        .filter(|(n, _)| n.ends_with(".toml") || n.ends_with(".bin"))
        .collect();
    v.retain(|(n, _)| !n.starts_with("fmt_"));
    assert!(v.len() >= 5);
    assert_all_equal("every_asset_equals_the_cpu", v);
}

/// Every whole-program asset that shares float functions when all repeated
/// ones are shared (`--share-alu-above 1`; docs/gpu.md, "Shared ALU sites")
/// gives the CPU's bits that way too (the default shares only in the largest
/// modules, which `every_asset_equals_the_cpu` runs).
#[test]
fn shared_alu_sites_equal_the_cpu() {
    let mut v = Vec::new();
    let kernels = ["math.toml", "image_sample.toml", "dot.toml"].map(|k| {
        let path = common::launches::assets().join("kernels").join(k);
        let p = gcnrun::launch::run::prepare_manifest(&path, None, None, None).unwrap();
        (format!("kernels/{k}"), p)
    });
    for (name, mut p) in common::launches::all_launches().into_iter().chain(kernels) {
        let asset = name.ends_with(".toml") || name.ends_with(".bin");
        if !asset || name.starts_with("fmt_") || common::launches::expected_refusal(&name).is_some()
        {
            continue;
        }
        let options = gpu::translate::Options {
            share_alu_above: 1,
            ..Default::default()
        };
        let shares = {
            let predict = gcnrun::launch::run::predictor(&p.prog, &p.waves, &p.memory);
            gpu::translate::translate_predicted(
                &p.prog,
                &p.waves,
                &p.memory,
                options,
                Some(&predict),
            )
            .is_ok_and(|t| t.kernels.iter().any(|k| k.wgsl.contains("fn alu_shared(")))
        };
        if shares {
            p.share_alu_above = 1;
            v.push((name, p));
        }
    }
    assert!(v.len() >= 5, "{} launches share", v.len());
    println!(
        "sharing: {:?}",
        v.iter().map(|(n, _)| n).collect::<Vec<_>>()
    );
    assert_all_equal("shared_alu_sites_equal_the_cpu", v);
}

#[test]
fn every_format_pair_equals_the_cpu() {
    assert_all_equal(
        "every_format_pair_equals_the_cpu",
        common::launches::format_launches(),
    );
}

#[test]
fn every_atomic_equals_the_cpu() {
    assert_all_equal(
        "every_atomic_equals_the_cpu",
        common::launches::atomic_launches(),
    );
}

#[test]
fn dispatch_rows_and_chunks_give_identical_results() {
    let test = "dispatch_rows_and_chunks_give_identical_results";
    let Some(g) = gpu(test) else { return };
    let (_, p) = common::launches::all_launches()
        .into_iter()
        .find(|(n, _)| n == "gradient_quad.bin")
        .unwrap();
    let tr = gpu::translate::translate(&p.prog, &p.waves, &p.memory).unwrap();
    let run = |limits: gpu::runtime::RunLimits| {
        let (mut waves, mut mem) = (p.waves.clone(), p.memory.clone());
        let out = gpu::runtime::run_with(g, &tr, &mut waves, &mut mem, limits).unwrap();
        (waves, mem, out.stats.dispatches)
    };
    let (w0, m0, d0) = run(gpu::runtime::RunLimits::of(g));
    assert_eq!(d0, 1, "64 waves fit one dispatch");
    // 5 workgroups per row (a 5 × 13 grid for 64 waves), and a binding limit
    // that holds the image memory but only a few waves' state at a time.
    let small = gpu::runtime::RunLimits {
        groups_x: 5,
        binding_bytes: (p.memory.bytes.len() as u64).next_multiple_of(4),
        repeat: 1,
        speculate: None,
    };
    let (w1, m1, d1) = run(small);
    assert!(d1 > 1, "the state is split into {d1} chunk(s)");
    assert_eq!(m0, m1, "image memory");
    assert!(w0 == w1, "wave states");
    let cpu = gcnrun::launch::run::run_cpu(p.clone()).unwrap();
    assert!(cpu.waves == w1 && cpu.memory == m1, "and the CPU's");
}

#[test]
fn a_repeated_kernel_reuses_its_pipeline() {
    let test = "a_repeated_kernel_reuses_its_pipeline";
    let Some(g) = gpu(test) else { return };
    let (_, p) = common::launches::atomic_launches().remove(0);
    gcnrun::launch::run::run_gpu(p.clone(), g).unwrap();
    let built = g.cached_pipelines();
    gcnrun::launch::run::run_gpu(p, g).unwrap();
    assert_eq!(g.cached_pipelines(), built);
}
