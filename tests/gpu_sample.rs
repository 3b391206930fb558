//! The sampler on the GPU: every sample/gather4/get_lod asset translates to
//! valid WGSL and gives the CPU's results bit for bit on a real adapter
//! (lavapipe in CI).
//!
//! Without an adapter the GPU tests fail under `CI=true` and otherwise print
//! `SKIPPED` with the reason.

mod common;

use gcnrun::gpu::{self, translate::translate, wgsl};
use gcnrun::launch::run::{prepare_manifest, run_diff, Prepared};
use std::sync::OnceLock;

/// The adapter (`GCNRUN_ADAPTER` picks one by name), opened once per test binary.
fn gpu(test: &str) -> Option<&'static gpu::Gpu> {
    static GPU: OnceLock<Result<gpu::Gpu, String>> = OnceLock::new();
    let g = GPU.get_or_init(|| {
        gpu::device::open(std::env::var("GCNRUN_ADAPTER").ok().as_deref())
            .map_err(|e| e.to_string())
    });
    match g {
        Ok(g) => Some(g),
        Err(e) if std::env::var("CI").is_ok_and(|v| v == "true") => {
            panic!("{test}: no GPU adapter under CI=true: {e}")
        }
        Err(e) => {
            println!("SKIPPED {test}: {e}");
            None
        }
    }
}

/// `assets/sample_*.toml` and `assets/gather4*.toml`.
fn sampler_assets() -> Vec<(String, Prepared)> {
    let v: Vec<(String, Prepared)> = common::launches::asset_manifests()
        .into_iter()
        .filter_map(|p| {
            let name = p.file_name()?.to_string_lossy().into_owned();
            if !(name.starts_with("sample_") || name.starts_with("gather4")) {
                return None;
            }
            let prep =
                prepare_manifest(&p, None, None, None).unwrap_or_else(|e| panic!("{name}: {e}"));
            Some((name, prep))
        })
        .collect();
    assert!(v.len() >= 10, "only {} sampler assets", v.len());
    v
}

#[test]
fn sampler_assets_translate_to_valid_wgsl() {
    for (name, p) in sampler_assets() {
        let tr = translate(&p.prog, &p.waves, &p.memory)
            .unwrap_or_else(|e| panic!("{name}: translation failed: {e}"));
        for k in &tr.kernels {
            if let Err(e) = wgsl::validate(&k.wgsl) {
                panic!("{name}: naga rejects the module:\n{e}");
            }
        }
    }
}

#[test]
fn sampler_assets_equal_the_cpu() {
    let test = "sampler_assets_equal_the_cpu";
    let Some(g) = gpu(test) else { return };
    let mut bad = Vec::new();
    for (name, p) in sampler_assets() {
        let t = std::time::Instant::now();
        let out = run_diff(p, g).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        let st = &out.gpu_run.stats;
        println!(
            "{name}: {:.1} s (CPU {:.2} s, GPU {:.2} s of which executing {:.2} s)",
            t.elapsed().as_secs_f64(),
            out.cpu_time.as_secs_f64(),
            st.total.as_secs_f64(),
            st.execute.as_secs_f64()
        );
        let r = out.report;
        if r.count > 0 {
            bad.push(format!(
                "{name}: {} difference(s), first {:?}",
                r.count,
                r.mismatches.first()
            ));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
