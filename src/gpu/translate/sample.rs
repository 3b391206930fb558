//! IMAGE_SAMPLE*, IMAGE_GATHER4* and IMAGE_GET_LOD in WGSL: the translation of
//! `crate::cpu::sample::execute` (docs/gpu.md, "Sampling on the GPU").
//!
//! The stage functions are the library `shaders/sample.wgsl`, added to a
//! module the first time it samples; the Rust tables it needs
//! (LOG2_THRESHOLDS, the anisotropic sample positions) are the host's
//! (`gpu::translate::tables`). Each (T#, S#) pair an
//! instruction reads becomes a *view*: a `View` constant holding the
//! descriptor fields, a texel function (surface address, format conversion,
//! denormal flush, degamma) and an instance of the template
//! `shaders/sample_view.wgsl`; identical views are emitted once per module.
//! The instruction itself becomes per-lane code: the address VGPRs by role,
//! the implicit derivatives exchanged through workgroup memory (every lane of
//! a quad, active or not, provides its coordinates, as on the CPU), the LOD,
//! the sample, gather or LOD, DST_SEL, DMASK, D16 and TFE.
//!
//! It is a child module of `translate` (declared there with `#[path]`) so that
//! it uses the `Emitter`'s helpers without widening their visibility.

use super::{err, footprint, texel, Emitter, TranslateError};
use crate::arch::Gen;
use crate::check;
use crate::gpu::translate::degamma;
use crate::ir::image::{flag, ImageKind, ImageOp};
use crate::texture::descriptor::{decode_sampler_checked, Image, ImageDesc, SamplerDesc};
use crate::texture::error::TextureError;
use crate::texture::format::{self, data_format, missing_component, NumFormat};
use crate::texture::sample::lod::LOD_ONE;
use crate::texture::sample::status;
use crate::texture::sample::vaddr::{Layout, Part, Role, Shape};
use crate::texture::swizzle::unbound_values;
use std::fmt::Write as _;
use std::hash::{Hash, Hasher};

/// `shaders/sample.wgsl`: the sampler's stage functions.
const SAMPLE: &str = include_str!("../../../shaders/sample.wgsl");
/// `shaders/sample_view.wgsl`: the per-view template (`VIEW` is the name).
const SAMPLE_VIEW: &str = include_str!("../../../shaders/sample_view.wgsl");

/// The lines of `VIEW_sample_level` that take the plain footprint, left out
/// of the views that are not plain.
const PLAIN_BRANCH: &str = "    if VIEW_PLAIN && !cmp_on {\n        return combine(VIEW_plain_footprint(level, coords, taps), VIEW.filter_mode);\n    }\n";

/// True for the instructions this module translates.
pub(super) fn is_sampler(m: &ImageOp) -> bool {
    matches!(
        m.op.kind,
        ImageKind::Sample | ImageKind::Gather4 | ImageKind::GetLod
    )
}

/// Adds the library and the quad-exchange array to the module once (its
/// tables are the host's, `gpu::translate::tables`).
fn ensure_library(e: &mut Emitter) {
    if e.decls.contains("fn half_log2_fixed(") {
        return;
    }
    e.decls.push('\n');
    e.decls.push_str(SAMPLE);
    e.decls.push_str(
        "\n// Coordinates of every lane, for the implicit derivatives of its quad.\nvar<workgroup> smp_quad: array<vec4<u32>, WAVE_SIZE>;\n",
    );
}

/// The component gather4 returns: the lowest DMASK bit, X for DMASK 0
/// (cpu::sample::gather_component).
fn gather_component(dmask: u32) -> usize {
    if dmask & 0xf == 0 {
        0
    } else {
        (dmask & 0xf).trailing_zeros() as usize
    }
}

/// DST_SEL of one component as a WGSL expression over the texel `t`
/// (cpu::sample::swizzle).
fn swizzle_expr(sel: u8, t: &str, nf: NumFormat) -> String {
    match sel {
        0 => "0u".into(),
        1 => format!("{}u", missing_component(3, nf)),
        s => format!("{t}.{}", ["x", "y", "z", "w"][usize::from(s - 4) & 3]),
    }
}

/// The DMASK-selected values, X to W; DMASK 0 returns one zero.
fn dmask_selected(v: [String; 4], dmask: u32) -> Vec<String> {
    let picked: Vec<String> = v
        .into_iter()
        .enumerate()
        .filter(|(c, _)| dmask >> c & 1 == 1)
        .map(|(_, x)| x)
        .collect();
    if picked.is_empty() {
        vec!["0u".into()]
    } else {
        picked
    }
}

/// Lines writing `values` to VGPRs from VDATA with D16 narrowing and packing,
/// then the TFE/LWE status dword (cpu::sample::write_values). Emitted inside the
/// lane's EXEC block.
fn write_values(e: &mut Emitter, m: &ImageOp, values: &[String], integer: bool) {
    let r = m;
    let dwords: Vec<String> = if r.d16 {
        let halves: Vec<String> = values
            .iter()
            .map(|v| {
                if integer {
                    format!("({v} & 0xffffu)")
                } else {
                    format!("f32_to_f16({v})")
                }
            })
            .collect();
        if e.prog.arch.packed_d16 {
            halves
                .chunks(2)
                .map(|p| match p.get(1) {
                    Some(h) => format!("({} | ({h} << 16u))", p[0]),
                    None => p[0].clone(),
                })
                .collect()
        } else {
            halves
        }
    } else {
        values.to_vec()
    };
    for (k, x) in dwords.iter().enumerate() {
        if let Some(p) = e.v(r.vdata + k as u32) {
            e.line(&format!("    {p} = {x};"));
        }
    }
    if status::has_status(m) {
        if let Some(p) = e.v(r.vdata + dwords.len() as u32) {
            e.line(&format!("    {p} = {}u;", status::STATUS));
        }
    }
}

/// Emits one sampler instruction; `ssharp` is the four SGPRs at SSAMP × 4,
/// `tsharp_words` the eight at SRSRC × 4 (`status::tsharp_words`).
pub(super) fn emit(
    e: &mut Emitter,
    offset: usize,
    m: &ImageOp,
    tsharp: Image,
    ssharp: [u32; 4],
    tsharp_words: &[u32; 8],
) -> Result<(), TranslateError> {
    let r = m;
    let arch = e.prog.arch;
    check::sampler_op(m).map_err(|x| err(offset, x))?;
    status::check_lwe(m, tsharp_words, arch.gen).map_err(|x| err(offset, x))?;
    let base = r.ssamp;
    let sampler = decode_sampler_checked(&ssharp, arch.gen)
        .map_err(|x| err(offset, TextureError::in_sgprs(base, 4, x)))?;
    let d = match tsharp {
        Image::Bound(d) => d,
        Image::Unbound | Image::Null { .. } => {
            let consts: [String; 4] = unbound_values(&tsharp).map(|v| format!("{v}u"));
            let values = match m.op.kind {
                ImageKind::Gather4 => vec![consts[gather_component(r.dmask)].clone(); 4],
                ImageKind::GetLod => dmask_selected(std::array::from_fn(|_| "0u".into()), r.dmask),
                _ => dmask_selected(consts, r.dmask),
            };
            e.line("if lane_on {");
            write_values(e, m, &values, false);
            e.line("}");
            return Ok(());
        }
    };
    emit_bound(e, offset, m, &d, &sampler)
}

/// What the per-lane code needs to know about a bound view.
struct ViewInfo {
    name: String,
    shape: Shape,
    nf: NumFormat,
    /// The S# asks for no anisotropy (`lod::wants_aniso` is false): a sample
    /// calls the view's `sample_lane_isotropic`.
    isotropic: bool,
}

/// The checks of cpu::sample::execute_bound, the view's declarations, and the
/// per-lane code.
fn emit_bound(
    e: &mut Emitter,
    offset: usize,
    m: &ImageOp,
    d: &ImageDesc,
    sampler: &SamplerDesc,
) -> Result<(), TranslateError> {
    let arch = e.prog.arch;
    let checked = check::sample_view(m, d, sampler, &arch).map_err(|x| err(offset, x))?;
    let (shape, surf, nf, normalized, border) = (
        checked.shape,
        checked.surf,
        checked.nf,
        checked.normalized,
        checked.border,
    );
    let view = declare_view(e, offset, d, sampler, shape, normalized, border, &surf)?;
    let view = ViewInfo {
        name: view,
        shape,
        nf,
        isotropic: !crate::texture::sample::lod::wants_aniso(sampler, nf.is_integer()),
    };
    emit_lanes(e, offset, m, d, &view)
}

/// Declares the view's constant, texel function and template instance (once
/// per module) and returns its name.
#[allow(clippy::too_many_arguments)]
fn declare_view(
    e: &mut Emitter,
    offset: usize,
    d: &ImageDesc,
    s: &SamplerDesc,
    shape: Shape,
    normalized: bool,
    border: Option<[u32; 4]>,
    surf: &crate::texture::layout::Surface,
) -> Result<String, TranslateError> {
    ensure_library(e);
    let df = data_format(d.data_format).ok_or_else(|| {
        err(
            offset,
            TextureError::DataFormat {
                code: d.data_format,
            },
        )
    })?;
    let nf = NumFormat::from_code(d.num_format)
        .ok_or_else(|| err(offset, TextureError::NumFormat { code: d.num_format }))?;
    let integer = nf.is_integer();
    let degamma = s.force_degamma && nf == NumFormat::Unorm;
    // BCn: the block decoder of shaders/bcn.wgsl; its 8-bit palettes take
    // FORCE_DEGAMMA as sRGB (texture::bcn; BC6H's half floats have no table).
    let bc = match df.layout {
        format::Layout::Block => {
            Some(crate::texture::bcn::check(df.code, nf).map_err(|e| err(offset, e))?)
        }
        _ => None,
    };
    if degamma && bc.is_some_and(|b| b.name == "bc6") {
        return Err(err(
            offset,
            "FORCE_DEGAMMA on data format bc6 (half floats) is not translated to WGSL yet",
        ));
    }
    // Components read the host's table (gpu::degamma), which stops at 16
    // bits (BCn formats list no components here).
    let untabulated = |&&(_, w): &&(u8, u8)| degamma::base(w.into()).is_none();
    if let (true, Some(&(_, w))) = (degamma, df.comps.iter().take(3).find(untabulated)) {
        return Err(err(
            offset,
            format!(
                "FORCE_DEGAMMA on data format {}: its {w}-bit UNORM components would need a table of 2^{w} sRGB values (the GPU tabulates up to {} bits)",
                df.name,
                degamma::MAX_WIDTH
            ),
        ));
    }
    let slices = d.last_array.saturating_sub(d.base_array) + 1;
    let layers = if shape.cube {
        (slices / 6).max(1)
    } else {
        slices
    };
    let last_level = u32::from(d.last_level.saturating_sub(d.base_level));
    let t_min = d.min_lod as i32 - i32::from(d.base_level) * LOD_ONE;
    let border = border.unwrap_or([0; 4]);
    let b = |x: bool| if x { "true" } else { "false" };
    let mut text = String::new();
    writeln!(
        text,
        "\nconst VIEW: View = View({}u, {}u, {}u, {}u, {last_level}u, {}u, {}, {}, {layers}u, {}, {}, {}, vec3<u32>({}u, {}u, {}u), vec4<u32>({}u, {}u, {}u, {}u), {}u, {}, {}u, {}u, {}u, {}u, {}u, {}, {}, {}, {t_min}, {}u);",
        d.width,
        d.height,
        d.depth,
        d.base_level,
        shape.axes,
        b(shape.layered),
        b(shape.cube),
        b(normalized),
        b(integer),
        b(nf == NumFormat::Unorm),
        s.clamp[0],
        s.clamp[1],
        s.clamp[2],
        border[0],
        border[1],
        border[2],
        border[3],
        s.filter_mode,
        b(s.disable_cube_wrap),
        s.mag_filter,
        s.min_filter,
        s.z_filter,
        s.mip_filter,
        s.max_aniso,
        s.lod_bias,
        s.min_lod,
        s.max_lod,
        s.compare,
    )
    .ok();
    // Every sample of the view takes View::plain_footprint: a 2D view of a
    // float class whose XY filters are both linear (codes 1 and 3) and whose
    // X and Y address modes have no border (0–3), so that every tap is a texel.
    let plain = shape.axes == 2
        && !shape.cube
        && !integer
        && s.mag_filter & 1 == 1
        && s.min_filter & 1 == 1
        && s.clamp[0] & 7 < 4
        && s.clamp[1] & 7 < 4;
    writeln!(text, "const VIEW_PLAIN: bool = {};", b(plain)).ok();
    // fetch_raw + texel_value (cpu::sample::view).
    let f = e.surface_fn(offset, surf, d.base_address)?;
    let bytes = df.bytes;
    let slice = if shape.layered {
        format!("{}u + slice", d.base_array)
    } else {
        "0u".into()
    };
    writeln!(
        text,
        "// View::fetch_raw and View::texel_value.\nfn VIEW_texel(level: u32, slice: u32, x: u32, y: u32, z: u32) -> vec4<u32> {{\n    let off = {f}({}u + level, {slice}, x, y, z);\n    if !mem_in_range(off, {bytes}u) {{\n        return vec4<u32>(0u);\n    }}\n    let raw = mem_read_texel(off, {bytes}u);",
        d.base_level
    )
    .ok();
    if let Some(bc) = bc {
        // fetch_raw decodes the texel from its block; texel_value's sRGB
        // decode (degamma) is the decoder's sRGB path on the 8-bit values.
        let code = if degamma {
            NumFormat::Srgb.code()
        } else {
            nf.code()
        };
        writeln!(
            text,
            "    let t = {}_texel(raw, {code}u, bcn_texel_index(x, y));",
            bc.name
        )
        .ok();
        if degamma {
            text.push_str("    return t;\n");
        } else {
            text.push_str("    return vec4<u32>(flush_denorm(t.x), flush_denorm(t.y), flush_denorm(t.z), flush_denorm(t.w));\n");
        }
    } else if integer {
        writeln!(text, "    return {};", texel::unpack(df, nf, "raw")).ok();
    } else if degamma
        || (nf == NumFormat::Srgb && df.comps.iter().take(3).find(untabulated).is_none())
    {
        // X, Y, Z are srgb_to_linear(unorm_to_f32(c, w)), read from the host's
        // table (checked above: every width has one): FORCE_DEGAMMA's decode
        // in texel_value, or the sRGB number format's in the texel decode,
        // which texel_value then flushes. W and absent components are as
        // load_texel gives them, flushed. (The sRGB number format's 8-bit
        // components once read the module constant SRGB8_TO_LINEAR: lavapipe
        // copied the 256 entries into a local array at every use, and one
        // FORCE_DEGAMMA sample of RGBA8 took 11 s to build.)
        let comp = |c: usize| match df.comps.get(c) {
            Some(&(lo, w)) if c < 3 => {
                let base = degamma::base(w.into()).unwrap_or(0);
                let v = format!("srgb_to_linear_table(get_bits(raw, {lo}u, {w}u), {base}u)");
                if degamma {
                    v
                } else {
                    format!("flush_denorm({v})")
                }
            }
            Some(&(lo, w)) => format!(
                "flush_denorm(bitcast<u32>(unorm_to_f32(get_bits(raw, {lo}u, {w}u), {w}u)))"
            ),
            None => format!("{}u", missing_component(c, nf)),
        };
        let comps = [comp(0), comp(1), comp(2), comp(3)];
        writeln!(text, "    return vec4<u32>({});", comps.join(", ")).ok();
    } else {
        writeln!(
            text,
            "    let t = {};\n    return vec4<u32>(flush_denorm(t.x), flush_denorm(t.y), flush_denorm(t.z), flush_denorm(t.w));",
            texel::unpack(df, nf, "raw")
        )
        .ok();
    }
    text.push_str("}\n");
    let template = if plain {
        SAMPLE_VIEW.to_string()
    } else {
        // The plain branch is dead for this view; left in, Mesa still built
        // it before dropping it (about 35 MB more at the peak of
        // `sample_compare.toml` on lavapipe).
        SAMPLE_VIEW.replace(PLAIN_BRANCH, "")
    };
    let filters = [s.mag_filter, s.min_filter, s.z_filter];
    let template = match footprint::fixed_counts(shape.axes, shape.cube, integer, filters) {
        Some(counts) => {
            text.push_str(&footprint::fixed_footprint("fixed_footprint", counts));
            template.replace(footprint::GENERAL_CALL, footprint::FIXED_CALL)
        }
        None => template,
    };
    // A block-compressed texel is a whole block's decode: four copies of
    // it unrolled cost lavapipe more to build than the loop's one
    // (`sample_bcn.toml` 3.3 s -> 4.3 s), so BCn views gather in the loop.
    if !shape.cube && bc.is_none() {
        let counts = footprint::GATHER_COUNTS;
        text.push_str(&footprint::fixed_footprint("gather_footprint", counts));
        text.push_str(&template.replace(footprint::GATHER_CALL, footprint::FIXED_GATHER_CALL));
    } else {
        text.push_str(&template);
    }
    let mut h = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut h);
    let name = format!("view_{:016x}", h.finish());
    if !e.decls.contains(&format!("const {name}: View")) {
        e.decls.push_str(&text.replace("VIEW", &name));
    }
    Ok(name)
}

/// The WGSL value (f32 bits as u32, the offset dword raw) of each address
/// operand, from `vaddr::Layout::slots` over the array `smp_a` of address
/// dwords: 32-bit operands as they are, f16 ones through `half_input`
/// (vaddr::Layout::read). Roles the layout lacks read `0u`.
struct Roles(std::collections::HashMap<Role, String>);

impl Roles {
    fn of(l: &Layout) -> Roles {
        Roles(
            l.slots()
                .into_iter()
                .map(|s| {
                    let d = format!("smp_a[{}]", s.dword);
                    let v = match s.part {
                        Part::Full => d,
                        Part::Low => format!("half_input({d} & 0xffffu)"),
                        Part::High => format!("half_input({d} >> 16u)"),
                    };
                    (s.role, v)
                })
                .collect(),
        )
    }

    fn at(&self, r: Role) -> String {
        self.0.get(&r).cloned().unwrap_or_else(|| "0u".into())
    }
}

/// The per-lane code of a bound sampler instruction (cpu::sample::execute_bound's
/// lane loop).
fn emit_lanes(
    e: &mut Emitter,
    offset: usize,
    m: &ImageOp,
    d: &ImageDesc,
    view: &ViewInfo,
) -> Result<(), TranslateError> {
    let r = m;
    let arch = e.prog.arch;
    let shape = view.shape;
    let layout = Layout::of(m, shape);
    let need = layout.dwords();
    let regs = m.address_list(need as u32);
    if regs.len() < need {
        return Err(err(
            offset,
            format!(
                "`{}` on a {:?} image needs {need} address VGPRs, the instruction names {}",
                m.name(),
                d.image_type,
                regs.len()
            ),
        ));
    }
    let ro = Roles::of(&layout);
    let a: Vec<String> = regs[..need].iter().map(|&n| e.v_read(n)).collect();
    e.line(&format!(
        "let smp_a = array<u32, {need}>({});",
        a.join(", ")
    ));
    let c: Vec<String> = (0..4).map(|i| ro.at(Role::Coord(i))).collect();
    e.line(&format!("let coords = vec4<u32>({});", c.join(", ")));
    let explicit = m.op.gradients();
    let needs_quad = !explicit && !m.op.has(flag::L) && !m.op.has(flag::LZ);
    if explicit {
        let g = |role: fn(usize) -> Role| -> String {
            let x: Vec<String> = (0..3).map(|i| ro.at(role(i))).collect();
            format!("vec3<u32>({})", x.join(", "))
        };
        e.line(&format!("let ddx = {};", g(Role::Ddx)));
        e.line(&format!("let ddy = {};", g(Role::Ddy)));
    } else if needs_quad {
        // Coarse differences over the quad (cpu::sample::derivatives): every
        // lane, active or not, publishes its coordinates; barriers are outside
        // the EXEC condition, in uniform control flow.
        e.line("smp_quad[lane] = coords;");
        e.line("workgroupBarrier();");
        e.line("let q = lane & ~3u;");
        let diff = |other: &str, comp: &str, axis: usize| {
            if axis < shape.axes {
                format!(
                    "bitcast<u32>(bitcast<f32>(flush_denorm(smp_quad[q + {other}].{comp})) - bitcast<f32>(flush_denorm(smp_quad[q].{comp})))"
                )
            } else {
                "0u".into()
            }
        };
        let comps = ["x", "y", "z"];
        let dx: Vec<String> = (0..3).map(|i| diff("1u", comps[i], i)).collect();
        let dy: Vec<String> = (0..3).map(|i| diff("2u", comps[i], i)).collect();
        e.line(&format!("let ddx = vec3<u32>({});", dx.join(", ")));
        e.line(&format!("let ddy = vec3<u32>({});", dy.join(", ")));
        e.line("workgroupBarrier();");
    } else {
        e.line("let ddx = vec3<u32>(0u);");
        e.line("let ddy = vec3<u32>(0u);");
    }
    let mut flags = 0u32;
    for (f, bit) in [(flag::L, 1u32), (flag::LZ, 2), (flag::B, 4), (flag::CL, 8)] {
        if m.op.has(f) {
            flags |= bit;
        }
    }
    let name = &view.name;
    let nf = view.nf;
    e.line("if lane_on {");
    e.line(&format!(
        "    let l = lane_lod({name}, {flags}u, {}, {}, ddx, ddy);",
        ro.at(Role::Bias),
        ro.at(Role::Trailing)
    ));
    let cmp_on = m.op.has(flag::C);
    let cmp_ref = if cmp_on {
        format!(
            "reference_for(flush_denorm({}), {})",
            ro.at(Role::Reference),
            nf == NumFormat::Unorm
        )
    } else {
        "0u".into()
    };
    let off = ro.at(Role::Offset);
    match m.op.kind {
        ImageKind::GetLod => {
            e.line(&format!(
                "    let within = clamp(l.clamped, 0, {}i * LOD_ONE);",
                u32::from(d.last_level.saturating_sub(d.base_level))
            ));
            let vals = [
                "bitcast<u32>(lod_to_f32(within))".to_string(),
                "bitcast<u32>(lod_to_f32(l.unclamped))".into(),
                "0u".into(),
                "0u".into(),
            ];
            let values = dmask_selected(vals, r.dmask);
            write_values(e, m, &values, false);
        }
        ImageKind::Gather4 => {
            let point_footprint = arch.gen <= Gen::Gfx8 && nf.is_integer();
            e.line(&format!(
                "    let g = {name}_gather_lane({off}, {cmp_on}, {cmp_ref}, coords, l, {point_footprint});"
            ));
            let sel = d.dst_sel[gather_component(r.dmask)];
            let values: Vec<String> = (0..4)
                .map(|k| swizzle_expr(sel, &format!("g[{k}]"), nf))
                .collect();
            write_values(e, m, &values, nf.is_integer());
        }
        _ => {
            let lane = if view.isotropic {
                "sample_lane_isotropic"
            } else {
                "sample_lane"
            };
            e.line(&format!(
                "    let t = {name}_{lane}({off}, {cmp_on}, {cmp_ref}, coords, l);"
            ));
            let sw: [String; 4] = d.dst_sel.map(|s| swizzle_expr(s, "t", nf));
            let values = dmask_selected(sw, r.dmask);
            write_values(e, m, &values, nf.is_integer());
        }
    }
    e.line("}");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Views that are not plain leave the plain branch out of their
    /// `VIEW_sample_level` by its text: the template must hold it verbatim.
    #[test]
    fn the_template_holds_the_plain_branch() {
        assert!(SAMPLE_VIEW.contains(PLAIN_BRANCH));
    }
}
