// grf.wgsl — the GRF operations of lowered Intel vISA programs, the WGSL mirror of
// src/cpu/grf.rs (and Region::element of src/ir/grf.rs). docs/gpu.md, "Intel vISA
// programs", explains the execution model; docs/semantics.md, "Intel vISA", the rules.
//
// One Intel thread is one workgroup of 32 invocations, invocation = channel. The
// thread's GRF (the VGPRs it overlays) lives in `grf`, a workgroup array of dwords
// declared by the translator with GRF_WORDS (GRF dword d = v[d / 32] of lane
// d % 32, as ir::grf::grf_slot lays it out), because regions read across channels.
// Atomics make sub-dword writes of neighbouring channels safe (their bytes never
// overlap: a destination's horizontal stride is at least 1).
//
// Values are bits throughout: f32 as u32, 64-bit integers as vec2<u32> (x = low,
// y = high, two's complement), so that no driver can flush, canonicalise or
// reassociate them. Only `alu`'s float add and multiply use WGSL arithmetic (one
// correctly rounded operation each, stored as bits before any other use).

// ElemType codes (translate_grf.rs::type_code).
const TY_UD: u32 = 0u;
const TY_D: u32 = 1u;
const TY_UW: u32 = 2u;
const TY_W: u32 = 3u;
const TY_UB: u32 = 4u;
const TY_B: u32 = 5u;
const TY_UQ: u32 = 6u;
const TY_Q: u32 = 7u;
const TY_F: u32 = 8u;
const TY_HF: u32 = 9u;

// SrcMod codes.
const MOD_NONE: u32 = 0u;
const MOD_NEG: u32 = 1u;
const MOD_ABS: u32 = 2u;
const MOD_NEG_ABS: u32 = 3u;

// AluOp codes.
const ALU_MOV: u32 = 0u;
const ALU_ADD: u32 = 1u;
const ALU_MUL: u32 = 2u;
const ALU_SEL: u32 = 3u;
const ALU_OR: u32 = 4u;
const ALU_SHL: u32 = 5u;

// Relation codes (vISA's order).
const REL_EQ: u32 = 0u;
const REL_NE: u32 = 1u;
const REL_GT: u32 = 2u;
const REL_GE: u32 = 3u;
const REL_LT: u32 = 4u;
const REL_LE: u32 = 5u;

// PredCtrl codes.
const CTRL_NONE: u32 = 0u;
const CTRL_ANY: u32 = 1u;
const CTRL_ALL: u32 = 2u;

// A value during an ALU operation (cpu::grf::Val): a float (f32 bits in `f`) or
// an integer (i64 in `i`).
struct Val {
    is_float: bool,
    f: u32,
    i: vec2<u32>,
}

fn val_float(f: u32) -> Val {
    return Val(true, f, vec2<u32>(0u, 0u));
}

fn val_int(i: vec2<u32>) -> Val {
    return Val(false, 0u, i);
}

// ---- ElemType ----

fn elem_bytes(ty: u32) -> u32 {
    switch ty {
        case TY_UB, TY_B: { return 1u; }
        case TY_UW, TY_W, TY_HF: { return 2u; }
        case TY_UQ, TY_Q: { return 8u; }
        default: { return 4u; }
    }
}

fn elem_is_float(ty: u32) -> bool {
    return ty == TY_F || ty == TY_HF;
}

// Region::element: the GRF byte of element i of a region.
fn region_element(byte: u32, vstride: u32, width: u32, hstride: u32, ty: u32, i: u32) -> u32 {
    let w = max(width, 1u);
    return byte + ((i / w) * vstride + (i % w) * hstride) * elem_bytes(ty);
}

// ---- 64-bit signed integers (i64 as vec2<u32>), wrapping like Rust's ----

fn i64_from_i32(v: u32) -> vec2<u32> {
    return vec2<u32>(v, select(0u, 0xffffffffu, (v >> 31u) == 1u));
}

fn i64_is_negative(a: vec2<u32>) -> bool {
    return (a.y >> 31u) == 1u;
}

fn i64_neg(a: vec2<u32>) -> vec2<u32> {
    return u64_add(vec2<u32>(~a.x, ~a.y), vec2<u32>(1u, 0u));
}

// i64::wrapping_abs.
fn i64_abs(a: vec2<u32>) -> vec2<u32> {
    if i64_is_negative(a) {
        return i64_neg(a);
    }
    return a;
}

// i64::wrapping_mul: the low 64 bits of the product.
fn i64_mul(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    let lo = u64_mul32(a.x, b.x);
    return vec2<u32>(lo.x, lo.y + a.x * b.y + a.y * b.x);
}

// Signed a < b.
fn i64_lt(a: vec2<u32>, b: vec2<u32>) -> bool {
    return u64_lt(vec2<u32>(a.x, a.y ^ 0x80000000u), vec2<u32>(b.x, b.y ^ 0x80000000u));
}

fn i64_clamp(a: vec2<u32>, lo: vec2<u32>, hi: vec2<u32>) -> vec2<u32> {
    if i64_lt(a, lo) {
        return lo;
    }
    if i64_lt(hi, a) {
        return hi;
    }
    return a;
}

// `i as f32` for an i64: round to nearest, ties to even, on the bits.
fn i64_to_f32(a: vec2<u32>) -> u32 {
    if a.x == 0u && a.y == 0u {
        return 0u;
    }
    let negative = i64_is_negative(a);
    let mag = select(a, i64_neg(a), negative);
    var p = 63u - u64_clz(mag);
    var sig: u32;
    if p <= 23u {
        sig = mag.x << (23u - p);
    } else {
        sig = round_shift_rne(mag, i32(p - 23u)).x;
        if sig == 0x1000000u {
            sig = sig >> 1u;
            p = p + 1u;
        }
    }
    return select(0u, 0x80000000u, negative) | ((p + 127u) << 23u) | (sig & 0x7fffffu);
}

// `f as i64` for a float that is not NaN: toward zero, saturating at i64's range.
fn f32_to_i64(f: u32) -> vec2<u32> {
    let negative = (f >> 31u) == 1u;
    let e = i32((f >> 23u) & 0xffu) - 127;
    if e < 0 {
        return vec2<u32>(0u, 0u);
    }
    if e >= 63 {
        return select(vec2<u32>(0xffffffffu, 0x7fffffffu), vec2<u32>(0u, 0x80000000u), negative);
    }
    let sig = vec2<u32>((f & 0x7fffffu) | 0x800000u, 0u);
    var mag: vec2<u32>;
    if e >= 23 {
        mag = u64_shl(sig, u32(e - 23));
    } else {
        mag = u64_shr(sig, u32(23 - e));
    }
    return select(mag, i64_neg(mag), negative);
}

// ---- cpu::grf's value rules ----

// decode: the value of `bits` read as `ty`.
fn decode(bits: vec2<u32>, ty: u32) -> Val {
    switch ty {
        case TY_F: { return val_float(bits.x); }
        case TY_HF: { return val_float(bitcast<u32>(f16_to_f32(bits.x & 0xffffu))); }
        case TY_UD: { return val_int(vec2<u32>(bits.x, 0u)); }
        case TY_D: { return val_int(i64_from_i32(bits.x)); }
        case TY_UW: { return val_int(vec2<u32>(bits.x & 0xffffu, 0u)); }
        case TY_W: { return val_int(i64_from_i32(bitcast<u32>(sign_extend(bits.x, 16u)))); }
        case TY_UB: { return val_int(vec2<u32>(bits.x & 0xffu, 0u)); }
        case TY_B: { return val_int(i64_from_i32(bitcast<u32>(sign_extend(bits.x, 8u)))); }
        default: { return val_int(bits); }
    }
}

// int_range: (lo, hi) of an integer type as (lo.x, lo.y, hi.x, hi.y).
fn int_range(ty: u32) -> vec4<u32> {
    switch ty {
        case TY_UD: { return vec4<u32>(0u, 0u, 0xffffffffu, 0u); }
        case TY_D: { return vec4<u32>(0x80000000u, 0xffffffffu, 0x7fffffffu, 0u); }
        case TY_UW: { return vec4<u32>(0u, 0u, 0xffffu, 0u); }
        case TY_W: { return vec4<u32>(0xffff8000u, 0xffffffffu, 0x7fffu, 0u); }
        case TY_UB: { return vec4<u32>(0u, 0u, 0xffu, 0u); }
        case TY_B: { return vec4<u32>(0xffffff80u, 0xffffffffu, 0x7fu, 0u); }
        case TY_UQ: { return vec4<u32>(0u, 0u, 0xffffffffu, 0x7fffffffu); }
        default: { return vec4<u32>(0u, 0x80000000u, 0xffffffffu, 0x7fffffffu); }
    }
}

// saturate: NaN → +0, else f32::clamp(f, 0, 1) (−0 stays −0: it is not below 0).
fn saturate(f: u32) -> u32 {
    if is_nan_bits(f) {
        return 0u;
    }
    if (f >> 31u) == 1u {
        return select(0u, f, f == 0x80000000u);
    }
    return min(f, 0x3f800000u);
}

// float_bits: an f32 stored as `ty` (HF rounds to nearest even).
fn float_bits(f: u32, ty: u32) -> vec2<u32> {
    if ty == TY_HF {
        return vec2<u32>(f32_to_f16(f), 0u);
    }
    return vec2<u32>(f, 0u);
}

// encode: `v` converted to `ty`'s bits.
fn encode(v: Val, ty: u32, sat: bool) -> vec2<u32> {
    if elem_is_float(ty) {
        var f = v.f;
        if !v.is_float {
            f = i64_to_f32(v.i);
        }
        if sat {
            f = saturate(f);
        }
        return float_bits(f, ty);
    }
    let r = int_range(ty);
    if v.is_float {
        if is_nan_bits(v.f) {
            return vec2<u32>(0u, 0u);
        }
        return i64_clamp(f32_to_i64(v.f), r.xy, r.zw);
    }
    if sat {
        return i64_clamp(v.i, r.xy, r.zw);
    }
    return v.i;
}

// apply_mod: source modifiers, on the sign bit for floats (Rust's `-f` and
// `f.abs()` are bit operations), wrapping for integers.
fn apply_mod(v: Val, m: u32) -> Val {
    if m == MOD_NONE {
        return v;
    }
    if v.is_float {
        switch m {
            case MOD_NEG: { return val_float(v.f ^ 0x80000000u); }
            case MOD_ABS: { return val_float(v.f & 0x7fffffffu); }
            default: { return val_float(v.f | 0x80000000u); }
        }
    }
    switch m {
        case MOD_NEG: { return val_int(i64_neg(v.i)); }
        case MOD_ABS: { return val_int(i64_abs(v.i)); }
        default: { return val_int(i64_neg(i64_abs(v.i))); }
    }
}

fn to_float(v: Val) -> u32 {
    if v.is_float {
        return v.f;
    }
    return i64_to_f32(v.i);
}

// `f as i64` (NaN → 0).
fn to_int(v: Val) -> vec2<u32> {
    if v.is_float {
        if is_nan_bits(v.f) {
            return vec2<u32>(0u, 0u);
        }
        return f32_to_i64(v.f);
    }
    return v.i;
}

// ---- the GRF (WaveState::grf_byte, grf_bits, set_grf_bits) ----

fn grf_word(w: u32) -> u32 {
    if w >= GRF_WORDS {
        return 0u;
    }
    return atomicLoad(&grf[w]);
}

fn grf_byte(b: u32) -> u32 {
    return (grf_word(b / 4u) >> (8u * (b % 4u))) & 0xffu;
}

// `n` (≤ 8) little-endian bytes from GRF byte `b`.
fn grf_bits(b: u32, n: u32) -> vec2<u32> {
    if b % 4u == 0u {
        let lo = grf_word(b / 4u);
        if n == 4u {
            return vec2<u32>(lo, 0u);
        }
        if n == 8u {
            return vec2<u32>(lo, grf_word(b / 4u + 1u));
        }
    }
    var out = vec2<u32>(0u, 0u);
    for (var k = 0u; k < n; k = k + 1u) {
        let x = grf_byte(b + k);
        if k < 4u {
            out.x = out.x | (x << (8u * k));
        } else {
            out.y = out.y | (x << (8u * (k - 4u)));
        }
    }
    return out;
}

fn set_grf_byte(b: u32, x: u32) {
    let w = b / 4u;
    if w >= GRF_WORDS {
        return;
    }
    let shift = 8u * (b % 4u);
    atomicAnd(&grf[w], ~(0xffu << shift));
    atomicOr(&grf[w], (x & 0xffu) << shift);
}

// Writes the low `n` bytes of `bits` at GRF byte `b`.
fn set_grf_bits(b: u32, n: u32, bits: vec2<u32>) {
    if b % 4u == 0u && (n == 4u || n == 8u) && b / 4u + n / 4u <= GRF_WORDS {
        atomicStore(&grf[b / 4u], bits.x);
        if n == 8u {
            atomicStore(&grf[b / 4u + 1u], bits.y);
        }
        return;
    }
    for (var k = 0u; k < n; k = k + 1u) {
        var x = bits.x >> (8u * (k % 4u));
        if k >= 4u {
            x = bits.y >> (8u * (k - 4u));
        }
        set_grf_byte(b + k, x);
    }
}

// read_src for a region element at GRF byte `b`, modifier applied.
fn read_src(b: u32, ty: u32, m: u32) -> Val {
    return apply_mod(decode(grf_bits(b, elem_bytes(ty)), ty), m);
}

// write_dst: element i of a destination at `byte` with horizontal stride `hstride`.
fn write_dst(byte: u32, hstride: u32, ty: u32, i: u32, v: Val, sat: bool) {
    let n = elem_bytes(ty);
    set_grf_bits(byte + i * hstride * n, n, encode(v, ty, sat));
}

// ---- channel enable ----

// The bit of predicate value `p` for `channel`.
fn pred_bit(p: u32, channel: u32) -> bool {
    return ((p >> channel) & 1u) == 1u;
}

// range_mask: channels first .. first + size.
fn range_mask(first: u32, size: u32) -> u32 {
    var ones = 0xffffffffu;
    if size < 32u {
        ones = (1u << size) - 1u;
    }
    if first >= 32u {
        return 0u;
    }
    return ones << first;
}

// enabled: the channel-enable mask of (first, size, _NM, predicate). `pred` is
// the predicate SGPR's value when `has_pred`.
fn enabled(first: u32, size: u32, no_mask: bool, dispatch: u32, has_pred: bool, pred: u32, invert: bool, ctrl: u32) -> u32 {
    let range = range_mask(first, size);
    let d = select(dispatch, 0xffffffffu, no_mask);
    var p = 0xffffffffu;
    if has_pred {
        let bits = pred ^ select(0u, 0xffffffffu, invert);
        switch ctrl {
            case CTRL_ANY: { p = select(0u, 0xffffffffu, (bits & range) != 0u); }
            case CTRL_ALL: { p = select(0u, 0xffffffffu, (bits & range) == range); }
            default: { p = bits; }
        }
    }
    return range & d & p;
}

// ---- operations (one channel's element) ----

// The element of `alu` for one channel: `float` when any source is F/HF, `wide`
// when the destination is 64-bit, `take_a` = sel's predicate picks src0.
fn alu(op: u32, a: Val, b: Val, float: bool, wide: bool, take_a: bool) -> Val {
    switch op {
        case ALU_MOV: { return a; }
        case ALU_SEL: {
            if take_a {
                return a;
            }
            return b;
        }
        case ALU_ADD: {
            if float {
                return val_float(bitcast<u32>(bitcast<f32>(to_float(a)) + bitcast<f32>(to_float(b))));
            }
            return val_int(u64_add(to_int(a), to_int(b)));
        }
        case ALU_MUL: {
            if float {
                return val_float(bitcast<u32>(bitcast<f32>(to_float(a)) * bitcast<f32>(to_float(b))));
            }
            return val_int(i64_mul(to_int(a), to_int(b)));
        }
        case ALU_OR: { return val_int(to_int(a) | to_int(b)); }
        default: {
            // ALU_SHL: by the low 5 bits of src1 (6 for a 64-bit destination).
            let s = to_int(b).x & select(31u, 63u, wide);
            return val_int(u64_shl(to_int(a), s));
        }
    }
}

// -1, 0, 1 for a < b, a == b, a > b of two floats that are not NaN (−0 == +0).
fn f32_order(a: u32, b: u32) -> i32 {
    let za = (a & 0x7fffffffu) == 0u;
    let zb = (b & 0x7fffffffu) == 0u;
    if (za && zb) || a == b {
        return 0;
    }
    // Sign-magnitude to an order-preserving unsigned key.
    let ka = select(a | 0x80000000u, ~a, (a >> 31u) == 1u);
    let kb = select(b | 0x80000000u, ~b, (b >> 31u) == 1u);
    return select(1, -1, ka < kb);
}

// compare: IEEE relations for floats (unordered: only `ne` holds), signed
// 64-bit for integers.
fn compare(rel: u32, a: Val, b: Val, float: bool) -> bool {
    var ord: i32;
    if float {
        let fa = to_float(a);
        let fb = to_float(b);
        if is_nan_bits(fa) || is_nan_bits(fb) {
            return rel == REL_NE;
        }
        ord = f32_order(fa, fb);
    } else {
        let ia = to_int(a);
        let ib = to_int(b);
        ord = select(select(1, -1, i64_lt(ia, ib)), 0, u64_eq(ia, ib));
    }
    switch rel {
        case REL_EQ: { return ord == 0; }
        case REL_NE: { return ord != 0; }
        case REL_GT: { return ord > 0; }
        case REL_GE: { return ord >= 0; }
        case REL_LT: { return ord < 0; }
        default: { return ord <= 0; }
    }
}

// setp: the predicate after setting the enabled channels of (first, size) from
// bit i of the source's element 0 (`bits`: its integer value's or f32's bits).
fn setp(p: u32, en: u32, first: u32, size: u32, bits: u32) -> u32 {
    var out = p;
    for (var i = 0u; i < size; i = i + 1u) {
        let c = first + i;
        if c < 32u && ((en >> c) & 1u) == 1u {
            out = (out & ~(1u << c)) | (((bits >> i) & 1u) << c);
        }
    }
    return out;
}

// The low 32 bits setp reads from a value.
fn setp_bits(v: Val) -> u32 {
    if v.is_float {
        return v.f;
    }
    return v.i.x;
}

// StageAddress: a float parameter element read as f32 bits.
fn stage_float(b: u32, ty: u32) -> u32 {
    return to_float(decode(grf_bits(b, elem_bytes(ty)), ty));
}

// StageAddress: an integer parameter element plus a texel offset, as i32 bits.
fn stage_int(b: u32, ty: u32, add: u32) -> u32 {
    return to_int(decode(grf_bits(b, elem_bytes(ty)), ty)).x + add;
}

// ScatterResult: one result dword (f32 bits, or an integer for integer
// formats) as the destination type's bits.
fn scatter_bits(raw: u32, ty: u32, integer: bool) -> vec2<u32> {
    if integer {
        return vec2<u32>(raw, 0u);
    }
    if elem_is_float(ty) {
        return float_bits(raw, ty);
    }
    return encode(val_float(raw), ty, false);
}
