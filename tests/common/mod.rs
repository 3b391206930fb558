//! Helpers shared by the integration tests.
#![allow(dead_code)]
pub mod corpus;
pub mod gpu;
pub mod launches;
pub mod llvm;
pub mod objdump;

/// A number from the environment variable `name` (a seed or a case count the
/// random tests let a user raise), or `default` when it is unset or not a number.
pub fn env_number<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// `gcn-run bench --json` followed by `args`: the run must succeed (its
/// stderr is the failure's message); its JSON document.
pub fn bench_json(args: &[&str]) -> serde_json::Value {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_gcn-run"))
        .args(["bench", "--json"])
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "gcn-run bench --json {}: {}",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// True under `CI=true` (or `CI=1`), where a missing tool is a failure, not a skip.
pub fn is_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true" || v == "1")
}
