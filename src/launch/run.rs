//! Running a manifest on the CPU: load, decode, lower, build the waves, run, check.

use super::build::{check, initial_waves, place_images, Mismatch, Placed, IMAGE_MEMORY_CAP};
use super::manifest::{parse, Caps, CodeSource, Launch};
use crate::arch::Arch;
use crate::cpu::{self, WaveState};
use crate::gcn;
use crate::input::{self, InputError};
use std::path::Path;

/// The outcome of a CPU run of a manifest.
#[derive(Debug)]
pub struct Outcome {
    /// The validated launch.
    pub launch: Launch,
    /// The arch the code ran as.
    pub arch: Arch,
    /// Final wave states.
    pub waves: Vec<WaveState>,
    /// Failed `[expect]` entries.
    pub mismatches: Vec<Mismatch>,
    /// Image memory after the run.
    pub memory: cpu::Memory,
    /// The images' descriptors, in manifest order.
    pub images: Vec<Placed>,
}

/// Reads the manifest at `path`, runs it on the CPU interpreter and checks its
/// `[expect]` entries. `arch` and `waves` override the manifest's; `mem_cap`
/// caps image memory (default [`IMAGE_MEMORY_CAP`]).
/// Every error names the manifest (or code file) and the field or offset.
pub fn run_manifest(
    path: &Path,
    arch: Option<&str>,
    waves: Option<u32>,
    mem_cap: Option<u64>,
) -> Result<Outcome, InputError> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path)
        .map_err(|e| InputError::whole(&name, format!("cannot read: {e}")))?;
    let caps = Caps::default();
    let mut launch = parse(&text, &caps).map_err(|e| InputError::whole(&name, e.to_string()))?;
    if let Some(a) = arch {
        launch.arch = Arch::parse(a)
            .ok_or_else(|| InputError::whole("--arch", format!("unknown arch `{a}`")))?;
    }
    if let Some(n) = waves {
        if n == 0 || n > caps.max_waves {
            return Err(InputError::whole(
                "--waves",
                format!("{n} is outside 1..={}", caps.max_waves),
            ));
        }
        launch.waves = n;
    }
    let program = match &launch.code {
        CodeSource::File(f) => {
            let p = path.parent().unwrap_or(Path::new(".")).join(f);
            input::load_file(&p)?
        }
        CodeSource::Bytes(b) => input::load_bytes(&format!("{name}: hex"), b.clone(), false)?,
    };
    run_launch(launch, &program, &name, mem_cap)
}

/// Runs a bare code file in the embedded default environment
/// ([`super::default_env`]); `mem_cap` as for [`run_manifest`].
pub fn run_default(
    program: &input::Program,
    arch: Arch,
    waves: Option<u32>,
    mem_cap: Option<u64>,
) -> Result<Outcome, InputError> {
    let mut launch = super::default_env::default_launch(arch);
    if let Some(n) = waves {
        if n == 0 || n > Caps::default().max_waves {
            return Err(InputError::whole(
                "--waves",
                format!("{n} is outside 1..={}", Caps::default().max_waves),
            ));
        }
        launch.waves = n;
    }
    run_launch(launch, program, &program.name, mem_cap)
}

/// Decodes, lowers, builds the initial state and runs; `name` names the launch
/// (the manifest, or the code file) in errors.
fn run_launch(
    launch: Launch,
    program: &input::Program,
    name: &str,
    mem_cap: Option<u64>,
) -> Result<Outcome, InputError> {
    let caps = Caps::default();
    let arch = launch.arch;
    let insts = gcn::decode_stream(&program.bytes, &arch)
        .map_err(|e| InputError::whole(&program.name, e.to_string()))?;
    let prog = gcn::lower::lower(&insts, &arch)
        .map_err(|e| InputError::at(&program.name, e.offset, e.what))?;
    let (mut memory, placed) = place_images(&launch, mem_cap.unwrap_or(IMAGE_MEMORY_CAP))
        .map_err(|e| InputError::whole(name, e.to_string()))?;
    let mut states = initial_waves(&launch, caps.lds_bytes, &placed)
        .map_err(|e| InputError::whole(name, e.to_string()))?;
    cpu::run(&prog, &mut states, &mut memory).map_err(|e| {
        InputError::at(
            &program.name,
            e.offset,
            format!("wave {}: {}", e.wave, e.message),
        )
    })?;
    let mismatches = check(&launch.expect, &states);
    Ok(Outcome {
        launch,
        arch,
        waves: states,
        mismatches,
        memory,
        images: placed,
    })
}
