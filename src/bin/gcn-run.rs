//! The `gcn-run` command line: argument parsing, printing and exit codes, nothing
//! else. Loading lives in `gcnrun::input`, decoding in `gcnrun::gcn`, output
//! shapes in `gcnrun::report`. Interface contract: SPEC.md.

// Doc comments on the CLI types are clap's help text (`[draw]`, `X,Y[,Z]`),
// not rustdoc links.
#![allow(rustdoc::broken_intra_doc_links)]

use clap::{Args, Parser, Subcommand};
use gcnrun::input::{self, InputError};
use gcnrun::launch::LaunchError;
use gcnrun::report;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Exit status for bad input or usage (SPEC.md: "2 bad input").
const EXIT_BAD_INPUT: u8 = 2;

const EXAMPLES: &str = "\
Examples:
  gcn-run assets/gradient_quad.bin --out out           (default environment, PNGs in out/)
  gcn-run --disasm assets/sample_quad.bin
  gcn-run --disasm --arch gfx1030 kernel.bin
  gcn-run --disasm kernel.hsaco                       (arch from the code object's e_flags)
  gcn-run --disasm --arch gfx9 --hex \"00 0f 80 f0 01 01 61 00\"
  gcn-run --disasm --arch gfx9 --hex \"0xf0800f00 0x00610101\" --json
  gcn-run assets/interp_p1p2.toml --dump v3,v4 --json  (run a manifest on the CPU)

Inputs: a raw .bin of little-endian dwords, or an AMDGPU ELF code object
(.o/.co/.hsaco, recognised by its magic; the .text section is decoded).
--hex takes bytes in memory order (\"00 17 00 f0\", \"001700f0\", \"0x00,0x17\")
or 0x-prefixed 8-digit dwords (\"0xf0001700\", stored little-endian).

  gcn-run --gpu assets/gradient_quad.bin --out out     (the same on the GPU, via wgpu)
  gcn-run --diff assets/image_rw.toml                  (CPU and GPU, compared)
  gcn-run --diff assets/visa/bin/sample3d.isa --manifest assets/visa/bin/sample3d.toml
                                                       (Intel vISA; differences by variable)
  gcn-run --emit-wgsl assets/atomics.toml              (the generated WGSL)
  gcn-run --draw assets/radv/tex.gfx1100.toml --gpu --out out
                                                       (a pixel shader RADV compiled, drawn; out/mrt0.png)
  gcn-run kernel.hsaco --kernel vadd --grid 1024 --block 64 --manifest args.toml
                                                       (a kernel of an HSA code object)
  gcn-run --list-adapters
  gcn-run --max-steps 100000000 long.toml              (a larger work budget)

A run stops past its work budget (--max-steps, default 4194304 steps) and --gpu
refuses modules past --max-module-bytes (default 4m), each with one line, exit 2.

Exit codes: 0 ok, 1 mismatches (--diff, or a manifest's [expect]), 2 bad input,
3 no usable GPU adapter or a device error, 130 interrupted (Ctrl-C).";

/// gcn-run: decode, run and compare AMD GCN/RDNA image and interpolation
/// instructions.
#[derive(Parser, Debug)]
#[command(
    name = "gcn-run",
    version,
    about,
    override_usage = "gcn-run [MODE] [OPTIONS] <INPUT>\n       gcn-run bench [--json]",
    after_help = EXAMPLES,
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,

    #[command(flatten)]
    mode: Mode,

    /// Target: gfx6..gfx11, an alias (gcn1.0 gcn1.1 gcn1.2 gcn1.4 rdna1 rdna2
    /// rdna3) or a processor (tahiti, gfx810, gfx1030, ...). Default: the code
    /// object's, else gfx6.
    #[arg(long, value_name = "ARCH")]
    arch: Option<String>,

    /// Instruction bytes or dwords instead of a file (see below).
    #[arg(long, value_name = "BYTES", conflicts_with = "input")]
    hex: Option<String>,

    /// Machine-readable output: one JSON document on stdout.
    #[arg(long)]
    json: bool,

    /// Number of waves to run.
    #[arg(long, value_name = "N")]
    waves: Option<u32>,

    /// Cap on the image memory a run may allocate, in bytes (suffixes k, m, g
    /// for KiB, MiB, GiB). Default 1g; a manifest's `mem_cap` can only lower it.
    #[arg(long = "mem-cap", value_name = "BYTES", value_parser = parse_bytes)]
    mem_cap: Option<u64>,

    /// Work budget of a run, in steps: the operations its waves pass, each
    /// wave taking an equal share (docs/semantics/core.md, "The work budget").
    /// Default 4194304; a manifest's `max_steps` can only lower it. Past it
    /// the run stops with exit code 2.
    #[arg(long = "max-steps", value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    max_steps: Option<u64>,

    /// Largest GPU module to build, in bytes of WGSL with every call inlined
    /// (suffixes k, m, g). Default 4m; a larger program is refused before
    /// the driver spends minutes compiling it (docs/gpu.md, "Module size").
    #[arg(long = "max-module-bytes", value_name = "BYTES", value_parser = parse_bytes)]
    max_module_bytes: Option<u64>,

    /// Inlined bytes of float arithmetic a whole-program GPU module keeps in
    /// place (suffixes k, m, g). Default 64k; past it the module calls its
    /// heaviest repeated f32/f16/f64 functions through one shared copy each:
    /// several times faster to build, slower to run. 1 shares every repeated
    /// one; a large value (1g) shares none (docs/gpu.md, "Shared ALU sites").
    #[arg(long = "share-alu-above", value_name = "BYTES", value_parser = parse_bytes)]
    share_alu_above: Option<u64>,

    /// Registers to print after the run, e.g. `v[4:7],s0`.
    #[arg(long, value_name = "REGS")]
    dump: Option<String>,

    /// Directory to write images to, as PNG.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,

    /// GPU adapter to use (by name).
    #[arg(long, value_name = "NAME")]
    adapter: Option<String>,

    /// Print less.
    #[arg(long)]
    quiet: bool,

    /// The input is a draw: a manifest with a [draw] section, whose pixel
    /// shader runs over its triangles (docs/draw.md); anything else is refused.
    #[arg(long)]
    draw: bool,

    /// Launch manifest to run INPUT in, instead of the code the manifest names:
    /// an Intel manifest for a vISA INPUT (.visaasm or .isa: binding and sampler
    /// tables, thread payload; docs/visa.md), an AMD manifest for AMD code (a
    /// .bin, code object or --hex; its images, samplers, registers, waves,
    /// [expect]; arch: --arch, else the manifest's). With --disasm, AMD code is
    /// listed for the manifest's arch.
    #[arg(long, value_name = "TOML")]
    manifest: Option<PathBuf>,

    /// The kernel of an HSA code object to run (needed when it has several).
    #[arg(long, value_name = "NAME")]
    kernel: Option<String>,

    /// Grid size of a kernel launch in work-items (OpenCL global size; a HIP
    /// launch of G blocks of B threads is G×B), X[,Y[,Z]]. Default: one
    /// work-group.
    #[arg(long, value_name = "X[,Y[,Z]]", value_parser = parse_dims)]
    grid: Option<gcnrun::launch::hsa::dispatch::Dims>,

    /// Work-group size of a kernel launch (OpenCL local size), X[,Y[,Z]].
    /// Default: the kernel's required size, else 64.
    #[arg(long, value_name = "X[,Y[,Z]]", value_parser = parse_dims)]
    block: Option<gcnrun::launch::hsa::dispatch::Dims>,

    /// With --emit-wgsl: translate the WGSL further with naga, to SPIR-V
    /// (binary, on stdout), MSL or HLSL.
    // Not clap's `requires = "emit_wgsl"`: --emit-wgsl sits in the mode group,
    // and clap then names no argument in its error and lets a conflicting mode
    // (--disasm) satisfy the requirement; `check_options` says it plainly.
    #[arg(long, value_name = "TARGET", value_parser = ["wgsl", "spirv", "msl", "hlsl"])]
    target: Option<String>,

    /// List the GPU adapters wgpu finds and stop.
    #[arg(long = "list-adapters")]
    list_adapters: bool,

    /// List every instruction the backend would refuse (the CPU's; with --gpu,
    /// the GPU's), with offsets and a count per mnemonic, instead of stopping at
    /// the first. Exit 0 when none would be, 1 when some would, 2 for bad input.
    #[arg(long)]
    check: bool,

    /// Code file: raw .bin, AMDGPU ELF code object, launch manifest (.toml) or
    /// Intel vISA text (.visaasm) or binary object (.isa); a vISA program runs with --manifest.
    #[arg(value_name = "INPUT")]
    input: Option<PathBuf>,
}

/// What to do with the program (SPEC.md MODE; default `--cpu`).
#[derive(Args, Debug)]
#[group(multiple = false)]
struct Mode {
    /// Run on the CPU reference interpreter (the default).
    #[arg(long)]
    cpu: bool,
    /// Translate to WGSL and run through wgpu on the default adapter.
    #[arg(long)]
    gpu: bool,
    /// Run on CPU and GPU, compare, print mismatches; exit 1 if any.
    #[arg(long)]
    diff: bool,
    /// Print the decoded program (LLVM assembler syntax; canonical vISA text for Intel) and stop.
    #[arg(long)]
    disasm: bool,
    /// Print the generated WGSL and stop.
    #[arg(long = "emit-wgsl")]
    emit_wgsl: bool,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Run the standard workloads on CPU and GPU and print throughput.
    Bench {
        /// One JSON document on stdout.
        #[arg(long)]
        json: bool,
        /// Run only this workload.
        #[arg(long, value_name = "NAME")]
        workload: Option<String>,
        /// Lanes per workload, run as one launch: 1..=1048576 (16384 waves of
        /// 64); visa_sample holds at most 131072 (4096 threads of 32). Default 65536.
        #[arg(long, value_name = "N")]
        lanes: Option<u64>,
        /// Time budget per measurement, in seconds.
        #[arg(long, value_name = "S")]
        seconds: Option<f64>,
        /// GPU adapter to use (by name).
        #[arg(long, value_name = "NAME")]
        adapter: Option<String>,
        /// As for a run: inlined bytes of float arithmetic a whole-program
        /// module keeps in place before sharing its heaviest functions
        /// (default 64k; 1g shares none, for the translation's peak speed).
        #[arg(long = "share-alu-above", value_name = "BYTES", value_parser = parse_bytes)]
        share_alu_above: Option<u64>,
        /// Run each workload at 2^10, 2^12, … 2^20 lanes (those one launch
        /// holds) and print the time per lane-op and the launch's memory, so
        /// that cost growth shows; instead of --lanes.
        #[arg(long, conflicts_with = "lanes")]
        sweep: bool,
        /// Speculative workgroups for whole programs that write memory
        /// (docs/gpu.md, "Speculative workgroups") forced on or off, to
        /// compare the two on one adapter; by default on for every adapter
        /// but a CPU one.
        #[arg(long, value_name = "on|off", value_parser = ["on", "off"])]
        speculate: Option<String>,
    },
}

/// Exit status for "no usable GPU adapter or a device error" (SPEC.md).
const EXIT_NO_GPU: u8 = 3;

/// Exit status after Ctrl-C: 128 + SIGINT, the shells' convention.
const EXIT_INTERRUPTED: u8 = 130;

/// Ctrl-C's request to the CPU interpreter, which polls it where it counts
/// steps (docs/semantics/core.md, "The work budget").
static INTERRUPT: gcnrun::cpu::Interrupt = gcnrun::cpu::Interrupt::new();

/// Waves the CPU interpreter has finished, for the progress line ([`watched`]).
static PROGRESS: gcnrun::cpu::Progress = gcnrun::cpu::Progress::new();

/// How long a launch runs before its progress shows: a second, or the
/// milliseconds `GCNRUN_PROGRESS_AFTER_MS` gives (0: at once; the tests use
/// it to see the progress of a launch that is short on a fast machine).
fn progress_after() -> std::time::Duration {
    let ms = std::env::var("GCNRUN_PROGRESS_AFTER_MS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1000);
    std::time::Duration::from_millis(ms)
}

/// Whether progress goes to stderr: only where a person watches a terminal,
/// never with --json or when stderr is a pipe or a file (issue 17,
/// "Progress"). Launches ([`watched`]) and `gcn-run bench` ask it alike.
fn shows_progress(json: bool) -> bool {
    !json && std::io::IsTerminal::is_terminal(&std::io::stderr())
}

/// The progress line's style from its indicatif template (a spinner, should
/// the template not parse).
fn progress_style(template: &str) -> indicatif::ProgressStyle {
    indicatif::ProgressStyle::with_template(template)
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner())
}

/// Runs `f` (a launch of `waves` waves; `cpu`: whether the CPU interpreter
/// runs it, counting waves in [`PROGRESS`]) and, once it has taken more
/// than [`progress_after`], shows on stderr how far it has come — only where
/// a person watches a terminal: nothing with --json or when stderr is a
/// pipe or a file (issue 17, "Progress").
fn watched<T>(cli: &Cli, waves: usize, what: &str, cpu: bool, f: impl FnOnce() -> T) -> T {
    use std::sync::atomic::{AtomicBool, Ordering};
    if !shows_progress(cli.json) {
        return f();
    }
    let done = AtomicBool::new(false);
    let base = PROGRESS.waves();
    std::thread::scope(|scope| {
        scope.spawn(|| {
            let start = std::time::Instant::now();
            let tick = std::time::Duration::from_millis(50);
            let after = progress_after();
            while start.elapsed() < after {
                if done.load(Ordering::Relaxed) {
                    return;
                }
                std::thread::sleep(tick);
            }
            let template = if cpu {
                "{spinner} {msg} [{bar:30}] {pos}/{len} waves ({elapsed})"
            } else {
                "{spinner} {msg} ({elapsed})"
            };
            let bar = indicatif::ProgressBar::new(waves as u64)
                .with_message(what.to_string())
                .with_elapsed(start.elapsed());
            bar.set_style(progress_style(template));
            while !done.load(Ordering::Relaxed) {
                bar.set_position(PROGRESS.waves().saturating_sub(base));
                bar.tick();
                std::thread::sleep(tick);
            }
            bar.finish_and_clear();
        });
        // Set when `f` returns or unwinds, so that the scope's join of the
        // progress thread can never wait for ever.
        struct Done<'a>(&'a AtomicBool);
        impl Drop for Done<'_> {
            fn drop(&mut self) {
                self.0.store(true, Ordering::Relaxed);
            }
        }
        let _done = Done(&done);
        f()
    })
}

/// Installs the SIGINT handler: during a CPU run it asks the interpreter to
/// stop (the run then ends with "interrupted", exit code 130); at any other
/// time — reading input, compiling or dispatching on the GPU, printing — or
/// at a second Ctrl-C, it ends the process at once with the same line and
/// code.
fn handle_ctrl_c() {
    // A handler that cannot be installed leaves Ctrl-C's default (the
    // process ends by the signal), which is no reason to refuse to run.
    let _ = ctrlc::set_handler(|| {
        let again = INTERRUPT.requested();
        if again || !INTERRUPT.request() {
            let _ = std::io::stderr().write_all(b"gcn-run: interrupted\n");
            // No exit handlers: a driver thread may be running (a GPU
            // dispatch, LLVM compiling a shader for lavapipe).
            #[cfg(unix)]
            // SAFETY: _exit ends the process; it takes no pointers and is
            // async-signal-safe.
            unsafe {
                libc::_exit(i32::from(EXIT_INTERRUPTED))
            };
            #[cfg(not(unix))]
            std::process::exit(i32::from(EXIT_INTERRUPTED));
        }
    });
}

/// Why a command failed: bad input (exit 2) or the GPU (exit 3). The
/// library's typed errors are sorted here into the two, and printed as their
/// one line (`main`).
enum Failure {
    /// Bad input or usage: a file, an option, a manifest, a program that
    /// cannot run.
    Input(Box<dyn std::error::Error>),
    /// No usable adapter, a device error, a translator bug.
    Gpu(gcnrun::gpu::GpuError),
}

impl From<InputError> for Failure {
    fn from(e: InputError) -> Self {
        Failure::Input(Box::new(e))
    }
}

impl From<LaunchError> for Failure {
    fn from(e: LaunchError) -> Self {
        Failure::Input(Box::new(e))
    }
}

impl From<gcnrun::visa::LoadError> for Failure {
    fn from(e: gcnrun::visa::LoadError) -> Self {
        Failure::Input(Box::new(e))
    }
}

impl From<gcnrun::launch::run::GpuRunError> for Failure {
    fn from(e: gcnrun::launch::run::GpuRunError) -> Self {
        match e {
            gcnrun::launch::run::GpuRunError::Input(e) => e.into(),
            gcnrun::launch::run::GpuRunError::Gpu(e) => Failure::Gpu(e),
        }
    }
}

fn main() -> ExitCode {
    // Mesa's Vulkan drivers probe Wayland when wgpu creates an instance, and
    // libwayland prints "error: XDG_RUNTIME_DIR is invalid or not set" to
    // stderr when the variable is unset (headless machines, CI). gcn-run keeps
    // stderr for its own one-line errors, so it points the probe at the
    // temporary directory, where it finds no compositor and stays quiet. This
    // runs before any thread exists, so changing the environment is sound.
    if cfg!(target_os = "linux") && std::env::var_os("XDG_RUNTIME_DIR").is_none() {
        std::env::set_var("XDG_RUNTIME_DIR", std::env::temp_dir());
    }
    // A reader that closes the pipe early (`gcn-run --help | head`) must end
    // gcn-run quietly, as it ends any Unix tool, not make `println!` panic:
    // Rust ignores SIGPIPE by default, so restore the default action.
    #[cfg(unix)]
    // SAFETY: setting a signal's disposition to SIG_DFL before any thread
    // exists has no preconditions.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return usage_error(e),
    };
    if let Err(message) = check_options(&cli) {
        return fail(&format!("{message} (try --help)"));
    }
    handle_ctrl_c();
    let mut note = None;
    let result = run(&cli, &mut note);
    // A run that Ctrl-C stopped (or that ended as it arrived) ends with one
    // line, whatever it returned.
    if INTERRUPT.requested() {
        eprintln!("gcn-run: interrupted");
        return ExitCode::from(EXIT_INTERRUPTED);
    }
    // The note (an arch nobody chose) ends the error line of a failed run, so
    // that the error stays one line, and is a line of its own otherwise.
    let with_note = |line: String| match &note {
        Some(n) => format!("{line}; note: {n}"),
        None => line,
    };
    match result {
        Ok(code) => {
            if let Some(n) = &note {
                eprintln!("gcn-run: note: {}", gcnrun::input::one_line(n));
            }
            code
        }
        Err(Failure::Input(e)) => fail(&with_note(e.to_string())),
        Err(Failure::Gpu(e)) => {
            eprintln!("gcn-run: {}", with_note(e.to_string()));
            ExitCode::from(EXIT_NO_GPU)
        }
    }
}

/// Rules between options that clap does not express well; a message for the
/// one broken.
fn check_options(cli: &Cli) -> Result<(), String> {
    if cli.mode.disasm && kernel_options(cli).is_some() {
        return Err(format!(
            "{} sets up a kernel launch: not with --disasm (which lists the whole .text)",
            kernel_options(cli).unwrap_or("--kernel")
        ));
    }
    if cli.check && (cli.mode.diff || cli.mode.disasm || cli.mode.emit_wgsl) {
        return Err("--check lists what the CPU (default) or --gpu would refuse: not with --diff, --disasm or --emit-wgsl".into());
    }
    if cli.target.is_some() && !cli.mode.emit_wgsl {
        return Err(
            "--target needs --emit-wgsl: it picks the language the generated WGSL is translated to"
                .into(),
        );
    }
    Ok(())
}

/// `--grid`, `--block`: one to three positive integers, comma-separated.
fn parse_dims(s: &str) -> Result<gcnrun::launch::hsa::dispatch::Dims, String> {
    gcnrun::launch::hsa::dispatch::Dims::parse(s)
}

/// The first of `--kernel`, `--grid`, `--block` given, if any.
fn kernel_options(cli: &Cli) -> Option<&'static str> {
    [
        ("--kernel", cli.kernel.is_some()),
        ("--grid", cli.grid.is_some()),
        ("--block", cli.block.is_some()),
    ]
    .into_iter()
    .find_map(|(name, on)| on.then_some(name))
}

/// The kernel-launch options of the command line.
fn hsa_options(cli: &Cli) -> gcnrun::launch::hsa::Options {
    gcnrun::launch::hsa::Options {
        kernel: cli.kernel.clone(),
        grid: cli.grid,
        block: cli.block,
        arch: cli.arch.clone(),
        mem_cap: cli.mem_cap,
    }
}

/// `--mem-cap`: a byte count, optionally with a binary suffix (`64k`, `512m`,
/// `2g`); zero and overflowing values are refused.
fn parse_bytes(s: &str) -> Result<u64, String> {
    let t = s.trim().to_ascii_lowercase();
    let (digits, shift) = match t.strip_suffix(['k', 'm', 'g']) {
        Some(d) => (
            d,
            10 * (1 + "kmg".find(t.chars().last().unwrap_or('k')).unwrap_or(0)),
        ),
        None => (t.as_str(), 0),
    };
    let n: u64 = digits
        .parse()
        .map_err(|_| format!("`{s}` is not a byte count (e.g. 4096, 64k, 512m, 2g)"))?;
    match n.checked_mul(1u64 << shift) {
        Some(0) => Err("0 bytes cannot hold an image".into()),
        Some(v) => Ok(v),
        None => Err(format!("`{s}` is too large")),
    }
}

/// Prints one error line and returns exit code 2. Messages quote names and
/// keys from the input, which may hold control characters (a TOML quoted key,
/// a mutated binary's string pool): those are escaped so the line stays one.
fn fail(message: &str) -> ExitCode {
    let line = gcnrun::input::one_line(message);
    eprintln!("gcn-run: {line}");
    ExitCode::from(EXIT_BAD_INPUT)
}

/// `--help` and `--version` print as clap formats them; a usage error becomes one
/// line (its first), exit code 2.
fn usage_error(e: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
        let text = e.to_string();
        println!("{}", text.trim_end());
        return ExitCode::SUCCESS;
    }
    let text = e.to_string();
    let first = text.lines().next().unwrap_or("bad arguments");
    let first = first.strip_prefix("error: ").unwrap_or(first);
    fail(&format!("{first} (try --help)"))
}

/// `gcn-run bench`: every standard workload (or one) on CPU and GPU.
fn bench(
    json: bool,
    workload: Option<&str>,
    (lanes, seconds): (Option<u64>, Option<f64>),
    adapter: Option<&str>,
    sweep: bool,
    (share_alu_above, speculate): (Option<u64>, Option<&str>),
) -> Result<ExitCode, Failure> {
    let settings = gcnrun::bench::Settings {
        translate: gcnrun::gpu::translate::Options {
            share_alu_above: share_alu_above
                .unwrap_or(gcnrun::gpu::translate::DEFAULT_SHARE_ALU_ABOVE),
            ..Default::default()
        },
        // clap admits only these two.
        speculate: speculate.map(|s| s == "on"),
    };
    let lanes = lanes.unwrap_or(65_536);
    let all = gcnrun::bench::workloads();
    // Every figure is one launch of the requested size, so the range is what
    // a launch holds; checked for every chosen workload before any runs.
    let most = all.iter().map(|w| w.max_lanes().0).max().unwrap_or(1);
    if lanes == 0 || lanes > most {
        return Err(InputError::whole(
            "--lanes",
            format!("{lanes} is outside 1..={most} (the lanes of one launch)"),
        )
        .into());
    }
    let seconds = seconds.unwrap_or(1.0);
    if !(seconds > 0.0 && seconds <= 600.0) {
        return Err(
            InputError::whole("--seconds", format!("{seconds} is outside (0, 600]")).into(),
        );
    }
    let chosen: Vec<&gcnrun::bench::Workload> = match workload {
        Some(n) => {
            let w = all.iter().find(|w| w.name == n).ok_or_else(|| {
                let names: Vec<&str> = all.iter().map(|w| w.name).collect();
                InputError::whole(
                    "--workload",
                    format!("unknown workload `{n}` ({})", names.join(", ")),
                )
            })?;
            vec![w]
        }
        None => all.iter().collect(),
    };
    if let Some(w) = chosen.iter().find(|w| lanes > w.max_lanes().0) {
        let (most, shape) = w.max_lanes();
        return Err(InputError::whole(
            "--lanes",
            format!(
                "{lanes} lanes do not fit one launch of workload `{}` (at most {most}: {shape}); pass fewer, or pick other workloads with --workload",
                w.name
            ),
        )
        .into());
    }
    let gpu = gcnrun::gpu::device::open(adapter);
    let adapter_name = match &gpu {
        Ok(g) => gcnrun::gpu::device::describe(&g.info),
        Err(e) => format!("none ({e})"),
    };
    let threads = rayon::current_num_threads();
    let budget = std::time::Duration::from_secs_f64(seconds);
    let mut figures = Vec::new();
    // The runs: each chosen workload at --lanes, or at every sweep size one
    // of its launches holds.
    let runs: Vec<(&gcnrun::bench::Workload, u64)> = chosen
        .iter()
        .flat_map(|&w| {
            let sizes: Vec<u64> = if sweep {
                gcnrun::bench::SWEEP
                    .iter()
                    .copied()
                    .filter(|&l| l <= w.max_lanes().0)
                    .collect()
            } else {
                vec![lanes]
            };
            sizes.into_iter().map(move |l| (w, l))
        })
        .collect();
    // Which workload runs, on stderr while it does.
    let progress = shows_progress(json).then(|| {
        let p = indicatif::ProgressBar::new(runs.len() as u64);
        p.set_style(progress_style("{spinner} [{pos}/{len}] {msg} ({elapsed})"));
        p.enable_steady_tick(std::time::Duration::from_millis(200));
        p
    });
    for (w, lanes) in runs {
        if let Some(p) = &progress {
            p.set_message(format!("{} at {lanes} lanes", w.name));
        }
        let f = gcnrun::bench::run_with(w, lanes, budget, gpu.as_ref().ok(), settings)
            .map_err(|e| InputError::whole(w.name, e.to_string()))?;
        if let Some(p) = &progress {
            p.inc(1);
        }
        let print = |line: String| match &progress {
            Some(p) => p.suspend(|| println!("{line}")),
            None => println!("{line}"),
        };
        if !json {
            print(bench_row(&f, sweep));
        }
        figures.push(f);
    }
    if let Some(p) = &progress {
        p.finish_and_clear();
    }
    if json {
        let doc = serde_json::json!({
            "adapter": adapter_name,
            "cpu_threads": threads,
            "sweep": sweep,
            "workloads": figures,
        });
        println!("{doc:#}");
    } else {
        let what = if sweep {
            "time per lane-op"
        } else {
            "lane-ops per second"
        };
        println!(
            "{what} (gpu and native: dispatches only; see docs/gpu.md); adapter: {adapter_name}; CPU threads: {threads}"
        );
    }
    match gpu {
        Ok(_) => Ok(ExitCode::SUCCESS),
        Err(e) => Err(Failure::Gpu(e)),
    }
}

/// True when the input is a launch manifest (`.toml`).
fn is_manifest(cli: &Cli) -> bool {
    cli.hex.is_none()
        && cli
            .input
            .as_ref()
            .and_then(|p| p.extension())
            .is_some_and(|e| e.eq_ignore_ascii_case("toml"))
}

/// SPEC.md `"images"`: per image, the SHA-256 and size of its bytes in memory
/// (every level and slice, as laid out).
fn image_digests(out: &gcnrun::launch::run::Outcome) -> serde_json::Value {
    use sha2::Digest;
    let mut m = serde_json::Map::new();
    for (spec, placed) in out.launch.images.iter().zip(&out.images) {
        let size = gcnrun::texture::resource::surface_of(&placed.desc)
            .ok()
            .and_then(|s| s.total_bytes())
            .unwrap_or(0);
        let bytes = out
            .memory
            .read(placed.desc.base_address, size as u32)
            .unwrap_or(&[]);
        let digest: String = sha2::Sha256::digest(bytes)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        m.insert(
            spec.name.clone(),
            serde_json::json!({ "sha256": digest, "bytes": bytes.len() }),
        );
    }
    serde_json::Value::Object(m)
}

/// After a CPU run: write images (`--out`), print the dumped registers and the
/// `[expect]` result; exit 1 when an expectation fails.
fn report_run(
    cli: &Cli,
    out: &gcnrun::launch::run::Outcome,
    device: Option<&str>,
    diff: Option<&gcnrun::diff::Report>,
    timing: serde_json::Value,
) -> Result<ExitCode, InputError> {
    use gcnrun::launch::build::read;
    use gcnrun::launch::regs::RegRange;
    let mut written = Vec::new();
    if let Some(dir) = &cli.out {
        written = gcnrun::launch::png::write_pngs(out, dir)
            .map_err(|e| InputError::whole("--out", e.to_string()))?;
    }
    if let Some(run) = &out.visa {
        let doc = gcnrun::launch::visa::describe(run, &out.waves, &out.memory, cli.dump.as_deref())
            .map_err(|e| InputError::whole("--dump", e.to_string()))?;
        return Ok(report_visa(cli, out, doc, &written, device, diff, timing));
    }
    // A kernel launch's buffers: --dump may name them beside registers.
    let buffers: &[gcnrun::launch::buffer::Buffer] = out.hsa.as_ref().map_or(&[], |h| &h.buffers);
    let is_buffer = |t: &str| buffers.iter().any(|b| b.name == t.trim());
    // Registers to show: --dump, else those the manifest expects.
    let regs: Vec<RegRange> = match &cli.dump {
        Some(list) => list
            .split(',')
            .filter(|t| !t.trim().is_empty() && !is_buffer(t))
            .map(|t| RegRange::parse(t).map_err(|e| InputError::whole("--dump", e.to_string())))
            .collect::<Result<_, _>>()?,
        None => out.launch.expect.iter().map(|e| e.reg).collect(),
    };
    // Buffers to print as text: --dump's, else every buffer of a kernel launch.
    let shown: Vec<&gcnrun::launch::buffer::Buffer> = match &cli.dump {
        Some(list) => list
            .split(',')
            .filter_map(|t| buffers.iter().find(|b| b.name == t.trim()))
            .collect(),
        None => buffers.iter().collect(),
    };
    // One entry per 32-bit register: its value in every lane of every wave
    // (wave-major), or once per wave for scalar registers.
    let mut columns: Vec<(String, Vec<u32>)> = Vec::new();
    for r in &regs {
        let per_lane = matches!(r, RegRange::Vgpr { .. });
        let names: Vec<String> = match *r {
            RegRange::Sgpr { first, count } => {
                (first..first + count).map(|n| format!("s{n}")).collect()
            }
            RegRange::Vgpr { first, count } => {
                (first..first + count).map(|n| format!("v{n}")).collect()
            }
            RegRange::Exec => vec!["exec_lo".into(), "exec_hi".into()],
            RegRange::Vcc => vec!["vcc_lo".into(), "vcc_hi".into()],
            RegRange::M0 => vec!["m0".into()],
        };
        for (k, name) in names.into_iter().enumerate() {
            if columns.iter().any(|(n, _)| *n == name) {
                continue;
            }
            let mut vals = Vec::new();
            for w in &out.waves {
                let lanes = if per_lane { w.wave_size } else { 1 };
                vals.extend((0..lanes).map(|lane| read(w, *r, lane)[k]));
            }
            columns.push((name, vals));
        }
    }
    let differs = diff.is_some_and(|d| d.count > 0);
    let failed = !out.mismatches.is_empty() || differs;
    let backend = match (diff, out.backend) {
        (Some(_), _) => "diff",
        (None, b) => b,
    };
    let mut text = String::new();
    if cli.json {
        let registers: serde_json::Map<String, serde_json::Value> = columns
            .into_iter()
            .map(|(n, v)| (n, serde_json::json!(v)))
            .collect();
        let mut doc = serde_json::json!({
            "arch": out.arch.gen.name(),
            "backend": backend,
            "waves": out.waves.len(),
            "registers": registers,
            "mismatches": out.mismatches,
            "images": image_digests(out),
        });
        if let Some(h) = &out.hsa {
            let k = gcnrun::launch::hsa::describe(h, &out.memory);
            doc["kernel"] = k["kernel"].clone();
            doc["buffers"] = k["buffers"].clone();
        }
        if let (Some(d), Some(spec)) = (&out.draw, &out.launch.draw) {
            let (covered, helpers) = d.lane_counts();
            doc["draw"] = serde_json::json!({
                "triangles": spec.positions.len() / 3,
                "pixel_lanes": covered,
                "helper_lanes": helpers,
                "targets": (0..spec.targets.len()).map(|k| format!("mrt{k}")).collect::<Vec<_>>(),
            });
        }
        if let Some(d) = device {
            doc["adapter"] = serde_json::json!(d);
        }
        doc["timing"] = timing;
        if let Some(d) = diff {
            doc["diff"] = d.json();
        }
        text = format!("{doc:#}\n");
    } else {
        for (name, vals) in &columns {
            let cells: Vec<String> = vals.iter().map(|v| format!("{v:#010x}")).collect();
            text.push_str(&format!("{name}: {}\n", cells.join(" ")));
        }
        for b in &shown {
            let bytes = gcnrun::launch::hsa::buffer_bytes(b, &out.memory);
            let cells: Vec<String> = bytes
                .chunks_exact(4)
                .take(64)
                .map(|c| format!("{:#010x}", u32::from_le_bytes([c[0], c[1], c[2], c[3]])))
                .collect();
            let more = if b.bytes > 256 { " …" } else { "" };
            text.push_str(&format!(
                "buffer {} ({} bytes): {}{more}\n",
                b.name,
                b.bytes,
                cells.join(" ")
            ));
        }
        if !cli.quiet {
            let on = match (diff, device) {
                (Some(_), Some(d)) => format!("the CPU and on {d}"),
                (None, Some(d)) => d.to_string(),
                _ => "the CPU".to_string(),
            };
            text.push_str(&format!(
                "ran {} wave(s) of {} lanes on {on} ({})\n",
                out.waves.len(),
                out.launch.wave_size,
                out.arch.mcpu
            ));
            if let (Some(d), Some(spec)) = (&out.draw, &out.launch.draw) {
                let (covered, helpers) = d.lane_counts();
                text.push_str(&format!(
                    "drew {} triangle(s): {covered} pixel lane(s) and {helpers} helper lane(s)\n",
                    spec.positions.len() / 3
                ));
            }
            for p in &written {
                text.push_str(&format!("wrote {}\n", p.display()));
            }
        }
        let expects = out.launch.expect.len()
            + out.hsa.as_ref().map_or(0, |h| h.expect.len())
            + out.launch.draw.as_ref().map_or(0, |d| d.expect.len());
        if expects > 0 && !cli.quiet {
            for m in &out.mismatches {
                text.push_str(&format!(
                    "MISMATCH {} wave {} lane {}: expected {:08x?}, got {:08x?}\n",
                    m.register, m.wave, m.lane, m.expected, m.actual
                ));
            }
            text.push_str(&if failed {
                format!("expect: {} mismatching lane(s)\n", out.mismatches.len())
            } else {
                format!("expect: all {expects} entries hold\n")
            });
        }
    }
    if let (Some(d), false) = (diff, cli.json) {
        text.push_str(&d.text());
    }
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// `report_run` for an Intel launch: variables by vISA name, buffers, the
/// `[intel.expect]` result.
fn report_visa(
    cli: &Cli,
    out: &gcnrun::launch::run::Outcome,
    mut doc: serde_json::Value,
    written: &[PathBuf],
    device: Option<&str>,
    diff: Option<&gcnrun::diff::Report>,
    timing: serde_json::Value,
) -> ExitCode {
    let failed = !out.mismatches.is_empty() || diff.is_some_and(|d| d.count > 0);
    let text = if cli.json {
        doc["backend"] = serde_json::json!(if diff.is_some() { "diff" } else { out.backend });
        doc["threads"] = serde_json::json!(out.waves.len());
        doc["mismatches"] = serde_json::json!(out.mismatches);
        doc["images"] = image_digests(out);
        doc["timing"] = timing;
        if let Some(d) = device {
            doc["adapter"] = serde_json::json!(d);
        }
        if let Some(d) = diff {
            doc["diff"] = d.json();
        }
        format!("{doc:#}\n")
    } else {
        let mut t = String::new();
        if let Some(vars) = doc["variables"].as_object() {
            for (name, v) in vars {
                for (k, th) in v["threads"].as_array().into_iter().flatten().enumerate() {
                    let cells: Vec<String> = th
                        .as_array()
                        .into_iter()
                        .flatten()
                        .map(|x| x.to_string())
                        .collect();
                    t.push_str(&format!(
                        "{name}:{} thread {k}: {}\n",
                        v["type"].as_str().unwrap_or("?"),
                        cells.join(" ")
                    ));
                }
            }
        }
        if let Some(bufs) = doc["buffers"].as_object() {
            for (name, b) in bufs {
                let cells: Vec<String> = b["u32"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .take(64)
                    .map(|x| format!("{:#010x}", x.as_u64().unwrap_or(0)))
                    .collect();
                t.push_str(&format!(
                    "buffer {name} ({} bytes): {}\n",
                    b["bytes"],
                    cells.join(" ")
                ));
            }
        }
        if !cli.quiet {
            t.push_str(&format!(
                "ran {} Intel thread(s) on {}\n",
                out.waves.len(),
                device.unwrap_or("the CPU")
            ));
            for p in written {
                t.push_str(&format!("wrote {}\n", p.display()));
            }
            for m in &out.mismatches {
                t.push_str(&format!(
                    "MISMATCH {} thread {} element {}: expected {:08x?}, got {:08x?}\n",
                    m.register, m.wave, m.lane, m.expected, m.actual
                ));
            }
            if !out.mismatches.is_empty() {
                t.push_str(&format!(
                    "expect: {} mismatching element(s)\n",
                    out.mismatches.len()
                ));
            }
        }
        if let Some(d) = diff {
            t.push_str(&d.text());
        }
        t
    };
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
    if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// The launch INPUT names, under the command line's limits (`--max-steps`,
/// `--max-module-bytes`, Ctrl-C). `note` gets the arch note when the code's
/// arch was assumed ([`input::assumed_arch_note`]).
fn prepare(
    cli: &Cli,
    note: &mut Option<String>,
) -> Result<gcnrun::launch::run::Prepared, LaunchError> {
    let mut p = prepare_launch(cli, note)?;
    if cli.draw && p.launch.draw.is_none() {
        let name = cli
            .input
            .as_ref()
            .map_or("--hex".to_string(), |i| i.display().to_string());
        return Err(InputError::whole(
            &name,
            "--draw: not a draw (a manifest with a [draw] section: docs/draw.md)",
        )
        .into());
    }
    p.set_max_steps(cli.max_steps);
    p.limits.interrupt = Some(&INTERRUPT);
    p.limits.progress = Some(&PROGRESS);
    if let Some(m) = cli.max_module_bytes {
        p.max_module_bytes = m;
    }
    if let Some(s) = cli.share_alu_above {
        p.share_alu_above = s;
    }
    Ok(p)
}

/// The launch INPUT names: a manifest, a code file (or --hex) in the
/// environment of a `--manifest`, or in the default environment.
fn prepare_launch(
    cli: &Cli,
    note: &mut Option<String>,
) -> Result<gcnrun::launch::run::Prepared, LaunchError> {
    // A vISA program needs its surfaces, samplers and payload from a manifest:
    // without one, say so (after checking the program parses, so that a bad
    // program is reported first), naming the manifest beside it if there is one.
    if let Some(path) = cli
        .input
        .as_ref()
        .filter(|p| gcnrun::visa::is_visa_input(p))
    {
        let Some(m) = &cli.manifest else {
            gcnrun::visa::load_file(path, gcnrun::visa::DialectChoice::Auto)?;
            let beside = path.with_extension("toml");
            let hint = if beside.is_file() {
                format!("; `--manifest {}` is beside it", beside.display())
            } else {
                String::new()
            };
            return Err(InputError::whole(
                &path.display().to_string(),
                format!("a vISA program runs with an Intel launch manifest (--manifest m.toml: binding table, sampler table, thread payload; docs/visa.md, section \"The Intel launch manifest\"){hint}"),
            )
            .into());
        };
        return gcnrun::launch::run::prepare_visa(m, path, cli.mem_cap);
    }
    if let (Some(path), true) = (&cli.input, is_manifest(cli)) {
        if cli.manifest.is_some() {
            return Err(manifest_twice(path).into());
        }
        // A kernel launch of a code object ([kernel], or `code` naming one).
        let text = input::read_text(path, input::FileKind::MANIFEST)?;
        if gcnrun::launch::hsa::runs_kernel(path, &text) {
            if cli.waves.is_some() {
                return Err(waves_of_kernel().into());
            }
            return Ok(gcnrun::launch::hsa::prepare_manifest(
                path,
                &text,
                &hsa_options(cli),
            )?);
        }
        if let Some(flag) = kernel_options(cli) {
            return Err(not_a_kernel(flag, &path.display().to_string()).into());
        }
        return gcnrun::launch::run::prepare_manifest(
            path,
            cli.arch.as_deref(),
            cli.waves,
            cli.mem_cap,
        );
    }
    // An HSA code object runs as a kernel launch: its descriptor, metadata and
    // the grid set up the waves (docs/hsa.md).
    if let (None, Some(path)) = (&cli.hex, &cli.input) {
        let bytes = input::read_regular(path, input::FileKind::CODE)?;
        if gcnrun::launch::hsa::is_code_object(&bytes) {
            if cli.waves.is_some() {
                return Err(waves_of_kernel().into());
            }
            let file = path.display().to_string();
            return match &cli.manifest {
                Some(m) => {
                    let name = m.display().to_string();
                    let text = input::read_text(m, input::FileKind::MANIFEST)?;
                    let dir = m.parent().unwrap_or(std::path::Path::new("."));
                    let mt = gcnrun::launch::hsa::ManifestText {
                        text: &text,
                        name: &name,
                        dir,
                    };
                    Ok(gcnrun::launch::hsa::prepare(
                        &file,
                        &bytes,
                        Some(mt),
                        &hsa_options(cli),
                    )?)
                }
                None => Ok(gcnrun::launch::hsa::prepare(
                    &file,
                    &bytes,
                    None,
                    &hsa_options(cli),
                )?),
            };
        }
    }
    if let Some(flag) = kernel_options(cli) {
        let what = cli
            .input
            .as_ref()
            .map_or("--hex".to_string(), |p| p.display().to_string());
        return Err(not_a_kernel(flag, &what).into());
    }
    let program = load_code(cli)?;
    // AMD code in the environment of a manifest: its arch is the manifest's.
    if let Some(m) = &cli.manifest {
        return gcnrun::launch::run::prepare_manifest_code(
            m,
            &program,
            cli.arch.as_deref(),
            cli.waves,
            cli.mem_cap,
        );
    }
    let arch = input::resolve_arch(cli.arch.as_deref(), &program)?;
    *note = input::assumed_arch_note(cli.arch.as_deref(), &program);
    gcnrun::launch::run::prepare_default(&program, arch, cli.waves, cli.mem_cap)
}

/// The refusal of `--waves` for a kernel launch.
fn waves_of_kernel() -> InputError {
    InputError::whole(
        "--waves",
        "a kernel launch's waves come from its grid and work-group size (--grid, --block)",
    )
}

/// The refusal of a kernel option for input that is not a code object.
fn not_a_kernel(flag: &str, input: &str) -> InputError {
    InputError::whole(
        flag,
        format!("{input} is not an HSA code object (no kernel descriptor or AMDGPU metadata note): only a code object's kernel runs with --kernel, --grid and --block"),
    )
}

/// The refusal of `--manifest` beside a manifest INPUT.
fn manifest_twice(input: &std::path::Path) -> InputError {
    InputError::whole(
        "--manifest",
        format!(
            "INPUT {} is itself a manifest: give a code file as INPUT to run it in the --manifest's environment",
            input.display()
        ),
    )
}

/// The code `--disasm` and `--check` read: [`load_code`], with a missing
/// input said as these modes need it.
fn load_listed_code(cli: &Cli) -> Result<input::Program, InputError> {
    load_code(cli).map_err(|mut e| {
        if e.name == "INPUT" {
            e.message = "no input: give a code file or --hex (see --help)".into();
        }
        e
    })
}

/// The AMD code INPUT names: `--hex`, or a code file.
fn load_code(cli: &Cli) -> Result<input::Program, InputError> {
    match (&cli.hex, &cli.input) {
        (Some(hex), _) => input::from_hex(hex),
        (None, Some(path)) => input::load_file(path),
        (None, None) => Err(InputError::whole(
            "INPUT",
            "no input: give a code file, a manifest or --hex (see --help)",
        )),
    }
}

/// `--emit-wgsl`: the modules of the launch, in WGSL or a naga back end's language.
fn emit_wgsl(cli: &Cli, note: &mut Option<String>) -> Result<ExitCode, Failure> {
    let p = prepare(cli, note)?;
    // A refusal by the GPU backend (the WGSL translation), named as such;
    // its offset is printed as a byte offset whatever the front end.
    let tr = p
        .translate(Default::default())
        .map_err(|e| LaunchError::translate(&p.code_name, false, e))?;
    let target = cli.target.as_deref().unwrap_or("wgsl");
    let mut out: Vec<u8> = Vec::new();
    for (k, kernel) in tr.kernels.iter().enumerate() {
        let text = gcnrun::gpu::wgsl::convert(&kernel.wgsl, target).map_err(Failure::Gpu)?;
        if target != "spirv" {
            let waves = if kernel.waves.len() == p.waves.len() {
                "all waves".to_string()
            } else {
                format!("waves {:?}", kernel.waves)
            };
            out.extend_from_slice(
                format!(
                    "// gcnrun kernel {k} of {}: {waves}; {} bytes of WGSL, {} with every call inlined\n",
                    tr.kernels.len(),
                    kernel.wgsl.len(),
                    gcnrun::gpu::wgsl::inlined_bytes(&kernel.wgsl)
                )
                .as_bytes(),
            );
        }
        out.extend_from_slice(&text);
    }
    let _ = std::io::stdout().lock().write_all(&out);
    Ok(ExitCode::SUCCESS)
}

/// One row of `gcn-run bench`'s text table: lane-ops per second and the
/// ratios, or with --sweep the time per lane-op and the launch's memory.
fn bench_row(f: &gcnrun::bench::Figures, sweep: bool) -> String {
    let num = |v: Option<f64>, ratio: bool| match v {
        Some(x) if ratio => format!("{x:.2}"),
        Some(x) => format!("{x:.3e}"),
        None => "-".to_string(),
    };
    let note = f
        .note
        .as_ref()
        .map_or(String::new(), |n| format!("  ({n})"));
    let note = match f.gpu_speculation {
        Some(s) => format!("  speculation {s}{note}"),
        None => note,
    };
    if sweep {
        // Three significant digits: a real GPU's time per lane-op is a
        // fraction of a nanosecond, where one decimal hides a 2× change.
        let ns = |rate: Option<f64>| rate.map_or("-".to_string(), |r| significant(1e9 / r, 3));
        let mib = |b: u64| b as f64 / (1024.0 * 1024.0);
        format!(
            "{:<24} {:>8} lanes  cpu {:>8} ns/lane-op  gpu {:>8} ns/lane-op  launch {:>8.1} MiB  peak RSS {:>8}{note}",
            f.name,
            f.lanes,
            ns(Some(f.cpu_lane_ops_per_s)),
            ns(f.gpu_lane_ops_per_s),
            mib(f.launch_bytes),
            f.peak_rss_bytes
                .map_or("-".to_string(), |b| format!("{:.1} MiB", mib(b))),
        )
    } else {
        format!(
            "{:<24} {:>8} lanes  cpu {:.3e}  gpu {:>9}  gpu/cpu {:>7}  native {:>9}  gpu/native {:>5}{note}",
            f.name,
            f.lanes,
            f.cpu_lane_ops_per_s,
            num(f.gpu_lane_ops_per_s, false),
            num(f.gpu_over_cpu, true),
            num(f.native_lane_ops_per_s, false),
            num(f.emulated_over_native, true),
        )
    }
}

/// `x` with `digits` significant digits in plain decimal notation (no
/// exponent): 287.7 → "288", 0.1234 → "0.123".
fn significant(x: f64, digits: i32) -> String {
    if !(x.is_finite() && x > 0.0) {
        return format!("{x}");
    }
    let decimals = (digits - 1 - x.log10().floor() as i32).max(0) as usize;
    format!("{x:.decimals$}")
}

/// Runs the command; `note` gets a note for stderr (see `main`).
/// `--check`: every instruction of the code the chosen backend would refuse,
/// one line each (`offset 0x…: reason`), then a count per mnemonic. The CPU's
/// view is the lowering's (what no backend runs); the GPU's adds what the
/// translator never translates (`gpu::translate::untranslated`). Refusals that
/// depend on a launch's descriptors come only from a run.
fn check_refusals(cli: &Cli, note: &mut Option<String>) -> Result<ExitCode, Failure> {
    if is_manifest(cli) {
        return Ok(fail(
            "--check takes a code file, not a manifest: check the file its `code` names",
        ));
    }
    let program = load_listed_code(cli)?;
    let arch = input::resolve_arch(cli.arch.as_deref(), &program)?;
    *note = input::assumed_arch_note(cli.arch.as_deref(), &program);
    let backend = if cli.mode.gpu { "GPU" } else { "CPU" };
    let mut stream = gcnrun::gcn::Stream::new(&program.bytes, &arch);
    let mut refused: Vec<(usize, String, String)> = Vec::new();
    let mut instructions = 0usize;
    let mut lowered: Vec<(usize, String, gcnrun::ir::Op)> = Vec::new();
    for inst in stream.by_ref() {
        instructions += 1;
        let name = inst.mnemonic().unwrap_or("(invalid)").to_string();
        match gcnrun::gcn::lower::lower_inst(inst, &arch) {
            Err(e) => refused.push((e.offset, name, e.what)),
            Ok((offset, op)) => lowered.push((offset, name, op)),
        }
    }
    if cli.mode.gpu {
        // The GPU's translation depends on the program as a whole (one with
        // ALU, memory or branches takes the whole-program translation).
        let ops: Vec<(usize, gcnrun::ir::Op)> =
            lowered.iter().map(|(o, _, op)| (*o, op.clone())).collect();
        let whole = gcnrun::gpu::translate::whole::is_whole(&gcnrun::ir::Program::new(arch, ops));
        for (offset, name, op) in &lowered {
            if let Some(why) = gcnrun::gpu::translate::untranslated(op, whole) {
                refused.push((*offset, name.clone(), why));
            }
        }
        refused.sort_by_key(|r| r.0);
    }
    if let Some(e) = stream.error() {
        return Err(InputError::whole(&program.name, e.to_string()).into());
    }
    let mut counts: std::collections::BTreeMap<&str, usize> = std::collections::BTreeMap::new();
    for (_, name, _) in &refused {
        *counts.entry(name.as_str()).or_default() += 1;
    }
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    if cli.json {
        let doc = serde_json::json!({
            "backend": backend.to_lowercase(),
            "arch": arch.mcpu,
            "instructions": instructions,
            "refused": refused.iter().map(|(o, n, w)| serde_json::json!({
                "offset": o, "mnemonic": n, "reason": w,
            })).collect::<Vec<_>>(),
            "counts": counts,
        });
        let _ = writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&doc).unwrap_or_default()
        );
    } else {
        for (o, name, w) in &refused {
            // The lowering's reasons name the instruction; the translator's do not.
            let named = if w.contains(&format!("`{name}`")) {
                w.clone()
            } else {
                format!("`{name}`: {w}")
            };
            let _ = writeln!(out, "offset {o:#x}: {}", gcnrun::input::one_line(&named));
        }
        if refused.is_empty() {
            let _ = writeln!(
                out,
                "the {backend} backend refuses none of the {instructions} instructions"
            );
        } else {
            let list: Vec<String> = counts.iter().map(|(n, c)| format!("{n} ×{c}")).collect();
            let _ = writeln!(
                out,
                "the {backend} backend refuses {} of the {instructions} instructions: {}",
                refused.len(),
                list.join(", ")
            );
        }
    }
    let _ = out.flush();
    Ok(if refused.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn run(cli: &Cli, note: &mut Option<String>) -> Result<ExitCode, Failure> {
    if let Some(Command::Bench {
        json,
        workload,
        lanes,
        seconds,
        adapter,
        sweep,
        share_alu_above,
        speculate,
    }) = &cli.command
    {
        return bench(
            *json,
            workload.as_deref(),
            (*lanes, *seconds),
            adapter.as_deref(),
            *sweep,
            (*share_alu_above, speculate.as_deref()),
        );
    }
    if cli.list_adapters {
        let list = gcnrun::gpu::device::adapters();
        if list.is_empty() {
            return Err(Failure::Gpu(gcnrun::gpu::GpuError::NoAdapter(format!(
                "no GPU adapter found: {}",
                gcnrun::gpu::device::NO_ADAPTER_HINT
            ))));
        }
        for a in list {
            println!("{}", gcnrun::gpu::device::describe(&a));
        }
        return Ok(ExitCode::SUCCESS);
    }
    if cli.mode.emit_wgsl {
        return emit_wgsl(cli, note);
    }
    if cli.check {
        return check_refusals(cli, note);
    }
    if cli.mode.gpu || cli.mode.diff {
        let p = prepare(cli, note)?;
        let gpu = gcnrun::gpu::device::open(cli.adapter.as_deref()).map_err(Failure::Gpu)?;
        let name = gcnrun::gpu::device::describe(&gpu.info);
        let waves = p.waves.len();
        if cli.mode.gpu {
            let (out, run) = watched(
                cli,
                waves,
                "translating and running on the GPU",
                false,
                || gcnrun::launch::run::run_gpu(p, &gpu),
            )?;
            let timing = serde_json::json!({
                "gpu_s": run.stats.total.as_secs_f64(),
                "gpu_dispatches": run.stats.dispatches,
            });
            return Ok(report_run(cli, &out, Some(&name), None, timing)?);
        }
        let d = watched(cli, waves, "on the CPU, then the GPU", true, || {
            gcnrun::launch::run::run_diff(p, &gpu)
        })?;
        let timing = serde_json::json!({
            "cpu_s": d.cpu_time.as_secs_f64(),
            "gpu_s": d.gpu_run.stats.total.as_secs_f64(),
            "gpu_dispatches": d.gpu_run.stats.dispatches,
        });
        return Ok(report_run(
            cli,
            &d.cpu,
            Some(&name),
            Some(&d.report),
            timing,
        )?);
    }
    if !cli.mode.disasm {
        let t = std::time::Instant::now();
        let p = prepare(cli, note)?;
        let waves = p.waves.len();
        let out = watched(cli, waves, "running on the CPU", true, || {
            gcnrun::launch::run::run_cpu(p)
        })?;
        let timing = serde_json::json!({ "cpu_s": t.elapsed().as_secs_f64() });
        return Ok(report_run(cli, &out, None, None, timing)?);
    }
    if is_manifest(cli) {
        return Ok(fail(
            "--disasm takes a code file, not a manifest: disassemble the file its `code` names",
        ));
    }
    // Intel vISA (text by extension, binary by magic): list it in canonical vISA syntax.
    if let (None, Some(path)) = (&cli.hex, &cli.input) {
        if gcnrun::visa::is_visa_input(path) {
            let p = gcnrun::visa::load_file(path, gcnrun::visa::DialectChoice::Auto)?;
            let _ = std::io::stdout()
                .lock()
                .write_all(gcnrun::visa::print::program(&p).as_bytes());
            return Ok(ExitCode::SUCCESS);
        }
    }
    let program = load_listed_code(cli)?;
    // --arch, else a --manifest's arch (the code is listed as it would run
    // there), else the code object's, else the default, said in a note.
    let arch = match (&cli.manifest, &cli.arch) {
        (Some(m), None) => gcnrun::launch::run::manifest_arch(m)?,
        _ => input::resolve_arch(cli.arch.as_deref(), &program)?,
    };
    let assumed = match cli.manifest {
        Some(_) if cli.arch.is_none() => None,
        _ => input::assumed_arch_note(cli.arch.as_deref(), &program),
    };
    // The listing and the JSON document stream out as instructions are
    // decoded: memory stays the input's, whatever its length.
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let error = if cli.json {
        // One JSON document on stdout: the note goes to stderr (`main`).
        *note = assumed;
        let error = report::write_json(&program, &arch, &mut out);
        let _ = out.write_all(b"\n");
        error
    } else {
        // An LLVM-style comment atop the listing, which still reassembles.
        if let Some(n) = &assumed {
            let _ = writeln!(out, "; {n}");
        }
        report::write_listing(&program, &arch, &mut out)
    };
    // A closed pipe (`gcn-run ... | head`) is not an error worth a message.
    let _ = out.flush();
    match error {
        Some(e) => Err(e.into()),
        None => Ok(ExitCode::SUCCESS),
    }
}

#[cfg(test)]
mod tests {
    use super::significant;

    #[test]
    fn sweep_times_keep_three_significant_digits() {
        assert_eq!(significant(287.7, 3), "288");
        assert_eq!(significant(24.54, 3), "24.5");
        assert_eq!(significant(0.1234, 3), "0.123");
        assert_eq!(significant(0.05, 3), "0.0500");
        assert_eq!(significant(1234.5, 3), "1234");
        assert_eq!(significant(0.0, 3), "0");
    }
}
