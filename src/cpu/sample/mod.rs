//! IMAGE_SAMPLE*, IMAGE_GATHER4* and IMAGE_GET_LOD on the CPU
//! (docs/semantics/sampling.md). This module reads the operands (T#, S#,
//! address VGPRs of every lane of each 2×2 quad), computes the LOD, selects
//! mip levels and writes the results; the per-stage rules are the pure
//! functions of [`crate::texture::sample`], and [`view`] fetches and filters
//! the texels of one level.
//!
//! A16 and the 16-bit-gradient forms (`_g16`, and A16 on gfx9) are address
//! layouts ([`vaddr`](crate::texture::sample::vaddr)); TFE and LWE add a status dword ([`status`]).
//!
//! Refused by name (not executed yet, [`check::sampler_op`]):
//! `image_gather4h`, MSAA and tiled images, LWE on a T# that enables LOD
//! warnings, and S# border colour type 3 (the driver's border-colour table)
//! with a border mode.

pub mod view;

use super::OpError;
use crate::arch::{Arch, Gen};
use crate::check;
use crate::ir::image::{flag, AddrRegs, ImageKind, ImageOp, Opcode};
use crate::machine::{MemAccess, WaveState};
use crate::texture::convert::f32_to_f16;
use crate::texture::descriptor::{decode_sampler_checked, Image, ImageDesc, SamplerDesc};
use crate::texture::error::TextureError;
use crate::texture::format::{data_format, missing_component, NumFormat};
use crate::texture::resource::{read_tsharp, require_in_memory};
use crate::texture::sample::compare::reference_for;
use crate::texture::sample::coord::flush_denorm;
use crate::texture::sample::filter::{self, aniso_average, aniso_position};
use crate::texture::sample::lod::{self, mip_filter, Mips, LOD_ONE};
use crate::texture::sample::status;
use crate::texture::sample::vaddr::{Layout, Operands};
use crate::texture::swizzle::unbound_values;
use view::{LevelRead, View};

/// Reads and decodes the S# an instruction names: 4 SGPRs from `ssamp × 4`.
pub fn read_ssharp(m: &ImageOp, w: &WaveState, arch: &Arch) -> Result<SamplerDesc, TextureError> {
    let base = m.ssamp;
    let words: [u32; 4] = std::array::from_fn(|i| w.sgpr(base + i as u32));
    decode_sampler_checked(&words, arch.gen).map_err(|e| TextureError::in_sgprs(base, 4, e))
}

/// The LOD of one lane, in fixed point (sampling.md §5.3–5.4).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LaneLod {
    /// λ' = λ_base + biases, before the clamps (GET_LOD's second value).
    pub unclamped: i32,
    /// λ after MIN/MAX_LOD and `_cl` clamps.
    pub clamped: i32,
    /// Anisotropic samples and the normalized-coordinate step between them
    /// (`None` = isotropic).
    pub aniso: Option<(u32, [f32; 3])>,
}

/// The derivatives of a lane's coordinates: the `_d`/`_cd` operands, or
/// implicit coarse differences over its quad — `ddx = TR − TL`,
/// `ddy = BL − TL` for all four lanes, lanes 4k..4k+3 being TL, TR, BL, BR
/// (Mesa `ac_build_ddxy`; sampling.md §5.3). Coarse, one LOD per quad: which
/// difference the texture unit uses is not public (sampling.md §7 question 4),
/// and coarse is what a quad-based unit can compute once for four lanes.
/// Lanes that EXEC disables still supply their coordinates (helper lanes).
pub fn derivatives(
    o: &Operands,
    quad: [&Operands; 4],
    explicit: bool,
    axes: usize,
) -> ([f32; 3], [f32; 3]) {
    if explicit {
        return (o.ddx, o.ddy);
    }
    let mut ddx = [0.0f32; 3];
    let mut ddy = [0.0f32; 3];
    for a in 0..axes.min(3) {
        ddx[a] = flush_denorm(quad[1].coords[a]) - flush_denorm(quad[0].coords[a]);
        ddy[a] = flush_denorm(quad[2].coords[a]) - flush_denorm(quad[0].coords[a]);
    }
    (ddx, ddy)
}

/// λ for one lane: the base LOD (`_l` operand, 0 for `_lz`, else from the
/// derivatives scaled to texels of the view's level 0 — isotropic, or the
/// anisotropic footprint's when the S# asks for anisotropy), then the biases,
/// then the clamps (sampling.md §5.4).
///
/// WGSL twin: `lane_lod` in `shaders/sample.wgsl` (docs/gpu.md, "Twins").
pub fn lane_lod(view: &View, op: &Opcode, o: &Operands, ddx: [f32; 3], ddy: [f32; 3]) -> LaneLod {
    let s = view.sampler;
    let size = view.level_size(0);
    let scale = |d: [f32; 3]| -> [f32; 3] {
        let mut out = [0.0; 3];
        for (a, out) in out.iter_mut().enumerate().take(view.shape.axes) {
            *out = if view.normalized {
                flush_denorm(d[a]) * size[a] as f32
            } else {
                flush_denorm(d[a])
            };
        }
        out
    };
    let wants_aniso = lod::wants_aniso(s, view.integer());
    let mut aniso = None;
    let base = if op.has(flag::L) {
        lod::lod_from_f32(o.trailing)
    } else if op.has(flag::LZ) {
        0
    } else if wants_aniso {
        let a = lod::anisotropic(scale(ddx), scale(ddy), 1 << s.max_aniso);
        if a.taps > 1 {
            aniso = Some((a.taps, if a.along_x { ddx } else { ddy }));
        }
        a.lod
    } else {
        lod::lod_from_derivatives(scale(ddx), scale(ddy))
    };
    let shader_bias = if op.has(flag::B) {
        lod::lod_from_f32(o.bias)
    } else {
        0
    };
    let unclamped = lod::biased(base, i32::from(s.lod_bias), shader_bias);
    // T# MIN_LOD counts from resource level 0 (sampling.md §7 question 5):
    // relative to the view it is MIN_LOD − BASE_LEVEL.
    let t_min = view.desc.min_lod as i32 - i32::from(view.desc.base_level) * LOD_ONE;
    let cl = if op.has(flag::CL) {
        lod::lod_from_f32(o.trailing)
    } else {
        i32::MIN
    };
    let lo = i32::from(s.min_lod).max(t_min).max(cl);
    let clamped = lod::clamped(unclamped, lo, i32::from(s.max_lod));
    LaneLod {
        unclamped,
        clamped,
        aniso,
    }
}

/// The filter settings a lane's LOD selects: magnification when λ ≤ 0
/// (XY_MAG_FILTER), else minification (XY_MIN_FILTER); codes 1 and 3
/// (bilinear, aniso-bilinear) filter linearly. Z_FILTER 1 is point, 2 linear,
/// 0 follows the x/y filter (a documented choice). Integer images are always
/// point-sampled with point mip selection (the hardware forces nearest
/// filtering for integer formats; Mesa `lower_gather4_integer`).
///
/// WGSL twin: `view_filters` in `shaders/sample.wgsl` (docs/gpu.md, "Twins").
fn filters(view: &View, lambda: i32) -> (bool, bool, bool, u8) {
    let s = view.sampler;
    let xy = if lod::magnifies(lambda) {
        s.mag_filter
    } else {
        s.min_filter
    };
    let linear_xy = xy & 1 == 1;
    let linear_z = match s.z_filter {
        1 => false,
        2 => true,
        _ => linear_xy,
    };
    let aniso_filter = xy >= 2;
    if view.integer() {
        let mip = if s.mip_filter == mip_filter::NONE {
            mip_filter::NONE
        } else {
            mip_filter::POINT
        };
        return (false, false, false, mip);
    }
    (linear_xy, linear_z, aniso_filter, s.mip_filter)
}

/// One lane's IMAGE_SAMPLE result (X, Y, Z, W before DST_SEL).
///
/// WGSL twins: `VIEW_sample_lane` in `shaders/sample_view.wgsl`, and
/// `VIEW_sample_lane_isotropic` for views that cannot filter anisotropically
/// (docs/gpu.md, "Twins").
fn sample_lane(view: &View, m: &ImageOp, o: &Operands, l: &LaneLod) -> [f32; 4] {
    let (linear_xy, linear_z, aniso_filter, mipf) = filters(view, l.clamped);
    let compare = m.op.has(flag::C).then(|| {
        (
            reference_for(flush_denorm(o.reference), view.nf == NumFormat::Unorm),
            view.sampler.compare,
        )
    });
    let at_level = |level: u32| {
        let read = LevelRead {
            level,
            linear_xy,
            linear_z,
            offset: o.offset,
            compare,
        };
        match l.aniso {
            Some((n, step)) if aniso_filter => {
                let samples: Vec<[f32; 4]> = (0..n)
                    .map(|k| {
                        let p = aniso_position(k, n);
                        let mut c = o.coords;
                        for a in 0..view.shape.axes {
                            c[a] += step[a] * p;
                        }
                        view.sample_level(&read, c)
                    })
                    .collect();
                aniso_average(&samples)
            }
            _ => view.sample_level(&read, o.coords),
        }
    };
    match lod::select_mips(l.clamped, mipf, view.last_level()) {
        Mips::One(level) => at_level(level),
        Mips::Two { lo, weight } => filter::mip_blend(
            at_level(lo),
            at_level(lo + 1),
            weight,
            view.sampler.filter_mode,
        ),
    }
}

/// One lane's IMAGE_GATHER4 texels (gather order, before DST_SEL): one level,
/// chosen like a point-mipmapped sample (base level when MIP_FILTER is NONE;
/// the LOD is computed as for a sample, so `_l`, `_b`, `_lz` and `_cl` act as
/// they do there; sampling.md §5.8).
///
/// WGSL twin: `VIEW_gather_lane` in `shaders/sample_view.wgsl` (docs/gpu.md, "Twins").
fn gather_lane(view: &View, m: &ImageOp, o: &Operands, l: &LaneLod, gen: Gen) -> [[f32; 4]; 4] {
    let mipf = if view.sampler.mip_filter == mip_filter::NONE {
        mip_filter::NONE
    } else {
        mip_filter::POINT
    };
    let Mips::One(level) = lod::select_mips(l.clamped, mipf, view.last_level()) else {
        return [[0.0; 4]; 4];
    };
    let compare = m.op.has(flag::C).then(|| {
        (
            reference_for(flush_denorm(o.reference), view.nf == NumFormat::Unorm),
            view.sampler.compare,
        )
    });
    let read = LevelRead {
        level,
        linear_xy: true,
        linear_z: false,
        offset: o.offset,
        compare,
    };
    view.gather_level(&read, o.coords, gen <= Gen::Gfx8 && view.integer())
}

/// DST_SEL on a result: 0 → 0, 1 → one (1.0, or integer 1 for UINT/SINT),
/// 4..7 → X..W (sampling.md §3.4).
fn swizzle(v: [f32; 4], dst_sel: [u8; 4], nf: NumFormat) -> [u32; 4] {
    dst_sel.map(|s| match s {
        0 => 0,
        1 => missing_component(3, nf),
        s => v[usize::from(s - 4) & 3].to_bits(),
    })
}

/// The DMASK-selected components of `v`, in X, Y, Z, W order, and how many
/// there are; DMASK 0 returns one zero (sampling.md §3.4).
fn dmask_selected(v: [u32; 4], dmask: u32) -> ([u32; 4], usize) {
    let mut out = [0u32; 4];
    let mut n = 0;
    for c in (0..4).filter(|c| dmask >> c & 1 == 1) {
        out[n] = v[c];
        n += 1;
    }
    (out, n.max(1))
}

/// Writes returned values to consecutive VGPRs from `vdata`, then the TFE/LWE
/// status dword ([`status`]: 0, gcnrun models no partially resident textures;
/// sampling.md §5.12). With D16 each value is first narrowed to 16 bits — f32 → f16 rounded
/// to nearest even for float classes, the low 16 bits for UINT/SINT (the
/// hardware's integer narrowing is not public; truncation as for stores) — and
/// packed two per VGPR, low half first, where the generation packs D16
/// (`Arch::packed_d16`), else one per VGPR in the low half (sampling.md §3.3,
/// §5.13).
///
/// Inlined into the lane loop: as a call it was about 100 instructions a
/// lane, and the bilinear benchmark 5 % slower (docs/gpu.md, "Issue 17's
/// targets, measured again").
#[inline(always)]
fn write_values(
    w: &mut WaveState,
    m: &ImageOp,
    arch: &Arch,
    lane: u32,
    values: &[u32],
    integer: bool,
) {
    let r = m;
    // At most four values, so at most four dwords: no allocation per lane.
    // Values that need no narrowing are written from `values` itself: a copy
    // of a slice of at most 16 bytes became a call of memcpy for every lane.
    let mut packed = [0u32; 4];
    let dwords = if r.d16 {
        let half = |v: u32| {
            if integer {
                v & 0xffff
            } else {
                u32::from(f32_to_f16(f32::from_bits(v)))
            }
        };
        if arch.packed_d16 {
            for (k, p) in values.chunks(2).enumerate() {
                packed[k] = half(p[0]) | p.get(1).map_or(0, |&h| half(h) << 16);
            }
            &packed[..values.len().div_ceil(2)]
        } else {
            for (k, &v) in values.iter().enumerate() {
                packed[k] = half(v);
            }
            &packed[..values.len()]
        }
    } else {
        values
    };
    let n = dwords.len();
    for (k, &x) in dwords.iter().enumerate() {
        w.set_vgpr(r.vdata + k as u32, lane, x);
    }
    if status::has_status(m) {
        w.set_vgpr(r.vdata + n as u32, lane, status::STATUS);
    }
}

/// The component gather4 returns: the lowest DMASK bit (the ISA asks for
/// exactly one; DMASK 0 reads X — documented choices), of the texel after
/// DST_SEL (sampling.md §7 question 11).
fn gather_component(dmask: u32) -> usize {
    if dmask & 0xf == 0 {
        0
    } else {
        (dmask & 0xf).trailing_zeros() as usize
    }
}

/// Executes one sample, gather4 or get_lod for the wave.
pub fn execute(
    m: &ImageOp,
    w: &mut WaveState,
    mem: &MemAccess<'_>,
    arch: &Arch,
) -> Result<(), OpError> {
    let r = m;
    let kind = m.op.kind;
    if !matches!(
        kind,
        ImageKind::Sample | ImageKind::Gather4 | ImageKind::GetLod
    ) {
        return Err(OpError::NotSampler { op: m.name() });
    }
    check::sampler_op(m)?;
    status::check_lwe(m, &status::tsharp_words(m, |n| w.sgpr(n)), arch.gen)?;
    let desc = read_tsharp(m, w, arch)?;
    let sampler = read_ssharp(m, w, arch)?;
    // A wave has at most 64 lanes: listed in place, not in a Vec grown lane
    // by lane for every wave.
    let mut active = [0u32; 64];
    let mut count = 0;
    for (slot, lane) in active.iter_mut().zip(w.active_lanes()) {
        *slot = lane;
        count += 1;
    }
    let lanes = &active[..count];
    let d = match desc {
        Image::Bound(d) => d,
        // No resource: DST_SEL constants of a null view, zeros otherwise
        // (sampling.md §5.14; GET_LOD: zeros, D3D "if no resource is bound, 0").
        Image::Unbound | Image::Null { .. } => {
            let consts = unbound_values(&desc);
            for &lane in lanes {
                match kind {
                    ImageKind::Gather4 => write_values(
                        w,
                        m,
                        arch,
                        lane,
                        &[consts[gather_component(r.dmask)]; 4],
                        false,
                    ),
                    ImageKind::GetLod => {
                        let (v, n) = dmask_selected([0; 4], r.dmask);
                        write_values(w, m, arch, lane, &v[..n], false)
                    }
                    _ => {
                        let (v, n) = dmask_selected(consts, r.dmask);
                        write_values(w, m, arch, lane, &v[..n], false)
                    }
                }
            }
            return Ok(());
        }
    };
    execute_bound(m, w, mem, arch, &d, &sampler, lanes)
}

fn execute_bound(
    m: &ImageOp,
    w: &mut WaveState,
    mem: &MemAccess<'_>,
    arch: &Arch,
    d: &ImageDesc,
    sampler: &SamplerDesc,
    lanes: &[u32],
) -> Result<(), OpError> {
    let r = m;
    let checked = check::sample_view(m, d, sampler, arch)?;
    let shape = checked.shape;
    let surf = checked.surf;
    require_in_memory(d, &surf, mem.range())?;
    let df = data_format(d.data_format).ok_or(TextureError::DataFormat {
        code: d.data_format,
    })?;
    let nf = checked.nf;
    let view = View {
        desc: d,
        sampler,
        levels: crate::texture::layout::Levels::of(&surf),
        decoder: crate::texture::format::TexelDecoder::new(df, nf),
        df,
        nf,
        shape,
        normalized: checked.normalized,
        border: checked.border,
        mem,
    };
    let slots = Layout::of(m, shape).slots();
    let need = slots.last().map_or(0, |s| s.dword + 1);
    let listed = m.address_count(need as u32) as usize;
    if listed < need {
        return Err(OpError::SampleAddress {
            op: m.name(),
            image_type: d.image_type,
            needed: need,
            listed,
        });
    }
    // Every lane's operands, active or not: inactive lanes of a quad are
    // helper lanes whose coordinates still feed the derivatives. In place (a
    // wave has at most 64 lanes), not in a Vec allocated for every wave.
    let regs: [u32; AddrRegs::MAX_LISTED] = std::array::from_fn(|k| m.address_reg(k as u32));
    let reg = |k: usize| {
        regs.get(k)
            .copied()
            .unwrap_or_else(|| m.address_reg(k as u32))
    };
    let mut operands = [Operands::default(); 64];
    for (lane, o) in (0..w.wave_size).zip(operands.iter_mut()) {
        Layout::read_slots_into(&slots, |k| w.vgpr(reg(k), lane), o);
    }
    let explicit = m.op.gradients();
    // GET_LOD's values are floats whatever the image.
    let integer = nf.is_integer() && m.op.kind != ImageKind::GetLod;
    let mut last_lod = None;
    for &lane in lanes {
        let o = &operands[lane as usize];
        let q = (lane & !3) as usize;
        let quad = [
            &operands[q],
            &operands[q + 1],
            &operands[q + 2],
            &operands[q + 3],
        ];
        // lane_lod is a function of the derivatives and of the lane's `_l`/
        // `_cl` and `_b` operands alone. Implicit derivatives are the quad's
        // (`derivatives`), so a lane whose quad and `_l`/`_cl` and `_b` bits
        // are the previous lane's reuses its LOD; explicit ones are the lane's
        // own. (Keyed on the quad, not on the derivatives' values: copying
        // those arrays for the key stalled every lane on store forwarding.)
        let source = if explicit { lane as usize } else { q };
        let key = (source, o.trailing.to_bits(), o.bias.to_bits());
        let l = match last_lod {
            Some((k, l)) if k == key => l,
            _ => {
                let (ddx, ddy) = derivatives(o, quad, explicit, shape.axes);
                let l = lane_lod(&view, &m.op, o, ddx, ddy);
                last_lod = Some((key, l));
                l
            }
        };
        let out = match m.op.kind {
            ImageKind::GetLod => {
                // (clamped LOD within the view's levels, unclamped λ') as f32
                // (RDNA3 ISA IMAGE_GET_LOD; D3D `lod`; sampling.md §5.3).
                let within = l.clamped.clamp(0, view.last_level() as i32 * LOD_ONE);
                (
                    [
                        lod::lod_to_f32(within).to_bits(),
                        lod::lod_to_f32(l.unclamped).to_bits(),
                        0,
                        0,
                    ],
                    false,
                )
            }
            ImageKind::Gather4 => {
                let texels = gather_lane(&view, m, o, &l, arch.gen);
                let c = gather_component(r.dmask);
                (texels.map(|t| swizzle(t, d.dst_sel, nf)[c]), true)
            }
            _ => (swizzle(sample_lane(&view, m, o, &l), d.dst_sel, nf), false),
        };
        // Every lane's operands were read above, so writing this lane's
        // results now cannot change a later lane's inputs.
        let (v, four) = out;
        let (values, n) = if four {
            (v, 4)
        } else {
            dmask_selected(v, r.dmask)
        };
        write_values(w, m, arch, lane, &values[..n], integer);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: f32, t: f32) -> Operands {
        Operands {
            coords: [s, t, 0.0, 0.0],
            ..Operands::default()
        }
    }

    /// Coarse differences: every lane of a quad gets TR − TL and BL − TL, its
    /// own coordinates notwithstanding (BR never contributes).
    #[test]
    fn coarse_derivatives_come_from_the_quad() {
        let quad = [at(0.5, 0.5), at(0.75, 0.5), at(0.5, 1.0), at(9.0, 9.0)];
        let q = [&quad[0], &quad[1], &quad[2], &quad[3]];
        for lane in &quad {
            let (ddx, ddy) = derivatives(lane, q, false, 2);
            assert_eq!(ddx, [0.25, 0.0, 0.0]);
            assert_eq!(ddy, [0.0, 0.5, 0.0]);
        }
        // 1D: only s differs; explicit derivatives pass through.
        let (ddx, _) = derivatives(&quad[0], q, false, 1);
        assert_eq!(ddx, [0.25, 0.0, 0.0]);
        let mut o = at(0.0, 0.0);
        o.ddx = [1.0, 2.0, 3.0];
        o.ddy = [4.0, 5.0, 6.0];
        assert_eq!(
            derivatives(&o, q, true, 3),
            ([1.0, 2.0, 3.0], [4.0, 5.0, 6.0])
        );
    }

    /// T# MIN_LOD counts from resource level 0: 1.0 raises an explicit LOD 0 to
    /// 1.0 on a view starting at level 0, and does nothing on a view starting at
    /// level 1 (sampling.md §7 question 5).
    #[test]
    fn resource_min_lod_is_absolute() {
        use crate::ir::image::{flag, ImageType};
        use crate::texture::descriptor::decode_sampler;
        use crate::texture::resource::surface_of;
        use crate::texture::sample::vaddr::Shape;
        let mut desc = ImageDesc {
            base_address: 0,
            min_lod: 256,
            data_format: 4,
            num_format: 7,
            width: 8,
            height: 8,
            depth: 1,
            pitch: 8,
            dst_sel: [4, 0, 0, 1],
            base_level: 0,
            last_level: 3,
            tiling: 0,
            image_type: ImageType::D2,
            base_array: 0,
            last_array: 0,
        };
        // MAX_LOD = 0xfff (word 1 bits 23:12), everything else 0.
        let sampler = decode_sampler(&[0, 0xfff << 12, 0, 0]);
        let mut none = crate::machine::Memory::default();
        let mem = MemAccess::Direct(&mut none);
        let op = &Opcode {
            name: "image_sample_l",
            kind: ImageKind::Sample,
            flags: flag::L,
        };
        let o = Operands::default();
        for (base, want) in [(0u8, 256), (1, 0)] {
            desc.base_level = base;
            let view = View {
                desc: &desc,
                sampler: &sampler,
                levels: crate::texture::layout::Levels::of(&surface_of(&desc).unwrap()),
                decoder: crate::texture::format::TexelDecoder::new(
                    data_format(4).unwrap(),
                    NumFormat::Float,
                ),
                df: data_format(4).unwrap(),
                nf: NumFormat::Float,
                shape: Shape::of(ImageType::D2).unwrap(),
                normalized: true,
                border: None,
                mem: &mem,
            };
            let l = lane_lod(&view, op, &o, [0.0; 3], [0.0; 3]);
            assert_eq!((l.unclamped, l.clamped), (0, want), "base level {base}");
        }
    }

    #[test]
    fn gather_takes_the_lowest_dmask_bit() {
        assert_eq!(gather_component(0b0100), 2);
        assert_eq!(gather_component(0b0110), 1);
        assert_eq!(gather_component(0), 0);
    }

    #[test]
    fn swizzle_constants_follow_the_class() {
        let v = [0.25, 0.5, 0.75, 2.0];
        assert_eq!(
            swizzle(v, [7, 4, 0, 1], NumFormat::Float),
            [2.0f32.to_bits(), 0.25f32.to_bits(), 0, 1.0f32.to_bits()]
        );
        assert_eq!(swizzle([0.0; 4], [0, 0, 0, 1], NumFormat::Uint)[3], 1);
    }
}
