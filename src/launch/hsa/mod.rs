//! Launching a kernel of an HSA code object (`gcn-run kernel.hsaco`), as the
//! ROCm runtime would dispatch it (docs/hsa.md):
//!
//! - [`elf`]: the code object: processor, `<name>.kd` symbols, metadata
//!   note, each kernel's code;
//! - [`metadata`]: the MessagePack metadata (`rmp-serde`): arguments, segment
//!   sizes, wavefront size;
//! - [`descriptor`]: the 64-byte kernel descriptor: which SGPRs and VGPRs the
//!   waves start with, wave32;
//! - [`dispatch`]: grid, work-groups and the AQL dispatch packet;
//! - [`args`]: the manifest's `[kernel]` table and the kernarg segment
//!   (explicit and hidden arguments);
//! - [`waves`]: the initial SGPRs, VGPRs and EXEC of every wave.
//!
//! [`build`] reads everything and lays out memory and waves ([`Built`]);
//! [`prepare`] adds the lowered program, giving a [`crate::launch::run::Prepared`].

pub mod args;
pub mod descriptor;
pub mod dispatch;
pub mod elf;
pub mod metadata;
pub mod waves;

use self::args::{ArgValue, BufferExpect, KernelSpec};
use self::descriptor::KernelDescriptor;
use self::dispatch::{Dims, DispatchPacket, Geometry};
use self::metadata::{Hidden, KernelMeta, ValueKind};
use super::buffer::{Buffer, BufferSpec};
use super::build::{place_images, Mismatch, Placed, IMAGE_MEMORY_CAP};
use super::manifest::{
    parse as parse_manifest, Caps, CodeSource, ImageInit, ImageSpec, Launch, ManifestError,
    SamplerSpec,
};
use crate::arch::{Arch, Gen};
use crate::input::{self, InputError};
use crate::machine::{Memory, WaveState};
use std::path::Path;

/// What the command line says about a kernel launch (each overrides the
/// manifest's `[kernel]` value).
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// `--kernel NAME`.
    pub kernel: Option<String>,
    /// `--grid X[,Y[,Z]]`, work-items.
    pub grid: Option<Dims>,
    /// `--block X[,Y[,Z]]`, work-group size.
    pub block: Option<Dims>,
    /// `--arch`.
    pub arch: Option<String>,
    /// `--mem-cap`.
    pub mem_cap: Option<u64>,
}

/// One kernel argument as it was set, for reports.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ArgReport {
    /// The key it is given by (its name, or its position).
    pub name: String,
    /// `.value_kind`.
    pub kind: String,
    /// `.offset` in the kernarg segment.
    pub offset: u64,
    /// `.size`.
    pub size: u64,
    /// What it was set to: a buffer, image or sampler name, or `value`.
    pub value: String,
}

/// What a kernel launch adds to a prepared launch: what reports show and
/// what `[kernel.expect]` checks.
#[derive(Clone, Debug)]
pub struct HsaRun {
    /// The kernel's name.
    pub kernel: String,
    /// Code object version (3, 4 or 5).
    pub code_object_version: u32,
    /// The kernel descriptor.
    pub descriptor: KernelDescriptor,
    /// The entry's address in the code object.
    pub entry: u64,
    /// The dispatch.
    pub geometry: Geometry,
    /// Lanes per wave.
    pub wave_size: u32,
    /// The kernarg segment's address and size.
    pub kernarg: (u64, u64),
    /// The dispatch packet's address.
    pub dispatch: u64,
    /// Every buffer (the manifest's and those made for arguments it left out).
    pub buffers: Vec<Buffer>,
    /// The arguments.
    pub args: Vec<ArgReport>,
    /// `[kernel.expect]`.
    pub expect: Vec<BufferExpect>,
}

/// A kernel launch laid out: everything [`crate::launch::run::Prepared`]
/// holds but the lowered program.
#[derive(Clone, Debug)]
pub struct Built {
    /// The launch (images, samplers, buffers, `[expect]`, waves, wave size).
    pub launch: Launch,
    /// The initial waves, without LDS yet: [`prepare`] gives each
    /// [`Built::lds_bytes`] once the lowered program shows an LDS operation.
    pub waves: Vec<WaveState>,
    /// The LDS of each wave of a program with an LDS operation (a work-group's
    /// whole LDS; none otherwise, `Program::uses_lds`).
    pub lds_bytes: u32,
    /// Memory: images, buffers, kernarg segment, dispatch packet, image and
    /// sampler objects, scratch.
    pub memory: Memory,
    /// The placed images, in `launch.images` order.
    pub images: Vec<Placed>,
    /// The kernel's specifics.
    pub run: HsaRun,
    /// The kernel's code, from its entry.
    pub code: Vec<u8>,
    /// The address of the kernel's first instruction in memory (the code
    /// object's segments are placed there: `load_segments`).
    pub code_base: u64,
    /// Where the scratch is (the `scratch_*` instructions').
    pub scratch: crate::ir::mem::Scratch,
    /// How errors name the code: `FILE: kernel NAME` (offsets count from the entry).
    pub code_name: String,
    /// The kernel's code with the other functions of its section (the ones
    /// it may call), when there are any: their first address in memory, the
    /// bytes, and the address the range starts at in the code object.
    pub with_functions: Option<(u64, Vec<u8>, u64)>,
}

/// The largest kernarg segment gcnrun lays out (the ROCm runtime's limit for
/// a dispatch is 4 KiB of arguments; this leaves room).
pub const MAX_KERNARG_BYTES: u64 = 64 * 1024;

/// The most private (scratch) bytes per work-item gcnrun lays out (the
/// hardware's scratch per lane is smaller still).
pub const MAX_PRIVATE_BYTES: u64 = 1 << 20;

/// Bytes of a default buffer per work-item of the grid (a `float4` each).
const DEFAULT_BUFFER_BYTES_PER_ITEM: u64 = 16;

/// Bytes of an image object (ROCr `HSA_IMAGE_OBJECT_SIZE_DWORD` = 12): the
/// 8-dword T#, then `hsa_ext_image_channel_type_t`, `_channel_order_t` and the
/// width, which the device library's image functions read (ROCr
/// `image_manager_ai.cpp`, `image_manager_gfx11.cpp`: `srd[8..11]`).
pub const IMAGE_OBJECT_BYTES: u64 = 48;
/// Bytes of a sampler object (ROCr `HSA_SAMPLER_OBJECT_SIZE_DWORD` = 8): the
/// 4-dword S#, then zero.
pub const SAMPLER_OBJECT_BYTES: u64 = 32;

/// True when the bytes are an HSA code object (an AMDGPU ELF with a kernel
/// descriptor symbol or an AMDGPU metadata note): it runs as a kernel launch.
pub fn is_code_object(bytes: &[u8]) -> bool {
    elf::is_code_object(bytes)
}

/// True when a manifest's text has a `[kernel]` table.
pub fn is_kernel_manifest(text: &str) -> bool {
    text.parse::<toml::Table>()
        .is_ok_and(|t| t.contains_key("kernel"))
}

/// True when the manifest at `path` (its text `text`) is a kernel launch: it
/// has a `[kernel]` table, or its `code` names an HSA code object.
pub fn runs_kernel(path: &Path, text: &str) -> bool {
    let Ok(table) = text.parse::<toml::Table>() else {
        return false;
    };
    if table.contains_key("kernel") {
        return true;
    }
    let dir = path.parent().unwrap_or(Path::new("."));
    match table.get("code") {
        Some(toml::Value::String(c)) if !c.is_empty() => {
            input::read_regular(&dir.join(c), input::FileKind::CODE)
                .is_ok_and(|b| is_code_object(&b))
        }
        _ => false,
    }
}

/// A manifest, read: its text, name (for errors) and directory (for relative paths).
pub struct ManifestText<'a> {
    /// The TOML.
    pub text: &'a str,
    /// Its name in errors.
    pub name: &'a str,
    /// Where its relative paths start.
    pub dir: &'a Path,
}

/// Lays out the launch of a kernel of the code object `bytes` (named `file`
/// in errors), in the environment of `manifest` (its `[kernel]` table,
/// images, samplers, buffers, `[expect]`), or in the default one.
pub fn build(
    file: &str,
    bytes: &[u8],
    manifest: Option<ManifestText>,
    opts: &Options,
) -> Result<Built, InputError> {
    let at = |e: elf::ElfError| match e.offset {
        Some(o) => InputError::at(file, o, e.message),
        None => InputError::whole(file, e.message),
    };
    let co = elf::parse(bytes).map_err(at)?;
    let Some((note, note_offset)) = co.metadata else {
        return Err(InputError::whole(
            file,
            "no AMDGPU metadata note (owner \"AMDGPU\", type NT_AMDGPU_METADATA = 32): gcnrun needs a code object V3 or later to find the kernel's arguments",
        ));
    };
    let meta = metadata::parse(note).map_err(|m| InputError::at(file, note_offset, m))?;
    let version =
        metadata::code_object_version(&meta).map_err(|m| InputError::at(file, note_offset, m))?;
    // The manifest: [kernel] out, the rest through the shared reader.
    let mname = manifest.as_ref().map_or(file, |m| m.name);
    let mwhole = |e: ManifestError| InputError::whole(mname, e.to_string());
    let (spec, mut launch, manifest_arch) = match &manifest {
        Some(m) => read_manifest(m.text).map_err(mwhole)?,
        None => (KernelSpec::default(), empty_launch(), None),
    };
    // PNG images are read now, relative to the manifest, into texel bytes.
    if let Some(m) = &manifest {
        for (i, im) in launch.images.iter_mut().enumerate() {
            if let ImageInit::Png(f) = &im.init {
                let texels = super::png::texels_from_png(&m.dir.join(f), im).map_err(|e| {
                    InputError::whole(mname, format!("field `image[{i}].init`: {e}"))
                })?;
                im.init = ImageInit::Bytes(texels);
            }
        }
    }
    // The kernel.
    let names: Vec<&str> = meta.kernels.iter().map(|k| k.name.as_str()).collect();
    let wanted = opts.kernel.clone().or(spec.name.clone());
    let (kernel_field, list) = (
        if opts.kernel.is_some() {
            "--kernel"
        } else {
            "kernel.name"
        },
        names.join(", "),
    );
    let kmeta: &KernelMeta = match wanted.as_deref() {
        Some(w) => meta
            .kernels
            .iter()
            .find(|k| k.name == w || k.symbol.strip_suffix(".kd") == Some(w))
            .ok_or_else(|| {
                InputError::whole(
                    file,
                    format!(
                        "{kernel_field}: no kernel `{}` in the code object (it has: {list})",
                        input::one_line(w)
                    ),
                )
            })?,
        None => match meta.kernels.as_slice() {
            [k] => k,
            [] => {
                return Err(InputError::at(
                    file,
                    note_offset,
                    "the metadata lists no kernels (amdhsa.kernels is empty)",
                ))
            }
            _ => {
                return Err(InputError::whole(
                    file,
                    format!(
                        "the code object has {} kernels ({list}): pick one with --kernel NAME (or kernel.name in the manifest)",
                        names.len()
                    ),
                ))
            }
        },
    };
    let kname = kmeta.name.clone();
    let sym_name = kmeta.symbol.strip_suffix(".kd").unwrap_or(&kmeta.symbol);
    let ksym = co
        .kernels
        .iter()
        .find(|k| k.name == sym_name)
        .ok_or_else(|| {
            InputError::whole(
                file,
                format!(
                    "kernel `{kname}`: its descriptor symbol `{}` is not in the symbol table",
                    input::one_line(&kmeta.symbol)
                ),
            )
        })?;
    let kd = KernelDescriptor::parse(&ksym.bytes);
    let kd_at = |field_offset: usize, m: String| {
        InputError::at(
            file,
            ksym.file_offset + field_offset,
            format!("kernel `{kname}`: {m}"),
        )
    };
    // The arch: --arch, else the manifest's, else the code object's.
    let arch = match (&opts.arch, manifest_arch) {
        (Some(a), _) => Arch::parse(a).ok_or_else(|| {
            InputError::whole(
                "--arch",
                format!(
                    "unknown architecture '{a}'; valid names: {}",
                    Arch::known_names().join(" ")
                ),
            )
        })?,
        (None, Some(a)) => a,
        (None, None) => Arch::from_elf_mach(co.mach).ok_or_else(|| {
            InputError::at(
                file,
                0x30,
                format!(
                    "e_flags names EF_AMDGPU_MACH {:#05x}, a processor gcnrun does not know; pass --arch",
                    co.mach
                ),
            )
        })?,
    };
    // Wave size: the descriptor's ENABLE_WAVEFRONT_SIZE32, which the
    // metadata's .wavefront_size must agree with.
    let wave_size = if kd.wave32() { 32 } else { 64 };
    if kd.wave32() && arch.gen < Gen::Gfx10 {
        return Err(kd_at(
            56,
            format!("kernel_code_properties sets ENABLE_WAVEFRONT_SIZE32, which {arch} does not have (wave32 is gfx10+)"),
        ));
    }
    if kmeta.wavefront_size != u64::from(wave_size) {
        return Err(InputError::at(
            file,
            note_offset,
            format!(
                "kernel `{kname}`: .wavefront_size {} disagrees with the descriptor's wave{wave_size}",
                kmeta.wavefront_size
            ),
        ));
    }
    let enabled: u32 = kd.user_sgprs().iter().map(|(_, n)| n).sum();
    if kd.user_sgpr_count() < enabled.min(16) {
        return Err(kd_at(
            52,
            format!(
                "compute_pgm_rsrc2.USER_SGPR_COUNT is {}, fewer than the {enabled} user SGPRs kernel_code_properties enables",
                kd.user_sgpr_count()
            ),
        ));
    }
    if kd.workitem_id() == 3 {
        return Err(kd_at(
            52,
            "compute_pgm_rsrc2.ENABLE_VGPR_WORKITEM_ID is 3 (undefined)".into(),
        ));
    }
    // Segment sizes within what a work-group and a work-item can have.
    let caps = Caps::default();
    let fixed_lds = kmeta
        .group_segment_fixed_size
        .max(u64::from(kd.group_segment_fixed_size));
    if fixed_lds > u64::from(caps.lds_bytes) {
        return Err(InputError::at(
            file,
            note_offset,
            format!(
                "kernel `{kname}`: .group_segment_fixed_size {fixed_lds} is past the {} bytes of LDS a work-group has",
                caps.lds_bytes
            ),
        ));
    }
    let private_fixed = kmeta
        .private_segment_fixed_size
        .max(u64::from(kd.private_segment_fixed_size));
    if private_fixed > MAX_PRIVATE_BYTES {
        return Err(InputError::at(
            file,
            note_offset,
            format!("kernel `{kname}`: .private_segment_fixed_size {private_fixed} is past the {MAX_PRIVATE_BYTES} bytes of scratch gcnrun gives a work-item"),
        ));
    }
    // The dispatch.
    let geometry = geometry(kmeta, &spec, opts, wave_size, &caps)
        .map_err(|(f, m)| InputError::whole(if f.starts_with("--") { f } else { mname }, m))?;
    // Arguments the manifest left out get a default buffer, image or sampler.
    let explicit: Vec<(usize, &metadata::ArgMeta, ValueKind)> = {
        let mut v = Vec::new();
        let mut index = 0;
        for (i, a) in kmeta.args.iter().enumerate() {
            let kind = args::kind_of(a, i)
                .map_err(|m| InputError::at(file, note_offset, format!("kernel `{kname}`: {m}")))?;
            if !matches!(kind, ValueKind::Hidden(_)) {
                v.push((index, a, kind));
                index += 1;
            }
        }
        v
    };
    for (key, _) in &spec.args {
        if !explicit
            .iter()
            .any(|(i, a, _)| *key == args::arg_key(a, *i) || *key == i.to_string())
        {
            let keys: Vec<String> = explicit
                .iter()
                .map(|(i, a, _)| args::arg_key(a, *i))
                .collect();
            return Err(mwhole(ManifestError::new(
                format!("kernel.args.\"{key}\""),
                format!(
                    "kernel `{kname}` has no argument `{key}` (its arguments: {})",
                    keys.join(", ")
                ),
            )));
        }
    }
    let given = |i: usize, a: &metadata::ArgMeta| {
        spec.args
            .iter()
            .find(|(k, _)| *k == args::arg_key(a, i) || *k == i.to_string())
            .map(|(k, v)| (k.clone(), v.clone()))
    };
    let items: u64 = geometry.grid.iter().map(|&g| u64::from(g)).product();
    for (i, a, kind) in &explicit {
        if given(*i, a).is_some() {
            continue;
        }
        let key = args::arg_key(a, *i);
        let taken = launch.images.iter().any(|x| x.name == key)
            || launch.buffers.iter().any(|x| x.name == key)
            || launch.samplers.iter().any(|x| x.name == key);
        let needs = matches!(
            kind,
            ValueKind::GlobalBuffer | ValueKind::Image | ValueKind::Sampler
        );
        if needs && taken {
            return Err(mwhole(ManifestError::new(format!("kernel.args.\"{key}\""), format!(
                    "argument `{key}` is not given, and its default would reuse the name of an [[image]], [[buffer]] or [[sampler]]: give it"
                ))));
        }
        match kind {
            ValueKind::GlobalBuffer => {
                let bytes = (items * DEFAULT_BUFFER_BYTES_PER_ITEM).max(256);
                let cap = opts.mem_cap.unwrap_or(IMAGE_MEMORY_CAP);
                let cap = launch.mem_cap.map_or(cap, |m| m.min(cap));
                if bytes > cap {
                    return Err(InputError::whole(
                        "--mem-cap",
                        format!("argument `{key}` gets a default buffer of {bytes} bytes ({DEFAULT_BUFFER_BYTES_PER_ITEM} per work-item of the grid), past the {cap}-byte memory cap: give it a [[buffer]] in a manifest, or raise --mem-cap"),
                    ));
                }
                launch.buffers.push(BufferSpec {
                    name: key,
                    bytes,
                    data: Vec::new(),
                    descriptors: Vec::new(),
                })
            }
            ValueKind::Image => {
                launch
                    .images
                    .push(default_image(key, a.access.as_deref(), is_buffer_image(a)))
            }
            ValueKind::Sampler => launch.samplers.push(default_sampler(key)),
            _ => {}
        }
    }
    // Memory: images, buffers, then the dispatch's own.
    launch.arch = arch;
    let cap = opts.mem_cap.unwrap_or(IMAGE_MEMORY_CAP);
    let (mut memory, images) = place_images(&launch, cap).map_err(mwhole)?;
    let image_names: Vec<&str> = launch.images.iter().map(|i| i.name.as_str()).collect();
    let cap = launch.mem_cap.map_or(cap, |m| m.min(cap));
    let buffers = super::buffer::place_buffers(&launch.buffers, &mut memory, &image_names, cap)
        .map_err(mwhole)?;
    let kernarg_size = kmeta.kernarg_segment_size.max(u64::from(kd.kernarg_size));
    if kernarg_size > MAX_KERNARG_BYTES {
        return Err(InputError::at(
            file,
            note_offset,
            format!("kernel `{kname}`: .kernarg_segment_size {kernarg_size} is past the {MAX_KERNARG_BYTES} bytes gcnrun lays out"),
        ));
    }
    let mut region = Region {
        memory: &mut memory,
        cap,
        name: mname,
    };
    let kernarg_addr = region.take(kernarg_size.max(1), "the kernarg segment")?;
    let dispatch_addr = region.take(dispatch::PACKET_BYTES as u64, "the dispatch packet")?;
    // The code object's loadable segments at their virtual addresses from
    // one base, as a loader maps them: code reaches its read-only data
    // (constant tables of the device libraries) PC-relatively
    // (`s_getpc_b64` plus a relocated offset), so the data must sit where
    // the code expects it relative to the code.
    let image_base = load_segments(&mut region, file, bytes)?;
    let kd_addr = region.take(descriptor::SIZE as u64, "the kernel descriptor")?;
    let queue_addr = region.take(256, "the queue (amd_queue_t)")?;
    // Arguments into the kernarg segment.
    let mut kernarg = vec![0u8; kernarg_size as usize];
    let mut reports = Vec::new();
    let mut dynamic_lds = 0u32;
    let mut lds_end = fixed_lds;
    let mut deferred_lds = Vec::new();
    let mut index = 0usize;
    for (i, a) in kmeta.args.iter().enumerate() {
        let kind = args::kind_of(a, i)
            .map_err(|m| InputError::at(file, note_offset, format!("kernel `{kname}`: {m}")))?;
        let end = a.offset.checked_add(a.size).filter(|e| *e <= kernarg_size);
        if end.is_none() || a.size > 8 && !matches!(kind, ValueKind::ByValue) {
            return Err(InputError::at(
                file,
                note_offset,
                format!(
                    "kernel `{kname}`: argument {i} ({}) at .offset {} of .size {} does not fit the {kernarg_size}-byte kernarg segment",
                    a.value_kind, a.offset, a.size
                ),
            ));
        }
        let explicit_index = (!matches!(kind, ValueKind::Hidden(_))).then(|| {
            index += 1;
            index - 1
        });
        let key = explicit_index.map_or(a.value_kind.clone(), |n| args::arg_key(a, n));
        let field = format!("kernel.args.\"{key}\"");
        let value = explicit_index.and_then(|n| given(n, a)).map(|(_, v)| v);
        let bad = |what: &str| {
            mwhole(ManifestError::new(
                field.clone(),
                format!("argument `{key}` is {}: give {what}", a.value_kind),
            ))
        };
        // A raw address goes into any pointer or by-value argument as it is.
        if let (Some(ArgValue::Address(x)), false) = (
            &value,
            matches!(kind, ValueKind::Hidden(_) | ValueKind::DynamicSharedPointer),
        ) {
            push(&mut kernarg, a, &x.to_le_bytes());
            reports.push(report(&key, a, format!("{x:#x}")));
            continue;
        }
        let (bytes, shown): (Vec<u8>, String) = match kind {
            ValueKind::Hidden(h) => {
                if h == Hidden::DynamicLdsSize {
                    // Known once every dynamic_shared_pointer is placed.
                    deferred_lds.push(a.clone());
                    continue;
                }
                let v = args::hidden_value(h, &geometry, dynamic_lds, queue_addr);
                (v.to_le_bytes().to_vec(), v.to_string())
            }
            ValueKind::GlobalBuffer => {
                let n = match value {
                    Some(ArgValue::Buffer(n)) => n,
                    None => key.clone(),
                    _ => return Err(bad("{ buffer = \"name\" } or { address = n }")),
                };
                let b = buffers.iter().find(|b| b.name == n).ok_or_else(|| {
                    mwhole(ManifestError::new(
                        field.clone(),
                        format!("no [[buffer]] named `{n}`"),
                    ))
                })?;
                (b.base.to_le_bytes().to_vec(), n)
            }
            ValueKind::Image => {
                let n = match value {
                    Some(ArgValue::Image(n)) => n,
                    None => key.clone(),
                    _ => return Err(bad("{ image = \"name\" } or { address = n }")),
                };
                let k = launch
                    .images
                    .iter()
                    .position(|x| x.name == n)
                    .ok_or_else(|| {
                        mwhole(ManifestError::new(
                            field.clone(),
                            format!("no [[image]] named `{n}`"),
                        ))
                    })?;
                // An image1d_buffer_t reads a V# (buffer_load_format), any
                // other image type a T#.
                if launch.images[k].buffer != is_buffer_image(a) {
                    let want = if is_buffer_image(a) {
                        "an image of type 1d_buffer"
                    } else {
                        "an image whose type is not 1d_buffer"
                    };
                    return Err(mwhole(ManifestError::new(
                        field.clone(),
                        format!(
                            "argument `{key}` is {}: give it {want}",
                            a.type_name.as_deref().unwrap_or("an image")
                        ),
                    )));
                }
                let addr = region.take(IMAGE_OBJECT_BYTES, "an image object")?;
                let obj = image_object(&images[k], &launch.images[k]);
                region.memory.write(addr, &obj);
                (addr.to_le_bytes().to_vec(), n)
            }
            ValueKind::Sampler => {
                let n = match value {
                    Some(ArgValue::Sampler(n)) => n,
                    None => key.clone(),
                    _ => return Err(bad("{ sampler = \"name\" } or { address = n }")),
                };
                let s = launch
                    .samplers
                    .iter()
                    .find(|x| x.name == n)
                    .ok_or_else(|| {
                        mwhole(ManifestError::new(
                            field.clone(),
                            format!("no [[sampler]] named `{n}`"),
                        ))
                    })?;
                let addr = region.take(SAMPLER_OBJECT_BYTES, "a sampler object")?;
                let ssharp = crate::texture::descriptor::encode_sampler_for(
                    &super::build::sampler_desc(s),
                    arch.gen,
                );
                let mut obj = Vec::new();
                for d in ssharp {
                    obj.extend_from_slice(&d.to_le_bytes());
                }
                region.memory.write(addr, &obj);
                (addr.to_le_bytes().to_vec(), n)
            }
            ValueKind::ByValue => match value {
                None => (Vec::new(), "0".into()),
                Some(ArgValue::Bytes(b)) => {
                    if b.len() as u64 > a.size {
                        return Err(mwhole(ManifestError::new(
                            field,
                            format!("{} bytes for argument `{key}` of {} bytes", b.len(), a.size),
                        )));
                    }
                    let shown = hex(&b);
                    (b, shown)
                }
                _ => return Err(bad("{ TYPE = value }, { hex = \"…\" } or { address = n }")),
            },
            ValueKind::DynamicSharedPointer => {
                let n = match value {
                    None => 0,
                    Some(ArgValue::Lds(n)) => n,
                    _ => return Err(bad("{ lds = bytes }")),
                };
                let align = a.pointee_align.unwrap_or(4).clamp(1, 1 << 16);
                let start = lds_end.next_multiple_of(align);
                lds_end = start + u64::from(n);
                dynamic_lds = (lds_end - fixed_lds).min(u64::from(u32::MAX)) as u32;
                (start.to_le_bytes().to_vec(), format!("lds {start:#x}"))
            }
        };
        push(&mut kernarg, a, &bytes);
        reports.push(report(&key, a, shown));
    }
    for a in deferred_lds {
        push(&mut kernarg, &a, &u64::from(dynamic_lds).to_le_bytes());
        reports.push(report(&a.value_kind, &a, dynamic_lds.to_string()));
    }
    let group_segment = lds_end;
    if group_segment > u64::from(caps.lds_bytes) {
        return Err(InputError::whole(
            mname,
            format!(
                "kernel `{kname}` needs {group_segment} bytes of LDS per work-group (fixed and dynamic), past the {} a work-group has",
                caps.lds_bytes
            ),
        ));
    }
    // Scratch: private bytes per work-item (a multiple of 4, as the CP rounds
    // it), swizzled per wave.
    let private_size = private_fixed.next_multiple_of(4);
    let total_waves = geometry.waves(wave_size);
    let per_wave = (private_size * u64::from(wave_size)).next_multiple_of(256);
    let scratch_bytes = per_wave * total_waves;
    let scratch = if scratch_bytes > 0 {
        region.take(scratch_bytes, "the scratch (private segment) memory")?
    } else {
        region.end()
    };
    let addresses = waves::Addresses {
        kernarg: kernarg_addr,
        dispatch: dispatch_addr,
        queue: queue_addr,
        scratch,
        scratch_bytes,
        scratch_per_wave: per_wave,
        private_size: private_size.min(u64::from(u32::MAX)) as u32,
    };
    let packet = DispatchPacket {
        header: dispatch::HEADER,
        dims: geometry.dims as u16,
        workgroup_size: geometry.block.map(|b| b as u16),
        grid_size: geometry.grid,
        private_segment_size: addresses.private_size,
        group_segment_size: group_segment as u32,
        kernel_object: kd_addr,
        kernarg_address: kernarg_addr,
    };
    memory.write(kernarg_addr, &kernarg);
    memory.write(dispatch_addr, &packet.to_bytes());
    memory.write(kd_addr, &ksym.bytes);
    let waves = waves::build(&kd, &arch, &geometry, wave_size, &addresses, &kernarg)
        .map_err(|m| InputError::whole(mname, m))?;
    let code = co.kernel_code(ksym).map_err(at)?;
    launch.waves = waves.len() as u32;
    launch.wave_size = wave_size;
    // [kernel.expect] names buffers, inside them.
    for (i, e) in spec.expect.iter().enumerate() {
        let b = buffers.iter().find(|b| b.name == e.buffer).ok_or_else(|| {
            mwhole(ManifestError::new(
                format!("kernel.expect.\"{}\"", e.buffer),
                format!("no buffer named `{}`", e.buffer),
            ))
        })?;
        let bytes = e.values.len() as u64 * u64::from(e.elem);
        if e.offset.saturating_add(bytes) > b.bytes {
            return Err(mwhole(ManifestError::new(
                format!("kernel.expect.\"{}\"", e.buffer),
                format!(
                    "entry {i}: {bytes} bytes from offset {} run past the buffer's {} bytes",
                    e.offset, b.bytes
                ),
            )));
        }
    }
    Ok(Built {
        launch,
        waves,
        lds_bytes: caps.lds_bytes,
        memory,
        images,
        run: HsaRun {
            kernel: kname.clone(),
            code_object_version: version,
            descriptor: kd,
            entry: code.entry,
            geometry,
            wave_size,
            kernarg: (kernarg_addr, kernarg_size),
            dispatch: dispatch_addr,
            buffers,
            args: reports,
            expect: spec.expect,
        },
        code: code.bytes.to_vec(),
        code_base: image_base + code.entry,
        scratch: crate::ir::mem::Scratch {
            base: scratch,
            per_wave,
            per_lane: private_size.min(u64::from(u32::MAX)) as u32,
        },
        code_name: format!("{file}: kernel `{kname}`"),
        with_functions: code
            .with_functions
            .map(|(lo, bytes)| (image_base + lo, bytes.to_vec(), lo)),
    })
}

/// Writes `value` (little-endian, truncated or zero-extended to `.size`) at
/// the argument's offset; [`build`] checked it fits.
fn push(kernarg: &mut [u8], a: &metadata::ArgMeta, value: &[u8]) {
    let (start, size) = (a.offset as usize, a.size as usize);
    if let Some(dst) = kernarg.get_mut(start..start + size) {
        for (k, d) in dst.iter_mut().enumerate() {
            *d = value.get(k).copied().unwrap_or(0);
        }
    }
}

fn report(key: &str, a: &metadata::ArgMeta, value: String) -> ArgReport {
    ArgReport {
        name: key.to_string(),
        kind: a.value_kind.clone(),
        offset: a.offset,
        size: a.size,
        value,
    }
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// Memory after the images and buffers, given out 256-byte aligned under the cap.
struct Region<'a> {
    memory: &'a mut Memory,
    cap: u64,
    /// The launch's name, for errors.
    name: &'a str,
}

impl Region<'_> {
    /// The address past everything placed so far (256-byte aligned).
    fn end(&self) -> u64 {
        self.memory.base + (self.memory.bytes.len() as u64).next_multiple_of(256)
    }

    /// `bytes` new zero bytes; their address.
    fn take(&mut self, bytes: u64, what: &str) -> Result<u64, InputError> {
        let start = (self.memory.bytes.len() as u64).next_multiple_of(256);
        let end = start
            .checked_add(bytes)
            .filter(|e| *e <= self.cap)
            .ok_or_else(|| {
                InputError::whole(
                    self.name,
                    format!(
                        "{what} ({bytes} bytes) brings memory past the {}-byte cap (--mem-cap)",
                        self.cap
                    ),
                )
            })?;
        self.memory
            .try_grow(end)
            .map_err(|m| InputError::whole(self.name, format!("{what}: {m}")))?;
        Ok(self.memory.base + start)
    }
}

/// The largest span of virtual addresses a code object's segments may
/// cover (the code itself is capped at 64 MiB as every code file is).
const MAX_SEGMENT_SPAN: u64 = 64 << 20;

/// Copies the code object's loadable segments into memory at one base (its
/// virtual address 0) and returns that base. The span past the file's
/// bytes (`.bss`) stays zero.
fn load_segments(region: &mut Region, file: &str, bytes: &[u8]) -> Result<u64, InputError> {
    use object::{Object, ObjectSegment};
    let obj = object::File::parse(bytes)
        .map_err(|e| InputError::whole(file, format!("the code object cannot be read: {e}")))?;
    let span = obj
        .segments()
        .map(|s| s.address().saturating_add(s.size()))
        .max()
        .unwrap_or(0);
    if span > MAX_SEGMENT_SPAN {
        return Err(InputError::whole(
            file,
            format!("the code object's segments span {span} bytes, past the {MAX_SEGMENT_SPAN} gcnrun loads"),
        ));
    }
    let base = region.take(span.max(1), "the code object's segments")?;
    for s in obj.segments() {
        if let Ok(data) = s.data() {
            region.memory.write(base + s.address(), data);
        }
    }
    Ok(base)
}

/// The launch a manifest-less kernel starts from: no images, samplers or
/// buffers.
fn empty_launch() -> Launch {
    Launch {
        arch: Arch::default_arch(),
        code: CodeSource::Bytes(Vec::new()),
        waves: 1,
        wave_size: 64,
        sgpr: Vec::new(),
        vgpr: Vec::new(),
        images: Vec::new(),
        samplers: Vec::new(),
        buffers: Vec::new(),
        lds: Vec::new(),
        expect: Vec::new(),
        mem_cap: None,
        max_steps: None,
        draw: None,
    }
}

/// Splits a kernel manifest: its `[kernel]` table, the rest read by the shared
/// manifest reader, and its `arch` if it sets one. The registers, LDS and
/// wave counts are the kernel descriptor's and the grid's to set.
fn read_manifest(text: &str) -> Result<(KernelSpec, Launch, Option<Arch>), ManifestError> {
    let mut table: toml::Table = text
        .parse()
        .map_err(|e: toml::de::Error| super::manifest::toml_error(text, &e))?;
    let spec = match table.remove("kernel") {
        None => KernelSpec::default(),
        Some(toml::Value::Table(t)) => args::parse_kernel(&t)?,
        Some(_) => return Err(ManifestError::new("kernel", "must be a table")),
    };
    for k in ["sgpr", "vgpr", "lds", "waves", "wave_size"] {
        if table.contains_key(k) {
            return Err(ManifestError::new(k, "not part of a kernel launch: the kernel descriptor and the grid set the registers, LDS and waves"));
        }
    }
    if table.contains_key("intel") {
        return Err(ManifestError::new(
            "intel",
            "an Intel launch manifest runs a vISA program, not a code object",
        ));
    }
    if !table.contains_key("code") && !table.contains_key("hex") {
        table.insert("code".into(), toml::Value::String(String::new()));
    }
    let arch = table.contains_key("arch");
    let rest = toml::to_string(&table).map_err(|e| ManifestError::new("toml", e.to_string()))?;
    let launch = parse_manifest(&rest, &Caps::default())?;
    let a = arch.then_some(launch.arch);
    Ok((spec, launch, a))
}

/// The dispatch's geometry: the command line's grid and block, else the
/// manifest's, else one work-group of the required size (or 64 work-items).
fn geometry(
    k: &KernelMeta,
    spec: &KernelSpec,
    opts: &Options,
    wave_size: u32,
    caps: &Caps,
) -> Result<Geometry, (&'static str, String)> {
    let (block_field, block) = match (opts.block, spec.block) {
        (Some(b), _) => ("--block", b),
        (None, Some(b)) => ("kernel.block", b),
        (None, None) => (
            "kernel.block",
            match k.reqd_workgroup_size.as_deref() {
                Some([x, y, z]) if [x, y, z].iter().all(|v| (1..=1024).contains(*v)) => Dims {
                    size: [*x as u32, *y as u32, *z as u32],
                    dims: if *z > 1 {
                        3
                    } else if *y > 1 {
                        2
                    } else {
                        1
                    },
                },
                _ => Dims {
                    size: [64, 1, 1],
                    dims: 1,
                },
            },
        ),
    };
    let (grid_field, grid) = match (opts.grid, spec.grid) {
        (Some(g), _) => ("--grid", g),
        (None, Some(g)) => ("kernel.grid", g),
        (None, None) => ("kernel.grid", block),
    };
    let items: u64 = block.size.iter().map(|&b| u64::from(b)).product();
    let max = k.max_flat_workgroup_size.unwrap_or(1024).min(1024);
    if items > max {
        return Err((
            block_field,
            format!(
                "{block_field}: a work-group of {items} work-items is more than the kernel's .max_flat_workgroup_size {max}"
            ),
        ));
    }
    if let Some(r) = &k.reqd_workgroup_size {
        let want: Vec<u64> = r.clone();
        let have: Vec<u64> = block.size.iter().map(|&b| u64::from(b)).collect();
        if want.len() == 3 && want != have {
            return Err((
                block_field,
                format!("{block_field}: the kernel requires work-groups of {want:?} (.reqd_workgroup_size), not {have:?}"),
            ));
        }
    }
    let g = Geometry {
        grid: grid.size,
        block: block.size,
        dims: grid.dims.max(block.dims),
        offset: spec.offset,
    };
    if k.uniform_work_group_size == Some(1) && g.remainder() != [0; 3] {
        return Err((
            grid_field,
            format!(
                "{grid_field}: the kernel requires uniform work-groups (.uniform_work_group_size), but {:?} is not a multiple of {:?}",
                g.grid, g.block
            ),
        ));
    }
    let waves = g.waves(wave_size);
    if waves > u64::from(caps.max_waves) {
        return Err((
            grid_field,
            format!(
                "{grid_field}: the grid {:?} in work-groups of {:?} takes {waves} waves of {wave_size}, more than the {} a launch holds",
                g.grid, g.block, caps.max_waves
            ),
        ));
    }
    Ok(g)
}

/// The image a left-out image argument gets: 64×64 `8_8_8_8` UNORM (64
/// elements in a typed buffer for an `image1d_buffer_t`), a gradient when
/// the kernel only reads it, zero otherwise.
fn default_image(name: String, access: Option<&str>, buffer: bool) -> ImageSpec {
    ImageSpec {
        name,
        dim: if buffer { 0 } else { 1 },
        buffer,
        width: 64,
        height: if buffer { 1 } else { 64 },
        depth: 1,
        layers: 1,
        mips: 1,
        samples: 1,
        data_format: 10,
        num_format: 0,
        init: if access == Some("read_only") {
            ImageInit::Gradient
        } else {
            ImageInit::Zero
        },
    }
}

/// The sampler a left-out sampler argument gets: a manifest `[[sampler]]`'s
/// defaults (point filtering, wrap, LOD 0–15.996).
fn default_sampler(name: String) -> SamplerSpec {
    SamplerSpec {
        name,
        mag: 0,
        min: 0,
        mip: 0,
        address: [0; 3],
        compare: 0,
        border: 0,
        lod_bias: 0,
        min_lod: 0,
        max_lod: 0xfff,
        max_aniso: 0,
        z_filter: 0,
        reduction: 0,
        unnormalized: false,
        force_degamma: false,
        disable_cube_wrap: false,
    }
}

/// True for an `image1d_buffer_t` argument (its metadata's `.type_name`,
/// with or without an access qualifier before it).
fn is_buffer_image(a: &metadata::ArgMeta) -> bool {
    a.type_name
        .as_deref()
        .is_some_and(|t| t.ends_with("image1d_buffer_t"))
}

/// The 48-byte image object: T# (a 1d_buffer image: its V#, then zeros, as
/// ROCr writes the words of `HSA_EXT_IMAGE_GEOMETRY_1DB`), then the HSA
/// channel type, channel order and width (ROCr `image_manager_*.cpp`
/// `srd[8..11]`; the device library's `get_image_channel_data_type`,
/// `_channel_order` and `get_image_width` read them).
pub fn image_object(p: &Placed, spec: &ImageSpec) -> Vec<u8> {
    let mut dw = [0u32; 12];
    match p.vsharp {
        Some(v) => dw[..4].copy_from_slice(&v),
        None => dw[..8].copy_from_slice(&p.tsharp),
    }
    let (ty, order) = hsa_channel(spec.data_format, spec.num_format);
    dw[8] = ty;
    dw[9] = order;
    dw[10] = spec.width;
    dw.iter().flat_map(|d| d.to_le_bytes()).collect()
}

/// `hsa_ext_image_channel_type_t` and `hsa_ext_image_channel_order_t` (ROCr
/// `hsa_ext_image.h`) of an AMD data and number format: the component count
/// gives R, RG, RGB or RGBA (sRGB: SRGBA), the component width and number
/// format the type. Formats HSA has no name for read as type 0, order RGBA.
pub fn hsa_channel(data_format: u8, num_format: u8) -> (u32, u32) {
    use crate::texture::format::NumFormat as N;
    let Some(df) = crate::texture::format::data_format(data_format) else {
        return (0, 8);
    };
    let nf = N::from_code(num_format);
    let n = df.comps.len();
    let order = match (n, nf) {
        (4, Some(N::Srgb)) => 14,
        (1, _) => 1,
        (2, _) => 3,
        (3, _) => 6,
        _ => 8,
    };
    let width = df.comps.first().map_or(0, |c| c.1);
    let ty = match (df.name, width, nf) {
        ("5_6_5", _, _) => 6,
        ("1_5_5_5" | "5_5_5_1", _, _) => 5,
        ("10_10_10_2" | "2_10_10_10", _, _) => 7,
        (_, 8, Some(N::Snorm)) => 0,
        (_, 16, Some(N::Snorm)) => 1,
        (_, 8, Some(N::Unorm | N::Srgb)) => 2,
        (_, 16, Some(N::Unorm)) => 3,
        (_, 8, Some(N::Sint)) => 8,
        (_, 16, Some(N::Sint)) => 9,
        (_, 32, Some(N::Sint)) => 10,
        (_, 8, Some(N::Uint)) => 11,
        (_, 16, Some(N::Uint)) => 12,
        (_, 32, Some(N::Uint)) => 13,
        (_, 16, Some(N::Float)) => 14,
        (_, 32, Some(N::Float)) => 15,
        _ => 0,
    };
    (ty, order)
}

/// Prepares the launch of a kernel of the code object at `path`: reads it,
/// builds the launch ([`build`]) in the environment of `manifest` (or the
/// default one), and lowers the kernel's code.
pub fn prepare_file(
    path: &Path,
    manifest: Option<&Path>,
    opts: &Options,
) -> Result<super::run::Prepared, InputError> {
    let file = path.display().to_string();
    let bytes = input::read_regular(path, input::FileKind::CODE)?;
    match manifest {
        Some(m) => {
            let name = m.display().to_string();
            let text = input::read_text(m, input::FileKind::MANIFEST)?;
            let dir = m.parent().unwrap_or(Path::new("."));
            prepare(&file, &bytes, Some(manifest_text(&text, &name, dir)), opts)
        }
        None => prepare(&file, &bytes, None, opts),
    }
}

/// Prepares the kernel launch a manifest describes: the code object its
/// `code` names (relative to it) and its `[kernel]` table.
pub fn prepare_manifest(
    path: &Path,
    text: &str,
    opts: &Options,
) -> Result<super::run::Prepared, InputError> {
    let name = path.display().to_string();
    let dir = path.parent().unwrap_or(Path::new("."));
    let table: toml::Table = text.parse().map_err(|e: toml::de::Error| {
        InputError::whole(&name, super::manifest::toml_error(text, &e).to_string())
    })?;
    let code = match (table.get("code"), table.get("hex")) {
        (Some(toml::Value::String(c)), None) if !c.is_empty() => dir.join(c),
        (None, Some(_)) | (Some(_), Some(_)) => return Err(InputError::whole(
            &name,
            "field `hex`: a kernel launch runs a code object: name it with `code = \"k.hsaco\"`",
        )),
        _ => {
            return Err(InputError::whole(
                &name,
                "field `code`: missing: name the code object (`code = \"k.hsaco\"`)",
            ))
        }
    };
    let file = code.display().to_string();
    let bytes = input::read_regular(&code, input::FileKind::CODE)?;
    prepare(&file, &bytes, Some(manifest_text(text, &name, dir)), opts)
}

fn manifest_text<'a>(text: &'a str, name: &'a str, dir: &'a Path) -> ManifestText<'a> {
    ManifestText { text, name, dir }
}

/// `code` decoded and lowered, its errors named `name`.
fn lower(
    code: &[u8],
    arch: &crate::arch::Arch,
    name: &str,
) -> Result<crate::ir::Program, InputError> {
    crate::gcn::lower::lower_bytes(code, arch).map_err(|e| match e {
        crate::gcn::lower::LowerBytesError::Decode(e) => InputError::whole(name, e.to_string()),
        crate::gcn::lower::LowerBytesError::Lower(e) => InputError::at(name, e.offset, e.what),
    })
}

/// [`build`], PNG images read relative to the manifest, and the kernel's code
/// lowered.
pub fn prepare(
    file: &str,
    bytes: &[u8],
    manifest: Option<ManifestText>,
    opts: &Options,
) -> Result<super::run::Prepared, InputError> {
    let mut b = build(file, bytes, manifest, opts)?;
    // Decoded and lowered one instruction at a time (README, "Memory");
    // offsets count from the kernel's entry.
    let prog = lower(&b.code, &b.launch.arch, &b.code_name)?;
    let mut prog = prog;
    prog.code_base = b.code_base;
    // A kernel that calls (s_swappc) or jumps to computed addresses runs
    // with the functions of its section decoded beside it, at their places
    // (the call targets are addresses); its waves start at its entry, and
    // offsets in reports then count from the first of those functions.
    let calls = prog.ops.iter().any(|(_, op)| {
        matches!(op, crate::ir::Op::Wave(w) if matches!(**w, crate::ir::flow::WaveOp::SetPc { .. } | crate::ir::flow::WaveOp::SwapPc { .. }))
    });
    if let (true, Some((base, bytes, lo))) = (calls, &b.with_functions) {
        let name = format!(
            "{} with the functions of its section (offsets from {lo:#x})",
            b.code_name
        );
        let mut whole = lower(bytes, &b.launch.arch, &name)?;
        let at = (b.code_base - base) as usize;
        whole.entry = whole.op_at(at).ok_or_else(|| {
            InputError::at(
                &name,
                at,
                "the kernel's entry is not an instruction boundary of its section's code",
            )
        })?;
        whole.code_base = *base;
        prog = whole;
        b.code_name = name;
    }
    prog.scratch = b.scratch;
    b.launch.code = CodeSource::File(file.to_string());
    // LDS only for a program that may touch it, allocated now that the
    // program is lowered (`run::lds_for`).
    let lds = super::run::lds_for(&prog, b.lds_bytes);
    if lds > 0 {
        for w in &mut b.waves {
            w.lds = crate::machine::memory::try_zeroed(lds as usize).map_err(|m| {
                InputError::whole(&b.code_name, format!("the LDS of wave {}: {m}", w.wave))
            })?;
        }
    }
    let name = b.code_name.clone();
    super::run::Prepared::from_hsa(b, prog).map_err(|e| match e {
        // The error's own name is the code's: one line, named once.
        super::error::LaunchError::Alloc { what, source, .. } => {
            InputError::whole(&name, format!("{what}: {source}"))
        }
        e => InputError::whole(&name, e.to_string()),
    })
}

/// Checks `[kernel.expect]` against memory after a run: one mismatch per
/// differing element (`register` is `BUFFER+0xOFFSET`, `lane` the element).
pub fn check(run: &HsaRun, memory: &Memory) -> Vec<Mismatch> {
    let mut out = Vec::new();
    for e in &run.expect {
        let Some(b) = run.buffers.iter().find(|b| b.name == e.buffer) else {
            continue;
        };
        for (k, want) in e.values.iter().enumerate() {
            let at = e.offset + k as u64 * u64::from(e.elem);
            let got = memory
                .read(b.base + at, e.elem)
                .map(|s| s.iter().rev().fold(0u64, |a, &x| (a << 8) | u64::from(x)));
            let ok = match got {
                Some(g) if e.f32 => {
                    g == *want || ulp_distance(g as u32, *want as u32) <= u64::from(e.ulp)
                }
                Some(g) => g == *want,
                None => false,
            };
            if !ok {
                let split = |v: u64| {
                    if e.elem == 8 {
                        vec![v as u32, (v >> 32) as u32]
                    } else {
                        vec![v as u32]
                    }
                };
                out.push(Mismatch {
                    register: format!("{}+{at:#x}", e.buffer),
                    wave: 0,
                    lane: k as u32,
                    expected: split(*want),
                    actual: split(got.unwrap_or(0)),
                });
            }
        }
    }
    out
}

fn ulp_distance(a: u32, b: u32) -> u64 {
    let key = |x: u32| -> i64 {
        if x & 0x8000_0000 != 0 {
            -i64::from(x & 0x7fff_ffff)
        } else {
            i64::from(x)
        }
    };
    key(a).abs_diff(key(b))
}

/// What reports show of a kernel launch: the kernel, its dispatch, its
/// arguments and every buffer (size, SHA-256 and its first 4096 dwords).
pub fn describe(run: &HsaRun, memory: &Memory) -> serde_json::Value {
    use sha2::Digest;
    let mut bufs = serde_json::Map::new();
    for b in &run.buffers {
        let bytes = buffer_bytes(b, memory);
        let digest: String = sha2::Sha256::digest(bytes)
            .iter()
            .map(|x| format!("{x:02x}"))
            .collect();
        let dwords: Vec<u32> = bytes
            .chunks_exact(4)
            .take(4096)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        bufs.insert(
            b.name.clone(),
            serde_json::json!({ "address": b.base, "bytes": b.bytes, "sha256": digest, "u32": dwords }),
        );
    }
    let g = &run.geometry;
    serde_json::json!({
        "kernel": {
            "name": run.kernel,
            "code_object_version": run.code_object_version,
            "entry": run.entry,
            "grid": g.grid,
            "block": g.block,
            "dims": g.dims,
            "workgroups": g.groups(),
            "wave_size": run.wave_size,
            "kernarg_address": run.kernarg.0,
            "kernarg_bytes": run.kernarg.1,
            "dispatch_packet": run.dispatch,
            "args": run.args,
        },
        "buffers": bufs,
    })
}

/// A buffer's bytes in `memory` (empty when it lies outside).
pub fn buffer_bytes<'a>(b: &Buffer, memory: &'a Memory) -> &'a [u8] {
    u32::try_from(b.bytes)
        .ok()
        .and_then(|n| memory.read(b.base, n))
        .unwrap_or(&[])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hsa_channel_types_and_orders() {
        // (data format, num format) codes: 8_8_8_8 UNORM, 16_16_16_16 FLOAT,
        // 32 UINT, 8_8 SINT, 8_8_8_8 SRGB, 5_6_5 UNORM.
        assert_eq!(hsa_channel(10, 0), (2, 8));
        assert_eq!(hsa_channel(12, 7), (14, 8));
        assert_eq!(hsa_channel(4, 4), (13, 1));
        assert_eq!(hsa_channel(3, 5), (8, 3));
        assert_eq!(hsa_channel(10, 9), (2, 14));
        assert_eq!(hsa_channel(16, 0), (6, 6));
    }
}
