//! The adapter's own sampler, driven through wgpu: real textures, real
//! samplers and a WGSL compute kernel that calls `textureSampleLevel`,
//! `textureSampleGrad`, `textureGather`, `textureGatherCompare` or
//! `textureSampleCompareLevel` once per lane (docs/semantics/sampler-oracle.md).
//!
//! This is not gcnrun's translation of a GCN program — it is the driver's
//! sampler (Mesa lavapipe in CI, the host GPU's texture unit elsewhere), used
//! for two things: an oracle the CPU reference sampler is checked against
//! (`tests/sampler_oracle.rs`), and a throughput baseline for `gcn-run bench`
//! ([`bench_sample_level`]).
//!
//! WGSL limits what a compute shader may call: `textureSample`,
//! `textureSampleBias` and `textureSampleCompare` need implicit derivatives
//! and exist only in fragment shaders. A bias is emulated with
//! `textureSampleGrad` by scaling the derivatives by `2^bias` (λ = log2 ρ +
//! bias = log2(2^bias · ρ)); implicit derivatives by passing the quad
//! differences explicitly. `textureSampleCompareLevel` and `textureGather*`
//! always read level 0, and WGSL has no texel offsets that are not constants:
//! those forms are not offered.

use crate::gpu::{Gpu, GpuError};

/// Why the adapter's own sampler gives no answer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NativeError {
    /// An image, sampler, op or lane count that WGSL or this adapter cannot
    /// take: the adapter, and what is missing or wrong (its words).
    #[error("{adapter}: {reason}")]
    Unsupported {
        /// The adapter's name.
        adapter: String,
        /// What it cannot do.
        reason: String,
    },
    /// More lanes than a dispatch counts.
    #[error("native sampler: too many lanes")]
    TooManyLanes,
    /// `bench_sample_level` with no lanes or no time.
    #[error("native bench: lanes and seconds must be positive")]
    Arguments,
    /// The device failed.
    #[error(transparent)]
    Gpu(#[from] GpuError),
}
use wgpu::util::DeviceExt;

/// Texel formats the native sampler offers (their gcnrun equivalents: 8_8_8_8
/// UNORM and SRGB, 16_16_16_16 FLOAT, 32 FLOAT, and 32 FLOAT read as depth).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NativeFormat {
    /// `rgba8unorm`.
    Rgba8Unorm,
    /// `rgba8unorm-srgb`.
    Rgba8UnormSrgb,
    /// `rgba16float`.
    Rgba16Float,
    /// `r32float` (linear filtering needs the adapter's FLOAT32_FILTERABLE).
    R32Float,
    /// `depth32float`, for the compare forms only.
    Depth32Float,
}

impl NativeFormat {
    /// Bytes per texel.
    pub fn bytes(self) -> usize {
        match self {
            NativeFormat::Rgba8Unorm | NativeFormat::Rgba8UnormSrgb => 4,
            NativeFormat::Rgba16Float => 8,
            NativeFormat::R32Float | NativeFormat::Depth32Float => 4,
        }
    }

    fn wgpu(self) -> wgpu::TextureFormat {
        match self {
            NativeFormat::Rgba8Unorm => wgpu::TextureFormat::Rgba8Unorm,
            NativeFormat::Rgba8UnormSrgb => wgpu::TextureFormat::Rgba8UnormSrgb,
            NativeFormat::Rgba16Float => wgpu::TextureFormat::Rgba16Float,
            NativeFormat::R32Float => wgpu::TextureFormat::R32Float,
            NativeFormat::Depth32Float => wgpu::TextureFormat::Depth32Float,
        }
    }

    fn is_depth(self) -> bool {
        self == NativeFormat::Depth32Float
    }
}

/// Image shapes (WGSL `texture_2d`, `texture_2d_array`, `texture_3d`,
/// `texture_cube`, `texture_cube_array`, and their depth forms).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NativeDim {
    /// 2D.
    D2,
    /// 2D array: `layers` slices.
    D2Array,
    /// 3D: `layers` is the depth.
    D3,
    /// One cube map: `layers` = 6, faces +X, −X, +Y, −Y, +Z, −Z (GCN's order too).
    Cube,
    /// A cube array: `layers` = 6 × cubes, cube c's faces at layers 6c..6c + 5
    /// (Vulkan's layer-face order); a lane's `layer` is the cube index.
    CubeArray,
}

/// An image: shape, format and every level's texels.
#[derive(Clone, Debug, PartialEq)]
pub struct NativeImage {
    /// Shape.
    pub dim: NativeDim,
    /// Format.
    pub format: NativeFormat,
    /// Level-0 width.
    pub width: u32,
    /// Level-0 height.
    pub height: u32,
    /// Array slices (2D array), depth (3D), 6 (cube), 6 × cubes (cube array),
    /// 1 (2D).
    pub layers: u32,
    /// Texels of each level, tightly packed: slice (or z), then row, then
    /// column, [`NativeFormat::bytes`] each, in the format's own encoding
    /// (little-endian). `levels.len()` is the mip count.
    pub levels: Vec<Vec<u8>>,
}

impl NativeImage {
    /// Size of level `m`: (width, height, layers or depth).
    pub fn level_size(&self, m: u32) -> (u32, u32, u32) {
        let s = |v: u32| v.checked_shr(m).unwrap_or(0).max(1);
        let z = if self.dim == NativeDim::D3 {
            s(self.layers)
        } else {
            self.layers
        };
        (s(self.width), s(self.height), z)
    }

    /// Checks shape and data against each other and against the adapter's
    /// limits (a refused image is an error, never a panic in wgpu).
    fn check(&self, limits: &wgpu::Limits) -> Result<(), String> {
        if self.width == 0 || self.height == 0 || self.layers == 0 {
            return Err("native image: zero size".into());
        }
        let max_dim = match self.dim {
            NativeDim::D3 => limits.max_texture_dimension_3d,
            _ => limits.max_texture_dimension_2d,
        };
        if self.width > max_dim || self.height > max_dim {
            return Err(format!(
                "native image: {}x{} exceeds the adapter's {max_dim}",
                self.width, self.height
            ));
        }
        match self.dim {
            NativeDim::D2 if self.layers != 1 => {
                return Err("native image: a 2D image has one layer".into())
            }
            NativeDim::Cube if self.layers != 6 || self.width != self.height => {
                return Err("native image: a cube is square with 6 faces".into())
            }
            NativeDim::CubeArray
                if 6 * (self.layers / 6) != self.layers || self.width != self.height =>
            {
                return Err("native image: a cube array is square with 6 faces per cube".into())
            }
            NativeDim::CubeArray if self.layers > limits.max_texture_array_layers => {
                return Err("native image: too many layers".into())
            }
            NativeDim::D2Array if self.layers > limits.max_texture_array_layers => {
                return Err("native image: too many layers".into())
            }
            NativeDim::D3 if self.layers > max_dim => return Err("native image: too deep".into()),
            _ => {}
        }
        if self.format.is_depth() && self.dim == NativeDim::D3 {
            return Err("native image: no 3D depth textures".into());
        }
        let longest = match self.dim {
            NativeDim::D3 => self.width.max(self.height).max(self.layers),
            _ => self.width.max(self.height),
        };
        let full = 32 - longest.leading_zeros();
        if self.levels.is_empty() || self.levels.len() as u32 > full {
            return Err(format!(
                "native image: {} levels (1..={full} allowed)",
                self.levels.len()
            ));
        }
        for (m, data) in self.levels.iter().enumerate() {
            // Depth texels are drawn (`write_depth`), and a draw clamps depth
            // to [0, 1]: other values could not be stored as given.
            if self.format.is_depth()
                && data.chunks_exact(4).any(|b| {
                    let v = f32::from_le_bytes([b[0], b[1], b[2], b[3]]);
                    !(0.0..=1.0).contains(&v)
                })
            {
                return Err(format!(
                    "native image: level {m} has a depth outside [0, 1]"
                ));
            }
            let (w, h, z) = self.level_size(m as u32);
            let want = w as usize * h as usize * z as usize * self.format.bytes();
            if data.len() != want {
                return Err(format!(
                    "native image: level {m} has {} bytes, {w}x{h}x{z} needs {want}",
                    data.len()
                ));
            }
        }
        Ok(())
    }
}

/// Address modes wgpu (and core Vulkan) offer; gcnrun's SQ_TEX_CLAMP codes 0,
/// 1, 2 and 6.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NativeAddress {
    /// Repeat (SQ_TEX_WRAP).
    Repeat,
    /// Mirrored repeat (SQ_TEX_MIRROR).
    Mirror,
    /// Clamp to edge (SQ_TEX_CLAMP_LAST_TEXEL).
    ClampToEdge,
    /// Clamp to border (SQ_TEX_CLAMP_BORDER); needs ADDRESS_MODE_CLAMP_TO_BORDER.
    ClampToBorder,
}

/// A sampler, in the terms both gcnrun's S# and wgpu's descriptor can state.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NativeSampler {
    /// Magnification filter is linear (else nearest).
    pub mag_linear: bool,
    /// Minification filter is linear.
    pub min_linear: bool,
    /// Mip filter is linear.
    pub mip_linear: bool,
    /// Address modes of u, v, w.
    pub address: [NativeAddress; 3],
    /// Lowest LOD.
    pub lod_min: f32,
    /// Highest LOD.
    pub lod_max: f32,
    /// Compare function for the compare forms: gcnrun's
    /// `SQ_TEX_DEPTH_COMPARE` code 0..=7 (VkCompareOp's numbering).
    pub compare: Option<u8>,
    /// Maximum anisotropy 1..=16 (1 = off).
    pub anisotropy: u16,
    /// Border colour type for ClampToBorder: 0 transparent black, 1 opaque
    /// black, 2 opaque white (the S# BORDER_COLOR_TYPE codes).
    pub border: u8,
}

impl Default for NativeSampler {
    fn default() -> Self {
        NativeSampler {
            mag_linear: false,
            min_linear: false,
            mip_linear: false,
            address: [NativeAddress::ClampToEdge; 3],
            lod_min: 0.0,
            lod_max: 32.0,
            compare: None,
            anisotropy: 1,
            border: 0,
        }
    }
}

/// What each lane calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NativeOp {
    /// `textureSampleLevel(t, s, coords, lod)`.
    SampleLevel,
    /// `textureSampleGrad(t, s, coords, ddx, ddy)`: explicit derivatives, and
    /// the emulation of bias and implicit derivatives.
    SampleGrad,
    /// `textureGather(component, t, s, coords)`: level 0.
    Gather(u32),
    /// `textureGatherCompare(t, s, coords, reference)`: level 0, depth.
    GatherCompare,
    /// `textureSampleCompareLevel(t, s, coords, reference)`: level 0, depth;
    /// the result is in x (y, z, w are 0).
    SampleCompareLevel,
}

/// One lane's operands.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct NativeLane {
    /// Coordinates: (s, t) for 2D and arrays, (s, t, r) for 3D, the direction
    /// for cubes; normalized.
    pub coords: [f32; 3],
    /// Array slice (2D arrays) or cube index (cube arrays), already an integer:
    /// WGSL takes the index, so the driver does no rounding.
    pub layer: i32,
    /// Explicit LOD ([`NativeOp::SampleLevel`]).
    pub lod: f32,
    /// d(coords)/dx ([`NativeOp::SampleGrad`]).
    pub ddx: [f32; 3],
    /// d(coords)/dy.
    pub ddy: [f32; 3],
    /// Depth reference (compare forms).
    pub reference: f32,
}

/// Words per lane in the input buffer: coords + lod, ddx + reference,
/// ddy + layer bits.
const LANE_WORDS: usize = 12;
/// Invocations per workgroup.
const GROUP: u32 = 64;

/// The WGSL kernel for a shape, format class and op. Coordinates per shape:
/// 2D `c.xy`, arrays `c.xy, layer`, 3D and cube `c.xyz`, cube arrays
/// `c.xyz, layer`.
fn kernel_source(dim: NativeDim, depth: bool, op: NativeOp) -> Result<String, String> {
    let (ty, coords, deriv) = match (dim, depth) {
        (NativeDim::D2, false) => ("texture_2d<f32>", "a.xy", ".xy"),
        (NativeDim::D2, true) => ("texture_depth_2d", "a.xy", ".xy"),
        (NativeDim::D2Array, false) => ("texture_2d_array<f32>", "a.xy, layer", ".xy"),
        (NativeDim::D2Array, true) => ("texture_depth_2d_array", "a.xy, layer", ".xy"),
        (NativeDim::D3, false) => ("texture_3d<f32>", "a.xyz", ".xyz"),
        (NativeDim::Cube, false) => ("texture_cube<f32>", "a.xyz", ".xyz"),
        (NativeDim::Cube, true) => ("texture_depth_cube", "a.xyz", ".xyz"),
        (NativeDim::CubeArray, false) => ("texture_cube_array<f32>", "a.xyz, layer", ".xyz"),
        (NativeDim::CubeArray, true) => ("texture_depth_cube_array", "a.xyz, layer", ".xyz"),
        (NativeDim::D3, true) => return Err("no 3D depth textures".into()),
    };
    let compare = matches!(op, NativeOp::GatherCompare | NativeOp::SampleCompareLevel);
    if compare != depth {
        return Err(format!(
            "{op:?} {} a depth texture",
            if depth { "cannot read" } else { "needs" }
        ));
    }
    if dim == NativeDim::D3 && matches!(op, NativeOp::Gather(_)) {
        return Err("WGSL has no textureGather on 3D textures".into());
    }
    let expr = match op {
        NativeOp::SampleLevel => format!("textureSampleLevel(t, s, {coords}, a.w)"),
        NativeOp::SampleGrad => {
            format!("textureSampleGrad(t, s, {coords}, b{deriv}, d{deriv})")
        }
        NativeOp::Gather(c) if c < 4 => format!("textureGather({c}, t, s, {coords})"),
        NativeOp::Gather(c) => return Err(format!("gather component {c} is not 0..=3")),
        NativeOp::GatherCompare => format!("textureGatherCompare(t, s, {coords}, b.w)"),
        NativeOp::SampleCompareLevel => {
            format!("vec4<f32>(textureSampleCompareLevel(t, s, {coords}, b.w), 0.0, 0.0, 0.0)")
        }
    };
    let sampler = if compare {
        "sampler_comparison"
    } else {
        "sampler"
    };
    Ok(format!(
        r#"@group(0) @binding(0) var t: {ty};
@group(0) @binding(1) var s: {sampler};
@group(0) @binding(2) var<storage, read> lanes: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read_write> results: array<vec4<f32>>;
@group(0) @binding(4) var<uniform> count: vec4<u32>;

@compute @workgroup_size({GROUP})
fn main(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) n: vec3<u32>) {{
    let i = g.x + g.y * n.x * {GROUP}u;
    if (i >= count.x) {{
        return;
    }}
    let a = lanes[3u * i];
    let b = lanes[3u * i + 1u];
    let d = lanes[3u * i + 2u];
    let layer = bitcast<i32>(d.w);
    results[i] = {expr};
}}
"#
    ))
}

fn compare_function(code: u8) -> wgpu::CompareFunction {
    use wgpu::CompareFunction as C;
    // VkCompareOp numbering, the reference on the left ("ref < texel").
    match code & 7 {
        0 => C::Never,
        1 => C::Less,
        2 => C::Equal,
        3 => C::LessEqual,
        4 => C::Greater,
        5 => C::NotEqual,
        6 => C::GreaterEqual,
        _ => C::Always,
    }
}

/// What the pipeline of one (shape, format, op, sampler kind) needs.
struct Resources {
    texture: wgpu::Texture,
    view: wgpu::TextureView,
    sampler: wgpu::Sampler,
    layout: wgpu::BindGroupLayout,
    pipeline: wgpu::ComputePipeline,
}

fn device_error(gpu: &Gpu, what: &str) -> Result<(), GpuError> {
    match gpu.take_error() {
        Some(e) => Err(GpuError::Device(format!("{}: {what}: {e}", gpu.info.name))),
        None => Ok(()),
    }
}

fn prepare(
    gpu: &Gpu,
    image: &NativeImage,
    sampler: &NativeSampler,
    op: NativeOp,
) -> Result<Resources, NativeError> {
    let refuse = |reason: String| NativeError::Unsupported {
        adapter: gpu.info.name.clone(),
        reason,
    };
    image.check(&gpu.limits).map_err(refuse)?;
    let features = gpu.device.features();
    let linear = sampler.mag_linear || sampler.min_linear || sampler.mip_linear;
    let float32 = image.format == NativeFormat::R32Float;
    let filterable = !float32 || features.contains(wgpu::Features::FLOAT32_FILTERABLE);
    if linear && !filterable && !image.format.is_depth() {
        return Err(refuse(
            "linear filtering of r32float needs FLOAT32_FILTERABLE".into(),
        ));
    }
    let border = sampler.address[..].contains(&NativeAddress::ClampToBorder);
    if border && !features.contains(wgpu::Features::ADDRESS_MODE_CLAMP_TO_BORDER) {
        return Err(refuse(
            "clamp-to-border needs ADDRESS_MODE_CLAMP_TO_BORDER".into(),
        ));
    }
    if sampler.anisotropy != 1 && !(sampler.mag_linear && sampler.min_linear && sampler.mip_linear)
    {
        return Err(refuse("anisotropy needs every filter linear".into()));
    }
    let source = kernel_source(image.dim, image.format.is_depth(), op).map_err(refuse)?;
    let compare = image.format.is_depth();
    if compare != sampler.compare.is_some() {
        return Err(refuse(
            "a compare function goes with a depth image and a compare op".into(),
        ));
    }

    let scope = gpu.device.push_error_scope(wgpu::ErrorFilter::Validation);
    let (w, h, _) = image.level_size(0);
    let texture = gpu.device.create_texture(&wgpu::TextureDescriptor {
        label: Some("gcnrun native image"),
        size: wgpu::Extent3d {
            width: w,
            height: h,
            depth_or_array_layers: image.layers,
        },
        mip_level_count: image.levels.len() as u32,
        sample_count: 1,
        dimension: if image.dim == NativeDim::D3 {
            wgpu::TextureDimension::D3
        } else {
            wgpu::TextureDimension::D2
        },
        format: image.format.wgpu(),
        usage: if image.format.is_depth() {
            wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::RENDER_ATTACHMENT
        } else {
            wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST
        },
        view_formats: &[],
    });
    for (m, data) in image.levels.iter().enumerate() {
        let (lw, lh, lz) = image.level_size(m as u32);
        if image.format.is_depth() {
            write_depth(gpu, &texture, m as u32, (lw, lh, lz), data);
            continue;
        }
        gpu.queue.write_texture(
            wgpu::TexelCopyTextureInfo {
                texture: &texture,
                mip_level: m as u32,
                origin: wgpu::Origin3d::ZERO,
                aspect: wgpu::TextureAspect::All,
            },
            data,
            wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(lw * image.format.bytes() as u32),
                rows_per_image: Some(lh),
            },
            wgpu::Extent3d {
                width: lw,
                height: lh,
                depth_or_array_layers: lz,
            },
        );
    }
    let view_dimension = match image.dim {
        NativeDim::D2 => wgpu::TextureViewDimension::D2,
        NativeDim::D2Array => wgpu::TextureViewDimension::D2Array,
        NativeDim::D3 => wgpu::TextureViewDimension::D3,
        NativeDim::Cube => wgpu::TextureViewDimension::Cube,
        NativeDim::CubeArray => wgpu::TextureViewDimension::CubeArray,
    };
    let view = texture.create_view(&wgpu::TextureViewDescriptor {
        dimension: Some(view_dimension),
        ..Default::default()
    });
    let address = |a: NativeAddress| match a {
        NativeAddress::Repeat => wgpu::AddressMode::Repeat,
        NativeAddress::Mirror => wgpu::AddressMode::MirrorRepeat,
        NativeAddress::ClampToEdge => wgpu::AddressMode::ClampToEdge,
        NativeAddress::ClampToBorder => wgpu::AddressMode::ClampToBorder,
    };
    let filter = |l: bool| {
        if l {
            wgpu::FilterMode::Linear
        } else {
            wgpu::FilterMode::Nearest
        }
    };
    let sampler_object = gpu.device.create_sampler(&wgpu::SamplerDescriptor {
        label: Some("gcnrun native sampler"),
        address_mode_u: address(sampler.address[0]),
        address_mode_v: address(sampler.address[1]),
        address_mode_w: address(sampler.address[2]),
        mag_filter: filter(sampler.mag_linear),
        min_filter: filter(sampler.min_linear),
        mipmap_filter: if sampler.mip_linear {
            wgpu::MipmapFilterMode::Linear
        } else {
            wgpu::MipmapFilterMode::Nearest
        },
        lod_min_clamp: sampler.lod_min,
        lod_max_clamp: sampler.lod_max,
        compare: sampler.compare.map(compare_function),
        anisotropy_clamp: sampler.anisotropy.clamp(1, 16),
        border_color: border.then_some(match sampler.border {
            0 => wgpu::SamplerBorderColor::TransparentBlack,
            1 => wgpu::SamplerBorderColor::OpaqueBlack,
            _ => wgpu::SamplerBorderColor::OpaqueWhite,
        }),
    });
    let sample_type = if compare {
        wgpu::TextureSampleType::Depth
    } else {
        wgpu::TextureSampleType::Float { filterable }
    };
    let sampler_type = if compare {
        wgpu::SamplerBindingType::Comparison
    } else if filterable {
        wgpu::SamplerBindingType::Filtering
    } else {
        wgpu::SamplerBindingType::NonFiltering
    };
    let storage = |read_only: bool| wgpu::BindingType::Buffer {
        ty: wgpu::BufferBindingType::Storage { read_only },
        has_dynamic_offset: false,
        min_binding_size: None,
    };
    let entry = |binding: u32, ty: wgpu::BindingType| wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty,
        count: None,
    };
    let layout = gpu
        .device
        .create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("gcnrun native"),
            entries: &[
                entry(
                    0,
                    wgpu::BindingType::Texture {
                        sample_type,
                        view_dimension,
                        multisampled: false,
                    },
                ),
                entry(1, wgpu::BindingType::Sampler(sampler_type)),
                entry(2, storage(true)),
                entry(3, storage(false)),
                entry(
                    4,
                    wgpu::BindingType::Buffer {
                        ty: wgpu::BufferBindingType::Uniform,
                        has_dynamic_offset: false,
                        min_binding_size: None,
                    },
                ),
            ],
        });
    let module = gpu
        .device
        .create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("gcnrun native kernel"),
            source: wgpu::ShaderSource::Wgsl(source.as_str().into()),
        });
    let pipeline_layout = gpu
        .device
        .create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("gcnrun native"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
    let pipeline = gpu
        .device
        .create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some("gcnrun native kernel"),
            layout: Some(&pipeline_layout),
            module: &module,
            entry_point: Some("main"),
            compilation_options: Default::default(),
            cache: None,
        });
    if let Some(e) = pollster::block_on(scope.pop()) {
        return Err(refuse(format!("the native sampler was refused: {e}")));
    }
    device_error(gpu, "native sampler set-up")?;
    Ok(Resources {
        texture,
        view,
        sampler: sampler_object,
        layout,
        pipeline,
    })
}

/// Writes one level of a depth texture. WebGPU forbids copies into
/// `depth32float`, so each slice is drawn: a full-screen triangle whose
/// fragment shader writes the texel's value as `frag_depth` (exact: the values
/// are f32 in [0, 1], the depth range).
fn write_depth(gpu: &Gpu, texture: &wgpu::Texture, level: u32, size: (u32, u32, u32), data: &[u8]) {
    const SOURCE: &str = r#"@group(0) @binding(0) var<storage, read> depths: array<f32>;
@group(0) @binding(1) var<uniform> at: vec4<u32>;

@vertex
fn vs(@builtin(vertex_index) v: u32) -> @builtin(position) vec4<f32> {
    let x = f32((v << 1u) & 2u) * 2.0 - 1.0;
    let y = f32(v & 2u) * 2.0 - 1.0;
    return vec4<f32>(x, y, 0.0, 1.0);
}

@fragment
fn fs(@builtin(position) p: vec4<f32>) -> @builtin(frag_depth) f32 {
    return depths[at.y + u32(p.y) * at.x + u32(p.x)];
}
"#;
    let (w, h, layers) = size;
    let module = gpu
        .device
        .create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("gcnrun depth upload"),
            source: wgpu::ShaderSource::Wgsl(SOURCE.into()),
        });
    let pipeline = gpu
        .device
        .create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("gcnrun depth upload"),
            layout: None,
            vertex: wgpu::VertexState {
                module: &module,
                entry_point: Some("vs"),
                compilation_options: Default::default(),
                buffers: &[],
            },
            primitive: Default::default(),
            depth_stencil: Some(wgpu::DepthStencilState {
                format: wgpu::TextureFormat::Depth32Float,
                depth_write_enabled: Some(true),
                depth_compare: Some(wgpu::CompareFunction::Always),
                stencil: Default::default(),
                bias: Default::default(),
            }),
            multisample: Default::default(),
            fragment: Some(wgpu::FragmentState {
                module: &module,
                entry_point: Some("fs"),
                compilation_options: Default::default(),
                targets: &[],
            }),
            multiview_mask: None,
            cache: None,
        });
    let depths = gpu
        .device
        .create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("depth texels"),
            contents: data,
            usage: wgpu::BufferUsages::STORAGE,
        });
    let mut enc = gpu.device.create_command_encoder(&Default::default());
    for layer in 0..layers {
        let at = gpu
            .device
            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("depth slice"),
                contents: bytemuck::cast_slice(&[w, layer * w * h, 0u32, 0]),
                usage: wgpu::BufferUsages::UNIFORM,
            });
        let group = gpu.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("gcnrun depth upload"),
            layout: &pipeline.get_bind_group_layout(0),
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: depths.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: at.as_entire_binding(),
                },
            ],
        });
        let view = texture.create_view(&wgpu::TextureViewDescriptor {
            dimension: Some(wgpu::TextureViewDimension::D2),
            base_mip_level: level,
            mip_level_count: Some(1),
            base_array_layer: layer,
            array_layer_count: Some(1),
            ..Default::default()
        });
        let mut pass = enc.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("gcnrun depth upload"),
            color_attachments: &[],
            depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                view: &view,
                depth_ops: Some(wgpu::Operations {
                    load: wgpu::LoadOp::Clear(0.0),
                    store: wgpu::StoreOp::Store,
                }),
                stencil_ops: None,
            }),
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        });
        pass.set_pipeline(&pipeline);
        pass.set_bind_group(0, &group, &[]);
        pass.draw(0..3, 0..1);
    }
    gpu.queue.submit([enc.finish()]);
}

/// Buffers and bind group for one batch of lanes.
struct Batch {
    group: wgpu::BindGroup,
    results: wgpu::Buffer,
    count: u32,
}

fn batch(gpu: &Gpu, r: &Resources, lanes: &[NativeLane]) -> Result<Batch, NativeError> {
    let count = u32::try_from(lanes.len()).map_err(|_| NativeError::TooManyLanes)?;
    let mut words: Vec<f32> = Vec::with_capacity(lanes.len().max(1) * LANE_WORDS);
    for l in lanes {
        words.extend_from_slice(&[l.coords[0], l.coords[1], l.coords[2], l.lod]);
        words.extend_from_slice(&[l.ddx[0], l.ddx[1], l.ddx[2], l.reference]);
        words.extend_from_slice(&[l.ddy[0], l.ddy[1], l.ddy[2], f32::from_bits(l.layer as u32)]);
    }
    if words.is_empty() {
        words.resize(LANE_WORDS, 0.0);
    }
    let out_bytes = (lanes.len().max(1) * 16) as u64;
    if out_bytes > gpu.limits.max_storage_buffer_binding_size
        || (words.len() * 4) as u64 > gpu.limits.max_storage_buffer_binding_size
    {
        return Err(NativeError::Unsupported {
            adapter: gpu.info.name.clone(),
            reason: format!("{} lanes exceed the storage-buffer limit", lanes.len()),
        });
    }
    let input = gpu
        .device
        .create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("native lanes"),
            contents: bytemuck::cast_slice(&words),
            usage: wgpu::BufferUsages::STORAGE,
        });
    let results = gpu.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("native results"),
        size: out_bytes,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    });
    let uniform = gpu
        .device
        .create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("native count"),
            contents: bytemuck::cast_slice(&[count, 0, 0, 0]),
            usage: wgpu::BufferUsages::UNIFORM,
        });
    let group = gpu.device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("gcnrun native"),
        layout: &r.layout,
        entries: &[
            wgpu::BindGroupEntry {
                binding: 0,
                resource: wgpu::BindingResource::TextureView(&r.view),
            },
            wgpu::BindGroupEntry {
                binding: 1,
                resource: wgpu::BindingResource::Sampler(&r.sampler),
            },
            wgpu::BindGroupEntry {
                binding: 2,
                resource: input.as_entire_binding(),
            },
            wgpu::BindGroupEntry {
                binding: 3,
                resource: results.as_entire_binding(),
            },
            wgpu::BindGroupEntry {
                binding: 4,
                resource: uniform.as_entire_binding(),
            },
        ],
    });
    Ok(Batch {
        group,
        results,
        count,
    })
}

/// Records `reps` dispatches of the kernel over the batch.
fn encode(gpu: &Gpu, r: &Resources, b: &Batch, reps: u32) -> wgpu::CommandBuffer {
    let groups = b.count.div_ceil(GROUP).max(1);
    let max_x = gpu.limits.max_compute_workgroups_per_dimension.max(1);
    let (gx, gy) = (groups.min(max_x), groups.div_ceil(max_x));
    let mut enc = gpu.device.create_command_encoder(&Default::default());
    {
        let mut pass = enc.begin_compute_pass(&Default::default());
        pass.set_pipeline(&r.pipeline);
        pass.set_bind_group(0, &b.group, &[]);
        for _ in 0..reps {
            pass.dispatch_workgroups(gx, gy, 1);
        }
    }
    enc.finish()
}

/// The bytes of a storage buffer, through a mappable copy.
fn read_back(gpu: &Gpu, buf: &wgpu::Buffer) -> Result<Vec<u8>, GpuError> {
    let fail = |m: String| GpuError::Device(format!("{}: {m}", gpu.info.name));
    let staging = gpu.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("native read-back"),
        size: buf.size(),
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let mut enc = gpu.device.create_command_encoder(&Default::default());
    enc.copy_buffer_to_buffer(buf, 0, &staging, 0, buf.size());
    gpu.queue.submit([enc.finish()]);
    let slice = staging.slice(..);
    let (tx, rx) = futures_intrusive::channel::shared::oneshot_channel();
    slice.map_async(wgpu::MapMode::Read, move |r| {
        let _ = tx.send(r);
    });
    gpu.device
        .poll(wgpu::PollType::wait_indefinitely())
        .map_err(|e| fail(e.to_string()))?;
    device_error(gpu, "native sampler")?;
    match pollster::block_on(rx.receive()) {
        Some(Ok(())) => {}
        Some(Err(e)) => return Err(fail(format!("cannot map the results: {e}"))),
        None => return Err(fail("the read-back never completed".into())),
    }
    let data = slice
        .get_mapped_range()
        .map_err(|e| fail(e.to_string()))?
        .to_vec();
    staging.unmap();
    Ok(data)
}

/// Samples `image` with `sampler` once per lane through the adapter's own
/// sampler and returns each lane's vec4 (X, Y, Z, W as WGSL returns them:
/// missing components of the format read 0, alpha 1; gathers return the four
/// texels in WGSL's order; [`NativeOp::SampleCompareLevel`] returns the result
/// in x). Shapes, formats, ops and samplers the adapter or WGSL cannot do are
/// errors naming what is missing.
pub fn sample(
    gpu: &Gpu,
    image: &NativeImage,
    sampler: &NativeSampler,
    op: NativeOp,
    lanes: &[NativeLane],
) -> Result<Vec<[f32; 4]>, NativeError> {
    let r = prepare(gpu, image, sampler, op)?;
    let b = batch(gpu, &r, lanes)?;
    gpu.queue.submit([encode(gpu, &r, &b, 1)]);
    let bytes = read_back(gpu, &b.results)?;
    drop(r.texture);
    let words: &[f32] = bytemuck::cast_slice(&bytes);
    Ok(words
        .chunks_exact(4)
        .take(lanes.len())
        .map(|c| [c[0], c[1], c[2], c[3]])
        .collect())
}

/// Throughput of the adapter's `textureSampleLevel` on `image` with `sampler`:
/// `lanes` invocations per dispatch at deterministic pseudo-random normalized
/// coordinates and LODs in [0, levels), dispatched repeatedly for about
/// `seconds` (after one warm-up submission), timed on the host from submit to
/// completion. Returns lane operations (samples) per second.
pub fn bench_sample_level(
    gpu: &Gpu,
    image: &NativeImage,
    sampler: &NativeSampler,
    lanes: u32,
    seconds: f64,
) -> Result<f64, NativeError> {
    if lanes == 0 || !(seconds.is_finite() && seconds > 0.0) {
        return Err(NativeError::Arguments);
    }
    let r = prepare(gpu, image, sampler, NativeOp::SampleLevel)?;
    let levels = image.levels.len() as f32;
    // A xorshift stream: reproducible, and cheap enough for millions of lanes.
    let mut x: u32 = 0x9e37_79b9;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        (x >> 8) as f32 / (1u32 << 24) as f32
    };
    let input: Vec<NativeLane> = (0..lanes)
        .map(|i| NativeLane {
            coords: [next(), next(), next() * 2.0 - 1.0],
            layer: (i % image.layers) as i32,
            lod: next() * levels,
            ..Default::default()
        })
        .collect();
    let b = batch(gpu, &r, &input)?;
    let wait = |what: &str| -> Result<(), GpuError> {
        gpu.device
            .poll(wgpu::PollType::wait_indefinitely())
            .map_err(|e| GpuError::Device(format!("{}: {what}: {e}", gpu.info.name)))?;
        device_error(gpu, what)
    };
    gpu.queue.submit([encode(gpu, &r, &b, 1)]);
    wait("native bench warm-up")?;
    let start = std::time::Instant::now();
    let mut done: u64 = 0;
    let mut reps: u32 = 1;
    loop {
        let t0 = std::time::Instant::now();
        gpu.queue.submit([encode(gpu, &r, &b, reps)]);
        wait("native bench")?;
        done += u64::from(reps);
        let elapsed = start.elapsed().as_secs_f64();
        if elapsed >= seconds {
            return Ok(done as f64 * f64::from(lanes) / elapsed);
        }
        // Grow the submission until one takes ~50 ms, so per-submit overhead
        // does not dominate a fast adapter.
        if t0.elapsed().as_secs_f64() < 0.05 && reps < 1 << 16 {
            reps *= 2;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DIMS: [NativeDim; 5] = [
        NativeDim::D2,
        NativeDim::D2Array,
        NativeDim::D3,
        NativeDim::Cube,
        NativeDim::CubeArray,
    ];

    /// naga's validation with the capability a cube array needs (a device
    /// grants it when the adapter has cube arrays; gcnrun's own modules never
    /// use them, so `wgsl::validate` does not grant it).
    fn validate_native(dim: NativeDim, src: &str) -> Result<(), String> {
        if dim != NativeDim::CubeArray {
            return crate::gpu::wgsl::validate(src)
                .map(|_| ())
                .map_err(|e| e.to_string());
        }
        let module = naga::front::wgsl::parse_str(src).map_err(|e| e.emit_to_string(src))?;
        naga::valid::Validator::new(
            naga::valid::ValidationFlags::all(),
            naga::valid::Capabilities::CUBE_ARRAY_TEXTURES,
        )
        .validate(&module)
        .map(|_| ())
        .map_err(|e| e.emit_to_string(src))
    }

    /// Every kernel the module can emit is valid WGSL for naga, and every
    /// combination WGSL lacks is refused by name (never emitted).
    #[test]
    fn every_kernel_validates_or_is_refused() {
        let ops = [
            NativeOp::SampleLevel,
            NativeOp::SampleGrad,
            NativeOp::Gather(0),
            NativeOp::Gather(3),
            NativeOp::Gather(4),
            NativeOp::GatherCompare,
            NativeOp::SampleCompareLevel,
        ];
        let mut emitted = 0;
        for dim in DIMS {
            for depth in [false, true] {
                for op in ops {
                    match kernel_source(dim, depth, op) {
                        Ok(src) => {
                            validate_native(dim, &src)
                                .unwrap_or_else(|e| panic!("{dim:?} {depth} {op:?}: {e}"));
                            emitted += 1;
                        }
                        Err(e) => assert!(!e.is_empty()),
                    }
                }
            }
        }
        // Colour: 5 dims × (level, grad) + 4 dims × 2 gathers; depth: 4 dims × 2.
        assert_eq!(emitted, 10 + 8 + 8);
        assert!(kernel_source(NativeDim::D3, false, NativeOp::Gather(0)).is_err());
        assert!(kernel_source(NativeDim::D2, true, NativeOp::SampleLevel).is_err());
        assert!(kernel_source(NativeDim::D2, false, NativeOp::GatherCompare).is_err());
    }

    fn image(dim: NativeDim, format: NativeFormat, w: u32, h: u32, layers: u32) -> NativeImage {
        let mut im = NativeImage {
            dim,
            format,
            width: w,
            height: h,
            layers,
            levels: Vec::new(),
        };
        let (lw, lh, lz) = im.level_size(0);
        im.levels
            .push(vec![0; (lw * lh * lz) as usize * format.bytes()]);
        im
    }

    /// Malformed images are errors that say what is wrong, before wgpu sees
    /// them.
    #[test]
    fn bad_images_are_refused() {
        let limits = wgpu::Limits::default();
        let rgba = NativeFormat::Rgba8Unorm;
        assert!(image(NativeDim::D2, rgba, 4, 4, 1).check(&limits).is_ok());
        assert!(image(NativeDim::D3, rgba, 4, 2, 8).check(&limits).is_ok());
        assert!(image(NativeDim::CubeArray, rgba, 4, 4, 12)
            .check(&limits)
            .is_ok());
        let bad = [
            (image(NativeDim::D2, rgba, 0, 4, 1), "zero size"),
            (image(NativeDim::D2, rgba, 4, 4, 2), "one layer"),
            (image(NativeDim::Cube, rgba, 4, 2, 6), "square"),
            (image(NativeDim::Cube, rgba, 4, 4, 5), "6 faces"),
            (
                image(NativeDim::CubeArray, rgba, 4, 4, 8),
                "6 faces per cube",
            ),
            (image(NativeDim::CubeArray, rgba, 4, 2, 12), "square"),
            (
                image(NativeDim::D3, NativeFormat::Depth32Float, 4, 4, 4),
                "3D depth",
            ),
            (image(NativeDim::D2, rgba, 1 << 20, 4, 1), "exceeds"),
        ];
        for (im, want) in bad {
            let e = im.check(&limits).unwrap_err();
            assert!(e.contains(want), "{e}");
        }
        // Level data of the wrong length, and more levels than the chain has.
        let mut im = image(NativeDim::D2, rgba, 4, 4, 1);
        im.levels[0].pop();
        assert!(im.check(&limits).unwrap_err().contains("bytes"));
        let mut im = image(NativeDim::D2, rgba, 4, 4, 1);
        for n in [8, 4, 4] {
            im.levels.push(vec![0; n]);
        }
        assert!(im.check(&limits).unwrap_err().contains("levels"));
        // Depths outside [0, 1] cannot be drawn as given.
        let mut im = image(NativeDim::D2, NativeFormat::Depth32Float, 2, 1, 1);
        im.levels[0] = [0.5f32, 1.5].iter().flat_map(|v| v.to_le_bytes()).collect();
        assert!(im.check(&limits).unwrap_err().contains("depth"));
    }

    #[test]
    fn level_sizes_halve_to_one() {
        let im = image(NativeDim::D3, NativeFormat::Rgba16Float, 8, 3, 5);
        assert_eq!(im.level_size(0), (8, 3, 5));
        assert_eq!(im.level_size(1), (4, 1, 2));
        assert_eq!(im.level_size(3), (1, 1, 1));
        assert_eq!(im.level_size(40), (1, 1, 1));
        // Arrays keep their layers.
        let im = image(NativeDim::D2Array, NativeFormat::R32Float, 8, 8, 3);
        assert_eq!(im.level_size(2), (2, 2, 3));
    }
}
