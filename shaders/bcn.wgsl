// bcn.wgsl — block-compressed texels, the WGSL mirror of src/texture/bcn.rs
// and of the bcdec_rs decoder it calls (a port of bcdec, after Microsoft's
// "Texture Block Compression in Direct3D 11", BC6H and BC7 references). Each
// decoder yields one texel of a 4×4 block with the decoder's own integer
// arithmetic, bit for bit: 8-bit RGBA (BC1–BC3, BC7), 8-bit channels (BC4,
// BC5), IEEE half floats (BC6H); bcn_*_load then converts exactly as
// texture::bcn::convert does. A block is held as the texel of memory.wgsl
// (block byte 0 in the low byte of .x; BC1/BC4 blocks fill .x and .y).
// The texel index t is 4 * (y % 4) + x % 4. The decoders' tables (weights,
// bit counts, partitions, BC6H's bitstream fields) are the host's
// (tables.wgsl; src/gpu/translate/bcn_tables.rs, partly generated from
// bcdec_rs's by tools/bcn_tables.py), each at its NAME_AT.

fn bcn_texel_index(x: u32, y: u32) -> u32 {
    return 4u * (y % 4u) + x % 4u;
}

// ---- conversions (texture::bcn::convert) ----

// 8-bit RGBA as UNORM8, or with NF_SRGB X, Y, Z through the sRGB table and W
// linear. The sampler also passes NF_SRGB for FORCE_DEGAMMA on a UNORM image:
// srgb_to_linear(unorm_to_f32(c, 8)) is the table entry of c.
fn bcn_rgba8_load(c: vec4<u32>, nf: u32) -> vec4<u32> {
    let w = bitcast<u32>(unorm_to_f32(c.w, 8u));
    if nf == NF_SRGB {
        return vec4<u32>(srgb8_to_linear_bits(c.x), srgb8_to_linear_bits(c.y), srgb8_to_linear_bits(c.z), w);
    }
    return vec4<u32>(bitcast<u32>(unorm_to_f32(c.x, 8u)), bitcast<u32>(unorm_to_f32(c.y, 8u)), bitcast<u32>(unorm_to_f32(c.z, 8u)), w);
}

// One 8-bit channel: SNORM8 (two's complement) or UNORM8; NF_SRGB (only
// FORCE_DEGAMMA on a UNORM image) decodes it through the sRGB table.
fn bcn_channel8(c: u32, nf: u32) -> u32 {
    switch nf {
        case 1u: { return bitcast<u32>(snorm_to_f32(c, 8u)); }
        case 9u: { return srgb8_to_linear_bits(c); }
        default: { return bitcast<u32>(unorm_to_f32(c, 8u)); }
    }
}

// BC4 (n = 1) and BC5 (n = 2) channels: X (and Y); Z 0, W 1.0. (The sRGB decode
// of a missing 0 is 0, so FORCE_DEGAMMA leaves Z alone.)
fn bcn_channels8_load(c: vec2<u32>, n: u32, nf: u32) -> vec4<u32> {
    let y = select(0u, bcn_channel8(c.y, nf), n == 2u);
    return vec4<u32>(bcn_channel8(c.x, nf), y, 0u, 0x3f800000u);
}

// BC6H half floats as FLOAT 16 (exact); W 1.0.
fn bcn_half3_load(h: vec3<u32>) -> vec4<u32> {
    return vec4<u32>(bitcast<u32>(f16_to_f32(h.x)), bitcast<u32>(f16_to_f32(h.y)), bitcast<u32>(f16_to_f32(h.z)), 0x3f800000u);
}

// ---- BC1–BC3 colour and alpha (bcdec color_block, sharp/smooth_alpha_block) ----

// RGB565 to 8 bits: (c * 527 + 23) >> 6 for 5 bits, (c * 259 + 33) >> 6 for 6.
fn bc_expand565(c: u32) -> vec3<u32> {
    let r = (c >> 11u) & 0x1fu;
    let g = (c >> 5u) & 0x3fu;
    let b = c & 0x1fu;
    return vec3<u32>((r * 527u + 23u) >> 6u, (g * 259u + 33u) >> 6u, (b * 527u + 23u) >> 6u);
}

// Texel t of a colour block (8 bytes in d.x, d.y) as RGBA8. c0 > c1 (or BC2/BC3,
// `opaque`): colours 2 and 3 at 1/3 and 2/3; else colour 2 the mean and
// colour 3 transparent black.
fn bc_color_block(d: vec2<u32>, t: u32, opaque: bool) -> vec4<u32> {
    let c0 = d.x & 0xffffu;
    let c1 = d.x >> 16u;
    let idx = (d.y >> (2u * t)) & 3u;
    if idx < 2u {
        return vec4<u32>(bc_expand565(select(c0, c1, idx == 1u)), 255u);
    }
    let r0 = (c0 >> 11u) & 0x1fu;
    let g0 = (c0 >> 5u) & 0x3fu;
    let b0 = c0 & 0x1fu;
    let r1 = (c1 >> 11u) & 0x1fu;
    let g1 = (c1 >> 5u) & 0x3fu;
    let b1 = c1 & 0x1fu;
    if c0 > c1 || opaque {
        if idx == 2u {
            return vec4<u32>(((2u * r0 + r1) * 351u + 61u) >> 7u, ((2u * g0 + g1) * 2763u + 1039u) >> 11u, ((2u * b0 + b1) * 351u + 61u) >> 7u, 255u);
        }
        return vec4<u32>(((r0 + 2u * r1) * 351u + 61u) >> 7u, ((g0 + 2u * g1) * 2763u + 1039u) >> 11u, ((b0 + 2u * b1) * 351u + 61u) >> 7u, 255u);
    }
    if idx == 2u {
        return vec4<u32>(((r0 + r1) * 1053u + 125u) >> 8u, ((g0 + g1) * 4145u + 1019u) >> 11u, ((b0 + b1) * 1053u + 125u) >> 8u, 255u);
    }
    return vec4<u32>(0u);
}

// BC2's explicit alpha: 4 bits per texel from bit 4t, times 17.
fn bc_sharp_alpha(d: vec2<u32>, t: u32) -> u32 {
    return get_bits(vec4<u32>(d, 0u, 0u), 4u * t, 4u) * 17u;
}

// BC3's interpolated alpha: endpoints a0, a1 (bytes 0, 1), 3-bit indices from
// bit 16. a0 > a1: six values ((8 - k) a0 + (k - 1) a1 + 1) / 7; else four
// ((6 - k) a0 + (k - 1) a1 + 1) / 5, then 0 and 255.
fn bc_smooth_alpha(d: vec2<u32>, t: u32) -> u32 {
    let a0 = d.x & 0xffu;
    let a1 = (d.x >> 8u) & 0xffu;
    let k = get_bits(vec4<u32>(d, 0u, 0u), 16u + 3u * t, 3u);
    if k == 0u {
        return a0;
    }
    if k == 1u {
        return a1;
    }
    if a0 > a1 {
        return ((8u - k) * a0 + (k - 1u) * a1 + 1u) / 7u;
    }
    if k == 6u {
        return 0u;
    }
    if k == 7u {
        return 255u;
    }
    return ((6u - k) * a0 + (k - 1u) * a1 + 1u) / 5u;
}

// ---- BC4/BC5 (bcdec bc4_block) ----

// Texel t of a BC4 block as the decoder's byte (two's complement when signed).
// Endpoints (signed: -128 clamps to -127); a0 > a1: six interpolated values
// with 16-bit weights W6 (rounded, >> 16), else four with W4 and the extremes.
fn bc4_value(d: vec2<u32>, t: u32, signed: bool) -> u32 {
    var a0 = i32(d.x & 0xffu);
    var a1 = i32((d.x >> 8u) & 0xffu);
    if signed {
        a0 = max(sign_extend(d.x & 0xffu, 8u), -127);
        a1 = max(sign_extend((d.x >> 8u) & 0xffu, 8u), -127);
    }
    let k = get_bits(vec4<u32>(d, 0u, 0u), 16u + 3u * t, 3u);
    var v: i32;
    if k == 0u {
        v = a0;
    } else if k == 1u {
        v = a1;
    } else if a0 > a1 {
        v = (bitcast<i32>(host_tables[BC4_W6_AT + 7u - k]) * a0 + bitcast<i32>(host_tables[BC4_W6_AT + k - 2u]) * a1 + 32768) >> 16u;
    } else if k == 6u {
        v = select(0, -127, signed);
    } else if k == 7u {
        v = select(255, 127, signed);
    } else {
        v = (bitcast<i32>(host_tables[BC4_W4_AT + 5u - k]) * a0 + bitcast<i32>(host_tables[BC4_W4_AT + k - 2u]) * a1 + 32768) >> 16u;
    }
    return u32(v) & 0xffu;
}


// ---- the bit reader of BC6H and BC7 (bcdec Bitstream) ----

struct BcBits {
    b: vec4<u32>,
    pos: u32,
}

fn bc_read(r: ptr<function, BcBits>, n: u32) -> u32 {
    let v = get_bits((*r).b, (*r).pos, n);
    (*r).pos = (*r).pos + n;
    return v;
}

// The interpolation weight (64ths) of a 2-, 3- or 4-bit index.
fn bc_weight(bits: u32, i: u32) -> u32 {
    switch bits {
        case 2u: { return host_tables[BC_W2_AT + (i & 3u)]; }
        case 3u: { return host_tables[BC_W3_AT + (i & 7u)]; }
        default: { return host_tables[BC_W4_AT + (i & 15u)]; }
    }
}

// Where texel t's index starts, among 16 indices of `bits` bits that start at
// `base`, the fix-up texels (mask `fixup`) having one bit less.
fn bc_index_at(base: u32, bits: u32, fixup: u32, t: u32) -> u32 {
    return base + t * bits - countOneBits(fixup & ((1u << t) - 1u));
}

// ---- BC7 (bcdec bc7) ----


fn bc7_interpolate(a: u32, b: u32, w: u32) -> u32 {
    return (a * (64u - w) + b * w + 32u) >> 6u;
}

// Texel t of a BC7 block as RGBA8. The mode is the number of 0 bits before the
// first 1 (none in the first 8: transparent black).
fn bc7_rgba8(block: vec4<u32>, t: u32) -> vec4<u32> {
    if (block.x & 0xffu) == 0u {
        return vec4<u32>(0u);
    }
    let mode = firstTrailingBit(block.x & 0xffu);
    var r = BcBits(block, mode + 1u);
    var subsets = 1u;
    if mode == 0u || mode == 2u {
        subsets = 3u;
    } else if mode == 1u || mode == 3u || mode == 7u {
        subsets = 2u;
    }
    var part = 0u;
    if subsets > 1u {
        part = bc_read(&r, select(6u, 4u, mode == 0u));
    }
    var rotation = 0u;
    var index_selection = 0u;
    if mode == 4u || mode == 5u {
        rotation = bc_read(&r, 2u);
        if mode == 4u {
            index_selection = bc_read(&r, 1u);
        }
    }
    let endpoints = subsets * 2u;
    let cb = host_tables[BC7_COLOR_BITS_AT + mode];
    let ab = host_tables[BC7_ALPHA_BITS_AT + mode];
    var ep: array<vec4<u32>, 6>;
    for (var c = 0u; c < 3u; c = c + 1u) {
        for (var e = 0u; e < endpoints; e = e + 1u) {
            ep[e][c] = bc_read(&r, cb);
        }
    }
    if ab > 0u {
        for (var e = 0u; e < endpoints; e = e + 1u) {
            ep[e].w = bc_read(&r, ab);
        }
    }
    // P-bits: modes 0, 1, 3, 6, 7 (mode 1: one per subset, shared, RGB only).
    let pbit = (0xcbu >> mode) & 1u;
    if pbit == 1u {
        for (var e = 0u; e < endpoints; e = e + 1u) {
            ep[e] = ep[e] << vec4<u32>(1u);
        }
        if mode == 1u {
            let i = bc_read(&r, 1u);
            let j = bc_read(&r, 1u);
            ep[0] = ep[0] | vec4<u32>(i, i, i, 0u);
            ep[1] = ep[1] | vec4<u32>(i, i, i, 0u);
            ep[2] = ep[2] | vec4<u32>(j, j, j, 0u);
            ep[3] = ep[3] | vec4<u32>(j, j, j, 0u);
        } else {
            for (var e = 0u; e < endpoints; e = e + 1u) {
                ep[e] = ep[e] | vec4<u32>(bc_read(&r, 1u));
            }
        }
    }
    // To 8 bits: MSB to bit 7, the top bits replicated below.
    let jc = cb + pbit;
    let ja = ab + pbit;
    for (var e = 0u; e < endpoints; e = e + 1u) {
        let s = ep[e] << vec4<u32>(8u - jc, 8u - jc, 8u - jc, 8u - ja);
        ep[e] = s | (s >> vec4<u32>(jc, jc, jc, ja));
        if ab == 0u {
            ep[e].w = 0xffu;
        }
    }
    var ib = 2u;
    if mode == 0u || mode == 1u {
        ib = 3u;
    } else if mode == 6u {
        ib = 4u;
    }
    var ib2 = 0u;
    if mode == 4u {
        ib2 = 3u;
    } else if mode == 5u {
        ib2 = 2u;
    }
    var fixup = 1u;
    var subset = 0u;
    if subsets == 2u {
        fixup = host_tables[BC_FIXUP2_AT + part];
        subset = (host_tables[BC_PARTITION2_AT + part] >> (2u * t)) & 3u;
    } else if subsets == 3u {
        fixup = host_tables[BC_FIXUP3_AT + part];
        subset = (host_tables[BC_PARTITION3_AT + part] >> (2u * t)) & 3u;
    }
    let fix = (fixup >> t) & 1u;
    let base = r.pos;
    let idx = get_bits(block, bc_index_at(base, ib, fixup, t), ib - fix);
    let lo = ep[2u * subset];
    let hi = ep[2u * subset + 1u];
    var w = vec4<u32>(bc_weight(ib, idx));
    if ib2 > 0u {
        // Secondary indices follow all primary ones; texel 0's has one bit less.
        let base2 = base + 16u * ib - countOneBits(fixup);
        let idx2 = get_bits(block, bc_index_at(base2, ib2, 1u, t), ib2 - select(0u, 1u, t == 0u));
        let w2 = bc_weight(ib2, idx2);
        if index_selection == 0u {
            w.w = w2;
        } else {
            w = vec4<u32>(w2, w2, w2, w.x);
        }
    }
    var o = vec4<u32>(bc7_interpolate(lo.x, hi.x, w.x), bc7_interpolate(lo.y, hi.y, w.y), bc7_interpolate(lo.z, hi.z, w.z), bc7_interpolate(lo.w, hi.w, w.w));
    // Rotation: swap A with R, G or B.
    switch rotation {
        case 1u: { o = o.wyzx; }
        case 2u: { o = o.xwzy; }
        case 3u: { o = o.xywz; }
        default: {}
    }
    return o;
}

// ---- BC6H (bcdec bc6h_half) ----

fn bc6_extend_sign(v: i32, bits: i32) -> i32 {
    let s = u32(32 - bits);
    return (v << s) >> s;
}

fn bc6_transform_inverse(v: i32, a0: i32, bits: i32, signed: bool) -> i32 {
    let m = (v + a0) & ((1 << u32(bits)) - 1);
    return select(m, bc6_extend_sign(m, bits), signed);
}

fn bc6_unquantize(v: i32, bits: i32, signed: bool) -> i32 {
    if !signed {
        if bits >= 15 {
            return v;
        }
        if v == 0 {
            return 0;
        }
        if v == (1 << u32(bits)) - 1 {
            return 0xffff;
        }
        return ((v << 16u) + 0x8000) >> u32(bits);
    }
    var val = v;
    var negative = false;
    if bits < 16 && val < 0 {
        negative = true;
        val = -val;
    }
    var unq: i32;
    if val == 0 {
        unq = 0;
    } else if val >= (1 << u32(bits - 1)) - 1 {
        unq = 0x7fff;
    } else {
        unq = ((val << 15u) + 0x4000) >> u32(bits - 1);
    }
    return select(unq, -unq, negative);
}

fn bc6_interpolate(a: i32, b: i32, w: i32) -> i32 {
    return (a * (64 - w) + b * w + 32) >> 6u;
}

// The final scale to half-float bits: unsigned · 31/64; signed |v| · 31/32 as
// sign-magnitude.
fn bc6_finish(v: i32, signed: bool) -> u32 {
    if !signed {
        return u32((v * 31) >> 6u) & 0xffffu;
    }
    var m = select((v * 31) >> 5u, -((-v * 31) >> 5u), v < 0);
    var s = 0u;
    if m < 0 {
        s = 0x8000u;
        m = -m;
    }
    return (s | u32(m)) & 0xffffu;
}

// The low n bits of v in reverse order (bcdec read_bits_r; a loop, as MSL's
// default version has no reverse_bits).
fn bc_reverse(v: u32, n: u32) -> u32 {
    var out = 0u;
    for (var i = 0u; i < n; i = i + 1u) {
        out = (out << 1u) | ((v >> i) & 1u);
    }
    return out;
}

// Texel t of a BC6H block as three half floats (bits). Mode: 2 bits, or 5 when
// the first two are 1x; the mode index counts D3D's modes 1–14 from 0; the four
// reserved modes read zero.
fn bc6_half3(block: vec4<u32>, t: u32, signed: bool) -> vec3<u32> {
    var r = BcBits(block, 0u);
    var raw = bc_read(&r, 2u);
    if raw > 1u {
        raw = raw | (bc_read(&r, 3u) << 2u);
    }
    var m = raw;
    if raw > 1u {
        if (raw & 3u) == 2u {
            m = 2u + (raw >> 2u);
        } else if (raw >> 2u) < 4u {
            m = 10u + (raw >> 2u);
        } else {
            return vec3<u32>(0u);
        }
    }
    // Endpoint fields in bitstream order (BC6_FIELDS): e[3 * endpoint + RGB],
    // e[12] the partition.
    var e: array<i32, 13>;
    for (var k = 0u; k < BC6_FIELDS_PER_MODE; k = k + 1u) {
        let f = host_tables[BC6_FIELDS_AT + m * BC6_FIELDS_PER_MODE + k];
        let n = (f >> 8u) & 31u;
        if n == 0u {
            break;
        }
        var v = bc_read(&r, n);
        if ((f >> 13u) & 1u) == 1u {
            v = bc_reverse(v, n);
        }
        let slot = f & 15u;
        e[slot] = e[slot] | i32(v << ((f >> 4u) & 15u));
    }
    let one_region = m >= 10u;
    let endpoints = select(4u, 2u, one_region);
    let wb = bitcast<i32>(host_tables[BC6_BITS_W_AT + m]);
    if signed {
        for (var c = 0u; c < 3u; c = c + 1u) {
            e[c] = bc6_extend_sign(e[c], wb);
        }
    }
    // Modes 10 and 11 (indices 9, 10) store every endpoint whole.
    let deltas = m != 9u && m != 10u;
    if deltas || signed {
        for (var i = 1u; i < endpoints; i = i + 1u) {
            e[3u * i] = bc6_extend_sign(e[3u * i], bitcast<i32>(host_tables[BC6_BITS_R_AT + m]));
            e[3u * i + 1u] = bc6_extend_sign(e[3u * i + 1u], bitcast<i32>(host_tables[BC6_BITS_G_AT + m]));
            e[3u * i + 2u] = bc6_extend_sign(e[3u * i + 2u], bitcast<i32>(host_tables[BC6_BITS_B_AT + m]));
        }
    }
    if deltas {
        for (var i = 3u; i < 3u * endpoints; i = i + 1u) {
            e[i] = bc6_transform_inverse(e[i], e[i % 3u], wb, signed);
        }
    }
    for (var i = 0u; i < 3u * endpoints; i = i + 1u) {
        e[i] = bc6_unquantize(e[i], wb, signed);
    }
    let part = u32(e[12]) & 31u;
    let fixup = select(host_tables[BC_FIXUP2_AT + part], 1u, one_region);
    let subset = select((host_tables[BC_PARTITION2_AT + part] >> (2u * t)) & 3u, 0u, one_region);
    let ib = select(3u, 4u, one_region);
    let fix = (fixup >> t) & 1u;
    let idx = get_bits(block, bc_index_at(r.pos, ib, fixup, t), ib - fix);
    let w = i32(bc_weight(ib, idx));
    let lo = 6u * subset;
    return vec3<u32>(
        bc6_finish(bc6_interpolate(e[lo], e[lo + 3u], w), signed),
        bc6_finish(bc6_interpolate(e[lo + 1u], e[lo + 4u], w), signed),
        bc6_finish(bc6_interpolate(e[lo + 2u], e[lo + 5u], w), signed),
    );
}

// ---- one texel per data format (texture::bcn::load_texel); nf as NumFormat::code ----

fn bc1_texel(b: vec4<u32>, nf: u32, t: u32) -> vec4<u32> {
    return bcn_rgba8_load(bc_color_block(b.xy, t, false), nf);
}

fn bc2_texel(b: vec4<u32>, nf: u32, t: u32) -> vec4<u32> {
    let c = bc_color_block(b.zw, t, true);
    return bcn_rgba8_load(vec4<u32>(c.xyz, bc_sharp_alpha(b.xy, t)), nf);
}

fn bc3_texel(b: vec4<u32>, nf: u32, t: u32) -> vec4<u32> {
    let c = bc_color_block(b.zw, t, true);
    return bcn_rgba8_load(vec4<u32>(c.xyz, bc_smooth_alpha(b.xy, t)), nf);
}

fn bc4_texel(b: vec4<u32>, nf: u32, t: u32) -> vec4<u32> {
    return bcn_channels8_load(vec2<u32>(bc4_value(b.xy, t, nf == NF_SNORM), 0u), 1u, nf);
}

fn bc5_texel(b: vec4<u32>, nf: u32, t: u32) -> vec4<u32> {
    let s = nf == NF_SNORM;
    return bcn_channels8_load(vec2<u32>(bc4_value(b.xy, t, s), bc4_value(b.zw, t, s)), 2u, nf);
}

fn bc6_texel(b: vec4<u32>, nf: u32, t: u32) -> vec4<u32> {
    return bcn_half3_load(bc6_half3(b, t, nf == NF_SNORM));
}

fn bc7_texel(b: vec4<u32>, nf: u32, t: u32) -> vec4<u32> {
    return bcn_rgba8_load(bc7_rgba8(b, t), nf);
}
