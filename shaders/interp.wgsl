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
