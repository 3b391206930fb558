// sample_view.wgsl — the per-view half of the sampler: View::tap_value,
// footprint, sample_level and gather_level of src/cpu/sample/view.rs and the
// per-lane sample_lane / gather_lane of src/cpu/sample/mod.rs. WGSL has no
// function pointers, so this text is a template: the translator instantiates
// it once per (T#, S#) view with the word VIEW replaced by the view's name,
// next to the two things it defines for that view:
//
//   const VIEW: View = View(...);            // descriptor fields as constants
//   const VIEW_PLAIN: bool = ...;            // View::plain_footprint always applies
//   fn VIEW_texel(level: u32, slice: u32, x: u32, y: u32, z: u32) -> vec4<u32>
//                                            // fetch_raw + texel_value
//
// Texel values travel as f32 bits (raw integers for UINT/SINT images).

// View::tap_value: the border colour, or a fetched texel.
fn VIEW_tap_value(r: Resolved, level: u32) -> vec4<u32> {
    if r.kind == 1u {
        return VIEW.border;
    }
    return VIEW_texel(level, r.slice, r.x, r.y, r.z);
}

// View::footprint: every tap as (value, weight) in z, y, x order, compare
// applied; cube corners take the average of the footprint's other taps (their
// sum from 0.0 in order, divided by their count).
fn VIEW_footprint(level: u32, coords: vec4<u32>, taps: array<AxisTaps, 3>, cmp_on: bool, cmp_ref: u32) -> Footprint {
    let layer = view_layer(VIEW, coords);
    let linear = vec3<bool>(taps[0].count == 2u, taps[1].count == 2u, taps[2].count == 2u);
    var fp: Footprint;
    fp.count = 0u;
    var corners = 0u;
    for (var k = 0u; k < taps[2].count; k = k + 1u) {
        for (var j = 0u; j < taps[1].count; j = j + 1u) {
            for (var i = 0u; i < taps[0].count; i = i + 1u) {
                let ix = vec3<i32>(taps[0].index[i], taps[1].index[j], taps[2].index[k]);
                let w = taps[0].weight[i] * taps[1].weight[j] * taps[2].weight[k];
                let r = view_resolve(VIEW, level, layer, ix, linear);
                var t = vec4<u32>(0u);
                if r.kind == 2u {
                    corners = corners | (1u << fp.count);
                } else {
                    t = VIEW_tap_value(r, level);
                    if cmp_on {
                        t = vec4<u32>(depth_compare(VIEW.compare_func, cmp_ref, t.x));
                    }
                }
                fp.value[fp.count] = t;
                fp.weight[fp.count] = w;
                fp.count = fp.count + 1u;
            }
        }
    }
    if VIEW.cube && corners != 0u {
        var others = 0u;
        var sum = vec4<u32>(0u);
        for (var k = 0u; k < fp.count; k = k + 1u) {
            if ((corners >> k) & 1u) == 1u {
                continue;
            }
            sum = add_components(sum, fp.value[k], others == 0u);
            others = others + 1u;
        }
        let n = max(others, 1u);
        let avg = vec4<u32>(div_by_count(sum.x, n), div_by_count(sum.y, n), div_by_count(sum.z, n), div_by_count(sum.w, n));
        for (var k = 0u; k < fp.count; k = k + 1u) {
            if ((corners >> k) & 1u) == 1u {
                fp.value[k] = avg;
            }
        }
    }
    return fp;
}

// View::plain_footprint: the four bilinear taps of a plain view (VIEW_PLAIN:
// 2D or 2D array, float class, both XY filters linear, address modes without
// a border, so that every tap lands on a texel), as straight-line code with
// the general footprint's order, values and weights.
fn VIEW_plain_footprint(level: u32, coords: vec4<u32>, taps: array<AxisTaps, 3>) -> Footprint {
    let size = level_size(VIEW, level);
    let x0 = u32(wrap(clamp_mode(VIEW, 0u), taps[0].index.x, size.x, true));
    let x1 = u32(wrap(clamp_mode(VIEW, 0u), taps[0].index.y, size.x, true));
    let y0 = u32(wrap(clamp_mode(VIEW, 1u), taps[1].index.x, size.y, true));
    let y1 = u32(wrap(clamp_mode(VIEW, 1u), taps[1].index.y, size.y, true));
    let slice = view_layer(VIEW, coords).x;
    // The 2D footprint's z axis is single_tap(0): weight ONE.
    let wz = taps[2].weight.x;
    var fp: Footprint;
    fp.value[0] = VIEW_texel(level, slice, x0, y0, 0u);
    fp.weight[0] = taps[0].weight.x * taps[1].weight.x * wz;
    fp.value[1] = VIEW_texel(level, slice, x1, y0, 0u);
    fp.weight[1] = taps[0].weight.y * taps[1].weight.x * wz;
    fp.value[2] = VIEW_texel(level, slice, x0, y1, 0u);
    fp.weight[2] = taps[0].weight.x * taps[1].weight.y * wz;
    fp.value[3] = VIEW_texel(level, slice, x1, y1, 0u);
    fp.weight[3] = taps[0].weight.y * taps[1].weight.y * wz;
    fp.count = 4u;
    return fp;
}

// View::sample_level: one level's filtered value (float classes) or nearest
// texel (integers). VIEW_PLAIN is a constant and `cmp_on` one at every call
// site, so a plain view's module holds the plain footprint alone.
fn VIEW_sample_level(level: u32, linear_xy: bool, linear_z: bool, offset: u32, cmp_on: bool, cmp_ref: u32, coords: vec4<u32>) -> vec4<u32> {
    let taps = view_taps(VIEW, level, linear_xy, linear_z, offset, coords, 0u);
    if VIEW_PLAIN && !cmp_on {
        return combine(VIEW_plain_footprint(level, coords, taps), VIEW.filter_mode);
    }
    let fp = VIEW_footprint(level, coords, taps, cmp_on, cmp_ref);
    if VIEW.integer && !cmp_on {
        return fp.value[0];
    }
    return combine(fp, VIEW.filter_mode);
}

// View::gather_level: the bilinear footprint's four texels in gather order.
fn VIEW_gather_level(level: u32, offset: u32, cmp_on: bool, cmp_ref: u32, coords: vec4<u32>, point_footprint: bool) -> array<vec4<u32>, 4> {
    var taps = view_taps(VIEW, level, true, false, offset, coords, 1u);
    let point = view_taps(VIEW, level, true, false, offset, coords, 2u);
    if point_footprint {
        for (var axis = 0u; axis < min(VIEW.axes, 2u); axis = axis + 1u) {
            taps[axis].index = vec2<i32>(point[axis].index.x, point[axis].index.x + 1);
        }
    }
    if VIEW.axes < 3u {
        taps[2] = single_tap(0);
    } else {
        taps[2] = point[2];
    }
    if VIEW.axes == 1u {
        taps[1] = AxisTaps(vec2<i32>(0, 0), vec2<u32>(128u, 128u), 2u);
    }
    let fp = VIEW_footprint(level, coords, taps, cmp_on, cmp_ref);
    return array<vec4<u32>, 4>(fp.value[2], fp.value[3], fp.value[1], fp.value[0]);
}

// sample_lane: one lane's IMAGE_SAMPLE result (X, Y, Z, W before DST_SEL):
// one or two mip levels, each one sample or the average of the anisotropic
// samples along the major derivative, then the blend of the levels. Written
// as loops around a single sample_level call, so that the driver (which
// inlines every call) compiles the footprint once per instruction.
fn VIEW_sample_lane(offset: u32, cmp_on: bool, cmp_ref: u32, coords: vec4<u32>, l: LaneLod) -> vec4<u32> {
    let f = view_filters(VIEW, l.clamped);
    let m = select_mips(l.clamped, f.w, VIEW.last_level);
    let linear_xy = f.x == 1u;
    let linear_z = f.y == 1u;
    let aniso = l.aniso_taps > 1u && f.z == 1u;
    let n = select(1u, l.aniso_taps, aniso);
    var levels: array<vec4<u32>, 2>;
    for (var li = 0u; li < select(1u, 2u, m.two); li = li + 1u) {
        var sum = vec4<u32>(0u);
        for (var k = 0u; k < n; k = k + 1u) {
            var c = coords;
            if aniso {
                let p = aniso_position(k, n);
                for (var a = 0u; a < VIEW.axes; a = a + 1u) {
                    let moved = bitcast<u32>(bitcast<f32>(fp_component(c, a)) + mul_rounded(bitcast<f32>(vec3_at(l.aniso_step, a)), p));
                    switch a {
                        case 0u: { c.x = moved; }
                        case 1u: { c.y = moved; }
                        default: { c.z = moved; }
                    }
                }
            }
            let s = VIEW_sample_level(m.lo + li, linear_xy, linear_z, offset, cmp_on, cmp_ref, c);
            sum = select(s, add_components(sum, s, k == 0u), aniso);
        }
        if aniso {
            // aniso_average: the sum divided by the count, flushed.
            sum = vec4<u32>(
                flush_denorm(div_by_count(sum.x, n)),
                flush_denorm(div_by_count(sum.y, n)),
                flush_denorm(div_by_count(sum.z, n)),
                flush_denorm(div_by_count(sum.w, n)),
            );
        }
        levels[li] = sum;
    }
    if !m.two {
        return levels[0];
    }
    return mip_blend(levels[0], levels[1], m.weight, VIEW.filter_mode);
}

// sample_lane_isotropic: sample_lane for a view whose S# asks for no
// anisotropy (lane_lod never gives it anisotropic taps): one sample per
// level, the second level blended into the first as it comes, with no
// array indexed by the level (which LLVM keeps in memory).
fn VIEW_sample_lane_isotropic(offset: u32, cmp_on: bool, cmp_ref: u32, coords: vec4<u32>, l: LaneLod) -> vec4<u32> {
    let f = view_filters(VIEW, l.clamped);
    let m = select_mips(l.clamped, f.w, VIEW.last_level);
    let linear_xy = f.x == 1u;
    let linear_z = f.y == 1u;
    var out = vec4<u32>(0u);
    for (var li = 0u; li < select(1u, 2u, m.two); li = li + 1u) {
        let s = VIEW_sample_level(m.lo + li, linear_xy, linear_z, offset, cmp_on, cmp_ref, coords);
        if li == 0u {
            out = s;
        } else {
            out = mip_blend(out, s, m.weight, VIEW.filter_mode);
        }
    }
    return out;
}

// gather_lane: one lane's four texels at the level a point-mipmapped sample
// would read.
fn VIEW_gather_lane(offset: u32, cmp_on: bool, cmp_ref: u32, coords: vec4<u32>, l: LaneLod, point_footprint: bool) -> array<vec4<u32>, 4> {
    let mipf = select(MIP_POINT, MIP_NONE, VIEW.mip_filter == MIP_NONE);
    let m = select_mips(l.clamped, mipf, VIEW.last_level);
    return VIEW_gather_level(m.lo, offset, cmp_on, cmp_ref, coords, point_footprint);
}
