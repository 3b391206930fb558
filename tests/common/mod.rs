//! Helpers shared by the integration tests.
#![allow(dead_code)]
pub mod corpus;
pub mod launches;
pub mod llvm;
