// atomic.wgsl — the arithmetic of image atomics, the WGSL mirror of
// src/cpu/atomic.rs (apply32 / apply64 and the float orderings). The operation
// codes are AtomicOp's discriminants, passed in by the translator as constants.

const AT_SWAP: u32 = 0u;
const AT_CMPSWAP: u32 = 1u;
const AT_ADD: u32 = 2u;
const AT_SUB: u32 = 3u;
const AT_RSUB: u32 = 4u;
const AT_SMIN: u32 = 5u;
const AT_UMIN: u32 = 6u;
const AT_SMAX: u32 = 7u;
const AT_UMAX: u32 = 8u;
const AT_AND: u32 = 9u;
const AT_OR: u32 = 10u;
const AT_XOR: u32 = 11u;
const AT_INC: u32 = 12u;
const AT_DEC: u32 = 13u;
const AT_FCMPSWAP: u32 = 14u;
const AT_FMIN: u32 = 15u;
const AT_FMAX: u32 = 16u;

// Total-order key of a non-NaN f32 (float_key32): −0 sorts below +0.
fn float_key32(b: u32) -> u32 {
    return select(b | 0x80000000u, ~b, (b >> 31u) == 1u);
}

// f32 equality on bits (feq32): NaN equals nothing, +0 equals −0, denormals
// compare exactly (no flush).
fn feq32(a: u32, b: u32) -> bool {
    if is_nan_bits(a) || is_nan_bits(b) {
        return false;
    }
    return a == b || ((a | b) & 0x7fffffffu) == 0u;
}

// fmin32 / fmax32: a NaN operand yields the other operand; otherwise the lesser
// (greater) in the total order; on a tie the old value stays.
fn fmin32(old: u32, data: u32) -> u32 {
    if is_nan_bits(old) {
        return data;
    }
    if is_nan_bits(data) {
        return old;
    }
    return select(old, data, float_key32(data) < float_key32(old));
}

fn fmax32(old: u32, data: u32) -> u32 {
    if is_nan_bits(old) {
        return data;
    }
    if is_nan_bits(data) {
        return old;
    }
    return select(old, data, float_key32(data) > float_key32(old));
}

fn apply32(op: u32, old: u32, data: u32, cmp: u32) -> u32 {
    switch op {
        case 0u: { return data; }
        case 1u: { return select(old, data, old == cmp); }
        case 2u: { return old + data; }
        case 3u: { return old - data; }
        case 4u: { return data - old; }
        case 5u: { return bitcast<u32>(min(bitcast<i32>(old), bitcast<i32>(data))); }
        case 6u: { return min(old, data); }
        case 7u: { return bitcast<u32>(max(bitcast<i32>(old), bitcast<i32>(data))); }
        case 8u: { return max(old, data); }
        case 9u: { return old & data; }
        case 10u: { return old | data; }
        case 11u: { return old ^ data; }
        case 12u: { return select(old + 1u, 0u, old >= data); }
        case 13u: { return select(old - 1u, data, old == 0u || old > data); }
        case 14u: { return select(old, data, feq32(old, cmp)); }
        case 15u: { return fmin32(old, data); }
        case 16u: { return fmax32(old, data); }
        default: { return old; }
    }
}

// ---- 64-bit forms on vec2<u32> (x = low word) ----

fn is_nan_bits64(b: vec2<u32>) -> bool {
    let hi = b.y & 0x7fffffffu;
    return hi > 0x7ff00000u || (hi == 0x7ff00000u && b.x != 0u);
}

// Total-order key of a non-NaN f64 (float_key64).
fn float_key64(b: vec2<u32>) -> vec2<u32> {
    if (b.y >> 31u) == 1u {
        return ~b;
    }
    return vec2<u32>(b.x, b.y | 0x80000000u);
}

fn feq64(a: vec2<u32>, b: vec2<u32>) -> bool {
    if is_nan_bits64(a) || is_nan_bits64(b) {
        return false;
    }
    return u64_eq(a, b) || (((a.y | b.y) & 0x7fffffffu) == 0u && (a.x | b.x) == 0u);
}

fn s64_lt(a: vec2<u32>, b: vec2<u32>) -> bool {
    return u64_lt(vec2<u32>(a.x, a.y ^ 0x80000000u), vec2<u32>(b.x, b.y ^ 0x80000000u));
}

fn sel64(f: vec2<u32>, t: vec2<u32>, c: bool) -> vec2<u32> {
    return select(f, t, vec2<bool>(c, c));
}

fn apply64(op: u32, old: vec2<u32>, data: vec2<u32>, cmp: vec2<u32>) -> vec2<u32> {
    let one = vec2<u32>(1u, 0u);
    let zero = vec2<u32>(0u, 0u);
    switch op {
        case 0u: { return data; }
        case 1u: { return sel64(old, data, u64_eq(old, cmp)); }
        case 2u: { return u64_add(old, data); }
        case 3u: { return u64_sub(old, data); }
        case 4u: { return u64_sub(data, old); }
        case 5u: { return sel64(old, data, s64_lt(data, old)); }
        case 6u: { return sel64(old, data, u64_lt(data, old)); }
        case 7u: { return sel64(old, data, s64_lt(old, data)); }
        case 8u: { return sel64(old, data, u64_lt(old, data)); }
        case 9u: { return old & data; }
        case 10u: { return old | data; }
        case 11u: { return old ^ data; }
        case 12u: { return sel64(u64_add(old, one), zero, u64_ge(old, data)); }
        case 13u: { return sel64(u64_sub(old, one), data, u64_eq(old, zero) || u64_lt(data, old)); }
        case 14u: { return sel64(old, data, feq64(old, cmp)); }
        case 15u: {
            if is_nan_bits64(old) { return data; }
            if is_nan_bits64(data) { return old; }
            return sel64(old, data, u64_lt(float_key64(data), float_key64(old)));
        }
        case 16u: {
            if is_nan_bits64(old) { return data; }
            if is_nan_bits64(data) { return old; }
            return sel64(old, data, u64_lt(float_key64(old), float_key64(data)));
        }
        default: { return old; }
    }
}
