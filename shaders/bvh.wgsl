// bvh.wgsl — IMAGE_BVH*_INTERSECT_RAY, the WGSL mirror of src/texture/bvh.rs
// (the tests) and src/cpu/bvh.rs (node address, bounds, memory). Every function
// has the Rust function's name with a `bvh_` prefix and its arithmetic, operation
// by operation, so that a lane gets the CPU's bits:
// - every product goes through `bvh_mul`, whose XOR with the uniform zero
//   `params.opaque_zero` keeps a compiler from fusing it into an FMA or folding
//   it, and sums are evaluated in the CPU's order;
// - NaN tests work on bits (`is_nan_bits`), minNum/maxNum are written out;
// - the triangle test's three quotients are correctly rounded divisions in
//   integer arithmetic (`bvh_div`), since WGSL's `/` is only accurate to 2.5 ULP.
// Needs convert.wgsl (u64 helpers, is_nan_bits, f16_to_f32) and memory.wgsl.

const BVH_INVALID: u32 = 0xffffffffu;

// u32::MAX minus the first faulting record of any lane of the wave (0: none),
// which the module writes to FAULT_WORD at its end.
var<workgroup> bvh_fault: atomic<u32>;

// The T# fields and launch constants a BVH instruction runs with.
struct BvhDesc {
    base: vec2<u32>,       // BVH byte address
    last_unit: vec2<u32>,  // the T# size field
    mem_base: vec2<u32>,   // address of mem[0]
    grow: f32,             // grow_factor(box_grow)
    sort: bool,            // box_sort
    bary: bool,            // triangle_return_mode = 1
}

struct BvhRay {
    extent: f32,
    origin: vec3<f32>,
    dir: vec3<f32>,
    inv_dir: vec3<f32>,
}

// The four result dwords, or a fault (the CPU refuses the lane).
struct BvhResult {
    v: vec4<u32>,
    fault: bool,
}

fn bvh_mul(a: f32, b: f32) -> f32 {
    return bitcast<f32>(bitcast<u32>(a * b) ^ params.opaque_zero);
}

// min_num / max_num: a NaN operand yields the other, ties give b.
fn bvh_min(a: f32, b: f32) -> f32 {
    if is_nan_bits(bitcast<u32>(a)) {
        return b;
    }
    if is_nan_bits(bitcast<u32>(b)) || a < b {
        return a;
    }
    return b;
}

fn bvh_max(a: f32, b: f32) -> f32 {
    if is_nan_bits(bitcast<u32>(a)) {
        return b;
    }
    if is_nan_bits(bitcast<u32>(b)) || a > b {
        return a;
    }
    return b;
}

// box_interval: (entry, exit) of the ray through the box, clamped to [0, extent];
// (+inf, -inf) when the unclamped entry or exit is NaN.
fn bvh_box_interval(ray: BvhRay, bmin: vec3<f32>, bmax: vec3<f32>) -> vec2<f32> {
    var entry: array<f32, 3>;
    var exit: array<f32, 3>;
    for (var k = 0u; k < 3u; k = k + 1u) {
        let t_min_plane = bvh_mul(bmin[k] - ray.origin[k], ray.inv_dir[k]);
        let t_max_plane = bvh_mul(bmax[k] - ray.origin[k], ray.inv_dir[k]);
        let inv = ray.inv_dir[k];
        let forward = !is_nan_bits(bitcast<u32>(inv)) && inv >= 0.0;
        entry[k] = select(t_max_plane, t_min_plane, forward);
        exit[k] = select(t_min_plane, t_max_plane, forward);
    }
    let entry_t = bvh_max(bvh_max(entry[0], entry[1]), entry[2]);
    let exit_t = bvh_min(bvh_min(exit[0], exit[1]), exit[2]);
    if is_nan_bits(bitcast<u32>(entry_t)) || is_nan_bits(bitcast<u32>(exit_t)) {
        return vec2<f32>(bitcast<f32>(0x7f800000u), bitcast<f32>(0xff800000u));
    }
    return vec2<f32>(bvh_max(entry_t, 0.0), bvh_min(exit_t, ray.extent));
}

// box_hit: entry <= exit × grow_factor.
fn bvh_box_hit(iv: vec2<f32>, grow: f32) -> bool {
    return iv.x <= bvh_mul(iv.y, grow);
}

// intersect_box_node: hits (or BVH_INVALID), then GPURT's sorting network.
fn bvh_intersect_box_node(children: vec4<u32>, bmin: array<vec3<f32>, 4>, bmax: array<vec3<f32>, 4>, ray: BvhRay, d: BvhDesc) -> vec4<u32> {
    var child = array<u32, 4>(BVH_INVALID, BVH_INVALID, BVH_INVALID, BVH_INVALID);
    var key: array<f32, 4>;
    for (var i = 0u; i < 4u; i = i + 1u) {
        let iv = bvh_box_interval(ray, bmin[i], bmax[i]);
        key[i] = iv.x;
        if bvh_box_hit(iv, d.grow) {
            child[i] = children[i];
        }
    }
    if d.sort {
        var pairs = array<vec2<u32>, 5>(vec2<u32>(0u, 2u), vec2<u32>(1u, 3u), vec2<u32>(0u, 1u), vec2<u32>(2u, 3u), vec2<u32>(1u, 2u));
        for (var p = 0u; p < 5u; p = p + 1u) {
            let a = pairs[p].x;
            let b = pairs[p].y;
            if (child[b] != BVH_INVALID && key[b] < key[a]) || child[a] == BVH_INVALID {
                let c = child[a];
                child[a] = child[b];
                child[b] = c;
                let k = key[a];
                key[a] = key[b];
                key[b] = k;
            }
        }
    }
    return vec4<u32>(child[0], child[1], child[2], child[3]);
}

// The significand of a finite |x| ≠ 0 (its bits) in [2^23, 2^24), denormals
// normalised, and its unbiased exponent.
fn bvh_normalised(b: u32) -> vec2<i32> {
    let m = b & 0x7fffffu;
    if (b >> 23u) == 0u {
        let s = countLeadingZeros(m) - 8u;
        return vec2<i32>(i32(m << s), -126 - i32(s));
    }
    return vec2<i32>(i32(m | 0x800000u), i32(b >> 23u) - 127);
}

// a / b correctly rounded to nearest even, on bits (IEEE: signed zeros and
// infinities, NaN for 0/0 and inf/inf, denormal operands and results). The
// quotients only feed comparisons, so a NaN's payload does not matter.
fn bvh_div(a: f32, b: f32) -> f32 {
    let ab = bitcast<u32>(a);
    let bb = bitcast<u32>(b);
    let sign = (ab ^ bb) & 0x80000000u;
    let a_abs = ab & 0x7fffffffu;
    let b_abs = bb & 0x7fffffffu;
    let nan = bitcast<f32>(CANONICAL_NAN);
    if is_nan_bits(ab) || is_nan_bits(bb) {
        return nan;
    }
    if a_abs == 0x7f800000u {
        if b_abs == 0x7f800000u {
            return nan;
        }
        return bitcast<f32>(sign | 0x7f800000u);
    }
    if b_abs == 0x7f800000u {
        return bitcast<f32>(sign);
    }
    if b_abs == 0u {
        if a_abs == 0u {
            return nan;
        }
        return bitcast<f32>(sign | 0x7f800000u);
    }
    if a_abs == 0u {
        return bitcast<f32>(sign);
    }
    let pa = bvh_normalised(a_abs);
    let pb = bvh_normalised(b_abs);
    let mb = u32(pb.x);
    var e = pa.y - pb.y;
    var n = u32(pa.x);
    if n < mb {
        n = n << 1u;
        e = e - 1;
    }
    // 24 quotient bits of n / mb in [1, 2); n ends as twice the remainder.
    var q = 0u;
    for (var i = 0u; i < 24u; i = i + 1u) {
        q = q << 1u;
        if n >= mb {
            n = n - mb;
            q = q | 1u;
        }
        n = n << 1u;
    }
    var biased = e + 127;
    if biased >= 1 {
        if n > mb || (n == mb && (q & 1u) == 1u) {
            q = q + 1u;
            if q == 0x1000000u {
                q = 0x800000u;
                biased = biased + 1;
            }
        }
        if biased >= 255 {
            return bitcast<f32>(sign | 0x7f800000u);
        }
        return bitcast<f32>(sign | (u32(biased) << 23u) | (q & 0x7fffffu));
    }
    // Denormal: (q + rem) / 2^shift units of 2^-149, rounded to nearest even
    // (a carry into 2^23 is the smallest normal, which the bits express).
    let shift = u32(1 - biased);
    if shift >= 25u {
        return bitcast<f32>(sign);
    }
    var kept = q >> shift;
    let dropped = q & ((1u << shift) - 1u);
    let half = 1u << (shift - 1u);
    let sticky = n != 0u;
    if dropped > half || (dropped == half && (sticky || (kept & 1u) == 1u)) {
        kept = kept + 1u;
    }
    return bitcast<f32>(sign | kept);
}

fn bvh_cross(a: vec3<f32>, b: vec3<f32>) -> vec3<f32> {
    return vec3<f32>(
        bvh_mul(a.y, b.z) - bvh_mul(a.z, b.y),
        bvh_mul(a.z, b.x) - bvh_mul(a.x, b.z),
        bvh_mul(a.x, b.y) - bvh_mul(a.y, b.x),
    );
}

fn bvh_dot(a: vec3<f32>, b: vec3<f32>) -> f32 {
    return (bvh_mul(a.x, b.x) + bvh_mul(a.y, b.y)) + bvh_mul(a.z, b.z);
}

// intersect_triangle: GPURT's fast_intersect_triangle and barycentric swizzle;
// `fault` for a barycentric source 3.
fn bvh_intersect_triangle(v0: vec3<f32>, v1: vec3<f32>, v2: vec3<f32>, triangle_id: u32, k: u32, ray: BvhRay, bary: bool) -> BvhResult {
    let e1 = v1 - v0;
    let e2 = v2 - v0;
    let e3 = ray.origin - v0;
    let s1 = bvh_cross(ray.dir, e2);
    let s2 = bvh_cross(e3, e1);
    let t_num = bvh_dot(e2, s2);
    let t_denom = bvh_dot(s1, e1);
    let i_num = bvh_dot(e3, s1);
    let j_num = bvh_dot(ray.dir, s2);
    let t = bvh_div(t_num, t_denom);
    let u = bvh_div(i_num, t_denom);
    let v = bvh_div(j_num, t_denom);
    let missed = u < 0.0 || u > 1.0 || v < 0.0 || u + v > 1.0 || t < 0.0;
    var x = t_num;
    var y = t_denom;
    if missed {
        x = bitcast<f32>(0x7f800000u);
        y = 1.0;
    }
    var r: BvhResult;
    if !bary {
        r.v = vec4<u32>(canonical_nan_bits(x), canonical_nan_bits(y), triangle_id, select(1u, 0u, missed));
        return r;
    }
    var b = array<f32, 3>((y - i_num) - j_num, i_num, j_num);
    let byte = triangle_id >> (8u * (k & 3u));
    let si = byte & 3u;
    let sj = (byte >> 2u) & 3u;
    if si == 3u || sj == 3u {
        r.fault = true;
        return r;
    }
    r.v = vec4<u32>(canonical_nan_bits(x), canonical_nan_bits(y), canonical_nan_bits(b[si]), canonical_nan_bits(b[sj]));
    return r;
}

// One dword of image memory at byte offset `rel` + 4k.
fn bvh_word(rel: u32, k: u32) -> u32 {
    spec_touch(rel / 4u + k, false);
    return atomicLoad(&mem[rel / 4u + k]);
}

fn bvh_f32(rel: u32, k: u32) -> f32 {
    return bitcast<f32>(bvh_word(rel, k));
}

// cpu::bvh::intersect for one lane: the node kind from the pointer's low bits,
// the T# bounds check (node_address), the memory check (read_node), then the
// node's test. Faults where the CPU refuses.
fn bvh_intersect(ptr: vec2<u32>, ray: BvhRay, d: BvhDesc) -> BvhResult {
    var r: BvhResult;
    let kind = ptr.x & 7u;
    if kind >= 6u {
        r.v = vec4<u32>(BVH_INVALID);
        return r;
    }
    if kind == 2u || kind == 3u {
        r.fault = true;
        return r;
    }
    let units = select(1u, 2u, kind == 5u);
    let bytes = select(64u, 112u, kind == 5u);
    let unit = u64_shr(ptr, 3u);
    if u64_lt(d.last_unit, u64_add(unit, vec2<u32>(units - 1u, 0u))) {
        r.fault = true;
        return r;
    }
    // unit <= last_unit < 2^42, so the address cannot overflow.
    let addr = u64_add(d.base, u64_shl(unit, 6u));
    if u64_lt(addr, d.mem_base) {
        r.fault = true;
        return r;
    }
    let off = u64_sub(addr, d.mem_base);
    if off.y != 0u || !mem_in_range(off.x, bytes) {
        r.fault = true;
        return r;
    }
    let rel = off.x;
    let children = vec4<u32>(bvh_word(rel, 0u), bvh_word(rel, 1u), bvh_word(rel, 2u), bvh_word(rel, 3u));
    if kind == 5u {
        var bmin: array<vec3<f32>, 4>;
        var bmax: array<vec3<f32>, 4>;
        for (var i = 0u; i < 4u; i = i + 1u) {
            let w = 4u + 6u * i;
            bmin[i] = vec3<f32>(bvh_f32(rel, w), bvh_f32(rel, w + 1u), bvh_f32(rel, w + 2u));
            bmax[i] = vec3<f32>(bvh_f32(rel, w + 3u), bvh_f32(rel, w + 4u), bvh_f32(rel, w + 5u));
        }
        r.v = bvh_intersect_box_node(children, bmin, bmax, ray, d);
        return r;
    }
    if kind == 4u {
        var bmin: array<vec3<f32>, 4>;
        var bmax: array<vec3<f32>, 4>;
        for (var i = 0u; i < 4u; i = i + 1u) {
            let w = 4u + 3u * i;
            let d0 = bvh_word(rel, w);
            let d1 = bvh_word(rel, w + 1u);
            let d2 = bvh_word(rel, w + 2u);
            bmin[i] = vec3<f32>(f16_to_f32(d0 & 0xffffu), f16_to_f32(d0 >> 16u), f16_to_f32(d1 & 0xffffu));
            bmax[i] = vec3<f32>(f16_to_f32(d1 >> 16u), f16_to_f32(d2 & 0xffffu), f16_to_f32(d2 >> 16u));
        }
        r.v = bvh_intersect_box_node(children, bmin, bmax, ray, d);
        return r;
    }
    // Triangle types 0 (v0 v1 v2) and 1 (v1 v3 v2); vertex s at dword 3s.
    var slots = vec3<u32>(0u, 1u, 2u);
    if kind == 1u {
        slots = vec3<u32>(1u, 3u, 2u);
    }
    var verts: array<vec3<f32>, 3>;
    for (var j = 0u; j < 3u; j = j + 1u) {
        let w = 3u * slots[j];
        verts[j] = vec3<f32>(bvh_f32(rel, w), bvh_f32(rel, w + 1u), bvh_f32(rel, w + 2u));
    }
    return bvh_intersect_triangle(verts[0], verts[1], verts[2], bvh_word(rel, 15u), kind, ray, d.bary);
}
