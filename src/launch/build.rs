//! From a validated [`Launch`] to the initial wave states, and the `[expect]`
//! check after a run.

use super::expr::ExprError;
use super::expr::Scratch;
use super::manifest::{Expect, Launch, ManifestError, Problem, SgprInit, VgprInit};
use super::regs::RegRange;
use crate::machine::{AllocError, WaveState};
use crate::texture::descriptor::{encode_sampler_for, SamplerDesc};

fn err(field: String, problem: impl Into<Problem>) -> ManifestError {
    ManifestError::new(field, problem)
}

/// The S# a manifest sampler stands for (sampling.md §2.1; by default the LOD
/// range 0–15.996 drivers program).
pub fn sampler_desc(s: &super::manifest::SamplerSpec) -> SamplerDesc {
    SamplerDesc {
        clamp: s.address,
        max_aniso: s.max_aniso,
        compare: s.compare,
        force_unnormalized: s.unnormalized,
        force_degamma: s.force_degamma,
        disable_cube_wrap: s.disable_cube_wrap,
        filter_mode: s.reduction,
        min_lod: s.min_lod,
        max_lod: s.max_lod,
        lod_bias: s.lod_bias,
        mag_filter: s.mag,
        min_filter: s.min,
        z_filter: s.z_filter,
        mip_filter: s.mip,
        border_ptr: 0,
        border_type: s.border,
    }
}

/// Builds every wave's initial state; `images` are the placed images (their T#s
/// go where `[sgpr]` names them), `buffers` the placed buffers (a `{ bvh = … }`
/// T# covers one).
pub fn initial_waves(
    l: &Launch,
    lds_bytes: u32,
    images: &[Placed],
    buffers: &[super::buffer::Buffer],
) -> Result<Vec<WaveState>, ManifestError> {
    // Up to 16384 waves of about 128 KiB each: allocated fallibly, so that a
    // machine without the memory gets one line naming the field, not an abort.
    let no_memory = |source: AllocError| {
        err(
            "waves".into(),
            Problem::Alloc {
                what: format!("the registers and LDS of {} waves", l.waves),
                source,
            },
        )
    };
    let mut waves = Vec::new();
    waves
        .try_reserve_exact(l.waves as usize)
        .map_err(|_| no_memory(AllocError::new(l.waves.into())))?;
    // An expression that does not read `wave` gives every wave the same lane
    // values: they are computed once (with wave 0, so that an error reads as
    // it would in the first wave, which is where it is reported).
    let (mut scratch, mut lanes) = (Scratch::default(), Vec::new());
    let columns: Vec<Option<Result<Vec<u32>, ExprError>>> = l
        .vgpr
        .iter()
        .map(|(_, init)| match init {
            VgprInit::U32(e) | VgprInit::F32(e) if !e.uses_wave() => {
                let f32 = matches!(init, VgprInit::F32(_));
                let mut values = Vec::new();
                Some(
                    e.eval_lanes(0, l.wave_size, f32, &mut scratch, &mut values)
                        .map(|()| values),
                )
            }
            _ => None,
        })
        .collect();
    for wave in 0..l.waves {
        let mut w = WaveState::try_new(wave, l.wave_size, lds_bytes).map_err(no_memory)?;
        for (reg, init) in &l.sgpr {
            let field = format!("sgpr.\"{reg}\"");
            let dwords: Vec<u32> = match init {
                SgprInit::Dwords(d) => d.clone(),
                SgprInit::Sampler(name) => {
                    let s = l
                        .samplers
                        .iter()
                        .find(|s| &s.name == name)
                        .ok_or_else(|| err(field.clone(), "unknown sampler"))?;
                    encode_sampler_for(&sampler_desc(s), l.arch.gen).to_vec()
                }
                SgprInit::Image(name) => {
                    let i = l
                        .images
                        .iter()
                        .position(|im| &im.name == name)
                        .ok_or_else(|| err(field.clone(), "unknown image"))?;
                    let p = images
                        .get(i)
                        .ok_or_else(|| err(field.clone(), "image not placed"))?;
                    // A 4-SGPR range takes the 128-bit T# (dwords 0-3); a
                    // 1d_buffer image gives its V#.
                    let words: &[u32] = match &p.vsharp {
                        Some(v) => v,
                        None => &p.tsharp,
                    };
                    words[..(reg.dwords() as usize).min(words.len())].to_vec()
                }
                SgprInit::Bvh(b) => bvh_tsharp(b, buffers).map_err(|m| err(field.clone(), m))?,
                SgprInit::Vsharp(v) => {
                    vsharp(v, buffers, l.arch.gen).map_err(|m| err(field.clone(), m))?
                }
                SgprInit::Address(name) => {
                    let b = buffers
                        .iter()
                        .find(|b| &b.name == name)
                        .ok_or_else(|| err(field.clone(), "unknown buffer"))?;
                    vec![b.base as u32, (b.base >> 32) as u32]
                }
            };
            write_scalar(&mut w, *reg, &dwords);
        }
        for ((reg, init), column) in l.vgpr.iter().zip(&columns) {
            let RegRange::Vgpr { first, count } = *reg else {
                continue;
            };
            let field = || format!("vgpr.\"{reg}\"");
            match (init, column) {
                (VgprInit::Consts(c), _) => {
                    for k in 0..count {
                        let v = c.get(k as usize).copied().unwrap_or(0);
                        for lane in 0..l.wave_size {
                            w.set_vgpr(first + k, lane, v);
                        }
                    }
                }
                (_, Some(Ok(values))) => {
                    for (lane, v) in (0..l.wave_size).zip(values) {
                        w.set_vgpr(first, lane, *v);
                    }
                }
                (_, Some(Err(m))) => return Err(err(field(), m.clone())),
                (VgprInit::U32(e) | VgprInit::F32(e), None) => {
                    let f32 = matches!(init, VgprInit::F32(_));
                    e.eval_lanes(wave, l.wave_size, f32, &mut scratch, &mut lanes)
                        .map_err(|m| err(field(), m))?;
                    for (lane, v) in (0..l.wave_size).zip(&lanes) {
                        w.set_vgpr(first, lane, *v);
                    }
                }
            }
        }
        for (offset, values) in &l.lds {
            for (k, v) in values.iter().enumerate() {
                let at = *offset as usize + 4 * k;
                if let Some(dst) = w.lds.get_mut(at..at + 4) {
                    dst.copy_from_slice(&v.to_le_bytes());
                } else {
                    return Err(err(format!("lds.\"{offset:#x}\""), "past the LDS"));
                }
            }
        }
        waves.push(w);
    }
    Ok(waves)
}

/// The BVH T# of a `{ bvh = … }` entry: base and size from its buffer (the size
/// field counts 64-byte node units minus one; a buffer shorter than one unit
/// still gets unit 0), the other fields as the entry sets them.
fn bvh_tsharp(
    b: &super::manifest::BvhInit,
    buffers: &[super::buffer::Buffer],
) -> Result<Vec<u32>, Problem> {
    let buf = buffers
        .iter()
        .find(|x| x.name == b.buffer)
        .ok_or_else(|| format!("no [[buffer]] named `{}`", b.buffer))?;
    let d = crate::texture::bvh::BvhDesc {
        base_address: buf.base,
        last_unit: buf.bytes.div_ceil(crate::texture::bvh::NODE_UNIT).max(1) - 1,
        box_grow: b.box_grow,
        box_sort: b.box_sort,
        barycentrics: b.barycentrics,
        big_page: false,
    };
    Ok(crate::texture::bvh::encode_bvh(&d)?.to_vec())
}

/// The V# of a `{ vsharp = … }` SGPR initialiser (manifest::VsharpInit):
/// words laid out as machine::buffer reads them.
fn vsharp(
    v: &super::manifest::VsharpInit,
    buffers: &[super::buffer::Buffer],
    gen: crate::arch::Gen,
) -> Result<Vec<u32>, Problem> {
    let buf = buffers
        .iter()
        .find(|x| x.name == v.buffer)
        .ok_or_else(|| format!("no [[buffer]] named `{}`", v.buffer))?;
    let bytes = u32::try_from(buf.bytes).unwrap_or(u32::MAX);
    let num_records = v
        .num_records
        .unwrap_or(bytes.checked_div(v.stride).unwrap_or(bytes));
    // DST_SEL X, Y, Z, W (4..7 in bits 11:0); gfx6–gfx9 NUM_FORMAT FLOAT (7)
    // and DATA_FORMAT 32 (4), as LLVM's default V# (SIInstrInfo
    // getDefaultRsrcDataFormat); gfx10+ OOB_SELECT in bits 29:28.
    let dst_sel = 4 | 5 << 3 | 6 << 6 | 7 << 9;
    let word3 = v.word3.unwrap_or(if gen >= crate::arch::Gen::Gfx10 {
        dst_sel | v.oob_select.unwrap_or(3) << 28
    } else {
        dst_sel | 7 << 12 | 4 << 15
    });
    Ok(vec![
        buf.base as u32,
        (buf.base >> 32) as u32 & 0xffff | v.stride << 16,
        num_records,
        word3,
    ])
}

fn write_scalar(w: &mut WaveState, reg: RegRange, d: &[u32]) {
    let lo = d.first().copied().unwrap_or(0);
    let hi = d.get(1).copied().unwrap_or(0);
    match reg {
        RegRange::Sgpr { first, count } => {
            for k in 0..count {
                w.set_sgpr(first + k, d.get(k as usize).copied().unwrap_or(0));
            }
        }
        RegRange::M0 => w.m0 = lo,
        RegRange::Exec => w.exec = u64::from(lo) | (u64::from(hi) << 32),
        RegRange::Vcc => w.vcc = u64::from(lo) | (u64::from(hi) << 32),
        RegRange::Vgpr { .. } => {}
    }
}

/// Reads the values of `reg` for one lane (scalar registers ignore the lane).
pub fn read(w: &WaveState, reg: RegRange, lane: u32) -> Vec<u32> {
    match reg {
        RegRange::Sgpr { first, count } => (first..first + count).map(|n| w.sgpr(n)).collect(),
        RegRange::Vgpr { first, count } => {
            (first..first + count).map(|n| w.vgpr(n, lane)).collect()
        }
        RegRange::M0 => vec![w.m0],
        RegRange::Exec => vec![w.exec as u32, (w.exec >> 32) as u32],
        RegRange::Vcc => vec![w.vcc as u32, (w.vcc >> 32) as u32],
    }
}

/// One failed expectation.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Mismatch {
    /// Register as written in the manifest.
    pub register: String,
    /// Wave.
    pub wave: u32,
    /// Lane.
    pub lane: u32,
    /// Expected raw values.
    pub expected: Vec<u32>,
    /// Actual raw values.
    pub actual: Vec<u32>,
}

/// ULP distance between two f32 bit patterns (monotonic integer mapping).
pub(super) fn ulp_distance(a: u32, b: u32) -> u64 {
    let key = |x: u32| -> i64 {
        if x & 0x8000_0000 != 0 {
            -i64::from(x & 0x7fff_ffff)
        } else {
            i64::from(x)
        }
    };
    key(a).abs_diff(key(b))
}

/// Checks every `[expect]` entry against the final states.
pub fn check(expects: &[Expect], waves: &[WaveState]) -> Vec<Mismatch> {
    let mut out = Vec::new();
    for e in expects {
        for w in waves.iter().filter(|w| e.wave.is_none_or(|n| n == w.wave)) {
            for lane in (0..w.wave_size).filter(|l| e.lane.is_none_or(|n| n == *l)) {
                let actual = read(w, e.reg, lane);
                let ok = actual
                    .iter()
                    .zip(&e.values)
                    .all(|(&a, &x)| a == x || (e.is_f32 && ulp_distance(a, x) <= u64::from(e.ulp)));
                if !ok {
                    out.push(Mismatch {
                        register: e.reg.to_string(),
                        wave: w.wave,
                        lane,
                        expected: e.values.clone(),
                        actual,
                    });
                }
            }
        }
    }
    out
}

/// Where manifest images start in the address space (256-byte aligned, as a T#
/// base address must be).
pub const IMAGE_BASE: u64 = 0x1_0000;
/// The most bytes all images of a launch may occupy unless the command line
/// (`--mem-cap`) says otherwise.
pub const IMAGE_MEMORY_CAP: u64 = 1 << 30;

/// A placed image: its descriptor dwords and where it lives.
#[derive(Clone, Debug)]
pub struct Placed {
    /// The T# (8 dwords).
    pub tsharp: [u32; 8],
    /// A 1d_buffer image's V# (`texture::typed::encode_vsharp`).
    pub vsharp: Option<[u32; 4]>,
    /// The decoded model of that T#.
    pub desc: crate::texture::descriptor::ImageDesc,
}

/// The V# of a 1d_buffer image (its texels are the 1D image's, one after
/// another): `texture::typed::encode_vsharp` over `width` elements with the
/// image's DST_SEL, refused when the generation has no buffer format for it.
fn buffer_image_vsharp(
    d: &crate::texture::descriptor::ImageDesc,
    gen: crate::arch::Gen,
) -> Result<[u32; 4], String> {
    use crate::texture::typed::{self, FormatCode};
    let t = typed::resolve(
        FormatCode::Split {
            dfmt: d.data_format,
            nfmt: d.num_format,
        },
        crate::arch::Gen::Gfx9,
        false,
    )
    .map_err(|m| format!("a 1d_buffer image: {m}"))?;
    typed::encode_vsharp(d.base_address, &t, d.width, d.dst_sel, gen)
        .ok_or_else(|| format!("{gen:?} has no buffer format for {} {:?}", t.df.name, t.nf))
}

/// Lays every manifest image out in one memory region (each 256-byte aligned,
/// linear, full mip chain as the manifest asks), fills it per its `init`, and
/// encodes its T# for the launch's generation. All images together may occupy
/// at most `cap` bytes (and at most the manifest's `mem_cap`); the first image
/// that would pass it is an error naming it, before anything is allocated.
pub fn place_images(
    l: &Launch,
    cap: u64,
) -> Result<(crate::machine::Memory, Vec<Placed>), ManifestError> {
    let (cap, by) = match l.mem_cap {
        Some(m) if m < cap => (m, "the manifest's mem_cap"),
        _ => (cap, "--mem-cap"),
    };
    use crate::texture::descriptor::{encode_image, ImageDesc, ImageType};
    use crate::texture::format::{data_format, Layout};
    use crate::texture::resource::surface_of;
    // A draw's memory lies where the driver's 32-bit pointers reach.
    let base = l.draw.as_ref().map_or(IMAGE_BASE, |d| d.memory_base());
    let mut placed = Vec::new();
    let mut bytes: Vec<u8> = Vec::new();
    for (i, im) in l.images.iter().enumerate() {
        let field = |f: &str| format!("image[{i}].{f}");
        let df = data_format(im.data_format).ok_or_else(|| err(field("format"), "unsupported"))?;
        let block = df.layout == Layout::Block;
        let t = ImageType::from_index(usize::from(im.dim))
            .ok_or_else(|| err(field("type"), "unknown"))?;
        // MSAA: one level; LAST_LEVEL holds log2(samples) (sampling.md §1.2) and
        // the samples live as slices (`cpu::image::surface_of`).
        if t.is_msaa() && im.mips != 1 {
            return Err(err(field("mips"), "MSAA images have one mip level"));
        }
        if !t.is_msaa() && im.samples != 1 {
            return Err(err(
                field("samples"),
                "only 2d_msaa and 2d_msaa_array images have samples",
            ));
        }
        let slices = match t {
            ImageType::Cube => im.layers.saturating_mul(6),
            ImageType::D1Array | ImageType::D2Array | ImageType::D2MsaaArray => im.layers,
            _ => 1,
        };
        let last_level = if t.is_msaa() {
            im.samples.trailing_zeros()
        } else {
            im.mips - 1
        };
        let align = (64 / df.bytes).max(8);
        // Components the format lacks read SEL_0 (Y, Z) or SEL_1 (W), as drivers
        // program them; present ones read X..W (4..7).
        let n = if block {
            crate::texture::bcn::components(df.code)
        } else {
            df.comps.len()
        };
        let dst_sel = [0usize, 1, 2, 3].map(|c| {
            if c < n {
                4 + c as u8
            } else if c == 3 {
                1
            } else {
                0
            }
        });
        let desc = ImageDesc {
            base_address: base + bytes.len() as u64,
            min_lod: 0,
            data_format: im.data_format,
            num_format: im.num_format,
            width: im.width,
            height: im.height,
            depth: if t == ImageType::D3 { im.depth } else { slices },
            // gfx10 has no PITCH field: the pitch is the width (docs/errata.md X11).
            // BCn: PITCH counts texels, whole aligned rows of 4×4 blocks.
            pitch: if l.arch.gen >= crate::arch::Gen::Gfx10 {
                im.width
            } else if block {
                im.width.div_ceil(4).next_multiple_of(align) * 4
            } else {
                im.width.next_multiple_of(align)
            },
            dst_sel,
            base_level: 0,
            last_level: last_level as u8,
            tiling: if l.arch.gen <= crate::arch::Gen::Gfx8 {
                8
            } else {
                0
            },
            image_type: t,
            base_array: 0,
            last_array: slices - 1,
        };
        let tsharp = encode_image(&desc, l.arch.gen).map_err(|m| err(field("type"), m))?;
        let surf = surface_of(&desc).map_err(|m| err(field("format"), m))?;
        let size = surf
            .total_bytes()
            .ok_or_else(|| err(field("width"), "image too large"))?;
        let end = (bytes.len() as u64 + size).next_multiple_of(256);
        if end > cap {
            return Err(err(
                field("width"),
                format!(
                    "image `{}` brings image memory to {end} bytes, past the {cap}-byte cap ({by})",
                    im.name
                ),
            ));
        }
        let start = bytes.len();
        // Under the cap, but the machine may still not have it: one line, not
        // an abort.
        let grown = usize::try_from(end)
            .ok()
            .and_then(|end| {
                bytes
                    .try_reserve_exact(end - start)
                    .ok()
                    .map(|()| bytes.resize(end, 0))
            })
            .ok_or_else(|| {
                err(
                    field("width"),
                    Problem::Alloc {
                        what: format!("image `{}` brings image memory to {end} bytes", im.name),
                        source: AllocError::new(end),
                    },
                )
            });
        grown?;
        let init_field = match im.init {
            super::manifest::ImageInit::Hex(_) => "init.hex",
            _ => "init",
        };
        fill(
            &mut bytes[start..start + size as usize],
            &surf,
            im,
            df.bytes,
        )
        .map_err(|m| err(field(init_field), m))?;
        let vsharp = if im.buffer {
            Some(buffer_image_vsharp(&desc, l.arch.gen).map_err(|m| err(field("format"), m))?)
        } else {
            None
        };
        placed.push(Placed {
            tsharp,
            vsharp,
            desc,
        });
    }
    Ok((crate::machine::Memory { base, bytes }, placed))
}

/// Level `m`'s size in elements: texels, or 4×4 blocks (rounded up) for BCn.
fn elem_dims(s: &crate::texture::layout::Surface, m: u32) -> (u32, u32, u32) {
    let (w, h, d) = s.level_dims(m);
    if s.block {
        (w.div_ceil(4), h.div_ceil(4), d)
    } else {
        (w, h, d)
    }
}

/// Fills an image's bytes per its `init` (docs/semantics/launch.md, "Manifest images").
fn fill(
    dst: &mut [u8],
    s: &crate::texture::layout::Surface,
    im: &super::manifest::ImageSpec,
    bpe: u32,
) -> Result<(), Problem> {
    use super::manifest::ImageInit;
    match &im.init {
        ImageInit::Zero => {}
        // Texels tightly packed in x, y, z, slice order, level 0 first, then
        // level 1, … (the pitch padding is the layout's business, not the
        // manifest writer's). BCn: 4×4 blocks, in block-row order. `hex`
        // gives exactly level 0 (every slice) or the whole chain: any other
        // length is a mistake (a short string used to leave the rest zero
        // without a word). A PNG gives level 0 of slice 0.
        ImageInit::Hex(b) | ImageInit::Bytes(b) => {
            let level_texels = |m: u32| {
                let (w, h, d) = elem_dims(s, m);
                u64::from(w) * u64::from(h) * u64::from(d) * u64::from(s.slices)
            };
            let level0 = level_texels(0) * u64::from(bpe);
            let chain = (0..s.levels).map(level_texels).sum::<u64>() * u64::from(bpe);
            let len = b.len() as u64;
            if matches!(im.init, ImageInit::Hex(_)) && len != level0 && len != chain {
                let (w, h, d) = elem_dims(s, 0);
                let what = if s.block { "4×4 blocks" } else { "texels" };
                let slices = if s.slices > 1 {
                    format!(" × {} slices", s.slices)
                } else {
                    String::new()
                };
                let whole = if s.levels > 1 {
                    format!(" or the whole chain of {} levels ({chain} bytes)", s.levels)
                } else {
                    String::new()
                };
                return Err(format!(
                    "{len} bytes of hex: give level 0 ({level0} bytes: {w}×{h}×{d} {what}{slices} of {bpe} bytes){whole}"
                )
                .into());
            }
            if len > chain {
                return Err(format!("{len} bytes for {} levels of {chain} bytes", s.levels).into());
            }
            let mut chunks = b.chunks(bpe as usize);
            'levels: for m in 0..s.levels {
                let (w, h, d) = elem_dims(s, m);
                for i in 0..level_texels(m) {
                    let Some(chunk) = chunks.next() else {
                        break 'levels;
                    };
                    let (x, y) = (
                        (i % u64::from(w)) as u32,
                        ((i / u64::from(w)) % u64::from(h)) as u32,
                    );
                    let z = ((i / (u64::from(w) * u64::from(h))) % u64::from(d)) as u32;
                    let a = (i / (u64::from(w) * u64::from(h) * u64::from(d))) as u32;
                    if let Some(o) = s.texel_offset(m, a, x, y, z) {
                        let o = o as usize;
                        if let Some(t) = dst.get_mut(o..o + chunk.len()) {
                            t.copy_from_slice(chunk);
                        }
                    }
                }
            }
        }
        // A manifest file's PNGs are read (relative to it) before placement
        // (launch::run::prepare_manifest); an in-memory manifest has no
        // directory to read them from.
        ImageInit::Png(p) => {
            return Err(format!(
                "PNG input ({p}) needs a manifest file: its path is relative to the manifest"
            )
            .into())
        }
        ImageInit::Checker | ImageInit::Gradient | ImageInit::Noise => {
            for m in 0..s.levels {
                let (w, h, d) = elem_dims(s, m);
                for a in 0..s.slices {
                    for z in 0..d {
                        for y in 0..h {
                            for x in 0..w {
                                let Some(o) = s.texel_offset(m, a, x, y, z) else {
                                    continue;
                                };
                                let o = o as usize;
                                for k in 0..bpe as usize {
                                    let v = match im.init {
                                        // 8×8 cells of all-ones / all-zero bytes.
                                        ImageInit::Checker => {
                                            if ((x / 8) ^ (y / 8) ^ z ^ a) & 1 == 0 {
                                                0xff
                                            } else {
                                                0x00
                                            }
                                        }
                                        // Byte k of a texel: x / w for even k, y / h for odd, scaled to 0..255.
                                        ImageInit::Gradient => {
                                            if k % 2 == 0 {
                                                (x * 255 / w.max(2).saturating_sub(1).max(1))
                                                    .min(255)
                                                    as u8
                                            } else {
                                                (y * 255 / h.max(2).saturating_sub(1).max(1))
                                                    .min(255)
                                                    as u8
                                            }
                                        }
                                        // A fixed integer hash of the texel's position and byte.
                                        _ => noise(x, y, z ^ (a << 12) ^ (m << 24), k as u32),
                                    };
                                    if let Some(b) = dst.get_mut(o + k) {
                                        *b = v;
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    Ok(())
}

/// A deterministic byte from a position (a 32-bit integer mix; the same on every
/// machine, so `init = "noise"` images are reproducible).
fn noise(x: u32, y: u32, z: u32, k: u32) -> u8 {
    let mut h = x.wrapping_mul(0x9e37_79b1)
        ^ y.wrapping_mul(0x85eb_ca77)
        ^ z.wrapping_mul(0xc2b2_ae3d)
        ^ k.wrapping_mul(0x27d4_eb2f);
    h ^= h >> 15;
    h = h.wrapping_mul(0x2c1b_3c6d);
    h ^= h >> 12;
    (h >> 24) as u8
}
