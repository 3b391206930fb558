//! Rasterization of a draw's triangles (docs/draw.md, "Rasterization"):
//! viewport transform, snapping to 1/256 pixel, coverage by integer edge
//! functions at pixel centres with the top-left rule, and barycentrics.

/// Sub-pixel precision: window coordinates snap to 1/256 pixel (8 fractional
/// bits, the precision of AMD's and of llvmpipe's rasterizers).
pub const SUBPIXEL: f64 = 256.0;

/// A vertex in window space: x, y in pixels (y down), z in 0..1 after the
/// viewport, and the clip-space w.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Vertex {
    /// X, snapped, in 1/256 pixel.
    pub x: i64,
    /// Y, snapped, in 1/256 pixel.
    pub y: i64,
    /// Window-space z (z_clip / w_clip).
    pub z: f64,
    /// Clip-space w.
    pub w: f64,
}

/// The viewport transform of a clip-space position onto a `width` × `height`
/// target with depth range 0..1 (Vulkan: x_w = (x/w + 1) · width/2,
/// y_w = (y/w + 1) · height/2, z_w = z/w), snapped to 1/256 pixel with
/// ties away from zero. `None` for w ≤ 0 or a position that leaves ±2^20
/// pixels (no clipping is modelled: such triangles are refused).
pub fn to_window(p: [f32; 4], width: u32, height: u32) -> Option<Vertex> {
    let [x, y, z, w] = p.map(f64::from);
    // NaN fails this too.
    if w.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
        return None;
    }
    let xw = (x / w + 1.0) * f64::from(width) / 2.0;
    let yw = (y / w + 1.0) * f64::from(height) / 2.0;
    let lim = f64::from(1u32 << 20);
    if xw.abs().partial_cmp(&lim) != Some(std::cmp::Ordering::Less)
        || yw.abs().partial_cmp(&lim) != Some(std::cmp::Ordering::Less)
    {
        return None;
    }
    Some(Vertex {
        x: (xw * SUBPIXEL).round() as i64,
        y: (yw * SUBPIXEL).round() as i64,
        z: z / w,
        w,
    })
}

/// Twice the signed area of (a, b, p) in 1/256² pixel units: positive when p
/// lies to the right of a→b with y pointing down.
fn edge(a: &Vertex, b: &Vertex, px: i64, py: i64) -> i64 {
    (b.x - a.x) * (py - a.y) - (b.y - a.y) * (px - a.x)
}

/// Whether a pixel-centre sample exactly on edge a→b belongs to the
/// triangle: the top-left rule, for a triangle wound so that its inside has
/// positive edge functions. A left edge goes up (dy < 0: the inside lies to
/// its right); a top edge is horizontal going right (the inside lies below).
fn top_left(a: &Vertex, b: &Vertex) -> bool {
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    dy < 0 || (dy == 0 && dx > 0)
}

/// A triangle ready to sample: vertices in draw order and the edge functions'
/// orientation.
#[derive(Clone, Copy, Debug)]
pub struct Triangle {
    /// Vertices 0, 1, 2 as drawn (vertex 0 provokes flat attributes).
    pub v: [Vertex; 3],
    /// Twice the signed area (`edge(v0, v1, v2)`).
    area: i64,
}

impl Triangle {
    /// A triangle, or `None` when it is degenerate (zero area: nothing drawn).
    pub fn new(v: [Vertex; 3]) -> Option<Triangle> {
        let area = edge(&v[0], &v[1], v[2].x, v[2].y);
        (area != 0).then_some(Triangle { v, area })
    }

    /// The edge functions opposite vertices 0, 1, 2 at the centre of pixel
    /// (px, py), signed so that they are positive inside.
    fn edges(&self, px: u32, py: u32) -> [i64; 3] {
        let cx = (i64::from(px) << 8) + 128;
        let cy = (i64::from(py) << 8) + 128;
        let s = self.area.signum();
        let [a, b, c] = &self.v;
        [
            s * edge(b, c, cx, cy),
            s * edge(c, a, cx, cy),
            s * edge(a, b, cx, cy),
        ]
    }

    /// Whether the centre of pixel (px, py) is covered: inside every edge,
    /// or on an edge that is top or left.
    pub fn covers(&self, px: u32, py: u32) -> bool {
        let e = self.edges(px, py);
        let [a, b, c] = &self.v;
        // Edges in the inside-positive winding: for a negative area, b→a.
        let pairs = if self.area > 0 {
            [(b, c), (c, a), (a, b)]
        } else {
            [(c, b), (a, c), (b, a)]
        };
        e.iter()
            .zip(pairs)
            .all(|(&e, (p, q))| e > 0 || (e == 0 && top_left(p, q)))
    }

    /// The pixels whose centres lie in the bounding box, clipped to the
    /// target (a superset of the covered pixels).
    pub fn bounds(&self, width: u32, height: u32) -> Option<(u32, u32, u32, u32)> {
        let lo = |f: fn(&Vertex) -> i64| self.v.iter().map(f).min().unwrap_or(0);
        let hi = |f: fn(&Vertex) -> i64| self.v.iter().map(f).max().unwrap_or(0);
        let px = |s: i64| (s >> 8).clamp(0, i64::from(u32::MAX)) as u32;
        let (x0, y0) = (px(lo(|v| v.x)), px(lo(|v| v.y)));
        let (x1, y1) = (px(hi(|v| v.x)), px(hi(|v| v.y)));
        if x0 >= width || y0 >= height {
            return None;
        }
        Some((x0, y0, x1.min(width - 1), y1.min(height - 1)))
    }

    /// Screen-space barycentric weights (λ0, λ1, λ2) at the centre of pixel
    /// (px, py), in f64: each edge function over the area. Helper pixels
    /// outside the triangle get the extrapolated weights.
    pub fn linear(&self, px: u32, py: u32) -> [f64; 3] {
        let e = self.edges(px, py);
        let a = self.area.abs() as f64;
        e.map(|e| e as f64 / a)
    }

    /// The hardware's barycentric pair (I, J) — the weights of vertices 1
    /// and 2, vertex 0 taking the rest — at the centre of pixel (px, py):
    /// screen-linear for LINEAR_*, perspective-correct for PERSP_*
    /// (λk/wk normalised), computed in f64 and rounded once to f32.
    pub fn ij(&self, px: u32, py: u32, perspective: bool) -> [f32; 2] {
        let l = self.linear(px, py);
        let l = if perspective {
            let q = [l[0] / self.v[0].w, l[1] / self.v[1].w, l[2] / self.v[2].w];
            let sum = q[0] + q[1] + q[2];
            q.map(|x| x / sum)
        } else {
            l
        };
        [l[1] as f32, l[2] as f32]
    }

    /// Whether the triangle faces front under Vulkan's default
    /// (counter-clockwise): Vulkan's signed area, −½ Σ (x_i y_{i+1} −
    /// x_{i+1} y_i) in framebuffer coordinates, is positive — the opposite
    /// sign of `edge`'s.
    pub fn front_facing(&self) -> bool {
        self.area < 0
    }

    /// Window-space z at the centre of pixel (px, py), interpolated
    /// screen-linearly, rounded to f32.
    pub fn z(&self, px: u32, py: u32) -> f32 {
        let l = self.linear(px, py);
        (l[0] * self.v[0].z + l[1] * self.v[1].z + l[2] * self.v[2].z) as f32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(x: f64, y: f64) -> Vertex {
        Vertex {
            x: (x * SUBPIXEL) as i64,
            y: (y * SUBPIXEL) as i64,
            z: 0.0,
            w: 1.0,
        }
    }

    /// Two triangles sharing a diagonal, and a fan of four around a centre
    /// on a pixel centre: every pixel of the square is drawn exactly once.
    #[test]
    fn shared_edges_draw_each_pixel_once() {
        let (a, b, c, d) = (v(0.0, 0.0), v(8.0, 0.0), v(8.0, 8.0), v(0.0, 8.0));
        let m = v(4.5, 4.5);
        for tris in [
            vec![[a, b, c], [a, c, d]],
            vec![[a, c, b], [d, c, a]],
            vec![[a, b, m], [b, c, m], [c, d, m], [d, a, m]],
        ] {
            let tris: Vec<Triangle> = tris.into_iter().filter_map(Triangle::new).collect();
            for py in 0..8 {
                for px in 0..8 {
                    let n = tris.iter().filter(|t| t.covers(px, py)).count();
                    assert_eq!(n, 1, "pixel ({px}, {py})");
                }
            }
        }
    }

    /// A pixel centre on a top edge is drawn, on a bottom edge it is not; on
    /// a left edge drawn, on a right edge not.
    #[test]
    fn top_left_rule() {
        // The square of pixel centres 0.5..=3.5 exactly on its edges.
        let (a, b, c, d) = (v(0.5, 0.5), v(3.5, 0.5), v(3.5, 3.5), v(0.5, 3.5));
        let t = [
            Triangle::new([a, b, c]).unwrap(),
            Triangle::new([a, c, d]).unwrap(),
        ];
        let covered = |px, py| t.iter().any(|t| t.covers(px, py));
        assert!(covered(1, 0), "top edge");
        assert!(!covered(1, 3), "bottom edge");
        assert!(covered(0, 1), "left edge");
        assert!(!covered(3, 1), "right edge");
    }

    /// Barycentrics against exact rational arithmetic: with vertices on
    /// 1/256 positions the edge functions are exact integers, so λ is a ratio
    /// of integers and f64 holds it to within one rounding.
    #[test]
    fn barycentrics_are_exact_ratios() {
        let t = Triangle::new([v(0.0, 0.0), v(16.0, 0.0), v(0.0, 16.0)]).unwrap();
        let l = t.linear(3, 5);
        // Centre (3.5, 5.5): λ1 = 3.5/16, λ2 = 5.5/16, λ0 = 7/16.
        assert_eq!(l, [7.0 / 16.0, 3.5 / 16.0, 5.5 / 16.0]);
        assert_eq!(t.ij(3, 5, false), [3.5 / 16.0, 5.5 / 16.0]);
        // Perspective with w = (1, 2, 4): q = (7/16, 3.5/32, 5.5/64).
        let mut p = t;
        p.v[1].w = 2.0;
        p.v[2].w = 4.0;
        let q = [7.0 / 16.0, 3.5 / 32.0, 5.5 / 64.0];
        let s: f64 = q.iter().sum();
        assert_eq!(p.ij(3, 5, true), [(q[1] / s) as f32, (q[2] / s) as f32]);
    }

    #[test]
    fn viewport_and_refusals() {
        let w = to_window([0.0, 0.0, 0.5, 2.0], 32, 16).unwrap();
        assert_eq!((w.x, w.y, w.z, w.w), (16 * 256, 8 * 256, 0.25, 2.0));
        assert!(to_window([0.0, 0.0, 0.0, 0.0], 32, 16).is_none());
        assert!(to_window([1e30, 0.0, 0.0, 1.0], 32, 16).is_none());
        assert!(Triangle::new([v(0.0, 0.0), v(1.0, 1.0), v(2.0, 2.0)]).is_none());
    }
}
