//! Running a translation: buffers from the initial wave states, dispatches, and
//! read-back into the same `WaveState`s and `Memory` the CPU interpreter
//! produces.

pub mod device;

use super::translate::{
    tables, Kernel, Translation, FAULT_WORD, HEADER_WORDS, M0_WORD, TRACE_WORDS,
};
use super::wgsl::Params;
use super::GpuError;
use crate::machine::state::SGPRS;
use crate::machine::{Memory, WaveState};
use device::Gpu;
use std::time::{Duration, Instant};
use wgpu::util::DeviceExt;

/// Largest workgroup count per dispatch dimension WebGPU guarantees.
const MAX_GROUPS_X: u32 = 65_535;

/// One lane's execution of a traced atomic (translate::Options::trace_atomics).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AtomicEvent {
    /// Wave index in the launch.
    pub wave: usize,
    /// Ordinal of the atomic instruction in the program (0 = the first).
    pub ordinal: usize,
    /// The lane.
    pub lane: u32,
    /// Byte address of the texel.
    pub address: u64,
    /// The value before this lane's operation (the GLC return).
    pub old: u64,
    /// The data operand.
    pub data: u64,
    /// The compare operand (CMPSWAP, FCMPSWAP).
    pub cmp: u64,
}

/// What a GPU run measured.
#[derive(Clone, Copy, Debug, Default)]
pub struct RunStats {
    /// Dispatches issued.
    pub dispatches: u32,
    /// Wall time from the first upload to the end of the read-back.
    pub total: Duration,
    /// Wall time of the chunks: buffers, submission, read-back of the state.
    pub execute: Duration,
    /// Wall time from submitting the dispatches to their completion, summed
    /// over chunks (no uploads, no read-backs).
    pub kernel: Duration,
    /// Times a whole-program launch was submitted again to resume waves a
    /// dispatch suspended (its loop-iteration budget spent).
    pub resubmissions: u64,
    /// Chunks of a whole program that writes memory whose workgroups ran
    /// together, speculatively, and kept the result (no conflict).
    pub speculated: u32,
    /// Such chunks whose speculation met a conflict, and that ran again one
    /// workgroup per dispatch.
    pub conflicts: u32,
}

/// The result of [`run`] beyond the updated states: measurements and, when the
/// translation traced atomics, every atomic execution.
#[derive(Clone, Debug, Default)]
pub struct RunOutput {
    /// Measurements.
    pub stats: RunStats,
    /// Traced atomic executions, by kernel then wave then instruction then lane.
    pub atomics: Vec<AtomicEvent>,
    /// The traced atomic instructions (the same in every kernel).
    pub traced: Vec<super::translate::TracedAtomic>,
    /// Whether waves ran one after another.
    pub serial_waves: bool,
}

/// The limits a run splits its work by: workgroups per dispatch row and bytes
/// per storage binding. [`run`] takes the adapter's; tests lower them to
/// exercise 2-D dispatches and chunking on small launches.
#[derive(Clone, Copy, Debug)]
pub struct RunLimits {
    /// Workgroups per row of a dispatch (WebGPU guarantees 65,535).
    pub groups_x: u32,
    /// Bytes per storage buffer binding.
    pub binding_bytes: u64,
    /// Dispatch every wave this many times in one submission (benchmarks
    /// only: a program that is not idempotent, such as one with atomics, then
    /// ends with other results than one run gives).
    pub repeat: u32,
    /// Run the workgroups of a whole program that writes memory together,
    /// speculatively, first (docs/gpu.md, "Speculative workgroups"). `None`:
    /// on every adapter but a CPU one (on lavapipe its two threads gained
    /// less than the recording cost); `Some` forces it on or off.
    pub speculate: Option<bool>,
}

impl RunLimits {
    /// The adapter's limits.
    pub fn of(gpu: &Gpu) -> RunLimits {
        RunLimits {
            groups_x: gpu
                .limits
                .max_compute_workgroups_per_dimension
                .min(MAX_GROUPS_X),
            binding_bytes: gpu.limits.max_storage_buffer_binding_size,
            repeat: 1,
            speculate: None,
        }
    }
}

/// Runs `tr` on `gpu`, updating `waves` and `mem` in place.
pub fn run(
    gpu: &Gpu,
    tr: &Translation,
    waves: &mut [WaveState],
    mem: &mut Memory,
) -> Result<RunOutput, GpuError> {
    run_with(gpu, tr, waves, mem, RunLimits::of(gpu))
}

/// [`run`] under explicit limits (results are identical for any limits).
pub fn run_with(
    gpu: &Gpu,
    tr: &Translation,
    waves: &mut [WaveState],
    mem: &mut Memory,
    limits: RunLimits,
) -> Result<RunOutput, GpuError> {
    let start = Instant::now();
    let mut stats = RunStats::default();
    let mut events = Vec::new();
    let limit = limits
        .binding_bytes
        .min(gpu.limits.max_storage_buffer_binding_size);
    let groups_x = limits.groups_x.clamp(1, MAX_GROUPS_X);
    // Whole dwords; whole 8-byte words when a module has the 64-bit view
    // (Kernel::mem64), so that it covers all of memory. The padding is never
    // addressed: mem_in_range bounds every access by the memory's own size.
    let word_bytes = if tr.kernels.iter().any(|k| k.mem64) {
        8
    } else {
        4
    };
    let mem_words = mem.bytes.len().div_ceil(word_bytes).max(1) * (word_bytes / 4);
    if (mem_words as u64) * 4 > limit {
        return Err(GpuError::Device(format!(
            "{}: image memory of {} bytes exceeds the adapter's storage binding limit of {limit} bytes",
            gpu.info.name,
            mem.bytes.len()
        )));
    }
    // A second host copy of image memory (padded to whole words), up to the
    // binding limit: fallible, as every input-sized allocation.
    let mut mem_init = crate::machine::memory::try_zeroed::<u8>(mem_words * 4).map_err(|m| {
        GpuError::Translate(super::translate::TranslateError::whole(
            super::translate::TranslateErrorKind::Upload {
                bytes: mem.bytes.len(),
                source: m,
            },
        ))
    })?;
    mem_init[..mem.bytes.len()].copy_from_slice(&mem.bytes);
    let usage =
        wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST;
    let mem_buf = gpu
        .device
        .create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("image memory"),
            contents: &mem_init,
            usage,
        });
    let tables = if tr.kernels.iter().any(|k| k.tables) {
        Some(tables_buffer(gpu)?)
    } else {
        None
    };
    // A launch of several modules (a split straight-line program, or waves
    // with different descriptors) builds the next modules' pipelines on a
    // second thread while the current one runs: building is most of a small
    // launch's time on a software adapter, and the modules run one after
    // another.
    let stop = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|scope| -> Result<(), GpuError> {
        let built = (tr.kernels.len() > 1).then(|| {
            let (tx, rx) = std::sync::mpsc::channel();
            let stop = &stop;
            scope.spawn(move || {
                for kernel in &tr.kernels {
                    if stop.load(std::sync::atomic::Ordering::Relaxed)
                        || tx.send(gpu.pipeline(&kernel.wgsl)).is_err()
                    {
                        break;
                    }
                }
            });
            rx
        });
        let mut run = || -> Result<(), GpuError> {
            for kernel in &tr.kernels {
                // A whole program is one module, built here (no builder thread):
                // its speculative module where it speculates, the plain one
                // only if a conflict needs it.
                let speculate = built.is_none()
                    && limits
                        .speculate
                        .unwrap_or(gpu.info.device_type != wgpu::DeviceType::Cpu);
                let plain = std::cell::OnceCell::new();
                let pipelines = match (&kernel.spec_wgsl, speculate) {
                    (Some(spec), true) => Pipelines::Speculative {
                        spec: gpu.pipeline(spec)?,
                        plain: &plain,
                    },
                    _ => Pipelines::Plain(match &built {
                        Some(rx) => rx.recv().map_err(|_| {
                            GpuError::Device(format!(
                                "{}: the thread building pipelines stopped",
                                gpu.info.name
                            ))
                        })??,
                        None => gpu.pipeline(&kernel.wgsl)?,
                    }),
                };
                run_kernel(
                    gpu,
                    &pipelines,
                    kernel,
                    (tr, mem.base, groups_x, limits.repeat),
                    limit,
                    waves,
                    (&mem_buf, tables.as_ref()),
                    (&mut stats, &mut events),
                )?;
            }
            Ok(())
        };
        let result = run();
        // An early error leaves the builder nothing to build for.
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        result
    })?;
    let bytes = read_back(gpu, &mem_buf, (mem_words * 4) as u64)?;
    let n = mem.bytes.len();
    mem.bytes.copy_from_slice(&bytes[..n]);
    stats.total = start.elapsed();
    Ok(RunOutput {
        stats,
        atomics: events,
        traced: tr
            .kernels
            .first()
            .map(|k| k.atomics.clone())
            .unwrap_or_default(),
        serial_waves: tr.kernels.iter().any(|k| k.serial_waves),
    })
}

/// Runs one module over its waves, in chunks of waves whose state (and LDS)
/// fit one binding of `limit` bytes.
#[allow(clippy::too_many_arguments)]
fn run_kernel(
    gpu: &Gpu,
    pipelines: &Pipelines,
    kernel: &Kernel,
    (tr, mem_base, groups_x, repeat): (&Translation, u64, u32, u32),
    limit: u64,
    waves: &mut [WaveState],
    (mem_buf, tables): (&wgpu::Buffer, Option<&wgpu::Buffer>),
    (stats, events): (&mut RunStats, &mut Vec<AtomicEvent>),
) -> Result<(), GpuError> {
    let lds_words = tr.lds_bytes.div_ceil(4) + 1;
    // A straight-line module's waves that all hold the same LDS share one
    // copy. (A launch gives none to waves whose program has no LDS operation,
    // `launch::run::lds_for`, so this compares empty ones there.)
    let shared_lds = !kernel.whole
        && kernel
            .waves
            .windows(2)
            .all(|p| waves[p[0]].lds == waves[p[1]].lds);
    let per_wave = (u64::from(kernel.state_words)
        + if shared_lds { 0 } else { u64::from(lds_words) }
        + kernel.atomics.len() as u64 * u64::from(tr.wave_size * TRACE_WORDS))
        * 4;
    let chunk = (limit / per_wave.max(1)).clamp(1, u64::from(u32::MAX)) as usize;
    // Whole-program modules never split a workgroup between chunks.
    let parts: Vec<&[usize]> = if kernel.whole {
        let mut parts = Vec::new();
        let mut start = 0;
        let mut at = 0;
        for g in group_sizes(&kernel.waves, waves) {
            if at + g - start > chunk && at > start {
                parts.push(&kernel.waves[start..at]);
                start = at;
            }
            at += g;
        }
        if at > start {
            parts.push(&kernel.waves[start..at]);
        }
        parts
    } else {
        kernel.waves.chunks(chunk).collect()
    };
    for part in parts {
        let t = Instant::now();
        run_chunk(
            gpu,
            pipelines,
            kernel,
            (tr, mem_base, groups_x, repeat),
            part,
            (shared_lds, lds_words),
            waves,
            (mem_buf, tables.filter(|_| kernel.tables)),
            (stats, events),
        )?;
        stats.execute += t.elapsed();
    }
    Ok(())
}

/// Packs one wave's state: the SGPR file, M0, EXEC, VCC, the fault word,
/// SCC, MODE, the program counter (the kernel's entry op), the status (0),
/// `group` (the wave count
/// of its workgroup when it is the first wave, else 0; whole-program
/// modules), the steps jumped (0), the wave a suspended round resumes at
/// (0), one spare word, then the kernel's VGPR slots lane by lane.
fn pack_state(w: &WaveState, kernel: &Kernel, group: u32, out: &mut Vec<u32>) {
    out.extend_from_slice(w.sgprs());
    debug_assert_eq!(SGPRS, M0_WORD);
    out.extend_from_slice(&[
        w.m0,
        w.exec as u32,
        (w.exec >> 32) as u32,
        w.vcc as u32,
        (w.vcc >> 32) as u32,
        0,
        u32::from(w.scc),
        w.mode,
        kernel.entry,
        0,
        group,
        0,
        0,
        0,
    ]);
    for &n in &kernel.vgprs {
        out.extend_from_slice(w.vgpr_row(n));
    }
}

/// The inverse of [`pack_state`].
fn unpack_state(words: &[u32], kernel: &Kernel, w: &mut WaveState) {
    let ws = w.wave_size as usize;
    for n in 0..SGPRS {
        w.set_sgpr(n, words[n as usize]);
    }
    let m = M0_WORD as usize;
    w.m0 = words[m];
    w.exec = u64::from(words[m + 1]) | u64::from(words[m + 2]) << 32;
    w.vcc = u64::from(words[m + 3]) | u64::from(words[m + 4]) << 32;
    if kernel.whole {
        use super::translate::whole::{MODE_WORD, SCC_WORD};
        w.scc = words[SCC_WORD as usize] & 1 == 1;
        w.mode = words[MODE_WORD as usize];
    }
    for (k, &n) in kernel.vgprs.iter().enumerate() {
        let from = HEADER_WORDS as usize + k * ws;
        if let Some(r) = w.vgpr_row_mut(n) {
            r.copy_from_slice(&words[from..from + ws]);
        }
    }
}

/// The wave counts of the runs of consecutive waves of `part` with one
/// workgroup (`WaveState::workgroup`), the CPU's workgroups.
fn group_sizes(part: &[usize], waves: &[WaveState]) -> Vec<usize> {
    let mut sizes: Vec<usize> = Vec::new();
    let mut last = None;
    for &i in part {
        if last == Some(waves[i].workgroup) {
            *sizes.last_mut().expect("a group") += 1;
        } else {
            sizes.push(1);
            last = Some(waves[i].workgroup);
        }
    }
    sizes
}

/// The most entries a speculation table holds (`shaders/speculate.wgsl`):
/// 2^22, 32 MiB of table; a larger memory gives each entry more dwords.
const SPEC_ENTRIES: u64 = 1 << 22;

/// The pipelines a module runs through.
enum Pipelines<'a> {
    /// Its module.
    Plain(wgpu::ComputePipeline),
    /// A whole program that writes memory, speculating: its speculative
    /// module ([`Kernel::spec_wgsl`]), and its plain one, built when a
    /// conflict first needs it.
    Speculative {
        spec: wgpu::ComputePipeline,
        plain: &'a std::cell::OnceCell<wgpu::ComputePipeline>,
    },
}

/// How one pass over a chunk runs.
#[derive(Clone, Copy)]
enum Pass<'a> {
    /// The module's own order (one dispatch per workgroup where it writes
    /// memory).
    Plain,
    /// Every workgroup in one dispatch through the speculative module,
    /// recording its accesses in `table`, an entry covering 2^shift dwords.
    Speculative(&'a wgpu::Buffer, u32),
}

/// Runs one chunk of waves. A speculating whole program ([`Pipelines`])
/// first runs its workgroups together (docs/gpu.md, "Speculative
/// workgroups"): when no two of them touched the same memory with one
/// writing, that is the result of the serial order; otherwise memory is put
/// back as it was and the workgroups run one dispatch each.
#[allow(clippy::too_many_arguments)]
fn run_chunk(
    gpu: &Gpu,
    pipelines: &Pipelines,
    kernel: &Kernel,
    launch: (&Translation, u64, u32, u32),
    part: &[usize],
    lds: (bool, u32),
    waves: &mut [WaveState],
    (mem_buf, tables): (&wgpu::Buffer, Option<&wgpu::Buffer>),
    (stats, events): (&mut RunStats, &mut Vec<AtomicEvent>),
) -> Result<(), GpuError> {
    let buffers = (mem_buf, tables);
    let pipeline = match pipelines {
        Pipelines::Plain(p) => p,
        Pipelines::Speculative { spec, plain } => {
            if speculate(
                gpu, spec, kernel, launch, part, lds, waves, buffers, stats, events,
            )? {
                return Ok(());
            }
            if plain.get().is_none() {
                let _ = plain.set(gpu.pipeline(&kernel.wgsl)?);
            }
            plain.get().expect("built above")
        }
    };
    let run = (stats, events);
    run_pass(
        gpu,
        pipeline,
        kernel,
        launch,
        part,
        lds,
        waves,
        buffers,
        run,
        Pass::Plain,
    )
    .map(|_| ())
}

/// The speculative pass of a chunk through `spec`: true when it kept its
/// result; false when it met a conflict, memory then put back as the chunk
/// found it.
#[allow(clippy::too_many_arguments)]
fn speculate(
    gpu: &Gpu,
    spec: &wgpu::ComputePipeline,
    kernel: &Kernel,
    launch: (&Translation, u64, u32, u32),
    part: &[usize],
    lds: (bool, u32),
    waves: &mut [WaveState],
    buffers: (&wgpu::Buffer, Option<&wgpu::Buffer>),
    stats: &mut RunStats,
    events: &mut Vec<AtomicEvent>,
) -> Result<bool, GpuError> {
    let (dev, mem_buf) = (&gpu.device, buffers.0);
    let words = mem_buf.size() / 4;
    let mut shift = 0u32;
    while (words >> shift) + 1 > SPEC_ENTRIES {
        shift += 1;
    }
    let table = dev.create_buffer(&wgpu::BufferDescriptor {
        label: Some("speculation"),
        size: (2 + 2 * ((words >> shift) + 1)) * 4,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    });
    // Memory as the chunk found it, for the serial pass after a conflict.
    let backup = dev.create_buffer(&wgpu::BufferDescriptor {
        label: Some("memory before speculation"),
        size: mem_buf.size(),
        usage: wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let copy = |from: &wgpu::Buffer, to: &wgpu::Buffer| {
        let mut enc = dev.create_command_encoder(&Default::default());
        enc.copy_buffer_to_buffer(from, 0, to, 0, mem_buf.size());
        gpu.queue.submit([enc.finish()]);
    };
    copy(mem_buf, &backup);
    let pass = Pass::Speculative(&table, shift);
    let run = (&mut *stats, &mut *events);
    if run_pass(
        gpu, spec, kernel, launch, part, lds, waves, buffers, run, pass,
    )? {
        stats.speculated += 1;
        return Ok(true);
    }
    stats.conflicts += 1;
    copy(&backup, mem_buf);
    Ok(false)
}

/// One pass over a chunk of waves: its dispatches, then the waves' states
/// read back into `waves`. `Ok(false)`: a speculative pass met a conflict,
/// and nothing was read back.
#[allow(clippy::too_many_arguments)]
fn run_pass(
    gpu: &Gpu,
    pipeline: &wgpu::ComputePipeline,
    kernel: &Kernel,
    (tr, mem_base, max_x, repeat): (&Translation, u64, u32, u32),
    part: &[usize],
    (shared_lds, lds_words): (bool, u32),
    waves: &mut [WaveState],
    (mem_buf, tables): (&wgpu::Buffer, Option<&wgpu::Buffer>),
    (stats, events): (&mut RunStats, &mut Vec<AtomicEvent>),
    pass: Pass,
) -> Result<bool, GpuError> {
    let dev = &gpu.device;
    let mut state = Vec::with_capacity(part.len() * kernel.state_words as usize);
    // Whole-program modules: the first wave of each workgroup gets its count
    // (the others 0); straight-line modules run every wave alone.
    let groups_of: Vec<usize> = if kernel.whole {
        group_sizes(part, waves)
    } else {
        vec![1; part.len()]
    };
    let mut leaders = vec![0u32; part.len()];
    let mut at = 0;
    for &g in &groups_of {
        leaders[at] = g as u32;
        at += g;
    }
    for (c, &i) in part.iter().enumerate() {
        pack_state(&waves[i], kernel, leaders[c], &mut state);
    }
    let state_bytes: &[u8] = bytemuck::cast_slice(&state);
    let st_buf = dev.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("wave state"),
        contents: state_bytes,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
    });
    let copies = if shared_lds { &part[..1] } else { part };
    let mut lds = vec![0u8; copies.len() * lds_words as usize * 4];
    for (c, &i) in copies.iter().enumerate() {
        let from = c * lds_words as usize * 4;
        lds[from..from + waves[i].lds.len()].copy_from_slice(&waves[i].lds);
    }
    let lds_buf = dev.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("lds"),
        contents: &lds,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
    });
    let trace_words =
        part.len() * kernel.atomics.len() * tr.wave_size as usize * TRACE_WORDS as usize;
    let trace_buf = dev.create_buffer(&wgpu::BufferDescriptor {
        label: Some("atomic trace"),
        size: (trace_words.max(1) * 4) as u64,
        usage: wgpu::BufferUsages::STORAGE
            | wgpu::BufferUsages::COPY_SRC
            | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    // One Params block per dispatch, at the uniform-offset alignment.
    let n = part.len() as u32;
    let speculative = matches!(pass, Pass::Speculative(..));
    let dispatches: Vec<(u32, u32)> = if kernel.serial_waves && !speculative {
        // One dispatch per workgroup of the launch (a whole-program module's
        // first wave runs the rest of its workgroup).
        let mut d = Vec::new();
        let mut at = 0u32;
        for &g in &groups_of {
            d.push((at, at + 1));
            at += g as u32;
        }
        d
    } else {
        vec![(0, n)]
    };
    let align = gpu.limits.min_uniform_buffer_offset_alignment.max(32) as usize;
    let mut params = vec![0u8; dispatches.len() * align];
    for (k, &(base, end)) in dispatches.iter().enumerate() {
        let groups = end - base;
        let p = Params {
            wave_base: base,
            wave_count: end,
            groups_x: groups.min(max_x),
            opaque_zero: 0,
            lds_stride: if shared_lds { 0 } else { lds_words },
            spec_shift: match pass {
                Pass::Speculative(_, shift) => shift,
                Pass::Plain => 0,
            },
            pad: [0; 2],
        };
        params[k * align..k * align + 32].copy_from_slice(bytemuck::bytes_of(&p));
    }
    let params_buf = dev.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("params"),
        contents: &params,
        usage: wgpu::BufferUsages::UNIFORM,
    });
    let layout = pipeline.get_bind_group_layout(0);
    let groups: Vec<wgpu::BindGroup> = (0..dispatches.len())
        .map(|k| {
            let mut entries = vec![
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: mem_buf.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: st_buf.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 2,
                    resource: lds_buf.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 3,
                    resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                        buffer: &params_buf,
                        offset: (k * align) as u64,
                        size: wgpu::BufferSize::new(32),
                    }),
                },
                wgpu::BindGroupEntry {
                    binding: 4,
                    resource: trace_buf.as_entire_binding(),
                },
            ];
            if kernel.mem64 {
                // The same buffer again, as 64-bit words: two read-write storage
                // bindings of one buffer in one bind group are one usage
                // (STORAGE_READ_WRITE) for wgpu, and SPIR-V storage buffers may
                // alias (naga marks none `Restrict`).
                entries.push(wgpu::BindGroupEntry {
                    binding: super::translate::MEM64_BINDING,
                    resource: mem_buf.as_entire_binding(),
                });
            }
            if let Some(b) = tables {
                entries.push(wgpu::BindGroupEntry {
                    binding: tables::BINDING,
                    resource: b.as_entire_binding(),
                });
            }
            if let Pass::Speculative(table, _) = pass {
                entries.push(wgpu::BindGroupEntry {
                    binding: super::translate::SPEC_BINDING,
                    resource: table.as_entire_binding(),
                });
            }
            dev.create_bind_group(&wgpu::BindGroupDescriptor {
                label: None,
                layout: &layout,
                entries: &entries,
            })
        })
        .collect();
    let sw = kernel.state_words as usize;
    // A whole-program module suspends a wave's turn when a dispatch has run
    // its share of loop iterations (whole::ITER_BUDGET, below llvmpipe's
    // limit): the launch is dispatched again until no wave is suspended.
    // Every dispatch runs at least one block of every suspended wave.
    let mut again = 0u64;
    let words = loop {
        let mut enc = dev.create_command_encoder(&Default::default());
        {
            let mut pass = enc.begin_compute_pass(&Default::default());
            pass.set_pipeline(pipeline);
            for _ in 0..repeat.max(1) {
                for (k, &(base, end)) in dispatches.iter().enumerate() {
                    let count = end - base;
                    let gx = count.min(max_x);
                    let gy = count.div_ceil(max_x);
                    pass.set_bind_group(0, &groups[k], &[]);
                    pass.dispatch_workgroups(gx, gy, 1);
                    stats.dispatches += 1;
                }
            }
        }
        // Kernel time: submission to completion, before any read-back.
        let t = Instant::now();
        gpu.queue.submit([enc.finish()]);
        gpu.device
            .poll(wgpu::PollType::wait_indefinitely())
            .map_err(|e| GpuError::Device(format!("{}: {e}", gpu.info.name)))?;
        stats.kernel += t.elapsed();
        let words = read_back(gpu, &st_buf, state_bytes.len() as u64)?;
        let w: &[u32] = bytemuck::cast_slice(&words);
        let suspended = kernel.whole
            && (0..part.len()).any(|c| {
                w[c * sw + super::translate::whole::STATUS_WORD as usize]
                    == super::translate::whole::SUSPENDED
                    && w[c * sw + FAULT_WORD as usize] == 0
            });
        if !suspended {
            break words;
        }
        again += 1;
        // The stall flag the suspending workgroup raised (whole/module.rs, trace[0]).
        gpu.queue.write_buffer(&trace_buf, 0, &[0u8; 4]);
    };
    stats.resubmissions += again;
    if let Pass::Speculative(table, _) = pass {
        let flag = read_back(gpu, table, 4)?;
        if flag != [0u8; 4] {
            return Ok(false);
        }
    }
    let words: &[u32] = bytemuck::cast_slice(&words);
    for (c, &i) in part.iter().enumerate() {
        let fault = words[c * sw + FAULT_WORD as usize];
        if fault == super::translate::BUDGET_FAULT {
            // The launch's work budget: no wave or offset, as on the CPU.
            let what = kernel
                .faults
                .get(&(fault as usize))
                .map_or("the launch exceeded its work budget", String::as_str);
            return Err(GpuError::Translate(
                super::translate::TranslateError::whole(
                    super::translate::TranslateErrorKind::Fault {
                        wave: None,
                        what: what.to_string(),
                    },
                ),
            ));
        }
        let unfinished = kernel.whole
            && words[c * sw + super::translate::whole::STATUS_WORD as usize] != 1
            && fault == 0;
        if fault == super::translate::DEVICE_LOOP_FAULT || unfinished {
            return Err(GpuError::Translate(
                super::translate::TranslateError::whole(
                    super::translate::TranslateErrorKind::Fault {
                        wave: Some(i),
                        what: super::translate::DEVICE_LOOP_MESSAGE.to_string(),
                    },
                ),
            ));
        }
        if fault != 0 {
            // The run-time faults a module records (translate::FAULT_WORD).
            let offset = super::translate::fault_offset(fault);
            let what = kernel
                .faults
                .get(&offset)
                .map_or("an operation faulted", String::as_str);
            return Err(GpuError::Translate(super::translate::TranslateError {
                offset,
                kind: super::translate::TranslateErrorKind::Fault {
                    wave: Some(i),
                    what: what.to_string(),
                },
                whole: false,
            }));
        }
        unpack_state(&words[c * sw..(c + 1) * sw], kernel, &mut waves[i]);
    }
    if kernel.whole && !copies.is_empty() {
        // The LDS of each workgroup ends with its first wave, as on the CPU
        // (`cpu::run_group`); the other waves hold none.
        let bytes = read_back(gpu, &lds_buf, lds.len() as u64)?;
        let mut at = 0;
        for &g in &groups_of {
            let lead = part[at];
            let from = at * lds_words as usize * 4;
            let n = waves[lead].lds.len();
            waves[lead].lds.copy_from_slice(&bytes[from..from + n]);
            for &i in &part[at + 1..at + g] {
                waves[i].lds = Vec::new();
            }
            at += g;
        }
    }
    if trace_words > 0 {
        let bytes = read_back(gpu, &trace_buf, (trace_words * 4) as u64)?;
        let t: &[u32] = bytemuck::cast_slice(&bytes);
        let (ws, n) = (tr.wave_size as usize, kernel.atomics.len());
        let tw = TRACE_WORDS as usize;
        for (c, &wave) in part.iter().enumerate() {
            for k in 0..n {
                for lane in 0..ws {
                    let at = ((c * n + k) * ws + lane) * tw;
                    let r = &t[at..at + tw];
                    if r[0] & 1 == 0 {
                        continue;
                    }
                    let pair = |i: usize| u64::from(r[i]) | u64::from(r[i + 1]) << 32;
                    events.push(AtomicEvent {
                        wave,
                        ordinal: k,
                        lane: lane as u32,
                        address: mem_base + u64::from(r[1]),
                        old: pair(2),
                        data: pair(4),
                        cmp: pair(6),
                    });
                }
            }
        }
    }
    Ok(true)
}

/// The host's tables (`gpu::translate::tables`) as a read-only storage
/// buffer, uploaded once per run for the modules that read them.
fn tables_buffer(gpu: &Gpu) -> Result<wgpu::Buffer, GpuError> {
    let words = tables::words();
    let bytes = words.len() as u64 * 4;
    let limit = gpu.limits.max_storage_buffer_binding_size;
    if bytes > limit {
        return Err(GpuError::Device(format!(
            "{}: the host's tables of {bytes} bytes exceed the adapter's storage binding limit of {limit} bytes",
            gpu.info.name
        )));
    }
    Ok(gpu
        .device
        .create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("host tables"),
            contents: bytemuck::cast_slice(words),
            usage: wgpu::BufferUsages::STORAGE,
        }))
}

/// Copies a buffer to a mappable one and returns its bytes.
fn read_back(gpu: &Gpu, buf: &wgpu::Buffer, size: u64) -> Result<Vec<u8>, GpuError> {
    let staging = gpu.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("read-back"),
        size,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let mut enc = gpu.device.create_command_encoder(&Default::default());
    enc.copy_buffer_to_buffer(buf, 0, &staging, 0, size);
    gpu.queue.submit([enc.finish()]);
    let slice = staging.slice(..);
    let (tx, rx) = futures_intrusive::channel::shared::oneshot_channel();
    slice.map_async(wgpu::MapMode::Read, move |r| {
        let _ = tx.send(r);
    });
    gpu.device
        .poll(wgpu::PollType::wait_indefinitely())
        .map_err(|e| GpuError::Device(format!("{}: {e}", gpu.info.name)))?;
    if let Some(e) = gpu.take_error() {
        return Err(GpuError::Device(format!("{}: {e}", gpu.info.name)));
    }
    match pollster::block_on(rx.receive()) {
        Some(Ok(())) => {}
        Some(Err(e)) => {
            return Err(GpuError::Device(format!(
                "{}: cannot map the read-back buffer: {e}",
                gpu.info.name
            )))
        }
        None => {
            return Err(GpuError::Device(format!(
                "{}: the read-back never completed",
                gpu.info.name
            )))
        }
    }
    let data = slice
        .get_mapped_range()
        .map_err(|e| GpuError::Device(format!("{}: {e}", gpu.info.name)))?
        .to_vec();
    staging.unmap();
    Ok(data)
}
