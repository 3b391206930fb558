//! The `gcn-run` command line. STUB: to be completed.
fn main() {}
