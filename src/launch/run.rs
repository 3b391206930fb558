//! Running a launch: load, decode, lower, build the waves (prepare), then run it
//! on the CPU, on the GPU, or on both and compare.

use super::build::{check, initial_waves, place_images, Mismatch, Placed, IMAGE_MEMORY_CAP};
use super::error::LaunchError;
use super::manifest::{parse, Caps, CodeSource, Launch, ManifestError};
use crate::arch::Arch;
use crate::cpu;
use crate::gcn;
use crate::input;
use crate::input::InputError;
use crate::machine::{Memory, WaveState};
use std::path::Path;

/// A launch ready to run: decoded, lowered, images placed, waves built.
#[derive(Clone, Debug)]
pub struct Prepared {
    /// The validated launch.
    pub launch: Launch,
    /// The arch the code runs as.
    pub arch: Arch,
    /// The lowered program.
    pub prog: crate::ir::Program,
    /// Initial wave states.
    pub waves: Vec<WaveState>,
    /// Initial image memory.
    pub memory: Memory,
    /// The images' descriptors, in manifest order.
    pub images: Vec<Placed>,
    /// The code's name (for errors at an offset).
    pub code_name: String,
    /// An Intel vISA launch's program, layout and buffers (its op offsets
    /// are source lines).
    pub visa: Option<super::visa::VisaRun>,
    /// A code-object kernel launch's kernel, dispatch, arguments and buffers
    /// (its op offsets count from the kernel's entry).
    pub hsa: Option<super::hsa::HsaRun>,
    /// The work budget and the interrupt a run polls ([`Prepared::set_max_steps`];
    /// docs/semantics/core.md, "The work budget").
    pub limits: cpu::Limits,
    /// The largest GPU module the translator may build
    /// ([`crate::gpu::translate::DEFAULT_MAX_MODULE_BYTES`] unless set;
    /// docs/gpu.md, "Module size").
    pub max_module_bytes: u64,
    /// Where a whole-program module starts sharing its float functions
    /// ([`crate::gpu::translate::DEFAULT_SHARE_ALU_ABOVE`] unless set;
    /// docs/gpu.md, "Shared ALU sites").
    pub share_alu_above: u64,
    /// A draw launch's pixels and export area, to resolve its exports into
    /// its render targets after the run (`launch::draw::resolve`).
    pub draw: Option<super::draw::DrawRun>,
}

impl Prepared {
    /// The launch's GPU translation with `options`, under the launch's own
    /// work budget, module size and sharing threshold, each image
    /// instruction specialised on the CPU's run of the first wave
    /// ([`predictor`]): what `gcn-run --gpu` runs and `--emit-wgsl` prints.
    pub fn translate(
        &self,
        options: crate::gpu::translate::Options,
    ) -> Result<crate::gpu::translate::Translation, crate::gpu::translate::TranslateError> {
        let options = crate::gpu::translate::Options {
            max_steps: self.limits.max_steps,
            max_module_bytes: self.max_module_bytes,
            share_alu_above: self.share_alu_above,
            ..options
        };
        let predict = predictor(&self.prog, &self.waves, &self.memory);
        crate::gpu::translate::translate_predicted(
            &self.prog,
            &self.waves,
            &self.memory,
            options,
            Some(&predict),
        )
    }

    /// An Intel launch prepared by `launch::visa`, its code named `code_name`,
    /// or an error when the machine cannot give its registers.
    pub fn from_visa(
        p: super::visa::VisaPrepared,
        code_name: String,
    ) -> Result<Prepared, LaunchError> {
        Prepared {
            arch: p.launch.arch,
            launch: p.launch,
            prog: p.prog,
            waves: p.waves,
            memory: p.memory,
            images: p.images,
            code_name,
            visa: Some(p.visa),
            hsa: None,
            limits: cpu::Limits::default(),
            max_module_bytes: crate::gpu::translate::DEFAULT_MAX_MODULE_BYTES,
            share_alu_above: crate::gpu::translate::DEFAULT_SHARE_ALU_ABOVE,
            draw: None,
        }
        .with_manifest_budget()
        .with_vgpr_rows()
    }

    /// A code-object kernel launch laid out by `launch::hsa::build`, with its
    /// lowered program, or an error when the machine cannot give its
    /// registers.
    pub fn from_hsa(
        b: super::hsa::Built,
        prog: crate::ir::Program,
    ) -> Result<Prepared, LaunchError> {
        Prepared {
            arch: b.launch.arch,
            launch: b.launch,
            prog,
            waves: b.waves,
            memory: b.memory,
            images: b.images,
            code_name: b.code_name,
            visa: None,
            hsa: Some(b.run),
            limits: cpu::Limits::default(),
            max_module_bytes: crate::gpu::translate::DEFAULT_MAX_MODULE_BYTES,
            share_alu_above: crate::gpu::translate::DEFAULT_SHARE_ALU_ABOVE,
            draw: None,
        }
        .with_manifest_budget()
        .with_vgpr_rows()
    }

    /// Sets the work budget from the command line (`--max-steps`; `None`:
    /// the default, [`crate::ir::budget::DEFAULT_MAX_STEPS`]). A manifest's
    /// `max_steps` can only lower it, as its `mem_cap` lowers `--mem-cap`.
    pub fn set_max_steps(&mut self, max_steps: Option<u64>) {
        let base = max_steps.unwrap_or(crate::ir::budget::DEFAULT_MAX_STEPS);
        self.limits.max_steps = self.launch.max_steps.map_or(base, |m| m.min(base));
    }

    fn with_manifest_budget(mut self) -> Prepared {
        self.set_max_steps(None);
        self
    }

    /// Gives every wave the VGPR rows its program names
    /// ([`crate::ir::Program::vgpr_rows`]), stored now, with the rest of the
    /// launch's state, rather than grown register by register during the
    /// run (`WaveState::store_vgpr_rows`; no value changes either way), or
    /// an error naming the code when the machine cannot give the memory.
    fn with_vgpr_rows(mut self) -> Result<Prepared, LaunchError> {
        for w in &mut self.waves {
            w.store_vgpr_rows(self.prog.vgpr_rows)
                .map_err(|source| LaunchError::Alloc {
                    name: self.code_name.clone(),
                    what: "the VGPR rows of the program's registers",
                    source,
                })?;
        }
        Ok(self)
    }

    /// A copy (`--diff` runs the launch twice), or an error naming the code
    /// when the machine cannot give the memory for a second copy of the
    /// waves and the image memory.
    pub fn try_clone(&self) -> Result<Prepared, LaunchError> {
        let no_memory = |source| LaunchError::Alloc {
            name: self.code_name.clone(),
            what: "a second copy of the launch's state (--diff)",
            source,
        };
        let mut waves = Vec::new();
        waves
            .try_reserve_exact(self.waves.len())
            .map_err(|_| no_memory(crate::machine::AllocError::new(self.waves.len() as u64)))?;
        for w in &self.waves {
            waves.push(w.try_clone().map_err(no_memory)?);
        }
        Ok(Prepared {
            launch: self.launch.clone(),
            arch: self.arch,
            prog: self.prog.clone(),
            waves,
            memory: self.memory.try_clone().map_err(no_memory)?,
            images: self.images.clone(),
            code_name: self.code_name.clone(),
            visa: self.visa.clone(),
            hsa: self.hsa.clone(),
            limits: self.limits,
            max_module_bytes: self.max_module_bytes,
            share_alu_above: self.share_alu_above,
            draw: self.draw.clone(),
        })
    }

    /// Image names and their descriptors, in manifest order.
    pub fn named_images(&self) -> Vec<(String, crate::texture::descriptor::ImageDesc)> {
        self.launch
            .images
            .iter()
            .zip(&self.images)
            .map(|(spec, p)| (spec.name.clone(), p.desc))
            .collect()
    }
}

/// The outcome of a run of a manifest.
#[derive(Debug)]
pub struct Outcome {
    /// `cpu` or `gpu`.
    pub backend: &'static str,
    /// The validated launch.
    pub launch: Launch,
    /// The arch the code ran as.
    pub arch: Arch,
    /// Final wave states.
    pub waves: Vec<WaveState>,
    /// Failed `[expect]` entries.
    pub mismatches: Vec<Mismatch>,
    /// Image memory after the run.
    pub memory: Memory,
    /// The images' descriptors, in manifest order.
    pub images: Vec<Placed>,
    /// An Intel launch's specifics.
    pub visa: Option<super::visa::VisaRun>,
    /// A kernel launch's specifics.
    pub hsa: Option<super::hsa::HsaRun>,
    /// A draw launch's pixels (`launch::draw`).
    pub draw: Option<super::draw::DrawRun>,
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
) -> Result<Outcome, LaunchError> {
    run_cpu(prepare_manifest(path, arch, waves, mem_cap)?)
}

/// Reads the manifest at `path` and prepares its launch (arguments as for
/// [`run_manifest`]).
pub fn prepare_manifest(
    path: &Path,
    arch: Option<&str>,
    waves: Option<u32>,
    mem_cap: Option<u64>,
) -> Result<Prepared, LaunchError> {
    prepare_manifest_with(path, None, arch, waves, mem_cap)
}

/// Prepares the AMD launch manifest at `path` with `code` instead of the code
/// its `code`/`hex` names: `gcn-run kernel.bin --manifest m.toml` runs the
/// kernel in the manifest's environment (images, samplers, registers, waves,
/// `[expect]`), as `gcn-run k.visaasm --manifest m.toml` does for Intel. The
/// arch is `arch` (`--arch`), else the manifest's, as when the manifest names
/// the code itself. An Intel manifest is refused: it runs vISA programs.
pub fn prepare_manifest_code(
    path: &Path,
    code: &input::Program,
    arch: Option<&str>,
    waves: Option<u32>,
    mem_cap: Option<u64>,
) -> Result<Prepared, LaunchError> {
    prepare_manifest_with(path, Some(code), arch, waves, mem_cap)
}

/// The arch a manifest's launch runs as (its `arch`, or the default), for
/// listing code given with `--manifest`; an Intel manifest is refused.
pub fn manifest_arch(path: &Path) -> Result<Arch, LaunchError> {
    let name = path.display().to_string();
    let text = input::read_text(path, input::FileKind::MANIFEST)?;
    if super::visa::is_visa(&text) {
        return Err(LaunchError::IntelManifest { name });
    }
    let launch = parse(&text, &Caps::default()).map_err(|e| LaunchError::manifest(&name, e))?;
    Ok(launch.arch)
}

/// [`prepare_manifest`], with `code` (when given) in place of the manifest's.
fn prepare_manifest_with(
    path: &Path,
    code: Option<&input::Program>,
    arch: Option<&str>,
    waves: Option<u32>,
    mem_cap: Option<u64>,
) -> Result<Prepared, LaunchError> {
    let name = path.display().to_string();
    let text = input::read_text(path, input::FileKind::MANIFEST)?;
    if super::visa::is_visa(&text) && code.is_some() {
        return Err(LaunchError::IntelManifest { name });
    }
    if super::visa::is_visa(&text) {
        if arch.is_some() || waves.is_some() {
            return Err(LaunchError::IntelOptions { name });
        }
        let p = super::visa::prepare(path, None, mem_cap.unwrap_or(IMAGE_MEMORY_CAP))?;
        let code_name = match &p.launch.code {
            CodeSource::File(f) => path
                .parent()
                .unwrap_or(Path::new("."))
                .join(f)
                .display()
                .to_string(),
            CodeSource::Bytes(_) => name.clone(),
        };
        return Prepared::from_visa(p, code_name);
    }
    // A kernel launch of an HSA code object (launch::hsa).
    if code.is_none() && super::hsa::runs_kernel(path, &text) {
        if waves.is_some() {
            return Err(InputError::whole(
                "--waves",
                "a kernel launch's waves come from its grid and work-group size (--grid, --block)",
            )
            .into());
        }
        let opts = super::hsa::Options {
            arch: arch.map(str::to_string),
            mem_cap,
            ..Default::default()
        };
        return Ok(super::hsa::prepare_manifest(path, &text, &opts)?);
    }
    let caps = Caps::default();
    let mut launch = parse(&text, &caps).map_err(|e| LaunchError::manifest(&name, e))?;
    if let Some(a) = arch {
        launch.arch = Arch::parse(a).ok_or_else(|| LaunchError::UnknownArch {
            arch: a.to_string(),
        })?;
    }
    if let Some(n) = waves {
        if n == 0 || n > caps.max_waves {
            return Err(LaunchError::Waves {
                waves: n,
                max: caps.max_waves,
            });
        }
        launch.waves = n;
    }
    // PNG images are read now, relative to the manifest, into texel bytes.
    let dir = path.parent().unwrap_or(Path::new("."));
    for (i, im) in launch.images.iter_mut().enumerate() {
        if let crate::launch::manifest::ImageInit::Png(file) = &im.init {
            let bytes = super::png::texels_from_png(&dir.join(file), im).map_err(|e| {
                LaunchError::manifest(&name, ManifestError::new(format!("image[{i}].init"), e))
            })?;
            im.init = crate::launch::manifest::ImageInit::Bytes(bytes);
        }
    }
    let loaded;
    let program = match (code, &launch.code) {
        (Some(program), _) => program,
        (None, CodeSource::File(f)) => {
            loaded = input::load_file(&dir.join(f))?;
            &loaded
        }
        (None, CodeSource::Bytes(b)) => {
            loaded = input::load_bytes(&format!("{name}: hex"), b.clone(), false)?;
            &loaded
        }
    };
    prepare(launch, program, &name, mem_cap)
}

/// Prepares the Intel launch manifest at `manifest`, running the vISA program
/// `code` instead of the one its `code` names (`gcn-run k.visaasm --manifest m.toml`).
pub fn prepare_visa(
    manifest: &Path,
    code: &Path,
    mem_cap: Option<u64>,
) -> Result<Prepared, LaunchError> {
    let p = super::visa::prepare(manifest, Some(code), mem_cap.unwrap_or(IMAGE_MEMORY_CAP))?;
    Prepared::from_visa(p, code.display().to_string())
}

/// Prepares a manifest given as text whose code is inline (`hex = …`); `name`
/// names it in errors. `gcn-run bench` builds its workloads this way.
pub fn prepare_text(text: &str, name: &str, mem_cap: Option<u64>) -> Result<Prepared, LaunchError> {
    let caps = Caps::default();
    let launch = parse(text, &caps).map_err(|e| LaunchError::manifest(name, e))?;
    let program = match &launch.code {
        CodeSource::Bytes(b) => input::load_bytes(&format!("{name}: hex"), b.clone(), false)?,
        CodeSource::File(f) => {
            return Err(LaunchError::InlineCode {
                name: name.to_string(),
                code: f.clone(),
            })
        }
    };
    prepare(launch, &program, name, mem_cap)
}

/// Runs a bare code file in the embedded default environment
/// ([`super::default_env`]); `mem_cap` as for [`run_manifest`].
pub fn run_default(
    program: &input::Program,
    arch: Arch,
    waves: Option<u32>,
    mem_cap: Option<u64>,
) -> Result<Outcome, LaunchError> {
    run_cpu(prepare_default(program, arch, waves, mem_cap)?)
}

/// Prepares a bare code file's launch in the embedded default environment.
pub fn prepare_default(
    program: &input::Program,
    arch: Arch,
    waves: Option<u32>,
    mem_cap: Option<u64>,
) -> Result<Prepared, LaunchError> {
    let mut launch = super::default_env::default_launch(arch);
    if let Some(n) = waves {
        if n == 0 || n > Caps::default().max_waves {
            return Err(LaunchError::Waves {
                waves: n,
                max: Caps::default().max_waves,
            });
        }
        launch.waves = n;
    }
    prepare(launch, program, &program.name, mem_cap)
}

/// Decodes, lowers and builds the initial state; `name` names the launch (the
/// manifest, or the code file) in errors.
fn prepare(
    launch: Launch,
    program: &input::Program,
    name: &str,
    mem_cap: Option<u64>,
) -> Result<Prepared, LaunchError> {
    let caps = Caps::default();
    let arch = launch.arch;
    // Decoded and lowered one instruction at a time: the decoded program is
    // never held whole (README, "Memory").
    let mut prog =
        gcn::lower::lower_bytes(&program.bytes, &arch).map_err(|source| LaunchError::Code {
            name: program.name.clone(),
            source,
        })?;
    let cap = mem_cap.unwrap_or(IMAGE_MEMORY_CAP);
    let (mut memory, images) =
        place_images(&launch, cap).map_err(|e| LaunchError::manifest(name, e))?;
    let image_names: Vec<&str> = launch.images.iter().map(|i| i.name.as_str()).collect();
    let cap = launch.mem_cap.map_or(cap, |m| m.min(cap));
    let buffers = super::buffer::place_buffers(&launch.buffers, &mut memory, &image_names, cap)
        .map_err(|e| LaunchError::manifest(name, e))?;
    let tsharp = |n: &str| {
        let i = launch.images.iter().position(|im| im.name == n)?;
        images.get(i).map(|p| p.tsharp)
    };
    let ssharp = |n: &str| {
        let s = launch.samplers.iter().find(|s| s.name == n)?;
        Some(crate::texture::descriptor::encode_sampler_for(
            &super::build::sampler_desc(s),
            arch.gen,
        ))
    };
    super::buffer::write_descriptors(&launch.buffers, &buffers, &mut memory, &tsharp, &ssharp)
        .map_err(|e| LaunchError::manifest(name, e))?;
    let mut launch = launch;
    // A draw is rasterized once: its waves set the launch's wave count.
    let plan = match &launch.draw {
        Some(d) => Some(
            super::draw::plan(d, launch.wave_size, caps.max_waves)
                .map_err(|e| LaunchError::manifest(name, e))?,
        ),
        None => None,
    };
    if let Some(p) = &plan {
        launch.waves = p.wave_count();
    }
    let mut waves = initial_waves(&launch, lds_for(&prog, caps.lds_bytes), &images, &buffers)
        .map_err(|e| LaunchError::manifest(name, e))?;
    let draw = match (&launch.draw, &plan) {
        (Some(d), Some(plan)) => {
            let run = super::draw::setup(d, plan, arch.gen, &mut waves, &mut memory, cap)
                .map_err(|e| LaunchError::manifest(name, e))?;
            prog.exports = Some(run.export_base);
            Some(run)
        }
        _ => None,
    };
    Prepared {
        launch,
        arch,
        prog,
        waves,
        memory,
        images,
        code_name: program.name.clone(),
        visa: None,
        hsa: None,
        limits: cpu::Limits::default(),
        max_module_bytes: crate::gpu::translate::DEFAULT_MAX_MODULE_BYTES,
        share_alu_above: crate::gpu::translate::DEFAULT_SHARE_ALU_ABOVE,
        draw,
    }
    .with_manifest_budget()
    .with_vgpr_rows()
}

/// The LDS each wave of `prog` gets: a work-group's `lds_bytes` when the
/// program has an operation that may touch it
/// ([`crate::ir::Program::uses_lds`]), else none — nothing could read or
/// write it, so no result changes, and a launch of 2^20 lanes holds 1 GiB
/// less. Every launch path decides with it before it allocates the waves'
/// LDS (this module's manifest launches, `hsa::prepare`), so no wave holds
/// LDS it then drops (a gigabyte at 16384 waves, the process's peak).
pub fn lds_for(prog: &crate::ir::Program, lds_bytes: u32) -> u32 {
    if prog.uses_lds() {
        lds_bytes
    } else {
        0
    }
}

/// Runs a prepared launch on the CPU interpreter and checks `[expect]`.
pub fn run_cpu(p: Prepared) -> Result<Outcome, LaunchError> {
    let Prepared {
        launch,
        arch,
        prog,
        mut waves,
        mut memory,
        images,
        code_name,
        visa,
        hsa,
        limits,
        max_module_bytes: _,
        share_alu_above: _,
        draw,
    } = p;
    cpu::run_with(&prog, &mut waves, &mut memory, &limits)
        .map_err(|e| LaunchError::exec(&code_name, visa.is_some(), e))?;
    if let Some(d) = &draw {
        super::draw::resolve(d, &images, &mut memory);
    }
    let mut mismatches = mismatches(&launch, visa.as_ref(), hsa.as_ref(), &waves, &memory);
    if let (Some(spec), Some(d)) = (&launch.draw, &draw) {
        mismatches.extend(super::draw::check(spec, d, &images, &memory));
    }
    Ok(Outcome {
        backend: "cpu",
        launch,
        arch,
        waves,
        mismatches,
        memory,
        images,
        visa,
        hsa,
        draw,
    })
}

/// The failed expectations of a run: `[intel.expect]`, or `[expect]` and a
/// kernel launch's `[kernel.expect]`.
fn mismatches(
    launch: &Launch,
    visa: Option<&super::visa::VisaRun>,
    hsa: Option<&super::hsa::HsaRun>,
    waves: &[WaveState],
    memory: &Memory,
) -> Vec<Mismatch> {
    match visa {
        Some(r) => super::visa::check(r, waves, memory),
        None => {
            let mut m = check(&launch.expect, waves);
            if let Some(h) = hsa {
                m.extend(super::hsa::check(h, memory));
            }
            m
        }
    }
}

/// Why a GPU run failed: bad input, or the GPU.
#[derive(Debug, thiserror::Error)]
pub enum GpuRunError {
    /// The launch is refused: the program cannot be translated, or a module
    /// faulted while it ran (exit code 2).
    #[error(transparent)]
    Input(#[from] LaunchError),
    /// No adapter, a device error or a translator bug (exit code 3).
    #[error(transparent)]
    Gpu(crate::gpu::GpuError),
}

/// Translates a prepared launch, runs it on `gpu` and checks `[expect]`.
pub fn run_gpu(
    p: Prepared,
    gpu: &crate::gpu::Gpu,
) -> Result<(Outcome, crate::gpu::runtime::RunOutput), GpuRunError> {
    let options = crate::gpu::translate::Options {
        int64_atomics: gpu.int64_atomics,
        ..Default::default()
    };
    run_gpu_with(p, gpu, options)
}

/// [`run_gpu`] with translation options (`--diff` traces atomics; native
/// 64-bit atomics need a device with them, `Gpu::int64_atomics`).
pub fn run_gpu_with(
    p: Prepared,
    gpu: &crate::gpu::Gpu,
    options: crate::gpu::translate::Options,
) -> Result<(Outcome, crate::gpu::runtime::RunOutput), GpuRunError> {
    // Native 64-bit atomics only where the device has them.
    let tr = p.translate(crate::gpu::translate::Options {
        int64_atomics: options.int64_atomics && gpu.int64_atomics,
        ..options
    });
    let Prepared {
        launch,
        arch,
        mut waves,
        mut memory,
        images,
        code_name,
        visa,
        hsa,
        draw,
        ..
    } = p;
    // What the translator refuses, the GPU backend refuses (the CPU may run
    // it): the message says so.
    let refused = |e| GpuRunError::Input(LaunchError::translate(&code_name, visa.is_some(), e));
    let tr = tr.map_err(refused)?;
    let stats =
        crate::gpu::runtime::run(gpu, &tr, &mut waves, &mut memory).map_err(|e| match e {
            // A fault the program hit while running: bad input, as on the CPU.
            crate::gpu::GpuError::Translate(e) => refused(e),
            e => GpuRunError::Gpu(e),
        })?;
    if let Some(d) = &draw {
        super::draw::resolve(d, &images, &mut memory);
    }
    let mut mismatches = mismatches(&launch, visa.as_ref(), hsa.as_ref(), &waves, &memory);
    if let (Some(spec), Some(d)) = (&launch.draw, &draw) {
        mismatches.extend(super::draw::check(spec, d, &images, &memory));
    }
    Ok((
        Outcome {
            backend: "gpu",
            launch,
            arch,
            waves,
            mismatches,
            memory,
            images,
            visa,
            hsa,
            draw,
        },
        stats,
    ))
}

/// Both backends on one prepared launch and their comparison (`--diff`).
#[derive(Debug)]
pub struct DiffOutcome {
    /// The CPU run.
    pub cpu: Outcome,
    /// The GPU run.
    pub gpu: Outcome,
    /// What the GPU run measured and traced.
    pub gpu_run: crate::gpu::runtime::RunOutput,
    /// The comparison.
    pub report: crate::diff::Report,
    /// Wall time of the CPU run.
    pub cpu_time: std::time::Duration,
}

/// Runs a prepared launch on the CPU and on `gpu` (tracing atomics) and
/// compares them (docs/gpu.md, "Diff policy").
pub fn run_diff(p: Prepared, gpu: &crate::gpu::Gpu) -> Result<DiffOutcome, GpuRunError> {
    let images = p.named_images();
    let initial = p.memory.try_clone().map_err(|source| LaunchError::Alloc {
        name: p.code_name.clone(),
        what: "a copy of the initial image memory (--diff)",
        source,
    })?;
    let t = std::time::Instant::now();
    let cpu = run_cpu(p.try_clone()?)?;
    let cpu_time = t.elapsed();
    let options = crate::gpu::translate::Options {
        trace_atomics: true,
        int64_atomics: gpu.int64_atomics,
        ..Default::default()
    };
    let (gpu_out, gpu_run) = run_gpu_with(p, gpu, options)?;
    let relax = crate::diff::linearize::check(
        &gpu_run.atomics,
        &gpu_run.traced,
        gpu_run.serial_waves,
        &initial,
        &gpu_out.memory,
        &gpu_out.waves,
    );
    let (a, b) = (
        (&cpu.waves[..], &cpu.memory),
        (&gpu_out.waves[..], &gpu_out.memory),
    );
    // An Intel launch is reported by variable and predicate names.
    let report = match &cpu.visa {
        Some(run) => {
            crate::diff::compare_visa(a, b, &images, Some(&relax), &run.vars, &run.buffer_ranges())
        }
        None => crate::diff::compare(a, b, &images, Some(&relax)),
    };
    Ok(DiffOutcome {
        cpu,
        gpu: gpu_out,
        gpu_run,
        report,
        cpu_time,
    })
}

/// The CPU reference's prediction of a whole program's scalar registers at
/// an op, for the GPU translation (`gpu::translate::whole::Predict`): the
/// launch's first wave runs on copies of itself and of memory, with that op
/// made an end, and its registers are where it stopped. The translation
/// specialises image instructions on the descriptors found there and the
/// module checks them where it runs (docs/gpu.md, "Whole programs").
pub fn predictor<'a>(
    prog: &'a crate::ir::Program,
    waves: &'a [WaveState],
    memory: &'a Memory,
) -> impl Fn(usize) -> Option<WaveState> + 'a {
    move |i| {
        let first = waves.first()?;
        let mut p = prog.clone();
        p.ops.get_mut(i)?.1 = crate::ir::Op::End;
        let mut w = first.clone();
        let mut m = memory.try_clone().ok()?;
        crate::cpu::run_wave(&p, &mut w, &mut m).ok()?;
        Some(w)
    }
}
