//! Speculative workgroups (docs/gpu.md, "Speculative workgroups"), forced on
//! the adapter the tests run on (the runtime leaves them off on a CPU adapter
//! such as lavapipe): a whole compiled kernel that writes memory runs its
//! workgroups together through the recording module, keeps the result when no
//! two of them touched the same memory with one writing, and otherwise runs
//! them again one dispatch each. Either way every register and every byte of
//! memory must equal the CPU's, and each kind of launch must take the path
//! meant for it: `vadd` (two workgroups writing their own parts of the
//! output), `image_sample` (eight) and `lds_reduce` in two workgroups of four
//! waves (LDS and barriers within each, its sum to its own slot) keep the
//! speculation; `atomics` in four workgroups (all adding to the same
//! counters) meets a conflict.
//!
//! Without an adapter the test fails under `CI=true` and otherwise prints
//! `SKIPPED`.

mod common;

use common::gpu::gpu;
use common::launches::{kernel_launch as prepared, kernels};
use gcnrun::gpu::runtime::{run_with, RunLimits, RunStats};
use gcnrun::launch::hsa::dispatch::Dims;
use gcnrun::launch::hsa::Options;
use gcnrun::launch::run::Prepared;

/// Runs `p` on the GPU with speculation forced and on the CPU; the GPU's
/// statistics, or what differs.
fn speculated(g: &gcnrun::gpu::Gpu, name: &str, p: &Prepared) -> Result<RunStats, String> {
    let tr = p
        .translate(Default::default())
        .map_err(|e| format!("{name}: translate: {e:?}"))?;
    if tr.kernels.iter().all(|k| k.spec_wgsl.is_none()) {
        return Err(format!("{name}: no speculative module"));
    }
    let limits = RunLimits {
        speculate: Some(true),
        ..RunLimits::of(g)
    };
    let (mut gw, mut gm) = (p.waves.clone(), p.memory.clone());
    let out = run_with(g, &tr, &mut gw, &mut gm, limits).map_err(|e| format!("{name}: {e}"))?;
    let (mut cw, mut cm) = (p.waves.clone(), p.memory.clone());
    gcnrun::cpu::run_with(&p.prog, &mut cw, &mut cm, &p.limits)
        .map_err(|e| format!("{name}: CPU: {e:?}"))?;
    if let Some(i) =
        (0..cw.len()).find(|&i| !gw[i].same_vgprs(&cw[i]) || gw[i].sgprs() != cw[i].sgprs())
    {
        return Err(format!(
            "{name}: wave {i}'s registers differ from the CPU's"
        ));
    }
    if let Some(at) = (0..cm.bytes.len()).find(|&k| gm.bytes[k] != cm.bytes[k]) {
        return Err(format!(
            "{name}: memory differs from the CPU's at byte {at:#x}"
        ));
    }
    Ok(out.stats)
}

#[test]
fn speculative_workgroups_keep_or_replay_and_equal_the_cpu() {
    let Some(g) = gpu("speculative_workgroups_keep_or_replay_and_equal_the_cpu") else {
        return;
    };
    let image = std::fs::read_to_string(kernels().join("image_sample.toml")).unwrap();
    let grid = |grid: &str, block: &str| Options {
        grid: Some(Dims::parse(grid).unwrap()),
        block: Some(Dims::parse(block).unwrap()),
        ..Options::default()
    };
    // (launch, whether its speculation must hold)
    let launches = [
        (
            "vadd_gfx900.hsaco",
            prepared("vadd_gfx900.hsaco", None, &Options::default()),
            true,
        ),
        (
            "image_sample_gfx900.hsaco",
            prepared(
                "image_sample_gfx900.hsaco",
                Some(&image),
                &Options::default(),
            ),
            true,
        ),
        (
            "lds_reduce_gfx900.hsaco 512 in 256",
            prepared("lds_reduce_gfx900.hsaco", None, &grid("512", "256")),
            true,
        ),
        (
            "atomics_gfx900.hsaco 256 in 64",
            prepared("atomics_gfx900.hsaco", None, &grid("256", "64")),
            false,
        ),
    ];
    let mut bad = Vec::new();
    for (name, p, holds) in &launches {
        match speculated(g, name, p) {
            Ok(s) => {
                println!(
                    "{name}: {} chunk(s) kept, {} replayed, {} dispatches",
                    s.speculated, s.conflicts, s.dispatches
                );
                let kept = s.speculated > 0 && s.conflicts == 0;
                let replayed = s.conflicts > 0 && s.speculated == 0;
                if (*holds && !kept) || (!*holds && !replayed) {
                    bad.push(format!(
                        "{name}: speculation {} (kept {}, replayed {})",
                        if *holds {
                            "should hold"
                        } else {
                            "should meet a conflict"
                        },
                        s.speculated,
                        s.conflicts
                    ));
                }
            }
            Err(e) => bad.push(e),
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
