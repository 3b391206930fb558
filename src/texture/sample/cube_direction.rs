//! Stage 0 of a cube sample whose coordinates are a direction (Intel's
//! 3D_SAMPLE on a CUBE surface: u, v, r = x, y, z and ai = cube index,
//! research/visa.md §4.1): the direction becomes the face-local address the
//! shared sampler takes ([`super::cube`]: `s' = s + 1`, `t' = t + 1`,
//! `face_id = 8 × cube + face`), the address AMD shaders compute with
//! `v_cubeid/v_cubesc/v_cubetc/v_cubema` (research/sampling.md §5.7).
//!
//! Rules (docs/semantics/intel.md, "CUBE surfaces"):
//!
//! - **Face selection** (GL 4.6 / Vulkan "Cube Map Face Selection", table of
//!   sc, tc, ma): the axis of largest magnitude, its sign picking the face
//!   (0..5 = +X, −X, +Y, −Y, +Z, −Z). The specs leave ties to the
//!   implementation and Intel's rule is not public; gcnrun breaks them as
//!   AMD's `v_cubeid` does (LLVM's constant folder of `llvm.amdgcn.cubeid`):
//!   Z wins over Y and X, Y over X; a major component that is negative and
//!   not zero selects the negative face (−0 selects the positive one).
//!   Comparisons are IEEE (false with a NaN), so a NaN z or y never wins
//!   and X is the fallback.
//! - **Face coordinates**: `s' = 1.5 + sc / (2 |ma|)`, `t' = 1.5 + tc / (2 |ma|)`
//!   — the specs' `s = (sc / |ma| + 1) / 2`, plus 1 — computed exactly and
//!   rounded once to the nearest f32 (ties to even), in integer arithmetic so
//!   that the WGSL mirror (`shaders/cube.wgsl`) gives the same bits without
//!   relying on a GPU's division. A NaN among sc, ma, or |sc| = |ma| = ∞
//!   gives the quiet NaN `0x7fc00000`; ma = 0 (the zero direction) and a
//!   finite sc against an infinite ma give the face centre, 1.5 (not
//!   public; a documented choice).
//! - **Cube index**: `ai` rounded and clamped as an array index
//!   ([`super::coord::array_slice`], the rule of Intel's 2D-array index),
//!   at most [`CUBE_INDEX_LAST`] so that `8 × cube + face` is exact in f32;
//!   the sampler then clamps it to the view's last cube.

use super::coord::array_slice;
use crate::texture::convert::CANONICAL_NAN;

/// The largest cube index staged (8 × 2^20 + 5 < 2^24: exact in f32).
pub const CUBE_INDEX_LAST: u32 = 1 << 20;

/// The face a direction selects and its `(sc, tc, ma)` per the GL/Vulkan
/// table: +X sc = −z, tc = −y; −X sc = z, tc = −y; +Y sc = x, tc = z;
/// −Y sc = x, tc = −z; +Z sc = x, tc = −y; −Z sc = −x, tc = −y; ma the
/// major component. Ties: Z, then Y, then X (see the module comment).
///
/// WGSL twin: `select_face` in `shaders/cube.wgsl` (docs/gpu.md, "Twins").
pub fn select_face(x: f32, y: f32, z: f32) -> (u32, f32, f32, f32) {
    let negative = |v: f32| v < 0.0;
    if z.abs() >= x.abs() && z.abs() >= y.abs() {
        if negative(z) {
            (5, -x, -y, z)
        } else {
            (4, x, -y, z)
        }
    } else if y.abs() >= x.abs() {
        if negative(y) {
            (3, x, -z, y)
        } else {
            (2, x, z, y)
        }
    } else if negative(x) {
        (1, z, -y, x)
    } else {
        (0, -z, -y, x)
    }
}

/// A finite non-zero magnitude as (24-bit significand, exponent), denormals
/// normalised: `|v| = m × 2^e` with `2^23 <= m < 2^24`.
///
/// WGSL twin: `cube_significand` in `shaders/cube.wgsl` (docs/gpu.md, "Twins").
fn significand(bits: u32) -> (u32, i32) {
    let e = ((bits >> 23) & 0xff) as i32;
    let m = bits & 0x7f_ffff;
    if e == 0 {
        let shift = m.leading_zeros() - 8;
        (m << shift, 1 - 150 - shift as i32)
    } else {
        (m | 0x80_0000, e - 150)
    }
}

/// `1.5 + sc / (2 |ma|)` rounded once to the nearest f32, ties to even, as
/// f32 bits (the module comment gives the special cases). For |sc| <= |ma|
/// (what [`select_face`] returns) the result lies in [1, 2].
///
/// WGSL twin: `direction_coordinate` in `shaders/cube.wgsl` (docs/gpu.md, "Twins").
pub fn direction_coordinate(sc: f32, ma: f32) -> u32 {
    let (s, m) = (sc.to_bits(), ma.to_bits() & 0x7fff_ffff);
    let mag = s & 0x7fff_ffff;
    if sc.is_nan() || ma.is_nan() || (mag == 0x7f80_0000 && m == 0x7f80_0000) {
        return CANONICAL_NAN;
    }
    if m == 0 || mag == 0 || m == 0x7f80_0000 {
        return 1.5f32.to_bits();
    }
    // |sc| / |ma| × 2^22 = (ms / mm) × 2^(22 − d), rounded to an integer n
    // (the offset from 1.5 in units of 2^-23, the grid of [1, 2]).
    let (ms, es) = significand(mag);
    let (mm, em) = significand(m);
    let d = em - es;
    let n = if d < 0 || (d == 0 && ms > mm) {
        // |sc| > |ma|: not a selected face; the edge.
        1 << 22
    } else {
        // q = floor(ms × 2^24 / mm) (< 2^25) and its remainder r.
        let q = (u64::from(ms) << 24) / u64::from(mm);
        let r = (u64::from(ms) << 24) % u64::from(mm);
        let k = d + 2; // q × 2^-k = (ms / mm) × 2^(22 − d)
        if k >= 26 {
            0
        } else {
            let kept = q >> k;
            let rest = q & ((1 << k) - 1);
            let half = 1u64 << (k - 1);
            let up = rest > half || (rest == half && (r != 0 || kept & 1 == 1));
            (kept + u64::from(up)).min(1 << 22) as u32
        }
    };
    // s' = (3 × 2^22 ± n) × 2^-23, a significand in [2^23, 2^24].
    let sig = if s >> 31 == 1 {
        (3 << 22) - n
    } else {
        (3 << 22) + n
    };
    if sig == 1 << 24 {
        2.0f32.to_bits()
    } else {
        (127 << 23) | (sig - (1 << 23))
    }
}

/// The shared sampler's cube address `[s', t', face_id]` (f32 bits) of a
/// direction and an Intel cube index.
///
/// WGSL twin: `cube_address` in `shaders/cube.wgsl` (docs/gpu.md, "Twins").
pub fn cube_address(x: f32, y: f32, z: f32, ai: f32) -> [u32; 3] {
    let (face, sc, tc, ma) = select_face(x, y, z);
    let cube = array_slice(ai, CUBE_INDEX_LAST);
    [
        direction_coordinate(sc, ma),
        direction_coordinate(tc, ma),
        ((8 * cube + face) as f32).to_bits(),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn addr(x: f32, y: f32, z: f32) -> (u32, f32, f32) {
        let [s, t, f] = cube_address(x, y, z, 0.0);
        (
            f32::from_bits(f) as u32,
            f32::from_bits(s),
            f32::from_bits(t),
        )
    }

    /// Every face, both signs of sc and tc, from the GL/Vulkan table.
    #[test]
    fn every_face_and_sign() {
        // (direction) → (face, s', t'); s' = 1.5 + sc/(2|ma|).
        let cases = [
            ((2.0, -0.5, -1.0), (0, 1.75, 1.625)), // +X: sc = -z = 1, tc = -y = 0.5
            ((2.0, 1.0, 0.5), (0, 1.375, 1.25)),   // +X: sc = -0.5, tc = -1
            ((-2.0, -0.5, -1.0), (1, 1.25, 1.625)), // -X: sc = z = -1, tc = -y
            ((-2.0, 1.0, 1.0), (1, 1.75, 1.25)),   // -X: sc = 1, tc = -1
            ((1.0, 4.0, -2.0), (2, 1.625, 1.25)),  // +Y: sc = x, tc = z
            ((-1.0, 4.0, 2.0), (2, 1.375, 1.75)),  // +Y
            ((1.0, -4.0, -2.0), (3, 1.625, 1.75)), // -Y: sc = x, tc = -z
            ((-1.0, -4.0, 2.0), (3, 1.375, 1.25)), // -Y
            ((0.5, 1.0, 2.0), (4, 1.625, 1.25)),   // +Z: sc = x, tc = -y
            ((-0.5, -1.0, 2.0), (4, 1.375, 1.75)), // +Z
            ((0.5, 1.0, -2.0), (5, 1.375, 1.25)),  // -Z: sc = -x, tc = -y
            ((-0.5, -1.0, -2.0), (5, 1.625, 1.75)), // -Z
        ];
        for ((x, y, z), want) in cases {
            assert_eq!(addr(x, y, z), want, "({x}, {y}, {z})");
        }
    }

    /// Ties: Z over Y and X, Y over X; −0 is the positive face.
    #[test]
    fn ties_prefer_z_then_y() {
        assert_eq!(addr(1.0, 1.0, 1.0).0, 4);
        assert_eq!(addr(1.0, 1.0, -1.0).0, 5);
        assert_eq!(addr(-1.0, 1.0, 1.0).0, 4);
        assert_eq!(addr(1.0, -1.0, 0.5).0, 3);
        assert_eq!(addr(-1.0, 1.0, 0.5).0, 2);
        assert_eq!(addr(-1.0, 0.5, -1.0), (5, 2.0, 1.25));
        assert_eq!(addr(0.0, 0.0, -0.0).0, 4);
        assert_eq!(addr(0.0, -0.0, 0.0).0, 4);
        assert_eq!(addr(-0.0, 0.0, 0.0).0, 4);
        // Comparisons with a NaN are false: a NaN z or y never wins, and X
        // is what is left.
        assert_eq!(addr(f32::NAN, 1.0, 2.0).0, 0);
        assert_eq!(addr(1.0, f32::NAN, 2.0).0, 0);
        assert_eq!(addr(1.0, 2.0, f32::NAN).0, 2);
    }

    #[test]
    fn special_values() {
        let c = |sc: f32, ma: f32| direction_coordinate(sc, ma);
        assert_eq!(c(0.0, 0.0), 1.5f32.to_bits());
        assert_eq!(c(-0.0, 3.0), 1.5f32.to_bits());
        assert_eq!(c(1.0, f32::INFINITY), 1.5f32.to_bits());
        assert_eq!(c(f32::INFINITY, f32::NEG_INFINITY), CANONICAL_NAN);
        assert_eq!(c(f32::NAN, 1.0), CANONICAL_NAN);
        assert_eq!(c(1.0, f32::NAN), CANONICAL_NAN);
        assert_eq!(c(3.0, -3.0), 2.0f32.to_bits());
        assert_eq!(c(-3.0, 3.0), 1.0f32.to_bits());
        // Denormals are exact: 2^-149 / 2^-148 = 1/2 → 1.75.
        assert_eq!(c(f32::from_bits(1), f32::from_bits(2)), 1.75f32.to_bits());
        // Far below the grid: rounds to the centre.
        assert_eq!(c(1e-30, 1e10), 1.5f32.to_bits());
    }

    /// Against f64 arithmetic: 1.5 + sc/(2|ma|) in f64 is within 2^-52
    /// relative of the exact value, so rounding it to f32 gives the correctly
    /// rounded result unless the f64 lands within that of a midpoint; the
    /// test skips those (none occur in practice here).
    #[test]
    fn matches_exact_rounding() {
        let mut seed = 0x1234_5678u32;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed
        };
        for _ in 0..20_000 {
            let ma = f32::from_bits(next() % 0x7f00_0000 + 0x0080_0000);
            let frac = (next() >> 8) as f32 / (1u32 << 24) as f32;
            let sign = if next() & 1 == 1 { -1.0 } else { 1.0 };
            let sc = sign * (ma * frac);
            let exact = 1.5 + f64::from(sc) / (2.0 * f64::from(ma));
            let want = exact as f32;
            let grid = (f64::from(want) - exact).abs() / 2f64.powi(-23);
            if (grid - 0.5).abs() < 1e-6 {
                continue;
            }
            assert_eq!(
                direction_coordinate(sc, ma),
                want.to_bits(),
                "sc {sc:e} ma {ma:e}"
            );
        }
    }

    #[test]
    fn cube_index_rounds_and_clamps() {
        let f = |ai: f32| f32::from_bits(cube_address(0.0, 0.0, 1.0, ai)[2]);
        assert_eq!(f(0.0), 4.0);
        assert_eq!(f(1.0), 12.0);
        assert_eq!(f(1.6), 20.0);
        assert_eq!(f(0.5), 4.0); // ties to even
        assert_eq!(f(1.5), 20.0);
        assert_eq!(f(-3.0), 4.0);
        assert_eq!(f(f32::NAN), 4.0);
        assert_eq!(f(1e30), (8 * CUBE_INDEX_LAST + 4) as f32);
    }
}
