// visa.wgsl — the GRF operations of lowered Intel vISA programs: the WGSL side of
// src/cpu/visa.rs. docs/gpu.md, "Intel vISA programs", explains the execution model;
// docs/semantics/intel.md the rules.
//
// One Intel thread is one workgroup of 32 invocations, invocation = channel. The
// thread's GRF (the VGPRs it overlays) lives in `grf`, a workgroup array of dwords
// declared by the translator with GRF_WORDS (GRF dword d = v[d / 32] of lane
// d % 32, as ir::visa::grf_slot lays it out), because regions read across channels.
// Atomics make sub-dword writes of neighbouring channels safe (their bytes never
// overlap: a destination's horizontal stride is at least 1).
//
// cpu::visa works on a `Val` that is a float or an integer; which one is known for
// every operand when the program is translated, so src/gpu/translate/visa.rs
// composes `decode`, `apply_mod`, `to_float`, `to_int`, `encode` from the typed
// pieces below, and a module holds only the conversions its instructions need
// (llvmpipe compiles every inlined path, folded or not). The operations
// themselves are the shared ALU library's (alu_int.wgsl, alu_f32.wgsl: the twins
// of cpu::alu::eval, which cpu::visa runs). Values are bits throughout: f32 as
// u32, 64-bit integers as vec2<u32> (x = low, y = high, two's complement), so
// that no driver can flush, canonicalise or reassociate them.

// PredCtrl codes.
const CTRL_ANY: u32 = 1u;
const CTRL_ALL: u32 = 2u;

// ---- 64-bit signed integers (i64 as vec2<u32>), wrapping like Rust's ----

fn i64_from_i32(v: u32) -> vec2<u32> {
    return vec2<u32>(v, select(0u, 0xffffffffu, (v >> 31u) == 1u));
}

fn i64_is_negative(a: vec2<u32>) -> bool {
    return (a.y >> 31u) == 1u;
}

// i64::wrapping_neg.
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

// Signed a < b.
fn i64_lt(a: vec2<u32>, b: vec2<u32>) -> bool {
    return u64_lt(vec2<u32>(a.x, a.y ^ 0x80000000u), vec2<u32>(b.x, b.y ^ 0x80000000u));
}

// i64::clamp(a, lo, hi).
fn i64_clamp(a: vec2<u32>, lo: vec2<u32>, hi: vec2<u32>) -> vec2<u32> {
    if i64_lt(a, lo) {
        return lo;
    }
    if i64_lt(hi, a) {
        return hi;
    }
    return a;
}

// `i as f32` for an i64 (to_float of an integer): round to nearest, ties to even.
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

// `f as i64` (to_int of a float): toward zero, saturating at i64's range, NaN → 0.
fn f32_to_i64(f: u32) -> vec2<u32> {
    if is_nan_bits(f) {
        return vec2<u32>(0u, 0u);
    }
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

// ---- cpu::grf's value rules, typed ----

// decode of an HF element: the f32 bits of its exact value.
fn decode_hf(bits: u32) -> u32 {
    return bitcast<u32>(f16_to_f32(bits & 0xffffu));
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

// encode of a float to an integer type of range [lo, hi]: NaN → 0, else toward
// zero and clamped.
fn float_to_int(f: u32, lo: vec2<u32>, hi: vec2<u32>) -> vec2<u32> {
    return i64_clamp(f32_to_i64(f), lo, hi);
}

// ---- the GRF (WaveState::grf_byte, grf_bits, set_grf_bits) ----

fn grf_word(w: u32) -> u32 {
    if w >= GRF_WORDS {
        return 0u;
    }
    return atomicLoad(&grf[w]);
}

// The `n` bytes at GRF byte `b` when they lie inside one dword.
fn grf_part(b: u32, n: u32) -> u32 {
    let x = grf_word(b / 4u) >> (8u * (b % 4u));
    return select(x & ((1u << (8u * n)) - 1u), x, n >= 4u);
}

// `n` (≤ 8) little-endian bytes from GRF byte `b`, anywhere.
fn grf_bits(b: u32, n: u32) -> vec2<u32> {
    var out = vec2<u32>(0u, 0u);
    for (var k = 0u; k < n; k = k + 1u) {
        let x = grf_part(b + k, 1u);
        if k < 4u {
            out.x = out.x | (x << (8u * k));
        } else {
            out.y = out.y | (x << (8u * (k - 4u)));
        }
    }
    return out;
}

// Writes the low `n` bytes of `x` at GRF byte `b` when they lie inside one dword.
fn set_grf_part(b: u32, n: u32, x: u32) {
    let w = b / 4u;
    if w >= GRF_WORDS {
        return;
    }
    if n >= 4u {
        atomicStore(&grf[w], x);
        return;
    }
    let shift = 8u * (b % 4u);
    let mask = ((1u << (8u * n)) - 1u) << shift;
    atomicAnd(&grf[w], ~mask);
    atomicOr(&grf[w], (x << shift) & mask);
}

// Writes the low `n` bytes of `bits` at GRF byte `b`, anywhere.
fn set_grf_bits(b: u32, n: u32, bits: vec2<u32>) {
    for (var k = 0u; k < n; k = k + 1u) {
        var x = bits.x >> (8u * (k % 4u));
        if k >= 4u {
            x = bits.y >> (8u * (k - 4u));
        }
        set_grf_part(b + k, 1u, x);
    }
}

// Region::element: the GRF byte of element i of a region.
fn region_element(byte: u32, vstride: u32, width: u32, hstride: u32, size: u32, i: u32) -> u32 {
    return byte + ((i / width) * vstride + (i % width) * hstride) * size;
}

// ---- channel enable ----

// The bit of predicate value `p` for `channel` (pred_bit).
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

// setp: the predicate after setting the enabled channels of (first, size) from
// bit i of the source's element 0 (`bits`: its integer value's or f32's low bits).
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

// ---- texel offsets and MSAA sample indices (cpu::grf) ----

// intel_offset_field: the signed 4-bit aoffimmi field at bit `shift` (U 11:8,
// V 7:4, R 3:0), as i32 bits.
fn intel_offset_field(a: u32, shift: u32) -> u32 {
    return bitcast<u32>(bitcast<i32>(((a >> shift) & 0xfu) << 28u) >> 28u);
}

// amd_offset_dword: U, V, R offsets in the 6-bit fields at bits 5:0, 13:8, 21:16.
fn amd_offset_dword(u: u32, v: u32, r: u32) -> u32 {
    return (u & 0x3fu) | ((v & 0x3fu) << 8u) | ((r & 0x3fu) << 16u);
}

// ms_sample_index: `si` clamped to the last sample, or past every sample
// (0xffffffff) for a non-zero LOD.
fn ms_sample_index(si: u32, lod: u32, last: u32) -> u32 {
    return select(min(si, last), 0xffffffffu, lod != 0u);
}

// ---- 3D_INFO (cpu::grf) ----

// resinfo_shift: a level-0 size at `lod`, size >> lod with no floor, 0 once
// the shift is 32 or more (WGSL masks the shift amount, so it is selected away).
fn resinfo_shift(size: u32, lod: u32) -> u32 {
    return select(0u, size >> min(lod, 31u), lod < 32u);
}
