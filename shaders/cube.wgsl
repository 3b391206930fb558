// cube.wgsl — a direction vector (Intel's cube coordinates) → the shared sampler's
// cube address: the WGSL mirror of src/texture/sample/cube_direction.rs, same
// names, same bits. Everything is integer arithmetic on f32 bits (no float
// division, no product a compiler could fuse). Needs is_nan_bits (convert.wgsl)
// and array_slice (sample.wgsl, present in every module that samples).

const CUBE_INDEX_LAST: u32 = 1048576u;

// IEEE |a| >= |b| (false when either is NaN): magnitudes order as their bits.
fn cube_abs_ge(a: u32, b: u32) -> bool {
    return !is_nan_bits(a) && !is_nan_bits(b) && (a & 0x7fffffffu) >= (b & 0x7fffffffu);
}

// v < 0: negative and not zero, not NaN.
fn cube_negative(v: u32) -> bool {
    return (v >> 31u) == 1u && (v & 0x7fffffffu) != 0u && !is_nan_bits(v);
}

// select_face: (face, sc, tc, ma) as bits; ties Z, then Y, then X.
fn select_face(x: u32, y: u32, z: u32) -> vec4<u32> {
    let s = 0x80000000u;
    if cube_abs_ge(z, x) && cube_abs_ge(z, y) {
        if cube_negative(z) {
            return vec4<u32>(5u, x ^ s, y ^ s, z);
        }
        return vec4<u32>(4u, x, y ^ s, z);
    }
    if cube_abs_ge(y, x) {
        if cube_negative(y) {
            return vec4<u32>(3u, x, z ^ s, y);
        }
        return vec4<u32>(2u, x, z, y);
    }
    if cube_negative(x) {
        return vec4<u32>(1u, z, y ^ s, x);
    }
    return vec4<u32>(0u, z ^ s, y ^ s, x);
}

// significand: |v| = m × 2^e with 2^23 <= m < 2^24 (finite, non-zero); (m, e + 200).
fn cube_significand(bits: u32) -> vec2<u32> {
    let e = (bits >> 23u) & 0xffu;
    let m = bits & 0x7fffffu;
    if e == 0u {
        let shift = countLeadingZeros(m) - 8u;
        return vec2<u32>(m << shift, 51u - shift);
    }
    return vec2<u32>(m | 0x800000u, e + 50u);
}

// direction_coordinate: 1.5 + sc / (2 |ma|) rounded once to nearest even, as bits.
fn direction_coordinate(sc: u32, ma: u32) -> u32 {
    let mag = sc & 0x7fffffffu;
    let m = ma & 0x7fffffffu;
    if is_nan_bits(sc) || is_nan_bits(ma) || (mag == 0x7f800000u && m == 0x7f800000u) {
        return CANONICAL_NAN;
    }
    if m == 0u || mag == 0u || m == 0x7f800000u {
        return 0x3fc00000u;
    }
    let s = cube_significand(mag);
    let t = cube_significand(m);
    let d = i32(t.y) - i32(s.y);
    var n = 0u;
    if d < 0 || (d == 0 && s.x > t.x) {
        n = 0x400000u;
    } else {
        // q = floor(ms × 2^24 / mm) by long division, r its remainder.
        var q = s.x / t.x;
        var r = s.x - q * t.x;
        for (var i = 0u; i < 24u; i = i + 1u) {
            r = r << 1u;
            q = q << 1u;
            if r >= t.x {
                r = r - t.x;
                q = q | 1u;
            }
        }
        let k = d + 2;
        if k < 26 {
            let ku = u32(k);
            let kept = q >> ku;
            let rest = q & ((1u << ku) - 1u);
            let half = 1u << (ku - 1u);
            var up = 0u;
            if rest > half || (rest == half && (r != 0u || (kept & 1u) == 1u)) {
                up = 1u;
            }
            n = min(kept + up, 0x400000u);
        }
    }
    var sig = 0xc00000u + n;
    if (sc >> 31u) == 1u {
        sig = 0xc00000u - n;
    }
    if sig == 0x1000000u {
        return 0x40000000u;
    }
    return (127u << 23u) | (sig - 0x800000u);
}

// cube_address: (s', t', face_id) bits of a direction and an Intel cube index.
fn cube_address(x: u32, y: u32, z: u32, ai: u32) -> vec3<u32> {
    let f = select_face(x, y, z);
    let cube = array_slice(ai, CUBE_INDEX_LAST);
    return vec3<u32>(direction_coordinate(f.y, f.w), direction_coordinate(f.z, f.w), bitcast<u32>(f32(8u * cube + f.x)));
}
