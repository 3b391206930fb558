// The sRGB decodes of texels (src/gpu/translate/degamma.rs). Declared in
// every module; the host binds the table of srgb_to_linear(unorm_to_f32(c, w))
// computed by the CPU's own functions, one run of 2^w entries per width at
// the index degamma::base(w), to the modules whose entry point can reach it.
@group(0) @binding(DEGAMMA_BINDING) var<storage, read> degamma_table: array<u32>;

// srgb_to_linear(unorm_to_f32(c, width)) as f32 bits, for the table of `width`
// starting at `base` (c < 2^width: the caller extracts c with get_bits).
fn srgb_to_linear_table(c: u32, base: u32) -> u32 {
    return degamma_table[base + c];
}
