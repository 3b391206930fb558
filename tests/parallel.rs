//! The CPU reference runs waves in parallel (speculative batches committed in
//! launch order, `cpu::run_with`), and its result must not depend on the
//! number of threads: every bundled manifest and every bench workload runs
//! here with 1, 2 and 8 threads, and the registers, LDS and memory of the
//! three runs (and the error, if the run stops) must be the same bytes. The
//! one-thread run also shows that the launch stored every VGPR row the run
//! writes.
//!
//! The atomic workloads are the sharp case: every wave adds to the same 16
//! counters and returns the value before its add (GLC), so a wave committed
//! out of order, or run against a stale snapshot and kept, changes both the
//! returned values and nothing else — the comparison of the returned VGPRs
//! catches it.

mod common;

use gcnrun::cpu;
use gcnrun::launch::run::{prepare_manifest, Prepared};
use gcnrun::machine::{Memory, WaveState};
use std::path::Path;

/// Everything a run leaves: the waves' registers and LDS, the memory, and
/// the error.
type Result_ = (Vec<WaveState>, Memory, Option<String>);

fn run_on(threads: usize, p: &Prepared) -> Result_ {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool");
    pool.install(|| {
        let (mut waves, mut mem) = (p.waves.clone(), p.memory.clone());
        let r = cpu::run(&p.prog, &mut waves, &mut mem);
        (waves, mem, r.err().map(|e| e.to_string()))
    })
}

fn same_on_1_2_8(name: &str, p: &Prepared) {
    let one = run_on(1, p);
    rows_stored_before_the_run(name, p, &one.0);
    for threads in [2, 8] {
        let got = run_on(threads, p);
        assert_eq!(got.2, one.2, "{name}: the error with {threads} threads");
        assert!(
            got.1 == one.1,
            "{name}: memory differs between 1 and {threads} threads"
        );
        for (a, b) in got.0.iter().zip(&one.0) {
            assert!(
                a == b,
                "{name}: wave {} differs between 1 and {threads} threads",
                a.wave
            );
        }
    }
}

/// The launch stored every VGPR row the run writes (`Program::vgpr_rows`,
/// `Prepared::with_vgpr_rows`): no wave's file grew while it ran, so the
/// bundled programs' runs allocate no registers. (Growth would give the same
/// values; this pins the front end's count of the registers a program names.)
fn rows_stored_before_the_run(name: &str, p: &Prepared, after: &[WaveState]) {
    for (before, after) in p.waves.iter().zip(after) {
        assert_eq!(
            after.vgprs().len(),
            before.vgprs().len(),
            "{name}: wave {} grew its VGPR file during the run (the program names {} rows)",
            before.wave,
            p.prog.vgpr_rows
        );
    }
}

#[test]
fn every_manifest_gives_the_same_bytes_on_1_2_and_8_threads() {
    let mut compared = 0;
    for m in common::launches::asset_files(&["toml"]) {
        // Manifests that need code from elsewhere (vISA launches) or that
        // are refused on purpose are not CPU launches of their own.
        let Ok(p) = prepare_manifest(Path::new(&m), None, None, None) else {
            continue;
        };
        same_on_1_2_8(&m.display().to_string(), &p);
        compared += 1;
    }
    assert!(compared >= 60, "only {compared} manifests prepared");
}

#[test]
fn every_bench_workload_gives_the_same_bytes_on_1_2_and_8_threads() {
    for w in gcnrun::bench::workloads() {
        // 256 waves: many batches, and the atomic one conflicts in each.
        let p = w.prepare(256 * 64).expect("the workload prepares");
        same_on_1_2_8(w.name, &p);
    }
}
