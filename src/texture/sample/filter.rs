//! Stage 5: filtering — the taps of one axis, their integer weights, and the
//! blends (research/sampling.md §5.1, §5.5).
//!
//! Weights are integers: an axis tap weighs 0..=256 (the 8-bit subtexel
//! fraction of [`super::coord`]), a texel of a 3D footprint weighs the product
//! of its three axis weights, at most 2^24 — exact in f32. An axis that is not
//! filtered (point, or absent) has one tap of weight 256, so every footprint's
//! weights sum to exactly 2^24 and the blend is `Σ texel × (weight × 2^-24)`.
//! f32 order: the weight scaled first (exact: a power of two), each product
//! rounded, summed in tap order (z, then y, then x, lower index first)
//! starting from the first product. Scaling the weight rather than the sum
//! keeps large float texels from overflowing. A WGSL mirror must keep that
//! order and must not contract a product and a sum into a fused multiply-add.

use super::coord::{flush_denorm, HALF, ONE, SUBTEXEL_BITS};

/// The taps of one axis: up to two integer indices (before wrapping) with
/// their weights (which sum to 256).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AxisTaps {
    /// Indices; only the first `count` are used.
    pub index: [i32; 2],
    /// Weights out of 256.
    pub weight: [u32; 2],
    /// 1 (point) or 2 (linear).
    pub count: usize,
}

/// Taps of one axis from its fixed-point coordinate `u` (after the address
/// mode's coordinate step) and texel offset. Point: `floor(u) + offset`.
/// Linear: `q = u − ½`, taps `floor(q) + offset` and the next, weights
/// `256 − frac(q)` and `frac(q)` (VK-CTS `sampleLinear2D`; sampling.md §5.1).
///
/// WGSL twin: `axis_taps` in `shaders/sample.wgsl` (docs/gpu.md, "Twins").
pub fn axis_taps(u: i32, offset: i32, linear: bool) -> AxisTaps {
    if linear {
        let q = u - HALF;
        let i0 = (q >> SUBTEXEL_BITS) + offset;
        let frac = (q & (ONE - 1)) as u32;
        AxisTaps {
            index: [i0, i0 + 1],
            weight: [ONE as u32 - frac, frac],
            count: 2,
        }
    } else {
        AxisTaps {
            index: [(u >> SUBTEXEL_BITS) + offset, 0],
            weight: [ONE as u32, 0],
            count: 1,
        }
    }
}

/// An axis that does not exist (or a fixed slice): one tap of full weight.
///
/// WGSL twin: `single_tap` in `shaders/sample.wgsl` (docs/gpu.md, "Twins").
pub fn single_tap(index: i32) -> AxisTaps {
    AxisTaps {
        index: [index, 0],
        weight: [ONE as u32, 0],
        count: 1,
    }
}

/// 2^-24: the scale of a blended sum (three axes of 8-bit weights).
const BLEND_SCALE: f32 = 1.0 / 16_777_216.0;

/// S# FILTER_MODE: how the taps of a footprint combine.
pub mod reduction {
    /// Weighted average.
    pub const BLEND: u8 = 0;
    /// Per-component minimum of the taps with a non-zero weight.
    pub const MIN: u8 = 1;
    /// Per-component maximum of the taps with a non-zero weight.
    pub const MAX: u8 = 2;
}

/// Combines the footprint's texels (`(value, weight)`, weights summing to 2^24,
/// zero-weight taps already left out) per S# FILTER_MODE: BLEND is the weighted
/// sum in the stated order; MIN/MAX take the per-component extreme of the taps
/// (Vulkan's sampler reduction modes; the weights only decide which taps count).
/// Results are denormal-flushed.
///
/// WGSL twin: `combine` in `shaders/sample.wgsl` (docs/gpu.md, "Twins").
///
/// Inlined: a footprint is built just before it is combined, and reading its
/// taps back from memory in a call stalled on their stores (half of this
/// function's time in the bilinear benchmark).
#[inline(always)]
pub fn combine(taps: &[([f32; 4], u32)], mode: u8) -> [f32; 4] {
    let Some((first, rest)) = taps.split_first() else {
        return [0.0; 4];
    };
    // The mode once, then the taps in order with the four components side by
    // side: the same operations on each component as one tap after another
    // per component, but a shape the compiler keeps in one vector register
    // (one product and one sum per tap for all four components).
    let mut out = first.0;
    match mode {
        reduction::MIN => {
            for t in rest {
                for (o, &v) in out.iter_mut().zip(&t.0) {
                    *o = if v < *o { v } else { *o };
                }
            }
        }
        reduction::MAX => {
            for t in rest {
                for (o, &v) in out.iter_mut().zip(&t.0) {
                    *o = if v > *o { v } else { *o };
                }
            }
        }
        _ => {
            let scaled = |w: u32| w as f32 * BLEND_SCALE;
            let w = scaled(first.1);
            for o in out.iter_mut() {
                *o *= w;
            }
            for t in rest {
                let w = scaled(t.1);
                for (o, &v) in out.iter_mut().zip(&t.0) {
                    *o += v * w;
                }
            }
        }
    }
    out.map(flush_denorm)
}

/// The blend of two mip levels: `a × ((256 − w) × 2^-8) + b × (w × 2^-8)`, the
/// weights scaled exactly, each product rounded, then the sum (MIN/MAX
/// reductions take the
/// per-component extreme of the two levels instead).
///
/// WGSL twin: `mip_blend` in `shaders/sample.wgsl` (docs/gpu.md, "Twins").
pub fn mip_blend(a: [f32; 4], b: [f32; 4], weight: u32, mode: u8) -> [f32; 4] {
    let scale = 1.0 / ONE as f32;
    let wa = (ONE as u32 - weight) as f32 * scale;
    let wb = weight as f32 * scale;
    let mut out = [0.0; 4];
    for (c, out) in out.iter_mut().enumerate() {
        *out = flush_denorm(match mode {
            reduction::MIN => a[c].min(b[c]),
            reduction::MAX => a[c].max(b[c]),
            _ => a[c] * wa + b[c] * wb,
        });
    }
    out
}

/// Offset of anisotropic sample `k` of `n` along the major derivative, in
/// units of that derivative: `(k + ½)/n − ½`, spread evenly over one pixel's
/// footprint (EXT_texture_filter_anisotropic's reference; AMD's sample
/// placement is not public). Computed as `(2k + 1 − n) / (2n)`, one rounding.
///
/// WGSL twin: `aniso_position` (read from the host's table `ANISO_POSITIONS_AT`,
/// filled with it) in `shaders/sample.wgsl` (docs/gpu.md, "Twins").
pub fn aniso_position(k: u32, n: u32) -> f32 {
    (2.0 * k as f32 + 1.0 - n as f32) / (2 * n.max(1)) as f32
}

/// The average of the anisotropic samples: their sum in sample order, divided
/// by their count (one rounding each).
pub fn aniso_average(samples: &[[f32; 4]]) -> [f32; 4] {
    let n = samples.len().max(1) as f32;
    std::array::from_fn(|c| flush_denorm(samples.iter().fold(0.0f32, |s, v| s + v[c]) / n))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linear_taps_at_exact_fractions() {
        // u = 2.75 texels (704): q = 2.25 → taps 2, 3 with 192/256 and 64/256.
        let t = axis_taps(704, 0, true);
        assert_eq!((t.index, t.weight, t.count), ([2, 3], [192, 64], 2));
        // At a texel centre (2.5 = 640) the second tap has weight 0.
        let t = axis_taps(640, 0, true);
        assert_eq!((t.index, t.weight), ([2, 3], [256, 0]));
        // u = 0.25 (64): q = −0.25 → taps −1, 0 with 64 and 192; offset +2.
        let t = axis_taps(64, 2, true);
        assert_eq!((t.index, t.weight), ([1, 2], [64, 192]));
        // Point: floor.
        assert_eq!(axis_taps(704, -1, false).index[0], 1);
        assert_eq!(axis_taps(-1, 0, false).index[0], -1);
    }

    #[test]
    fn blend_and_reductions() {
        let w = |a: u32, b: u32| a * b * 256;
        // Bilinear of 0, 1 (top) and 0.5, 1 (bottom) at (64/256, 128/256):
        // top = 0.25, bottom = 0.625, mid = 0.4375.
        let taps = [
            ([0.0; 4], w(192, 128)),
            ([1.0; 4], w(64, 128)),
            ([0.5; 4], w(192, 128)),
            ([1.0; 4], w(64, 128)),
        ];
        assert_eq!(combine(&taps, reduction::BLEND), [0.4375; 4]);
        assert_eq!(combine(&taps, reduction::MIN), [0.0; 4]);
        assert_eq!(combine(&taps, reduction::MAX), [1.0; 4]);
        // Two levels 0.25 and 0.75 at weight 64: 0.25·0.75 + 0.75·0.25 = 0.375.
        assert_eq!(
            mip_blend([0.25; 4], [0.75; 4], 64, reduction::BLEND),
            [0.375; 4]
        );
    }

    #[test]
    fn aniso_positions_are_centred() {
        assert_eq!(aniso_position(0, 1), 0.0);
        assert_eq!(aniso_position(0, 2), -0.25);
        assert_eq!(aniso_position(1, 2), 0.25);
        assert_eq!(aniso_position(3, 4), 0.375);
        assert_eq!(aniso_average(&[[1.0; 4], [0.0; 4]]), [0.5; 4]);
    }
}
