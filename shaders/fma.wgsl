// fma.wgsl — exact fused multiply-add on f32 bits: the WGSL mirror of the
// f32::mul_add in src/cpu/interp_gfx11.rs (vinterp), included only in modules
// with a gfx11 VINTERP instruction (src/gpu/translate_interp_gfx11.rs).
// WGSL's fma() may be computed unfused (lavapipe does: the one-ulp case of
// assets/interp_gfx11.toml), so VINTERP uses this integer-only version. The
// 48-bit product and the addend go into a 96-bit frame (vec3: x low, z high)
// with the larger one's top bit at bit 93; bits of the smaller one that fall
// below bit 0 (only when it is more than 46 binades smaller) are folded into
// bit 0 (round to odd), and the sum is rounded once to nearest even,
// denormals and overflow included. A NaN result is CANONICAL_NAN (convert.wgsl),
// as on the CPU. Needs decompose and is_nan_bits (convert.wgsl).

// x << n for n in 0..96.
fn fma_shl(x: vec3<u32>, n: u32) -> vec3<u32> {
    if n == 0u {
        return x;
    }
    if n >= 64u {
        return vec3<u32>(0u, 0u, x.x << (n - 64u));
    }
    if n >= 32u {
        let m = n - 32u;
        if m == 0u {
            return vec3<u32>(0u, x.x, x.y);
        }
        return vec3<u32>(0u, x.x << m, (x.y << m) | (x.x >> (32u - m)));
    }
    return vec3<u32>(x.x << n, (x.y << n) | (x.x >> (32u - n)), (x.z << n) | (x.y >> (32u - n)));
}

// x >> n for any n: the shifted value in xyz, w = 1 when a set bit was lost.
fn fma_shr(x: vec3<u32>, n: u32) -> vec4<u32> {
    if n >= 96u {
        return vec4<u32>(0u, 0u, 0u, select(0u, 1u, any(x != vec3<u32>(0u))));
    }
    var r = x;
    var lost = false;
    var k = n;
    while k >= 32u {
        lost = lost || r.x != 0u;
        r = vec3<u32>(r.y, r.z, 0u);
        k = k - 32u;
    }
    if k > 0u {
        lost = lost || (r.x << (32u - k)) != 0u;
        r = vec3<u32>((r.x >> k) | (r.y << (32u - k)), (r.y >> k) | (r.z << (32u - k)), r.z >> k);
    }
    return vec4<u32>(r, select(0u, 1u, lost));
}

fn fma_add(a: vec3<u32>, b: vec3<u32>) -> vec3<u32> {
    let x = a.x + b.x;
    let c0 = select(0u, 1u, x < a.x);
    let y1 = a.y + b.y;
    let c1 = select(0u, 1u, y1 < a.y);
    let y = y1 + c0;
    let c2 = select(0u, 1u, y < y1);
    return vec3<u32>(x, y, a.z + b.z + c1 + c2);
}

// a − b for a ≥ b.
fn fma_sub(a: vec3<u32>, b: vec3<u32>) -> vec3<u32> {
    let x = a.x - b.x;
    let w0 = select(0u, 1u, a.x < b.x);
    let y1 = a.y - b.y;
    let w1 = select(0u, 1u, a.y < b.y);
    let y = y1 - w0;
    let w2 = select(0u, 1u, y1 < w0);
    return vec3<u32>(x, y, a.z - b.z - w1 - w2);
}

fn fma_less(a: vec3<u32>, b: vec3<u32>) -> bool {
    if a.z != b.z {
        return a.z < b.z;
    }
    if a.y != b.y {
        return a.y < b.y;
    }
    return a.x < b.x;
}

// Index of the highest set bit (x ≠ 0).
fn fma_msb(x: vec3<u32>) -> u32 {
    if x.z != 0u {
        return 64u + firstLeadingBit(x.z);
    }
    if x.y != 0u {
        return 32u + firstLeadingBit(x.y);
    }
    return firstLeadingBit(x.x);
}

// w × 2^e0 (w ≠ 0; bit 0 may be a round-to-odd bit) rounded to the nearest
// even binary float with `mant` mantissa bits and exponent bias `bias` (f32:
// 23, 127; f16: 10, 15), with `sign`, denormals and overflow to ∞ included.
fn round_to_float(w: vec3<u32>, e0: i32, sign: u32, mant: u32, bias: i32) -> u32 {
    let top = e0 + i32(fma_msb(w));
    let denormal = top + bias < 1;
    // Exponent of the result's last kept bit.
    let lsb_exp = select(top - i32(mant), 1 - bias - i32(mant), denormal);
    let cut = lsb_exp - e0;
    var q = 0u;
    if cut <= 0 {
        q = fma_shl(w, u32(-cut)).x;
    } else {
        // Keep one bit more than q: it is the guard; w = "a lower bit was set".
        let g = fma_shr(w, u32(cut - 1));
        q = (g.x >> 1u) | (g.y << 31u);
        if (g.x & 1u) == 1u && (g.w == 1u || (q & 1u) == 1u) {
            q = q + 1u;
        }
    }
    if denormal {
        // Rounding up to 2^mant gives the smallest normal's bits, as it should.
        return sign | q;
    }
    let biased = top + bias;
    let inf = u32(2 * bias + 1) << mant;
    // q in [2^mant, 2^(mant+1)]: a carry moves into the exponent.
    let bits = (u32(biased - 1) << mant) + q;
    if biased >= 2 * bias + 1 || bits >= inf {
        return sign | inf;
    }
    return sign | bits;
}

// w × 2^e0 rounded to the nearest even f32 with `sign`.
fn fma_round(w: vec3<u32>, e0: i32, sign: u32) -> u32 {
    return round_to_float(w, e0, sign, 23u, 127);
}

// The exact a × b + c before its rounding: `special` results (NaN, ∞, a
// zero, an addend returned as it is) are final f32 bits in `bits`; the
// others are w × 2^e0 with `sign` (w ≠ 0; bit 0 may be a round-to-odd bit),
// for fma_round (f32) or f16_round (alu_f16.wgsl).
struct FmaExact {
    special: bool,
    bits: u32,
    w: vec3<u32>,
    e0: i32,
    sign: u32,
}

fn fma_special(bits: u32) -> FmaExact {
    return FmaExact(true, bits, vec3<u32>(0u), 0, 0u);
}

fn fma_bits(a: u32, b: u32, c: u32) -> u32 {
    let r = fma_exact(a, b, c);
    if r.special {
        return r.bits;
    }
    return fma_round(r.w, r.e0, r.sign);
}

fn fma_exact(a: u32, b: u32, c: u32) -> FmaExact {
    let aa = a & 0x7fffffffu;
    let ab = b & 0x7fffffffu;
    let ac = c & 0x7fffffffu;
    let sp = (a ^ b) & 0x80000000u;
    let sc = c & 0x80000000u;
    if aa > 0x7f800000u || ab > 0x7f800000u || ac > 0x7f800000u {
        return fma_special(CANONICAL_NAN);
    }
    if aa == 0x7f800000u || ab == 0x7f800000u {
        if aa == 0u || ab == 0u || (ac == 0x7f800000u && sc != sp) {
            return fma_special(CANONICAL_NAN);
        }
        return fma_special(sp | 0x7f800000u);
    }
    if ac == 0x7f800000u {
        return fma_special(c);
    }
    if aa == 0u || ab == 0u {
        // ±0 + c; +0 + −0 is +0.
        if ac == 0u {
            return fma_special(sp & sc);
        }
        return fma_special(c);
    }
    // The exact product, 48 bits, from 16-bit pieces.
    let pa = decompose(aa);
    let pb = decompose(ab);
    let al = u32(pa.x) & 0xffffu;
    let ah = u32(pa.x) >> 16u;
    let bl = u32(pb.x) & 0xffffu;
    let bh = u32(pb.x) >> 16u;
    let mid = ah * bl + al * bh;
    let low = al * bl;
    let lo = low + (mid << 16u);
    let hi = ah * bh + (mid >> 16u) + select(0u, 1u, lo < low);
    let p = vec3<u32>(lo, hi, 0u);
    let ep = pa.y + pb.y;
    if ac == 0u {
        // A nonzero exact product plus zero: the product, rounded once.
        return FmaExact(false, 0u, p, ep, sp);
    }
    let pc = decompose(ac);
    let cv = vec3<u32>(u32(pc.x), 0u, 0u);
    let top_p = ep + i32(fma_msb(p));
    let top_c = pc.y + i32(fma_msb(cv));
    let c_big = top_c > top_p;
    let big = select(p, cv, c_big);
    let big_lsb = select(ep, pc.y, c_big);
    let big_sign = select(sp, sc, c_big);
    let small = select(cv, p, c_big);
    let small_lsb = select(pc.y, ep, c_big);
    let small_sign = select(sc, sp, c_big);
    // Frame bit 0 has exponent e0; the larger term's top bit sits at bit 93.
    let e0 = max(top_p, top_c) - 93;
    let wb = fma_shl(big, u32(big_lsb - e0));
    let shift = small_lsb - e0;
    var ws = vec3<u32>(0u);
    var jam = false;
    if shift >= 0 {
        ws = fma_shl(small, u32(shift));
    } else {
        let r = fma_shr(small, u32(-shift));
        ws = r.xyz;
        jam = r.w == 1u;
    }
    var w: vec3<u32>;
    var sign = big_sign;
    if big_sign == small_sign {
        // The exact sum lies in (w, w + 1) when jammed: round to odd.
        w = fma_add(wb, ws);
        if jam {
            w.x = w.x | 1u;
        }
    } else {
        if fma_less(wb, ws) {
            w = fma_sub(ws, wb);
            sign = small_sign;
        } else {
            w = fma_sub(wb, ws);
        }
        if jam {
            // The exact difference lies in (w − 1, w): the odd one of the two.
            w = fma_sub(w, vec3<u32>(1u, 0u, 0u));
            w.x = w.x | 1u;
        }
    }
    if all(w == vec3<u32>(0u)) {
        // Exact cancellation gives +0 under round to nearest even.
        return fma_special(0u);
    }
    return FmaExact(false, 0u, w, e0, sign);
}
