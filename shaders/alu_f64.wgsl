// alu_f64.wgsl — the f64 families of the ALU, the WGSL mirror of
// src/cpu/alu/float.rs on f64. WGSL has no f64 every adapter runs, and an
// adapter's f64 may flush denormals or fuse nothing, so an f64 is its bits in
// a vec2<u32> (x low dword, y high) and every operation is integer
// arithmetic: the exact result in a 128-bit frame (vec4<u32>, x lowest),
// rounded once to nearest even by f64_round_frame, as fma.wgsl does for f32.
// `mode` is the MODE register (float.rs `Mode::of`; f64 denormals are
// FP_DENORM bits 7:6). Needs convert.wgsl (u64_*, u128_*), alu_f32.wgsl (the f32 results of
// conversions) and the FAM_* constants of alu_int.wgsl; included in
// whole-program modules that compute on f64.

const F64_NAN: vec2<u32> = vec2<u32>(0u, 0x7ff80000u);
const F64_INF: u32 = 0x7ff00000u;
const F64_ONE: vec2<u32> = vec2<u32>(0u, 0x3ff00000u);

// ---- f64 bits ----

fn f64_is_nan(x: vec2<u32>) -> bool {
    let h = x.y & 0x7fffffffu;
    return h > F64_INF || (h == F64_INF && x.x != 0u);
}

fn f64_is_inf(x: vec2<u32>) -> bool {
    return (x.y & 0x7fffffffu) == F64_INF && x.x == 0u;
}

fn f64_is_zero(x: vec2<u32>) -> bool {
    return (x.y & 0x7fffffffu) == 0u && x.x == 0u;
}

fn f64_is_denorm(x: vec2<u32>) -> bool {
    return (x.y & F64_INF) == 0u && ((x.y & 0xfffffu) != 0u || x.x != 0u);
}

// float.rs flush_in / flush_out on an FP_DENORM code.
fn f64_flush_in(den: u32, x: vec2<u32>) -> vec2<u32> {
    if (den & 1u) == 0u && f64_is_denorm(x) {
        return vec2<u32>(0u, x.y & 0x80000000u);
    }
    return x;
}

fn f64_flush_out(den: u32, x: vec2<u32>) -> vec2<u32> {
    if (den & 2u) == 0u && f64_is_denorm(x) {
        return vec2<u32>(0u, x.y & 0x80000000u);
    }
    return x;
}

fn f64_quiet(x: vec2<u32>) -> vec2<u32> {
    return vec2<u32>(x.x, x.y | 0x80000u);
}

// The significand (implicit bit included) and the exponent of its last bit
// of a finite magnitude: |x| = m × 2^e.
struct F64Parts {
    m: vec2<u32>,
    e: i32,
}

fn f64_parts(x: vec2<u32>) -> F64Parts {
    let field = (x.y >> 20u) & 0x7ffu;
    let m = vec2<u32>(x.x, (x.y & 0xfffffu) | select(0x100000u, 0u, field == 0u));
    return F64Parts(m, i32(max(field, 1u)) - 1075);
}

// w × 2^e0 (w ≠ 0; bit 0 may be a round-to-odd bit) rounded to the nearest
// even f64 with `sign` (the high dword's sign bit), denormals and overflow
// to ∞ included (fma.wgsl round_to_float on 53 bits).
fn f64_round_frame(w: vec4<u32>, e0: i32, sign: u32) -> vec2<u32> {
    let top = e0 + i32(u128_bits(w) - 1u);
    let denormal = top + 1023 < 1;
    let lsb_exp = select(top - 52, -1074, denormal);
    let cut = lsb_exp - e0;
    var q = vec2<u32>(0u);
    if cut <= 0 {
        q = u128_shl(w, u32(-cut)).xy;
    } else {
        // One bit more than q: the guard; then whether a lower bit is set.
        let g = u128_shr(w, u32(cut - 1));
        let lost = u128_lost(w, u32(cut - 1));
        q = vec2<u32>((g.x >> 1u) | (g.y << 31u), (g.y >> 1u) | (g.z << 31u));
        if (g.x & 1u) == 1u && (lost || (q.x & 1u) == 1u) {
            q = u64_add(q, vec2<u32>(1u, 0u));
        }
    }
    if denormal {
        // Rounding up to 2^52 gives the smallest normal's bits, as it should.
        return vec2<u32>(q.x, sign | q.y);
    }
    let biased = top + 1023;
    // q in [2^52, 2^53]: a carry moves into the exponent.
    let bits = u64_add(vec2<u32>(0u, u32(biased - 1) << 20u), q);
    if biased >= 2047 || bits.y >= F64_INF {
        return vec2<u32>(0u, sign | F64_INF);
    }
    return vec2<u32>(bits.x, sign | bits.y);
}

// The exact a × b + c of non-NaN inputs, rounded once (float.rs's host
// f64::mul_add): the product's 106 bits and the addend in a 128-bit frame
// with the larger's top bit at bit 125, the smaller's bits below the frame
// folded into bit 0 (round to odd). An invalid operation gives the default
// NaN.
fn f64_fma_bits(a: vec2<u32>, b: vec2<u32>, c: vec2<u32>) -> vec2<u32> {
    return f64_fma_scaled(a, b, c, 0);
}

// (a × b + c) × 2^scale of non-NaN inputs, rounded once (exact.rs
// fma_scaled, with float.rs fmas's ∞ cases): f64_fma_bits with the scale
// added to the exponent before the rounding.
fn f64_fma_scaled(a: vec2<u32>, b: vec2<u32>, c: vec2<u32>, scale: i32) -> vec2<u32> {
    let sp = (a.y ^ b.y) & 0x80000000u;
    let sc = c.y & 0x80000000u;
    if f64_is_inf(a) || f64_is_inf(b) {
        if f64_is_zero(a) || f64_is_zero(b) || (f64_is_inf(c) && sc != sp) {
            return F64_NAN;
        }
        return vec2<u32>(0u, sp | F64_INF);
    }
    if f64_is_inf(c) {
        return c;
    }
    if f64_is_zero(a) || f64_is_zero(b) {
        // ±0 + c; +0 + −0 is +0.
        if f64_is_zero(c) {
            return vec2<u32>(0u, sp & sc);
        }
        if scale == 0 {
            return c;
        }
        let pc0 = f64_parts(c);
        return f64_round_frame(vec4<u32>(pc0.m, 0u, 0u), pc0.e + scale, sc);
    }
    let pa = f64_parts(a);
    let pb = f64_parts(b);
    let p = u128_mul64(pa.m, pb.m);
    let ep = pa.e + pb.e;
    if f64_is_zero(c) {
        return f64_round_frame(p, ep + scale, sp);
    }
    let pc = f64_parts(c);
    let cv = vec4<u32>(pc.m, 0u, 0u);
    let top_p = ep + i32(u128_bits(p) - 1u);
    let top_c = pc.e + i32(u128_bits(cv) - 1u);
    let c_big = top_c > top_p;
    let big = select(p, cv, c_big);
    let big_lsb = select(ep, pc.e, c_big);
    let big_sign = select(sp, sc, c_big);
    let small = select(cv, p, c_big);
    let small_lsb = select(pc.e, ep, c_big);
    let small_sign = select(sc, sp, c_big);
    let e0 = max(top_p, top_c) - 125;
    let wb = u128_shl(big, u32(big_lsb - e0));
    let shift = small_lsb - e0;
    var ws = vec4<u32>(0u);
    var jam = false;
    if shift >= 0 {
        ws = u128_shl(small, u32(shift));
    } else {
        ws = u128_shr(small, u32(-shift));
        jam = u128_lost(small, u32(-shift));
    }
    var w: vec4<u32>;
    var sign = big_sign;
    if big_sign == small_sign {
        w = u128_add(wb, ws);
        if jam {
            w.x = w.x | 1u;
        }
    } else {
        if u128_less(wb, ws) {
            w = u128_sub(ws, wb);
            sign = small_sign;
        } else {
            w = u128_sub(wb, ws);
        }
        if jam {
            // The exact difference lies in (w − 1, w): the odd one of the two.
            w = u128_sub(w, vec4<u32>(1u, 0u, 0u, 0u));
            w.x = w.x | 1u;
        }
    }
    if all(w == vec4<u32>(0u)) {
        // Exact cancellation gives +0 under round to nearest even.
        return vec2<u32>(0u);
    }
    return f64_round_frame(w, e0 + scale, sign);
}

// float.rs arith's NaN rule on flushed inputs: the first NaN among the
// first `n` quieted (x = 1 in the result's z when there is one).
fn f64_first_nan(a: vec2<u32>, b: vec2<u32>, c: vec2<u32>, n: u32) -> vec3<u32> {
    if f64_is_nan(a) {
        return vec3<u32>(f64_quiet(a), 1u);
    }
    if n >= 2u && f64_is_nan(b) {
        return vec3<u32>(f64_quiet(b), 1u);
    }
    if n >= 3u && f64_is_nan(c) {
        return vec3<u32>(f64_quiet(c), 1u);
    }
    return vec3<u32>(0u);
}

// float.rs arith on f64 for a × b + c: inputs flushed, the NaN rule, the
// correctly rounded result, the output flushed (add: a × 1 + b, mul: a × b
// + −0, sub: a × 1 + −b — each exact before its one rounding).
fn f64_arith(den: u32, a0: vec2<u32>, b0: vec2<u32>, c0: vec2<u32>, n: u32, fam: u32) -> vec2<u32> {
    let a = f64_flush_in(den, a0);
    let b = f64_flush_in(den, b0);
    let c = f64_flush_in(den, c0);
    let nan = f64_first_nan(a, b, c, n);
    if nan.z == 1u {
        return nan.xy;
    }
    // The family picks the multiplier and addend; one f64_fma_bits call
    // takes them (a call per family made the driver inline four copies).
    var m = b;
    var d = c;
    switch fam {
        case FAM_ADD: { m = F64_ONE; d = b; }
        case FAM_SUB: { m = F64_ONE; d = vec2<u32>(b.x, b.y ^ 0x80000000u); }
        case FAM_MUL: { d = vec2<u32>(0u, 0x80000000u); }
        default: {}
    }
    return f64_flush_out(den, f64_fma_bits(a, m, d));
}

// x × 2^n with one rounding (float.rs scale_f64), x finite or not.
fn f64_scale(x: vec2<u32>, n: i32) -> vec2<u32> {
    if f64_is_zero(x) || (x.y & F64_INF) == F64_INF {
        return x;
    }
    let p = f64_parts(x);
    return f64_round_frame(vec4<u32>(p.m, 0u, 0u), p.e + clamp(n, -2200, 2200), x.y & 0x80000000u);
}

// float.rs ldexp on f64.
fn f64_ldexp(mode: u32, a0: vec2<u32>, n: i32) -> vec2<u32> {
    let den = (mode >> 6u) & 3u;
    let a = f64_flush_in(den, a0);
    if f64_is_nan(a) {
        return f64_quiet(a);
    }
    return f64_flush_out(den, f64_scale(a, n));
}

// float.rs frexp_mant / frexp_exp on f64 (flushed input): the exponent in x.
fn f64_frexp(a: vec2<u32>, want_exp: bool) -> vec2<u32> {
    if (a.y & F64_INF) == F64_INF || f64_is_zero(a) {
        return select(a, vec2<u32>(0u), want_exp);
    }
    let p = f64_parts(a);
    let lead = select(firstLeadingBit(p.m.x), 32u + firstLeadingBit(p.m.y), p.m.y != 0u);
    let m = u64_shl(p.m, 52u - lead);
    if want_exp {
        return vec2<u32>(bitcast<u32>(p.e + i32(lead) + 1), 0u);
    }
    return vec2<u32>(m.x, (a.y & 0x80000000u) | (1022u << 20u) | (m.y & 0xfffffu));
}

// floor, ceil, trunc or round-to-nearest-even of a non-NaN f64 (float.rs
// round_int): the integral part, and the fraction compared with one half.
fn f64_round_int(x: vec2<u32>, fam: u32) -> vec2<u32> {
    let sign = x.y & 0x80000000u;
    let e = i32((x.y >> 20u) & 0x7ffu) - 1023;
    if e >= 52 || f64_is_zero(x) {
        return x;
    }
    var int_part = vec2<u32>(0u);
    var frac_nz = true;
    var above_half = false;
    var half = false;
    if e >= 0 {
        let fbits = u32(52 - e);
        let m = vec2<u32>(x.x, (x.y & 0xfffffu) | 0x100000u);
        int_part = u64_shr(m, fbits);
        let f = u64_sub(m, u64_shl(int_part, fbits));
        let h = u64_shl(vec2<u32>(1u, 0u), fbits - 1u);
        frac_nz = any(f != vec2<u32>(0u));
        half = all(f == h);
        above_half = u64_lt(h, f);
    } else {
        // |x| < 1: one half is 0x3fe00000_00000000.
        let ax = vec2<u32>(x.x, x.y & 0x7fffffffu);
        half = all(ax == vec2<u32>(0u, 0x3fe00000u));
        above_half = u64_lt(vec2<u32>(0u, 0x3fe00000u), ax);
    }
    var up = false;
    switch fam {
        case FAM_FLOOR: { up = sign != 0u && frac_nz; }
        case FAM_CEIL: { up = sign == 0u && frac_nz; }
        case FAM_TRUNC: { up = false; }
        default: { up = above_half || (half && (int_part.x & 1u) == 1u); }
    }
    let n = u64_add(int_part, vec2<u32>(select(0u, 1u, up), 0u));
    if all(n == vec2<u32>(0u)) {
        return vec2<u32>(0u, sign);
    }
    return f64_round_frame(vec4<u32>(n, 0u, 0u), 0, sign);
}

fn f64_rint1(den: u32, a0: vec2<u32>, fam: u32) -> vec2<u32> {
    let a = f64_flush_in(den, a0);
    if f64_is_nan(a) {
        return f64_quiet(a);
    }
    return f64_flush_out(den, f64_round_int(a, fam));
}

// float.rs `fract` on f64: x − ⌊x⌋ rounded once, at most the largest value
// below 1.
fn f64_fract1(den: u32, a0: vec2<u32>) -> vec2<u32> {
    let a = f64_flush_in(den, a0);
    if f64_is_nan(a) {
        return f64_quiet(a);
    }
    if f64_is_inf(a) {
        return F64_NAN;
    }
    let r = f64_arith(den, a, f64_round_int(a, FAM_FLOOR), vec2<u32>(0u), 2u, FAM_SUB);
    let below_one = vec2<u32>(0xffffffffu, 0x3fefffffu);
    return select(r, below_one, u64_lt(below_one, r));
}

// An integer whose order is the float order of non-NaN bits (float.rs
// total_key): as a biased 64-bit value, compared unsigned.
fn f64_order_key(x: vec2<u32>) -> vec2<u32> {
    if (x.y & 0x80000000u) != 0u {
        // −mag − 1, biased by 2^63: 2^63 − 1 − mag.
        return u64_sub(vec2<u32>(0xffffffffu, 0x7fffffffu), vec2<u32>(x.x, x.y & 0x7fffffffu));
    }
    return vec2<u32>(x.x, x.y | 0x80000000u);
}

// float.rs min_max on f64.
fn f64_min_max(mode: u32, a0: vec2<u32>, b0: vec2<u32>, is_max: bool) -> vec2<u32> {
    let den = (mode >> 6u) & 3u;
    let a = f64_flush_in(den, a0);
    let b = f64_flush_in(den, b0);
    let snan_a = f64_is_nan(a) && (a.y & 0x80000u) == 0u;
    let snan_b = f64_is_nan(b) && (b.y & 0x80000u) == 0u;
    if ((mode >> 9u) & 1u) == 1u && (snan_a || snan_b) {
        return f64_first_nan(a, b, b, 2u).xy;
    }
    if f64_is_nan(a) && f64_is_nan(b) {
        return f64_quiet(a);
    }
    if f64_is_nan(a) {
        return b;
    }
    if f64_is_nan(b) {
        return a;
    }
    let ka = f64_order_key(a);
    let kb = f64_order_key(b);
    let pick_a = select(!u64_lt(kb, ka), !u64_lt(ka, kb), is_max);
    return f64_flush_out(den, select(b, a, pick_a));
}

// float.rs eval's Med3 on f64.
fn f64_med3(mode: u32, a: vec2<u32>, b: vec2<u32>, c: vec2<u32>) -> vec2<u32> {
    let den = (mode >> 6u) & 3u;
    let fa = f64_flush_in(den, a);
    let fb = f64_flush_in(den, b);
    let fc = f64_flush_in(den, c);
    // With a NaN, the minimum of the three; otherwise the maximum of the two
    // the maximum of all three is not. Three f64_min_max calls whatever the
    // case (a call per case made the driver inline seven copies).
    let any_nan = f64_is_nan(fa) || f64_is_nan(fb) || f64_is_nan(fc);
    let m3 = f64_min_max(mode, f64_min_max(mode, a, b, !any_nan), c, !any_nan);
    if any_nan {
        return m3;
    }
    var x = a;
    var y = b;
    if all(m3 == f64_flush_out(den, fa)) {
        x = b;
        y = c;
    } else if all(m3 == f64_flush_out(den, fb)) {
        y = c;
    }
    return f64_min_max(mode, x, y, true);
}

// float.rs compare on f64: the relation on the values, NaN unordered.
fn f64_compare(mode: u32, rel: u32, a0: vec2<u32>, b0: vec2<u32>) -> bool {
    let den = (mode >> 6u) & 3u;
    let a = f64_flush_in(den, a0);
    let b = f64_flush_in(den, b0);
    let unordered = f64_is_nan(a) || f64_is_nan(b);
    // ±0 are equal; otherwise the order keys order the values.
    let both_zero = f64_is_zero(a) && f64_is_zero(b);
    let ka = f64_order_key(a);
    let kb = f64_order_key(b);
    let lt = !unordered && !both_zero && u64_lt(ka, kb);
    let gt = !unordered && !both_zero && u64_lt(kb, ka);
    let eq = !unordered && (both_zero || all(ka == kb));
    return float_rel(rel, lt, eq, gt, unordered);
}

// float.rs class on f64: the class bit of `a` that `mask` tests.
fn f64_class(a: vec2<u32>, mask: u32) -> bool {
    let neg = (a.y & 0x80000000u) != 0u;
    let exp = a.y & F64_INF;
    let mant_nz = (a.y & 0xfffffu) != 0u || a.x != 0u;
    var bit = 0u;
    if exp == F64_INF {
        if !mant_nz {
            bit = select(9u, 2u, neg);
        } else {
            bit = select(0u, 1u, (a.y & 0x80000u) != 0u);
        }
    } else if exp == 0u {
        if !mant_nz {
            bit = select(6u, 5u, neg);
        } else {
            bit = select(7u, 4u, neg);
        }
    } else {
        bit = select(8u, 3u, neg);
    }
    return ((mask >> bit) & 1u) == 1u;
}

// float.rs float_to_float from f64 to f32: one rounding, a NaN quieted with
// the payload's top bits.
fn f64_to_f32(mode: u32, a0: vec2<u32>) -> u32 {
    let a = f64_flush_in((mode >> 6u) & 3u, a0);
    let sign = a.y & 0x80000000u;
    var r: u32;
    if f64_is_nan(a) {
        r = 0x7fc00000u | sign | ((a.y << 3u) | (a.x >> 29u)) & 0x7fffffu;
    } else if f64_is_inf(a) {
        r = sign | 0x7f800000u;
    } else if f64_is_zero(a) {
        r = sign;
    } else {
        let p = f64_parts(a);
        r = round_to_float(vec3<u32>(p.m, 0u), p.e, sign, 23u, 127);
    }
    return f32_flush_out((mode >> 4u) & 3u, r);
}

// float.rs float_to_float from f32 to f64: exact; a NaN quieted, its
// payload kept.
fn f64_from_f32(mode: u32, a0: u32) -> vec2<u32> {
    let a = f32_flush_in((mode >> 4u) & 3u, a0);
    let sign = a & 0x80000000u;
    var r: vec2<u32>;
    if f32_is_nan(a) {
        let p = a & 0x7fffffu;
        r = vec2<u32>(p << 29u, sign | 0x7ff80000u | (p >> 3u));
    } else if (a & 0x7fffffffu) == 0x7f800000u {
        r = vec2<u32>(0u, sign | F64_INF);
    } else if (a & 0x7fffffffu) == 0u {
        r = vec2<u32>(0u, sign);
    } else {
        let d = decompose(a & 0x7fffffffu);
        r = f64_round_frame(vec4<u32>(u32(d.x), 0u, 0u, 0u), d.y, sign);
    }
    return f64_flush_out((mode >> 6u) & 3u, r);
}

// float.rs from_int_bits to f64: exact.
fn f64_from_int(mode: u32, a: u32, signed: bool) -> vec2<u32> {
    let neg = signed && (a & 0x80000000u) != 0u;
    let mag = select(a, 0u - a, neg);
    if mag == 0u {
        return vec2<u32>(0u);
    }
    return f64_round_frame(vec4<u32>(mag, 0u, 0u, 0u), 0, select(0u, 0x80000000u, neg));
}

// float.rs to_int from f64: toward zero, saturated, NaN → 0; `to` is the
// target's type code (bits, 0x100 signed).
fn f64_to_int(a: vec2<u32>, to: u32) -> u32 {
    let signed = (to & 0x100u) != 0u;
    if f64_is_nan(a) {
        return 0u;
    }
    let neg = (a.y & 0x80000000u) != 0u;
    let t = f64_round_int(a, FAM_TRUNC);
    let e = i32((t.y >> 20u) & 0x7ffu) - 1023;
    // The magnitude as an integer, saturated at 2^32.
    var mag = 0u;
    var big = false;
    if f64_is_zero(t) || e < 0 {
        mag = 0u;
    } else if e >= 32 {
        big = true;
    } else {
        let m = vec2<u32>(t.x, (t.y & 0xfffffu) | 0x100000u);
        mag = u64_shr(m, u32(52 - e)).x;
    }
    if signed {
        if neg {
            return select(0u - mag, 0x80000000u, big || mag > 0x80000000u);
        }
        return select(mag, 0x7fffffffu, big || mag > 0x7fffffffu);
    }
    if neg {
        return 0u;
    }
    return select(mag, 0xffffffffu, big);
}

// float.rs output on f64: OMOD (×2, ×4, ÷2) then CLAMP to [0, 1].
fn f64_output(mode: u32, x0: vec2<u32>, omod: u32, clamp: bool) -> vec2<u32> {
    var x = x0;
    // One f64_ldexp call for the three scales (omod_power; a call per case
    // made the driver inline three copies).
    if omod != 0u {
        x = f64_ldexp(mode, x, omod_power(omod));
    }
    if !clamp {
        return x;
    }
    if f64_is_nan(x) {
        return select(x, vec2<u32>(0u), ((mode >> 8u) & 1u) == 1u);
    }
    if (x.y & 0x80000000u) != 0u {
        return vec2<u32>(0u);
    }
    return select(x, F64_ONE, u64_lt(F64_ONE, x));
}

// The significand normalised to 53 bits (bit 52 set) and the exponent of
// its top bit, of a finite nonzero magnitude (float.rs decompose on f64).
fn f64_norm(x: vec2<u32>) -> F64Parts {
    let p = f64_parts(x);
    let lead = select(firstLeadingBit(p.m.x), 32u + firstLeadingBit(p.m.y), p.m.y != 0u);
    return F64Parts(u64_shl(p.m, 52u - lead), p.e + i32(lead));
}

// ⌊2^k / m⌋ (m < 2^54, the quotient below 2^127) by restoring division,
// with z = 1 when a remainder is left (exact.rs pow2_div).
fn f64_pow2_div(k: u32, m: vec2<u32>) -> F64Quot {
    var r = vec2<u32>(1u, 0u);
    var q = vec4<u32>(0u);
    if !u64_lt(r, m) {
        r = u64_sub(r, m);
        q.x = 1u;
    }
    for (var i = 0u; i < k; i = i + 1u) {
        r = u64_shl(r, 1u);
        q = u128_shl(q, 1u);
        if !u64_lt(r, m) {
            r = u64_sub(r, m);
            q.x = q.x | 1u;
        }
    }
    return F64Quot(q, any(r != vec2<u32>(0u)));
}

struct F64Quot {
    q: vec4<u32>,
    inexact: bool,
}

// ⌊√n⌋ of a 128-bit n, digit by digit, and whether a remainder is left
// (exact.rs isqrt).
fn u128_isqrt(n: vec4<u32>) -> F64Quot {
    var rem = n;
    var root = vec4<u32>(0u);
    var bit = vec4<u32>(0u, 0u, 0u, 0x40000000u);
    while u128_less(rem, bit) && any(bit != vec4<u32>(0u)) {
        bit = u128_shr(bit, 2u);
    }
    while any(bit != vec4<u32>(0u)) {
        let t = u128_add(root, bit);
        if !u128_less(rem, t) {
            rem = u128_sub(rem, t);
            root = u128_add(u128_shr(root, 1u), bit);
        } else {
            root = u128_shr(root, 1u);
        }
        bit = u128_shr(bit, 2u);
    }
    return F64Quot(root, any(rem != vec4<u32>(0u)));
}

// 1 / x, √x and 1/√x correctly rounded (float.rs arith of `1 / x` and
// `sqrt`, float.rs rsq), with the NaN rule and the mode's flushing.
fn f64_unary(mode: u32, a0: vec2<u32>, fam: u32) -> vec2<u32> {
    let den = (mode >> 6u) & 3u;
    let a = f64_flush_in(den, a0);
    if f64_is_nan(a) {
        return f64_quiet(a);
    }
    let sign = a.y & 0x80000000u;
    var r: vec2<u32>;
    if fam == FAM_RCP {
        if f64_is_zero(a) {
            r = vec2<u32>(0u, sign | F64_INF);
        } else if f64_is_inf(a) {
            r = vec2<u32>(0u, sign);
        } else {
            // 1/x = ⌊2^108 / m⌋ × 2^(−108 − e), m normalised: 56 bits and a
            // sticky bit.
            let p = f64_norm(a);
            let d = f64_pow2_div(108u, p.m);
            let w = u128_shl(d.q, 1u);
            r = f64_round_frame(vec4<u32>(w.x | select(0u, 1u, d.inexact), w.yzw), -108 - (p.e - 52) - 1, sign);
        }
    } else if fam == FAM_SQRT {
        if f64_is_zero(a) {
            r = a;
        } else if sign != 0u {
            r = F64_NAN;
        } else if f64_is_inf(a) {
            r = a;
        } else {
            // √(m × 2^e) with e even = √(m × 2^58) × 2^((e − 58) / 2), m
            // normalised to 53 bits: a root of 56 bits and a sticky bit.
            let p = f64_norm(a);
            var m = vec4<u32>(p.m, 0u, 0u);
            var e = p.e - 52;
            if (e & 1) != 0 {
                m = u128_shl(m, 1u);
                e = e - 1;
            }
            let s = u128_isqrt(u128_shl(m, 58u));
            let w = u128_shl(s.q, 1u);
            r = f64_round_frame(vec4<u32>(w.x | select(0u, 1u, s.inexact), w.yzw), (e - 58) / 2 - 1, 0u);
        }
    } else {
        // Rsq (float.rs rsq; exact.rs rsq with K = 166).
        if f64_is_zero(a) {
            r = vec2<u32>(a.x, a.y | F64_INF);
        } else if sign != 0u {
            r = F64_NAN;
        } else if f64_is_inf(a) {
            r = vec2<u32>(0u);
        } else {
            let p = f64_norm(a);
            var m = p.m;
            var e = p.e - 52;
            if (e & 1) != 0 {
                m = u64_shl(m, 1u);
                e = e - 1;
            }
            let d = f64_pow2_div(166u, m);
            let s = u128_isqrt(d.q);
            let sticky = d.inexact || s.inexact;
            let w = u128_shl(s.q, 1u);
            r = f64_round_frame(vec4<u32>(w.x | select(0u, 1u, sticky), w.yzw), -83 - e / 2 - 1, 0u);
        }
    }
    return f64_flush_out(den, r);
}

// division.rs scale on f64 (v_div_scale_f64): D and VCC (z).
fn f64_div_scale(mode: u32, a: vec2<u32>, b: vec2<u32>, c: vec2<u32>) -> vec3<u32> {
    let keep = mode | 0x40u;
    let fb = i32((b.y >> 20u) & 0x7ffu);
    let fc = i32((c.y >> 20u) & 0x7ffu);
    let finite_b = !f64_is_nan(b) && !f64_is_inf(b) && !f64_is_zero(b);
    let finite_c = !f64_is_nan(c) && !f64_is_inf(c) && !f64_is_zero(c);
    let feq_ab = !f64_is_nan(a) && !f64_is_nan(b) && (all(a == b) || (f64_is_zero(a) && f64_is_zero(b)));
    let feq_ac = !f64_is_nan(a) && !f64_is_nan(c) && (all(a == c) || (f64_is_zero(a) && f64_is_zero(c)));
    var recip_denorm = false;
    var quot_denorm = false;
    if finite_b {
        let nb = f64_norm(b);
        recip_denorm = nb.e > 1022 || (nb.e == 1022 && any(nb.m != vec2<u32>(0u, 0x100000u)));
        if finite_c {
            // |c| < |b| × 2^(1 − 1023) (division.rs below_scaled).
            let nc = f64_norm(c);
            let ek = nb.e - 1022;
            quot_denorm = nc.e < ek || (nc.e == ek && u64_lt(nc.m, nb.m));
        }
    }
    var d = a;
    // The power of two a is scaled by, 0 for none: one f64_ldexp call for
    // every branch (a call in each made the driver inline six copies).
    var n = 0;
    var vcc = false;
    if (!f64_is_nan(c) && f64_is_zero(c)) || (!f64_is_nan(b) && f64_is_zero(b)) {
        d = F64_NAN;
    } else if fc - fb >= 768 {
        vcc = true;
        if feq_ab {
            n = 128;
        }
    } else if f64_is_denorm(b) {
        n = 128;
    } else if recip_denorm && quot_denorm {
        vcc = true;
        if feq_ab {
            n = -128;
        }
    } else if recip_denorm {
        n = -128;
    } else if quot_denorm {
        vcc = true;
        if feq_ac {
            n = 128;
        }
    } else if fc <= 53 {
        n = 128;
    }
    if n != 0 {
        d = f64_ldexp(keep, a, n);
    }
    if f64_is_nan(d) {
        d = f64_quiet(d);
    } else {
        d = f64_flush_out((mode >> 6u) & 3u, d);
    }
    return vec3<u32>(d, select(0u, 1u, vcc));
}

// division.rs fmas on f64 (v_div_fmas_f64): a × b + c, scaled by 2^±128
// when VCC (k) is set, rounded once.
fn f64_div_fmas(mode: u32, a: vec2<u32>, b: vec2<u32>, c: vec2<u32>, k: bool) -> vec2<u32> {
    let nan = f64_first_nan(a, b, c, 3u);
    if nan.z == 1u {
        return nan.xy;
    }
    var scale = 0;
    if k {
        scale = select(-128, 128, ((c.y >> 20u) & 0x7ffu) > 1023u);
    }
    let r = f64_fma_scaled(a, b, c, scale);
    if f64_is_nan(r) {
        return r;
    }
    return f64_flush_out((mode >> 6u) & 3u, r);
}

// division.rs fixup on f64 (v_div_fixup_f64).
fn f64_div_fixup(mode: u32, a: vec2<u32>, b: vec2<u32>, c: vec2<u32>) -> vec2<u32> {
    let sign_out = (b.y ^ c.y) & 0x80000000u;
    let fb = i32((b.y >> 20u) & 0x7ffu);
    let fc = i32((c.y >> 20u) & 0x7ffu);
    var r: vec2<u32>;
    if f64_is_nan(c) {
        r = f64_quiet(c);
    } else if f64_is_nan(b) {
        r = f64_quiet(b);
    } else if (f64_is_zero(b) && f64_is_zero(c)) || (f64_is_inf(b) && f64_is_inf(c)) {
        r = vec2<u32>(0u, 0xfff80000u);
    } else if f64_is_zero(b) || f64_is_inf(c) {
        r = vec2<u32>(0u, sign_out | F64_INF);
    } else if f64_is_inf(b) || f64_is_zero(c) || fc - fb < -1075 {
        r = vec2<u32>(0u, sign_out);
    } else if f64_is_nan(a) {
        r = vec2<u32>(0u, sign_out | F64_INF);
    } else {
        r = vec2<u32>(a.x, sign_out | (a.y & 0x7fffffffu));
    }
    if f64_is_nan(r) {
        return r;
    }
    return f64_flush_out((mode >> 6u) & 3u, r);
}

fn f64_r(v: vec2<u32>) -> vec3<u32> {
    return vec3<u32>(v, 0u);
}

// ---- float.rs eval on f64, one function per case. ----

// FAM_ADD, FAM_SUB, FAM_MUL, FAM_FMA (alu_f64's case).
fn f64op_add(fam: u32, sub: u32, mode: u32, a: vec2<u32>, b: vec2<u32>, c: vec2<u32>, k: bool) -> vec3<u32> {
    return f64_r(f64_arith((mode >> 6u) & 3u, a, b, c, select(2u, 3u, fam == FAM_FMA), fam));
}

// FAM_MIN, FAM_MAX, FAM_MIN3, FAM_MAX3 (alu_f64's cases).
fn f64op_min(fam: u32, sub: u32, mode: u32, a: vec2<u32>, b: vec2<u32>, c: vec2<u32>, k: bool) -> vec3<u32> {
    let is_max = fam == FAM_MAX || fam == FAM_MAX3;
    let r = f64_min_max(mode, a, b, is_max);
    if fam == FAM_MIN3 || fam == FAM_MAX3 {
        return f64_r(f64_min_max(mode, r, c, is_max));
    }
    return f64_r(r);
}

// FAM_MED3 (alu_f64's case).
fn f64op_med3(fam: u32, sub: u32, mode: u32, a: vec2<u32>, b: vec2<u32>, c: vec2<u32>, k: bool) -> vec3<u32> {
    return f64_r(f64_med3(mode, a, b, c));
}

// FAM_FLOOR, FAM_CEIL, FAM_TRUNC, FAM_RNDNE (alu_f64's case).
fn f64op_floor(fam: u32, sub: u32, mode: u32, a: vec2<u32>, b: vec2<u32>, c: vec2<u32>, k: bool) -> vec3<u32> {
    return f64_r(f64_rint1((mode >> 6u) & 3u, a, fam));
}

// FAM_FRACT (alu_f64's case).
fn f64op_fract(fam: u32, sub: u32, mode: u32, a: vec2<u32>, b: vec2<u32>, c: vec2<u32>, k: bool) -> vec3<u32> {
    return f64_r(f64_fract1((mode >> 6u) & 3u, a));
}

// FAM_FREXP_MANT, FAM_FREXP_EXP (alu_f64's case).
fn f64op_frexp_mant(fam: u32, sub: u32, mode: u32, a: vec2<u32>, b: vec2<u32>, c: vec2<u32>, k: bool) -> vec3<u32> {
    return f64_r(f64_frexp(f64_flush_in((mode >> 6u) & 3u, a), fam == FAM_FREXP_EXP));
}

// FAM_LDEXP (alu_f64's case).
fn f64op_ldexp(fam: u32, sub: u32, mode: u32, a: vec2<u32>, b: vec2<u32>, c: vec2<u32>, k: bool) -> vec3<u32> {
    return f64_r(f64_ldexp(mode, a, bitcast<i32>(b.x)));
}

// FAM_CMP (alu_f64's case).
fn f64op_cmp(fam: u32, sub: u32, mode: u32, a: vec2<u32>, b: vec2<u32>, c: vec2<u32>, k: bool) -> vec3<u32> {
    return vec3<u32>(0u, 0u, select(0u, 1u, f64_compare(mode, sub, a, b)));
}

// FAM_CLASS (alu_f64's case).
fn f64op_class(fam: u32, sub: u32, mode: u32, a: vec2<u32>, b: vec2<u32>, c: vec2<u32>, k: bool) -> vec3<u32> {
    return vec3<u32>(0u, 0u, select(0u, 1u, f64_class(a, b.x)));
}

// FAM_CVT (alu_f64's case): to f32, or to a 32-bit integer.
fn f64op_cvt(fam: u32, sub: u32, mode: u32, a: vec2<u32>, b: vec2<u32>, c: vec2<u32>, k: bool) -> vec3<u32> {
    if (sub & 0x200u) != 0u {
        return vec3<u32>(f64_to_f32(mode, a), 0u, 0u);
    }
    return vec3<u32>(f64_to_int(f64_flush_in((mode >> 6u) & 3u, a), sub), 0u, 0u);
}

// FAM_RCP, FAM_SQRT, FAM_RSQ (alu_f64's case).
fn f64op_rcp(fam: u32, sub: u32, mode: u32, a: vec2<u32>, b: vec2<u32>, c: vec2<u32>, k: bool) -> vec3<u32> {
    return f64_r(f64_unary(mode, a, fam));
}

// FAM_DIV_SCALE (alu_f64's case).
fn f64op_div_scale(fam: u32, sub: u32, mode: u32, a: vec2<u32>, b: vec2<u32>, c: vec2<u32>, k: bool) -> vec3<u32> {
    return f64_div_scale(mode, a, b, c);
}

// FAM_DIV_FMAS (alu_f64's case).
fn f64op_div_fmas(fam: u32, sub: u32, mode: u32, a: vec2<u32>, b: vec2<u32>, c: vec2<u32>, k: bool) -> vec3<u32> {
    return f64_r(f64_div_fmas(mode, a, b, c, k));
}

// FAM_DIV_FIXUP (alu_f64's case).
fn f64op_div_fixup(fam: u32, sub: u32, mode: u32, a: vec2<u32>, b: vec2<u32>, c: vec2<u32>, k: bool) -> vec3<u32> {
    return f64_r(f64_div_fixup(mode, a, b, c));
}
