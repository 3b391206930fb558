//! The `gcn-run bench` workloads under criterion (the AMD ones and the Intel
//! vISA `visa_sample`): the CPU interpreter for every workload, and the GPU
//! backend for those it translates when an adapter is present (without one
//! the GPU group prints why and measures nothing). Throughput counts the
//! lanes (channels) a launch runs.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use gcnrun::bench::workloads;

const LANES: u64 = 4096;

fn cpu(c: &mut Criterion) {
    let mut g = c.benchmark_group("cpu");
    for w in workloads() {
        let p = w.prepare(LANES).expect("workload prepares");
        g.throughput(Throughput::Elements(LANES));
        g.bench_function(w.name, |b| {
            b.iter(|| {
                let (mut waves, mut mem) = (p.waves.clone(), p.memory.clone());
                gcnrun::cpu::run(&p.prog, &mut waves, &mut mem).expect("runs");
            })
        });
    }
    g.finish();
}

fn gpu(c: &mut Criterion) {
    let gpu = match gcnrun::gpu::device::open(None) {
        Ok(g) => g,
        Err(e) => {
            println!("gpu benchmarks skipped: {e}");
            return;
        }
    };
    let mut g = c.benchmark_group("gpu");
    for w in workloads() {
        let p = w.prepare(LANES).expect("workload prepares");
        let Ok(tr) = gcnrun::gpu::translate::translate(&p.prog, &p.waves, &p.memory) else {
            println!("gpu/{}: not translated yet", w.name);
            continue;
        };
        g.throughput(Throughput::Elements(LANES));
        g.bench_function(w.name, |b| {
            b.iter(|| {
                let (mut waves, mut mem) = (p.waves.clone(), p.memory.clone());
                gcnrun::gpu::runtime::run(&gpu, &tr, &mut waves, &mut mem).expect("runs");
            })
        });
    }
    g.finish();
}

criterion_group!(benches, cpu, gpu);
criterion_main!(benches);
