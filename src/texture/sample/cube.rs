//! Stage 4: cube maps.
//!
//! GCN's sampler does not take a direction: the shader computes the face with
//! `v_cubeid_f32` (0..5 = +X, −X, +Y, −Y, +Z, −Z) and face coordinates with
//! `v_cubesc/tc/ma_f32`, and passes `s' = sc/|ma| + 1.5`, `t' = tc/|ma| + 1.5`
//! (so 1.0..2.0 spans the face; `ma` is already doubled by `v_cubema`) and
//! `face_id = 8 × cube + face` as floats (research/sampling.md §5.7, Mesa
//! `ac_prepare_cube_coords`, ACO `prepare_cube_coords`). The sampler therefore
//! sees a face-local normalized coordinate `s' − 1`.
//!
//! Seamless filtering (S# DISABLE_CUBE_WRAP = 0): a footprint tap one texel
//! past a face edge reads the adjacent face's edge texel, found by turning the
//! tap's texel centre into a direction and re-projecting it (the GL/Vulkan face
//! table); a tap past two edges at once (a corner) has no texel and takes the
//! average of the footprint's three others (Vulkan's corner rule, VK-CTS
//! `sampleCubeSeamlessLinear`). The exact GCN corner rule is not public
//! (sampling.md §7 question 13).

/// A texel of a cube face.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FaceTexel {
    /// Face 0..5.
    pub face: u32,
    /// Column.
    pub x: u32,
    /// Row.
    pub y: u32,
}

/// The face-local normalized coordinate of a GCN cube coordinate: `s' − 1`
/// (exact for s' in [0.5, 4] by Sterbenz's lemma, in particular on [1, 2]).
///
/// WGSL twin: `face_coordinate` in `shaders/sample.wgsl` (docs/gpu.md, "Twins").
pub fn face_coordinate(s: f32) -> f32 {
    s - 1.0
}

/// Face and cube index of a `face_id` operand: rounded to nearest even (drivers
/// round with `v_rndne`), negative → 0; face = id mod 8, cube = id / 8. Face
/// codes 6 and 7 do not exist; gcnrun reads them as face 5 (−Z), a documented
/// choice (not public). The cube index is clamped by the caller.
///
/// WGSL twin: `face_and_cube` in `shaders/sample.wgsl` (docs/gpu.md, "Twins").
pub fn face_and_cube(face_id: f32) -> (u32, u32) {
    let id = super::coord::array_slice(face_id, u32::MAX >> 8);
    ((id % 8).min(5), id / 8)
}

/// Direction (x, y, z) of face coordinates (sc, tc) on `face` at major-axis
/// magnitude `ma` (the inverse of the GL/Vulkan face-selection table:
/// +X: sc = −z, tc = −y; −X: sc = z, tc = −y; +Y: sc = x, tc = z; −Y: sc = x,
/// tc = −z; +Z: sc = x, tc = −y; −Z: sc = −x, tc = −y).
///
/// WGSL twin: `cube_direction` in `shaders/sample.wgsl` (docs/gpu.md, "Twins").
fn direction(face: u32, sc: i64, tc: i64, ma: i64) -> [i64; 3] {
    match face {
        0 => [ma, -tc, -sc],
        1 => [-ma, -tc, sc],
        2 => [sc, ma, tc],
        3 => [sc, -ma, -tc],
        4 => [sc, -tc, ma],
        _ => [-sc, -tc, -ma],
    }
}

/// Face selection: the axis of the largest |component| and its sign, and the
/// (sc, tc) of that face per the same table.
///
/// WGSL twin: `cube_project` in `shaders/sample.wgsl` (docs/gpu.md, "Twins").
fn project(v: [i64; 3]) -> (u32, i64, i64) {
    let [x, y, z] = v;
    if x.abs() >= y.abs() && x.abs() >= z.abs() {
        if x >= 0 {
            (0, -z, -y)
        } else {
            (1, z, -y)
        }
    } else if y.abs() >= z.abs() {
        if y >= 0 {
            (2, x, z)
        } else {
            (3, x, -z)
        }
    } else if z >= 0 {
        (4, x, -y)
    } else {
        (5, -x, -y)
    }
}

/// The texel a footprint tap (x, y) of `face` (n × n texels) reads with
/// seamless filtering: itself when inside; the adjacent face's texel when one
/// coordinate is outside; `None` at a corner (both outside). Coordinates more
/// than one texel outside are first clamped to one texel outside.
///
/// Arithmetic in half-texel units: a texel centre x is `X = 2x + 1 − n`, the
/// face spans −n..n, so a tap one texel outside has |X| = n + 1 and wins the
/// face selection; on the new face, the old major axis (±n) is clamped to the
/// edge texel centre ±(n − 1).
///
/// WGSL twin: `seamless` in `shaders/sample.wgsl` (docs/gpu.md, "Twins").
pub fn seamless(face: u32, x: i32, y: i32, n: u32) -> Option<FaceTexel> {
    let n = i64::from(n.max(1));
    let x = i64::from(x).clamp(-1, n);
    let y = i64::from(y).clamp(-1, n);
    let (out_x, out_y) = (!(0..n).contains(&x), !(0..n).contains(&y));
    if out_x && out_y {
        return None;
    }
    if !out_x && !out_y {
        return Some(FaceTexel {
            face: face.min(5),
            x: x as u32,
            y: y as u32,
        });
    }
    let (sc, tc) = (2 * x + 1 - n, 2 * y + 1 - n);
    let (f, sc2, tc2) = project(direction(face.min(5), sc, tc, n));
    let index = |c: i64| ((c.clamp(1 - n, n - 1) + n - 1) / 2) as u32;
    Some(FaceTexel {
        face: f,
        x: index(sc2),
        y: index(tc2),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(face: u32, x: u32, y: u32) -> Option<FaceTexel> {
        Some(FaceTexel { face, x, y })
    }

    #[test]
    fn inside_is_itself_and_corners_are_none() {
        assert_eq!(seamless(2, 1, 3, 4), t(2, 1, 3));
        assert_eq!(seamless(0, -1, -1, 4), None);
        assert_eq!(seamless(5, 4, 4, 4), None);
    }

    /// Every edge of every face, derived from the face table: e.g. +Z's left
    /// edge (x = −1, direction −x) is −X's right column (sc = +z large).
    #[test]
    fn edges_map_to_the_adjacent_face() {
        let n = 4;
        // (face, x, y) → (face', x', y') for a tap one outside, row/column 1.
        let cases = [
            // +X (0): left (−1) → +Z right column; right (4) → −Z left column.
            ((0, -1, 1), t(4, 3, 1)),
            ((0, 4, 1), t(5, 0, 1)),
            // +X top (y = −1, direction +y) → +Y's right column (sc = x max), row 2:
            // tap (x=1) has sc = −1 → z = +1 on +X... re-projected to +Y: sc = x = n,
            // tc = z = 1 → x' = 3, y' = (1 + 3)/2 = 2.
            ((0, 1, -1), t(2, 3, 2)),
            // +X bottom (y = 4) → −Y's right column; tc = −z = −1 → y' = 1.
            ((0, 1, 4), t(3, 3, 1)),
            // −X (1): left → −Z right column; right → +Z left column.
            ((1, -1, 1), t(5, 3, 1)),
            ((1, 4, 1), t(4, 0, 1)),
            // +Y (2): top (tc = −n−1 → z = −5) → −Z top row; x: sc = x = −1 → −Z sc = 1 → x' = 2.
            ((2, 1, -1), t(5, 2, 0)),
            // +Y bottom (z = +5) → +Z top row, x' = 1.
            ((2, 1, 4), t(4, 1, 0)),
            // −Y (3): top (tc = −5 → z = +5) → +Z bottom row.
            ((3, 1, -1), t(4, 1, 3)),
            ((3, 1, 4), t(5, 2, 3)),
            // +Z (4): left → −X right; top → +Y bottom row.
            ((4, -1, 1), t(1, 3, 1)),
            ((4, 1, -1), t(2, 1, 3)),
            ((4, 1, 4), t(3, 1, 0)),
            // −Z (5): right (sc = 5 → x = −5) → −X left column.
            ((5, 4, 1), t(1, 0, 1)),
        ];
        for ((f, x, y), want) in cases {
            assert_eq!(seamless(f, x, y, n), want, "face {f} ({x}, {y})");
        }
    }

    /// Crossing an edge and coming back is the identity (adjacency is symmetric).
    #[test]
    fn edges_are_symmetric() {
        let n = 5;
        for face in 0..6 {
            for k in 0..n as i32 {
                for (x, y, dx, dy) in [
                    (-1, k, 1, 0),
                    (n as i32, k, -1, 0),
                    (k, -1, 0, 1),
                    (k, n as i32, 0, -1),
                ] {
                    let there = seamless(face, x, y, n).unwrap();
                    let back_from = (x + dx, y + dy); // the in-face texel next to the tap
                                                      // The neighbour of `there` on the far side must be the texel we came from.
                    let mut found = false;
                    for (ox, oy) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
                        let bx = there.x as i32 + ox;
                        let by = there.y as i32 + oy;
                        if (0..n as i32).contains(&bx) && (0..n as i32).contains(&by) {
                            continue;
                        }
                        if seamless(there.face, bx, by, n)
                            == t(face, back_from.0 as u32, back_from.1 as u32)
                        {
                            found = true;
                        }
                    }
                    assert!(found, "face {face} tap ({x}, {y}) → {there:?}");
                }
            }
        }
    }

    #[test]
    fn face_ids() {
        assert_eq!(face_and_cube(3.0), (3, 0));
        assert_eq!(face_and_cube(13.0), (5, 1));
        assert_eq!(face_and_cube(6.0), (5, 0));
        assert_eq!(face_and_cube(-2.0), (0, 0));
        assert_eq!(face_coordinate(1.25), 0.25);
    }
}
