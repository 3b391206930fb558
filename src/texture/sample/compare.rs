//! Stage 6: depth compare (`_c` instructions, percentage-closer filtering).
//!
//! The compare is applied to each fetched texel's X before filtering, and the
//! 0/1 results are filtered (VK-CTS `sampleLinear2DCompare`; research/sampling.md
//! §5.6). `LESS` passes when the reference (the shader's value) is less than
//! the texel (CLRX memory page; the numbering is VkCompareOp's).

/// `SQ_TEX_DEPTH_COMPARE` codes.
pub mod func {
    /// Never passes.
    pub const NEVER: u8 = 0;
    /// `reference < texel`.
    pub const LESS: u8 = 1;
    /// `reference == texel`.
    pub const EQUAL: u8 = 2;
    /// `reference <= texel`.
    pub const LESS_EQUAL: u8 = 3;
    /// `reference > texel`.
    pub const GREATER: u8 = 4;
    /// `reference != texel`.
    pub const NOT_EQUAL: u8 = 5;
    /// `reference >= texel`.
    pub const GREATER_EQUAL: u8 = 6;
    /// Always passes.
    pub const ALWAYS: u8 = 7;
}

/// 1.0 when `reference OP texel` holds, else 0.0; IEEE comparisons, so a NaN
/// passes only NOT_EQUAL and ALWAYS.
///
/// WGSL twin: `depth_compare` in `shaders/sample.wgsl` (docs/gpu.md, "Twins").
pub fn depth_compare(f: u8, reference: f32, texel: f32) -> f32 {
    let pass = match f & 7 {
        func::LESS => reference < texel,
        func::EQUAL => reference == texel,
        func::LESS_EQUAL => reference <= texel,
        func::GREATER => reference > texel,
        func::NOT_EQUAL => reference != texel,
        func::GREATER_EQUAL => reference >= texel,
        func::ALWAYS => true,
        _ => false,
    };
    if pass {
        1.0
    } else {
        0.0
    }
}

/// The reference as compared: clamped to [0, 1] for fixed-point (UNORM) depth
/// texels, whose values cannot leave that range, unchanged for float depth
/// (VK-CTS `execCompare`; Mesa's `clamp_shadow_reference` for radeonsi;
/// sampling.md §5.6 recommendation).
///
/// WGSL twin: `reference_for` in `shaders/sample.wgsl` (docs/gpu.md, "Twins").
pub fn reference_for(reference: f32, fixed_point: bool) -> f32 {
    if fixed_point {
        reference.clamp(0.0, 1.0)
    } else {
        reference
    }
}

#[cfg(test)]
mod tests {
    use super::func::*;
    use super::*;

    #[test]
    fn all_eight_functions() {
        // (reference, texel) = (0.5, 0.25), (0.5, 0.5), (0.5, 0.75).
        let cases = [(0.5, 0.25), (0.5, 0.5), (0.5, 0.75)];
        let want: [(u8, [f32; 3]); 8] = [
            (NEVER, [0.0, 0.0, 0.0]),
            (LESS, [0.0, 0.0, 1.0]),
            (EQUAL, [0.0, 1.0, 0.0]),
            (LESS_EQUAL, [0.0, 1.0, 1.0]),
            (GREATER, [1.0, 0.0, 0.0]),
            (NOT_EQUAL, [1.0, 0.0, 1.0]),
            (GREATER_EQUAL, [1.0, 1.0, 0.0]),
            (ALWAYS, [1.0, 1.0, 1.0]),
        ];
        for (f, results) in want {
            for ((r, t), w) in cases.iter().zip(results) {
                assert_eq!(depth_compare(f, *r, *t), w, "func {f} ref {r} texel {t}");
            }
        }
        assert_eq!(depth_compare(NOT_EQUAL, f32::NAN, 0.5), 1.0);
        assert_eq!(depth_compare(LESS_EQUAL, f32::NAN, 0.5), 0.0);
    }

    #[test]
    fn unorm_references_clamp() {
        assert_eq!(reference_for(1.5, true), 1.0);
        assert_eq!(reference_for(-0.5, true), 0.0);
        assert_eq!(reference_for(1.5, false), 1.5);
    }
}
