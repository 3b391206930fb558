//! RDNA 2 ray tracing: the BVH T#, the node layouts and the ray/box and
//! ray/triangle tests of `image_bvh_intersect_ray` / `image_bvh64_intersect_ray`
//! (docs/semantics/bvh.md). Pure arithmetic on values already
//! read from memory; `cpu::bvh` reads the VGPRs and the nodes, and
//! `shaders/bvh.wgsl` mirrors every function here by name (`bvh_` prefix).
//!
//! Sources, each cited where it is used:
//! - the RDNA ISA text, "BVH Texture Resource Definition" and "Ray Tracing Return
//!   Mode" tables (the RDNA 4 text, whose gfx10.3 subset PAL's `sq_bvh_rsrc_t`
//!   for Navi 2x spells field by field);
//! - AMD GPURT `src/shaders/IntersectCommon.hlsl`, the vendor's software
//!   emulation of the instruction (`fast_intersect_bbox`, `IntersectNode`,
//!   `fast_intersect_triangle`, `SwizzleBarycentrics`,
//!   `image_bvh64_intersect_ray_base`), and its node layouts (`TriangleNode`,
//!   `Float32BoxNode`, `UncompressBBoxFromUint3`, `CalcTriangleVertexOffsets`);
//! - Mesa radv `bvh/bvh.h` (`radv_bvh_box32_node`, `radv_bvh_box16_node`,
//!   `radv_bvh_triangle_node`), which agrees with GPURT on every offset used here.
//!
//! Where the hardware's exact arithmetic is not public, the arithmetic is
//! GPURT's emulation, operation by operation, every product and sum rounded on
//! its own (no fused multiply-add) and evaluated left to right.

/// Refuses what gcnrun does not execute: gfx11's BVH ops (its T# adds a box
/// sorting heuristic and pointer flags, and its A16 form pairs each direction
/// component with its inverse), and gfx1013's (LLVM assembles them for that
/// gfx10.1 part, but the node formats gcnrun models come from gfx10.3's GPURT
/// and Mesa code, and no public source says gfx1013's agree), so only gfx10.3 runs.
pub fn require_gfx10_3(m: &ImageOp, arch: &Arch) -> Result<(), TextureError> {
    if arch.gen != Gen::Gfx10 {
        return Err(TextureError::BvhGen {
            op: m.name(),
            gen: arch.gen,
        });
    }
    if !arch.gfx10_3 {
        return Err(TextureError::BvhPart {
            op: m.name(),
            mcpu: arch.mcpu,
        });
    }
    Ok(())
}

/// The BVH T#: four SGPRs from SRSRC × 4 (R128 is mandatory).
pub fn read_bvh_tsharp(m: &ImageOp, sgpr: impl Fn(u32) -> u32) -> Result<BvhDesc, TextureError> {
    let base = m.srsrc;
    decode_bvh(std::array::from_fn(|i| sgpr(base + i as u32)))
        .map_err(|e| TextureError::in_sgprs(base, 4, e))
}

/// Address dwords of a BVH op: node pointer (1, bvh64: 2), extent, origin (3),
/// direction and inverse direction (6, or 3 packed f16 dwords with A16).
pub fn bvh_address_dwords(m: &ImageOp) -> u32 {
    let node = if m.op.has(flag::BVH64) { 2 } else { 1 };
    node + 1 + 3 + if m.a16 { 3 } else { 6 }
}

use super::error::{DescriptorError, TextureError};
use crate::arch::{Arch, Gen};
use crate::ir::image::{flag, ImageOp};
#[cfg(test)]
use crate::texture::convert::CANONICAL_NAN;
use crate::texture::convert::{canonical_nan_bits, f16_to_f32};

/// A child slot the ray misses, and the value every result dword takes for
/// instance and procedural nodes (GPURT `INVALID_NODE`).
pub const INVALID_NODE: u32 = 0xffff_ffff;

/// Bytes per unit of a node pointer's address part: nodes are 64-byte aligned
/// and the pointer holds `address >> 3` with the type in bits 2:0, so the node's
/// byte offset from the T# base is `(pointer >> 3) × 64` (GPURT
/// `CalculateRawBvh64NodePointer`: `(bvhAddress >> 3) + nodePointer`; Mesa radv
/// `build_node_to_addr`: `(node & ~7) << 3`).
pub const NODE_UNIT: u64 = 64;

/// The BVH T# (128 bits; R128 is mandatory for the BVH ops).
///
/// Layout (RDNA ISA "BVH Resource Definition"; PAL `sq_bvh_rsrc_t` for Navi 2x):
/// bits 39:0 `base_address[47:8]`, 62:55 `box_grow_value`, 63 `box_sort_en`,
/// 105:64 `size` (64-byte nodes in the BVH minus one, "used for bounds
/// checking"), 120 `triangle_return_mode`, 123 `big_page`, 127:124 `type`
/// (must be 8). The other bits are reserved on gfx10.3 (gfx11 gives some of them
/// meanings) and are ignored, as is `big_page`, a paging hint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BvhDesc {
    /// Byte address of the BVH (256-byte aligned).
    pub base_address: u64,
    /// The `size` field: the index of the last 64-byte node unit.
    pub last_unit: u64,
    /// `box_grow_value`: ULPs (of 2^-24) by which the box test grows an interval.
    pub box_grow: u8,
    /// `box_sort_en`: box results in entry-distance order.
    pub box_sort: bool,
    /// `triangle_return_mode` = 1: triangles return barycentric numerators.
    pub barycentrics: bool,
    /// `big_page` (no effect on results).
    pub big_page: bool,
}

/// The T# `type` field value of a BVH resource.
pub const BVH_TYPE: u32 = 8;

/// Decodes the four T# dwords; anything but type 8 is refused (the ISA text:
/// "Must be set to 0x08"), since what else the hardware does with it is not
/// public.
pub fn decode_bvh(w: [u32; 4]) -> Result<BvhDesc, DescriptorError> {
    let ty = w[3] >> 28;
    if ty != BVH_TYPE {
        return Err(DescriptorError::NotBvh { ty });
    }
    Ok(BvhDesc {
        base_address: (u64::from(w[0]) | (u64::from(w[1] & 0xff) << 32)) << 8,
        last_unit: u64::from(w[2]) | (u64::from(w[3] & 0x3ff) << 32),
        box_grow: ((w[1] >> 23) & 0xff) as u8,
        box_sort: w[1] >> 31 != 0,
        barycentrics: (w[3] >> 24) & 1 != 0,
        big_page: (w[3] >> 27) & 1 != 0,
    })
}

/// Encodes a BVH T# (the manifest's `{ bvh = … }`); the base address must be
/// 256-byte aligned and below 2^48, the size below 2^42 units.
pub fn encode_bvh(d: &BvhDesc) -> Result<[u32; 4], DescriptorError> {
    if d.base_address & 0xff != 0 || d.base_address >> 48 != 0 {
        return Err(DescriptorError::BvhAddress {
            address: d.base_address,
        });
    }
    if d.last_unit >> 42 != 0 {
        return Err(DescriptorError::BvhSize { units: d.last_unit });
    }
    let base = d.base_address >> 8;
    Ok([
        base as u32,
        (base >> 32) as u32 | u32::from(d.box_grow) << 23 | u32::from(d.box_sort) << 31,
        d.last_unit as u32,
        (d.last_unit >> 32) as u32
            | u32::from(d.barycentrics) << 24
            | u32::from(d.big_page) << 27
            | BVH_TYPE << 28,
    ])
}

/// What a node pointer's type bits (2:0) name (GPURT `GetNodeType`, "From the
/// HW raytracing spec: node_type = node_pointer\[2:0\]"; Mesa radv
/// `radv_bvh_node_*`: 0 triangle, 4 box16, 5 box32, 6 instance, 7 AABB).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// Types 0–3: triangle `k` of a (possibly compressed) triangle node.
    Triangle(u32),
    /// Type 4: four children with f16 bounds (64 bytes).
    Box16,
    /// Type 5: four children with f32 bounds (128 bytes).
    Box32,
    /// Type 6: an instance node (user node on gfx10.3).
    Instance,
    /// Type 7: a procedural (AABB) node.
    Procedural,
}

impl NodeKind {
    /// The kind a node pointer's low three bits name.
    pub fn of(pointer: u64) -> NodeKind {
        match pointer & 7 {
            t @ 0..=3 => NodeKind::Triangle(t as u32),
            4 => NodeKind::Box16,
            5 => NodeKind::Box32,
            6 => NodeKind::Instance,
            _ => NodeKind::Procedural,
        }
    }

    /// Bytes of the node the instruction reads (0: none). Box32: children and
    /// 24 bounds (112 of its 128 bytes); box16: 64; triangle: vertices v0–v3 and
    /// the triangle ID at byte 60 (GPURT `TRIANGLE_NODE_ID_OFFSET`), 64.
    pub fn bytes_read(self) -> u32 {
        match self {
            NodeKind::Box32 => 112,
            NodeKind::Box16 | NodeKind::Triangle(_) => 64,
            NodeKind::Instance | NodeKind::Procedural => 0,
        }
    }

    /// 64-byte units the node occupies (box32: two; the others one).
    pub fn units(self) -> u64 {
        if self == NodeKind::Box32 {
            2
        } else {
            1
        }
    }
}

/// A ray as the address VGPRs give it (all f32; A16 directions already
/// widened exactly from f16).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ray {
    /// `ray_extent`: the ray's t_max.
    pub extent: f32,
    /// Origin.
    pub origin: [f32; 3],
    /// Direction (the triangle test).
    pub dir: [f32; 3],
    /// Inverse direction (the box test).
    pub inv_dir: [f32; 3],
}

/// An axis-aligned box.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Aabb {
    /// Lower corner.
    pub min: [f32; 3],
    /// Upper corner.
    pub max: [f32; 3],
}

/// minNum: a NaN operand yields the other operand, else the lesser (ties give
/// `b`). GPURT's `min`/`min3` compile to V_MIN_F32/V_MIN3_F32, whose IEEE mode
/// returns the non-NaN operand; written out so that the WGSL mirror
/// (`bvh_min`) gives the same bits on any driver.
pub fn min_num(a: f32, b: f32) -> f32 {
    if a.is_nan() {
        b
    } else if b.is_nan() || a < b {
        a
    } else {
        b
    }
}

/// maxNum, the counterpart of [`min_num`] (ties give `b`).
///
/// WGSL twin: `bvh_max` in `shaders/bvh.wgsl` (docs/gpu.md, "Twins").
pub fn max_num(a: f32, b: f32) -> f32 {
    if a.is_nan() {
        b
    } else if b.is_nan() || a > b {
        a
    } else {
        b
    }
}

/// The ray's entry and exit distance through a box, clamped to [0, extent]
/// (GPURT `fast_intersect_bbox`): per axis `(bound − origin) × inv_dir` for
/// both planes, the entry plane the lower one when `inv_dir ≥ 0` (a NaN
/// `inv_dir` swaps them), entry = max of the three entries, exit = min of the
/// three exits (minNum/maxNum, so a NaN plane distance — 0 × ∞ — is ignored),
/// then `max(entry, 0)`, `min(exit, extent)`. If the unclamped entry or exit
/// is NaN (every axis NaN) the interval is (+∞, −∞), a miss.
///
/// WGSL twin: `bvh_box_interval` in `shaders/bvh.wgsl` (docs/gpu.md, "Twins").
pub fn box_interval(ray: &Ray, b: &Aabb) -> (f32, f32) {
    let mut entry = [0f32; 3];
    let mut exit = [0f32; 3];
    for k in 0..3 {
        let t_min_plane = (b.min[k] - ray.origin[k]) * ray.inv_dir[k];
        let t_max_plane = (b.max[k] - ray.origin[k]) * ray.inv_dir[k];
        let forward = ray.inv_dir[k] >= 0.0;
        entry[k] = if forward { t_min_plane } else { t_max_plane };
        exit[k] = if forward { t_max_plane } else { t_min_plane };
    }
    let entry_t = max_num(max_num(entry[0], entry[1]), entry[2]);
    let exit_t = min_num(min_num(exit[0], exit[1]), exit[2]);
    if entry_t.is_nan() || exit_t.is_nan() {
        return (f32::INFINITY, f32::NEG_INFINITY);
    }
    (max_num(entry_t, 0.0), min_num(exit_t, ray.extent))
}

/// `1 + box_grow × 2^-24` rounded to f32 (GPURT `IntersectNode`: `1 +
/// box_grow_ulp * eps` with `eps = 5.960464478e-8f`, which is 2^-24): the
/// product is exact, the sum rounds to nearest even.
pub fn grow_factor(box_grow: u8) -> f32 {
    1.0 + f32::from(box_grow) * f32::from_bits(0x3380_0000)
}

/// A child is hit when `entry ≤ exit × grow_factor` (GPURT `IntersectNode`:
/// equality counts as a hit, "so you must conservatively treat equality as a
/// hit"). A negative exit (the box lies behind the ray) grows away from the
/// entry, as the emulation's formula does.
///
/// WGSL twin: `bvh_box_hit` in `shaders/bvh.wgsl` (docs/gpu.md, "Twins").
pub fn box_hit(entry: f32, exit: f32, factor: f32) -> bool {
    entry <= exit * factor
}

/// GPURT's compare-exchange `SORT(a, b)`: swap when `b` is a hit nearer than
/// `a` (strictly), or when `a` is a miss. Ties keep their order.
fn sort_pair(child: &mut [u32; 4], key: &mut [f32; 4], a: usize, b: usize) {
    if (child[b] != INVALID_NODE && key[b] < key[a]) || child[a] == INVALID_NODE {
        child.swap(a, b);
        key.swap(a, b);
    }
}

/// The four result dwords of a box node (GPURT `IntersectNode`, heuristic
/// "closest", the only one gfx10.3 has): each child's pointer if the ray hits its
/// box, else [`INVALID_NODE`]; with `box_sort` the four-element sorting network
/// (0,2) (1,3) (0,1) (2,3) (1,2) on the clamped entry distance, misses last.
///
/// WGSL twin: `bvh_intersect_box_node` in `shaders/bvh.wgsl` (docs/gpu.md, "Twins").
pub fn intersect_box_node(
    children: [u32; 4],
    boxes: &[Aabb; 4],
    ray: &Ray,
    d: &BvhDesc,
) -> [u32; 4] {
    let factor = grow_factor(d.box_grow);
    let mut child = [INVALID_NODE; 4];
    let mut key = [0f32; 4];
    for i in 0..4 {
        let (entry, exit) = box_interval(ray, &boxes[i]);
        key[i] = entry;
        if box_hit(entry, exit, factor) {
            child[i] = children[i];
        }
    }
    if d.box_sort {
        for (a, b) in [(0, 2), (1, 3), (0, 1), (2, 3), (1, 2)] {
            sort_pair(&mut child, &mut key, a, b);
        }
    }
    child
}

/// The bounds of a box32 node's child `i` from the node's dwords 4..28
/// (Mesa `radv_bvh_box32_node`: `coords[i]` = min xyz, max xyz; GPURT
/// `FetchFloat32BoxNode`).
pub fn box32_bounds(words: &[u32], i: usize) -> Aabb {
    let f = |k: usize| f32::from_bits(words.get(4 + 6 * i + k).copied().unwrap_or(0));
    Aabb {
        min: [f(0), f(1), f(2)],
        max: [f(3), f(4), f(5)],
    }
}

/// The bounds of a box16 node's child `i`: three dwords from dword 4 + 3i,
/// halves (low first) min.x, min.y, min.z, max.x, max.y, max.z, widened
/// exactly (GPURT `UncompressBBoxFromUint3`; Mesa `radv_bvh_box16_node`
/// `float16_t coords[4][2][3]`).
pub fn box16_bounds(words: &[u32], i: usize) -> Aabb {
    let half = |k: usize| {
        let w = words.get(4 + 3 * i + k / 2).copied().unwrap_or(0);
        f16_to_f32((w >> (16 * (k % 2))) as u16)
    };
    Aabb {
        min: [half(0), half(1), half(2)],
        max: [half(3), half(4), half(5)],
    }
}

/// The vertex slots (of v0–v4, 12 bytes apart) triangle `k` of a node reads.
/// Types 0 and 1 only: GPURT's emulation (`CalcTriangleVertexOffsets`) reads
/// v0 v1 v2 and v1 v3 v2, which its compression table agrees with; for 2 and 3
/// the emulation falls back to v0 v1 v2 while the table says v2 v3 v4 and
/// v2 v4 v0, so gcnrun refuses them (docs/errata.md B3).
pub fn triangle_vertices(k: u32) -> Option<[usize; 3]> {
    match k {
        0 => Some([0, 1, 2]),
        1 => Some([1, 3, 2]),
        _ => None,
    }
}

/// The triangle ID dword of a triangle node (GPURT `TRIANGLE_NODE_ID_OFFSET`
/// 60; Mesa `radv_bvh_triangle_node::id`).
pub const TRIANGLE_ID_DWORD: usize = 15;

/// Why a triangle node cannot be tested as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TriangleRefusal {
    /// Node types 2 and 3 (see [`triangle_vertices`]).
    NodeType(u32),
    /// An I or J source field of the triangle ID is 3, which names no vertex
    /// (GPURT indexes a three-entry array with it).
    BarySource(u32),
}

/// Rounds a product on its own: the CPU never fuses (Rust does not contract),
/// the name marks where the WGSL mirror must keep a compiler from fusing.
///
/// WGSL twin: `bvh_mul` in `shaders/bvh.wgsl` (docs/gpu.md, "Twins").
fn mul(a: f32, b: f32) -> f32 {
    a * b
}

/// `a × b − c × d`, each product rounded (a `cross` component).
fn cross_term(a: f32, b: f32, c: f32, d: f32) -> f32 {
    mul(a, b) - mul(c, d)
}

/// WGSL twin: `bvh_cross` in `shaders/bvh.wgsl` (docs/gpu.md, "Twins").
fn cross(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [
        cross_term(a[1], b[2], a[2], b[1]),
        cross_term(a[2], b[0], a[0], b[2]),
        cross_term(a[0], b[1], a[1], b[0]),
    ]
}

/// `(a.x b.x + a.y b.y) + a.z b.z`, each product and sum rounded.
///
/// WGSL twin: `bvh_dot` in `shaders/bvh.wgsl` (docs/gpu.md, "Twins").
fn dot(a: [f32; 3], b: [f32; 3]) -> f32 {
    (mul(a[0], b[0]) + mul(a[1], b[1])) + mul(a[2], b[2])
}

fn sub(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

/// The ray/triangle test of GPURT `fast_intersect_triangle` and the
/// barycentric swizzle of `SwizzleBarycentrics`, as the four result dwords.
///
/// With edges `e1 = v1 − v0`, `e2 = v2 − v0`, `e3 = origin − v0`, `s1 = dir ×
/// e2`, `s2 = e3 × e1`: `t_num = e2·s2`, `t_denom = s1·e1`, `i_num = e3·s1`,
/// `j_num = dir·s2`. The ray misses when `u = i_num / t_denom`, `v = j_num /
/// t_denom`, `t = t_num / t_denom` (correctly rounded quotients) give `u < 0`,
/// `u > 1`, `v < 0`, `u + v > 1` or `t < 0`; a miss returns `t_num = +∞`,
/// `t_denom = 1.0`. NaN compares false, so a NaN quotient alone is not a miss.
/// `ray.extent` is not consulted (the emulation does not).
///
/// Barycentric mode (T# `triangle_return_mode` 1): dwords 2 and 3 are
/// `b[I_SRC]`, `b[J_SRC]` of `b = [t_denom − i_num − j_num, i_num, j_num]`
/// (after the miss substitution), with I_SRC/J_SRC bits 1:0 and 3:2 of the
/// triangle ID's byte `k`. Mode 0 (the ISA's "Ray Tracing Return Mode" table):
/// dword 2 is the triangle ID dword as stored, dword 3 the hit status, 1 for a
/// hit and 0 for a miss. A NaN float result is returned as
/// [`CANONICAL_NAN`](crate::texture::convert::CANONICAL_NAN) (docs/errata.md B4).
///
/// WGSL twin: `bvh_intersect_triangle` in `shaders/bvh.wgsl` (docs/gpu.md, "Twins").
pub fn intersect_triangle(
    verts: [[f32; 3]; 3],
    triangle_id: u32,
    k: u32,
    ray: &Ray,
    barycentrics: bool,
) -> Result<[u32; 4], TriangleRefusal> {
    let [v0, v1, v2] = verts;
    let e1 = sub(v1, v0);
    let e2 = sub(v2, v0);
    let e3 = sub(ray.origin, v0);
    let s1 = cross(ray.dir, e2);
    let s2 = cross(e3, e1);
    let t_num = dot(e2, s2);
    let t_denom = dot(s1, e1);
    let i_num = dot(e3, s1);
    let j_num = dot(ray.dir, s2);
    let t = t_num / t_denom;
    let u = i_num / t_denom;
    let v = j_num / t_denom;
    // Written as GPURT's comparisons: a NaN quotient compares false and is not
    // a miss, which `!(0.0..=1.0).contains(&u)` would turn into one.
    #[allow(clippy::manual_range_contains)]
    let missed = u < 0.0 || u > 1.0 || v < 0.0 || u + v > 1.0 || t < 0.0;
    let (x, y) = if missed {
        (f32::INFINITY, 1.0)
    } else {
        (t_num, t_denom)
    };
    if !barycentrics {
        return Ok([
            canonical_nan_bits(x),
            canonical_nan_bits(y),
            triangle_id,
            u32::from(!missed),
        ]);
    }
    let b = [(y - i_num) - j_num, i_num, j_num];
    let byte = triangle_id >> (8 * (k & 3));
    let src = |shift: u32| {
        let s = (byte >> shift) & 3;
        b.get(s as usize)
            .copied()
            .ok_or(TriangleRefusal::BarySource(s))
    };
    Ok([
        canonical_nan_bits(x),
        canonical_nan_bits(y),
        canonical_nan_bits(src(0)?),
        canonical_nan_bits(src(2)?),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ray(origin: [f32; 3], dir: [f32; 3]) -> Ray {
        Ray {
            extent: f32::INFINITY,
            origin,
            dir,
            inv_dir: dir.map(|d| 1.0 / d),
        }
    }

    #[test]
    fn descriptor_round_trips_and_refuses_other_types() {
        let d = BvhDesc {
            base_address: 0x12_3456_7800,
            last_unit: (1 << 42) - 1,
            box_grow: 6,
            box_sort: true,
            barycentrics: true,
            big_page: false,
        };
        let w = encode_bvh(&d).unwrap();
        assert_eq!(w[3] >> 28, 8);
        assert_eq!(decode_bvh(w), Ok(d));
        // The OpenCL packer in AMD's ray tracing samples: grow 6 at bits 55+,
        // sort at 63, return mode at 120, type 8 at 124.
        assert_eq!(w[1] >> 23, 6 | 1 << 8);
        assert_eq!(w[3] & (1 << 24), 1 << 24);
        assert!(decode_bvh([0, 0, 0, 0]).is_err());
        assert!(encode_bvh(&BvhDesc {
            base_address: 0x80,
            ..d
        })
        .is_err());
    }

    #[test]
    fn node_kinds_follow_the_low_three_bits() {
        assert_eq!(NodeKind::of(0x1000), NodeKind::Triangle(0));
        assert_eq!(NodeKind::of(0x1003), NodeKind::Triangle(3));
        assert_eq!(NodeKind::of(0x1004), NodeKind::Box16);
        assert_eq!(NodeKind::of(0x1005), NodeKind::Box32);
        assert_eq!(NodeKind::of(0x1006), NodeKind::Instance);
        assert_eq!(NodeKind::of(0x1007), NodeKind::Procedural);
    }

    #[test]
    fn grow_factor_rounds_to_nearest_even() {
        assert_eq!(grow_factor(0), 1.0);
        // 1 + 2^-24 is a tie between 1 and 1 + 2^-23: even is 1.
        assert_eq!(grow_factor(1), 1.0);
        assert_eq!(grow_factor(2).to_bits(), 0x3f80_0001);
        // 1 + 3·2^-24 = 1 + 1.5 ulp: the tie goes to 1 + 2 ulp.
        assert_eq!(grow_factor(3).to_bits(), 0x3f80_0002);
    }

    #[test]
    fn box_interval_is_the_slab_interval() {
        let r = ray([0.0, 0.0, 0.0], [1.0, 0.5, 0.25]);
        let b = Aabb {
            min: [2.0, 0.0, -1.0],
            max: [4.0, 3.0, 1.0],
        };
        assert_eq!(box_interval(&r, &b), (2.0, 4.0));
        // An axis with dir 0 (inv ∞) inside the slab: −∞ and +∞, ignored.
        let flat = ray([0.0, 0.5, 0.0], [1.0, 0.0, 0.0]);
        let b = Aabb {
            min: [1.0, 0.0, -1.0],
            max: [2.0, 1.0, 1.0],
        };
        assert_eq!(box_interval(&flat, &b), (1.0, 2.0));
        // Origin on the slab plane: 0 × ∞ = NaN, ignored by minNum/maxNum.
        let edge = ray([0.0, 1.0, 0.0], [1.0, 0.0, 0.0]);
        assert_eq!(box_interval(&edge, &b), (1.0, 2.0));
    }

    #[test]
    fn misses_sink_and_ties_keep_their_order() {
        let d = BvhDesc {
            base_address: 0,
            last_unit: 0,
            box_grow: 0,
            box_sort: true,
            barycentrics: false,
            big_page: false,
        };
        let r = ray([0.0, 0.0, 0.0], [1.0, 1.0, 1.0]);
        let at = |lo: f32, hi: f32| Aabb {
            min: [lo; 3],
            max: [hi; 3],
        };
        let boxes = [at(5.0, 6.0), at(-3.0, -2.0), at(1.0, 2.0), at(1.0, 3.0)];
        // Child 1 is behind the ray; 2 and 3 tie at entry 1 and keep 2 before 3.
        assert_eq!(
            intersect_box_node([10, 11, 12, 13], &boxes, &r, &d),
            [12, 13, 10, INVALID_NODE]
        );
        let unsorted = BvhDesc {
            box_sort: false,
            ..d
        };
        assert_eq!(
            intersect_box_node([10, 11, 12, 13], &boxes, &r, &unsorted),
            [10, INVALID_NODE, 12, 13]
        );
    }

    #[test]
    fn nan_results_are_canonical() {
        // A vertex at +inf: e1.x = inf, so t_denom = s1·e1 = (−1)·inf + … and
        // t_num = e2·s2 mix inf − inf into NaN; the quotients are NaN, which no
        // comparison calls a miss, so the NaNs are returned, canonically.
        let verts = [[0.0, 0.0, 2.0], [f32::INFINITY, 0.0, 2.0], [0.0, 1.0, 2.0]];
        let r = ray([0.25, 0.25, 0.0], [0.0, 0.0, 1.0]);
        let out = intersect_triangle(verts, 9, 0, &r, true).unwrap();
        assert!(out.contains(&CANONICAL_NAN), "{out:x?}");
        for w in out {
            assert!(!f32::from_bits(w).is_nan() || w == CANONICAL_NAN, "{w:#x}");
        }
        assert_eq!(
            canonical_nan_bits(f32::from_bits(0xffc0_0001)),
            CANONICAL_NAN
        );
        assert_eq!(canonical_nan_bits(-0.0), 0x8000_0000);
    }

    #[test]
    fn triangle_hit_returns_numerators() {
        // Triangle in the plane z = 2, ray down +z from (0.25, 0.25, 0).
        let verts = [[0.0, 0.0, 2.0], [1.0, 0.0, 2.0], [0.0, 1.0, 2.0]];
        let r = ray([0.25, 0.25, 0.0], [0.0, 0.0, 1.0]);
        let out = intersect_triangle(verts, 9, 0, &r, true).unwrap();
        let f = out.map(f32::from_bits);
        assert_eq!(f[0] / f[1], 2.0);
        assert_eq!([f[2] / f[1], f[3] / f[1]], [0.25, 0.25]);
        let ids = intersect_triangle(verts, 0x1234, 0, &r, false).unwrap();
        assert_eq!([ids[2], ids[3]], [0x1234, 1]);
        // Outside the triangle: t_num = +∞, t_denom = 1, hit status 0.
        let away = ray([0.75, 0.75, 0.0], [0.0, 0.0, 1.0]);
        let miss = intersect_triangle(verts, 0, 0, &away, false).unwrap();
        assert_eq!(miss, [0x7f80_0000, 0x3f80_0000, 0, 0]);
        // I source 3 names no vertex.
        assert_eq!(
            intersect_triangle(verts, 3, 0, &r, true),
            Err(TriangleRefusal::BarySource(3))
        );
    }
}
