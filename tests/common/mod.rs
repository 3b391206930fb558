//! Helpers shared by the integration tests.
#![allow(dead_code)]
pub mod corpus;
pub mod gpu;
pub mod launches;
pub mod llvm;
