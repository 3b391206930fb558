// alu_f16.wgsl — the f16 families of the ALU, the WGSL mirror of
// src/cpu/alu/float.rs on f16 (values in the low 16 bits of a u32). The CPU
// computes an f16 operation in f64, exactly or with one rounding, and rounds
// that once more to f16 — innocuous double rounding (float.rs d2h) — so the
// result is the correctly rounded f16: here the exact value (fma_exact of the
// inputs widened to f32, which is exact) is rounded once, by f16_round.
// MODE bits 7:6 flush f16 denormals; the NaN rule is float.rs's (the first
// NaN input quieted, else the default NaN 0x7e00). Needs fma.wgsl,
// alu_f32.wgsl (f16_bits_to_f32, f32_to_int, f32_compare's relations) and
// the FAM_* constants.

fn f16_is_nan(x: u32) -> bool {
    return (x & 0x7fffu) > 0x7c00u;
}

fn f16_is_denorm(x: u32) -> bool {
    return (x & 0x7c00u) == 0u && (x & 0x3ffu) != 0u;
}

// float.rs flush_in / flush_out on f16, given the FP_DENORM code (bits 7:6).
fn f16_flush_in(den: u32, x: u32) -> u32 {
    return select(x, x & 0x8000u, (den & 1u) == 0u && f16_is_denorm(x));
}

fn f16_flush_out(den: u32, x: u32) -> u32 {
    return select(x, x & 0x8000u, (den & 2u) == 0u && f16_is_denorm(x));
}

// float.rs arith's NaN rule on f16: the first NaN of the first `n` quieted,
// or 0 (never a NaN) when there is none.
fn f16_first_nan(a: u32, b: u32, c: u32, n: u32) -> u32 {
    if f16_is_nan(a) {
        return a | 0x200u;
    }
    if n >= 2u && f16_is_nan(b) {
        return b | 0x200u;
    }
    if n >= 3u && f16_is_nan(c) {
        return c | 0x200u;
    }
    return 0u;
}

// w × 2^e0 (w ≠ 0; bit 0 may be a round-to-odd bit) rounded to the nearest
// even f16 with `sign` (0 or 0x8000): 11-bit significand, exponents
// −14..15, denormals down to 2^−24.
fn f16_round(w: vec3<u32>, e0: i32, sign: u32) -> u32 {
    return round_to_float(w, e0, sign, 10u, 15);
}

// f32 bits of an exactly representable f16 value (or ∞, a zero, a NaN) back
// to f16 bits.
fn f16_of_exact_f32(x: u32) -> u32 {
    let sign = (x >> 16u) & 0x8000u;
    let ax = x & 0x7fffffffu;
    if ax > 0x7f800000u {
        return 0x7e00u;
    }
    if ax == 0x7f800000u {
        return sign | 0x7c00u;
    }
    if ax == 0u {
        return sign;
    }
    let d = decompose(ax);
    return f16_round(vec3<u32>(u32(d.x), 0u, 0u), d.y, sign);
}

// a × b + c on f16 bits, rounded once (NaN inputs handled by the caller).
fn f16_fma_raw(a: u32, b: u32, c: u32) -> u32 {
    let r = fma_exact(f16_bits_to_f32(a), f16_bits_to_f32(b), f16_bits_to_f32(c));
    if r.special {
        return f16_of_exact_f32(r.bits);
    }
    return f16_round(r.w, r.e0, r.sign >> 16u);
}

// float.rs arith's end on f16: the default NaN, then the flush.
fn f16_finish(den: u32, r: u32) -> u32 {
    return f16_flush_out(den, select(r, 0x7e00u, f16_is_nan(r)));
}

// float.rs arith of +, −, ×, fma on f16.
fn f16_arith3(den: u32, a0: u32, b0: u32, c0: u32, n: u32, fam: u32) -> u32 {
    let a = f16_flush_in(den, a0);
    let b = f16_flush_in(den, b0);
    let c = f16_flush_in(den, c0);
    let nan = f16_first_nan(a, b, c, n);
    if nan != 0u {
        return nan;
    }
    // The family picks the multiplier and addend; one f16_fma_raw call
    // takes them (a call per family made the driver inline four copies).
    let md = float_fma_operands(fam, b, c, 0x3c00u, 0x8000u);
    return f16_finish(den, f16_fma_raw(a, md.x, md.y));
}

// float.rs total_key on f16.
fn f16_order_key(x: u32) -> u32 {
    return float_order_key(x, 0x8000u);
}

// float.rs min_max on f16.
fn f16_min_max(mode: u32, a: u32, b: u32, is_max: bool) -> u32 {
    return float_min_max((mode >> 6u) & 3u, mode, a, b, is_max, 0x8000u, 0x7c00u);
}

// float.rs class on f16.
fn f16_class(a: u32, mask: u32) -> bool {
    return float_class(a, mask, 0x8000u, 0x7c00u);
}

// Integer → f16, rounded to nearest even (float.rs from_int_bits for I16
// and U16): `src_ty` bits | 0x100 when signed.
fn f16_from_int(mode: u32, a: u32, src_ty: u32) -> u32 {
    let bits = src_ty & 0xffu;
    let signed = (src_ty & 0x100u) != 0u;
    var v = a & int_mask(bits);
    var sign = 0u;
    if signed {
        let s = int_sext(v, bits);
        if (s >> 31u) == 1u {
            sign = 0x8000u;
            v = 0u - s;
        } else {
            v = s;
        }
    }
    if v == 0u {
        return 0u;
    }
    return f16_flush_out((mode >> 6u) & 3u, f16_round(vec3<u32>(v, 0u, 0u), 0, sign));
}

// cpu::alu::float::output's CLAMP on f16 (no OMOD): [0, 1], a NaN to 0
// under DX10_CLAMP.
fn f16_clamp(mode: u32, x0: u32) -> u32 {
    let x = x0 & 0xffffu;
    if f16_is_nan(x) {
        return select(x, 0u, ((mode >> 8u) & 1u) == 1u);
    }
    if (x >> 15u) == 1u {
        return 0u;
    }
    return select(x, 0x3c00u, x > 0x3c00u);
}

// float.rs output on f16: OMOD as ldexp by 1, 2 or −1 (f16op_rcp's ldexp,
// the f16 rule), then CLAMP (f16_clamp).
fn f16_output(mode: u32, x0: u32, omod: u32, clamp: bool) -> u32 {
    var x = x0 & 0xffffu;
    // One call for the three OMOD scales (×2, ×4, ÷2: ldexp by 1, 2, −1):
    // Mesa inlines f16op_rcp whole, every family of it, before it folds the
    // constants, so a call per scale tripled the module's text.
    if omod != 0u {
        // The exponent operand as the instruction holds it (two's complement).
        x = f16op_rcp(FAM_LDEXP, 0u, mode, x, u32(omod_power(omod)), 0u, false).x;
    }
    if clamp {
        return f16_clamp(mode, x);
    }
    return x;
}

fn f16_r(v: u32) -> vec3<u32> {
    return vec3<u32>(v, 0u, 0u);
}

// ---- float.rs eval on f16, one function per case: the value and the bit.
// `sub`: the compare's Rel code, or a conversion's target (bits, | 0x100
// signed, | 0x200 float). ----
// FAM_ADD, FAM_SUB, FAM_MUL, FAM_FMA (alu_f16's case).
fn f16op_add(fam: u32, sub: u32, mode: u32, a: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let den = (mode >> 6u) & 3u;
    switch fam {
        case FAM_ADD, FAM_SUB, FAM_MUL, FAM_FMA: { return f16_r(f16_arith3(den, a, b, c, select(2u, 3u, fam == FAM_FMA), fam)); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_MAD (alu_f16's case).
fn f16op_mad(fam: u32, sub: u32, mode: u32, a: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let den = (mode >> 6u) & 3u;
    switch fam {
        case FAM_MAD: {
            // The product rounded to f16, then the sum (MAD's f32-only
            // denormal rule does not apply to f16).
            let p = f16_arith3(den, a, b, 0u, 2u, FAM_MUL);
            return f16_r(f16_arith3(den, p, c, 0u, 2u, FAM_ADD));
        }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_MIN (alu_f16's case).
fn f16op_min(fam: u32, sub: u32, mode: u32, a: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let den = (mode >> 6u) & 3u;
    switch fam {
        case FAM_MIN: { return f16_r(f16_min_max(mode, a, b, false)); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_MAX (alu_f16's case).
fn f16op_max(fam: u32, sub: u32, mode: u32, a: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let den = (mode >> 6u) & 3u;
    switch fam {
        case FAM_MAX: { return f16_r(f16_min_max(mode, a, b, true)); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_MIN3 (alu_f16's case).
fn f16op_min3(fam: u32, sub: u32, mode: u32, a: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let den = (mode >> 6u) & 3u;
    switch fam {
        case FAM_MIN3: { return f16_r(f16_min_max(mode, f16_min_max(mode, a, b, false), c, false)); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_MIN_MAX, FAM_MAX_MIN (alu_f16's case): gfx11's max(min(a, b), c)
// (v_minmax) and min(max(a, b), c) (v_maxmin).
fn f16op_min_max(fam: u32, sub: u32, mode: u32, a: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let first_max = fam == FAM_MAX_MIN;
    return f16_r(f16_min_max(mode, f16_min_max(mode, a, b, first_max), c, !first_max));
}

// FAM_MAX3 (alu_f16's case).
fn f16op_max3(fam: u32, sub: u32, mode: u32, a: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let den = (mode >> 6u) & 3u;
    switch fam {
        case FAM_MAX3: { return f16_r(f16_min_max(mode, f16_min_max(mode, a, b, true), c, true)); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_MED3 (alu_f16's case).
fn f16op_med3(fam: u32, sub: u32, mode: u32, a: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let den = (mode >> 6u) & 3u;
    switch fam {
        case FAM_MED3: { return f16_r(float_med3(den, mode, a, b, c, 0x8000u, 0x7c00u)); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_CMP (alu_f16's case).
fn f16op_cmp(fam: u32, sub: u32, mode: u32, a: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let den = (mode >> 6u) & 3u;
    switch fam {
        case FAM_CMP: {
            // The relations on the values widened to f32 (exact), denormals
            // flushed by the f16 mode first; the widened values are normal
            // f32s, which the f32 flush leaves alone.
            let fa = f16_bits_to_f32(f16_flush_in(den, a));
            let fb = f16_bits_to_f32(f16_flush_in(den, b));
            return vec3<u32>(0u, 0u, select(0u, 1u, f32_compare(0x30u, sub, fa, fb)));
        }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_CLASS (alu_f16's case).
fn f16op_class(fam: u32, sub: u32, mode: u32, a: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let den = (mode >> 6u) & 3u;
    switch fam {
        case FAM_CLASS: { return vec3<u32>(0u, 0u, select(0u, 1u, f16_class(a, b))); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_CVT (alu_f16's case).
fn f16op_cvt(fam: u32, sub: u32, mode: u32, a: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let den = (mode >> 6u) & 3u;
    switch fam {
        case FAM_CVT: {
            // f16 → integer: through the exact f32.
            return f16_r(f32_to_int(f16_bits_to_f32(f16_flush_in(den, a)), sub));
        }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_RCP, FAM_SQRT, FAM_RSQ, FAM_FRACT, FAM_FLOOR, FAM_CEIL, FAM_TRUNC,
// FAM_RNDNE, FAM_FREXP_MANT, FAM_FREXP_EXP, FAM_LDEXP on f16 (alu_f16's case):
// through f32 — a NaN gives itself quieted (frexp_mant itself, frexp_exp 0);
// otherwise the input as MODE reads it, widened exactly, the f32 rule with
// f32 denormals kept, narrowed to f16 (fract's at most 0x3bff). float.rs
// tests::f16_unary_rules_equal_their_f32_rules_rounded_to_f16 shows this is
// float.rs eval's f16 rule on every input.
fn f16op_rcp(fam: u32, sub: u32, mode: u32, a: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let h = a & 0xffffu;
    if f16_is_nan(h) {
        if fam == FAM_FREXP_MANT {
            return f16_r(h);
        }
        if fam == FAM_FREXP_EXP {
            return vec3<u32>(0u);
        }
        return f16_r(h | 0x200u);
    }
    let m32 = mode | 0x30u;
    let x = alu_f16_to_f32(m32, h);
    var r = 0u;
    switch fam {
        case FAM_RCP: { r = f32op_rcp(fam, 0u, m32, x, 0u, 0u, false).x; }
        case FAM_SQRT: { r = f32op_sqrt(fam, 0u, m32, x, 0u, 0u, false).x; }
        case FAM_RSQ: { r = f32op_rsq(fam, 0u, m32, x, 0u, 0u, false).x; }
        case FAM_FRACT: { r = f32op_fract(fam, 0u, m32, x, 0u, 0u, false).x; }
        case FAM_FREXP_MANT: { r = f32op_frexp_mant(fam, 0u, m32, x, 0u, 0u, false).x; }
        case FAM_FREXP_EXP: { return f32op_frexp_exp(fam, 0u, m32, x, 0u, 0u, false); }
        case FAM_LDEXP: { r = f32op_ldexp(fam, 0u, m32, x, b, 0u, false).x; }
        default: { r = f32op_floor(fam, 0u, m32, x, 0u, 0u, false).x; }
    }
    let n = f32op_cvt(FAM_CVT, 0x210u, m32, r, 0u, 0u, false).x;
    return f16_r(select(n, 0x3bffu, fam == FAM_FRACT && n == 0x3c00u));
}

// FAM_DIV_FIXUP (alu_f16's case).
fn f16op_div_fixup(fam: u32, sub: u32, mode: u32, a: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let den = (mode >> 6u) & 3u;
    // No underflow test on f16 (division.rs fixup: f32's and f64's only).
    return f16_r(float_div_fixup(den, a & 0xffffu, b & 0xffffu, c & 0xffffu, 0x8000u, 0x7c00u, false));
}

// FAM_CNDMASK (alu_f16's case).
fn f16op_cndmask(fam: u32, sub: u32, mode: u32, a: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let den = (mode >> 6u) & 3u;
    switch fam {
        case FAM_CNDMASK: { return f16_r(select(a, b, k)); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_MOV (alu_f16's case).
fn f16op_mov(fam: u32, sub: u32, mode: u32, a: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let den = (mode >> 6u) & 3u;
    switch fam {
        case FAM_MOV: { return f16_r(a); }
        default: { return vec3<u32>(0u); }
    }
}

