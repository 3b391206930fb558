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
