//! The adapter GPU tests run on.

use gcnrun::gpu;
use std::sync::OnceLock;

/// The adapter (`GCNRUN_ADAPTER` picks one by name), opened once per test
/// binary. Without one the test fails under `CI=true` and otherwise prints
/// `SKIPPED` with the reason and gets `None`.
pub fn gpu(test: &str) -> Option<&'static gpu::Gpu> {
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

/// Runs random launch `i` (manifest `text`, `kind` naming it in messages) on the
/// CPU and on `g`. Adds its lanes to `lanes` and gives the CPU's outcome when the
/// two agree; a difference or an error goes to `bad` with the seed and the
/// manifest, so that the failure can be replayed.
pub fn diff_random_launch(
    g: &gpu::Gpu,
    kind: &str,
    (i, seed): (usize, u64),
    text: &str,
    lanes: &mut u64,
    bad: &mut Vec<String>,
) -> Option<gcnrun::launch::run::Outcome> {
    use gcnrun::launch::run::{prepare_text, run_diff};
    let p = prepare_text(text, &format!("random {kind} launch {i}"), None)
        .unwrap_or_else(|e| panic!("launch {i}: {e}\n{text}"));
    *lanes += u64::from(p.launch.waves * p.launch.wave_size);
    match run_diff(p, g) {
        Ok(d) if d.report.count == 0 => return Some(d.cpu),
        Ok(d) => bad.push(format!(
            "launch {i} (seed {seed}): {} difference(s), first {:?}\n{text}",
            d.report.count,
            d.report.mismatches.first()
        )),
        Err(e) => bad.push(format!("launch {i} (seed {seed}): {e:?}\n{text}")),
    }
    None
}
