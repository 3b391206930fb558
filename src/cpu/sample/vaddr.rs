//! The address VGPRs of a sample, gather4 or get_lod, by role
//! (research/sampling.md §4.1; CLRX's MIMG page, "Suffix instruction meaning"):
//!
//! `{offset} {bias} {z-compare} {derivatives} {body} {lod | clamp}`
//!
//! - offset (`_o`): one dword of packed 6-bit texel offsets;
//! - bias (`_b`): one f32;
//! - z-compare (`_c`): one f32, the depth reference;
//! - derivatives (`_d`, `_cd`): d/dh then d/dv of each spatial axis — 1D: 2
//!   dwords, 2D and cube: 4 (ds/dh, dt/dh, ds/dv, dt/dv), 3D: 6;
//! - body: the coordinates — s; s, slice; s, t; s, t, slice; s, t, r; and for
//!   cubes s', t', face_id (8 × cube + face);
//! - lod (`_l`) or clamp (`_cl`): one f32.

use crate::gcn::mimg_ops::{flag, MimgOp};
use crate::texture::descriptor::ImageType;

/// The shape of an image type as the sampler sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Spatial axes with a coordinate and a derivative: 1, 2 or 3.
    pub axes: usize,
    /// True when the body ends with a slice (arrays) or face id (cubes).
    pub layered: bool,
    /// True for cube maps.
    pub cube: bool,
}

impl Shape {
    /// The shape of a (non-MSAA) image type; `None` for MSAA types, which
    /// cannot be sampled.
    pub fn of(t: ImageType) -> Option<Shape> {
        let s = |axes, layered, cube| {
            Some(Shape {
                axes,
                layered,
                cube,
            })
        };
        match t {
            ImageType::D1 => s(1, false, false),
            ImageType::D1Array => s(1, true, false),
            ImageType::D2 => s(2, false, false),
            ImageType::D2Array => s(2, true, false),
            ImageType::D3 => s(3, false, false),
            ImageType::Cube => s(2, true, true),
            ImageType::D2Msaa | ImageType::D2MsaaArray => None,
        }
    }

    /// Dwords of the body.
    pub fn body(&self) -> usize {
        self.axes + usize::from(self.layered)
    }
}

/// Which optional operands an opcode has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// `_o`.
    pub offset: bool,
    /// `_b`.
    pub bias: bool,
    /// `_c`.
    pub compare: bool,
    /// `_d` / `_cd`.
    pub derivatives: bool,
    /// `_l` or `_cl`: one dword after the body.
    pub trailing: bool,
    /// The image shape.
    pub shape: Shape,
}

/// One lane's address operands, decoded by role.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Operands {
    /// Packed texel offsets (0 without `_o`).
    pub offset: u32,
    /// LOD bias (`_b`).
    pub bias: f32,
    /// Depth reference (`_c`).
    pub reference: f32,
    /// d(s, t, r)/dh (`_d`, `_cd`).
    pub ddx: [f32; 3],
    /// d(s, t, r)/dv.
    pub ddy: [f32; 3],
    /// The body: spatial coordinates, then the slice or face id.
    pub coords: [f32; 4],
    /// The `_l` LOD or `_cl` clamp.
    pub trailing: f32,
}

impl Layout {
    /// The layout of `op` on an image of `shape`.
    pub fn new(op: &MimgOp, shape: Shape) -> Layout {
        Layout {
            offset: op.has(flag::O),
            bias: op.has(flag::B),
            compare: op.has(flag::C),
            derivatives: op.gradients(),
            trailing: op.has(flag::L) || op.has(flag::CL),
            shape,
        }
    }

    /// Number of address dwords.
    pub fn dwords(&self) -> usize {
        usize::from(self.offset)
            + usize::from(self.bias)
            + usize::from(self.compare)
            + if self.derivatives {
                2 * self.shape.axes
            } else {
                0
            }
            + self.shape.body()
            + usize::from(self.trailing)
    }

    /// Splits a lane's address dwords (`a(k)` = dword k) into operands.
    pub fn read(&self, a: impl Fn(usize) -> u32) -> Operands {
        let f = |k: usize| f32::from_bits(a(k));
        let mut k = 0;
        let mut next = || {
            k += 1;
            k - 1
        };
        let mut o = Operands::default();
        if self.offset {
            o.offset = a(next());
        }
        if self.bias {
            o.bias = f(next());
        }
        if self.compare {
            o.reference = f(next());
        }
        if self.derivatives {
            for axis in 0..self.shape.axes {
                o.ddx[axis] = f(next());
            }
            for axis in 0..self.shape.axes {
                o.ddy[axis] = f(next());
            }
        }
        for c in 0..self.shape.body() {
            o.coords[c] = f(next());
        }
        if self.trailing {
            o.trailing = f(next());
        }
        o
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gcn::mimg_ops::by_name;

    fn layout(name: &str, t: ImageType) -> Layout {
        Layout::new(by_name(name).unwrap(), Shape::of(t).unwrap())
    }

    /// Address counts from CLRX's VADDR ranges (2D: `image_sample_c_d_cl_o`
    /// VADDR(6:13) = offset, compare, 4 derivatives, s, t, clamp = 9 for 2D).
    #[test]
    fn dword_counts() {
        assert_eq!(layout("image_sample", ImageType::D2).dwords(), 2);
        assert_eq!(layout("image_sample_lz", ImageType::D1).dwords(), 1);
        assert_eq!(layout("image_sample_c_d_cl_o", ImageType::D2).dwords(), 9);
        assert_eq!(layout("image_sample_d", ImageType::D3).dwords(), 9);
        assert_eq!(layout("image_sample_cd_cl", ImageType::Cube).dwords(), 8);
        assert_eq!(
            layout("image_gather4_c_b_cl_o", ImageType::D2Array).dwords(),
            7
        );
        assert_eq!(layout("image_get_lod", ImageType::D2).dwords(), 2);
    }

    #[test]
    fn operands_in_order() {
        // image_sample_c_b_o on 2D: offset, bias, reference, s, t.
        let l = layout("image_sample_c_b_o", ImageType::D2);
        let words = [
            0x3f,
            2.0f32.to_bits(),
            0.5f32.to_bits(),
            0.25f32.to_bits(),
            0.75f32.to_bits(),
        ];
        let o = l.read(|k| words[k]);
        assert_eq!(o.offset, 0x3f);
        assert_eq!((o.bias, o.reference), (2.0, 0.5));
        assert_eq!(o.coords, [0.25, 0.75, 0.0, 0.0]);
        // image_sample_d_cl on 3D: dx/dh, dy/dh, dz/dh, dx/dv, dy/dv, dz/dv, s, t, r, clamp.
        let l = layout("image_sample_d_cl", ImageType::D3);
        let o = l.read(|k| (k as f32 + 1.0).to_bits());
        assert_eq!(o.ddx, [1.0, 2.0, 3.0]);
        assert_eq!(o.ddy, [4.0, 5.0, 6.0]);
        assert_eq!(o.coords, [7.0, 8.0, 9.0, 0.0]);
        assert_eq!(o.trailing, 10.0);
    }
}
