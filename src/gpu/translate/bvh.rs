//! IMAGE_BVH_INTERSECT_RAY and IMAGE_BVH64_INTERSECT_RAY in WGSL: the
//! translation of `cpu::bvh::execute`. The T# is known when the module is built
//! (translate.rs, "Specialisation"), so its fields become constants of a
//! `BvhDesc`; the lane's ray comes from its address VGPRs and the node from
//! image memory, through `shaders/bvh.wgsl`. A lane the CPU refuses (a node past
//! the T#'s size or outside memory, triangle types 2 and 3, a barycentric source
//! 3) records the instruction as the module's run-time fault (FAULT_WORD).

use super::{err, Emitter, TranslateError};
use crate::ir::image::flag;
use crate::ir::image::ImageOp;
use crate::machine::WaveState;
use crate::texture::bvh::grow_factor;
use crate::texture::bvh::{bvh_address_dwords, read_bvh_tsharp, require_gfx10_3};

/// `shaders/bvh.wgsl`.
const BVH: &str = include_str!("../../../shaders/bvh.wgsl");

/// Marks a fault record whose offset may be 0 (translate::FAULT_WORD).
pub(super) const FAULT_FLAG: u32 = 0x8000_0000;

/// Adds the library and the workgroup fault word once.
fn ensure_library(e: &mut Emitter) {
    if e.decls.contains("fn bvh_intersect(") {
        return;
    }
    e.decls.push('\n');
    e.decls.push_str(BVH);
    e.lane_faults = true;
}

/// A u64 as a WGSL `vec2<u32>` constant (low, high).
fn u64_const(v: u64) -> String {
    format!("vec2<u32>({:#x}u, {:#x}u)", v as u32, (v >> 32) as u32)
}

/// Emits one BVH instruction; `scalars` are the wave's SGPRs at this point.
pub(super) fn emit(
    e: &mut Emitter,
    offset: usize,
    m: &ImageOp,
    scalars: &WaveState,
) -> Result<(), TranslateError> {
    require_gfx10_3(m, &e.prog.arch).map_err(|x| err(offset, x))?;
    let d = read_bvh_tsharp(m, |n| scalars.sgpr(n)).map_err(|x| err(offset, x))?;
    ensure_library(e);
    let regs = m.address_list(bvh_address_dwords(m));
    let vals: Vec<String> = regs.iter().map(|&r| e.v_read(r)).collect();
    let at = |i: usize| vals.get(i).cloned().unwrap_or_else(|| "0u".into());
    let wide = m.op.has(flag::BVH64);
    let ptr = if wide {
        format!("vec2<u32>({}, {})", at(0), at(1))
    } else {
        format!("vec2<u32>({}, 0u)", at(0))
    };
    let first = if wide { 2 } else { 1 };
    let f = |i: usize| format!("bitcast<f32>({})", at(first + i));
    // cpu::bvh::lane_ray: A16 packs (dir.x, dir.y), (dir.z, inv.x), (inv.y, inv.z).
    let (dir, inv) = if m.a16 {
        let h = |i: usize, high: bool| {
            let w = at(first + 4 + i);
            if high {
                format!("f16_to_f32({w} >> 16u)")
            } else {
                format!("f16_to_f32({w} & 0xffffu)")
            }
        };
        (
            format!(
                "vec3<f32>({}, {}, {})",
                h(0, false),
                h(0, true),
                h(1, false)
            ),
            format!("vec3<f32>({}, {}, {})", h(1, true), h(2, false), h(2, true)),
        )
    } else {
        (
            format!("vec3<f32>({}, {}, {})", f(4), f(5), f(6)),
            format!("vec3<f32>({}, {}, {})", f(7), f(8), f(9)),
        )
    };
    let ray = format!(
        "BvhRay({}, vec3<f32>({}, {}, {}), {dir}, {inv})",
        f(0),
        f(1),
        f(2),
        f(3)
    );
    let desc = format!(
        "BvhDesc({}, {}, {}, bitcast<f32>({:#010x}u), {}, {})",
        u64_const(d.base_address),
        u64_const(d.last_unit),
        u64_const(e.mem.base),
        grow_factor(d.box_grow).to_bits(),
        d.box_sort,
        d.barycentrics
    );
    let code = offset as u32 | FAULT_FLAG;
    e.faults.insert(
        offset,
        format!(
            "`{}`: a lane's node pointer names a node past the BVH T#'s size or outside memory, or a triangle gcnrun refuses (types 2 and 3, barycentric source 3); the CPU run names the lane",
            m.name()
        ),
    );
    e.line("if lane_on {");
    e.line(&format!("    let r = bvh_intersect({ptr}, {ray}, {desc});"));
    e.line(&format!(
        "    if r.fault {{ fault = select(fault, {code:#x}u, fault == 0u); }}"
    ));
    let dst: Vec<Option<String>> = (0..4).map(|k| e.v(m.vdata + k)).collect();
    e.line("    else {");
    for (k, d) in dst.iter().enumerate() {
        if let Some(d) = d {
            let c = ["x", "y", "z", "w"][k];
            e.line(&format!("        {d} = r.v.{c};"));
        }
    }
    e.line("    }");
    e.line("}");
    Ok(())
}
