//! Adapter choice, device creation and the pipeline cache.

use crate::gpu::GpuError;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// An open GPU: adapter, device, queue, and the pipelines built so far.
pub struct Gpu {
    /// What the adapter says about itself.
    pub info: wgpu::AdapterInfo,
    /// The device's limits (the adapter's own, all of them requested).
    pub limits: wgpu::Limits,
    /// The device has 64-bit integer atomics on storage buffers
    /// ([`INT64_ATOMICS`]): translations for it use native 64-bit image
    /// atomics (docs/gpu.md, "Memory").
    pub int64_atomics: bool,
    /// The device.
    pub device: wgpu::Device,
    /// Its queue.
    pub queue: wgpu::Queue,
    pipelines: Mutex<HashMap<String, wgpu::ComputePipeline>>,
    errors: Arc<Mutex<Vec<String>>>,
}

/// One line per adapter: name, backend and type.
pub fn describe(info: &wgpu::AdapterInfo) -> String {
    format!(
        "{} ({:?}, {:?}, driver {})",
        info.name,
        info.backend,
        info.device_type,
        if info.driver.is_empty() {
            "?"
        } else {
            &info.driver
        }
    )
}

fn instance() -> wgpu::Instance {
    let mut desc = wgpu::InstanceDescriptor::new_without_display_handle();
    desc.backends = wgpu::Backends::VULKAN | wgpu::Backends::METAL | wgpu::Backends::DX12;
    wgpu::Instance::new(desc)
}

/// Every adapter wgpu finds (Vulkan, Metal, DX12).
pub fn adapters() -> Vec<wgpu::AdapterInfo> {
    let inst = instance();
    pollster::block_on(inst.enumerate_adapters(wgpu::Backends::all()))
        .iter()
        .map(|a| a.get_info())
        .collect()
}

/// How to get an adapter when there is none (exit code 3's message).
pub const NO_ADAPTER_HINT: &str = "install a Vulkan driver (on Debian/Ubuntu, `apt-get install mesa-vulkan-drivers libvulkan1` gives Mesa's lavapipe, which runs on the CPU)";

/// The adapter features 64-bit image atomics need: 64-bit integers in shaders
/// and every atomic operation on them in storage buffers (Vulkan's
/// `shaderInt64` and `shaderBufferInt64Atomics`). `SHADER_INT64_ATOMIC_MIN_MAX`
/// alone is not enough: it allows min/max without a returned value, and GLC
/// returns it.
pub const INT64_ATOMICS: wgpu::Features =
    wgpu::Features::SHADER_INT64.union(wgpu::Features::SHADER_INT64_ATOMIC_ALL_OPS);

/// What [`open_with`] asks of the adapter beyond what every translation needs.
#[derive(Clone, Copy, Debug)]
pub struct Request {
    /// Request [`INT64_ATOMICS`] when the adapter has them. `false` opens a
    /// device without them, as on an adapter that lacks them: translations
    /// then use the portable 64-bit atomic fallback (tests run both paths).
    pub int64_atomics: bool,
}

impl Default for Request {
    fn default() -> Self {
        Request {
            int64_atomics: true,
        }
    }
}

/// Opens the adapter whose name contains `name` (case-insensitive), or the
/// preferred one: a discrete GPU, then integrated, virtual, and the CPU
/// (lavapipe) last; with every optional feature gcnrun uses that it has.
pub fn open(name: Option<&str>) -> Result<Gpu, GpuError> {
    open_with(name, Request::default())
}

/// [`open`] with an explicit [`Request`].
pub fn open_with(name: Option<&str>, request: Request) -> Result<Gpu, GpuError> {
    let inst = instance();
    let all = pollster::block_on(inst.enumerate_adapters(wgpu::Backends::all()));
    let rank = |t: wgpu::DeviceType| match t {
        wgpu::DeviceType::DiscreteGpu => 0,
        wgpu::DeviceType::IntegratedGpu => 1,
        wgpu::DeviceType::VirtualGpu => 2,
        wgpu::DeviceType::Cpu => 3,
        wgpu::DeviceType::Other => 4,
    };
    let adapter = match name {
        Some(n) => {
            let want = n.to_lowercase();
            all.into_iter()
                .find(|a| a.get_info().name.to_lowercase().contains(&want))
                .ok_or_else(|| {
                    let names: Vec<String> = adapters().iter().map(|i| i.name.clone()).collect();
                    GpuError::NoAdapter(format!(
                        "--adapter: no adapter named like `{n}` (found: {})",
                        if names.is_empty() {
                            "none".to_string()
                        } else {
                            names.join(", ")
                        }
                    ))
                })?
        }
        None => all
            .into_iter()
            .min_by_key(|a| rank(a.get_info().device_type))
            .ok_or_else(|| {
                GpuError::NoAdapter(format!("no GPU adapter found: {NO_ADAPTER_HINT}"))
            })?,
    };
    let info = adapter.get_info();
    let limits = adapter.limits();
    // Optional features the native sampler (`oracle::native`) uses when the
    // adapter has them; the translated kernels need none, but use 64-bit
    // atomics when the device has them.
    let mut features = adapter.features()
        & (wgpu::Features::FLOAT32_FILTERABLE | wgpu::Features::ADDRESS_MODE_CLAMP_TO_BORDER);
    let int64_atomics = request.int64_atomics && adapter.features().contains(INT64_ATOMICS);
    if int64_atomics {
        features |= INT64_ATOMICS;
    }
    let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
        label: Some("gcnrun"),
        required_features: features,
        required_limits: limits.clone(),
        ..Default::default()
    }))
    .map_err(|e| GpuError::Device(format!("{}: cannot open the device: {e}", info.name)))?;
    let errors = Arc::new(Mutex::new(Vec::new()));
    let sink = errors.clone();
    // wgpu's default handler panics; gcnrun reports device errors as exit 3.
    device.on_uncaptured_error(Arc::new(move |e: wgpu::Error| {
        if let Ok(mut v) = sink.lock() {
            v.push(e.to_string());
        }
    }));
    Ok(Gpu {
        info,
        limits,
        int64_atomics,
        device,
        queue,
        pipelines: Mutex::new(HashMap::new()),
        errors,
    })
}

impl Gpu {
    /// Number of distinct pipelines built so far (a repeated kernel reuses its
    /// pipeline).
    pub fn cached_pipelines(&self) -> usize {
        self.pipelines.lock().map_or(0, |m| m.len())
    }

    /// The first device error since the last call, if any.
    pub fn take_error(&self) -> Option<String> {
        let mut v = self.errors.lock().ok()?;
        let first = v.first().cloned();
        v.clear();
        first
    }

    /// The compute pipeline of a module, built once per distinct source. The
    /// source is validated by naga first; a failure is a translator bug and is
    /// reported with the WGSL written to a file.
    pub fn pipeline(&self, source: &str) -> Result<wgpu::ComputePipeline, GpuError> {
        if let Some(p) = self
            .pipelines
            .lock()
            .ok()
            .and_then(|m| m.get(source).cloned())
        {
            return Ok(p);
        }
        let compact = crate::gpu::wgsl::compacted(source)
            .map_err(|e| crate::gpu::shader_bug(source, &e.to_string()))?;
        let scope = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let module = self
            .device
            .create_shader_module(wgpu::ShaderModuleDescriptor {
                label: Some("gcnrun kernel"),
                source: wgpu::ShaderSource::Wgsl(compact.into()),
            });
        let pipeline = self
            .device
            .create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some("gcnrun kernel"),
                layout: None,
                module: &module,
                entry_point: Some("main"),
                compilation_options: Default::default(),
                cache: None,
            });
        if let Some(e) = pollster::block_on(scope.pop()) {
            return Err(crate::gpu::shader_bug(source, &e.to_string()));
        }
        if let Ok(mut m) = self.pipelines.lock() {
            m.insert(source.to_string(), pipeline.clone());
        }
        Ok(pipeline)
    }
}
