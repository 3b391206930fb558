// alu_trans.wgsl — v_exp_f32, v_log_f32, v_sin_f32 and v_cos_f32: the WGSL
// mirror of src/cpu/alu/transcendental.rs (2^x, log2 x, sin 2πx and cos 2πx
// correctly rounded, in fixed point) and of float.rs exp_log and sin_cos on
// f32. Included only in whole-program
// modules that use them, after the constants of ir::fixed (LN2_Q62,
// TWO_OVER_LN2_Q62, TWO_PI_Q61, vec2<u32> low word first); its tables
// EXP2_TABLE, INV_FACT and INV_ODD are the host's (tables.wgsl, host_u64).
// 128-bit values are vec4<u32>, x lowest. Needs convert.wgsl
// (u64_*, u128_*), fma.wgsl (round_to_float) and alu_f32.wgsl.

// (a × b) >> 62, truncated (transcendental.rs mul62).
fn mul62(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    return u128_shr(u128_mul64(a, b), 62u).xy;
}

// 2^(f / 2^56) in Q2.62 for f < 2^56 (transcendental.rs exp2_frac).
fn exp2_frac(f: vec2<u32>) -> vec2<u32> {
    let j = (f.y >> 18u) & 63u;
    let r = vec2<u32>(f.x, f.y & 0x3ffffu);
    let y = u128_shr(u128_mul64(r, LN2_Q62), 56u).xy;
    var acc = host_u64(INV_FACT_AT, 7u);
    for (var k = 7u; k > 0u; k = k - 1u) {
        acc = u64_add(mul62(acc, y), host_u64(INV_FACT_AT, k - 1u));
    }
    return mul62(host_u64(EXP2_TABLE_AT, j), acc);
}

// transcendental.rs Approx: exact bits, or sig × 2^e with a sign.
struct Near {
    exact: bool,
    bits: u32,
    neg: bool,
    sig: vec4<u32>,
    e: i32,
}

fn near_exact(bits: u32) -> Near {
    return Near(true, bits, false, vec4<u32>(0u), 0);
}

// transcendental.rs exp2 on f32 results (x finite, flushed).
fn f32_exp2_near(x: u32) -> Near {
    let ax = x & 0x7fffffffu;
    let neg = (x >> 31u) == 1u;
    if ax < 0x32800000u {
        return near_exact(0x3f800000u);
    }
    if !neg && ax >= 0x43000000u {
        return near_exact(0x7f800000u);
    }
    if neg && ax >= 0x42fe0000u {
        return near_exact(0u);
    }
    // |x| × 2^56, exact.
    let e = i32(ax >> 23u) - 127;
    let m = (ax & 0x7fffffu) | 0x800000u;
    let mag = u64_shl(vec2<u32>(m, 0u), u32(e + 33));
    let q = i32(mag.y >> 24u);
    let r = vec2<u32>(mag.x, mag.y & 0xffffffu);
    var n = q;
    var f = r;
    if neg {
        // floor(−mag / 2^56) and (−mag) mod 2^56.
        if r.x == 0u && r.y == 0u {
            n = -q;
        } else {
            n = -q - 1;
            f = u64_sub(vec2<u32>(0u, 0x1000000u), r);
        }
    }
    if f.x == 0u && f.y == 0u {
        // An integer x: 2^x exactly (x ≥ −126 here: a normal f32).
        return near_exact(u32(n + 127) << 23u);
    }
    return Near(false, 0u, false, vec4<u32>(exp2_frac(f), 0u, 0u), n - 62);
}

// transcendental.rs log2 on f32 results (x finite, positive, normal).
fn f32_log2_near(x: u32) -> Near {
    var e = i32(x >> 23u) - 127;
    let big_m = (x & 0x7fffffu) | 0x800000u;
    if big_m == 0x800000u {
        return near_exact(f32_from_int(0x30u, u32(e), 0x120u));
    }
    var unit = 0x800000u;
    if big_m > 0xb504f3u {
        e = e + 1;
        unit = 0x1000000u;
    }
    let neg_u = big_m < unit;
    let a = select(big_m - unit, unit - big_m, neg_u);
    let den = big_m + unit;
    // U = ⌊a × 2^k / den⌋ by restoring division over the k + bits dividend bits.
    let bits = firstLeadingBit(a) + 1u;
    let k = 87u - bits;
    var q = vec2<u32>(0u);
    var rem = 0u;
    for (var i = 0u; i < 87u; i = i + 1u) {
        // Dividend bit 86 − i: bit (86 − i − k) of a, or 0 below a.
        let pos = 86 - i32(i) - i32(k);
        var bit = 0u;
        if pos >= 0 {
            bit = (a >> u32(pos)) & 1u;
        }
        rem = (rem << 1u) | bit;
        q = u64_shl(q, 1u);
        if rem >= den {
            rem = rem - den;
            q.x = q.x | 1u;
        }
    }
    let w = u128_shr(u128_mul64(q, q), 2u * k - 64u).xy;
    var s = host_u64(INV_ODD_AT, 12u);
    for (var i = 12u; i > 0u; i = i - 1u) {
        s = u64_add(u128_shr(u128_mul64(s, w), 64u).xy, host_u64(INV_ODD_AT, i - 1u));
    }
    let v1 = u128_shr(u128_mul64(q, s), 62u).xy;
    // v1 × (2 / ln 2) >> 62: up to 65 bits.
    let v2 = u128_shr(u128_mul64(v1, TWO_OVER_LN2_Q62), 62u);
    if e == 0 {
        return Near(false, 0u, neg_u, v2, -i32(k));
    }
    let whole = u128_shl(vec4<u32>(u32(abs(e)), 0u, 0u, 0u), k);
    var mag = v2;
    if (e < 0) == neg_u {
        mag = u128_add(whole, v2);
    } else {
        mag = u128_sub(whole, v2);
    }
    return Near(false, 0u, e < 0, mag, -i32(k));
}

// transcendental.rs finish's rounding: the approximation (not exact) with a
// sticky bit, rounded once to a float of `mant` bits and `bias`
// (round_to_float). A significand past 94 bits drops its low bits first:
// they only ever fed the sticky bit, which is set anyway.
fn near_round(n: Near, sign: u32, mant: u32, bias: i32) -> u32 {
    var sig = n.sig;
    var e = n.e;
    let nb = u128_bits(sig);
    if nb > 94u {
        sig = u128_shr(sig, nb - 94u);
        e = e + i32(nb - 94u);
    }
    let w = u128_shl(sig, 1u);
    return round_to_float(vec3<u32>(w.x | 1u, w.y, w.z), e - 1, select(0u, sign, n.neg), mant, bias);
}

// transcendental.rs finish on f32.
fn f32_round_near(n: Near) -> u32 {
    if n.exact {
        return n.bits;
    }
    return near_round(n, 0x80000000u, 23u, 127);
}

// transcendental.rs alt_series: Σ (−1)^k INV_FACT[first + 2k] w^k, k ≤ last.
fn alt_series(first: u32, last: u32, w: vec2<u32>) -> vec2<u32> {
    var acc = host_u64(INV_FACT_AT, first + 2u * last);
    for (var k = last; k > 0u; k = k - 1u) {
        acc = u64_sub(host_u64(INV_FACT_AT, first + 2u * (k - 1u)), u128_shr(u128_mul64(acc, w), 64u).xy);
    }
    return acc;
}

// transcendental.rs sin_cos on f32 results (x finite, as MODE reads it).
fn f32_sincos_near(x: u32, cos: bool) -> Near {
    let ax = x & 0x7fffffffu;
    let neg_x = (x >> 31u) == 1u;
    if ax > 0x43800000u {
        return near_exact(0u);
    }
    let neg_zero = select(0u, 0x80000000u, neg_x);
    if ax == 0u {
        return near_exact(select(neg_zero, 0x3f800000u, cos));
    }
    let ef = ax >> 23u;
    let e = i32(ef) - 127;
    let m = (ax & 0x7fffffu) | select(0u, 0x800000u, ef != 0u);
    var quarter = 0u;
    var neg_u = neg_x;
    var big_u = m;
    var f = 0;
    if e < -8 {
        f = 23 - max(e, -126);
    } else {
        // x × 2^32 mod 2^32 (two's complement for a negative x), the nearest
        // quarter turn k, and u = that remainder − k/4 turns.
        let mag = u64_shl(vec2<u32>(m, 0u), u32(e + 9));
        let r = select(mag.x, 0u - mag.x, neg_x);
        let k = (r >> 30u) + ((r >> 29u) & 1u);
        if k == 4u {
            neg_u = true;
            big_u = 0u - r;
        } else if r >= (k << 30u) {
            neg_u = false;
            big_u = r - (k << 30u);
        } else {
            neg_u = true;
            big_u = (k << 30u) - r;
        }
        quarter = k & 3u;
        f = 32;
    }
    // cos(2πx) = sin(2π(x + ¼)): one table for both.
    let q = (quarter + select(0u, 1u, cos)) & 3u;
    let use_cos = (q & 1u) == 1u;
    var neg = false;
    switch q {
        case 0u: { neg = neg_u; }
        case 2u: { neg = !neg_u; }
        case 3u: { neg = true; }
        default: { neg = false; }
    }
    if big_u == 0u {
        if use_cos {
            return near_exact(0x3f800000u | select(0u, 0x80000000u, neg));
        }
        return near_exact(select(neg_zero, 0u, cos));
    }
    let p = u128_mul64(vec2<u32>(big_u, 0u), TWO_PI_Q61);
    let shift = f - 3;
    var t64 = vec2<u32>(0u);
    if shift < 128 {
        t64 = u128_shr(p, u32(shift)).xy;
    }
    let w = u128_shr(u128_mul64(t64, t64), 64u).xy;
    if use_cos {
        return Near(false, 0u, neg, vec4<u32>(alt_series(0u, 10u, w), 0u, 0u), -62);
    }
    let sh = max(i32(u128_bits(p)) - 64, 0);
    let p64 = u128_shr(p, u32(sh)).xy;
    return Near(false, 0u, neg, u128_mul64(p64, alt_series(1u, 9u, w)), sh - f - 61 - 62);
}

// float.rs exp_log on f32: denormal inputs read as zeros, denormal results
// flushed, whatever MODE says.
fn f32_exp_log1(fam: u32, a0: u32) -> u32 {
    let x = float_flush(a0, 0x80000000u, 0x7f800000u);
    if f32_is_nan(x) {
        return x | 0x400000u;
    }
    let neg = (x >> 31u) == 1u;
    let mag = x & 0x7fffffffu;
    var r = 0u;
    if fam == FAM_EXP {
        if mag == 0x7f800000u {
            r = select(0x7f800000u, 0u, neg);
        } else {
            r = f32_round_near(f32_exp2_near(x));
        }
    } else if mag == 0u {
        r = 0xff800000u;
    } else if neg {
        r = CANONICAL_NAN;
    } else if mag == 0x7f800000u {
        r = 0x7f800000u;
    } else {
        r = f32_round_near(f32_log2_near(x));
    }
    return float_flush(r, 0x80000000u, 0x7f800000u);
}

// float.rs sin_cos on f32: denormals as MODE says (`den`).
fn f32_sincos1(den: u32, a0: u32, cos: bool) -> u32 {
    let x = f32_flush_in(den, a0);
    if f32_is_nan(x) {
        return x | 0x400000u;
    }
    return f32_flush_out(den, f32_round_near(f32_sincos_near(x, cos)));
}

// FAM_SIN, FAM_COS (alu_f32's case).
fn f32op_sin(fam: u32, sub: u32, mode: u32, a: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let den = (mode >> 4u) & 3u;
    switch fam {
        case FAM_SIN, FAM_COS: { return f32_r(f32_sincos1(den, a, fam == FAM_COS)); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_EXP, FAM_LOG (alu_f32's case).
fn f32op_exp(fam: u32, sub: u32, mode: u32, a: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    switch fam {
        case FAM_EXP, FAM_LOG: { return f32_r(f32_exp_log1(fam, a)); }
        default: { return vec3<u32>(0u); }
    }
}

// transcendental.rs finish on f16: exact f32 bits narrowed (exact, or the
// f16 rounding of a power of two), an approximation rounded once to f16.
fn f16_round_near(n: Near) -> u32 {
    if n.exact {
        return f32op_cvt(FAM_CVT, 0x210u, 0x3f0u, n.bits, 0u, 0u, false).x;
    }
    return near_round(n, 0x8000u, 10u, 15);
}

// FAM_EXP, FAM_LOG, FAM_SIN, FAM_COS on f16 (alu_f16's case; float.rs
// exp_log and sin_cos on f16): the input as MODE reads it, widened exactly,
// its fixed-point value rounded once to f16, the result flushed as MODE says.
fn f16op_exp(fam: u32, sub: u32, mode: u32, a: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let den = (mode >> 6u) & 3u;
    let x = f16_flush_in(den, a & 0xffffu);
    if f16_is_nan(x) {
        return f16_r(x | 0x200u);
    }
    let neg = (x >> 15u) == 1u;
    let mag = x & 0x7fffu;
    let xf = f16_bits_to_f32(x);
    var r = 0u;
    if fam == FAM_EXP {
        if mag == 0x7c00u {
            r = select(0x7c00u, 0u, neg);
        } else {
            r = f16_round_near(f32_exp2_near(xf));
        }
    } else if fam == FAM_LOG {
        if mag == 0u {
            r = 0xfc00u;
        } else if neg {
            r = 0x7e00u;
        } else if mag == 0x7c00u {
            r = 0x7c00u;
        } else {
            r = f16_round_near(f32_log2_near(xf));
        }
    } else {
        r = f16_round_near(f32_sincos_near(xf, fam == FAM_COS));
    }
    return f16_r(f16_flush_out(den, r));
}
