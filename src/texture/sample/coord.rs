//! Stage 1: coordinates. A shader coordinate becomes a fixed-point texel
//! coordinate of the level being sampled, and texel offsets are unpacked.
//!
//! Precision (research/sampling.md §5.1): the texel-space coordinate carries
//! [`SUBTEXEL_BITS`] = 8 fractional bits — D3D11's
//! `D3D11_SUBTEXEL_FRACTIONAL_BIT_COUNT`, RADV's `subTexelPrecisionBits = 8` and
//! CLRX's measured "1/256 of the distance between pixels". Whether the hardware
//! truncates or rounds to that grid is not public; gcnrun truncates toward −∞
//! (sampling.md §7 open question 1).

/// Fractional bits of a fixed-point texel coordinate.
pub const SUBTEXEL_BITS: u32 = 8;
/// One texel in fixed point (256).
pub const ONE: i32 = 1 << SUBTEXEL_BITS;
/// Half a texel in fixed point (128): the shift between a texel's corner and
/// its centre.
pub const HALF: i32 = ONE / 2;
/// The fixed-point coordinate is clamped to ±`COORD_LIMIT` (±2^22 texels, far
/// beyond the 16384-texel maximum image), so that offsets, the half-texel shift
/// and wrapping never overflow an i32. Coordinates that far out only matter for
/// the repeating modes, where f32 has no fractional bits left anyway; the
/// hardware's own coordinate range is not public.
pub const COORD_LIMIT: i32 = 1 << 30;

/// Flushes an f32 denormal to a zero of the same sign: "sample operations flush
/// denormals to zero, load operations do not modify them" (RDNA3 ISA §10.4.2,
/// sampling.md §3.3). Applied to every sampler input (coordinates, LOD, bias,
/// derivatives, compare reference) and to every filtered texel and result.
///
/// WGSL twin: `flush_denorm` in `shaders/sample.wgsl` (docs/gpu.md, "Twins").
#[inline]
pub fn flush_denorm(x: f32) -> f32 {
    // A zero exponent field: a denormal, or a zero, whose flush is itself.
    // (One test of the bits, where `is_subnormal` classifies the value.)
    if x.to_bits() & 0x7f80_0000 == 0 {
        f32::from_bits(x.to_bits() & 0x8000_0000)
    } else {
        x
    }
}

/// Texel-space coordinate of one axis in fixed point: `floor(s × size × 256)`
/// for normalized coordinates (`size` = the level's texel count on this axis),
/// `floor(s × 256)` for unnormalized ones. Order: `s × size` rounded to f32
/// (round to nearest even), then × 256 (exact: a power of two), then floor,
/// clamped to ±[`COORD_LIMIT`]; NaN reads as 0.
///
/// WGSL twin: `texel_fixed` in `shaders/sample.wgsl` (docs/gpu.md, "Twins").
pub fn texel_fixed(s: f32, size: u32, normalized: bool) -> i32 {
    let s = flush_denorm(s);
    let u = if normalized { s * size as f32 } else { s };
    let x = u * ONE as f32;
    if x.is_nan() {
        return 0;
    }
    // The clamp keeps headroom for offsets and wrapping. Clamping before the
    // floor gives the same as after, the bounds being integers; the floor is
    // then a truncation, one lower for a negative fraction — exact for every
    // f32 (past 2^24 an f32 is an integer, and `t` converts back exactly),
    // and no call of libm's `floorf`, which the baseline x86-64 target has
    // no instruction for (`floor_by_truncation_is_floor`).
    let limit = COORD_LIMIT as f32;
    let x = x.clamp(-limit, limit);
    let t = x as i32;
    if t as f32 > x {
        t - 1
    } else {
        t
    }
}

/// One axis's texel offset from the packed `_o` dword: 6-bit two's complement
/// fields at bits \[5:0\] (x), \[13:8\] (y), \[21:16\] (z), −32..=31; other bits are
/// ignored (RDNA3 ISA §10.4, CLRX memory page, ACO's packing; sampling.md §5.9).
///
/// WGSL twin: `texel_offset` in `shaders/sample.wgsl` (docs/gpu.md, "Twins").
pub fn texel_offset(packed: u32, axis: usize) -> i32 {
    let field = (packed >> (8 * axis as u32)) & 0x3f;
    ((field << 26) as i32) >> 26
}

/// The array slice a float slice coordinate selects: round to nearest, ties to
/// even (drivers round with `v_rndne` before the instruction; sampling.md §4.1),
/// then clamp to `0..=last` (`last` = the view's slice count − 1). NaN reads 0.
///
/// WGSL twin: `array_slice` in `shaders/sample.wgsl` (docs/gpu.md, "Twins").
pub fn array_slice(r: f32, last: u32) -> u32 {
    let r = flush_denorm(r).round_ties_even();
    if r.is_nan() || r <= 0.0 {
        0
    } else if r >= last as f32 {
        last
    } else {
        r as u32
    }
}

/// The signed 4-bit `aoffimmi` field at bit `shift` (U 11:8, V 7:4, R 3:0;
/// IGC `3D_SAMPLE.md`).
///
/// WGSL twin: `intel_offset_field` in `shaders/visa.wgsl` (docs/gpu.md, "Twins").
pub fn intel_offset_field(aoffimmi: u32, shift: u32) -> i32 {
    ((((aoffimmi >> shift) & 0xf) << 28) as i32) >> 28
}

/// AMD's `_o` dword: U, V, R offsets in the 6-bit fields at bits 5:0, 13:8,
/// 21:16 (`texture::sample::coord::texel_offset` reads them back). An offset
/// outside [−32, 31] keeps its low 6 bits (docs/semantics/intel.md).
///
/// WGSL twin: `amd_offset_dword` in `shaders/visa.wgsl` (docs/gpu.md, "Twins").
pub fn amd_offset_dword(u: i32, v: i32, r: i32) -> u32 {
    (u as u32 & 0x3f) | (v as u32 & 0x3f) << 8 | (r as u32 & 0x3f) << 16
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `texel_fixed` floors by truncation after its clamp; the definition is
    /// floor, then the clamp, then NaN as 0. The two agree on every 251st f32
    /// bit pattern (every exponent, both signs, NaNs and infinities), on the
    /// integers and half-integers around ±2^24 and the limit, and on their
    /// neighbours, unnormalized (the product with a size is the same
    /// function of a different f32).
    #[test]
    fn floor_by_truncation_is_floor() {
        let by_definition = |s: f32| {
            let scaled = (flush_denorm(s) * ONE as f32).floor();
            if scaled.is_nan() {
                0
            } else {
                (scaled as i64).clamp(-i64::from(COORD_LIMIT), i64::from(COORD_LIMIT)) as i32
            }
        };
        let mut checked = 0u64;
        let mut check = |s: f32| {
            assert_eq!(
                texel_fixed(s, 1, false),
                by_definition(s),
                "{s:e} ({:#x})",
                s.to_bits()
            );
            checked += 1;
        };
        for bits in (0..=u32::MAX).step_by(251) {
            check(f32::from_bits(bits));
        }
        for edge in [0.0f32, 1.0, 65536.0, 4_194_304.0, 16_777_216.0] {
            for sign in [1.0f32, -1.0] {
                let e = edge * sign;
                for k in -8i32..=8 {
                    let v = e + k as f32 / 512.0;
                    for b in [v.to_bits().wrapping_sub(1), v.to_bits(), v.to_bits() + 1] {
                        check(f32::from_bits(b));
                    }
                }
            }
        }
        assert!(checked > 17_000_000);
    }

    #[test]
    fn normalized_coordinates_scale_by_the_level_size() {
        // 0.5 of 8 texels = texel 4.0 = 1024/256.
        assert_eq!(texel_fixed(0.5, 8, true), 1024);
        // (2 + 0.5) / 8 = 0.3125 → 2.5 texels = 640.
        assert_eq!(texel_fixed(0.3125, 8, true), 640);
        // Unnormalized: the value itself.
        assert_eq!(texel_fixed(2.75, 8, false), 704);
        // Truncation toward −∞ on the 1/256 grid: −0.001 texel → −1/256.
        assert_eq!(texel_fixed(-0.001, 1, false), -1);
        // 1/1024 of a texel is below the grid: 0.
        assert_eq!(texel_fixed(1.0 / 1024.0, 1, false), 0);
        assert_eq!(texel_fixed(f32::NAN, 4, true), 0);
        assert_eq!(texel_fixed(f32::INFINITY, 4, true), COORD_LIMIT);
        assert_eq!(texel_fixed(-1e30, 4, true), -COORD_LIMIT);
        // A denormal coordinate is flushed: exactly 0.
        assert_eq!(texel_fixed(-1e-40, 4, true), 0);
    }

    #[test]
    fn offsets_are_6_bit_signed() {
        // x = 0x3f (−1), y = 0x20 (−32), z = 0x1f (31); bits 6–7 ignored.
        let packed = 0x3f | 0xc0 | (0x20 << 8) | (0x1f << 16);
        assert_eq!(texel_offset(packed, 0), -1);
        assert_eq!(texel_offset(packed, 1), -32);
        assert_eq!(texel_offset(packed, 2), 31);
    }

    #[test]
    fn slices_round_to_even_and_clamp() {
        assert_eq!(array_slice(1.5, 5), 2);
        assert_eq!(array_slice(2.5, 5), 2);
        assert_eq!(array_slice(2.51, 5), 3);
        assert_eq!(array_slice(-3.0, 5), 0);
        assert_eq!(array_slice(9.0, 5), 5);
        assert_eq!(array_slice(f32::NAN, 5), 0);
    }

    #[test]
    fn denormals_flush_keeping_the_sign() {
        assert_eq!(flush_denorm(-1e-40).to_bits(), 0x8000_0000);
        assert_eq!(flush_denorm(1e-40).to_bits(), 0);
        assert_eq!(flush_denorm(1.5), 1.5);
        // The exponent test is the rule as stated, bit for bit: every 127th
        // pattern, and every pattern near the edges of the denormals.
        let edges = [0u32, 0x007f_ffff, 0x0080_0000, 0x7f80_0000]
            .into_iter()
            .flat_map(|e| [e, e | 0x8000_0000])
            .flat_map(|e| e.saturating_sub(300)..e.saturating_add(300));
        for bits in (0..=u32::MAX).step_by(127).chain(edges) {
            let x = f32::from_bits(bits);
            let by_rule = if x.is_subnormal() {
                (-0.0f32).copysign(x)
            } else {
                x
            };
            assert_eq!(flush_denorm(x).to_bits(), by_rule.to_bits(), "{bits:#x}");
        }
    }
}
