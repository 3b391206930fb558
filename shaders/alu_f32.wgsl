// alu_f32.wgsl — the f32 families of the ALU, the WGSL mirror of
// src/cpu/alu/float.rs on f32 (and its f16 ↔ f32 and integer conversions).
// Every operation works on IEEE bits in integer arithmetic — WGSL lets a GPU
// flush denormals, contract, and drop NaN payloads, and its division is not
// exact — and rounds once to nearest even through fma_round (fma.wgsl): the
// exact result, or a truncation of it with a round-to-odd bit, scaled by a
// power of two. `mode` is the MODE register (float.rs `Mode::of`). Needs
// fma.wgsl, convert.wgsl and the FAM_* constants of alu_int.wgsl. The
// families are one function each (`f32op_*`, after float.rs `eval`'s cases),
// as in alu_int.wgsl.

fn f32_is_nan(x: u32) -> bool {
    return (x & 0x7fffffffu) > 0x7f800000u;
}

fn f32_is_denorm(x: u32) -> bool {
    return (x & 0x7f800000u) == 0u && (x & 0x7fffffu) != 0u;
}

// float.rs flush_in / flush_out on an FP_DENORM code.
fn f32_flush_in(den: u32, x: u32) -> u32 {
    return select(x, x & 0x80000000u, (den & 1u) == 0u && f32_is_denorm(x));
}

fn f32_flush_out(den: u32, x: u32) -> u32 {
    return select(x, x & 0x80000000u, (den & 2u) == 0u && f32_is_denorm(x));
}

// A NaN out of an invalid operation is the default NaN (float.rs canonical).
fn f32_canonical(x: u32) -> u32 {
    return select(x, CANONICAL_NAN, f32_is_nan(x));
}

// The exact value q × 2^e0 (q ≠ 0; bit 0 of q may be a round-to-odd bit)
// rounded to f32 with `sign`.
fn f32_round(q: vec2<u32>, e0: i32, sign: u32) -> u32 {
    return fma_round(vec3<u32>(q.x, q.y, 0u), e0, sign);
}

// x × 2^n with one rounding (float.rs scale_f32), x finite.
fn f32_scale(x: u32, n: i32) -> u32 {
    if (x & 0x7fffffffu) == 0u || (x & 0x7f800000u) == 0x7f800000u {
        return x;
    }
    let d = decompose(x & 0x7fffffffu);
    return f32_round(vec2<u32>(u32(d.x), 0u), d.y + clamp(n, -400, 400), x & 0x80000000u);
}

// 1 / x, correctly rounded (x finite, nonzero): restoring division of 2^23
// by the 24-bit significand, 27 quotient bits and a sticky bit.
fn f32_rcp_exact(x: u32) -> u32 {
    let d = decompose(x & 0x7fffffffu);
    var m = u32(d.x);
    var e = d.y;
    // Normalise a denormal's significand to 24 bits.
    let lead = firstLeadingBit(m);
    m = m << (23u - lead);
    e = e - i32(23u - lead);
    // x = m × 2^e; 1/x = (2^23 / m) × 2^(-e-23).
    var r = 0x800000u;
    var q = 0u;
    for (var i = 0u; i < 27u; i = i + 1u) {
        q = q << 1u;
        if r >= m {
            r = r - m;
            q = q | 1u;
        }
        r = r << 1u;
    }
    // q has weight 2^-26 per unit.
    let w = (q << 1u) | select(0u, 1u, r != 0u);
    return f32_round(vec2<u32>(w, 0u), -27 - e - 23, x & 0x80000000u);
}

// ⌊√n⌋ of a 64-bit n, digit by digit: the root (below 2^32) in x, 1 in y
// when a remainder is left.
fn u64_isqrt(n: vec2<u32>) -> vec2<u32> {
    var rem = n;
    var root = vec2<u32>(0u);
    var bit = u64_shl(vec2<u32>(1u, 0u), 62u);
    while u64_lt(rem, bit) && (bit.x != 0u || bit.y != 0u) {
        bit = u64_shr(bit, 2u);
    }
    loop {
        if bit.x == 0u && bit.y == 0u {
            break;
        }
        let trial = u64_add(root, bit);
        if u64_ge(rem, trial) {
            rem = u64_sub(rem, trial);
            root = u64_add(u64_shr(root, 1u), bit);
        } else {
            root = u64_shr(root, 1u);
        }
        bit = u64_shr(bit, 2u);
    }
    return vec2<u32>(root.x, select(0u, 1u, rem.x != 0u || rem.y != 0u));
}

// √x, correctly rounded (x finite, positive): the integer square root of
// the significand scaled to about 2^52, and a sticky bit for the remainder.
fn f32_sqrt_exact(x: u32) -> u32 {
    let d = decompose(x);
    var m = vec2<u32>(u32(d.x), 0u);
    var e = d.y;
    if (e & 1) != 0 {
        m = u64_shl(m, 1u);
        e = e - 1;
    }
    // Scale by 2^(2t) so that the root has 26 or more bits.
    let t = (54u - (64u - u64_clz(m))) / 2u;
    let r = u64_isqrt(u64_shl(m, 2u * t));
    return f32_round(vec2<u32>((r.x << 1u) | r.y, r.x >> 31u), e / 2 - i32(t) - 1, 0u);
}

// exact.rs `decompose` on f32: vec2(e, m), |x| = m × 2^(e − 23) with m's
// bit 23 set (denormals normalised); x finite, nonzero.
fn f32_parts(x: u32) -> vec2<i32> {
    let d = decompose(x & 0x7fffffffu);
    let shift = 23u - firstLeadingBit(u32(d.x));
    return vec2<i32>(d.y + 23 - i32(shift), i32(u32(d.x) << shift));
}

// 1/√x correctly rounded (x finite, positive, nonzero), as exact.rs `rsq`:
// x = m × 2^e with e even, the integer root of ⌊2^78 / m⌋ (by restoring
// division), a sticky bit for both remainders.
fn f32_rsq_exact(x: u32) -> u32 {
    let p = f32_parts(x);
    var m = u32(p.y);
    var e = p.x - 23;
    if (e & 1) != 0 {
        m = m << 1u;
        e = e - 1;
    }
    // ⌊2^78 / m⌋: the dividend is 1 followed by 78 zeros.
    var q = vec2<u32>(0u);
    var r = 1u;
    for (var i = 0u; i < 78u; i = i + 1u) {
        r = r << 1u;
        q = u64_shl(q, 1u);
        if r >= m {
            r = r - m;
            q.x = q.x | 1u;
        }
    }
    let root = u64_isqrt(q);
    let sticky = select(0u, 1u, r != 0u || root.y != 0u);
    return f32_round(vec2<u32>((root.x << 1u) | sticky, 0u), -39 - e / 2 - 1, 0u);
}

// floor, ceil, trunc or round-to-nearest-even of a finite f32 (bits).
fn f32_round_int(x: u32, fam: u32) -> u32 {
    let sign = x & 0x80000000u;
    let ax = x & 0x7fffffffu;
    let e = i32(ax >> 23u) - 127;
    if e >= 23 {
        return x;
    }
    if ax == 0u {
        return x;
    }
    var int_part = 0u;
    var frac_nz = true;
    var above_half = false;
    var half = false;
    if e >= 0 {
        let fbits = u32(23 - e);
        let mask = (1u << fbits) - 1u;
        let m = (ax & 0x7fffffu) | 0x800000u;
        int_part = m >> fbits;
        let f = m & mask;
        frac_nz = f != 0u;
        half = f == (1u << (fbits - 1u));
        above_half = f > (1u << (fbits - 1u));
    } else {
        // |x| < 1.
        half = ax == 0x3f000000u;
        above_half = ax > 0x3f000000u;
    }
    var up = false;
    switch fam {
        case FAM_FLOOR: { up = sign != 0u && frac_nz; }
        case FAM_CEIL: { up = sign == 0u && frac_nz; }
        case FAM_TRUNC: { up = false; }
        default: { up = above_half || (half && (int_part & 1u) == 1u); }
    }
    let n = int_part + select(0u, 1u, up);
    if n == 0u {
        return sign;
    }
    return sign | f32_round(vec2<u32>(n, 0u), 0, 0u);
}

// ---- float.rs's rules on a float layout: `sign` is the sign bit (f32
// 0x80000000, f16 0x8000), `exp` the exponent field's mask; the quiet bit
// is the mantissa's top. ----

fn float_is_nan(x: u32, sign: u32, exp: u32) -> bool {
    return (x & (sign - 1u)) > exp;
}

// The quiet bit: the mantissa's top bit.
fn float_quiet(sign: u32, exp: u32) -> u32 {
    return (((sign - 1u) & ~exp) + 1u) >> 1u;
}

// float.rs flush on a layout: a denormal becomes a zero of its sign.
fn float_flush(x: u32, sign: u32, exp: u32) -> u32 {
    let denormal = (x & exp) == 0u && (x & (sign - 1u)) != 0u;
    return select(x, x & sign, denormal);
}

// float.rs total_key on a layout: an unsigned key in the float order of
// non-NaN bits (−0 < +0).
fn float_order_key(x: u32, sign: u32) -> u32 {
    let all = sign | (sign - 1u);
    return select(x | sign, (~x) & all, (x & sign) != 0u);
}

// float.rs min_max on a layout, given the type's FP_DENORM code `den` and
// MODE (its IEEE bit).
fn float_min_max(den: u32, mode: u32, a0: u32, b0: u32, is_max: bool, sign: u32, exp: u32) -> u32 {
    let quiet = float_quiet(sign, exp);
    let a = select(a0, float_flush(a0, sign, exp), (den & 1u) == 0u);
    let b = select(b0, float_flush(b0, sign, exp), (den & 1u) == 0u);
    let ieee = ((mode >> 9u) & 1u) == 1u;
    let nan_a = float_is_nan(a, sign, exp);
    let nan_b = float_is_nan(b, sign, exp);
    let snan_a = nan_a && (a & quiet) == 0u;
    let snan_b = nan_b && (b & quiet) == 0u;
    if ieee && (snan_a || snan_b) {
        if nan_a {
            return a | quiet;
        }
        return b | quiet;
    }
    if nan_a && nan_b {
        return a | quiet;
    }
    if nan_a {
        return b;
    }
    if nan_b {
        return a;
    }
    let ka = float_order_key(a, sign);
    let kb = float_order_key(b, sign);
    let r = select(b, a, select(ka <= kb, ka >= kb, is_max));
    return select(r, float_flush(r, sign, exp), (den & 2u) == 0u);
}

// float.rs class on a layout.
fn float_class(a: u32, mask: u32, sign: u32, exp: u32) -> bool {
    let neg = (a & sign) != 0u;
    let e = a & exp;
    let mant = a & (sign - 1u) & ~exp;
    let quiet = float_quiet(sign, exp);
    var bit = 0u;
    if e == exp {
        if mant == 0u {
            bit = select(9u, 2u, neg);
        } else {
            bit = select(0u, 1u, (mant & quiet) != 0u);
        }
    } else if e == 0u {
        if mant == 0u {
            bit = select(6u, 5u, neg);
        } else {
            bit = select(7u, 4u, neg);
        }
    } else {
        bit = select(8u, 3u, neg);
    }
    return ((mask >> bit) & 1u) == 1u;
}

// float.rs total_key on f32.
fn f32_order_key(x: u32) -> u32 {
    return float_order_key(x, 0x80000000u);
}

// float.rs min_max on f32.
// float.rs med3 on a layout (body of f32op_med3 and f16op_med3): with a NaN
// input, min3's answer; else the input that is neither the maximum nor, by
// elimination, the minimum, found by comparing the maximum with the inputs
// as the mode reads them.
fn float_med3(den: u32, mode: u32, a: u32, b: u32, c: u32, sign: u32, exp: u32) -> u32 {
    let fa = select(a, float_flush(a, sign, exp), (den & 1u) == 0u);
    let fb = select(b, float_flush(b, sign, exp), (den & 1u) == 0u);
    let fc = select(c, float_flush(c, sign, exp), (den & 1u) == 0u);
    let mag = sign - 1u;
    if (fa & mag) > exp || (fb & mag) > exp || (fc & mag) > exp {
        return float_min_max(den, mode, float_min_max(den, mode, a, b, false, sign, exp), c, false, sign, exp);
    }
    let m3 = float_min_max(den, mode, float_min_max(den, mode, a, b, true, sign, exp), c, true, sign, exp);
    let out = (den & 2u) == 0u;
    if m3 == select(fa, float_flush(fa, sign, exp), out) {
        return float_min_max(den, mode, b, c, true, sign, exp);
    }
    if m3 == select(fb, float_flush(fb, sign, exp), out) {
        return float_min_max(den, mode, a, c, true, sign, exp);
    }
    return float_min_max(den, mode, a, b, true, sign, exp);
}

fn f32_min_max(mode: u32, a: u32, b: u32, is_max: bool) -> u32 {
    return float_min_max((mode >> 4u) & 3u, mode, a, b, is_max, 0x80000000u, 0x7f800000u);
}

// float.rs compare on f32.
fn f32_compare(mode: u32, rel: u32, a0: u32, b0: u32) -> bool {
    let den = (mode >> 4u) & 3u;
    let a = f32_flush_in(den, a0);
    let b = f32_flush_in(den, b0);
    let un = f32_is_nan(a) || f32_is_nan(b);
    let both_zero = ((a | b) & 0x7fffffffu) == 0u;
    let eq = !un && (a == b || both_zero);
    let lt = !un && !eq && f32_order_key(a) < f32_order_key(b);
    let gt = !un && !eq && !lt;
    return float_rel(rel, lt, eq, gt, un);
}

// A compare's relation (ir::alu::Rel code) given the order of the two
// values — less, equal, greater or unordered (float.rs compare's match).
fn float_rel(rel: u32, lt: bool, eq: bool, gt: bool, un: bool) -> bool {
    switch rel {
        case 0u: { return false; }
        case 1u: { return lt; }
        case 2u: { return eq; }
        case 3u: { return lt || eq; }
        case 4u: { return gt; }
        case 5u: { return lt || gt; }
        case 6u: { return gt || eq; }
        case 7u: { return !un; }
        case 8u: { return un; }
        case 9u: { return un || lt; }
        case 10u: { return un || eq; }
        case 11u: { return un || lt || eq; }
        case 12u: { return un || gt; }
        case 13u: { return !eq; }
        case 14u: { return un || gt || eq; }
        default: { return true; }
    }
}

// float.rs class on f32.
fn f32_class(a: u32, mask: u32) -> bool {
    return float_class(a, mask, 0x80000000u, 0x7f800000u);
}

// f32 → integer: toward zero, saturated, NaN → 0 (float.rs to_int). `to`:
// bits | 0x100 when signed (16 or 32).
fn f32_to_int(x: u32, to: u32) -> u32 {
    if f32_is_nan(x) {
        return 0u;
    }
    let bits = to & 0xffu;
    let signed = (to & 0x100u) != 0u;
    let neg = (x >> 31u) == 1u;
    let ax = x & 0x7fffffffu;
    let e = i32(ax >> 23u) - 127;
    // |x| truncated, saturated at 2^32 − 1 (exponents past 31 overflow).
    var mag = 0u;
    var huge = false;
    if e >= 32 {
        huge = true;
    } else if e >= 0 {
        let m = (ax & 0x7fffffu) | 0x800000u;
        if e >= 23 {
            mag = m << u32(e - 23);
        } else {
            mag = m >> u32(23 - e);
        }
    }
    if signed {
        let lim_pos = int_mask(bits - 1u);
        let lim_neg = lim_pos + 1u;
        if neg {
            let v = select(mag, lim_neg, huge || mag > lim_neg);
            return (0u - v) & int_mask(bits);
        }
        return select(mag, lim_pos, huge || mag > lim_pos);
    }
    if neg {
        return 0u;
    }
    let lim = int_mask(bits);
    return select(mag, lim, huge || mag > lim);
}

// Integer → f32, rounded to nearest even (float.rs from_int_bits);
// `from`: bits | 0x100 when signed.
fn f32_from_int(mode: u32, a: u32, src_ty: u32) -> u32 {
    let bits = src_ty & 0xffu;
    let signed = (src_ty & 0x100u) != 0u;
    var v = a & int_mask(bits);
    var sign = 0u;
    if signed {
        let s = int_sext(v, bits);
        if (s >> 31u) == 1u {
            sign = 0x80000000u;
            v = 0u - s;
        } else {
            v = s;
        }
    }
    if v == 0u {
        return 0u;
    }
    return f32_flush_out((mode >> 4u) & 3u, f32_round(vec2<u32>(v, 0u), 0, sign));
}

// f16 bits → f32 bits, exact; a NaN keeps its payload, quieted.
fn f16_bits_to_f32(h: u32) -> u32 {
    let sign = (h & 0x8000u) << 16u;
    let e = (h >> 10u) & 0x1fu;
    let m = h & 0x3ffu;
    if e == 0x1fu {
        if m == 0u {
            return sign | 0x7f800000u;
        }
        return sign | 0x7fc00000u | (m << 13u);
    }
    if e == 0u {
        if m == 0u {
            return sign;
        }
        return sign | f32_round(vec2<u32>(m, 0u), -24, 0u);
    }
    return sign | ((e + 112u) << 23u) | (m << 13u);
}

// f32 bits → f16 bits rounded to nearest even (float.rs d2h of an f32), a
// NaN quieted with its top payload bits.
fn f32_bits_to_f16(x: u32) -> u32 {
    let sign = (x >> 16u) & 0x8000u;
    if f32_is_nan(x) {
        return sign | 0x7e00u | ((x >> 13u) & 0x1ffu);
    }
    return sign | f32_to_small_float(x & 0x7fffffffu, 10u);
}

// f32 → f16 rounded toward zero (float.rs f32_to_f16_rtz).
fn f32_bits_to_f16_rtz(x: u32) -> u32 {
    let sign = (x >> 16u) & 0x8000u;
    if f32_is_nan(x) {
        return sign | 0x7e00u | ((x >> 13u) & 0x1ffu);
    }
    let ax = x & 0x7fffffffu;
    if ax == 0x7f800000u {
        return sign | 0x7c00u;
    }
    // Above the largest finite f16 (65504): the largest finite.
    if ax > 0x477fe000u {
        return sign | 0x7bffu;
    }
    let r = f32_to_small_float(ax, 10u);
    let back = f16_bits_to_f32(r);
    return sign | select(r, r - 1u, back > ax);
}

// float.rs frexp_mant / frexp_exp on f32 (flushed input).
fn f32_frexp(a: u32, want_exp: bool) -> u32 {
    if (a & 0x7f800000u) == 0x7f800000u || (a & 0x7fffffffu) == 0u {
        return select(a, 0u, want_exp);
    }
    let d = decompose(a & 0x7fffffffu);
    let lead = firstLeadingBit(u32(d.x));
    let m = u32(d.x) << (23u - lead);
    let e = d.y + i32(lead);
    if want_exp {
        return bitcast<u32>(e + 1);
    }
    return (a & 0x80000000u) | (126u << 23u) | (m & 0x7fffffu);
}

// float.rs ldexp on f32.
fn f32_ldexp(mode: u32, a0: u32, n: i32) -> u32 {
    let den = (mode >> 4u) & 3u;
    let a = f32_flush_in(den, a0);
    if f32_is_nan(a) {
        return a | 0x400000u;
    }
    return f32_flush_out(den, f32_scale(a, n));
}

// float.rs arith's NaN rule on flushed inputs: the first NaN among the
// first `n` quieted, or 0 (never a NaN) when there is none.
fn f32_first_nan(a: u32, b: u32, c: u32, n: u32) -> u32 {
    if f32_is_nan(a) {
        return a | 0x400000u;
    }
    if n >= 2u && f32_is_nan(b) {
        return b | 0x400000u;
    }
    if n >= 3u && f32_is_nan(c) {
        return c | 0x400000u;
    }
    return 0u;
}

// float.rs arith's end: a NaN out of the operation is the default NaN, and
// a denormal result is flushed as the mode says.
fn f32_finish(den: u32, r: u32) -> u32 {
    return f32_flush_out(den, f32_canonical(r));
}

// float.rs arith of +, −, ×, fma on f32: inputs flushed, the NaN rule, the
// exact fma of the multiplier and addend the family picks
// (float_fma_operands), the output flushed. One fma_bits call whatever the
// family: a call per family made the driver inline four copies.
fn f32_arith(den: u32, a0: u32, b0: u32, c0: u32, fam: u32) -> u32 {
    let a = f32_flush_in(den, a0);
    let b = f32_flush_in(den, b0);
    let c = f32_flush_in(den, c0);
    let nan = f32_first_nan(a, b, c, select(2u, 3u, fam == FAM_FMA));
    if nan != 0u {
        return nan;
    }
    let md = float_fma_operands(fam, b, c, 0x3f800000u, 0x80000000u);
    return f32_finish(den, fma_bits(a, md.x, md.y));
}

// The multiplier and addend of the one fma float.rs arith's +, −, × and fma
// come to on a layout whose 1.0 is `one` and sign bit `sign`: add a × 1 + b,
// sub a × 1 + −b, mul a × b + −0, fma a × b + c (each exact before the fma's
// one rounding). The f32 and f16 arithmetic share it.
fn float_fma_operands(fam: u32, b: u32, c: u32, one: u32, sign: u32) -> vec2<u32> {
    switch fam {
        case FAM_ADD: { return vec2<u32>(one, b); }
        case FAM_SUB: { return vec2<u32>(one, b ^ sign); }
        case FAM_MUL: { return vec2<u32>(b, sign); }
        default: { return vec2<u32>(b, c); }
    }
}

fn f32_add2(den: u32, a0: u32, b0: u32) -> u32 {
    return f32_arith(den, a0, b0, 0u, FAM_ADD);
}

fn f32_mul2(den: u32, a0: u32, b0: u32) -> u32 {
    return f32_arith(den, a0, b0, 0u, FAM_MUL);
}

fn f32_rcp1(den: u32, a0: u32) -> u32 {
    let a = f32_flush_in(den, a0);
    let nan = f32_first_nan(a, 0u, 0u, 1u);
    if nan != 0u {
        return nan;
    }
    let aa = a & 0x7fffffffu;
    var r = 0u;
    if aa == 0u {
        r = (a & 0x80000000u) | 0x7f800000u;
    } else if aa == 0x7f800000u {
        r = a & 0x80000000u;
    } else {
        r = f32_rcp_exact(a);
    }
    return f32_finish(den, r);
}

fn f32_sqrt1(den: u32, a0: u32) -> u32 {
    let a = f32_flush_in(den, a0);
    let nan = f32_first_nan(a, 0u, 0u, 1u);
    if nan != 0u {
        return nan;
    }
    var r = 0u;
    if (a & 0x7fffffffu) == 0u {
        r = a;
    } else if (a >> 31u) == 1u {
        r = CANONICAL_NAN;
    } else if a == 0x7f800000u {
        r = a;
    } else {
        r = f32_sqrt_exact(a);
    }
    return f32_finish(den, r);
}

// float.rs `rsq` on f32.
fn f32_rsq1(den: u32, a0: u32) -> u32 {
    let a = f32_flush_in(den, a0);
    var r = 0u;
    if f32_is_nan(a) {
        r = a | 0x400000u;
    } else if (a & 0x7fffffffu) == 0u {
        r = a | 0x7f800000u;
    } else if (a >> 31u) == 1u {
        r = CANONICAL_NAN;
    } else if a == 0x7f800000u {
        r = 0u;
    } else {
        r = f32_rsq_exact(a);
    }
    return f32_flush_out(den, r);
}

// float.rs `fract` on f32: x − ⌊x⌋ rounded once, at most 0x3f7fffff.
fn f32_fract1(den: u32, a0: u32) -> u32 {
    let a = f32_flush_in(den, a0);
    if f32_is_nan(a) {
        return a | 0x400000u;
    }
    if (a & 0x7fffffffu) == 0x7f800000u {
        return CANONICAL_NAN;
    }
    return min(f32_arith(den, a, f32_round_int(a, FAM_FLOOR), 0u, FAM_SUB), 0x3f7fffffu);
}

// division.rs `below_scaled` on f32: |x| < |y| × 2^k (finite, nonzero).
fn f32_below_scaled(x: u32, y: u32, k: i32) -> bool {
    let px = f32_parts(x);
    let py = f32_parts(y);
    if px.x != py.x + k {
        return px.x < py.x + k;
    }
    return px.y < py.y;
}

// division.rs `scale` on f32: vec2(D, VCC).
fn f32_div_scale(mode: u32, a: u32, b: u32, c: u32) -> vec2<u32> {
    // MODE with input denormals kept (division.rs keep_inputs).
    let keep = mode | 0x10u;
    let ab = b & 0x7fffffffu;
    let ac = c & 0x7fffffffu;
    let nan_b = ab > 0x7f800000u;
    let nan_c = ac > 0x7f800000u;
    let fin_b = ab != 0u && ab < 0x7f800000u;
    let fin_c = ac != 0u && ac < 0x7f800000u;
    let eb = i32(ab >> 23u);
    let ec = i32(ac >> 23u);
    let feq_ab = !f32_is_nan(a) && !nan_b && (a == b || ((a | b) & 0x7fffffffu) == 0u);
    let feq_ac = !f32_is_nan(a) && !nan_c && (a == c || ((a | c) & 0x7fffffffu) == 0u);
    // |b| > 2^126.
    let recip_denorm = fin_b && ab > 0x7e800000u;
    let quot_denorm = fin_b && fin_c && f32_below_scaled(c, b, -126);
    var d = a;
    // The power of two a is scaled by, 0 for none: one f32_ldexp call for
    // every branch (a call in each made the driver inline six copies).
    var n = 0;
    var vcc = 0u;
    if (!nan_c && ac == 0u) || (!nan_b && ab == 0u) {
        d = CANONICAL_NAN;
    } else if ec - eb >= 96 {
        vcc = 1u;
        if feq_ab {
            n = 64;
        }
    } else if f32_is_denorm(b) {
        n = 64;
    } else if recip_denorm && quot_denorm {
        vcc = 1u;
        if feq_ab {
            n = -64;
        }
    } else if recip_denorm {
        n = -64;
    } else if quot_denorm {
        vcc = 1u;
        if feq_ac {
            n = 64;
        }
    } else if ec <= 23 {
        n = 64;
    }
    if n != 0 {
        d = f32_ldexp(keep, a, n);
    }
    if f32_is_nan(d) {
        d = d | 0x400000u;
    } else {
        d = f32_flush_out((mode >> 4u) & 3u, d);
    }
    return vec2<u32>(d, vcc);
}

// division.rs `fmas` on f32: a × b + c scaled by 2^±64 under VCC, rounded
// once (fma_exact, then fma_round with the scale in the exponent).
fn f32_div_fmas(den: u32, a: u32, b: u32, c: u32, k: bool) -> u32 {
    let nan = f32_first_nan(a, b, c, 3u);
    if nan != 0u {
        return nan;
    }
    var scale = 0;
    if k {
        scale = select(-64, 64, ((c >> 23u) & 0xffu) > 127u);
    }
    let r = fma_exact(a, b, c);
    if r.special {
        let zero_product = (a & 0x7fffffffu) == 0u || (b & 0x7fffffffu) == 0u;
        let finite_ab = (a & 0x7fffffffu) < 0x7f800000u && (b & 0x7fffffffu) < 0x7f800000u;
        let c_finite_nonzero = (c & 0x7fffffffu) != 0u && (c & 0x7fffffffu) < 0x7f800000u;
        if finite_ab && zero_product && c_finite_nonzero {
            // 0 + c: c scaled, rounded once.
            return f32_flush_out(den, f32_scale(c, scale));
        }
        return f32_flush_out(den, r.bits);
    }
    return f32_flush_out(den, fma_round(r.w, r.e0 + scale, r.sign));
}

// division.rs `fixup` on a layout (`sign`, `exp` as for float_is_nan), the
// result flushed as FP_DENORM `den` says; `under`: the f32 underflow test
// (exponent(N) − exponent(D) below −150), which f16 does not have.
fn float_div_fixup(den: u32, a: u32, b: u32, c: u32, sign: u32, exp: u32, under: bool) -> u32 {
    let sign_out = (b ^ c) & sign;
    let ab = b & (sign - 1u);
    let ac = c & (sign - 1u);
    let quiet = float_quiet(sign, exp);
    if float_is_nan(c, sign, exp) {
        return c | quiet;
    }
    if float_is_nan(b, sign, exp) {
        return b | quiet;
    }
    let shift = countTrailingZeros(exp);
    var r = 0u;
    if (ab == 0u && ac == 0u) || (ab == exp && ac == exp) {
        return sign | exp | quiet;
    } else if ab == 0u || ac == exp {
        r = sign_out | exp;
    } else if ab == exp || ac == 0u {
        r = sign_out;
    } else if under && i32(ac >> shift) - i32(ab >> shift) < -150 {
        r = sign_out;
    } else if float_is_nan(a, sign, exp) {
        // An overflowed quotient (division.rs fixup).
        r = sign_out | exp;
    } else {
        r = sign_out | (a & (sign - 1u));
    }
    return select(r, float_flush(r, sign, exp), (den & 2u) == 0u);
}

fn f32_rint1(den: u32, a0: u32, fam: u32) -> u32 {
    let a = f32_flush_in(den, a0);
    let nan = f32_first_nan(a, 0u, 0u, 1u);
    if nan != 0u {
        return nan;
    }
    return f32_finish(den, f32_round_int(a, fam));
}

fn f32_r(v: u32) -> vec3<u32> {
    return vec3<u32>(v, 0u, 0u);
}

// ---- float.rs eval on f32, one function per case: the value and the bit.
// `sub`: the compare's Rel code, or a conversion's target (bits, | 0x100
// signed, | 0x200 float). ----

// FAM_ADD, FAM_SUB, FAM_MUL, FAM_FMA (alu_f32's case).
fn f32op_add(fam: u32, sub: u32, mode: u32, a: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let den = (mode >> 4u) & 3u;
    switch fam {
        case FAM_ADD, FAM_SUB, FAM_MUL, FAM_FMA: { return f32_r(f32_arith(den, a, b, c, fam)); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_MAD (alu_f32's case).
fn f32op_mad(fam: u32, sub: u32, mode: u32, a: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let den = (mode >> 4u) & 3u;
    switch fam {
        case FAM_MAD: {
            // v_mad_f32: denormals flushed whatever MODE says (float.rs).
            return f32_r(f32_add2(0u, f32_mul2(0u, a, b), c));
        }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_MUL_LEGACY, FAM_MAD_LEGACY, FAM_FMA_LEGACY (alu_f32's case): the DX9
// multiplies (float.rs eval): a factor that reads as zero makes the result
// +0 (mul) or the addend as read; otherwise mul, mad or fma.
fn f32op_mul_legacy(fam: u32, sub: u32, mode: u32, a: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    // v_mad_legacy_f32 keeps v_mad_f32's rule: denormals flushed.
    let den = select((mode >> 4u) & 3u, 0u, fam == FAM_MAD_LEGACY);
    let za = (f32_flush_in(den, a) & 0x7fffffffu) == 0u;
    let zb = (f32_flush_in(den, b) & 0x7fffffffu) == 0u;
    if za || zb {
        if fam == FAM_MUL_LEGACY {
            return f32_r(0u);
        }
        return f32_r(f32_flush_out(den, f32_flush_in(den, c)));
    }
    // mul: a × b; mad: the product rounded, then + c, denormals flushed;
    // fma: a × b + c — one f32_arith for the last step of each (a call per
    // arm made the driver inline four copies).
    var x = a;
    var y = b;
    var op = FAM_FMA;
    if fam == FAM_MUL_LEGACY {
        op = FAM_MUL;
    } else if fam == FAM_MAD_LEGACY {
        x = f32_arith(0u, a, b, 0u, FAM_MUL);
        y = c;
        op = FAM_ADD;
    }
    return f32_r(f32_arith(den, x, y, c, op));
}

// FAM_RCP (alu_f32's case).
fn f32op_rcp(fam: u32, sub: u32, mode: u32, a: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let den = (mode >> 4u) & 3u;
    switch fam {
        case FAM_RCP: { return f32_r(f32_rcp1(den, a)); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_SQRT (alu_f32's case).
fn f32op_sqrt(fam: u32, sub: u32, mode: u32, a: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let den = (mode >> 4u) & 3u;
    switch fam {
        case FAM_SQRT: { return f32_r(f32_sqrt1(den, a)); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_RSQ (alu_f32's case).
fn f32op_rsq(fam: u32, sub: u32, mode: u32, a: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let den = (mode >> 4u) & 3u;
    switch fam {
        case FAM_RSQ: { return f32_r(f32_rsq1(den, a)); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_FRACT (alu_f32's case).
fn f32op_fract(fam: u32, sub: u32, mode: u32, a: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let den = (mode >> 4u) & 3u;
    switch fam {
        case FAM_FRACT: { return f32_r(f32_fract1(den, a)); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_DIV_SCALE (alu_f32's case): the bit is VCC.
fn f32op_div_scale(fam: u32, sub: u32, mode: u32, a: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    switch fam {
        case FAM_DIV_SCALE: {
            let r = f32_div_scale(mode, a, b, c);
            return vec3<u32>(r.x, 0u, r.y);
        }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_DIV_FMAS (alu_f32's case).
fn f32op_div_fmas(fam: u32, sub: u32, mode: u32, a: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let den = (mode >> 4u) & 3u;
    switch fam {
        case FAM_DIV_FMAS: { return f32_r(f32_div_fmas(den, a, b, c, k)); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_DIV_FIXUP (alu_f32's case).
fn f32op_div_fixup(fam: u32, sub: u32, mode: u32, a: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let den = (mode >> 4u) & 3u;
    switch fam {
        case FAM_DIV_FIXUP: { return f32_r(float_div_fixup(den, a, b, c, 0x80000000u, 0x7f800000u, true)); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_FLOOR, FAM_CEIL, FAM_TRUNC, FAM_RNDNE (alu_f32's case).
fn f32op_floor(fam: u32, sub: u32, mode: u32, a: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let den = (mode >> 4u) & 3u;
    switch fam {
        case FAM_FLOOR, FAM_CEIL, FAM_TRUNC, FAM_RNDNE: { return f32_r(f32_rint1(den, a, fam)); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_MIN (alu_f32's case).
fn f32op_min(fam: u32, sub: u32, mode: u32, a: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let den = (mode >> 4u) & 3u;
    switch fam {
        case FAM_MIN: { return f32_r(f32_min_max(mode, a, b, false)); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_MAX (alu_f32's case).
fn f32op_max(fam: u32, sub: u32, mode: u32, a: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let den = (mode >> 4u) & 3u;
    switch fam {
        case FAM_MAX: { return f32_r(f32_min_max(mode, a, b, true)); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_MIN3 (alu_f32's case).
fn f32op_min3(fam: u32, sub: u32, mode: u32, a: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let den = (mode >> 4u) & 3u;
    switch fam {
        case FAM_MIN3: { return f32_r(f32_min_max(mode, f32_min_max(mode, a, b, false), c, false)); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_MIN_MAX, FAM_MAX_MIN (alu_f32's case): gfx11's max(min(a, b), c)
// (v_minmax) and min(max(a, b), c) (v_maxmin).
fn f32op_min_max(fam: u32, sub: u32, mode: u32, a: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let first_max = fam == FAM_MAX_MIN;
    return f32_r(f32_min_max(mode, f32_min_max(mode, a, b, first_max), c, !first_max));
}

// FAM_MAX3 (alu_f32's case).
fn f32op_max3(fam: u32, sub: u32, mode: u32, a: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let den = (mode >> 4u) & 3u;
    switch fam {
        case FAM_MAX3: { return f32_r(f32_min_max(mode, f32_min_max(mode, a, b, true), c, true)); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_MED3 (alu_f32's case).
fn f32op_med3(fam: u32, sub: u32, mode: u32, a: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let den = (mode >> 4u) & 3u;
    switch fam {
        case FAM_MED3: { return f32_r(float_med3(den, mode, a, b, c, 0x80000000u, 0x7f800000u)); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_FREXP_MANT (alu_f32's case).
fn f32op_frexp_mant(fam: u32, sub: u32, mode: u32, a: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let den = (mode >> 4u) & 3u;
    switch fam {
        case FAM_FREXP_MANT: { return f32_r(f32_frexp(f32_flush_in(den, a), false)); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_FREXP_EXP (alu_f32's case).
fn f32op_frexp_exp(fam: u32, sub: u32, mode: u32, a: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let den = (mode >> 4u) & 3u;
    switch fam {
        case FAM_FREXP_EXP: { return f32_r(f32_frexp(f32_flush_in(den, a), true)); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_LDEXP (alu_f32's case).
fn f32op_ldexp(fam: u32, sub: u32, mode: u32, a: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let den = (mode >> 4u) & 3u;
    switch fam {
        case FAM_LDEXP: { return f32_r(f32_ldexp(mode, a, bitcast<i32>(b))); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_CMP (alu_f32's case).
fn f32op_cmp(fam: u32, sub: u32, mode: u32, a: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let den = (mode >> 4u) & 3u;
    switch fam {
        case FAM_CMP: { return vec3<u32>(0u, 0u, select(0u, 1u, f32_compare(mode, sub, a, b))); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_CLASS (alu_f32's case).
fn f32op_class(fam: u32, sub: u32, mode: u32, a: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let den = (mode >> 4u) & 3u;
    switch fam {
        case FAM_CLASS: { return vec3<u32>(0u, 0u, select(0u, 1u, f32_class(a, b))); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_CVT (alu_f32's case).
fn f32op_cvt(fam: u32, sub: u32, mode: u32, a: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let den = (mode >> 4u) & 3u;
    switch fam {
        case FAM_CVT: {
            let fa = f32_flush_in(den, a);
            if (sub & 0x200u) != 0u {
                // f32 → f16 (den16: MODE bits 7:6).
                let h = f32_bits_to_f16(fa);
                let den16 = (mode >> 6u) & 3u;
                let flush = (den16 & 2u) == 0u && (h & 0x7c00u) == 0u && (h & 0x3ffu) != 0u;
                return f32_r(select(h, h & 0x8000u, flush));
            }
            return f32_r(f32_to_int(fa, sub));
        }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_CNDMASK (alu_f32's case).
fn f32op_cndmask(fam: u32, sub: u32, mode: u32, a: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let den = (mode >> 4u) & 3u;
    switch fam {
        case FAM_CNDMASK: { return f32_r(select(a, b, k)); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_MOV (alu_f32's case).
fn f32op_mov(fam: u32, sub: u32, mode: u32, a: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let den = (mode >> 4u) & 3u;
    switch fam {
        case FAM_MOV: { return f32_r(a); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_CVT_PKRTZ (alu_f32's case).
fn f32op_cvt_pkrtz(fam: u32, sub: u32, mode: u32, a: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let den = (mode >> 4u) & 3u;
    switch fam {
        case FAM_CVT_PKRTZ: {
            return f32_r(f32_bits_to_f16_rtz(f32_flush_in(den, a)) | (f32_bits_to_f16_rtz(f32_flush_in(den, b)) << 16u));
        }
        default: { return vec3<u32>(0u); }
    }
}


// f16 → f32 (float.rs float_to_float from f16): flush the f16 input by
// MODE bits 7:6, convert exactly, flush the f32 result by bits 5:4.
fn alu_f16_to_f32(mode: u32, a: u32) -> u32 {
    let den16 = (mode >> 6u) & 3u;
    var h = a & 0xffffu;
    if (den16 & 1u) == 0u && (h & 0x7c00u) == 0u && (h & 0x3ffu) != 0u {
        h = h & 0x8000u;
    }
    return f32_flush_out((mode >> 4u) & 3u, f16_bits_to_f32(h));
}

// float.rs modify on f32: ABS clears the sign, then NEG flips it.
fn f32_modify(x: u32, abs: bool, neg: bool) -> u32 {
    let y = select(x, x & 0x7fffffffu, abs);
    return select(y, y ^ 0x80000000u, neg);
}

// The power of two OMOD 1, 2, 3 scales by (× 2, × 4, × 0.5: float.rs
// output's match), for the f32, f16 and f64 outputs.
fn omod_power(omod: u32) -> i32 {
    return select(select(1, 2, omod == 2u), -1, omod == 3u);
}

// float.rs output on f32: OMOD, then CLAMP to [0, 1].
fn f32_output(mode: u32, x0: u32, omod: u32, clamp: bool) -> u32 {
    var x = x0;
    // One f32_ldexp call for the three scales (a call per case made the
    // driver inline three copies).
    if omod != 0u {
        x = f32_ldexp(mode, x, omod_power(omod));
    }
    if !clamp {
        return x;
    }
    if f32_is_nan(x) {
        return select(x, 0u, ((mode >> 8u) & 1u) == 1u);
    }
    if (x >> 31u) == 1u {
        return 0u;
    }
    return select(x, 0x3f800000u, x > 0x3f800000u);
}
