//! Stage 2: level of detail — from derivatives, bias, clamps, the mag/min
//! choice and the mip levels it selects (research/sampling.md §5.3–§5.5).
//!
//! Every LOD is an i32 in fixed point with [`LOD_FRAC_BITS`] = 8 fractional bits
//! (1/256 of a level): the S#'s MIN_LOD/MAX_LOD (unsigned 4.8) and LOD_BIAS
//! (signed 5.8) are already in that unit, RADV reports `mipmapPrecisionBits = 8`,
//! and D3D12's `MIP_LOD_FRACTIONAL_BIT_COUNT` is 8 (sampling.md §5.4). Values are
//! clamped to ±[`LOD_LIMIT`] (±128 levels), enough for any f32 derivative.
//!
//! The log2 of the derivative length is computed without a transcendental
//! function: `round(256 × log2(ρ)) = round(128 × log2(ρ²))` is the f32 exponent
//! of ρ² times 128 plus the number of [`LOG2_THRESHOLDS`] its mantissa reaches —
//! a table lookup a WGSL mirror reproduces bit for bit. The hardware's own log2
//! approximation is not public (sampling.md §7 question 3).

use super::coord::flush_denorm;

/// Fractional bits of a fixed-point LOD.
pub const LOD_FRAC_BITS: u32 = 8;
/// One level in fixed point (256).
pub const LOD_ONE: i32 = 1 << LOD_FRAC_BITS;
/// LODs are clamped to ±128 levels (f32 derivatives give at most ±64).
pub const LOD_LIMIT: i32 = 128 * LOD_ONE;

/// `LOG2_THRESHOLDS[j − 1]` is the 23-bit mantissa of the smallest f32 in
/// [1, 2) that is ≥ 2^((j − 0.5) / 128), j = 1..=128: a mantissa M has
/// `round(128 × log2(M))` equal to the number of thresholds it reaches (ties
/// round up). Computed with 60-digit decimal arithmetic; the unit test
/// re-checks each entry in f64.
#[rustfmt::skip]
pub const LOG2_THRESHOLDS: [u32; 128] = [
    0x0058d8, 0x010b41, 0x01bea2, 0x0272fc, 0x032851, 0x03dea2, 0x0495f0, 0x054e3d,
    0x06078b, 0x06c1da, 0x077d2b, 0x083982, 0x08f6de, 0x09b541, 0x0a74ad, 0x0b3523,
    0x0bf6a5, 0x0cb933, 0x0d7cd0, 0x0e417d, 0x0f073b, 0x0fce0d, 0x1095f2, 0x115eee,
    0x122900, 0x12f42c, 0x13c072, 0x148dd4, 0x155c54, 0x162bf2, 0x16fcb1, 0x17ce93,
    0x18a198, 0x1975c2, 0x1a4b14, 0x1b218e, 0x1bf932, 0x1cd201, 0x1dabfe, 0x1e872b,
    0x1f6387, 0x204117, 0x211fda, 0x21ffd2, 0x22e103, 0x23c36c, 0x24a710, 0x258bf0,
    0x26720e, 0x27596d, 0x28420c, 0x292bf0, 0x2a1718, 0x2b0387, 0x2bf13f, 0x2ce042,
    0x2dd090, 0x2ec22d, 0x2fb51a, 0x30a958, 0x319ee9, 0x3295d0, 0x338e0f, 0x3487a6,
    0x358298, 0x367ee7, 0x377c95, 0x387ba4, 0x397c15, 0x3a7dea, 0x3b8126, 0x3c85ca,
    0x3d8bd9, 0x3e9354, 0x3f9c3d, 0x40a696, 0x41b261, 0x42bfa1, 0x43ce57, 0x44de86,
    0x45f02e, 0x470353, 0x4817f7, 0x492e1b, 0x4a45c2, 0x4b5eed, 0x4c79a0, 0x4d95db,
    0x4eb3a1, 0x4fd2f5, 0x50f3d8, 0x52164d, 0x533a55, 0x545ff3, 0x55872a, 0x56affa,
    0x57da68, 0x590674, 0x5a3421, 0x5b6372, 0x5c9468, 0x5dc706, 0x5efb4f, 0x603144,
    0x6168e7, 0x62a23c, 0x63dd45, 0x651a03, 0x66587a, 0x6798ab, 0x68da9a, 0x6a1e48,
    0x6b63b8, 0x6caaec, 0x6df3e7, 0x6f3eac, 0x708b3c, 0x71d99a, 0x7329ca, 0x747bcc,
    0x75cfa5, 0x772556, 0x787ce1, 0x79d64b, 0x7b3194, 0x7c8ec1, 0x7dedd2, 0x7f4ecc,
];

/// `round(128 × log2(x2))` — the fixed-point LOD of a length whose square is
/// `x2` — clamped to ±[`LOD_LIMIT`]. Zero (denormals flush to zero) and NaN
/// give −LOD_LIMIT (log2(0) = −∞; NaN is read as no footprint), +∞ gives
/// +LOD_LIMIT.
///
/// WGSL twin: `half_log2_fixed` in `shaders/sample.wgsl` (docs/gpu.md, "Twins").
pub fn half_log2_fixed(x2: f32) -> i32 {
    let x2 = flush_denorm(x2);
    if x2.is_nan() || x2 <= 0.0 {
        return -LOD_LIMIT;
    }
    if x2.is_infinite() {
        return LOD_LIMIT;
    }
    let bits = x2.to_bits();
    let exponent = ((bits >> 23) & 0xff) as i32 - 127;
    let mantissa = bits & 0x7f_ffff;
    let steps = LOG2_THRESHOLDS.iter().filter(|&&t| mantissa >= t).count() as i32;
    (128 * exponent + steps).clamp(-LOD_LIMIT, LOD_LIMIT)
}

/// An f32 LOD (the `_l` operand, a `_b` bias, a `_cl` clamp) in fixed point:
/// `x × 256` (exact) rounded to nearest, ties to even, clamped to
/// ±[`LOD_LIMIT`]; NaN reads as 0, denormals as 0.
///
/// WGSL twin: `lod_from_f32` in `shaders/sample.wgsl` (docs/gpu.md, "Twins").
pub fn lod_from_f32(x: f32) -> i32 {
    let x = flush_denorm(x);
    if x.is_nan() {
        return 0;
    }
    let r = (x * LOD_ONE as f32).round_ties_even();
    r.clamp(-LOD_LIMIT as f32, LOD_LIMIT as f32) as i32
}

/// A fixed-point LOD as the f32 GET_LOD returns (exact: 8 fractional bits).
///
/// WGSL twin: `lod_to_f32` in `shaders/sample.wgsl` (docs/gpu.md, "Twins").
pub fn lod_to_f32(lod: i32) -> f32 {
    lod as f32 / LOD_ONE as f32
}

/// The squared length of a derivative vector in texels, `(x·x + y·y) + z·z`, each
/// product and sum rounded to f32 in that order (no fused multiply-add).
///
/// WGSL twin: `length_squared` in `shaders/sample.wgsl` (docs/gpu.md, "Twins").
pub fn length_squared(d: [f32; 3]) -> f32 {
    let [x, y, z] = d.map(flush_denorm);
    let xy = x * x + y * y;
    xy + z * z
}

/// The isotropic LOD from the screen-space derivatives of the texel coordinates
/// (`ddx` = d(u, v, w)/dx, `ddy` = d/dy, already scaled by the view's level-0
/// size): `log2(max(|ddx|, |ddy|))`, the Euclidean ρ of the Vulkan LOD equation
/// (sampling.md §5.3 recommendation), as `half_log2_fixed(max(|ddx|², |ddy|²))`.
///
/// WGSL twin: `lod_from_derivatives` in `shaders/sample.wgsl` (docs/gpu.md, "Twins").
pub fn lod_from_derivatives(ddx: [f32; 3], ddy: [f32; 3]) -> i32 {
    let (x2, y2) = (length_squared(ddx), length_squared(ddy));
    half_log2_fixed(if x2 >= y2 { x2 } else { y2 })
}

/// The anisotropic footprint: how many samples along which axis, and the LOD
/// each is taken at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Aniso {
    /// Number of samples (1 = isotropic).
    pub taps: u32,
    /// True when the samples spread along the x derivative, false along y.
    pub along_x: bool,
    /// The LOD of each sample, fixed point.
    pub lod: i32,
}

/// Whether a sampler filters anisotropically: its MAX_ANISO_RATIO is above 1
/// and an XY filter is an anisotropic one (codes 2, 3), on a float class
/// (integer formats are point-sampled). Otherwise every LOD is isotropic.
///
/// `lane_lod` in `shaders/sample.wgsl` computes the same in its
/// `wants_aniso` line; the translator reads this to choose a view's
/// `sample_lane_isotropic`.
pub fn wants_aniso(s: &crate::texture::descriptor::SamplerDesc, integer: bool) -> bool {
    s.max_aniso > 0 && (s.mag_filter >= 2 || s.min_filter >= 2) && !integer
}

/// The anisotropic filter's footprint for a maximum ratio of `max_ratio`
/// (1, 2, 4, 8, 16) — the EXT_texture_filter_anisotropic reference algorithm,
/// since AMD's is not public (sampling.md §5.4, §7 question 12): with
/// `P_max`, `P_min` the longer and shorter of |ddx|, |ddy|,
/// `N = min(ceil(P_max / P_min), max_ratio)` samples (found as the smallest
/// `N` with `N² · P_min² ≥ P_max²`, in f32), each at
/// `LOD = log2(P_max / N) = half_log2(P_max²) − half_log2(N²)`.
///
/// WGSL twin: `anisotropic` in `shaders/sample.wgsl` (docs/gpu.md, "Twins").
pub fn anisotropic(ddx: [f32; 3], ddy: [f32; 3], max_ratio: u32) -> Aniso {
    let (x2, y2) = (length_squared(ddx), length_squared(ddy));
    let along_x = x2 >= y2;
    let (pmax2, pmin2) = if along_x { (x2, y2) } else { (y2, x2) };
    let max_ratio = max_ratio.clamp(1, 16);
    let taps = (1..=max_ratio)
        .find(|&n| (n * n) as f32 * pmin2 >= pmax2)
        .unwrap_or(max_ratio);
    let lod = half_log2_fixed(pmax2);
    let lod = if lod == -LOD_LIMIT {
        lod
    } else {
        (lod - half_log2_fixed((taps * taps) as f32)).max(-LOD_LIMIT)
    };
    Aniso { taps, along_x, lod }
}

/// LOD bias: `λ' = λ_base + S#.LOD_BIAS + shader bias` in fixed point (the
/// Vulkan order, sampling.md §5.4 step 2), clamped to ±[`LOD_LIMIT`]. The
/// sampler bias also applies to `_l` and `_lz` LODs, as Vulkan's equation does
/// for explicit LODs (Mesa emits `_lz` for a constant LOD of 0, which is only
/// correct under that reading).
///
/// WGSL twin: `biased` in `shaders/sample.wgsl` (docs/gpu.md, "Twins").
pub fn biased(base: i32, sampler_bias: i32, shader_bias: i32) -> i32 {
    (base + sampler_bias + shader_bias).clamp(-LOD_LIMIT, LOD_LIMIT)
}

/// The clamped LOD `λ = min(max(λ', lo), hi)`; `lo` is the largest of the S#
/// MIN_LOD, the T# MIN_LOD (relative to the view's base level) and the `_cl`
/// operand, `hi` the S# MAX_LOD (sampling.md §5.4 step 3). When `lo > hi`, `hi`
/// wins (max first, then min; Vulkan leaves it undefined).
///
/// WGSL twin: `clamped` in `shaders/sample.wgsl` (docs/gpu.md, "Twins").
pub fn clamped(lod: i32, lo: i32, hi: i32) -> i32 {
    lod.max(lo).min(hi)
}

/// Magnification when `λ ≤ 0` (sampling.md §5.4 step 4; Vulkan's threshold 0).
///
/// WGSL twin: `magnifies` in `shaders/sample.wgsl` (docs/gpu.md, "Twins").
pub fn magnifies(lod: i32) -> bool {
    lod <= 0
}

/// The mip levels a sample reads, relative to the view's BASE_LEVEL.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mips {
    /// One level.
    One(u32),
    /// Two adjacent levels `lo` and `lo + 1`, blended with `weight`/256 of the
    /// upper one.
    Two {
        /// The finer level.
        lo: u32,
        /// Weight of level `lo + 1`, 1..=255.
        weight: u32,
    },
}

/// S# MIP_FILTER codes.
pub mod mip_filter {
    /// Base level only.
    pub const NONE: u8 = 0;
    /// Nearest level.
    pub const POINT: u8 = 1;
    /// Blend of two levels.
    pub const LINEAR: u8 = 2;
    /// gfx8+ POINT_ANISO_ADJ: gcnrun samples it as POINT.
    pub const POINT_ANISO_ADJ: u8 = 3;
}

/// Mip selection (sampling.md §5.4 step 5): `d = clamp(λ, 0, last)` with `last`
/// = LAST_LEVEL − BASE_LEVEL. NONE: level 0. POINT: `ceil(d + 0.5) − 1`, i.e.
/// round half down (VK-CTS), `(d + 127) >> 8` in fixed point. LINEAR:
/// `floor(d)` and the next level with weight `frac(d)` (8 bits); one level when
/// the fraction is 0 or `floor(d)` is the last.
///
/// WGSL twin: `select_mips` in `shaders/sample.wgsl` (docs/gpu.md, "Twins").
pub fn select_mips(lod: i32, filter: u8, last: u32) -> Mips {
    let d = lod.clamp(0, (last.min(15) as i32) * LOD_ONE);
    match filter {
        mip_filter::NONE => Mips::One(0),
        mip_filter::LINEAR => {
            let lo = (d >> LOD_FRAC_BITS) as u32;
            let weight = (d & (LOD_ONE - 1)) as u32;
            if weight == 0 || lo >= last {
                Mips::One(lo)
            } else {
                Mips::Two { lo, weight }
            }
        }
        _ => Mips::One(((d + LOD_ONE / 2 - 1) >> LOD_FRAC_BITS) as u32),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thresholds_match_their_definition() {
        let mut prev = 0;
        for (k, &t) in LOG2_THRESHOLDS.iter().enumerate() {
            let j = k as f64 + 1.0;
            let target = ((j - 0.5) / 128.0).exp2();
            let m = |t: u32| 1.0 + f64::from(t) / f64::from(1u32 << 23);
            assert!(m(t) >= target && m(t - 1) < target, "entry {j}");
            assert!(t > prev);
            prev = t;
        }
    }

    #[test]
    fn log2_of_powers_and_between() {
        // ρ = 1 → 0; ρ = 2 (ρ² = 4) → 256; ρ = 0.5 → −256.
        assert_eq!(half_log2_fixed(1.0), 0);
        assert_eq!(half_log2_fixed(4.0), 256);
        assert_eq!(half_log2_fixed(0.25), -256);
        // ρ² = 2: log2(ρ) = 0.5 → 128.
        assert_eq!(half_log2_fixed(2.0), 128);
        // ρ = 3: 256 × log2(3) = 405.74 → 406.
        assert_eq!(half_log2_fixed(9.0), 406);
        // ρ = 1.5: 256 × 0.58496 = 149.75 → 150.
        assert_eq!(half_log2_fixed(2.25), 150);
        // Zero and NaN: the bottom; infinity: the top.
        assert_eq!(half_log2_fixed(0.0), -LOD_LIMIT);
        assert_eq!(half_log2_fixed(f32::NAN), -LOD_LIMIT);
        assert_eq!(half_log2_fixed(f32::INFINITY), LOD_LIMIT);
    }

    #[test]
    fn log2_agrees_with_f64_everywhere_sampled() {
        // Away from exact ties the table equals round(128 · log2 x) in f64.
        let mut x = 1.0e-30f32;
        while x < 1.0e30 {
            let exact = 128.0 * f64::from(x).log2();
            if (exact - exact.floor() - 0.5).abs() > 1e-6 {
                assert_eq!(half_log2_fixed(x), exact.round() as i32, "{x}");
            }
            x *= 1.013;
        }
    }

    #[test]
    fn explicit_lods_round_to_the_grid() {
        assert_eq!(lod_from_f32(1.5), 384);
        // 1/512 is half a step: ties to even → 0; 3/512 → 2 (even).
        assert_eq!(lod_from_f32(1.0 / 512.0), 0);
        assert_eq!(lod_from_f32(3.0 / 512.0), 2);
        assert_eq!(lod_from_f32(-0.25), -64);
        assert_eq!(lod_from_f32(f32::NAN), 0);
        assert_eq!(lod_from_f32(1e9), LOD_LIMIT);
        assert_eq!(lod_to_f32(-64), -0.25);
    }

    #[test]
    fn derivative_lod_takes_the_longer_direction() {
        // |ddx| = 2 texels, |ddy| = 4 texels (dv/dy): LOD 2.
        assert_eq!(lod_from_derivatives([2.0, 0.0, 0.0], [0.0, 4.0, 0.0]), 512);
        // (3, 4) has length 5: 256 × log2 5 = 594.4 → 594.
        assert_eq!(lod_from_derivatives([3.0, 4.0, 0.0], [0.0, 0.0, 0.0]), 594);
    }

    #[test]
    fn aniso_ratio_and_lod() {
        // |ddx| = 8, |ddy| = 2: ratio 4 fits 16x: 4 taps at log2(8/4) = 1.
        let a = anisotropic([8.0, 0.0, 0.0], [0.0, 2.0, 0.0], 16);
        assert_eq!(
            a,
            Aniso {
                taps: 4,
                along_x: true,
                lod: 256
            }
        );
        // Capped at 2x: 2 taps at log2(8/2) = 2.
        let a = anisotropic([8.0, 0.0, 0.0], [0.0, 2.0, 0.0], 2);
        assert_eq!(
            a,
            Aniso {
                taps: 2,
                along_x: true,
                lod: 512
            }
        );
        // Ratio 3 → ceil 3 taps; log2(12/3) = 2.
        let a = anisotropic([0.0, 4.0, 0.0], [0.0, 12.0, 0.0], 16);
        assert_eq!(
            a,
            Aniso {
                taps: 3,
                along_x: false,
                lod: 512
            }
        );
        // Isotropic: one tap.
        assert_eq!(anisotropic([2.0, 0.0, 0.0], [0.0, 2.0, 0.0], 16).taps, 1);
    }

    #[test]
    fn bias_and_clamp_order() {
        // λ_base 1.0 + sampler bias −0.5 + shader bias 2.0 = 2.5 levels.
        assert_eq!(biased(256, -128, 512), 640);
        // Clamp to [1, 2]: 2.5 → 2.
        assert_eq!(clamped(640, 256, 512), 512);
        // lo above hi: hi wins.
        assert_eq!(clamped(0, 512, 256), 256);
    }

    #[test]
    fn mip_selection() {
        use mip_filter::*;
        // d = 1.5: point rounds half down → 1; linear 1 and 2 at 128/256.
        assert_eq!(select_mips(384, POINT, 4), Mips::One(1));
        assert_eq!(select_mips(385, POINT, 4), Mips::One(2));
        assert_eq!(
            select_mips(384, LINEAR, 4),
            Mips::Two { lo: 1, weight: 128 }
        );
        // Whole levels and the last level read one level.
        assert_eq!(select_mips(512, LINEAR, 4), Mips::One(2));
        assert_eq!(select_mips(9999, LINEAR, 4), Mips::One(4));
        // Below 0 clamps to level 0; NONE always level 0.
        assert_eq!(select_mips(-700, LINEAR, 4), Mips::One(0));
        assert_eq!(select_mips(900, NONE, 4), Mips::One(0));
    }
}
