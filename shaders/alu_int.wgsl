// alu_int.wgsl — the integer and bit families of the ALU, the WGSL mirror of
// src/cpu/alu/int.rs (`eval`): one function per case of its `match`, named
// after the case's first family, on 16- and 32-bit types (`int32_*`) and on
// 64-bit ones (`int64_*`, vec2<u32>: x low, y high), so that a module inlines
// only the families it uses (gpu::translate::whole::case_fn picks the
// function). Every function takes the family (FAM_* constants, emitted by
// gpu::translate::whole from ir::alu::Family), `sub` (a compare's relation or
// a conversion's target), the type's width and signedness, the unit, three
// inputs and the bit input, and returns vec3<u32>: the value's low and high
// dwords and the bit output (0 or 1). Needs u64_* and u64_mul32
// (convert.wgsl).

// The low `bits` bits set (bits in 0..=32).
fn int_mask(bits: u32) -> u32 {
    return select((1u << (bits & 31u)) - 1u, 0xffffffffu, bits >= 32u);
}

// x sign-extended from `bits` (1..=32) to 32 bits.
fn int_sext(x: u32, bits: u32) -> u32 {
    let s = 32u - bits;
    return bitcast<u32>(bitcast<i32>(x << s) >> s);
}

// x as a 64-bit value, zero- or sign-extended from `bits`.
fn int_wide(x: u32, bits: u32, signed: bool) -> vec2<u32> {
    if signed {
        let v = int_sext(x, bits);
        return vec2<u32>(v, select(0u, 0xffffffffu, (v >> 31u) == 1u));
    }
    return vec2<u32>(x & int_mask(bits), 0u);
}

// a < b on 64-bit values, signed or unsigned.
fn int_lt64(a: vec2<u32>, b: vec2<u32>, signed: bool) -> bool {
    if signed && (a.y >> 31u) != (b.y >> 31u) {
        return (a.y >> 31u) == 1u;
    }
    return u64_lt(a, b);
}

// The 64-bit product of two signed 32-bit values.
fn int_mul_i32(a: u32, b: u32) -> vec2<u32> {
    let p = u64_mul32(a, b);
    var hi = p.y;
    if (a >> 31u) == 1u {
        hi = hi - b;
    }
    if (b >> 31u) == 1u {
        hi = hi - a;
    }
    return vec2<u32>(p.x, hi);
}

// The compare `rel` (ir::alu::Rel code, F..T; integer compares use the first
// eight, Lg being !=) on 64-bit values.
fn int_cmp(rel: u32, x: vec2<u32>, y: vec2<u32>, signed: bool) -> bool {
    let lt = int_lt64(x, y, signed);
    let eq = u64_eq(x, y);
    switch rel {
        case 1u: { return lt; }
        case 2u: { return eq; }
        case 3u: { return lt || eq; }
        case 4u: { return !lt && !eq; }
        case 5u: { return !eq; }
        case 6u: { return !lt; }
        case 15u: { return true; }
        default: { return false; }
    }
}

fn int_r(v: u32, bit: bool) -> vec3<u32> {
    return vec3<u32>(v, 0u, select(0u, 1u, bit));
}

// Wqm (quads = false) or QuadMask (quads = true) of the low `groups` nibbles.
fn int_quads(a: vec2<u32>, groups: u32, quads: bool) -> vec2<u32> {
    var r = vec2<u32>(0u);
    for (var q = 0u; q < groups; q = q + 1u) {
        let nib = u64_shr(a, 4u * q).x & 0xfu;
        if nib != 0u {
            if quads {
                r = vec2<u32>(r.x | u64_shl(vec2<u32>(1u, 0u), q).x, r.y | u64_shl(vec2<u32>(1u, 0u), q).y);
            } else {
                let f = u64_shl(vec2<u32>(0xfu, 0u), 4u * q);
                r = vec2<u32>(r.x | f.x, r.y | f.y);
            }
        }
    }
    return r;
}

// ---- 16- and 32-bit families (`bits` 16 or 32): int.rs `eval` for those
// types. `vec`: the vector unit (bfe's operands differ); `sub`: the
// compare's Rel code, or the bits of a conversion's target (| 0x100 when it
// is signed). ----

// FAM_MOV (alu_int32's case).
fn int32_mov(fam: u32, sub: u32, bits: u32, signed: bool, vec: bool, x0: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let m = int_mask(bits);
    let a = x0 & m;
    let sm = bits - 1u;
    let kin = select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW));
    switch fam {
        case FAM_MOV: { return int_r(a, false); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_ADD, FAM_ADD_CARRY (alu_int32's case).
fn int32_add(fam: u32, sub: u32, bits: u32, signed: bool, vec: bool, x0: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let m = int_mask(bits);
    let a = x0 & m;
    let sm = bits - 1u;
    let kin = select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW));
    switch fam {
        case FAM_ADD, FAM_ADD_CARRY: {
            let bm = b & m;
            let full = u64_add(u64_add(vec2<u32>(a, 0u), vec2<u32>(bm, 0u)), vec2<u32>(kin, 0u));
            let r = full.x & m;
            var bit: bool;
            if signed {
                let s = u64_add(u64_add(int_wide(a, bits, true), int_wide(bm, bits, true)), vec2<u32>(kin, 0u));
                bit = !u64_eq(s, int_wide(r, bits, true));
            } else {
                bit = full.y != 0u || full.x > m;
            }
            return int_r(r, bit);
        }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_SUB, FAM_SUB_BORROW (alu_int32's case).
fn int32_sub(fam: u32, sub: u32, bits: u32, signed: bool, vec: bool, x0: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let m = int_mask(bits);
    let a = x0 & m;
    let sm = bits - 1u;
    let kin = select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW));
    switch fam {
        case FAM_SUB, FAM_SUB_BORROW: {
            let bm = b & m;
            let r = (a - bm - kin) & m;
            var bit: bool;
            if signed {
                let d = u64_sub(u64_sub(int_wide(a, bits, true), int_wide(bm, bits, true)), vec2<u32>(kin, 0u));
                bit = !u64_eq(d, int_wide(r, bits, true));
            } else {
                bit = u64_lt(vec2<u32>(a, 0u), u64_add(vec2<u32>(bm, 0u), vec2<u32>(kin, 0u)));
            }
            return int_r(r, bit);
        }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_MUL (alu_int32's case).
fn int32_mul(fam: u32, sub: u32, bits: u32, signed: bool, vec: bool, x0: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let m = int_mask(bits);
    let a = x0 & m;
    let sm = bits - 1u;
    let kin = select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW));
    switch fam {
        case FAM_MUL: { return int_r((a * (b & m)) & m, false); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_MUL_HI (alu_int32's case).
fn int32_mul_hi(fam: u32, sub: u32, bits: u32, signed: bool, vec: bool, x0: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let m = int_mask(bits);
    let a = x0 & m;
    let sm = bits - 1u;
    let kin = select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW));
    switch fam {
        case FAM_MUL_HI: {
            if bits == 32u {
                if signed {
                    return int_r(int_mul_i32(a, b).y, false);
                }
                return int_r(u64_mul32(a, b).y, false);
            }
            let p = select(a * (b & m), bitcast<u32>(bitcast<i32>(int_sext(a, bits)) * bitcast<i32>(int_sext(b & m, bits))), signed);
            return int_r((p >> bits) & m, false);
        }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_MUL24, FAM_MUL_HI24, FAM_MAD24 (alu_int32's case).
fn int32_mul24(fam: u32, sub: u32, bits: u32, signed: bool, vec: bool, x0: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let m = int_mask(bits);
    let a = x0 & m;
    let sm = bits - 1u;
    let kin = select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW));
    switch fam {
        case FAM_MUL24, FAM_MUL_HI24, FAM_MAD24: {
            // 24-bit factors; 16-bit ones on 16-bit types (v_mad_u32_u16).
            let n = select(24u, 16u, bits == 16u);
            let nm = int_mask(n);
            var p: vec2<u32>;
            if signed {
                p = int_mul_i32(int_sext(a & nm, n), int_sext(b & nm, n));
            } else {
                p = u64_mul32(a & nm, b & nm);
            }
            if fam == FAM_MUL24 {
                return int_r(p.x, false);
            }
            if fam == FAM_MUL_HI24 {
                return int_r(p.y, false);
            }
            return int_r(p.x + c, false);
        }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_ADD3 (alu_int32's case).
fn int32_add3(fam: u32, sub: u32, bits: u32, signed: bool, vec: bool, x0: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let m = int_mask(bits);
    let a = x0 & m;
    let sm = bits - 1u;
    let kin = select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW));
    switch fam {
        case FAM_ADD3: { return int_r((a + b + c) & m, false); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_MAD (alu_int32's case): the low bits of a * b + c, 16-bit types only
// (ir::alu::AluFn::defined).
fn int32_mad(fam: u32, sub: u32, bits: u32, signed: bool, vec: bool, x0: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let m = int_mask(bits);
    return int_r(((x0 & m) * (b & m) + (c & m)) & m, false);
}

// cpu::alu::int::dot: c (as the type reads it) plus the products of the
// elements of a and b, exact in 64 bits. `sub` (ir::alu::DotShape::code):
// the element bits (4, 8 or 16), bit 8 a's elements signed, bit 9 b's.
// Every element fits an i32, so each product is int_mul_i32's.
fn int_dot(sub: u32, signed: bool, a: u32, b: u32, c: u32) -> vec2<u32> {
    let bits = sub & 0xffu;
    let sa = (sub & 0x100u) != 0u;
    let sb = (sub & 0x200u) != 0u;
    var sum = int_wide(c, 32u, signed);
    for (var i = 0u; i < 32u / bits; i = i + 1u) {
        let xa = a >> (i * bits);
        let xb = b >> (i * bits);
        let ea = select(xa & int_mask(bits), int_sext(xa, bits), sa);
        let eb = select(xb & int_mask(bits), int_sext(xb, bits), sb);
        sum = u64_add(sum, int_mul_i32(ea, eb));
    }
    return sum;
}

// FAM_DOT (alu_int32's case): the dot product's low 32 bits.
fn int32_dot(fam: u32, sub: u32, bits: u32, signed: bool, vec: bool, x0: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    return int_r(int_dot(sub, signed, x0, b, c).x, false);
}

// cpu::alu::int::saturate: the VOP3 clamp of an integer add, subtract (with
// carry or borrow in), 16-bit multiply-add or dot product (`sub`: its
// shape): the exact result saturated to the type's range (16 or 32 bits).
fn int_saturate(fam: u32, sub: u32, bits: u32, signed: bool, x0: u32, b0: u32, c0: u32, k: bool) -> u32 {
    let a = int_wide(x0 & int_mask(bits), bits, signed);
    let b = int_wide(b0 & int_mask(bits), bits, signed);
    let kin = vec2<u32>(select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW)), 0u);
    var exact: vec2<u32>;
    if fam == FAM_DOT {
        exact = int_dot(sub, signed, x0, b0, c0);
    } else if fam == FAM_SUB || fam == FAM_SUB_BORROW {
        exact = u64_sub(u64_sub(a, b), kin);
    } else if fam == FAM_MAD {
        // 16-bit factors: the product fits 32 bits signed or unsigned.
        var p: vec2<u32>;
        if signed {
            p = int_wide(u32(i32(a.x) * i32(b.x)), 32u, true);
        } else {
            p = vec2<u32>(a.x * b.x, 0u);
        }
        exact = u64_add(p, int_wide(c0 & int_mask(bits), bits, signed));
    } else {
        exact = u64_add(u64_add(a, b), kin);
    }
    var lo: vec2<u32>;
    var hi: vec2<u32>;
    if signed {
        lo = int_wide(1u << (bits - 1u), bits, true);
        hi = vec2<u32>((1u << (bits - 1u)) - 1u, 0u);
    } else {
        lo = vec2<u32>(0u, 0u);
        hi = vec2<u32>(int_mask(bits), 0u);
    }
    if int_lt64(exact, lo, true) {
        return lo.x & int_mask(bits);
    }
    if int_lt64(hi, exact, true) {
        return hi.x;
    }
    return exact.x & int_mask(bits);
}

// FAM_LSHL_ADD (alu_int32's case).
fn int32_lshl_add(fam: u32, sub: u32, bits: u32, signed: bool, vec: bool, x0: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let m = int_mask(bits);
    let a = x0 & m;
    let sm = bits - 1u;
    let kin = select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW));
    switch fam {
        case FAM_LSHL_ADD: {
            let shifted = (a << (b & sm)) & m;
            let full = shifted + (c & m);
            return int_r(full & m, select(full > m, full < shifted, bits == 32u));
        }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_ADD_LSHL (alu_int32's case).
fn int32_add_lshl(fam: u32, sub: u32, bits: u32, signed: bool, vec: bool, x0: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let m = int_mask(bits);
    let a = x0 & m;
    let sm = bits - 1u;
    let kin = select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW));
    switch fam {
        case FAM_ADD_LSHL: { return int_r((((a + b) & m) << (c & sm)) & m, false); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_LSHL_OR (alu_int32's case).
fn int32_lshl_or(fam: u32, sub: u32, bits: u32, signed: bool, vec: bool, x0: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let m = int_mask(bits);
    let a = x0 & m;
    let sm = bits - 1u;
    let kin = select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW));
    switch fam {
        case FAM_LSHL_OR: { return int_r(((a << (b & sm)) | c) & m, false); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_AND_OR (alu_int32's case).
fn int32_and_or(fam: u32, sub: u32, bits: u32, signed: bool, vec: bool, x0: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let m = int_mask(bits);
    let a = x0 & m;
    let sm = bits - 1u;
    let kin = select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW));
    switch fam {
        case FAM_AND_OR: { return int_r(((a & b) | c) & m, false); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_OR3 (alu_int32's case).
fn int32_or3(fam: u32, sub: u32, bits: u32, signed: bool, vec: bool, x0: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let m = int_mask(bits);
    let a = x0 & m;
    let sm = bits - 1u;
    let kin = select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW));
    switch fam {
        case FAM_OR3: { return int_r((a | b | c) & m, false); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_XOR3 (alu_int32's case).
fn int32_xor3(fam: u32, sub: u32, bits: u32, signed: bool, vec: bool, x0: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let m = int_mask(bits);
    let a = x0 & m;
    let sm = bits - 1u;
    let kin = select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW));
    switch fam {
        case FAM_XOR3: { return int_r((a ^ b ^ c) & m, false); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_XOR_ADD (alu_int32's case).
fn int32_xor_add(fam: u32, sub: u32, bits: u32, signed: bool, vec: bool, x0: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let m = int_mask(bits);
    let a = x0 & m;
    let sm = bits - 1u;
    let kin = select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW));
    switch fam {
        case FAM_XOR_ADD: { return int_r((((a ^ b) & m) + c) & m, false); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_MIN, FAM_MAX, FAM_MIN3, FAM_MAX3, FAM_MED3 (alu_int32's case).
fn int32_min(fam: u32, sub: u32, bits: u32, signed: bool, vec: bool, x0: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let m = int_mask(bits);
    let a = x0 & m;
    let sm = bits - 1u;
    let kin = select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW));
    switch fam {
        case FAM_MIN, FAM_MAX, FAM_MIN3, FAM_MAX3, FAM_MED3, FAM_MIN_MAX, FAM_MAX_MIN: {
            let x = int_wide(a, bits, signed);
            let y = int_wide(b & m, bits, signed);
            let z = int_wide(c & m, bits, signed);
            let xy_lt = int_lt64(x, y, signed);
            let lo = select(y, x, xy_lt);
            let hi = select(x, y, xy_lt);
            switch fam {
                case FAM_MIN: { return int_r(lo.x & m, xy_lt); }
                case FAM_MAX: { return int_r(hi.x & m, int_lt64(y, x, signed)); }
                case FAM_MIN3: { return int_r(select(lo, z, int_lt64(z, lo, signed)).x & m, false); }
                case FAM_MAX3: { return int_r(select(hi, z, int_lt64(hi, z, signed)).x & m, false); }
                case FAM_MIN_MAX: { return int_r(select(lo, z, int_lt64(lo, z, signed)).x & m, false); }
                case FAM_MAX_MIN: { return int_r(select(hi, z, int_lt64(z, hi, signed)).x & m, false); }
                default: {
                    // max(x, y).min(min(x, y).max(z))
                    let t = select(lo, z, int_lt64(lo, z, signed));
                    return int_r(select(hi, t, int_lt64(t, hi, signed)).x & m, false);
                }
            }
        }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_AND (alu_int32's case).
fn int32_and(fam: u32, sub: u32, bits: u32, signed: bool, vec: bool, x0: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let m = int_mask(bits);
    let a = x0 & m;
    let sm = bits - 1u;
    let kin = select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW));
    switch fam {
        case FAM_AND: { let r = a & b & m; return int_r(r, r != 0u); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_OR (alu_int32's case).
fn int32_or(fam: u32, sub: u32, bits: u32, signed: bool, vec: bool, x0: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let m = int_mask(bits);
    let a = x0 & m;
    let sm = bits - 1u;
    let kin = select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW));
    switch fam {
        case FAM_OR: { let r = (a | b) & m; return int_r(r, r != 0u); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_XOR (alu_int32's case).
fn int32_xor(fam: u32, sub: u32, bits: u32, signed: bool, vec: bool, x0: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let m = int_mask(bits);
    let a = x0 & m;
    let sm = bits - 1u;
    let kin = select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW));
    switch fam {
        case FAM_XOR: { let r = (a ^ b) & m; return int_r(r, r != 0u); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_NOT (alu_int32's case).
fn int32_not(fam: u32, sub: u32, bits: u32, signed: bool, vec: bool, x0: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let m = int_mask(bits);
    let a = x0 & m;
    let sm = bits - 1u;
    let kin = select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW));
    switch fam {
        case FAM_NOT: { let r = ~a & m; return int_r(r, r != 0u); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_NAND (alu_int32's case).
fn int32_nand(fam: u32, sub: u32, bits: u32, signed: bool, vec: bool, x0: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let m = int_mask(bits);
    let a = x0 & m;
    let sm = bits - 1u;
    let kin = select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW));
    switch fam {
        case FAM_NAND: { let r = ~(a & b) & m; return int_r(r, r != 0u); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_NOR (alu_int32's case).
fn int32_nor(fam: u32, sub: u32, bits: u32, signed: bool, vec: bool, x0: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let m = int_mask(bits);
    let a = x0 & m;
    let sm = bits - 1u;
    let kin = select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW));
    switch fam {
        case FAM_NOR: { let r = ~(a | b) & m; return int_r(r, r != 0u); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_XNOR (alu_int32's case).
fn int32_xnor(fam: u32, sub: u32, bits: u32, signed: bool, vec: bool, x0: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let m = int_mask(bits);
    let a = x0 & m;
    let sm = bits - 1u;
    let kin = select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW));
    switch fam {
        case FAM_XNOR: { let r = ~(a ^ b) & m; return int_r(r, r != 0u); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_AND_NOT (alu_int32's case).
fn int32_and_not(fam: u32, sub: u32, bits: u32, signed: bool, vec: bool, x0: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let m = int_mask(bits);
    let a = x0 & m;
    let sm = bits - 1u;
    let kin = select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW));
    switch fam {
        case FAM_AND_NOT: { let r = a & ~b & m; return int_r(r, r != 0u); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_OR_NOT (alu_int32's case).
fn int32_or_not(fam: u32, sub: u32, bits: u32, signed: bool, vec: bool, x0: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let m = int_mask(bits);
    let a = x0 & m;
    let sm = bits - 1u;
    let kin = select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW));
    switch fam {
        case FAM_OR_NOT: { let r = (a | ~b) & m; return int_r(r, r != 0u); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_SHL (alu_int32's case).
fn int32_shl(fam: u32, sub: u32, bits: u32, signed: bool, vec: bool, x0: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let m = int_mask(bits);
    let a = x0 & m;
    let sm = bits - 1u;
    let kin = select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW));
    switch fam {
        case FAM_SHL: { let r = (a << (b & sm)) & m; return int_r(r, r != 0u); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_LSHR (alu_int32's case).
fn int32_lshr(fam: u32, sub: u32, bits: u32, signed: bool, vec: bool, x0: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let m = int_mask(bits);
    let a = x0 & m;
    let sm = bits - 1u;
    let kin = select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW));
    switch fam {
        case FAM_LSHR: { let r = a >> (b & sm); return int_r(r, r != 0u); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_ASHR (alu_int32's case).
fn int32_ashr(fam: u32, sub: u32, bits: u32, signed: bool, vec: bool, x0: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let m = int_mask(bits);
    let a = x0 & m;
    let sm = bits - 1u;
    let kin = select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW));
    switch fam {
        case FAM_ASHR: {
            let r = bitcast<u32>(bitcast<i32>(int_sext(a, bits)) >> (b & sm)) & m;
            return int_r(r, r != 0u);
        }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_BFE (alu_int32's case).
fn int32_bfe(fam: u32, sub: u32, bits: u32, signed: bool, vec: bool, x0: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let m = int_mask(bits);
    let a = x0 & m;
    let sm = bits - 1u;
    let kin = select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW));
    switch fam {
        case FAM_BFE: {
            var off = b & 31u;
            var width = c & 31u;
            if !vec {
                off = b & sm;
                width = (b >> 16u) & 0x7fu;
            }
            let field = a >> off;
            var r = 0u;
            if width == 0u {
                r = 0u;
            } else if width >= bits {
                r = field;
            } else {
                let f = field & int_mask(width);
                r = select(f, int_sext(f, width), signed);
            }
            return int_r(r & m, (r & m) != 0u);
        }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_BFI (alu_int32's case).
fn int32_bfi(fam: u32, sub: u32, bits: u32, signed: bool, vec: bool, x0: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let m = int_mask(bits);
    let a = x0 & m;
    let sm = bits - 1u;
    let kin = select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW));
    switch fam {
        case FAM_BFI: { return int_r(((a & b) | (~a & c)) & m, false); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_BFM (alu_int32's case).
fn int32_bfm(fam: u32, sub: u32, bits: u32, signed: bool, vec: bool, x0: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let m = int_mask(bits);
    let a = x0 & m;
    let sm = bits - 1u;
    let kin = select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW));
    switch fam {
        case FAM_BFM: { return int_r((int_mask(a & sm) << (b & sm)) & m, false); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_BREV (alu_int32's case).
fn int32_brev(fam: u32, sub: u32, bits: u32, signed: bool, vec: bool, x0: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let m = int_mask(bits);
    let a = x0 & m;
    let sm = bits - 1u;
    let kin = select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW));
    switch fam {
        case FAM_BREV: { return int_r((reverseBits(a) >> (32u - bits)) & m, false); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_BCNT1 (alu_int32's case).
fn int32_bcnt1(fam: u32, sub: u32, bits: u32, signed: bool, vec: bool, x0: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let m = int_mask(bits);
    let a = x0 & m;
    let sm = bits - 1u;
    let kin = select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW));
    switch fam {
        case FAM_BCNT1: { let r = countOneBits(a) + b; return int_r(r, r != 0u); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_BCNT0 (alu_int32's case).
fn int32_bcnt0(fam: u32, sub: u32, bits: u32, signed: bool, vec: bool, x0: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let m = int_mask(bits);
    let a = x0 & m;
    let sm = bits - 1u;
    let kin = select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW));
    switch fam {
        case FAM_BCNT0: { let r = bits - countOneBits(a); return int_r(r, r != 0u); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_FIND_LSB (alu_int32's case).
fn int32_find_lsb(fam: u32, sub: u32, bits: u32, signed: bool, vec: bool, x0: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let m = int_mask(bits);
    let a = x0 & m;
    let sm = bits - 1u;
    let kin = select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW));
    switch fam {
        case FAM_FIND_LSB: { return int_r(select(countTrailingZeros(a), 0xffffffffu, a == 0u), false); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_FIND_MSB (alu_int32's case).
fn int32_find_msb(fam: u32, sub: u32, bits: u32, signed: bool, vec: bool, x0: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let m = int_mask(bits);
    let a = x0 & m;
    let sm = bits - 1u;
    let kin = select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW));
    switch fam {
        case FAM_FIND_MSB: {
            return int_r(select(countLeadingZeros(a) - (32u - bits), 0xffffffffu, a == 0u), false);
        }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_FIND_MSB_SIGNED (alu_int32's case).
fn int32_find_msb_signed(fam: u32, sub: u32, bits: u32, signed: bool, vec: bool, x0: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let m = int_mask(bits);
    let a = x0 & m;
    let sm = bits - 1u;
    let kin = select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW));
    switch fam {
        case FAM_FIND_MSB_SIGNED: {
            let s = int_sext(a, bits);
            let y = select(s, ~s, (s >> 31u) == 1u) & m;
            return int_r(select(countLeadingZeros(y) - (32u - bits), 0xffffffffu, y == 0u), false);
        }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_ABS (alu_int32's case).
fn int32_abs(fam: u32, sub: u32, bits: u32, signed: bool, vec: bool, x0: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let m = int_mask(bits);
    let a = x0 & m;
    let sm = bits - 1u;
    let kin = select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW));
    switch fam {
        case FAM_ABS: {
            let s = int_sext(a, bits);
            let r = select(s, 0u - s, (s >> 31u) == 1u) & m;
            return int_r(r, r != 0u);
        }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_SEXT8 (alu_int32's case).
fn int32_sext8(fam: u32, sub: u32, bits: u32, signed: bool, vec: bool, x0: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let m = int_mask(bits);
    let a = x0 & m;
    let sm = bits - 1u;
    let kin = select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW));
    switch fam {
        case FAM_SEXT8: { return int_r(int_sext(a & 0xffu, 8u) & m, false); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_SEXT16 (alu_int32's case).
fn int32_sext16(fam: u32, sub: u32, bits: u32, signed: bool, vec: bool, x0: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let m = int_mask(bits);
    let a = x0 & m;
    let sm = bits - 1u;
    let kin = select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW));
    switch fam {
        case FAM_SEXT16: { return int_r(int_sext(a & 0xffffu, 16u) & m, false); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_ALIGN_BIT, FAM_ALIGN_BYTE (alu_int32's case).
fn int32_align_bit(fam: u32, sub: u32, bits: u32, signed: bool, vec: bool, x0: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let m = int_mask(bits);
    let a = x0 & m;
    let sm = bits - 1u;
    let kin = select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW));
    switch fam {
        case FAM_ALIGN_BIT, FAM_ALIGN_BYTE: {
            let s = select(c & 31u, 8u * (c & 3u), fam == FAM_ALIGN_BYTE);
            let lo = b;
            if s == 0u {
                return int_r(lo, false);
            }
            return int_r((lo >> s) | (a << (32u - s)), false);
        }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_PERM (alu_int32's case).
fn int32_perm(fam: u32, sub: u32, bits: u32, signed: bool, vec: bool, x0: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let m = int_mask(bits);
    let a = x0 & m;
    let sm = bits - 1u;
    let kin = select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW));
    switch fam {
        case FAM_PERM: {
            var r = 0u;
            for (var i = 0u; i < 4u; i = i + 1u) {
                let sel = (c >> (8u * i)) & 0xffu;
                var byte = 0u;
                if sel <= 3u {
                    byte = (b >> (8u * sel)) & 0xffu;
                } else if sel <= 7u {
                    byte = (a >> (8u * (sel - 4u))) & 0xffu;
                } else if sel <= 11u {
                    // The sign of byte 1, 3, 5, 7 of {a, b}: bit 16 × (sel − 8) + 15.
                    let bit = 16u * (sel - 8u) + 15u;
                    let word = select(b, a, bit >= 32u);
                    byte = select(0u, 0xffu, ((word >> (bit & 31u)) & 1u) == 1u);
                } else if sel == 12u {
                    byte = 0u;
                } else {
                    byte = 0xffu;
                }
                r = r | (byte << (8u * i));
            }
            return int_r(r, false);
        }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_BIT_TEST (alu_int32's case).
fn int32_bit_test(fam: u32, sub: u32, bits: u32, signed: bool, vec: bool, x0: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let m = int_mask(bits);
    let a = x0 & m;
    let sm = bits - 1u;
    let kin = select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW));
    switch fam {
        case FAM_BIT_TEST: { return int_r(0u, ((a >> (b & sm)) & 1u) == 1u); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_BIT_TEST0 (alu_int32's case).
fn int32_bit_test0(fam: u32, sub: u32, bits: u32, signed: bool, vec: bool, x0: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let m = int_mask(bits);
    let a = x0 & m;
    let sm = bits - 1u;
    let kin = select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW));
    switch fam {
        case FAM_BIT_TEST0: { return int_r(0u, ((a >> (b & sm)) & 1u) == 0u); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_MBCNT_LO, FAM_MBCNT_HI (alu_int32's case).
fn int32_mbcnt_lo(fam: u32, sub: u32, bits: u32, signed: bool, vec: bool, x0: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let m = int_mask(bits);
    let a = x0 & m;
    let sm = bits - 1u;
    let kin = select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW));
    switch fam {
        case FAM_MBCNT_LO, FAM_MBCNT_HI: { return int_r(countOneBits(a) + b, false); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_BIT_SET (alu_int32's case).
fn int32_bit_set(fam: u32, sub: u32, bits: u32, signed: bool, vec: bool, x0: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let m = int_mask(bits);
    let a = x0 & m;
    let sm = bits - 1u;
    let kin = select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW));
    switch fam {
        case FAM_BIT_SET: { return int_r(a | (1u << (b & sm)), false); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_BIT_CLEAR (alu_int32's case).
fn int32_bit_clear(fam: u32, sub: u32, bits: u32, signed: bool, vec: bool, x0: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let m = int_mask(bits);
    let a = x0 & m;
    let sm = bits - 1u;
    let kin = select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW));
    switch fam {
        case FAM_BIT_CLEAR: { return int_r(a & ~(1u << (b & sm)), false); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_CMP (alu_int32's case).
fn int32_cmp(fam: u32, sub: u32, bits: u32, signed: bool, vec: bool, x0: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let m = int_mask(bits);
    let a = x0 & m;
    let sm = bits - 1u;
    let kin = select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW));
    switch fam {
        case FAM_CMP: {
            return int_r(0u, int_cmp(sub, int_wide(a, bits, signed), int_wide(b & m, bits, signed), signed));
        }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_CNDMASK (alu_int32's case).
fn int32_cndmask(fam: u32, sub: u32, bits: u32, signed: bool, vec: bool, x0: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let m = int_mask(bits);
    let a = x0 & m;
    let sm = bits - 1u;
    let kin = select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW));
    switch fam {
        case FAM_CNDMASK: { return int_r(select(a, b & m, k), false); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_SELECT (alu_int32's case).
fn int32_select(fam: u32, sub: u32, bits: u32, signed: bool, vec: bool, x0: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let m = int_mask(bits);
    let a = x0 & m;
    let sm = bits - 1u;
    let kin = select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW));
    switch fam {
        case FAM_SELECT: { return int_r(select(b & m, a, k), false); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_PACK (alu_int32's case).
fn int32_pack(fam: u32, sub: u32, bits: u32, signed: bool, vec: bool, x0: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let m = int_mask(bits);
    let a = x0 & m;
    let sm = bits - 1u;
    let kin = select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW));
    switch fam {
        case FAM_PACK: { return int_r((a & 0xffffu) | ((b & 0xffffu) << 16u), false); }
        // v_cvt_pk_u16_u32 / v_cvt_pk_i16_i32 (cpu::alu::int CvtPkSat).
        case FAM_CVT_PK_SAT: {
            if signed {
                let lo = u32(clamp(bitcast<i32>(a), -32768, 32767)) & 0xffffu;
                let hi = u32(clamp(bitcast<i32>(b), -32768, 32767)) & 0xffffu;
                return int_r(lo | (hi << 16u), false);
            }
            return int_r(min(a, 0xffffu) | (min(b, 0xffffu) << 16u), false);
        }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_WQM, FAM_QUAD_MASK (alu_int32's case).
fn int32_wqm(fam: u32, sub: u32, bits: u32, signed: bool, vec: bool, x0: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let m = int_mask(bits);
    let a = x0 & m;
    let sm = bits - 1u;
    let kin = select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW));
    switch fam {
        case FAM_WQM, FAM_QUAD_MASK: {
            let r = int_quads(vec2<u32>(a, 0u), bits / 4u, fam == FAM_QUAD_MASK).x & select(m, 0xffffffffu, fam == FAM_QUAD_MASK);
            return int_r(r, r != 0u);
        }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_CVT (alu_int32's case).
fn int32_cvt(fam: u32, sub: u32, bits: u32, signed: bool, vec: bool, x0: u32, b: u32, c: u32, k: bool) -> vec3<u32> {
    let m = int_mask(bits);
    let a = x0 & m;
    let sm = bits - 1u;
    let kin = select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW));
    switch fam {
        case FAM_CVT: {
            // Widen by the source type, truncate to the target (sub: bits).
            let w = int_wide(a, bits, signed);
            let to = sub & 0xffu;
            if to == 64u {
                return vec3<u32>(w.x, w.y, 0u);
            }
            return int_r(w.x & int_mask(to), false);
        }
        default: { return vec3<u32>(0u); }
    }
}


fn int_r64(v: vec2<u32>, bit: bool) -> vec3<u32> {
    return vec3<u32>(v.x, v.y, select(0u, 1u, bit));
}

fn int_nz64(v: vec2<u32>) -> bool {
    return v.x != 0u || v.y != 0u;
}

// ---- 64-bit families: int.rs `eval` for B64/U64/I64 (MadWide's `a` and
// `b` are 32-bit, in .x). ----

// FAM_MOV (alu_int64's case).
fn int64_mov(fam: u32, sub: u32, signed: bool, vec: bool, a: vec2<u32>, b: vec2<u32>, c: vec2<u32>, k: bool) -> vec3<u32> {
    let kin = vec2<u32>(select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW)), 0u);
    let sh = b.x & 63u;
    switch fam {
        case FAM_MOV: { return int_r64(a, false); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_ADD, FAM_ADD_CARRY (alu_int64's case).
fn int64_add(fam: u32, sub: u32, signed: bool, vec: bool, a: vec2<u32>, b: vec2<u32>, c: vec2<u32>, k: bool) -> vec3<u32> {
    let kin = vec2<u32>(select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW)), 0u);
    let sh = b.x & 63u;
    switch fam {
        case FAM_ADD, FAM_ADD_CARRY: {
            let s1 = u64_add(a, b);
            let r = u64_add(s1, kin);
            var bit: bool;
            if signed {
                // Overflow: the operands agree in sign and the sum does not.
                bit = (a.y >> 31u) == (b.y >> 31u) && (r.y >> 31u) != (a.y >> 31u);
            } else {
                bit = u64_lt(s1, a) || u64_lt(r, s1);
            }
            return int_r64(r, bit);
        }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_SUB, FAM_SUB_BORROW (alu_int64's case).
fn int64_sub(fam: u32, sub: u32, signed: bool, vec: bool, a: vec2<u32>, b: vec2<u32>, c: vec2<u32>, k: bool) -> vec3<u32> {
    let kin = vec2<u32>(select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW)), 0u);
    let sh = b.x & 63u;
    switch fam {
        case FAM_SUB, FAM_SUB_BORROW: {
            let r = u64_sub(u64_sub(a, b), kin);
            var bit: bool;
            if signed {
                bit = (a.y >> 31u) != (b.y >> 31u) && (r.y >> 31u) != (a.y >> 31u);
            } else {
                bit = u64_lt(a, b) || (kin.x == 1u && u64_eq(a, b));
            }
            return int_r64(r, bit);
        }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_MUL (alu_int64's case).
fn int64_mul(fam: u32, sub: u32, signed: bool, vec: bool, a: vec2<u32>, b: vec2<u32>, c: vec2<u32>, k: bool) -> vec3<u32> {
    let kin = vec2<u32>(select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW)), 0u);
    let sh = b.x & 63u;
    switch fam {
        case FAM_MUL: {
            let p = u64_mul32(a.x, b.x);
            return int_r64(vec2<u32>(p.x, p.y + a.x * b.y + a.y * b.x), false);
        }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_MAD_WIDE (alu_int64's case).
fn int64_mad_wide(fam: u32, sub: u32, signed: bool, vec: bool, a: vec2<u32>, b: vec2<u32>, c: vec2<u32>, k: bool) -> vec3<u32> {
    let kin = vec2<u32>(select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW)), 0u);
    let sh = b.x & 63u;
    switch fam {
        case FAM_MAD_WIDE: {
            var p: vec2<u32>;
            if signed {
                p = int_mul_i32(a.x, b.x);
            } else {
                p = u64_mul32(a.x, b.x);
            }
            let r = u64_add(p, c);
            var bit: bool;
            if signed {
                bit = (p.y >> 31u) == (c.y >> 31u) && (r.y >> 31u) != (p.y >> 31u);
            } else {
                bit = u64_lt(r, p);
            }
            return int_r64(r, bit);
        }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_AND (alu_int64's case).
fn int64_and(fam: u32, sub: u32, signed: bool, vec: bool, a: vec2<u32>, b: vec2<u32>, c: vec2<u32>, k: bool) -> vec3<u32> {
    let kin = vec2<u32>(select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW)), 0u);
    let sh = b.x & 63u;
    switch fam {
        case FAM_AND: { let r = a & b; return int_r64(r, int_nz64(r)); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_OR (alu_int64's case).
fn int64_or(fam: u32, sub: u32, signed: bool, vec: bool, a: vec2<u32>, b: vec2<u32>, c: vec2<u32>, k: bool) -> vec3<u32> {
    let kin = vec2<u32>(select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW)), 0u);
    let sh = b.x & 63u;
    switch fam {
        case FAM_OR: { let r = a | b; return int_r64(r, int_nz64(r)); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_XOR (alu_int64's case).
fn int64_xor(fam: u32, sub: u32, signed: bool, vec: bool, a: vec2<u32>, b: vec2<u32>, c: vec2<u32>, k: bool) -> vec3<u32> {
    let kin = vec2<u32>(select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW)), 0u);
    let sh = b.x & 63u;
    switch fam {
        case FAM_XOR: { let r = a ^ b; return int_r64(r, int_nz64(r)); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_NOT (alu_int64's case).
fn int64_not(fam: u32, sub: u32, signed: bool, vec: bool, a: vec2<u32>, b: vec2<u32>, c: vec2<u32>, k: bool) -> vec3<u32> {
    let kin = vec2<u32>(select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW)), 0u);
    let sh = b.x & 63u;
    switch fam {
        case FAM_NOT: { let r = ~a; return int_r64(r, int_nz64(r)); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_NAND (alu_int64's case).
fn int64_nand(fam: u32, sub: u32, signed: bool, vec: bool, a: vec2<u32>, b: vec2<u32>, c: vec2<u32>, k: bool) -> vec3<u32> {
    let kin = vec2<u32>(select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW)), 0u);
    let sh = b.x & 63u;
    switch fam {
        case FAM_NAND: { let r = ~(a & b); return int_r64(r, int_nz64(r)); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_NOR (alu_int64's case).
fn int64_nor(fam: u32, sub: u32, signed: bool, vec: bool, a: vec2<u32>, b: vec2<u32>, c: vec2<u32>, k: bool) -> vec3<u32> {
    let kin = vec2<u32>(select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW)), 0u);
    let sh = b.x & 63u;
    switch fam {
        case FAM_NOR: { let r = ~(a | b); return int_r64(r, int_nz64(r)); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_XNOR (alu_int64's case).
fn int64_xnor(fam: u32, sub: u32, signed: bool, vec: bool, a: vec2<u32>, b: vec2<u32>, c: vec2<u32>, k: bool) -> vec3<u32> {
    let kin = vec2<u32>(select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW)), 0u);
    let sh = b.x & 63u;
    switch fam {
        case FAM_XNOR: { let r = ~(a ^ b); return int_r64(r, int_nz64(r)); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_AND_NOT (alu_int64's case).
fn int64_and_not(fam: u32, sub: u32, signed: bool, vec: bool, a: vec2<u32>, b: vec2<u32>, c: vec2<u32>, k: bool) -> vec3<u32> {
    let kin = vec2<u32>(select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW)), 0u);
    let sh = b.x & 63u;
    switch fam {
        case FAM_AND_NOT: { let r = a & ~b; return int_r64(r, int_nz64(r)); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_OR_NOT (alu_int64's case).
fn int64_or_not(fam: u32, sub: u32, signed: bool, vec: bool, a: vec2<u32>, b: vec2<u32>, c: vec2<u32>, k: bool) -> vec3<u32> {
    let kin = vec2<u32>(select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW)), 0u);
    let sh = b.x & 63u;
    switch fam {
        case FAM_OR_NOT: { let r = a | ~b; return int_r64(r, int_nz64(r)); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_SHL (alu_int64's case).
fn int64_shl(fam: u32, sub: u32, signed: bool, vec: bool, a: vec2<u32>, b: vec2<u32>, c: vec2<u32>, k: bool) -> vec3<u32> {
    let kin = vec2<u32>(select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW)), 0u);
    let sh = b.x & 63u;
    switch fam {
        case FAM_SHL: { let r = u64_shl(a, sh); return int_r64(r, int_nz64(r)); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_LSHR (alu_int64's case).
fn int64_lshr(fam: u32, sub: u32, signed: bool, vec: bool, a: vec2<u32>, b: vec2<u32>, c: vec2<u32>, k: bool) -> vec3<u32> {
    let kin = vec2<u32>(select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW)), 0u);
    let sh = b.x & 63u;
    switch fam {
        case FAM_LSHR: { let r = u64_shr(a, sh); return int_r64(r, int_nz64(r)); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_ASHR (alu_int64's case).
fn int64_ashr(fam: u32, sub: u32, signed: bool, vec: bool, a: vec2<u32>, b: vec2<u32>, c: vec2<u32>, k: bool) -> vec3<u32> {
    let kin = vec2<u32>(select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW)), 0u);
    let sh = b.x & 63u;
    switch fam {
        case FAM_ASHR: {
            var r = u64_shr(a, sh);
            if (a.y >> 31u) == 1u && sh > 0u {
                r = r | ~u64_shr(vec2<u32>(0xffffffffu), sh);
            }
            return int_r64(r, int_nz64(r));
        }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_BFE (alu_int64's case).
fn int64_bfe(fam: u32, sub: u32, signed: bool, vec: bool, a: vec2<u32>, b: vec2<u32>, c: vec2<u32>, k: bool) -> vec3<u32> {
    let kin = vec2<u32>(select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW)), 0u);
    let sh = b.x & 63u;
    switch fam {
        case FAM_BFE: {
            var off = b.x & 31u;
            var width = c.x & 31u;
            if !vec {
                off = b.x & 63u;
                width = (b.x >> 16u) & 0x7fu;
            }
            let field = u64_shr(a, off);
            var r = vec2<u32>(0u);
            if width == 0u {
                r = vec2<u32>(0u);
            } else if width >= 64u {
                r = field;
            } else {
                let f = field & u64_sub(u64_shl(vec2<u32>(1u, 0u), width), vec2<u32>(1u, 0u));
                r = f;
                if signed && ((u64_shr(f, width - 1u).x & 1u) == 1u) {
                    r = f | ~u64_sub(u64_shl(vec2<u32>(1u, 0u), width), vec2<u32>(1u, 0u));
                }
            }
            return int_r64(r, int_nz64(r));
        }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_BFM (alu_int64's case).
fn int64_bfm(fam: u32, sub: u32, signed: bool, vec: bool, a: vec2<u32>, b: vec2<u32>, c: vec2<u32>, k: bool) -> vec3<u32> {
    let kin = vec2<u32>(select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW)), 0u);
    let sh = b.x & 63u;
    switch fam {
        case FAM_BFM: {
            let ones = u64_sub(u64_shl(vec2<u32>(1u, 0u), a.x & 63u), vec2<u32>(1u, 0u));
            return int_r64(u64_shl(ones, b.x & 63u), false);
        }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_BREV (alu_int64's case).
fn int64_brev(fam: u32, sub: u32, signed: bool, vec: bool, a: vec2<u32>, b: vec2<u32>, c: vec2<u32>, k: bool) -> vec3<u32> {
    let kin = vec2<u32>(select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW)), 0u);
    let sh = b.x & 63u;
    switch fam {
        case FAM_BREV: { return int_r64(vec2<u32>(reverseBits(a.y), reverseBits(a.x)), false); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_BCNT1 (alu_int64's case).
fn int64_bcnt1(fam: u32, sub: u32, signed: bool, vec: bool, a: vec2<u32>, b: vec2<u32>, c: vec2<u32>, k: bool) -> vec3<u32> {
    let kin = vec2<u32>(select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW)), 0u);
    let sh = b.x & 63u;
    switch fam {
        case FAM_BCNT1: { let r = countOneBits(a.x) + countOneBits(a.y) + b.x; return int_r(r, r != 0u); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_BCNT0 (alu_int64's case).
fn int64_bcnt0(fam: u32, sub: u32, signed: bool, vec: bool, a: vec2<u32>, b: vec2<u32>, c: vec2<u32>, k: bool) -> vec3<u32> {
    let kin = vec2<u32>(select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW)), 0u);
    let sh = b.x & 63u;
    switch fam {
        case FAM_BCNT0: { let r = 64u - countOneBits(a.x) - countOneBits(a.y); return int_r(r, r != 0u); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_FIND_LSB (alu_int64's case).
fn int64_find_lsb(fam: u32, sub: u32, signed: bool, vec: bool, a: vec2<u32>, b: vec2<u32>, c: vec2<u32>, k: bool) -> vec3<u32> {
    let kin = vec2<u32>(select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW)), 0u);
    let sh = b.x & 63u;
    switch fam {
        case FAM_FIND_LSB: {
            if a.x != 0u {
                return int_r(countTrailingZeros(a.x), false);
            }
            return int_r(select(32u + countTrailingZeros(a.y), 0xffffffffu, a.y == 0u), false);
        }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_FIND_MSB (alu_int64's case).
fn int64_find_msb(fam: u32, sub: u32, signed: bool, vec: bool, a: vec2<u32>, b: vec2<u32>, c: vec2<u32>, k: bool) -> vec3<u32> {
    let kin = vec2<u32>(select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW)), 0u);
    let sh = b.x & 63u;
    switch fam {
        case FAM_FIND_MSB: {
            return int_r(select(u64_clz(a), 0xffffffffu, !int_nz64(a)), false);
        }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_FIND_MSB_SIGNED (alu_int64's case).
fn int64_find_msb_signed(fam: u32, sub: u32, signed: bool, vec: bool, a: vec2<u32>, b: vec2<u32>, c: vec2<u32>, k: bool) -> vec3<u32> {
    let kin = vec2<u32>(select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW)), 0u);
    let sh = b.x & 63u;
    switch fam {
        case FAM_FIND_MSB_SIGNED: {
            let y = select(a, ~a, (a.y >> 31u) == 1u);
            return int_r(select(u64_clz(y), 0xffffffffu, !int_nz64(y)), false);
        }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_BIT_TEST (alu_int64's case).
fn int64_bit_test(fam: u32, sub: u32, signed: bool, vec: bool, a: vec2<u32>, b: vec2<u32>, c: vec2<u32>, k: bool) -> vec3<u32> {
    let kin = vec2<u32>(select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW)), 0u);
    let sh = b.x & 63u;
    switch fam {
        case FAM_BIT_TEST: { return int_r(0u, (u64_shr(a, sh).x & 1u) == 1u); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_BIT_TEST0 (alu_int64's case).
fn int64_bit_test0(fam: u32, sub: u32, signed: bool, vec: bool, a: vec2<u32>, b: vec2<u32>, c: vec2<u32>, k: bool) -> vec3<u32> {
    let kin = vec2<u32>(select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW)), 0u);
    let sh = b.x & 63u;
    switch fam {
        case FAM_BIT_TEST0: { return int_r(0u, (u64_shr(a, sh).x & 1u) == 0u); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_BIT_SET (alu_int64's case).
fn int64_bit_set(fam: u32, sub: u32, signed: bool, vec: bool, a: vec2<u32>, b: vec2<u32>, c: vec2<u32>, k: bool) -> vec3<u32> {
    let kin = vec2<u32>(select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW)), 0u);
    let sh = b.x & 63u;
    switch fam {
        case FAM_BIT_SET: { return int_r64(a | u64_shl(vec2<u32>(1u, 0u), sh), false); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_BIT_CLEAR (alu_int64's case).
fn int64_bit_clear(fam: u32, sub: u32, signed: bool, vec: bool, a: vec2<u32>, b: vec2<u32>, c: vec2<u32>, k: bool) -> vec3<u32> {
    let kin = vec2<u32>(select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW)), 0u);
    let sh = b.x & 63u;
    switch fam {
        case FAM_BIT_CLEAR: { return int_r64(a & ~u64_shl(vec2<u32>(1u, 0u), sh), false); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_CMP (alu_int64's case).
fn int64_cmp(fam: u32, sub: u32, signed: bool, vec: bool, a: vec2<u32>, b: vec2<u32>, c: vec2<u32>, k: bool) -> vec3<u32> {
    let kin = vec2<u32>(select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW)), 0u);
    let sh = b.x & 63u;
    switch fam {
        case FAM_CMP: { return int_r(0u, int_cmp(sub, a, b, signed)); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_MIN (alu_int64's case).
fn int64_min(fam: u32, sub: u32, signed: bool, vec: bool, a: vec2<u32>, b: vec2<u32>, c: vec2<u32>, k: bool) -> vec3<u32> {
    let kin = vec2<u32>(select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW)), 0u);
    let sh = b.x & 63u;
    switch fam {
        case FAM_MIN: { let lt = int_lt64(a, b, signed); return int_r64(select(b, a, lt), lt); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_MAX (alu_int64's case).
fn int64_max(fam: u32, sub: u32, signed: bool, vec: bool, a: vec2<u32>, b: vec2<u32>, c: vec2<u32>, k: bool) -> vec3<u32> {
    let kin = vec2<u32>(select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW)), 0u);
    let sh = b.x & 63u;
    switch fam {
        case FAM_MAX: { let gt = int_lt64(b, a, signed); return int_r64(select(b, a, gt || u64_eq(a, b)), gt); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_CNDMASK (alu_int64's case).
fn int64_cndmask(fam: u32, sub: u32, signed: bool, vec: bool, a: vec2<u32>, b: vec2<u32>, c: vec2<u32>, k: bool) -> vec3<u32> {
    let kin = vec2<u32>(select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW)), 0u);
    let sh = b.x & 63u;
    switch fam {
        case FAM_CNDMASK: { return int_r64(select(a, b, k), false); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_SELECT (alu_int64's case).
fn int64_select(fam: u32, sub: u32, signed: bool, vec: bool, a: vec2<u32>, b: vec2<u32>, c: vec2<u32>, k: bool) -> vec3<u32> {
    let kin = vec2<u32>(select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW)), 0u);
    let sh = b.x & 63u;
    switch fam {
        case FAM_SELECT: { return int_r64(select(b, a, k), false); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_WQM (alu_int64's case).
fn int64_wqm(fam: u32, sub: u32, signed: bool, vec: bool, a: vec2<u32>, b: vec2<u32>, c: vec2<u32>, k: bool) -> vec3<u32> {
    let kin = vec2<u32>(select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW)), 0u);
    let sh = b.x & 63u;
    switch fam {
        case FAM_WQM: { let r = int_quads(a, 16u, false); return int_r64(r, int_nz64(r)); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_QUAD_MASK (alu_int64's case).
fn int64_quad_mask(fam: u32, sub: u32, signed: bool, vec: bool, a: vec2<u32>, b: vec2<u32>, c: vec2<u32>, k: bool) -> vec3<u32> {
    let kin = vec2<u32>(select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW)), 0u);
    let sh = b.x & 63u;
    switch fam {
        case FAM_QUAD_MASK: { let r = int_quads(a, 16u, true); return int_r64(r, int_nz64(r)); }
        default: { return vec3<u32>(0u); }
    }
}

// FAM_CVT (alu_int64's case).
fn int64_cvt(fam: u32, sub: u32, signed: bool, vec: bool, a: vec2<u32>, b: vec2<u32>, c: vec2<u32>, k: bool) -> vec3<u32> {
    let kin = vec2<u32>(select(0u, 1u, k && (fam == FAM_ADD_CARRY || fam == FAM_SUB_BORROW)), 0u);
    let sh = b.x & 63u;
    switch fam {
        case FAM_CVT: {
            let to = sub & 0xffu;
            if to == 64u {
                return int_r64(a, false);
            }
            return int_r(a.x & int_mask(to), false);
        }
        default: { return vec3<u32>(0u); }
    }
}

