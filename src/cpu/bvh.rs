//! IMAGE_BVH_INTERSECT_RAY and IMAGE_BVH64_INTERSECT_RAY on the CPU
//! (docs/semantics/bvh.md): per active lane, the ray from
//! the address VGPRs, one node from memory, and the four result dwords of
//! [`crate::texture::bvh`]'s tests.

use super::OpError;
use crate::arch::Arch;
use crate::ir::image::{flag, ImageOp};
use crate::machine::{MemAccess, WaveState};
use crate::texture::bvh::{
    box16_bounds, box32_bounds, bvh_address_dwords, intersect_box_node, intersect_triangle,
    read_bvh_tsharp, require_gfx10_3, triangle_vertices, BvhDesc, NodeKind, Ray, TriangleRefusal,
    INVALID_NODE, NODE_UNIT, TRIANGLE_ID_DWORD,
};
use crate::texture::convert::f16_to_f32;

/// The node pointer and ray a lane's address VGPRs hold.
///
/// Order (the RDNA ISA text, "VGPR_A Field Organization"; LLVM's lowering of
/// `llvm.amdgcn.image.bvh.intersect.ray`): node pointer (two dwords, low first,
/// for bvh64), ray extent, origin xyz, direction xyz, inverse direction xyz.
/// A16 on gfx10.3 packs direction and inverse direction as f16 pairs, low half
/// first, into three dwords: (dir.x, dir.y), (dir.z, inv.x), (inv.y, inv.z)
/// (LLVM test `llvm.amdgcn.intersect_ray.ll`, GFX10 `image_bvh_intersect_ray_a16`:
/// `s_pack_ll_b32_b16 s6, s6, s7` puts dir.z beside inv.x; docs/errata.md B1).
/// The halves widen to f32 exactly.
pub fn lane_ray(m: &ImageOp, vgpr: impl Fn(u32) -> u32) -> (u64, Ray) {
    let regs = m.address_list(bvh_address_dwords(m));
    let at = |i: usize| regs.get(i).map_or(0, |&r| vgpr(r));
    let wide = m.op.has(flag::BVH64);
    let pointer = if wide {
        u64::from(at(0)) | (u64::from(at(1)) << 32)
    } else {
        u64::from(at(0))
    };
    let first = if wide { 2 } else { 1 };
    let f = |i: usize| f32::from_bits(at(first + i));
    let origin = [f(1), f(2), f(3)];
    let (dir, inv_dir) = if m.a16 {
        let h = |i: usize, high: bool| {
            let w = at(first + 4 + i);
            f16_to_f32(if high { (w >> 16) as u16 } else { w as u16 })
        };
        (
            [h(0, false), h(0, true), h(1, false)],
            [h(1, true), h(2, false), h(2, true)],
        )
    } else {
        ([f(4), f(5), f(6)], [f(7), f(8), f(9)])
    };
    (
        pointer,
        Ray {
            extent: f(0),
            origin,
            dir,
            inv_dir,
        },
    )
}

/// Why a lane's node cannot be tested: each names the node pointer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NodeError {
    /// The node's last unit lies past the T#'s `size`.
    #[error("node pointer {pointer:#x} lies past the BVH T#'s {} node units (the hardware's out-of-bounds result is not public)", *last_unit + 1)]
    PastSize {
        /// The node pointer.
        pointer: u64,
        /// The T#'s `size` field (the last unit).
        last_unit: u64,
    },
    /// The node's address overflows 64 bits.
    #[error("node pointer {pointer:#x} overflows the address space")]
    Overflow {
        /// The node pointer.
        pointer: u64,
    },
    /// The node's bytes are not all in memory.
    #[error("node pointer {pointer:#x} reads [{addr:#x}, {end:#x}) outside memory [{base:#x}, {limit:#x})")]
    OutsideMemory {
        /// The node pointer.
        pointer: u64,
        /// The node's first byte.
        addr: u64,
        /// One past its last (saturating).
        end: u64,
        /// Memory's first address.
        base: u64,
        /// One past its last.
        limit: u64,
    },
    /// A triangle node gcnrun does not test.
    #[error("{}", crate::cpu::bvh::refusal(*refusal, *pointer))]
    Triangle {
        /// The node pointer.
        pointer: u64,
        /// Why.
        refusal: TriangleRefusal,
    },
}

/// The byte address of the node a pointer names, after the T# bounds check:
/// `base + (pointer >> 3) × 64`. A node whose last 64-byte unit lies past the
/// T#'s `size` is refused: the ISA text says only that `size` is "used for
/// bounds checking", not what the instruction then returns.
pub fn node_address(d: &BvhDesc, pointer: u64, kind: NodeKind) -> Result<u64, NodeError> {
    let unit = pointer >> 3;
    let last = unit.checked_add(kind.units() - 1);
    if last.is_none_or(|l| l > d.last_unit) {
        return Err(NodeError::PastSize {
            pointer,
            last_unit: d.last_unit,
        });
    }
    unit.checked_mul(NODE_UNIT)
        .and_then(|o| o.checked_add(d.base_address))
        .ok_or(NodeError::Overflow { pointer })
}

/// The node's dwords, or an error when they are not all in memory (a
/// descriptor or pointer outside the launch's memory is bad input, as for
/// image T#s: docs/semantics/resources.md, "Descriptors outside memory").
fn read_node(
    mem: &MemAccess<'_>,
    addr: u64,
    bytes: u32,
    pointer: u64,
) -> Result<Vec<u32>, NodeError> {
    let data = mem
        .read(addr, bytes)
        .ok_or_else(|| NodeError::OutsideMemory {
            pointer,
            addr,
            end: addr.saturating_add(u64::from(bytes)),
            base: mem.range().start,
            limit: mem.range().end,
        })?;
    Ok(data
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect())
}

/// The four result dwords for one lane.
///
/// WGSL twin: `bvh_intersect` in `shaders/bvh.wgsl` (docs/gpu.md, "Twins").
pub fn intersect(
    d: &BvhDesc,
    pointer: u64,
    ray: &Ray,
    mem: &MemAccess<'_>,
) -> Result<[u32; 4], NodeError> {
    let kind = NodeKind::of(pointer);
    // Instance and procedural nodes: GPURT's emulation returns all ones
    // without reading the node ("User defined instance node or procedural
    // node. HW returns -1").
    if matches!(kind, NodeKind::Instance | NodeKind::Procedural) {
        return Ok([INVALID_NODE; 4]);
    }
    if let NodeKind::Triangle(k) = kind {
        if triangle_vertices(k).is_none() {
            return Err(NodeError::Triangle {
                pointer,
                refusal: TriangleRefusal::NodeType(k),
            });
        }
    }
    let addr = node_address(d, pointer, kind)?;
    let words = read_node(mem, addr, kind.bytes_read(), pointer)?;
    let children = [words[0], words[1], words[2], words[3]];
    match kind {
        NodeKind::Box32 => {
            let boxes = std::array::from_fn(|i| box32_bounds(&words, i));
            Ok(intersect_box_node(children, &boxes, ray, d))
        }
        NodeKind::Box16 => {
            let boxes = std::array::from_fn(|i| box16_bounds(&words, i));
            Ok(intersect_box_node(children, &boxes, ray, d))
        }
        NodeKind::Triangle(k) => {
            let slots = triangle_vertices(k).unwrap_or([0, 1, 2]);
            let vertex = |s: usize| std::array::from_fn(|c| f32::from_bits(words[3 * s + c]));
            let verts = slots.map(vertex);
            intersect_triangle(verts, words[TRIANGLE_ID_DWORD], k, ray, d.barycentrics)
                .map_err(|refusal| NodeError::Triangle { pointer, refusal })
        }
        NodeKind::Instance | NodeKind::Procedural => Ok([INVALID_NODE; 4]),
    }
}

/// The one-line refusal of a triangle node gcnrun does not test.
pub fn refusal(r: TriangleRefusal, pointer: u64) -> String {
    match r {
        TriangleRefusal::NodeType(k) => format!(
            "node pointer {pointer:#x} names triangle node type {k}: public sources disagree on its vertices (docs/errata.md B3)"
        ),
        TriangleRefusal::BarySource(s) => format!(
            "node pointer {pointer:#x}: the triangle ID's barycentric source {s} names no vertex"
        ),
    }
}

/// Executes one BVH instruction for the wave: every active lane writes its four
/// result dwords to VDATA..VDATA+3. The first lane that cannot run stops the
/// wave with an error naming it.
pub fn execute(
    m: &ImageOp,
    w: &mut WaveState,
    mem: &MemAccess<'_>,
    arch: &Arch,
) -> Result<(), OpError> {
    require_gfx10_3(m, arch)?;
    let d = read_bvh_tsharp(m, |n| w.sgpr(n))?;
    let lanes = w.active_lanes();
    for lane in lanes {
        let (pointer, ray) = lane_ray(m, |r| w.vgpr(r, lane));
        let out =
            intersect(&d, pointer, &ray, mem).map_err(|source| OpError::Bvh { lane, source })?;
        for (k, v) in out.iter().enumerate() {
            w.set_vgpr(m.vdata + k as u32, lane, *v);
        }
    }
    Ok(())
}
