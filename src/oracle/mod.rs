//! Independent oracles: answers gcnrun did not compute itself, to check its own
//! against. [`native`] samples the same data with the host GPU's own sampler
//! (wgpu texture sampling, lavapipe's on a machine without a GPU).

pub mod native;
