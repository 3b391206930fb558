// tables.wgsl — the host's tables (src/gpu/translate/tables.rs): one read-only
// storage buffer of words the host computes or holds, declared in every
// module and bound to those whose entry point reads it. The translator
// prepends `const NAME_AT: u32` for the first word of each table.
//
// Tables live here rather than in WGSL `const` arrays because lavapipe copies
// a constant array into a local one at every use: a 256-entry sRGB table read
// once per tap and component made one sample take seconds to build, and the
// fixed-point tables of v_exp_f32 & co. tens of seconds for a kernel of them.
@group(0) @binding(TABLES_BINDING) var<storage, read> host_tables: array<u32>;

// srgb_to_linear(unorm_to_f32(c, width)) as f32 bits, for the sRGB table of
// `width` starting at `base` (gpu::translate::degamma::base; c < 2^width: the
// caller extracts c with get_bits).
fn srgb_to_linear_table(c: u32, base: u32) -> u32 {
    return host_tables[DEGAMMA_AT + base + c];
}

// Entry `i` of a table of u64 values (low word first) at word `at`.
fn host_u64(at: u32, i: u32) -> vec2<u32> {
    return vec2<u32>(host_tables[at + 2u * i], host_tables[at + 2u * i + 1u]);
}
