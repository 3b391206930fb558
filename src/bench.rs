//! `gcn-run bench`: the standard workloads of SPEC.md on the CPU interpreter and
//! on the GPU backend, measured side by side in one run.
//!
//! Each workload is a kernel from `assets/` (embedded): assembled gfx900
//! code (`bench_*.s`), vISA text (`bench_visa_sample.visaasm`, run as SIMD32
//! Intel threads), a clang-compiled code object (`kernels/image_sample`,
//! launched as the ROCm runtime would) or a RADV pixel shader drawn
//! (`radv/tex.navi21`), and a launch built around it for the requested
//! number of lanes. A lane-op is one image, sampler or interpolation
//! instruction executed by one lane (an Intel thread's channel); for the ALU
//! workload (`alu_mix`), one ALU instruction.
//!
//! - CPU: `cpu::run` alone (the launch's state is cloned outside the timing).
//! - GPU (`gpu_lane_ops_per_s`): the translated kernel's dispatches from
//!   submission to completion, repeated in one submission until a submission
//!   takes about 50 ms — no uploads or read-backs, the way the native figure is
//!   timed. `gpu_end_to_end_lane_ops_per_s` times a whole `gpu::runtime::run`
//!   (upload, dispatch, read-back of every register and byte the program
//!   touches). Translation and pipeline creation happen once, beforehand.
//! - Native (sampling workloads): the adapter's own `textureSampleLevel` on the
//!   same texels with the same filters (`oracle::native::bench_sample_level`).

use crate::cpu;
use crate::gpu::{self, Gpu};
use crate::launch::run::{prepare_text, Prepared};
use crate::launch::visa::{self, VisaCode};
use crate::launch::LaunchError;
use serde::Serialize;
use std::time::{Duration, Instant};

/// Why a workload cannot be measured.
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    /// More lanes than one launch of the workload holds.
    #[error("--lanes {lanes} is more than one launch holds ({most} lanes: {shape})")]
    Lanes {
        /// The lanes asked for.
        lanes: u64,
        /// The most a launch holds.
        most: u64,
        /// Its shape (waves or threads).
        shape: String,
    },
    /// The workload's launch is refused (an embedded asset that no longer
    /// prepares).
    #[error(transparent)]
    Launch(#[from] LaunchError),
    /// The workload's code object or its launch is refused.
    #[error(transparent)]
    Input(#[from] crate::input::InputError),
    /// The workload's vISA program does not parse.
    #[error(transparent)]
    Visa(#[from] crate::visa::LoadError),
    /// The CPU run stopped.
    #[error(transparent)]
    Cpu(#[from] cpu::ExecError),
    /// The GPU run failed.
    #[error(transparent)]
    Gpu(#[from] gpu::GpuError),
    /// The adapter's own sampler gives no figure.
    #[error(transparent)]
    Native(#[from] crate::oracle::native::NativeError),
    /// The workload's image cannot be read for the native figure.
    #[error(transparent)]
    Texture(#[from] crate::texture::error::TextureError),
    /// The workload does not have what its native figure needs (an image, its
    /// texels in memory).
    #[error("{0}")]
    Workload(&'static str),
}

/// One standard workload.
pub struct Workload {
    /// SPEC.md name.
    pub name: &'static str,
    /// The kernel.
    kernel: Kernel,
    /// Lane-ops per lane (image and interpolation instructions).
    ops_per_lane: u32,
    /// The native equivalent: `Some(mip_linear)` for `textureSampleLevel`
    /// through a bilinear (or trilinear) sampler on the workload's image.
    native: Option<bool>,
    /// The manifest body (everything but `arch`, `hex` and `waves`; for a
    /// vISA kernel everything but `code` and `threads`), for `waves` waves or
    /// threads.
    body: fn(waves: u32) -> String,
}

/// A workload's program.
enum Kernel {
    /// gfx900 code, run as waves of 64 lanes.
    Amd(&'static [u8]),
    /// vISA text of a SIMD32 kernel, run as Intel threads of 32 channels.
    Visa(&'static str),
    /// A gfx900 code object's kernel (the object, its path in `assets/`),
    /// launched by its `[kernel]` manifest (`body`) as the ROCm runtime
    /// would (`launch::hsa`).
    Hsa(&'static [u8], &'static str),
    /// A pixel shader and its draw manifest (`code = "…"` replaced by the
    /// embedded code; `width`, `height` set from the lanes).
    Draw {
        code: &'static [u8],
        manifest: &'static str,
    },
}

/// Channels of the vISA workload's threads (its `SimdSize`).
const VISA_SIMD: u64 = 32;

/// The most threads an Intel launch holds (`threads` in the manifest).
const VISA_MAX_THREADS: u64 = 4096;

fn image_2d(name: &str, w: u32, h: u32, mips: &str, init: &str) -> String {
    format!(
        "[[image]]\nname = \"{name}\"\ntype = \"2d\"\nwidth = {w}\nheight = {h}\nmips = {mips}\nformat = \"8_8_8_8\"\nnum_format = \"unorm\"\ninit = \"{init}\"\n\n"
    )
}

/// `x, y` of lane `g = wave × 64 + lane` in rows of 256.
const ROW_X: &str = "(wave * 64 + lane) % 256";
const ROW_Y: &str = "(wave * 64 + lane) / 256";

fn copy_body(waves: u32) -> String {
    let h = (waves * 64).div_ceil(256).max(1);
    format!(
        "[sgpr]\n\"s[4:11]\" = {{ image = \"src\" }}\n\"s[16:23]\" = {{ image = \"dst\" }}\n\n[vgpr]\nv0 = {{ u32 = \"{ROW_X}\" }}\nv1 = {{ u32 = \"{ROW_Y}\" }}\n\n{}{}",
        image_2d("src", 256, h, "1", "noise"),
        image_2d("dst", 256, h, "1", "zero")
    )
}

fn atomic_body(_: u32) -> String {
    "[sgpr]\n\"s[4:11]\" = { image = \"counters\" }\n\n[vgpr]\nv0 = { u32 = \"lane % 16\" }\nv2 = { u32 = \"1\" }\n\n[[image]]\nname = \"counters\"\ntype = \"1d\"\nwidth = 16\nformat = \"32\"\nnum_format = \"uint\"\ninit = \"zero\"\n".into()
}

fn interp_body(_: u32) -> String {
    "[sgpr]\nm0 = 0\n\n[vgpr]\nv0 = { f32 = \"lane / 64.0\" }\nv1 = { f32 = \"(wave % 7) / 7.0\" }\n\n[lds]\n\"0x0\" = { f32 = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0] }\n".into()
}

fn sampler(name: &str, mip: &str) -> String {
    format!(
        "[[sampler]]\nname = \"{name}\"\nfilter = {{ mag = \"linear\", min = \"linear\", mip = \"{mip}\" }}\naddress = [\"wrap\", \"wrap\", \"wrap\"]\n\n"
    )
}

fn bilinear_body(_: u32) -> String {
    format!(
        "[sgpr]\n\"s[4:11]\" = {{ image = \"tex\" }}\n\"s[12:15]\" = {{ sampler = \"s\" }}\n\n[vgpr]\nv0 = {{ f32 = \"({ROW_X} + 0.3) / 256.0\" }}\nv1 = {{ f32 = \"(({ROW_Y}) % 256 + 0.6) / 256.0\" }}\n\n{}{}",
        image_2d("tex", 256, 256, "1", "noise"),
        sampler("s", "none")
    )
}

fn trilinear_body(_: u32) -> String {
    // Lanes as 2×2 quads of a 256-wide pixel grid, stepping 1.7 texels per
    // pixel: the implicit derivatives give a LOD of log2(1.7) ≈ 0.77.
    let px = "((wave * 16 + lane / 4) % 128) * 2 + lane % 2";
    let py = "((wave * 16 + lane / 4) / 128 % 128) * 2 + (lane / 2) % 2";
    format!(
        "[sgpr]\n\"s[4:11]\" = {{ image = \"tex\" }}\n\"s[12:15]\" = {{ sampler = \"s\" }}\n\n[vgpr]\nv0 = {{ f32 = \"(({px}) * 1.7 + 0.5) / 256.0\" }}\nv1 = {{ f32 = \"(({py}) * 1.7 + 0.5) / 256.0\" }}\n\n{}{}",
        image_2d("tex", 256, 256, "\"full\"", "noise"),
        sampler("s", "linear")
    )
}

/// The `visa_sample` launch: `threads` SIMD32 threads, thread t's channel c
/// sampling pixel `g = 32 t + c` of rows 256 wide, at its centre offset as the
/// AMD sampling workloads do, from a 256² RGBA8 noise mip chain through a
/// trilinear wrapping sampler.
fn visa_sample_body(threads: u32) -> String {
    let g = "(wave * 32 + lane)";
    format!(
        "threads = {threads}\n\n[intel]\nbinding_table = {{ 0 = \"tex\" }}\nsampler_table = {{ 0 = \"s\" }}\n\n[intel.input]\nU = {{ f = \"({g} % 256 + 0.3) / 256.0\" }}\nV = {{ f = \"({g} / 256 % 256 + 0.6) / 256.0\" }}\n\n{}{}",
        image_2d("tex", 256, 256, "\"full\"", "noise"),
        sampler("s", "linear")
    )
}

fn alu_body(_: u32) -> String {
    "[vgpr]\nv0 = { u32 = \"wave * 64 + lane\" }\n".into()
}

/// The `clang_image_sample` launch: `kernels/image_sample.cl` over a grid of
/// 64 × `waves` work-items in groups of 64 (one wave each), sampling and
/// reading a 64 × `waves` RGBA8 noise image and writing its halves.
fn clang_image_body(waves: u32) -> String {
    let img = |name: &str, init: &str| {
        format!("[[image]]\nname = \"{name}\"\ntype = \"2d\"\nwidth = 64\nheight = {waves}\nformat = \"8_8_8_8\"\nnum_format = \"unorm\"\ninit = \"{init}\"\n\n")
    };
    format!(
        "[kernel]\ngrid = [64, {waves}]\nblock = [64, 1]\n\n[kernel.args]\n\"0\" = {{ image = \"src\" }}\n\"1\" = {{ image = \"dst\" }}\n\"2\" = {{ buffer = \"out\" }}\n\"3\" = {{ i32 = 64 }}\n\"4\" = {{ i32 = {waves} }}\n\n[[buffer]]\nname = \"out\"\nbytes = {}\n\n{}{}",
        u64::from(waves) * 64 * 32,
        img("src", "noise"),
        img("dst", "zero")
    )
}

/// The side of the square frame a draw workload covers for `waves` waves of
/// pixels: √(64 × waves), in whole 8-pixel steps.
fn draw_side(waves: u32) -> u32 {
    let side = (f64::from(waves) * 64.0).sqrt().ceil() as u32;
    side.div_ceil(8).max(1) * 8
}

/// The workloads in SPEC.md order, then the whole-program ones.
pub fn workloads() -> Vec<Workload> {
    vec![
        Workload {
            name: "sample_bilinear_rgba8",
            native: Some(false),
            kernel: Kernel::Amd(include_bytes!("../assets/bench_sample.bin")),
            ops_per_lane: 1,
            body: bilinear_body,
        },
        Workload {
            name: "sample_trilinear_derivs",
            native: Some(true),
            kernel: Kernel::Amd(include_bytes!("../assets/bench_trilinear.bin")),
            ops_per_lane: 1,
            body: trilinear_body,
        },
        Workload {
            name: "gather4",
            native: None,
            kernel: Kernel::Amd(include_bytes!("../assets/bench_gather4.bin")),
            ops_per_lane: 1,
            body: bilinear_body,
        },
        Workload {
            name: "load_store_copy",
            native: None,
            kernel: Kernel::Amd(include_bytes!("../assets/bench_copy.bin")),
            ops_per_lane: 2,
            body: copy_body,
        },
        Workload {
            name: "atomic_add_contended",
            native: None,
            kernel: Kernel::Amd(include_bytes!("../assets/bench_atomic.bin")),
            ops_per_lane: 1,
            body: atomic_body,
        },
        Workload {
            name: "interp_p1p2",
            native: None,
            kernel: Kernel::Amd(include_bytes!("../assets/bench_interp.bin")),
            ops_per_lane: 4,
            body: interp_body,
        },
        Workload {
            name: "visa_sample",
            // sample_l at LOD 0..6.5 through a trilinear sampler, as
            // `textureSampleLevel` at random LODs (sample_lz is the LOD 0 case).
            native: Some(true),
            kernel: Kernel::Visa(include_str!("../assets/bench_visa_sample.visaasm")),
            ops_per_lane: 2,
            body: visa_sample_body,
        },
        Workload {
            name: "alu_mix",
            native: None,
            kernel: Kernel::Amd(include_bytes!("../assets/bench_alu.bin")),
            // Every instruction but s_endpgm (`bench_ops_are_the_program`).
            ops_per_lane: 124,
            body: alu_body,
        },
        Workload {
            name: "clang_image_sample",
            native: None,
            kernel: Kernel::Hsa(
                include_bytes!("../assets/kernels/image_sample_gfx900.hsaco"),
                "assets/kernels/image_sample_gfx900.hsaco",
            ),
            // image_sample_lz, image_store, image_load.
            ops_per_lane: 3,
            body: clang_image_body,
        },
        Workload {
            name: "radv_draw_tex",
            native: None,
            kernel: Kernel::Draw {
                code: include_bytes!("../assets/radv/tex.navi21.bin"),
                manifest: include_str!("../assets/radv/tex.navi21.toml"),
            },
            // 12 v_interp_p1/p2 and one image_sample.
            ops_per_lane: 13,
            body: |_| String::new(),
        },
    ]
}

impl Workload {
    /// The most lanes one launch of the workload holds, and why: an AMD launch
    /// holds 16384 waves of 64 lanes (the manifest's `waves` cap), an Intel one
    /// 4096 threads of 32 channels. `gcn-run bench --lanes` refuses more, since
    /// the figures are those of one launch of the requested size.
    pub fn max_lanes(&self) -> (u64, String) {
        match self.kernel {
            Kernel::Amd(_) | Kernel::Hsa(..) | Kernel::Draw { .. } => {
                let waves = crate::launch::manifest::Caps::default().max_waves;
                (u64::from(waves) * 64, format!("{waves} waves of 64"))
            }
            Kernel::Visa(_) => (
                VISA_MAX_THREADS * VISA_SIMD,
                format!("{VISA_MAX_THREADS} threads of {VISA_SIMD}"),
            ),
        }
    }

    /// The launch for `lanes` lanes (rounded up to whole waves of 64, or
    /// threads of 32 channels), at most [`Workload::max_lanes`].
    pub fn prepare(&self, lanes: u64) -> Result<Prepared, BenchError> {
        let (most, shape) = self.max_lanes();
        if lanes > most {
            return Err(BenchError::Lanes { lanes, most, shape });
        }
        // `lanes` is at most `most`, so the waves fit a u32.
        let waves = u32::try_from(lanes.div_ceil(64).max(1)).unwrap_or(u32::MAX);
        let code = match self.kernel {
            Kernel::Amd(code) => code,
            Kernel::Visa(text) => return self.prepare_visa(text, lanes),
            Kernel::Hsa(object, path) => {
                let name = format!("bench {}", self.name);
                let text = (self.body)(waves);
                let manifest = crate::launch::hsa::ManifestText {
                    text: &text,
                    name: &name,
                    dir: std::path::Path::new("."),
                };
                // A copy: the ELF reader wants the object aligned as a file
                // read into memory is, which embedded bytes need not be.
                let aligned: Vec<u8> = object.to_vec();
                return Ok(crate::launch::hsa::prepare(
                    path,
                    &aligned,
                    Some(manifest),
                    &Default::default(),
                )?);
            }
            Kernel::Draw { code, manifest } => {
                let side = draw_side(waves);
                let hex = hex_of(code);
                // The frame's size is the [draw] table's (the image has its own).
                let mut table = "";
                let text: String = manifest
                    .lines()
                    .map(|l| {
                        if l.starts_with('[') {
                            table = l;
                        }
                        match (table, l.split(" = ").next()) {
                            ("", Some("code")) => format!("hex = \"{hex}\""),
                            ("[draw]", Some(key @ ("width" | "height"))) => {
                                format!("{key} = {side}")
                            }
                            _ => l.to_string(),
                        }
                    })
                    .collect::<Vec<_>>()
                    .join("\n");
                return Ok(prepare_text(&text, self.name, None)?);
            }
        };
        let hex = hex_of(code);
        let text = format!(
            "arch = \"gfx900\"\nhex = \"{hex}\"\nwaves = {waves}\n\n{}",
            (self.body)(waves)
        );
        Ok(prepare_text(&text, self.name, None)?)
    }

    fn prepare_visa(&self, text: &str, lanes: u64) -> Result<Prepared, BenchError> {
        let code_name = format!("assets/bench_{}.visaasm", self.name);
        let program =
            crate::visa::parse(text, crate::visa::DialectChoice::Auto).map_err(|source| {
                crate::visa::LoadError::Text {
                    name: code_name.clone(),
                    source,
                }
            })?;
        // `prepare` keeps `lanes` within VISA_MAX_THREADS threads.
        let threads = lanes.div_ceil(VISA_SIMD).max(1) as u32;
        let manifest = format!("code = \"{code_name}\"\n{}", (self.body)(threads));
        let p = visa::prepare_text(
            &manifest,
            self.name,
            std::path::Path::new("."),
            VisaCode::Program(program, &code_name),
            crate::launch::build::IMAGE_MEMORY_CAP,
        )?;
        Ok(Prepared::from_visa(p, code_name)?)
    }

    /// Lanes a prepared launch runs: waves × 64, or threads × SIMD width.
    fn lanes_of(p: &Prepared) -> u64 {
        let per_wave = match &p.visa {
            Some(run) => run.simd,
            None => p.launch.wave_size,
        };
        p.waves.len() as u64 * u64::from(per_wave)
    }
}

/// `code` as the manifest's `hex` field spells it.
fn hex_of(code: &[u8]) -> String {
    code.iter().map(|b| format!("{b:02x}")).collect()
}

/// The launch sizes of `gcn-run bench --sweep`: 2^10 to 2^20 lanes, ×4.
pub const SWEEP: [u64; 6] = [1 << 10, 1 << 12, 1 << 14, 1 << 16, 1 << 18, 1 << 20];

/// The process's peak resident memory so far, in bytes (`getrusage`), where
/// the system says.
fn peak_rss_bytes() -> Option<u64> {
    #[cfg(unix)]
    {
        // SAFETY: getrusage writes one rusage through the pointer, which
        // points at a zeroed one of ours.
        let mut u: libc::rusage = unsafe { std::mem::zeroed() };
        if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut u) } == 0 {
            // Linux counts ru_maxrss in KiB.
            return u64::try_from(u.ru_maxrss).ok().map(|k| k * 1024);
        }
    }
    None
}

/// One workload's figures (SPEC.md `gcn-run bench --json`).
#[derive(Clone, Debug, Serialize)]
pub struct Figures {
    /// Workload name.
    pub name: &'static str,
    /// Lanes per run.
    pub lanes: u64,
    /// CPU interpreter throughput.
    pub cpu_lane_ops_per_s: f64,
    /// GPU backend throughput (end to end).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gpu_lane_ops_per_s: Option<f64>,
    /// `gpu / cpu`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gpu_over_cpu: Option<f64>,
    /// GPU backend throughput including uploads and read-backs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gpu_end_to_end_lane_ops_per_s: Option<f64>,
    /// How a whole program that writes memory ran its workgroups on the GPU
    /// (docs/gpu.md, "Speculative workgroups"): `kept` when they ran
    /// together and no conflict sent them back, `replayed` when one did and
    /// they ran again one dispatch each; absent when the launch did not
    /// speculate (nothing to speculate, or a CPU adapter).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gpu_speculation: Option<&'static str>,
    /// The adapter's own sampler on the same data.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub native_lane_ops_per_s: Option<f64>,
    /// `gpu / native`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub emulated_over_native: Option<f64>,
    /// Bytes of the launch's state after a CPU run: memory and every wave's
    /// registers (the VGPR rows it stores) and LDS.
    pub launch_bytes: u64,
    /// The process's peak resident memory after the workload's runs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub peak_rss_bytes: Option<u64>,
    /// Why there is no GPU figure.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

impl Figures {
    fn add_note(&mut self, note: String) {
        self.note = Some(match self.note.take() {
            Some(n) => format!("{n}; {note}"),
            None => note,
        });
    }
}

/// Runs `f` until `budget` has passed (at least twice, the first run being a
/// warm-up) and returns the mean time of the timed runs.
fn measure(
    budget: Duration,
    mut f: impl FnMut() -> Result<Duration, BenchError>,
) -> Result<Duration, BenchError> {
    f()?;
    let (mut total, mut runs) = (Duration::ZERO, 0u32);
    let start = Instant::now();
    while runs == 0 || start.elapsed() < budget {
        total += f()?;
        runs += 1;
    }
    Ok(total / runs)
}

/// Measures one workload on the CPU and (when `gpu` is given and the program
/// translates) on the GPU, translated with the default options.
pub fn run(
    w: &Workload,
    lanes: u64,
    budget: Duration,
    gpu: Option<&Gpu>,
) -> Result<Figures, BenchError> {
    run_with(w, lanes, budget, gpu, Settings::default())
}

/// How [`run_with`] translates and runs a workload's GPU side.
#[derive(Clone, Copy, Debug, Default)]
pub struct Settings {
    /// The translation's options (`gcn-run bench --share-alu-above`: the
    /// shared ALU sites trade run time for build time).
    pub translate: gpu::translate::Options,
    /// Speculative workgroups forced on or off (`gcn-run bench
    /// --speculate`); `None` leaves the runtime's choice for the adapter
    /// (`gpu::runtime::RunLimits::speculate`).
    pub speculate: Option<bool>,
}

/// [`run`] with explicit [`Settings`].
pub fn run_with(
    w: &Workload,
    lanes: u64,
    budget: Duration,
    gpu: Option<&Gpu>,
    settings: Settings,
) -> Result<Figures, BenchError> {
    let p = w.prepare(lanes)?;
    let lanes = Workload::lanes_of(&p);
    let ops = (lanes * u64::from(w.ops_per_lane)) as f64;
    // The state as a CPU run leaves it: the VGPR rows its program wrote
    // are stored by then (`WaveState`), so this is the launch's peak. Every
    // run leaves the same state, so the first run's is summed, once.
    let mut launch_bytes = None;
    let cpu_time = measure(budget, || {
        let (mut waves, mut mem) = (p.waves.clone(), p.memory.clone());
        let t = Instant::now();
        cpu::run(&p.prog, &mut waves, &mut mem)?;
        let elapsed = t.elapsed();
        launch_bytes.get_or_insert_with(|| {
            mem.bytes.len() as u64 + waves.iter().map(|w| w.state_bytes() as u64).sum::<u64>()
        });
        Ok(elapsed)
    })?;
    let launch_bytes = launch_bytes.unwrap_or_default();
    let cpu_rate = ops / cpu_time.as_secs_f64();
    let mut fig = Figures {
        name: w.name,
        lanes,
        cpu_lane_ops_per_s: cpu_rate,
        gpu_lane_ops_per_s: None,
        gpu_over_cpu: None,
        gpu_end_to_end_lane_ops_per_s: None,
        gpu_speculation: None,
        native_lane_ops_per_s: None,
        emulated_over_native: None,
        launch_bytes,
        peak_rss_bytes: peak_rss_bytes(),
        note: None,
    };
    let Some(g) = gpu else {
        fig.add_note("no GPU adapter".into());
        return Ok(fig);
    };
    let fig = run_gpu(w, &p, (ops, budget, settings), g, fig)?;
    Ok(Figures {
        peak_rss_bytes: peak_rss_bytes(),
        ..fig
    })
}

/// The GPU figures of a workload whose CPU figures are in `fig`.
fn run_gpu(
    w: &Workload,
    p: &Prepared,
    (ops, budget, settings): (f64, Duration, Settings),
    g: &Gpu,
    mut fig: Figures,
) -> Result<Figures, BenchError> {
    let lanes = fig.lanes;
    let cpu_rate = fig.cpu_lane_ops_per_s;
    let predict = crate::launch::run::predictor(&p.prog, &p.waves, &p.memory);
    let tr = match gpu::translate::translate_predicted(
        &p.prog,
        &p.waves,
        &p.memory,
        settings.translate,
        Some(&predict),
    ) {
        Ok(tr) => tr,
        Err(e) => {
            fig.add_note(format!("GPU: {}", e.kind));
            return Ok(fig);
        }
    };
    let limits = gpu::runtime::RunLimits {
        speculate: settings.speculate,
        ..gpu::runtime::RunLimits::of(g)
    };
    let gpu_time = measure(budget, || {
        let (mut waves, mut mem) = (p.waves.clone(), p.memory.clone());
        let t = Instant::now();
        gpu::runtime::run_with(g, &tr, &mut waves, &mut mem, limits)?;
        Ok(t.elapsed())
    })?;
    fig.gpu_end_to_end_lane_ops_per_s = Some(ops / gpu_time.as_secs_f64());
    let (kernel, speculation) = kernel_time(g, &tr, p, (budget, limits))?;
    fig.gpu_speculation = speculation;
    let gpu_rate = ops / kernel.as_secs_f64();
    fig.gpu_lane_ops_per_s = Some(gpu_rate);
    fig.gpu_over_cpu = Some(gpu_rate / cpu_rate);
    if let Some(mip_linear) = w.native {
        let native = native_rate(g, p, mip_linear, lanes, budget)?;
        fig.native_lane_ops_per_s = Some(native);
        fig.emulated_over_native = Some(gpu_rate / native);
    }
    Ok(fig)
}

/// [`Figures::gpu_speculation`] of a run with these statistics.
fn speculation_outcome(stats: &gpu::runtime::RunStats) -> Option<&'static str> {
    match (stats.speculated, stats.conflicts) {
        (0, 0) => None,
        (_, 0) => Some("kept"),
        _ => Some("replayed"),
    }
}

/// Mean time of one run's dispatches, submission to completion (the
/// dispatches are repeated in one submission until it takes about 50 ms, then
/// measured for `budget`) under `limits`, and how the run's workgroups went
/// ([`Figures::gpu_speculation`]).
fn kernel_time(
    g: &Gpu,
    tr: &gpu::translate::Translation,
    p: &Prepared,
    (budget, mut limits): (Duration, gpu::runtime::RunLimits),
) -> Result<(Duration, Option<&'static str>), BenchError> {
    let once = |limits: gpu::runtime::RunLimits| -> Result<gpu::runtime::RunStats, BenchError> {
        let (mut waves, mut mem) = (p.waves.clone(), p.memory.clone());
        let out = gpu::runtime::run_with(g, tr, &mut waves, &mut mem, limits)?;
        Ok(out.stats)
    };
    // The same launch takes the same path every run: the first tells it.
    let speculation = speculation_outcome(&once(limits)?);
    let once = |limits| once(limits).map(|s| s.kernel);
    // A whole-program module ends every wave in its first dispatch: a
    // repeated dispatch in the same submission finds them ended and returns
    // at once, which timed the first dispatch's work over `repeat` dispatches
    // (the launches of 2^10 and 2^12 lanes, too short to reach 50 ms alone,
    // read up to 19× too fast). Those are timed one dispatch per submission.
    let repeatable = tr.kernels.iter().all(|k| !k.whole);
    while repeatable && limits.repeat < 1 << 12 && once(limits)? < Duration::from_millis(50) {
        limits.repeat *= 2;
    }
    let per_submit = measure(budget, || once(limits))?;
    Ok((per_submit / limits.repeat, speculation))
}

/// The adapter's `textureSampleLevel` throughput on the workload's image (its
/// first image, 8_8_8_8 UNORM, every level) with linear min/mag filters and
/// wrap addressing, as the emulated workload samples it.
fn native_rate(
    g: &Gpu,
    p: &Prepared,
    mip_linear: bool,
    lanes: u64,
    budget: Duration,
) -> Result<f64, BenchError> {
    use crate::oracle::native::{
        NativeAddress, NativeDim, NativeFormat, NativeImage, NativeSampler,
    };
    let d = p
        .images
        .first()
        .ok_or(BenchError::Workload("the workload has no image"))?
        .desc;
    let surf = crate::texture::resource::surface_of(&d)?;
    let levels = (0..surf.levels)
        .map(|m| {
            let (w, h, _) = surf.level_dims(m);
            let mut bytes = Vec::with_capacity((w * h * 4) as usize);
            for y in 0..h {
                for x in 0..w {
                    let at = surf
                        .texel_offset(m, 0, x, y, 0)
                        .and_then(|o| p.memory.read(d.base_address + o, 4))
                        .ok_or(BenchError::Workload("texel outside memory"))?;
                    bytes.extend_from_slice(at);
                }
            }
            Ok(bytes)
        })
        .collect::<Result<Vec<_>, BenchError>>()?;
    let image = NativeImage {
        dim: NativeDim::D2,
        format: NativeFormat::Rgba8Unorm,
        width: d.width,
        height: d.height,
        layers: 1,
        levels,
    };
    let sampler = NativeSampler {
        mag_linear: true,
        min_linear: true,
        mip_linear,
        address: [NativeAddress::Repeat; 3],
        ..Default::default()
    };
    let lanes = u32::try_from(lanes).map_err(|_| BenchError::Workload("too many lanes"))?;
    Ok(crate::oracle::native::bench_sample_level(
        g,
        &image,
        &sampler,
        lanes,
        budget.as_secs_f64(),
    )?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Op;

    /// A launch keeps the LDS only where its program may touch it
    /// (`launch::run::lds_for`): the manifest and HSA paths alike.
    #[test]
    fn only_programs_with_lds_operations_keep_lds() {
        let waves = |name: &str| {
            let w = workloads().into_iter().find(|w| w.name == name).unwrap();
            w.prepare(256).unwrap().waves
        };
        assert!(waves("load_store_copy").iter().all(|w| w.lds.is_empty()));
        assert!(waves("clang_image_sample").iter().all(|w| w.lds.is_empty()));
        assert!(waves("interp_p1p2")
            .iter()
            .all(|w| w.lds.len() == 64 * 1024));
    }

    #[test]
    fn speculation_outcome_names_the_path_taken() {
        let stats = |speculated, conflicts| gpu::runtime::RunStats {
            speculated,
            conflicts,
            ..Default::default()
        };
        assert_eq!(speculation_outcome(&stats(0, 0)), None);
        assert_eq!(speculation_outcome(&stats(3, 0)), Some("kept"));
        // One conflicting chunk replays it, though others were kept.
        assert_eq!(speculation_outcome(&stats(2, 1)), Some("replayed"));
        assert_eq!(speculation_outcome(&stats(0, 1)), Some("replayed"));
    }

    /// Each AMD workload's lane-ops per lane are what its program executes
    /// per lane: straight-line code (no branch), whose image and
    /// interpolation instructions — every instruction but `s_endpgm` for
    /// `alu_mix` — number `ops_per_lane`.
    #[test]
    fn bench_ops_are_the_program() {
        for w in workloads() {
            if matches!(w.kernel, Kernel::Visa(_)) {
                continue;
            }
            let p = w.prepare(256).unwrap();
            let ops = &p.prog.ops;
            let branches = ops.iter().filter(|(_, op)| {
                matches!(op, Op::Wave(f) if matches!(**f, crate::ir::flow::WaveOp::Branch { .. }))
            });
            // The clang kernel's one branch skips work-items past the image
            // (s_cbranch_execz), never taken in its launch.
            let allowed = usize::from(w.name == "clang_image_sample");
            assert_eq!(branches.count(), allowed, "{}", w.name);
            let counted = ops
                .iter()
                .filter(|(_, op)| match op {
                    Op::End => false,
                    Op::Image(_) | Op::Interp(_) | Op::Vinterp(_) | Op::LdsParamLoad { .. } => true,
                    _ => w.name == "alu_mix",
                })
                .count();
            assert_eq!(counted as u32, w.ops_per_lane, "{}", w.name);
        }
    }
}
