// format.wgsl — texel unpack/pack per data and number format, the WGSL mirror of
// src/texture/format.rs. A texel's bytes are held as up to four little-endian
// dwords (vec4<u32>, texel byte 0 in the low byte of .x). The component layout
// of the data format ((lo bit, width) per component) and the number format are
// passed in by the translator as constants, taken from the Rust table, so the
// driver folds every branch that does not apply.

// Number format codes (NumFormat::code).
const NF_UNORM: u32 = 0u;
const NF_SNORM: u32 = 1u;
const NF_USCALED: u32 = 2u;
const NF_SSCALED: u32 = 3u;
const NF_UINT: u32 = 4u;
const NF_SINT: u32 = 5u;
const NF_FLOAT: u32 = 7u;
const NF_SRGB: u32 = 9u;

fn nf_is_integer(nf: u32) -> bool {
    return nf == NF_UINT || nf == NF_SINT;
}

// The value of a component the format does not have: 1 (or 1.0) for alpha, else 0.
fn missing_component(index: u32, nf: u32) -> u32 {
    if index == 3u {
        return select(0x3f800000u, 1u, nf_is_integer(nf));
    }
    return 0u;
}

fn word_of(t: vec4<u32>, i: u32) -> u32 {
    switch i {
        case 0u: { return t.x; }
        case 1u: { return t.y; }
        case 2u: { return t.z; }
        case 3u: { return t.w; }
        default: { return 0u; }
    }
}

// Bits [lo, lo + width) of the texel, width 1..=32.
fn get_bits(t: vec4<u32>, lo: u32, width: u32) -> u32 {
    let w = lo / 32u;
    let s = lo % 32u;
    var v = word_of(t, w) >> s;
    if s != 0u && s + width > 32u {
        v = v | (word_of(t, w + 1u) << (32u - s));
    }
    if width >= 32u {
        return v;
    }
    return v & ((1u << width) - 1u);
}

// The texel with bits [lo, lo + width) replaced by value.
fn set_bits(t: vec4<u32>, lo: u32, width: u32, value: u32) -> vec4<u32> {
    var out = t;
    for (var b = 0u; b < width; b = b + 1u) {
        let pos = lo + b;
        let bit = (value >> b) & 1u;
        let mask = 1u << (pos % 32u);
        let w = pos / 32u;
        let cur = word_of(out, w);
        let next = select(cur & ~mask, cur | mask, bit == 1u);
        switch w {
            case 0u: { out.x = next; }
            case 1u: { out.y = next; }
            case 2u: { out.z = next; }
            default: { out.w = next; }
        }
    }
    return out;
}

// sRGB decode of an 8-bit code (srgb_to_linear(unorm_to_f32(c, 8))), from the
// host's table of the CPU function's results (tables.wgsl). A `const` array
// here cost lavapipe a copy of its 256 entries at every use.
fn srgb8_to_linear_bits(c: u32) -> u32 {
    return srgb_to_linear_table(c & 0xffu, SRGB8_BASE);
}

// One component to its 32-bit register value (load_component).
fn load_component(c: u32, width: u32, nf: u32, packed_float: bool, index: u32) -> u32 {
    switch nf {
        case 0u: { return bitcast<u32>(unorm_to_f32(c, width)); }
        case 1u: { return bitcast<u32>(snorm_to_f32(c, width)); }
        case 2u: { return bitcast<u32>(uscaled_to_f32(c, width)); }
        case 3u: { return bitcast<u32>(sscaled_to_f32(c, width)); }
        case 4u: { return uint_to_u32(c, width); }
        case 5u: { return bitcast<u32>(sint_to_i32(c, width)); }
        case 7u: {
            if width == 32u {
                return c;
            }
            if width == 16u {
                return bitcast<u32>(f16_to_f32(c));
            }
            if packed_float && width == 11u {
                return bitcast<u32>(uf11_to_f32(c));
            }
            if packed_float && width == 10u {
                return bitcast<u32>(uf10_to_f32(c));
            }
            return 0u;
        }
        case 9u: {
            if index < 3u && width == 8u {
                return srgb8_to_linear_bits(c);
            }
            return bitcast<u32>(unorm_to_f32(c, width));
        }
        default: { return 0u; }
    }
}

// One register value to its component bits (store_component); the translator
// refuses the number formats that cannot be stored before emitting a store.
fn store_component(v: u32, width: u32, nf: u32, packed_float: bool) -> u32 {
    switch nf {
        case 0u: { return f32_to_unorm(v, width); }
        case 1u: { return f32_to_snorm(v, width); }
        case 4u, 5u: { return u32_to_uint(v, width); }
        case 7u: {
            if width == 32u {
                return v;
            }
            if width == 16u {
                return f32_to_f16(v);
            }
            if packed_float && width == 11u {
                return f32_to_uf11(v);
            }
            if packed_float && width == 10u {
                return f32_to_uf10(v);
            }
            return 0u;
        }
        default: { return 0u; }
    }
}

// Unpacks a texel (load_texel): `count` components at (lo[i], width[i]).
fn load_texel(t: vec4<u32>, nf: u32, packed_float: bool, count: u32, lo: vec4<u32>, width: vec4<u32>) -> vec4<u32> {
    var out = vec4<u32>(0u);
    for (var i = 0u; i < 4u; i = i + 1u) {
        var v = missing_component(i, nf);
        if i < count {
            let w = word_of(width, i);
            v = load_component(get_bits(t, word_of(lo, i), w), w, nf, packed_float, i);
        }
        switch i {
            case 0u: { out.x = v; }
            case 1u: { out.y = v; }
            case 2u: { out.z = v; }
            default: { out.w = v; }
        }
    }
    return out;
}

// Packs four register values into a texel (store_texel).
fn store_texel(rgba: vec4<u32>, nf: u32, packed_float: bool, count: u32, lo: vec4<u32>, width: vec4<u32>) -> vec4<u32> {
    var t = vec4<u32>(0u);
    for (var i = 0u; i < count; i = i + 1u) {
        let w = word_of(width, i);
        t = set_bits(t, word_of(lo, i), w, store_component(word_of(rgba, i), w, nf, packed_float));
    }
    return t;
}
