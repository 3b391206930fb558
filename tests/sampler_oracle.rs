//! An oracle no one here wrote: gcnrun's CPU reference sampler against the
//! adapter's own sampler (Mesa lavapipe in CI) through `oracle::native`, on the
//! same random images, samplers and coordinates, under tolerances derived the
//! way VK-CTS's tcuTexLookupVerifier derives them (docs/semantics/sampler-oracle.md,
//! "Tolerances"):
//!
//! - the native result must lie in the range of the CPU's results over the
//!   precision box around the sample: each coordinate within
//!   2^-subTexelPrecisionBits plus 2^-8 texel, the LOD over the interval
//!   Vulkan allows for the sample (explicit: the value; from derivatives: the
//!   ρ approximation bounds), clamped by the sampler, then widened by
//!   2^-mipmapPrecisionBits plus 2^-8. The CPU is evaluated at the box's ends
//!   and at every kink inside (texel centres, integer LODs, the magnification
//!   threshold), where a multilinear filter takes its extremes;
//! - widened by the arithmetic precision of the format: one 8-bit quantum per
//!   fixed-point lerp stage plus the final conversion for 8-bit formats, a few
//!   f32 ulps per stage for float formats;
//! - gathers must equal one candidate footprint's four texels.
//!
//! Every family runs a fixed seed and a few thousand samples, prints its
//! agreement rate and worst case, and asserts 100 %. Classes where Vulkan and
//! GCN differ by definition are not generated, each named in docs/errata.md
//! (S13). Without an adapter the test fails under `CI=true` and otherwise
//! prints `SKIPPED` with the reason.

mod common;

use common::gpu::gpu;

use gcnrun::gpu::{self, Gpu};
use gcnrun::launch::run::{prepare_manifest, run_cpu};
use gcnrun::oracle::native::{
    self, NativeAddress, NativeDim, NativeFormat, NativeImage, NativeLane, NativeOp, NativeSampler,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::PathBuf;

/// The native sampler's precision, as Vulkan's limits state it:
/// `subTexelPrecisionBits` and `mipmapPrecisionBits`. wgpu does not expose
/// them; lavapipe reports 8 and 4 (vulkaninfo), and any other adapter is held
/// to Vulkan's required minimum, 4 and 4.
fn precision(g: &Gpu) -> (u32, u32) {
    if g.info.name.contains("llvmpipe") {
        (8, 4)
    } else {
        (4, 4)
    }
}

/// CPU subtexel and LOD grid: 2^-8 (src/texture/sample/coord.rs, lod.rs).
const CPU_GRID: f64 = 1.0 / 256.0;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// image_sample_l / textureSampleLevel.
    SampleL,
    /// image_sample_d / textureSampleGrad.
    SampleD,
    /// image_sample_b on quads / textureSampleGrad with the quad differences
    /// scaled by 2^bias.
    SampleB,
    /// image_gather4_lz / textureGather.
    Gather,
    /// image_gather4_c_lz / textureGatherCompare.
    GatherC,
    /// image_sample_c_lz / textureSampleCompareLevel.
    SampleC,
}

impl Kind {
    fn kernel(self) -> &'static str {
        match self {
            Kind::SampleL => "oracle_sample_l.bin",
            Kind::SampleD => "oracle_sample_d.bin",
            Kind::SampleB => "oracle_sample_b.bin",
            Kind::Gather => "oracle_gather4.bin",
            Kind::GatherC => "oracle_gather4_c.bin",
            Kind::SampleC => "oracle_sample_c.bin",
        }
    }
    fn compare(self) -> bool {
        matches!(self, Kind::GatherC | Kind::SampleC)
    }
    fn gather(self) -> bool {
        matches!(self, Kind::Gather | Kind::GatherC)
    }
    /// Lanes per sample: the quad for implicit derivatives.
    fn group(self) -> usize {
        if self == Kind::SampleB {
            4
        } else {
            1
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Filter {
    Point,
    Bilinear,
    Trilinear,
    /// Any combination of mag, min and mip filters.
    Mixed,
}

/// One instruction family of the oracle.
struct Family {
    name: &'static str,
    kind: Kind,
    dims: &'static [NativeDim],
    formats: &'static [NativeFormat],
    filter: Filter,
    cases: usize,
    per_case: usize,
    /// Negative control: move the native coordinates by this many texels of
    /// level 0 along x, so that the oracle must see the disagreement.
    sabotage: f32,
}

/// One lane's operands on the CPU side: normalized spatial coordinates (for
/// cubes the face-local coordinate in [0, 1]), slice or face, LOD, derivatives
/// of the spatial coordinates, bias, reference.
#[derive(Clone, Copy, Debug, Default)]
struct Point {
    c: [f32; 3],
    layer: u32,
    lod: f32,
    ddx: [f32; 3],
    ddy: [f32; 3],
    bias: f32,
    reference: f32,
}

fn axes(dim: NativeDim) -> usize {
    if dim == NativeDim::D3 {
        3
    } else {
        2
    }
}

/// The address VGPRs from v4 (assets/oracle_*.s): `{bias | reference}
/// {derivatives} body {lod}`, body = spatial coordinates then slice or face id
/// (cube coordinates as GCN takes them: face-local + 1, and the face id).
fn cpu_words(kind: Kind, dim: NativeDim, p: &Point) -> Vec<u32> {
    let n = axes(dim);
    let mut w: Vec<f32> = Vec::new();
    match kind {
        Kind::SampleB => w.push(p.bias),
        Kind::GatherC | Kind::SampleC => w.push(p.reference),
        _ => {}
    }
    if kind == Kind::SampleD {
        w.extend_from_slice(&p.ddx[..n]);
        w.extend_from_slice(&p.ddy[..n]);
    }
    for a in 0..n {
        w.push(if dim == NativeDim::Cube {
            p.c[a] + 1.0
        } else {
            p.c[a]
        });
    }
    if matches!(dim, NativeDim::D2Array | NativeDim::Cube) {
        w.push(p.layer as f32);
    }
    if kind == Kind::SampleL {
        w.push(p.lod);
    }
    w.into_iter().map(f32::to_bits).collect()
}

/// The direction of face-local coordinates (a, b) ∈ [0, 1]² on `face` at
/// major axis 1: sc = 2a − 1, tc = 2b − 1 (Vulkan's face table, inverted:
/// +X: sc = −z, tc = −y; −X: sc = z, tc = −y; +Y: sc = x, tc = z; −Y: sc = x,
/// tc = −z; +Z: sc = x, tc = −y; −Z: sc = −x, tc = −y). `ma` = 0 turns a
/// derivative of (a, b) into a derivative of the direction.
fn cube_direction(face: u32, a: f32, b: f32, ma: f32) -> [f32; 3] {
    let (sc, tc) = if ma == 0.0 {
        (2.0 * a, 2.0 * b)
    } else {
        (2.0 * a - 1.0, 2.0 * b - 1.0)
    };
    match face {
        0 => [ma, -tc, -sc],
        1 => [-ma, -tc, sc],
        2 => [sc, ma, tc],
        3 => [sc, -ma, -tc],
        4 => [sc, -tc, ma],
        _ => [-sc, -tc, -ma],
    }
}

/// The native lane of a CPU point (the nominal one).
fn native_lane(dim: NativeDim, p: &Point, scale: f32) -> NativeLane {
    let mut l = NativeLane {
        coords: p.c,
        layer: p.layer as i32,
        lod: p.lod,
        ddx: p.ddx.map(|d| d * scale),
        ddy: p.ddy.map(|d| d * scale),
        reference: p.reference,
    };
    if dim == NativeDim::Cube {
        l.coords = cube_direction(p.layer, p.c[0], p.c[1], 1.0);
        l.ddx = cube_direction(p.layer, l.ddx[0], l.ddx[1], 0.0);
        l.ddy = cube_direction(p.layer, l.ddy[0], l.ddy[1], 0.0);
        l.layer = 0;
    }
    l
}

/// A random case: image, sampler and the manifest text for the CPU side.
struct Case {
    image: NativeImage,
    sampler: NativeSampler,
    /// Bits per component of the texel data (8, 16, 32).
    bits: u32,
}

fn random_texels(rng: &mut ChaCha8Rng, format: NativeFormat, count: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(count * format.bytes());
    for _ in 0..count {
        match format {
            NativeFormat::Rgba8Unorm | NativeFormat::Rgba8UnormSrgb => {
                out.extend((0..4).map(|_| rng.gen::<u8>()))
            }
            NativeFormat::Rgba16Float => {
                for _ in 0..4 {
                    let v = half::f16::from_f32(rng.gen_range(-2.0f32..2.0));
                    out.extend_from_slice(&v.to_bits().to_le_bytes());
                }
            }
            NativeFormat::R32Float => {
                let v = rng.gen_range(-2.0f32..2.0);
                out.extend_from_slice(&v.to_le_bytes());
            }
            // Depths on a 1/16 grid, so that references meet texels exactly
            // and EQUAL / LESS_EQUAL are exercised at equality.
            NativeFormat::Depth32Float => {
                let v = rng.gen_range(0..=16) as f32 / 16.0;
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
    }
    out
}

fn random_case(rng: &mut ChaCha8Rng, f: &Family, border_ok: bool) -> Case {
    let dim = f.dims[rng.gen_range(0..f.dims.len())];
    let format = f.formats[rng.gen_range(0..f.formats.len())];
    let side = |rng: &mut ChaCha8Rng, lo: u32, hi: u32| rng.gen_range(lo..=hi);
    let (width, height, layers) = match dim {
        NativeDim::D2 => (side(rng, 3, 16), side(rng, 3, 16), 1),
        NativeDim::D2Array => (side(rng, 3, 12), side(rng, 3, 12), side(rng, 2, 4)),
        NativeDim::D3 => (side(rng, 2, 8), side(rng, 2, 8), side(rng, 2, 8)),
        NativeDim::Cube => {
            let s = [2, 4, 5, 8][rng.gen_range(0..4)];
            (s, s, 6)
        }
        // The GCN families address cubes by face id; cube arrays are checked
        // through Intel's direction path (tests/visa_cube_oracle.rs).
        NativeDim::CubeArray => unreachable!("no GCN oracle family draws cube arrays"),
    };
    let longest = match dim {
        NativeDim::D3 => width.max(height).max(layers),
        _ => width.max(height),
    };
    let full = 32 - longest.leading_zeros();
    let mips = if f.kind.gather() || f.kind.compare() {
        1
    } else {
        rng.gen_range(1..=full)
    };
    let mut image = NativeImage {
        dim,
        format,
        width,
        height,
        layers,
        levels: Vec::new(),
    };
    for m in 0..mips {
        let (w, h, z) = image.level_size(m);
        image
            .levels
            .push(random_texels(rng, format, (w * h * z) as usize));
    }
    let (mag, min, mip) = match f.filter {
        Filter::Point => (false, false, false),
        Filter::Bilinear => (true, true, false),
        Filter::Trilinear => (true, true, true),
        Filter::Mixed => (rng.gen(), rng.gen(), rng.gen()),
    };
    let mut modes = vec![
        NativeAddress::Repeat,
        NativeAddress::Mirror,
        NativeAddress::ClampToEdge,
    ];
    if border_ok {
        modes.push(NativeAddress::ClampToBorder);
    }
    let address = if dim == NativeDim::Cube {
        [NativeAddress::ClampToEdge; 3]
    } else {
        [0; 3].map(|_| modes[rng.gen_range(0..modes.len())])
    };
    // LOD clamps on the 4.8 grid both sides represent exactly; half the cases
    // keep the full range.
    let (lod_min, lod_max) = if rng.gen_bool(0.5) || mips == 1 {
        (0.0, 15.9375)
    } else {
        let a = rng.gen_range(0..=(mips * 16)) as f32 / 16.0;
        let b = rng.gen_range(0..=(mips * 16)) as f32 / 16.0;
        (a.min(b), a.max(b))
    };
    let sampler = NativeSampler {
        mag_linear: mag,
        min_linear: min,
        mip_linear: mip,
        address,
        lod_min,
        lod_max,
        compare: f.kind.compare().then(|| rng.gen_range(0..8)),
        anisotropy: 1,
        border: rng.gen_range(0..3),
    };
    let bits = match format {
        NativeFormat::Rgba8Unorm | NativeFormat::Rgba8UnormSrgb => 8,
        NativeFormat::Rgba16Float => 16,
        _ => 32,
    };
    Case {
        image,
        sampler,
        bits,
    }
}

/// The manifest of a case (code, T#, S#; every register and texel is written
/// afterwards).
fn manifest(kind: Kind, c: &Case, s: &NativeSampler, waves: usize) -> String {
    let im = &c.image;
    let (ty, extra) = match im.dim {
        NativeDim::D2 => ("2d", String::new()),
        NativeDim::D2Array => ("2d_array", format!("layers = {}\n", im.layers)),
        NativeDim::D3 => ("3d", format!("depth = {}\n", im.layers)),
        NativeDim::Cube => ("cube", String::new()),
        NativeDim::CubeArray => ("cube", format!("layers = {}\n", im.layers / 6)),
    };
    let (format, nf) = match im.format {
        NativeFormat::Rgba8Unorm => ("8_8_8_8", "unorm"),
        NativeFormat::Rgba8UnormSrgb => ("8_8_8_8", "srgb"),
        NativeFormat::Rgba16Float => ("16_16_16_16", "float"),
        NativeFormat::R32Float | NativeFormat::Depth32Float => ("32", "float"),
    };
    let f = |l: bool| if l { "linear" } else { "point" };
    let a = |m: NativeAddress| match m {
        NativeAddress::Repeat => "wrap",
        NativeAddress::Mirror => "mirror",
        NativeAddress::ClampToEdge => "clamp_last_texel",
        NativeAddress::ClampToBorder => "clamp_border",
    };
    let compare = [
        "never",
        "less",
        "equal",
        "less_equal",
        "greater",
        "not_equal",
        "greater_equal",
        "always",
    ][usize::from(s.compare.unwrap_or(0) & 7)];
    let border = ["transparent_black", "opaque_black", "opaque_white"][usize::from(s.border % 3)];
    format!(
        r#"arch = "gfx900"
code = "{code}"
waves = {waves}

[sgpr]
"s[4:11]" = {{ image = "img" }}
"s[12:15]" = {{ sampler = "smp" }}

[[image]]
name = "img"
type = "{ty}"
width = {w}
height = {h}
{extra}mips = {mips}
format = "{format}"
num_format = "{nf}"
init = "zero"

[[sampler]]
name = "smp"
filter = {{ mag = "{mag}", min = "{min}", mip = "{mip}" }}
address = ["{a0}", "{a1}", "{a2}"]
compare = "{compare}"
border = "{border}"
min_lod = {lod_min}
max_lod = {lod_max}
"#,
        code = common::launches::assets().join(kind.kernel()).display(),
        w = im.width,
        h = im.height,
        mips = im.levels.len(),
        mag = f(s.mag_linear),
        min = f(s.min_linear),
        mip = f(s.mip_linear),
        a0 = a(s.address[0]),
        a1 = a(s.address[1]),
        a2 = a(s.address[2]),
        // Through f64: exact decimals of the 1/256 grid.
        lod_min = f64::from(s.lod_min),
        lod_max = f64::from(s.lod_max),
    )
}

/// Runs every lane's address words on the CPU; returns per lane the result
/// registers (4 dwords for samples, 16 for the four gathers, 4 for gather4_c).
fn run_on_cpu(kind: Kind, c: &Case, s: &NativeSampler, lanes: &[Vec<u32>]) -> Vec<Vec<f32>> {
    let waves = lanes.len().div_ceil(64).max(1);
    let dir = std::env::temp_dir().join(format!("gcnrun-oracle-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Tests run in parallel: one file per launch.
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let k = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let path: PathBuf = dir.join(format!("case{k}.toml"));
    std::fs::write(&path, manifest(kind, c, s, waves)).unwrap();
    let mut p = prepare_manifest(&path, None, None, None).unwrap_or_else(|e| panic!("{e}"));
    let desc = p.images[0].desc;
    let surf = gcnrun::texture::resource::surface_of(&desc).unwrap();
    let im = &c.image;
    let bpt = im.format.bytes();
    for (m, data) in im.levels.iter().enumerate() {
        let (w, h, z) = im.level_size(m as u32);
        for k in 0..z {
            for y in 0..h {
                for x in 0..w {
                    let (slice, zz) = if im.dim == NativeDim::D3 {
                        (0, k)
                    } else {
                        (k, 0)
                    };
                    let at = (((k * h + y) * w + x) as usize) * bpt;
                    let off = surf.texel_offset(m as u32, slice, x, y, zz).unwrap();
                    p.memory.write(desc.base_address + off, &data[at..at + bpt]);
                }
            }
        }
    }
    for (i, words) in lanes.iter().enumerate() {
        let w = &mut p.waves[i / 64];
        for (k, &v) in words.iter().enumerate() {
            w.set_vgpr(4 + k as u32, (i % 64) as u32, v);
        }
    }
    let out = run_cpu(p).unwrap_or_else(|e| panic!("{e}"));
    let _ = std::fs::remove_file(&path);
    let regs: Vec<u32> = match kind {
        Kind::Gather => (0..4).chain(16..28).collect(),
        _ => (0..4).collect(),
    };
    (0..lanes.len())
        .map(|i| {
            let w = &out.waves[i / 64];
            regs.iter()
                .map(|&r| f32::from_bits(w.vgpr(r, (i % 64) as u32)))
                .collect()
        })
        .collect()
}

/// Sorted, deduplicated.
fn uniq(mut v: Vec<f64>) -> Vec<f64> {
    v.sort_by(|a, b| a.total_cmp(b));
    v.dedup();
    v
}

/// Candidate values of one normalized coordinate `x`: the ends of
/// `x ± δ/size` for every level size involved, and the texel centres of those
/// levels inside (a linear filter's kinks).
fn axis_candidates(x: f32, sizes: &[u32], delta: f64, linear: bool) -> Vec<f32> {
    let x = f64::from(x);
    let mut lo = x;
    let mut hi = x;
    for &n in sizes {
        lo = lo.min(x - delta / f64::from(n));
        hi = hi.max(x + delta / f64::from(n));
    }
    let mut v = vec![lo, x, hi];
    if linear {
        for &n in sizes {
            let n = f64::from(n);
            let k = (lo * n - 0.5).floor();
            let mut c = (k + 0.5) / n;
            while c <= hi {
                if c >= lo {
                    v.push(c);
                }
                c += 1.0 / n;
            }
        }
    }
    uniq(v).into_iter().map(|c| c as f32).collect()
}

/// Candidate LODs for an unclamped interval `[lo, hi]`: the sampler's clamps
/// apply first, then the native's LOD precision `dlod` around the clamped
/// interval (as tcuTexLookupVerifier widens clamped LOD bounds); the ends and
/// the kinks inside: integer levels (linear mip), and the magnification
/// threshold 0 with the step just above it. The CPU evaluates these with
/// [`widened`] clamps, so that it does not clamp them again.
fn lod_candidates(lo: f64, hi: f64, dlod: f64, s: &NativeSampler) -> Vec<f64> {
    let (min, max) = (f64::from(s.lod_min), f64::from(s.lod_max));
    let lo = lo.clamp(min, max) - dlod;
    let hi = hi.clamp(min, max) + dlod;
    let mut v = vec![lo, hi];
    let mut k = lo.ceil();
    while k <= hi {
        v.push(k);
        k += 1.0;
    }
    for extra in [0.0, CPU_GRID] {
        if (lo..=hi).contains(&extra) {
            v.push(extra);
        }
    }
    uniq(v)
}

/// The sampler with its LOD clamps moved out by `dlod` (on the CPU's 1/256
/// grid, within the S#'s 0..=15.996 range), for the candidate evaluations.
fn widened(s: &NativeSampler, dlod: f64) -> NativeSampler {
    let d = ((dlod / CPU_GRID).ceil() * CPU_GRID) as f32;
    NativeSampler {
        lod_min: (s.lod_min - d).max(0.0),
        lod_max: (s.lod_max + d).min(4095.0 / 256.0),
        ..*s
    }
}

/// The level sizes (per axis) a LOD range can read.
fn level_sizes(im: &NativeImage, lods: &[f64], s: &NativeSampler) -> [Vec<u32>; 3] {
    let last = im.levels.len() as f64 - 1.0;
    let mut levels: Vec<u32> = Vec::new();
    for &l in lods {
        let d = l
            .clamp(f64::from(s.lod_min), f64::from(s.lod_max))
            .clamp(0.0, last);
        levels.push(d.floor() as u32);
        levels.push(d.ceil() as u32);
    }
    levels.sort();
    levels.dedup();
    let mut out: [Vec<u32>; 3] = Default::default();
    for m in levels {
        let (w, h, z) = im.level_size(m);
        out[0].push(w);
        out[1].push(h);
        out[2].push(z);
    }
    out
}

/// One sample: the native lanes and, per lane, its CPU variants.
struct Sample {
    native: Vec<NativeLane>,
    /// The nominal CPU points (the group's lanes), run with the real sampler.
    nominal: Vec<Point>,
    /// `variants[g]`: the CPU points of lane g (the first is the nominal one).
    variants: Vec<Vec<Point>>,
    /// For implicit derivatives: the quads of variant `k` (all four lanes).
    quads: Vec<[Point; 4]>,
}

/// log2 of the texel-space derivative bounds Vulkan allows (ρ between the
/// largest component and the sum of the components' magnitudes, for the
/// longer of the two directions), and the Euclidean ρ gcnrun uses.
fn rho_bounds(ddx: [f32; 3], ddy: [f32; 3], size: [u32; 3], n: usize) -> (f64, f64, f64) {
    let t = |d: [f32; 3]| -> Vec<f64> {
        (0..n)
            .map(|a| (f64::from(d[a]) * f64::from(size[a])).abs())
            .collect()
    };
    let (x, y) = (t(ddx), t(ddy));
    let max = |v: &[f64]| v.iter().cloned().fold(0.0, f64::max);
    let sum = |v: &[f64]| v.iter().sum::<f64>();
    let euclid = |v: &[f64]| v.iter().map(|c| c * c).sum::<f64>().sqrt();
    (
        max(&x).max(max(&y)).log2(),
        sum(&x).max(sum(&y)).log2(),
        euclid(&x).max(euclid(&y)).log2(),
    )
}

/// How far from a cube face's edges samples stay (face-local units): past the
/// precision box even at a 1×1 level, plus a margin. On an edge, which face a
/// direction selects is within precision on both sides (docs/errata.md S13).
fn cube_margin(delta: f64) -> f32 {
    (2.0 * delta) as f32 + 1.0 / 512.0
}

fn random_point(rng: &mut ChaCha8Rng, c: &Case, kind: Kind, delta: f64) -> Point {
    let im = &c.image;
    let mut p = Point::default();
    if im.dim == NativeDim::Cube {
        let margin = cube_margin(delta);
        for a in 0..2 {
            let k = rng.gen_range(0..4096) as f32 / 4096.0;
            p.c[a] = margin + k * (1.0 - 2.0 * margin);
        }
        p.layer = rng.gen_range(0..6);
    } else {
        let clamped = |a: usize| c.sampler.address[a] == NativeAddress::ClampToEdge;
        for a in 0..axes(im.dim) {
            p.c[a] = if clamped(a) && rng.gen_bool(0.7) {
                rng.gen_range(-0.2f32..1.2)
            } else {
                rng.gen_range(-1.5f32..2.5)
            };
        }
        if im.dim == NativeDim::D2Array {
            p.layer = rng.gen_range(0..im.layers);
        }
    }
    let levels = im.levels.len() as f32;
    p.lod = rng.gen_range(-1.5f32..levels + 0.5);
    if matches!(kind, Kind::SampleD) {
        // A derivative pair of random directions and lengths for a target
        // LOD in the same range.
        let target = rng.gen_range(-2.0f32..levels + 1.0);
        let size = im.level_size(0);
        let size = [size.0, size.1, size.2];
        for d in [&mut p.ddx, &mut p.ddy] {
            let len = target.exp2() * rng.gen_range(0.3f32..1.0);
            for a in 0..axes(im.dim) {
                d[a] = rng.gen_range(-1.0f32..1.0) * len / size[a] as f32;
            }
        }
    }
    if kind.compare() {
        p.reference = rng.gen_range(0..=16) as f32 / 16.0;
    }
    p
}

/// The sample's variants: the cross product of axis candidates and LOD
/// candidates (each LOD candidate turned into the operand the instruction
/// takes: the `_l` value, derivatives scaled to reach it, or a bias).
fn build_sample(rng: &mut ChaCha8Rng, c: &Case, kind: Kind, prec: (u32, u32)) -> Sample {
    let im = &c.image;
    let s = &c.sampler;
    let n = axes(im.dim);
    let delta = 2f64.powi(-(prec.0 as i32)) + CPU_GRID;
    let dlod = 2f64.powi(-(prec.1 as i32)) + CPU_GRID;
    let size0 = {
        let (w, h, z) = im.level_size(0);
        [w, h, z]
    };
    let mut quad = [Point::default(); 4];
    let mut base = random_point(rng, c, kind, delta);
    // Nominal LOD, the interval to cover, and how a LOD becomes an operand.
    let (lo, hi, scale_of): (f64, f64, Box<dyn Fn(f64) -> f64>) = match kind {
        Kind::SampleL => {
            let l = f64::from(base.lod);
            (l, l, Box::new(|x| x))
        }
        Kind::SampleD => {
            let (a, b, e) = rho_bounds(base.ddx, base.ddy, size0, n);
            (a.min(e), b.max(e), Box::new(move |x| (x - e).exp2()))
        }
        Kind::SampleB => {
            // A quad: TL at the point, TR and BL one derivative step away.
            let mut ddx = [0.0f32; 3];
            let mut ddy = [0.0f32; 3];
            let levels = im.levels.len() as f32;
            let target = rng.gen_range(-2.0f32..levels + 1.0);
            for (d, k) in [(&mut ddx, 0), (&mut ddy, 1)] {
                let len = target.exp2() * rng.gen_range(0.3f32..1.0);
                for a in 0..n {
                    let step = rng.gen_range(-1.0f32..1.0) * len / size0[a] as f32;
                    // Steps on a 2^-12 grid keep TR − TL exact in f32.
                    d[a] = (step * 4096.0).round() / 4096.0;
                }
                let _ = k;
            }
            if im.dim == NativeDim::Cube {
                // The whole quad stays on the face: a lane past an edge would
                // be another face's direction natively, while GCN's shader
                // passes each lane its own face (docs/errata.md S13).
                let margin = cube_margin(delta);
                let avail = 1.0 - 2.0 * margin;
                for a in 0..2 {
                    let width = ddx[a].abs() + ddy[a].abs();
                    if width > avail {
                        let k = avail / width * 0.9;
                        ddx[a] = (ddx[a] * k * 4096.0).round() / 4096.0;
                        ddy[a] = (ddy[a] * k * 4096.0).round() / 4096.0;
                    }
                    let lo = ddx[a].min(0.0) + ddy[a].min(0.0);
                    let hi = ddx[a].max(0.0) + ddy[a].max(0.0);
                    base.c[a] = base.c[a].clamp(margin - lo, 1.0 - margin - hi);
                }
            }
            let bias = rng.gen_range(-2.0f32..2.0);
            for (g, q) in quad.iter_mut().enumerate() {
                *q = base;
                q.bias = bias;
                for a in 0..n {
                    q.c[a] = base.c[a]
                        + if g & 1 == 1 { ddx[a] } else { 0.0 }
                        + if g & 2 == 2 { ddy[a] } else { 0.0 };
                }
            }
            // Coarse derivatives: TR − TL and BL − TL, as the CPU computes them.
            let dx: [f32; 3] = std::array::from_fn(|a| quad[1].c[a] - quad[0].c[a]);
            let dy: [f32; 3] = std::array::from_fn(|a| quad[2].c[a] - quad[0].c[a]);
            for q in quad.iter_mut() {
                q.ddx = dx;
                q.ddy = dy;
            }
            let (a, b, e) = rho_bounds(dx, dy, size0, n);
            let bb = f64::from(bias);
            (a.min(e) + bb, b.max(e) + bb, Box::new(move |x| x - e))
        }
        // Level 0, magnification.
        _ => (0.0, 0.0, Box::new(|x| x)),
    };
    let lods = lod_candidates(lo, hi, dlod, s);
    let sizes = level_sizes(im, &lods, s);
    let linear_xy = s.mag_linear || s.min_linear || kind.gather();
    let group: Vec<Point> = if kind == Kind::SampleB {
        quad.to_vec()
    } else {
        vec![base]
    };
    let mut variants: Vec<Vec<Point>> = vec![Vec::new(); group.len()];
    let mut quads: Vec<[Point; 4]> = Vec::new();
    // The axis candidates of the group's first lane; the other lanes of a quad
    // move with it (the derivatives stay the same).
    // Per axis, the shifts that reach every lane's candidates (a quad moves
    // as one, so each lane's own kinks must be among the shifts).
    let shifts: Vec<Vec<f32>> = (0..n)
        .map(|a| {
            let mut v: Vec<f64> = Vec::new();
            for p in &group {
                for c in axis_candidates(p.c[a], &sizes[a], delta, linear_xy) {
                    v.push(f64::from(c - p.c[a]));
                }
            }
            uniq(v).into_iter().map(|x| x as f32).collect()
        })
        .collect();
    let mut combos: Vec<[f32; 3]> = vec![[0.0; 3]];
    for (a, cands) in shifts.iter().enumerate() {
        combos = combos
            .iter()
            .flat_map(|c0| {
                cands.iter().map(move |&v| {
                    let mut c1 = *c0;
                    c1[a] = v;
                    c1
                })
            })
            .collect();
    }
    for &lod in &lods {
        for shift in &combos {
            let mut q: Vec<Point> = group.clone();
            for p in q.iter_mut() {
                for (c, d) in p.c.iter_mut().zip(shift).take(n) {
                    *c += d;
                }
                match kind {
                    Kind::SampleL => p.lod = lod as f32,
                    Kind::SampleD => {
                        let k = scale_of(lod) as f32;
                        p.ddx = base.ddx.map(|d| d * k);
                        p.ddy = base.ddy.map(|d| d * k);
                    }
                    Kind::SampleB => p.bias = scale_of(lod) as f32,
                    _ => {}
                }
            }
            if kind == Kind::SampleB {
                quads.push([q[0], q[1], q[2], q[3]]);
            }
            for (g, p) in q.into_iter().enumerate() {
                variants[g].push(p);
            }
        }
    }
    let native: Vec<NativeLane> = group
        .iter()
        .map(|p| {
            let mut l = native_lane(im.dim, p, 1.0);
            if kind == Kind::SampleB {
                // textureSampleGrad with the quad's differences × 2^bias.
                let k = p.bias.exp2();
                let d = native_lane(
                    im.dim,
                    &Point {
                        ddx: p.ddx,
                        ddy: p.ddy,
                        ..*p
                    },
                    k,
                );
                l.ddx = d.ddx;
                l.ddy = d.ddy;
            }
            l
        })
        .collect();
    Sample {
        native,
        nominal: group,
        variants,
        quads,
    }
}

/// Per-component arithmetic tolerance of the native result (see the module
/// comment): `stages` is the depth of the lerp tree (linear axes + a linear
/// mip blend).
fn arithmetic_tolerance(c: &Case, stages: u32, magnitude: f32) -> f32 {
    if c.bits == 8 {
        (stages + 1) as f32 / 255.0
    } else {
        // A few f32 ulps of the largest texel per rounding stage.
        (stages + 2) as f32 * magnitude * f32::EPSILON * 2.0
    }
}

#[derive(Default)]
struct Tally {
    samples: usize,
    within: usize,
    /// Samples whose native result is the nominal CPU result within the
    /// arithmetic tolerance alone (no precision box): informative.
    close: usize,
    /// Largest |native − nominal CPU| (informative), and where.
    max_raw: (f32, String),
    /// Largest excess beyond the hull + tolerance (0 when all agree).
    worst: (f32, String),
}

fn run_family(g: &Gpu, f: &Family, seed: u64) -> Tally {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let prec = precision(g);
    let dlod = 2f64.powi(-(prec.1 as i32)) + CPU_GRID;
    let border_ok = g
        .device
        .features()
        .contains(wgpu::Features::ADDRESS_MODE_CLAMP_TO_BORDER);
    let float_filter = g
        .device
        .features()
        .contains(wgpu::Features::FLOAT32_FILTERABLE);
    let mut t = Tally::default();
    for case_no in 0..f.cases {
        let mut c = random_case(&mut rng, f, border_ok);
        if c.image.format == NativeFormat::R32Float && !float_filter {
            c.sampler.mag_linear = false;
            c.sampler.min_linear = false;
            c.sampler.mip_linear = false;
        }
        let samples: Vec<Sample> = (0..f.per_case / f.kind.group())
            .map(|_| build_sample(&mut rng, &c, f.kind, prec))
            .collect();
        // CPU: the nominal lanes with the case's sampler, then every variant
        // of every lane with the widened LOD clamps (see `lod_candidates`).
        let nominal_words: Vec<Vec<u32>> = samples
            .iter()
            .flat_map(|s| s.nominal.iter().map(|p| cpu_words(f.kind, c.image.dim, p)))
            .collect();
        let cpu_nominal = run_on_cpu(f.kind, &c, &c.sampler, &nominal_words);
        let wide = widened(&c.sampler, dlod);
        let mut words: Vec<Vec<u32>> = Vec::new();
        let mut index: Vec<Vec<std::ops::Range<usize>>> = Vec::new();
        for s in &samples {
            let mut per_lane = Vec::new();
            if f.kind == Kind::SampleB {
                // Quads stay aligned to lanes 4k..4k+3.
                let start = words.len();
                for q in &s.quads {
                    for p in q {
                        words.push(cpu_words(f.kind, c.image.dim, p));
                    }
                }
                for g in 0..4 {
                    per_lane.push(start + g..words.len());
                }
            } else {
                for v in &s.variants {
                    let start = words.len();
                    for p in v {
                        words.push(cpu_words(f.kind, c.image.dim, p));
                    }
                    per_lane.push(start..words.len());
                }
            }
            index.push(per_lane);
        }
        let cpu = run_on_cpu(f.kind, &c, &wide, &words);
        // Native: one call per op (four for the gather of each component).
        let mut lanes: Vec<NativeLane> = samples.iter().flat_map(|s| s.native.clone()).collect();
        for l in lanes.iter_mut() {
            l.coords[0] += f.sabotage / c.image.width as f32;
        }
        let ops: Vec<NativeOp> = match f.kind {
            Kind::SampleL => vec![NativeOp::SampleLevel],
            Kind::SampleD | Kind::SampleB => vec![NativeOp::SampleGrad],
            Kind::Gather => (0..4).map(NativeOp::Gather).collect(),
            Kind::GatherC => vec![NativeOp::GatherCompare],
            Kind::SampleC => vec![NativeOp::SampleCompareLevel],
        };
        let mut native: Vec<Vec<f32>> = vec![Vec::new(); lanes.len()];
        for op in ops {
            let r = native::sample(g, &c.image, &c.sampler, op, &lanes)
                .unwrap_or_else(|e| panic!("{}: case {case_no}: {e}", f.name));
            for (k, v) in r.into_iter().enumerate() {
                native[k].extend_from_slice(&v);
            }
        }
        let linear_axes = if c.sampler.mag_linear || c.sampler.min_linear {
            axes(c.image.dim) as u32
        } else {
            0
        };
        let stages = linear_axes + u32::from(c.sampler.mip_linear);
        let magnitude = match c.image.format {
            NativeFormat::Rgba16Float | NativeFormat::R32Float => 2.0,
            _ => 1.0,
        };
        let mut k = 0;
        for (si, s) in samples.iter().enumerate() {
            for (gi, range) in index[si].iter().enumerate() {
                let nat = &native[k];
                k += 1;
                let mut cands: Vec<&Vec<f32>> = vec![&cpu_nominal[k - 1]];
                if f.kind == Kind::SampleB {
                    cands.extend(range.clone().step_by(4).map(|i| &cpu[i]));
                } else {
                    cands.extend(range.clone().map(|i| &cpu[i]));
                }
                let comps = match f.kind {
                    Kind::SampleC => 1,
                    Kind::Gather => 16,
                    _ => 4,
                };
                let tol = if f.kind.gather() {
                    // Texels unfiltered: the format's conversion only.
                    arithmetic_tolerance(&c, 0, magnitude)
                } else {
                    arithmetic_tolerance(&c, stages, magnitude)
                };
                let nominal = cands[0];
                let raw = (0..comps)
                    .map(|i| (nat[i] - nominal[i]).abs())
                    .fold(0.0f32, f32::max);
                let excess = if f.kind.gather() {
                    // Some candidate footprint must match as a whole.
                    cands
                        .iter()
                        .map(|cv| {
                            (0..comps)
                                .map(|i| ((nat[i] - cv[i]).abs() - tol).max(0.0))
                                .fold(0.0f32, f32::max)
                        })
                        .fold(f32::INFINITY, f32::min)
                } else {
                    (0..comps)
                        .map(|i| {
                            let lo = cands.iter().map(|cv| cv[i]).fold(f32::INFINITY, f32::min);
                            let hi = cands
                                .iter()
                                .map(|cv| cv[i])
                                .fold(f32::NEG_INFINITY, f32::max);
                            if nat[i].is_nan() {
                                f32::INFINITY
                            } else {
                                (lo - tol - nat[i]).max(nat[i] - hi - tol).max(0.0)
                            }
                        })
                        .fold(0.0f32, f32::max)
                };
                let describe = || {
                    let p = &s.nominal[gi];
                    format!(
                        "case {case_no} ({:?} {:?} {}x{}x{} {} levels, sampler {:?}), lane {gi}: \
                         point {:?}, native {:?}, cpu {:?}, {} candidates, tol {tol}",
                        c.image.dim,
                        c.image.format,
                        c.image.width,
                        c.image.height,
                        c.image.layers,
                        c.image.levels.len(),
                        c.sampler,
                        p,
                        &nat[..comps],
                        &nominal[..comps],
                        cands.len()
                    )
                };
                t.samples += 1;
                if (0..comps).all(|i| (nat[i] - nominal[i]).abs() <= tol) {
                    t.close += 1;
                }
                if excess == 0.0 {
                    t.within += 1;
                }
                if raw > t.max_raw.0 || t.max_raw.1.is_empty() {
                    t.max_raw = (raw, describe());
                }
                if excess > t.worst.0 {
                    t.worst = (excess, describe());
                }
            }
        }
        assert_eq!(k, native.len());
    }
    t
}

fn check(test: &str, f: &Family, seed: u64) {
    let Some(g) = gpu(test) else { return };
    let t = run_family(g, f, seed);
    let rate = 100.0 * t.within as f64 / t.samples.max(1) as f64;
    println!(
        "{}: {} samples on {}: {:.3} % within tolerance ({:.1} % equal to the nominal CPU \
         result within the arithmetic tolerance); largest |native - cpu| {:.6} at {}",
        f.name,
        t.samples,
        gpu::device::describe(&g.info),
        rate,
        100.0 * t.close as f64 / t.samples.max(1) as f64,
        t.max_raw.0,
        t.max_raw.1
    );
    assert!(t.samples >= 1000, "{}: only {} samples", f.name, t.samples);
    assert!(
        t.within == t.samples,
        "{}: {} of {} samples outside tolerance; worst (excess {}) {}",
        f.name,
        t.samples - t.within,
        t.samples,
        t.worst.0,
        t.worst.1
    );
}

const SEED: u64 = 0x6f72_6163_6c65;
const COLOR: &[NativeFormat] = &[
    NativeFormat::Rgba8Unorm,
    NativeFormat::Rgba8UnormSrgb,
    NativeFormat::Rgba16Float,
    NativeFormat::R32Float,
];
const D2: &[NativeDim] = &[NativeDim::D2];

#[test]
fn sample_l_point() {
    check(
        "sample_l_point",
        &Family {
            name: "image_sample_l point",
            kind: Kind::SampleL,
            dims: D2,
            formats: COLOR,
            filter: Filter::Point,
            cases: 24,
            per_case: 128,
            sabotage: 0.0,
        },
        SEED,
    );
}

#[test]
fn sample_l_bilinear() {
    check(
        "sample_l_bilinear",
        &Family {
            name: "image_sample_l bilinear",
            kind: Kind::SampleL,
            dims: D2,
            formats: COLOR,
            filter: Filter::Bilinear,
            cases: 24,
            per_case: 128,
            sabotage: 0.0,
        },
        SEED + 1,
    );
}

#[test]
fn sample_l_trilinear() {
    check(
        "sample_l_trilinear",
        &Family {
            name: "image_sample_l trilinear",
            kind: Kind::SampleL,
            dims: D2,
            formats: COLOR,
            filter: Filter::Trilinear,
            cases: 24,
            per_case: 128,
            sabotage: 0.0,
        },
        SEED + 2,
    );
}

#[test]
fn sample_l_arrays() {
    check(
        "sample_l_arrays",
        &Family {
            name: "image_sample_l 2D arrays",
            kind: Kind::SampleL,
            dims: &[NativeDim::D2Array],
            formats: COLOR,
            filter: Filter::Mixed,
            cases: 24,
            per_case: 128,
            sabotage: 0.0,
        },
        SEED + 3,
    );
}

#[test]
fn sample_l_3d() {
    check(
        "sample_l_3d",
        &Family {
            name: "image_sample_l 3D",
            kind: Kind::SampleL,
            dims: &[NativeDim::D3],
            formats: COLOR,
            filter: Filter::Mixed,
            cases: 24,
            per_case: 128,
            sabotage: 0.0,
        },
        SEED + 4,
    );
}

#[test]
fn sample_l_cube() {
    check(
        "sample_l_cube",
        &Family {
            name: "image_sample_l cube",
            kind: Kind::SampleL,
            dims: &[NativeDim::Cube],
            formats: COLOR,
            filter: Filter::Mixed,
            cases: 24,
            per_case: 128,
            sabotage: 0.0,
        },
        SEED + 5,
    );
}

#[test]
fn sample_d_2d() {
    check(
        "sample_d_2d",
        &Family {
            name: "image_sample_d 2D",
            kind: Kind::SampleD,
            dims: &[NativeDim::D2, NativeDim::D2Array],
            formats: COLOR,
            filter: Filter::Mixed,
            cases: 24,
            per_case: 128,
            sabotage: 0.0,
        },
        SEED + 6,
    );
}

#[test]
fn sample_d_3d_cube() {
    check(
        "sample_d_3d_cube",
        &Family {
            name: "image_sample_d 3D and cube",
            kind: Kind::SampleD,
            dims: &[NativeDim::D3, NativeDim::Cube],
            formats: COLOR,
            filter: Filter::Mixed,
            cases: 24,
            per_case: 128,
            sabotage: 0.0,
        },
        SEED + 7,
    );
}

#[test]
fn sample_b_quads() {
    check(
        "sample_b_quads",
        &Family {
            name: "image_sample_b (implicit quad derivatives + bias)",
            kind: Kind::SampleB,
            dims: &[NativeDim::D2, NativeDim::D2Array, NativeDim::Cube],
            formats: COLOR,
            filter: Filter::Mixed,
            cases: 24,
            per_case: 128,
            sabotage: 0.0,
        },
        SEED + 8,
    );
}

#[test]
fn gather4() {
    check(
        "gather4",
        &Family {
            name: "image_gather4_lz",
            kind: Kind::Gather,
            dims: &[NativeDim::D2, NativeDim::D2Array, NativeDim::Cube],
            formats: COLOR,
            filter: Filter::Mixed,
            cases: 24,
            per_case: 128,
            sabotage: 0.0,
        },
        SEED + 9,
    );
}

#[test]
fn sample_c_lz() {
    check(
        "sample_c_lz",
        &Family {
            name: "image_sample_c_lz",
            kind: Kind::SampleC,
            dims: &[NativeDim::D2, NativeDim::D2Array, NativeDim::Cube],
            formats: &[NativeFormat::Depth32Float],
            filter: Filter::Mixed,
            cases: 24,
            per_case: 128,
            sabotage: 0.0,
        },
        SEED + 10,
    );
}

#[test]
fn gather4_c_lz() {
    check(
        "gather4_c_lz",
        &Family {
            name: "image_gather4_c_lz",
            kind: Kind::GatherC,
            dims: &[NativeDim::D2, NativeDim::D2Array, NativeDim::Cube],
            formats: &[NativeFormat::Depth32Float],
            filter: Filter::Mixed,
            cases: 24,
            per_case: 128,
            sabotage: 0.0,
        },
        SEED + 11,
    );
}

/// The oracle can fail: the same bilinear family with the native coordinates
/// moved by 0.375 texel disagrees with the CPU on most samples.
#[test]
fn a_wrong_coordinate_is_caught() {
    let Some(g) = gpu("a_wrong_coordinate_is_caught") else {
        return;
    };
    let f = Family {
        name: "image_sample_l bilinear, native moved 0.375 texel",
        kind: Kind::SampleL,
        dims: D2,
        formats: COLOR,
        filter: Filter::Bilinear,
        cases: 4,
        per_case: 64,
        sabotage: 0.375,
    };
    let t = run_family(g, &f, SEED + 1);
    println!("{}: {} of {} within tolerance", f.name, t.within, t.samples);
    assert!(
        t.within * 2 < t.samples,
        "{} of {} samples agree with a moved coordinate",
        t.within,
        t.samples
    );
}

/// The throughput entry `gcn-run bench` calls: a positive, finite rate on a
/// trilinear 64×64 RGBA8 image, and errors (not panics) for nonsense input.
#[test]
fn bench_sample_level_reports_a_rate() {
    let Some(g) = gpu("bench_sample_level_reports_a_rate") else {
        return;
    };
    let mut rng = ChaCha8Rng::seed_from_u64(SEED);
    let mut image = NativeImage {
        dim: NativeDim::D2,
        format: NativeFormat::Rgba8Unorm,
        width: 64,
        height: 64,
        layers: 1,
        levels: Vec::new(),
    };
    for m in 0..7 {
        let (w, h, _) = image.level_size(m);
        image
            .levels
            .push(random_texels(&mut rng, image.format, (w * h) as usize));
    }
    let sampler = NativeSampler {
        mag_linear: true,
        min_linear: true,
        mip_linear: true,
        address: [NativeAddress::Repeat; 3],
        ..Default::default()
    };
    let rate = native::bench_sample_level(g, &image, &sampler, 4096, 0.2).unwrap();
    println!("native textureSampleLevel: {rate:.3e} lane ops/s");
    assert!(rate.is_finite() && rate > 0.0);
    assert!(native::bench_sample_level(g, &image, &sampler, 0, 0.2).is_err());
    assert!(native::bench_sample_level(g, &image, &sampler, 64, f64::NAN).is_err());
    image.levels[0].pop();
    assert!(native::bench_sample_level(g, &image, &sampler, 64, 0.2).is_err());
}
