//! The `visa_sample` bench workload (SPEC.md "Standard bench workloads"):
//! its launch is SIMD32 Intel threads over a 2-D mip chain, its two sampler
//! instructions sample real texels, the GPU gives the CPU's bits on it, and
//! `gcn-run bench` reports it with the other workloads.

mod common;

use gcnrun::bench::workloads;
use gcnrun::ir::visa::ElemType;
use gcnrun::launch::run::{run_cpu, run_diff, Prepared};
use gcnrun::launch::visa::variable_element;

fn visa_sample(lanes: u64) -> Prepared {
    let all = workloads();
    let w = all
        .iter()
        .find(|w| w.name == "visa_sample")
        .expect("listed");
    w.prepare(lanes).unwrap()
}

#[test]
fn the_launch_is_simd32_threads() {
    let p = visa_sample(100);
    assert_eq!(p.waves.len(), 4, "100 lanes round up to 4 threads of 32");
    let run = p.visa.as_ref().unwrap();
    assert_eq!(run.simd, 32);
    assert!(p.waves.iter().all(|w| w.exec == 0xffff_ffff));
    // Thread 1, channel 3 is pixel 35 of row 0: U = (35 + 0.3) / 256.
    let u = variable_element(run, &p.waves[1], "U", ElemType::F, 3).unwrap();
    assert_eq!(f32::from_bits(u as u32), (35.0 + 0.3) / 256.0);
}

/// Both instructions sample the noise texels: results are unorm values,
/// vary across channels, and the explicit-LOD sample differs from the
/// level-0 one where the LOD is high.
#[test]
fn both_sampler_instructions_sample_texels() {
    let out = run_cpu(visa_sample(64)).unwrap();
    let run = out.visa.as_ref().unwrap();
    let read = |name: &str, t: usize, k: u32| {
        f32::from_bits(variable_element(run, &out.waves[t], name, ElemType::F, k).unwrap() as u32)
    };
    let mut a_values = Vec::new();
    let mut differ = 0;
    for t in 0..2 {
        for k in 0..128 {
            let (a, b) = (read("A", t, k), read("B", t, k));
            assert!(
                (0.0..=1.0).contains(&a) && (0.0..=1.0).contains(&b),
                "{a} {b}"
            );
            a_values.push(a.to_bits());
            differ += usize::from(a != b);
        }
    }
    a_values.sort();
    a_values.dedup();
    assert!(
        a_values.len() > 32,
        "only {} distinct values",
        a_values.len()
    );
    assert!(
        differ > 64,
        "sample_l and sample_lz agree in {differ} of 256 values"
    );
}

#[test]
fn visa_sample_on_the_gpu_equals_the_cpu() {
    let test = "visa_sample_on_the_gpu_equals_the_cpu";
    let Some(g) = common::gpu::gpu(test) else {
        return;
    };
    let d = run_diff(visa_sample(96), g).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(d.report.count, 0, "{}", d.report.text());
}

#[test]
fn bench_reports_visa_sample() {
    let test = "bench_reports_visa_sample";
    if common::gpu::gpu(test).is_none() {
        return;
    }
    let doc = common::bench_json(&[
        "--workload",
        "visa_sample",
        "--lanes",
        "64",
        "--seconds",
        "0.05",
    ]);
    let w = &doc["workloads"][0];
    assert_eq!(w["name"], "visa_sample");
    assert_eq!(w["lanes"], 64);
    for k in [
        "cpu_lane_ops_per_s",
        "gpu_lane_ops_per_s",
        "native_lane_ops_per_s",
        "gpu_over_cpu",
    ] {
        assert!(w[k].as_f64().is_some_and(|x| x > 0.0), "{k}: {w}");
    }
}
