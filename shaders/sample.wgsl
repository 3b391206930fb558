// sample.wgsl — the sampler pipeline, the WGSL mirror of src/texture/sample/
// (the pure stages) and of the parts of src/cpu/sample/ that read no memory
// (the LOD of a lane, the footprint's per-axis taps and their resolution to
// texels). The per-view functions that fetch texels are in sample_view.wgsl,
// instantiated by the translator once per (T#, S#) view.
//
// Every function has the name and the arithmetic of its Rust counterpart and
// gives the same bits. Floats travel as u32 bits wherever a GPU might change
// them (denormals, NaNs); comparisons, signs and NaN tests are done on the
// bits, because WGSL lets an implementation assume NaNs away. f32 + − × are
// correctly rounded in WGSL; a product that the CPU rounds before adding goes
// through `mul_rounded` so that no compiler fuses it into an FMA; the only
// division the pipeline has (by a small integer count) is done in integer
// arithmetic (`div_by_count`). Reads the tables LOG2_THRESHOLDS and
// ANISO_POSITIONS from the host's (tables.wgsl), filled from the Rust
// constant and function.

// ---- f32 on bits ----

// flush_denorm: a denormal becomes a zero of the same sign.
fn flush_denorm(b: u32) -> u32 {
    if (b & 0x7f800000u) == 0u {
        return b & 0x80000000u;
    }
    return b;
}

// half_input (cpu::sample::vaddr): an f16 address operand (A16, G16) as f32
// bits: exact, a denormal flushed to a zero of its sign, inf kept, a NaN quiet
// with its payload in the top mantissa bits (texture::convert::f16_to_f32).
fn half_input(h: u32) -> u32 {
    let sign = (h & 0x8000u) << 16u;
    let e = (h >> 10u) & 0x1fu;
    let m = h & 0x3ffu;
    if e == 0u {
        return sign;
    }
    if e == 0x1fu {
        return sign | select(0x7fc00000u | (m << 13u), 0x7f800000u, m == 0u);
    }
    return sign | ((e + 112u) << 23u) | (m << 13u);
}

// A key that orders non-NaN f32 bits as the floats order (−0 and +0 both 0).
fn f32_key(b: u32) -> i32 {
    if (b >> 31u) == 1u {
        return -bitcast<i32>(b & 0x7fffffffu);
    }
    return bitcast<i32>(b);
}

// IEEE a < b (false when either is NaN).
fn f32_lt(a: u32, b: u32) -> bool {
    return !is_nan_bits(a) && !is_nan_bits(b) && f32_key(a) < f32_key(b);
}

// IEEE a <= b.
fn f32_le(a: u32, b: u32) -> bool {
    return !is_nan_bits(a) && !is_nan_bits(b) && f32_key(a) <= f32_key(b);
}

// IEEE a == b (+0 == −0, NaN equals nothing).
fn f32_eq(a: u32, b: u32) -> bool {
    return !is_nan_bits(a) && !is_nan_bits(b) && f32_key(a) == f32_key(b);
}

// a × b rounded to f32 on its own: the XOR with a zero the compiler cannot see
// (params.opaque_zero) keeps the product from being fused into a following add.
fn mul_rounded(a: f32, b: f32) -> f32 {
    return bitcast<f32>(bitcast<u32>(a * b) ^ params.opaque_zero);
}

// Rust's f32::min / f32::max on bits: a NaN operand yields the other one;
// equal zeros of different signs give +0 (what the CPU build computes).
fn f32_min_rust(a: u32, b: u32) -> u32 {
    if is_nan_bits(a) {
        return b;
    }
    if is_nan_bits(b) {
        return a;
    }
    if f32_key(a) == f32_key(b) {
        return a & b;
    }
    return select(b, a, f32_key(a) < f32_key(b));
}

fn f32_max_rust(a: u32, b: u32) -> u32 {
    if is_nan_bits(a) {
        return b;
    }
    if is_nan_bits(b) {
        return a;
    }
    if f32_key(a) == f32_key(b) {
        return a & b;
    }
    return select(b, a, f32_key(a) > f32_key(b));
}

// x / n correctly rounded (nearest, ties to even) for a count n in 1..=16, on
// bits: the CPU's `sum / n as f32`. Long division of the significand; results
// below the normal range are rounded on the denormal grid, as IEEE does.
fn div_by_count(x: u32, n: u32) -> u32 {
    let sign = x & 0x80000000u;
    let e = (x >> 23u) & 0xffu;
    let m = x & 0x7fffffu;
    if e == 0xffu {
        // Infinity stays infinite; a NaN comes back quieted.
        return select(x, x | 0x400000u, m != 0u);
    }
    if n <= 1u {
        return x;
    }
    if e == 0u && m == 0u {
        return x;
    }
    // |x| = sig × 2^(e2), sig < 2^24.
    var sig = m | 0x800000u;
    var e2 = i32(e) - 150;
    if e == 0u {
        sig = m;
        e2 = -149;
    }
    // Normalise sig to bit 31 so the quotient keeps at least 27 bits.
    let lz = countLeadingZeros(sig);
    let num = sig << lz;
    e2 = e2 - i32(lz);
    let q = num / n;
    let r = num % n;
    // |x / n| = (q + r/n) × 2^e2; q >= 2^27.
    let top = 31 - i32(countLeadingZeros(q));
    // Exponent of the leading bit, then the grid: 24 bits, not below 2^-149.
    let lead = e2 + top;
    var grid = lead - 23;
    if grid < -149 {
        grid = -149;
    }
    let drop = grid - e2;
    if drop >= 32 {
        // q < 2^32: nothing is kept; with drop = 32 the value rounds up to the
        // smallest denormal when it is above half of it.
        if drop == 32 && (q > 0x80000000u || (q == 0x80000000u && r != 0u)) {
            return sign | 1u;
        }
        return sign;
    }
    let d = u32(drop);
    var kept = q >> d;
    let rest = q - (kept << d);
    let half = 1u << (d - 1u);
    if rest > half || (rest == half && (r != 0u || (kept & 1u) == 1u)) {
        kept = kept + 1u;
    }
    // kept × 2^grid; kept may have carried to 2^24.
    if grid == -149 && kept < 0x800000u {
        return sign | kept;
    }
    var biased = u32(grid + 150);
    if kept >= 0x1000000u {
        kept = kept >> 1u;
        biased = biased + 1u;
    }
    return sign | (biased << 23u) | (kept & 0x7fffffu);
}

// 0.0 + x on the bits: −0 becomes +0 (a compiler may drop a literal +0.0).
fn plus_zero(b: u32) -> u32 {
    return select(b, 0u, b == 0x80000000u);
}

// The CPU's per-component fold `s + v` from 0.0: the first term is 0.0 + v.
fn add_components(s: vec4<u32>, v: vec4<u32>, first: bool) -> vec4<u32> {
    if first {
        return vec4<u32>(plus_zero(v.x), plus_zero(v.y), plus_zero(v.z), plus_zero(v.w));
    }
    return bitcast<vec4<u32>>(bitcast<vec4<f32>>(s) + bitcast<vec4<f32>>(v));
}

// ---- stage 1: coordinates (coord.rs) ----

const SUBTEXEL_BITS: u32 = 8u;
const TEXEL_ONE: i32 = 256;
const TEXEL_HALF: i32 = 128;
const COORD_LIMIT: i32 = 1073741824;

// texel_fixed: floor(s × size × 256) (normalized) or floor(s × 256), clamped
// to ±COORD_LIMIT, NaN → 0.
fn texel_fixed(s: u32, size: u32, normalized: bool) -> i32 {
    let sb = flush_denorm(s);
    if is_nan_bits(sb) {
        return 0;
    }
    var u = bitcast<f32>(sb);
    if normalized {
        u = u * f32(size);
    }
    let x = u * 256.0;
    let xb = bitcast<u32>(x);
    // Clamp before converting: floor keeps |x| >= 2^30 beyond the limit.
    if f32_le(0x4e800000u, xb) {
        return COORD_LIMIT;
    }
    if f32_le(xb, 0xce800000u) {
        return -COORD_LIMIT;
    }
    return i32(floor(x));
}

// texel_offset: the 6-bit signed field of an axis in the packed `_o` dword.
fn texel_offset(packed: u32, axis: u32) -> i32 {
    let field = (packed >> (8u * axis)) & 0x3fu;
    return bitcast<i32>(field << 26u) >> 26u;
}

// array_slice: round to nearest even, clamp to 0..=last; NaN → 0.
fn array_slice(r: u32, last: u32) -> u32 {
    let b = flush_denorm(r);
    if is_nan_bits(b) || (b >> 31u) == 1u {
        return 0u;
    }
    if (b & 0x7f800000u) == 0x7f800000u {
        return last;
    }
    let rr = round(bitcast<f32>(b));
    if rr <= 0.0 {
        return 0u;
    }
    if rr >= f32(last) {
        return last;
    }
    return u32(rr);
}

// ---- stage 2: LOD (lod.rs) ----

const LOD_FRAC_BITS: u32 = 8u;
const LOD_ONE: i32 = 256;
const LOD_LIMIT: i32 = 32768;

// half_log2_fixed: round(128 × log2(x2)) from the exponent and the number of
// LOG2_THRESHOLDS the mantissa reaches (binary search: the table ascends).
fn half_log2_fixed(x2: u32) -> i32 {
    let b = flush_denorm(x2);
    if is_nan_bits(b) || (b >> 31u) == 1u || b == 0u {
        return -LOD_LIMIT;
    }
    if b == 0x7f800000u {
        return LOD_LIMIT;
    }
    let exponent = i32((b >> 23u) & 0xffu) - 127;
    let mantissa = b & 0x7fffffu;
    var lo = 0u;
    var hi = 128u;
    while lo < hi {
        let mid = (lo + hi) / 2u;
        if mantissa >= host_tables[LOG2_THRESHOLDS_AT + mid] {
            lo = mid + 1u;
        } else {
            hi = mid;
        }
    }
    return clamp(128 * exponent + i32(lo), -LOD_LIMIT, LOD_LIMIT);
}

// lod_from_f32: x × 256 rounded to nearest even, clamped; NaN → 0.
fn lod_from_f32(x: u32) -> i32 {
    let b = flush_denorm(x);
    if is_nan_bits(b) {
        return 0;
    }
    // |x| >= 128 levels is at the limit (and x × 256 might overflow).
    if f32_le(0x43000000u, b) {
        return LOD_LIMIT;
    }
    if f32_le(b, 0xc3000000u) {
        return -LOD_LIMIT;
    }
    return i32(round(bitcast<f32>(b) * 256.0));
}

// lod_to_f32: exact (a multiplication by 2^-8 rather than a division).
fn lod_to_f32(lod: i32) -> f32 {
    return f32(lod) * 0.00390625;
}

// length_squared: (x·x + y·y) + z·z, each product and sum rounded.
fn length_squared(d: vec3<u32>) -> u32 {
    let x = bitcast<f32>(flush_denorm(d.x));
    let y = bitcast<f32>(flush_denorm(d.y));
    let z = bitcast<f32>(flush_denorm(d.z));
    let xy = mul_rounded(x, x) + mul_rounded(y, y);
    return bitcast<u32>(xy + mul_rounded(z, z));
}

fn lod_from_derivatives(ddx: vec3<u32>, ddy: vec3<u32>) -> i32 {
    let x2 = length_squared(ddx);
    let y2 = length_squared(ddy);
    return half_log2_fixed(select(y2, x2, f32_le(y2, x2)));
}

struct Aniso {
    taps: u32,
    along_x: bool,
    lod: i32,
}

fn anisotropic(ddx: vec3<u32>, ddy: vec3<u32>, max_ratio_in: u32) -> Aniso {
    let x2 = length_squared(ddx);
    let y2 = length_squared(ddy);
    let along_x = f32_le(y2, x2);
    let pmax2 = select(y2, x2, along_x);
    let pmin2 = select(x2, y2, along_x);
    let max_ratio = clamp(max_ratio_in, 1u, 16u);
    var taps = max_ratio;
    for (var n = 1u; n <= max_ratio; n = n + 1u) {
        let lhs = bitcast<u32>(f32(n * n) * bitcast<f32>(pmin2));
        if f32_le(pmax2, lhs) {
            taps = n;
            break;
        }
    }
    var lod = half_log2_fixed(pmax2);
    if lod != -LOD_LIMIT {
        lod = max(lod - half_log2_fixed(bitcast<u32>(f32(taps * taps))), -LOD_LIMIT);
    }
    return Aniso(taps, along_x, lod);
}

fn biased(base: i32, sampler_bias: i32, shader_bias: i32) -> i32 {
    return clamp(base + sampler_bias + shader_bias, -LOD_LIMIT, LOD_LIMIT);
}

fn clamped(lod: i32, lo: i32, hi: i32) -> i32 {
    return min(max(lod, lo), hi);
}

fn magnifies(lod: i32) -> bool {
    return lod <= 0;
}

const MIP_NONE: u32 = 0u;
const MIP_POINT: u32 = 1u;
const MIP_LINEAR: u32 = 2u;

// Mips::One(lo) is two == false; Mips::Two { lo, weight } is two == true.
struct Mips {
    two: bool,
    lo: u32,
    weight: u32,
}

fn select_mips(lod: i32, mip_code: u32, last: u32) -> Mips {
    let d = clamp(lod, 0, i32(min(last, 15u)) * LOD_ONE);
    if mip_code == MIP_NONE {
        return Mips(false, 0u, 0u);
    }
    if mip_code == MIP_LINEAR {
        let lo = u32(d >> LOD_FRAC_BITS);
        let weight = u32(d & (LOD_ONE - 1));
        if weight == 0u || lo >= last {
            return Mips(false, lo, 0u);
        }
        return Mips(true, lo, weight);
    }
    return Mips(false, u32((d + LOD_ONE / 2 - 1) >> LOD_FRAC_BITS), 0u);
}

// ---- stage 3: address modes (address.rs) ----

fn mirror_coordinate(mode: u32, s: u32) -> u32 {
    if mode == 5u || mode == 7u {
        return s & 0x7fffffffu;
    }
    return s;
}

fn prepare(mode: u32, u: i32, n: u32) -> i32 {
    if mode == 4u || mode == 5u {
        return clamp(u, 0, i32(n) << SUBTEXEL_BITS);
    }
    return u;
}

fn rem_euclid(i: i32, n: i32) -> i32 {
    let r = i % n;
    return select(r, r + n, r < 0);
}

// wrap: the texel index, or -1 for the border (Tap::Border).
fn wrap(mode: u32, i: i32, n_in: u32, linear: bool) -> i32 {
    let n = i32(max(n_in, 1u));
    switch mode {
        case 0u: {
            return rem_euclid(i, n);
        }
        case 1u: {
            let t = rem_euclid(i, 2 * n);
            return select(2 * n - 1 - t, t, t < n);
        }
        case 2u: {
            return clamp(i, 0, n - 1);
        }
        case 3u: {
            return clamp(select(i, -i - 1, i < 0), 0, n - 1);
        }
        default: {
            if (mode == 4u || mode == 5u) && !linear {
                return clamp(i, 0, n - 1);
            }
            return select(-1, i, i >= 0 && i < n);
        }
    }
}

// ---- stage 4: cube maps (cube.rs) ----

fn face_coordinate(s: u32) -> u32 {
    return bitcast<u32>(bitcast<f32>(s) - 1.0);
}

// (face, cube) of a face_id operand.
fn face_and_cube(face_id: u32) -> vec2<u32> {
    let id = array_slice(face_id, 0xffffffu);
    return vec2<u32>(min(id % 8u, 5u), id / 8u);
}

fn cube_direction(face: u32, sc: i32, tc: i32, ma: i32) -> vec3<i32> {
    switch face {
        case 0u: { return vec3<i32>(ma, -tc, -sc); }
        case 1u: { return vec3<i32>(-ma, -tc, sc); }
        case 2u: { return vec3<i32>(sc, ma, tc); }
        case 3u: { return vec3<i32>(sc, -ma, -tc); }
        case 4u: { return vec3<i32>(sc, -tc, ma); }
        default: { return vec3<i32>(-sc, -tc, -ma); }
    }
}

// (face, sc, tc) of a direction.
fn cube_project(v: vec3<i32>) -> vec3<i32> {
    let ax = abs(v.x);
    let ay = abs(v.y);
    let az = abs(v.z);
    if ax >= ay && ax >= az {
        if v.x >= 0 {
            return vec3<i32>(0, -v.z, -v.y);
        }
        return vec3<i32>(1, v.z, -v.y);
    }
    if ay >= az {
        if v.y >= 0 {
            return vec3<i32>(2, v.x, v.z);
        }
        return vec3<i32>(3, v.x, -v.z);
    }
    if v.z >= 0 {
        return vec3<i32>(4, v.x, -v.y);
    }
    return vec3<i32>(5, -v.x, -v.y);
}

// seamless: (face, x, y, 1) of the texel a tap reads, or w = 0 at a corner.
fn seamless(face_in: u32, x_in: i32, y_in: i32, n_in: u32) -> vec4<i32> {
    let n = i32(max(n_in, 1u));
    let face = min(face_in, 5u);
    let x = clamp(x_in, -1, n);
    let y = clamp(y_in, -1, n);
    let out_x = x < 0 || x >= n;
    let out_y = y < 0 || y >= n;
    if out_x && out_y {
        return vec4<i32>(0, 0, 0, 0);
    }
    if !out_x && !out_y {
        return vec4<i32>(i32(face), x, y, 1);
    }
    let p = cube_project(cube_direction(face, 2 * x + 1 - n, 2 * y + 1 - n, n));
    let sx = (clamp(p.y, 1 - n, n - 1) + n - 1) / 2;
    let sy = (clamp(p.z, 1 - n, n - 1) + n - 1) / 2;
    return vec4<i32>(p.x, sx, sy, 1);
}

// ---- stage 5: filtering (filter.rs) ----

struct AxisTaps {
    index: vec2<i32>,
    weight: vec2<u32>,
    count: u32,
}

fn axis_taps(u: i32, offset: i32, linear: bool) -> AxisTaps {
    if linear {
        let q = u - TEXEL_HALF;
        let i0 = (q >> SUBTEXEL_BITS) + offset;
        let frac = u32(q & (TEXEL_ONE - 1));
        return AxisTaps(vec2<i32>(i0, i0 + 1), vec2<u32>(256u - frac, frac), 2u);
    }
    return AxisTaps(vec2<i32>((u >> SUBTEXEL_BITS) + offset, 0), vec2<u32>(256u, 0u), 1u);
}

fn single_tap(index: i32) -> AxisTaps {
    return AxisTaps(vec2<i32>(index, 0), vec2<u32>(256u, 0u), 1u);
}

const REDUCTION_MIN: u32 = 1u;
const REDUCTION_MAX: u32 = 2u;

// The taps of a footprint, in z, y, x order (at most 2 × 2 × 2).
struct Footprint {
    value: array<vec4<u32>, 8>,
    weight: array<u32, 8>,
    count: u32,
}

fn fp_component(v: vec4<u32>, c: u32) -> u32 {
    switch c {
        case 0u: { return v.x; }
        case 1u: { return v.y; }
        case 2u: { return v.z; }
        default: { return v.w; }
    }
}

// combine: the taps with a non-zero weight, blended (Σ texel × weight·2^-24
// from the first product, in tap order) or reduced to their minimum/maximum;
// flushed.
fn combine(fp: Footprint, mode: u32) -> vec4<u32> {
    var out = vec4<u32>(0u);
    for (var c = 0u; c < 4u; c = c + 1u) {
        var acc = 0u;
        var first = true;
        for (var k = 0u; k < fp.count; k = k + 1u) {
            let w = fp.weight[k];
            if w == 0u {
                continue;
            }
            let t = fp_component(fp.value[k], c);
            if first {
                first = false;
                if mode == REDUCTION_MIN || mode == REDUCTION_MAX {
                    acc = t;
                } else {
                    acc = bitcast<u32>(mul_rounded(bitcast<f32>(t), f32(w) * 5.9604644775390625e-8));
                }
                continue;
            }
            if mode == REDUCTION_MIN {
                acc = select(acc, t, f32_lt(t, acc));
            } else if mode == REDUCTION_MAX {
                acc = select(acc, t, f32_lt(acc, t));
            } else {
                let p = mul_rounded(bitcast<f32>(t), f32(w) * 5.9604644775390625e-8);
                acc = bitcast<u32>(bitcast<f32>(acc) + p);
            }
        }
        let r = flush_denorm(acc);
        switch c {
            case 0u: { out.x = r; }
            case 1u: { out.y = r; }
            case 2u: { out.z = r; }
            default: { out.w = r; }
        }
    }
    return out;
}

// mip_blend: a × ((256 − w)/256) + b × (w/256), each product rounded.
fn mip_blend(a: vec4<u32>, b: vec4<u32>, weight: u32, mode: u32) -> vec4<u32> {
    let wa = f32(256u - weight) * 0.00390625;
    let wb = f32(weight) * 0.00390625;
    var out = vec4<u32>(0u);
    for (var c = 0u; c < 4u; c = c + 1u) {
        let x = fp_component(a, c);
        let y = fp_component(b, c);
        var r: u32;
        if mode == REDUCTION_MIN {
            r = f32_min_rust(x, y);
        } else if mode == REDUCTION_MAX {
            r = f32_max_rust(x, y);
        } else {
            r = bitcast<u32>(mul_rounded(bitcast<f32>(x), wa) + mul_rounded(bitcast<f32>(y), wb));
        }
        r = flush_denorm(r);
        switch c {
            case 0u: { out.x = r; }
            case 1u: { out.y = r; }
            case 2u: { out.z = r; }
            default: { out.w = r; }
        }
    }
    return out;
}

// aniso_position(k, n), from the table of the CPU function's values.
fn aniso_position(k: u32, n: u32) -> f32 {
    let nn = clamp(n, 1u, 16u);
    return bitcast<f32>(host_tables[ANISO_POSITIONS_AT + (nn - 1u) * nn / 2u + min(k, nn - 1u)]);
}

// ---- stage 6: depth compare (compare.rs) ----

fn depth_compare(f: u32, reference: u32, texel: u32) -> u32 {
    var passes = false;
    switch f & 7u {
        case 1u: { passes = f32_lt(reference, texel); }
        case 2u: { passes = f32_eq(reference, texel); }
        case 3u: { passes = f32_le(reference, texel); }
        case 4u: { passes = f32_lt(texel, reference); }
        case 5u: { passes = !f32_eq(reference, texel); }
        case 6u: { passes = f32_le(texel, reference); }
        case 7u: { passes = true; }
        default: {}
    }
    return select(0u, 0x3f800000u, passes);
}

// reference_for: f32::clamp(0, 1) for UNORM depth (NaN and −0 stay).
fn reference_for(reference: u32, fixed_point: bool) -> u32 {
    if !fixed_point || is_nan_bits(reference) {
        return reference;
    }
    if f32_lt(reference, 0u) {
        return 0u;
    }
    if f32_lt(0x3f800000u, reference) {
        return 0x3f800000u;
    }
    return reference;
}

// ---- the view (cpu/sample/view.rs) and a lane's LOD (cpu/sample/mod.rs) ----

// Everything about a (T#, S#) pair the pipeline needs, folded by the
// translator into one constant per view.
struct View {
    // T# level-0 size, BASE_LEVEL, and the view's last level relative to it.
    width: u32,
    height: u32,
    depth: u32,
    base_level: u32,
    last_level: u32,
    // Shape: spatial axes, layered (array or cube), cube.
    axes: u32,
    layered: bool,
    cube: bool,
    // Selectable slices (arrays) or cubes (cube maps).
    layers: u32,
    normalized: bool,
    integer: bool,
    // UNORM number format (the compare reference is clamped).
    fixed_point: bool,
    // S# CLAMP_X/Y/Z, the border colour (raw X, Y, Z, W), FILTER_MODE,
    // DISABLE_CUBE_WRAP.
    clamp_modes: vec3<u32>,
    border: vec4<u32>,
    filter_mode: u32,
    disable_cube_wrap: bool,
    // S# filters, anisotropy, LOD fields; T# MIN_LOD relative to the view.
    mag_filter: u32,
    min_filter: u32,
    z_filter: u32,
    mip_filter: u32,
    max_aniso: u32,
    lod_bias: i32,
    min_lod: i32,
    max_lod: i32,
    t_min_lod: i32,
    compare_func: u32,
}

// View::level_size.
fn level_size(v: View, level: u32) -> vec3<u32> {
    let m = v.base_level + level;
    var h = 1u;
    var d = 1u;
    if v.axes >= 2u {
        h = max(checked_shr(v.height, m), 1u);
    }
    if v.axes == 3u {
        d = max(checked_shr(v.depth, m), 1u);
    }
    return vec3<u32>(max(checked_shr(v.width, m), 1u), h, d);
}

fn vec3_at(a: vec3<u32>, i: u32) -> u32 {
    switch i {
        case 0u: { return a.x; }
        case 1u: { return a.y; }
        default: { return a.z; }
    }
}

fn vec3i_at(a: vec3<i32>, i: u32) -> i32 {
    switch i {
        case 0u: { return a.x; }
        case 1u: { return a.y; }
        default: { return a.z; }
    }
}

// View::clamp_mode: cube faces clamp to their edge.
fn clamp_mode(v: View, axis: u32) -> u32 {
    if v.cube {
        return 2u;
    }
    return vec3_at(v.clamp_modes, axis) & 7u;
}

// View::taps: the per-axis taps at one level; `linear_override` 0 = none,
// 1 = all linear, 2 = all point.
fn view_taps(v: View, level: u32, linear_xy: bool, linear_z: bool, offset: u32, coords: vec4<u32>, linear_override: u32) -> array<AxisTaps, 3> {
    let size = level_size(v, level);
    var out: array<AxisTaps, 3>;
    for (var axis = 0u; axis < 3u; axis = axis + 1u) {
        if axis >= v.axes {
            out[axis] = single_tap(0);
            continue;
        }
        var s = fp_component(coords, axis);
        if v.cube {
            s = face_coordinate(s);
        }
        let mode = clamp_mode(v, axis);
        s = mirror_coordinate(mode, s);
        let n = vec3_at(size, axis);
        let u = prepare(mode, texel_fixed(s, n, v.normalized), n);
        var linear = select(linear_xy, linear_z, axis == 2u);
        if linear_override == 1u {
            linear = true;
        } else if linear_override == 2u {
            linear = false;
        }
        out[axis] = axis_taps(u, texel_offset(offset, axis), linear);
    }
    return out;
}

// View::layer: (slice or cube, face).
fn view_layer(v: View, coords: vec4<u32>) -> vec2<u32> {
    let last = v.layers - 1u;
    if v.cube {
        let fc = face_and_cube(coords.z);
        return vec2<u32>(min(fc.y, last), fc.x);
    }
    if v.layered {
        return vec2<u32>(array_slice(fp_component(coords, v.axes), last), 0u);
    }
    return vec2<u32>(0u, 0u);
}

// View::resolve: kind 0 = texel (slice, x, y, z), 1 = border, 2 = cube corner.
struct Resolved {
    kind: u32,
    slice: u32,
    x: u32,
    y: u32,
    z: u32,
}

fn view_resolve(v: View, level: u32, layer: vec2<u32>, ix: vec3<i32>, linear: vec3<bool>) -> Resolved {
    let size = level_size(v, level);
    if v.cube {
        let n = i32(size.x);
        let inside = ix.x >= 0 && ix.x < n && ix.y >= 0 && ix.y < n;
        if v.disable_cube_wrap || inside {
            return Resolved(0u, layer.x * 6u + layer.y, u32(clamp(ix.x, 0, n - 1)), u32(clamp(ix.y, 0, n - 1)), 0u);
        }
        let t = seamless(layer.y, ix.x, ix.y, size.x);
        if t.w == 0 {
            return Resolved(2u, 0u, 0u, 0u, 0u);
        }
        return Resolved(0u, layer.x * 6u + u32(t.x), u32(t.y), u32(t.z), 0u);
    }
    var out = vec3<u32>(0u);
    for (var axis = 0u; axis < 3u; axis = axis + 1u) {
        if axis >= v.axes {
            continue;
        }
        let t = wrap(clamp_mode(v, axis), vec3i_at(ix, axis), vec3_at(size, axis), linear[axis]);
        if t < 0 {
            return Resolved(1u, 0u, 0u, 0u, 0u);
        }
        switch axis {
            case 0u: { out.x = u32(t); }
            case 1u: { out.y = u32(t); }
            default: { out.z = u32(t); }
        }
    }
    return Resolved(0u, layer.x, out.x, out.y, out.z);
}

// Op flags of the LOD (gcn::mimg_ops::flag, as the translator passes them).
const LOD_FLAG_L: u32 = 1u;
const LOD_FLAG_LZ: u32 = 2u;
const LOD_FLAG_B: u32 = 4u;
const LOD_FLAG_CL: u32 = 8u;

struct LaneLod {
    unclamped: i32,
    clamped: i32,
    // Anisotropic samples (0: isotropic) and the step between them.
    aniso_taps: u32,
    aniso_step: vec3<u32>,
}

// lane_lod: the base LOD, the biases, the clamps.
fn lane_lod(v: View, flags: u32, bias: u32, trailing: u32, ddx: vec3<u32>, ddy: vec3<u32>) -> LaneLod {
    let size = level_size(v, 0u);
    var sx = vec3<u32>(0u);
    var sy = vec3<u32>(0u);
    for (var a = 0u; a < v.axes; a = a + 1u) {
        var x = flush_denorm(vec3_at(ddx, a));
        var y = flush_denorm(vec3_at(ddy, a));
        if v.normalized {
            let n = f32(vec3_at(size, a));
            x = bitcast<u32>(bitcast<f32>(x) * n);
            y = bitcast<u32>(bitcast<f32>(y) * n);
        }
        switch a {
            case 0u: { sx.x = x; sy.x = y; }
            case 1u: { sx.y = x; sy.y = y; }
            default: { sx.z = x; sy.z = y; }
        }
    }
    let wants_aniso = v.max_aniso > 0u && (v.mag_filter >= 2u || v.min_filter >= 2u) && !v.integer;
    var taps = 0u;
    var step = vec3<u32>(0u);
    var base = 0;
    if (flags & LOD_FLAG_L) != 0u {
        base = lod_from_f32(trailing);
    } else if (flags & LOD_FLAG_LZ) != 0u {
        base = 0;
    } else if wants_aniso {
        let a = anisotropic(sx, sy, 1u << v.max_aniso);
        if a.taps > 1u {
            taps = a.taps;
            step = select(ddy, ddx, a.along_x);
        }
        base = a.lod;
    } else {
        base = lod_from_derivatives(sx, sy);
    }
    var shader_bias = 0;
    if (flags & LOD_FLAG_B) != 0u {
        shader_bias = lod_from_f32(bias);
    }
    let unclamped = biased(base, v.lod_bias, shader_bias);
    var cl = -2147483647 - 1;
    if (flags & LOD_FLAG_CL) != 0u {
        cl = lod_from_f32(trailing);
    }
    let lo = max(max(v.min_lod, v.t_min_lod), cl);
    return LaneLod(unclamped, clamped(unclamped, lo, v.max_lod), taps, step);
}

// filters: (linear_xy, linear_z, aniso_filter) in x, y, z and the mip filter
// in w.
fn view_filters(v: View, lambda: i32) -> vec4<u32> {
    let xy = select(v.min_filter, v.mag_filter, magnifies(lambda));
    let linear_xy = (xy & 1u) == 1u;
    var linear_z = linear_xy;
    if v.z_filter == 1u {
        linear_z = false;
    } else if v.z_filter == 2u {
        linear_z = true;
    }
    if v.integer {
        return vec4<u32>(0u, 0u, 0u, select(MIP_POINT, MIP_NONE, v.mip_filter == MIP_NONE));
    }
    return vec4<u32>(u32(linear_xy), u32(linear_z), u32(xy >= 2u), v.mip_filter);
}
