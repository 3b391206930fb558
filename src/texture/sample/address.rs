//! Stage 3: address modes (S# CLAMP_X/Y/Z, `SQ_TEX_CLAMP`) and border colours.
//!
//! Every mode works on the integer texel index after the floor and the texel
//! offset, one axis at a time, each tap of a linear footprint independently
//! (research/sampling.md §2.2, §5.2; the integer formulation of VK-CTS
//! `tcuTexture.cpp` `wrap`). Three modes also act on the coordinate first: the
//! GL-extension mirror-once modes take |s| ([`mirror_coordinate`]) and the
//! GL-legacy "half border" modes clamp the texel coordinate to the image
//! ([`prepare`]) (softpipe `wrap_linear_clamp`, `wrap_linear_mirror_clamp`,
//! `wrap_linear_mirror_clamp_to_border`).
//!
//! Index-domain mirroring (modes 1 and 3, Vulkan's definition) reflects about
//! the texel edge at 0: index −1 is texel 0 (`!i = −i − 1`).

/// `SQ_TEX_CLAMP` codes (sampling.md §2.2).
pub mod mode {
    /// Repeat.
    pub const WRAP: u8 = 0;
    /// Mirrored repeat.
    pub const MIRROR: u8 = 1;
    /// Clamp to edge.
    pub const CLAMP_LAST_TEXEL: u8 = 2;
    /// Mirror once, then clamp to edge (Vulkan MIRROR_CLAMP_TO_EDGE).
    pub const MIRROR_ONCE_LAST_TEXEL: u8 = 3;
    /// GL legacy CLAMP: linear footprints at the edge blend with the border.
    pub const CLAMP_HALF_BORDER: u8 = 4;
    /// GL MIRROR_CLAMP_EXT.
    pub const MIRROR_ONCE_HALF_BORDER: u8 = 5;
    /// Clamp to border.
    pub const CLAMP_BORDER: u8 = 6;
    /// GL MIRROR_CLAMP_TO_BORDER_EXT.
    pub const MIRROR_ONCE_BORDER: u8 = 7;
}

/// Where one tap of a footprint lands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tap {
    /// Texel index `0..n`.
    Texel(u32),
    /// Outside the image in a border mode: the border colour.
    Border,
}

/// The mirror of the mirror-once-to-border modes (5 and 7): `|s|`, applied to
/// the shader's coordinate before it becomes a texel coordinate (exact in f32,
/// so mirrored positions land on the same 1/256 grid as the originals;
/// softpipe `wrap_linear_mirror_clamp`). Other modes return `s`.
///
/// WGSL twin: `mirror_coordinate` in `shaders/sample.wgsl` (docs/gpu.md, "Twins").
pub fn mirror_coordinate(clamp_mode: u8, s: f32) -> f32 {
    if matches!(
        clamp_mode,
        mode::MIRROR_ONCE_HALF_BORDER | mode::MIRROR_ONCE_BORDER
    ) {
        s.abs()
    } else {
        s
    }
}

/// The coordinate clamp of the half-border modes (4 and 5), on the fixed-point
/// coordinate `u` (texel units × 256) of an axis with `n` texels, before the
/// half-texel shift: u is clamped to `[0, n]` texels, so a linear footprint at
/// the edge blends half the edge texel with half the border (GL's legacy
/// CLAMP; softpipe `wrap_linear_clamp`). Other modes return `u`.
///
/// WGSL twin: `prepare` in `shaders/sample.wgsl` (docs/gpu.md, "Twins").
pub fn prepare(clamp_mode: u8, u: i32, n: u32) -> i32 {
    if matches!(
        clamp_mode,
        mode::CLAMP_HALF_BORDER | mode::MIRROR_ONCE_HALF_BORDER
    ) {
        let edge = i64::from(n) << super::coord::SUBTEXEL_BITS;
        i64::from(u).clamp(0, edge) as i32
    } else {
        u
    }
}

/// The texel an integer index `i` selects on an axis of `n ≥ 1` texels, or the
/// border. `linear` says whether the tap belongs to a linear footprint: the
/// half-border modes give the border only there (a point sample of GL CLAMP is
/// clamp-to-edge).
///
/// WGSL twin: `wrap` in `shaders/sample.wgsl` (docs/gpu.md, "Twins").
#[inline]
pub fn wrap(clamp_mode: u8, i: i32, n: u32, linear: bool) -> Tap {
    // Every mode maps an index inside the axis to itself; this answers the
    // common case before the 64-bit remainders below.
    if i >= 0 && (i as u32) < n {
        return Tap::Texel(i as u32);
    }
    let n = n.max(1) as i64;
    let i = i as i64;
    let inside = |k: i64| (0..n).contains(&k);
    let edge = |k: i64| Tap::Texel(k.clamp(0, n - 1) as u32);
    let border_or = |k: i64| {
        if inside(k) {
            Tap::Texel(k as u32)
        } else {
            Tap::Border
        }
    };
    match clamp_mode {
        mode::WRAP => Tap::Texel(i.rem_euclid(n) as u32),
        mode::MIRROR => {
            let t = i.rem_euclid(2 * n);
            Tap::Texel(if t < n { t } else { 2 * n - 1 - t } as u32)
        }
        mode::CLAMP_LAST_TEXEL => edge(i),
        mode::MIRROR_ONCE_LAST_TEXEL => edge(if i < 0 { !i } else { i }),
        mode::CLAMP_HALF_BORDER | mode::MIRROR_ONCE_HALF_BORDER if !linear => edge(i),
        // 4, 5 (linear), 6, 7: outside is border (5 and 7 were mirrored first).
        _ => border_or(i),
    }
}

/// True for the modes that can produce [`Tap::Border`].
pub fn uses_border(clamp_mode: u8) -> bool {
    clamp_mode >= mode::CLAMP_HALF_BORDER
}

/// The S# BORDER_COLOR_TYPE colours as the four raw texel values X, Y, Z, W
/// before DST_SEL: 0 transparent black (0, 0, 0, 0), 1 opaque black (0, 0, 0, 1),
/// 2 opaque white (1, 1, 1, 1) — 1.0 for float classes, integer 1 for UINT/SINT
/// (sampling.md §2.1, §7 question 15). Type 3 (a driver table at
/// BORDER_COLOR_PTR) has no data in gcnrun: `None`.
pub fn border_color(border_type: u8, integer: bool) -> Option<[u32; 4]> {
    let one = if integer { 1 } else { 1.0f32.to_bits() };
    match border_type {
        0 => Some([0; 4]),
        1 => Some([0, 0, 0, one]),
        2 => Some([one; 4]),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::mode::*;
    use super::Tap::*;
    use super::*;

    /// Indices −5..=8 on a 4-texel axis, per mode (hand-derived).
    #[test]
    fn every_mode_on_a_4_texel_axis() {
        let t = |k: u32| Texel(k);
        let b = Border;
        let rows: [(u8, bool, [Tap; 14]); 8] = [
            // i: -5 -4 -3 -2 -1 0 1 2 3 4 5 6 7 8
            (
                WRAP,
                true,
                [
                    t(3),
                    t(0),
                    t(1),
                    t(2),
                    t(3),
                    t(0),
                    t(1),
                    t(2),
                    t(3),
                    t(0),
                    t(1),
                    t(2),
                    t(3),
                    t(0),
                ],
            ),
            // mirror period 8: 0 1 2 3 3 2 1 0; index -1 → 0, -5 → 3.
            (
                MIRROR,
                true,
                [
                    t(3),
                    t(3),
                    t(2),
                    t(1),
                    t(0),
                    t(0),
                    t(1),
                    t(2),
                    t(3),
                    t(3),
                    t(2),
                    t(1),
                    t(0),
                    t(0),
                ],
            ),
            (
                CLAMP_LAST_TEXEL,
                true,
                [
                    t(0),
                    t(0),
                    t(0),
                    t(0),
                    t(0),
                    t(0),
                    t(1),
                    t(2),
                    t(3),
                    t(3),
                    t(3),
                    t(3),
                    t(3),
                    t(3),
                ],
            ),
            // mirror once: -1 → 0, -4 → 3, -5 → 4 → clamp 3.
            (
                MIRROR_ONCE_LAST_TEXEL,
                true,
                [
                    t(3),
                    t(3),
                    t(2),
                    t(1),
                    t(0),
                    t(0),
                    t(1),
                    t(2),
                    t(3),
                    t(3),
                    t(3),
                    t(3),
                    t(3),
                    t(3),
                ],
            ),
            (
                CLAMP_HALF_BORDER,
                true,
                [b, b, b, b, b, t(0), t(1), t(2), t(3), b, b, b, b, b],
            ),
            (
                CLAMP_HALF_BORDER,
                false,
                [
                    t(0),
                    t(0),
                    t(0),
                    t(0),
                    t(0),
                    t(0),
                    t(1),
                    t(2),
                    t(3),
                    t(3),
                    t(3),
                    t(3),
                    t(3),
                    t(3),
                ],
            ),
            (
                CLAMP_BORDER,
                false,
                [b, b, b, b, b, t(0), t(1), t(2), t(3), b, b, b, b, b],
            ),
            (
                MIRROR_ONCE_BORDER,
                true,
                [b, b, b, b, b, t(0), t(1), t(2), t(3), b, b, b, b, b],
            ),
        ];
        for (m, linear, want) in rows {
            for (k, w) in want.iter().enumerate() {
                let i = k as i32 - 5;
                assert_eq!(wrap(m, i, 4, linear), *w, "mode {m} linear {linear} i {i}");
            }
        }
    }

    #[test]
    fn coordinate_steps_mirror_and_clamp() {
        // Modes 5 and 7 take |s|; the others leave s alone.
        assert_eq!(mirror_coordinate(MIRROR_ONCE_HALF_BORDER, -0.75), 0.75);
        assert_eq!(mirror_coordinate(MIRROR_ONCE_BORDER, -3.0), 3.0);
        assert_eq!(mirror_coordinate(MIRROR, -0.75), -0.75);
        // Modes 4 and 5 clamp to [0, 4 texels] = [0, 1024]; 7 does not.
        assert_eq!(prepare(CLAMP_HALF_BORDER, -300, 4), 0);
        assert_eq!(prepare(CLAMP_HALF_BORDER, 1100, 4), 1024);
        assert_eq!(prepare(MIRROR_ONCE_HALF_BORDER, 2000, 4), 1024);
        assert_eq!(prepare(MIRROR_ONCE_BORDER, 2000, 4), 2000);
        assert_eq!(prepare(WRAP, -2000, 4), -2000);
    }

    #[test]
    fn border_colours() {
        assert_eq!(border_color(0, false), Some([0; 4]));
        assert_eq!(border_color(1, false), Some([0, 0, 0, 0x3f80_0000]));
        assert_eq!(border_color(2, true), Some([1; 4]));
        assert_eq!(border_color(3, false), None);
    }
}
