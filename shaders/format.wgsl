// format.wgsl — texel unpack/pack per data and number format, the WGSL mirror of
// src/texture/format.rs. A texel's bytes are held as up to four little-endian
// dwords (vec4<u32>, texel byte 0 in the low byte of .x). The component layout
// of the data format ((lo bit, width) per component) and the number format are
// passed in by the translator as constants, taken from the Rust table — or,
// where the translator knows them, it calls the number format's own
// load_*/store_* function per component (gpu::translate::texel).

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

// The texel with dword i replaced by value.
fn with_word(t: vec4<u32>, i: u32, value: u32) -> vec4<u32> {
    var out = t;
    switch i {
        case 0u: { out.x = value; }
        case 1u: { out.y = value; }
        case 2u: { out.z = value; }
        default: { out.w = value; }
    }
    return out;
}

// The texel with bits [lo, lo + width) replaced by the low `width` bits of
// value, width 0..=32: the field's part in its first dword, and where it
// crosses into the next dword, the rest there (whole masks, not a loop over
// the bits: the driver builds a loop of 32 trips once per component).
fn set_bits(t: vec4<u32>, lo: u32, width: u32, value: u32) -> vec4<u32> {
    let w = lo / 32u;
    let s = lo % 32u;
    var m = 0xffffffffu;
    if width < 32u {
        m = (1u << width) - 1u;
    }
    let v = value & m;
    var out = with_word(t, w, (word_of(t, w) & ~(m << s)) | (v << s));
    if s != 0u && s + width > 32u {
        out = with_word(out, w + 1u, (word_of(out, w + 1u) & ~(m >> (32u - s))) | (v >> (32u - s)));
    }
    return out;
}

// sRGB decode of an 8-bit code (srgb_to_linear(unorm_to_f32(c, 8))), from the
// host's table of the CPU function's results (tables.wgsl). A `const` array
// here cost lavapipe a copy of its 256 entries at every use.
fn srgb8_to_linear_bits(c: u32) -> u32 {
    return srgb_to_linear_table(c & 0xffu, SRGB8_BASE);
}

// One component to its 32-bit register value (load_component): one function
// per number format, each taking (component, width, packed float layout,
// index), so that a translator that knows the number format calls its
// function alone (gpu::translate::texel, whose table of these names a test
// holds to the switches below). Calling load_component with a constant `nf`
// makes the driver inline every arm before it folds the switch: a sample's
// four texel decodes of a 32-bit float image took lavapipe as long to build as
// the rest of the sample.
// UNORM and SNORM components of every width convert by repeat_ratio_bits'
// integer steps (unorm_to_f32 and snorm_to_f32 take them through
// norm_ratio), which lavapipe builds and runs faster than a read of a table
// of every code (the host's once held them up to 10 bits) or the exact long
// division's 24-step loop (docs/gpu.md, "Exactness").
fn load_unorm(c: u32, width: u32, packed_float: bool, index: u32) -> u32 {
    return bitcast<u32>(unorm_to_f32(c, width));
}

fn load_snorm(c: u32, width: u32, packed_float: bool, index: u32) -> u32 {
    return bitcast<u32>(snorm_to_f32(c, width));
}

fn load_uscaled(c: u32, width: u32, packed_float: bool, index: u32) -> u32 {
    return bitcast<u32>(uscaled_to_f32(c, width));
}

fn load_sscaled(c: u32, width: u32, packed_float: bool, index: u32) -> u32 {
    return bitcast<u32>(sscaled_to_f32(c, width));
}

fn load_uint(c: u32, width: u32, packed_float: bool, index: u32) -> u32 {
    return uint_to_u32(c, width);
}

fn load_sint(c: u32, width: u32, packed_float: bool, index: u32) -> u32 {
    return bitcast<u32>(sint_to_i32(c, width));
}

fn load_float(c: u32, width: u32, packed_float: bool, index: u32) -> u32 {
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

fn load_srgb(c: u32, width: u32, packed_float: bool, index: u32) -> u32 {
    if index < 3u && width == 8u {
        return srgb8_to_linear_bits(c);
    }
    return load_unorm(c, width, packed_float, index);
}

fn load_component(c: u32, width: u32, nf: u32, packed_float: bool, index: u32) -> u32 {
    switch nf {
        case 0u: { return load_unorm(c, width, packed_float, index); }
        case 1u: { return load_snorm(c, width, packed_float, index); }
        case 2u: { return load_uscaled(c, width, packed_float, index); }
        case 3u: { return load_sscaled(c, width, packed_float, index); }
        case 4u: { return load_uint(c, width, packed_float, index); }
        case 5u: { return load_sint(c, width, packed_float, index); }
        case 7u: { return load_float(c, width, packed_float, index); }
        case 9u: { return load_srgb(c, width, packed_float, index); }
        default: { return 0u; }
    }
}

// One register value to its component bits (store_component), a function per
// number format as for loads; the translator refuses the number formats that
// cannot be stored before emitting a store.
fn store_unorm(v: u32, width: u32, packed_float: bool) -> u32 {
    return f32_to_unorm(v, width);
}

fn store_snorm(v: u32, width: u32, packed_float: bool) -> u32 {
    return f32_to_snorm(v, width);
}

fn store_int(v: u32, width: u32, packed_float: bool) -> u32 {
    return u32_to_uint(v, width);
}

fn store_float(v: u32, width: u32, packed_float: bool) -> u32 {
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

fn store_component(v: u32, width: u32, nf: u32, packed_float: bool) -> u32 {
    switch nf {
        case 0u: { return store_unorm(v, width, packed_float); }
        case 1u: { return store_snorm(v, width, packed_float); }
        case 4u: { return store_int(v, width, packed_float); }
        case 5u: { return store_int(v, width, packed_float); }
        case 7u: { return store_float(v, width, packed_float); }
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
        out = with_word(out, i, v);
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
