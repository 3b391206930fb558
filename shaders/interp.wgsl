// interp.wgsl — attribute interpolation, the WGSL mirror of src/cpu/interp.rs.

// Set bits of NEWPRIMMASK below the quad's bit (primitive_of_quad).
fn primitive_of_quad(newprimmask: u32, quad: u32) -> u32 {
    var below = 0xffffffffu;
    if quad < 32u {
        below = (1u << quad) - 1u;
    }
    return countOneBits(newprimmask & 0x7fffu & below);
}

// LDS byte address of parameter `index` of `attr` for the lane's primitive
// (param_address): M0[15:0] + 4 × (12 × (attr × numprim + prim) + index).
fn param_address(m0: u32, attr: u32, lane: u32, index: u32) -> u32 {
    let mask = (m0 >> 16u) & 0x7fffu;
    let numprim = countOneBits(mask) + 1u;
    let prim = primitive_of_quad(mask, lane / 4u);
    return (m0 & 0xffffu) + 4u * (12u * (attr * numprim + prim) + index);
}

// a + b × c with the product rounded before the add (interp_mad). The product
// passes through an XOR with a zero the driver cannot see (params.opaque_zero),
// so that no compiler contracts the two into a fused multiply-add.
fn interp_mad(a: f32, b: f32, c: f32) -> f32 {
    let p = bitcast<f32>(bitcast<u32>(b * c) ^ params.opaque_zero);
    return a + p;
}

// VOP3 source modifiers on f32 bits (src_mod): |x| clears the sign bit, −x
// flips it, exactly as the CPU's f32::abs and negation do (NaNs included).
fn src_mod(b: u32, abs: bool, neg: bool) -> u32 {
    var x = b;
    if abs {
        x = x & 0x7fffffffu;
    }
    if neg {
        x = x ^ 0x80000000u;
    }
    return x;
}

// VOP3 output modifier and clamp (out_mod): ×2, ×4 or ×0.5 (exact scalings,
// correctly rounded), then clamp to [0, 1] decided on the bits: NaN and
// anything with the sign bit set (−0 included) give +0, above 1.0 gives 1.0.
fn out_mod(b: u32, omod: u32, clamp: bool) -> u32 {
    var x = b;
    switch omod & 3u {
        case 1u: { x = bitcast<u32>(bitcast<f32>(b) * 2.0); }
        case 2u: { x = bitcast<u32>(bitcast<f32>(b) * 4.0); }
        case 3u: { x = bitcast<u32>(bitcast<f32>(b) * 0.5); }
        default: {}
    }
    if !clamp {
        return x;
    }
    if is_nan_bits(x) || (x >> 31u) == 1u {
        return 0u;
    }
    if x > 0x3f800000u {
        return 0x3f800000u;
    }
    return x;
}

// The f16 half of a parameter dword as f32 (half_of).
fn half_of(dword: u32, high: bool) -> f32 {
    return f16_to_f32(select(dword & 0xffffu, dword >> 16u, high));
}

// ---- gfx11 (src/cpu/interp_gfx11.rs) ----

// LDS byte address of parameter `param` (0 = P0, 1 = P10, 2 = P20) of channel
// `chan` of `attr` for quad `quad`'s primitive (interp_gfx11::param_address):
// M0[15:0] + 4 × (12 × (attr × numprim + prim) + 4 × param + chan).
fn gfx11_param_address(m0: u32, attr: u32, chan: u32, quad: u32, param: u32) -> u32 {
    let mask = (m0 >> 16u) & 0x7fffu;
    let numprim = countOneBits(mask) + 1u;
    let prim = primitive_of_quad(mask, quad);
    return (m0 & 0xffffu) + 4u * (12u * (attr * numprim + prim) + 4u * param + (chan & 3u));
}

// True when any lane of the quad starting at lane `first` is active: LDSDIR
// writes whole quads (interp_gfx11::live_quads).
fn quad_live(exec_lo: u32, exec_hi: u32, first: u32) -> bool {
    var nibble = 0u;
    if first < 32u {
        nibble = (exec_lo >> first) & 0xfu;
    } else {
        nibble = (exec_hi >> (first - 32u)) & 0xfu;
    }
    return nibble != 0u;
}
