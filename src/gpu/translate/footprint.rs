//! A sampling view's footprint as straight-line code, where the view fixes
//! how many taps each axis takes.
//!
//! `shaders/sample_view.wgsl`'s `VIEW_footprint` is `View::footprint`: loops
//! over each axis's run-time tap count that index the footprint's arrays by
//! a counter. LLVM builds such arrays in memory, and lavapipe took about
//! half a second to build one sample of a view through it (a 1D point
//! sample: 0.7 s for a module of two, 0.18 s with this function). Most views
//! fix the counts: not a cube map (whose corners the general function
//! averages), and one XY filter for magnification and minification (integer
//! formats always point). For those the translator writes
//! `VIEW_fixed_footprint` — the same taps, values and weights in the same
//! order, each at a constant index — and `VIEW_sample_level` calls it
//! instead ([`GENERAL_CALL`]). A gather's footprint is 2 × 2 × 1 taps on
//! every view but a cube map: `VIEW_gather_level` calls such a
//! `VIEW_gather_footprint` ([`GATHER_CALL`]) — except on a block-compressed
//! view, whose texel is a whole block's decode: four unrolled copies of it
//! cost the driver more than the loop's one.

use std::fmt::Write as _;

/// The call of the general footprint in the template's `VIEW_sample_level`.
pub(super) const GENERAL_CALL: &str =
    "let fp = VIEW_footprint(level, coords, taps, cmp_on, cmp_ref);\n    if VIEW.integer";

/// [`GENERAL_CALL`] for a view with fixed counts.
pub(super) const FIXED_CALL: &str =
    "let fp = VIEW_fixed_footprint(level, coords, taps, cmp_on, cmp_ref);\n    if VIEW.integer";

/// The call of the general footprint in the template's `VIEW_gather_level`.
pub(super) const GATHER_CALL: &str =
    "let fp = VIEW_footprint(level, coords, taps, cmp_on, cmp_ref);\n    return array";

/// [`GATHER_CALL`] for a view that is neither a cube map nor
/// block-compressed.
pub(super) const FIXED_GATHER_CALL: &str =
    "let fp = VIEW_gather_footprint(level, coords, taps, cmp_on, cmp_ref);\n    return array";

/// A gather's taps on each axis: `gather_level` makes X and Y two taps
/// whatever the filters (a 1D view's Y included) and Z one, so every view
/// but a cube map gathers through [`fixed_footprint`] of these.
pub(super) const GATHER_COUNTS: [u32; 3] = [2, 2, 1];

/// The taps of each axis (X, Y, Z) every sample of a view takes, when the
/// view fixes them: `view_filters` gives a constant linear XY filter (an
/// integer format's is point; else magnification and minification agree),
/// linear Z follows it unless the S#'s Z filter overrides it, and an axis
/// the shape lacks takes one tap (`view_taps`). `None` for cube maps.
/// `filters` are the S#'s XY_MAG_FILTER, XY_MIN_FILTER and Z_FILTER.
pub(super) fn fixed_counts(
    axes: usize,
    cube: bool,
    integer: bool,
    filters: [u8; 3],
) -> Option<[u32; 3]> {
    let [mag, min, z_filter] = filters;
    if cube {
        return None;
    }
    let (linear_xy, linear_z) = if integer {
        (false, false)
    } else {
        if mag & 1 != min & 1 {
            return None;
        }
        let xy = mag & 1 == 1;
        let z = match z_filter {
            1 => false,
            2 => true,
            _ => xy,
        };
        (xy, z)
    };
    let n = |present: bool, linear: bool| if present && linear { 2 } else { 1 };
    Some([
        n(true, linear_xy),
        n(axes >= 2, linear_xy),
        n(axes >= 3, linear_z),
    ])
}

/// `VIEW_{name}` for the tap counts `counts` ([`fixed_counts`],
/// [`GATHER_COUNTS`]): `VIEW_footprint`'s loops unrolled, in its z, y, x
/// order.
pub(super) fn fixed_footprint(name: &str, counts: [u32; 3]) -> String {
    let [nx, ny, nz] = counts;
    let lane = |i: u32| if i == 0 { "x" } else { "y" };
    let mut s = String::from(
        "\n// View::footprint for fixed tap counts (gpu::translate::footprint):\n// straight-line, each tap at a constant index.\n",
    );
    writeln!(
        s,
        "fn VIEW_{name}(level: u32, coords: vec4<u32>, taps: array<AxisTaps, 3>, cmp_on: bool, cmp_ref: u32) -> Footprint {{\n    let layer = view_layer(VIEW, coords);"
    )
    .ok();
    writeln!(
        s,
        "    let linear = vec3<bool>({}, {}, {});\n    var fp: Footprint;",
        nx == 2,
        ny == 2,
        nz == 2
    )
    .ok();
    let mut n = 0;
    for k in 0..nz {
        for j in 0..ny {
            for i in 0..nx {
                let (x, y, z) = (lane(i), lane(j), lane(k));
                writeln!(
                    s,
                    "    {{\n        let r = view_resolve(VIEW, level, layer, vec3<i32>(taps[0].index.{x}, taps[1].index.{y}, taps[2].index.{z}), linear);\n        var t = VIEW_tap_value(r, level);\n        if cmp_on {{\n            t = vec4<u32>(depth_compare(VIEW.compare_func, cmp_ref, t.x));\n        }}\n        fp.value[{n}] = t;\n        fp.weight[{n}] = taps[0].weight.{x} * taps[1].weight.{y} * taps[2].weight.{z};\n    }}"
                )
                .ok();
                n += 1;
            }
        }
    }
    writeln!(s, "    fp.count = {n}u;\n    return fp;\n}}").ok();
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE_VIEW: &str = include_str!("../../../shaders/sample_view.wgsl");

    #[test]
    fn the_template_calls_the_general_footprint_once_in_sample_level_and_gather_level() {
        assert_eq!(SAMPLE_VIEW.matches(GENERAL_CALL).count(), 1);
        assert_eq!(SAMPLE_VIEW.matches(GATHER_CALL).count(), 1);
        let level = SAMPLE_VIEW.find("fn VIEW_sample_level(").unwrap();
        let gather = SAMPLE_VIEW.find("fn VIEW_gather_level(").unwrap();
        let lane = SAMPLE_VIEW.find("fn VIEW_sample_lane(").unwrap();
        let call = SAMPLE_VIEW.find(GENERAL_CALL).unwrap();
        let gather_call = SAMPLE_VIEW.find(GATHER_CALL).unwrap();
        assert!(level < call && call < gather);
        assert!(gather < gather_call && gather_call < lane);
    }

    #[test]
    fn counts_follow_the_filters_and_the_shape() {
        let bilinear = [1, 1, 0];
        assert_eq!(fixed_counts(2, false, false, bilinear), Some([2, 2, 1]));
        assert_eq!(fixed_counts(3, false, false, bilinear), Some([2, 2, 2]));
        assert_eq!(fixed_counts(3, false, false, [1, 1, 1]), Some([2, 2, 1]));
        assert_eq!(fixed_counts(3, false, false, [0, 0, 2]), Some([1, 1, 2]));
        assert_eq!(fixed_counts(1, false, false, bilinear), Some([2, 1, 1]));
        // Integers point; cube maps and mixed filters are not fixed.
        assert_eq!(fixed_counts(2, false, true, bilinear), Some([1, 1, 1]));
        assert_eq!(fixed_counts(2, true, false, bilinear), None);
        assert_eq!(fixed_counts(2, false, false, [1, 0, 0]), None);
        // Anisotropic filters (2, 3) keep their linear bit.
        assert_eq!(fixed_counts(2, false, false, [3, 1, 0]), Some([2, 2, 1]));
    }

    #[test]
    fn the_unrolled_footprint_indexes_every_tap() {
        let f = fixed_footprint("fixed_footprint", [2, 2, 1]);
        assert!(f.contains("fn VIEW_fixed_footprint("));
        assert_eq!(f.matches("view_resolve(").count(), 4);
        assert!(f.contains("fp.value[3] = t;"));
        assert!(f.contains("taps[0].index.y, taps[1].index.y, taps[2].index.x"));
        assert!(f.contains("fp.count = 4u;"));
        assert!(f.contains("vec3<bool>(true, true, false)"));
    }
}
