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
//!
//! **16-bit operands** (docs/semantics.md, "A16 and G16"). With A16 (gfx9 bit
//! 15, gfx10 bit 62) the body and the lod/clamp are f16, packed two per dword
//! in order, the first in the low half, an odd last one alone in the low half
//! of its dword; the bias is an f16 in the low half of its own dword; the
//! offset and the z-compare stay 32-bit (LLVM `AMDGPULegalizerInfo.cpp`
//! `packImage16bitOpsToDwords`, SIISelLowering `lowerImage`; Mesa ACO
//! `visit_tex`, which packs the bias alone and asserts 32-bit offset and
//! comparator). The derivatives are 16-bit with the `_g16` opcodes (gfx10.3)
//! and, on gfx9, which has no G16, whenever A16 is set (LLVM rejects A16 ≠ G16
//! where `!hasG16()`; `FeatureG16` is part of `FeatureGFX10`, so on gfx10 A16
//! alone leaves them 32-bit — llvm-mc-19 counts `image_sample_d … dim:2D a16`
//! as 5 dwords). 16-bit derivatives pack the d/dh group and then the d/dv
//! group, each padded to whole dwords: 1D (dx/dh), (dx/dv); 2D (dx/dh,
//! dy/dh), (dx/dv, dy/dv); 3D (dx/dh, dy/dh), (dz/dh), (dx/dv, dy/dv), (dz/dv).
//! NSA forms list the packed dwords, one VGPR each.

use crate::arch::Gen;
use crate::gcn::mimg::Mimg;
use crate::gcn::mimg_ops::{flag, MimgOp};
use crate::texture::convert::f16_to_f32;
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

/// Which optional operands an opcode has, and which of them are 16-bit.
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
    /// `_l` or `_cl`: one operand after the body.
    pub trailing: bool,
    /// The image shape.
    pub shape: Shape,
    /// A16: body, lod/clamp and bias are f16.
    pub a16: bool,
    /// The derivatives are f16 (see [`gradients_16`]).
    pub g16: bool,
}

/// Where in its dword an operand lies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Part {
    /// The whole dword (32-bit operands).
    Full,
    /// Bits 15:0 (an f16).
    Low,
    /// Bits 31:16 (an f16).
    High,
}

/// What an address operand is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// The packed texel offsets (`_o`).
    Offset,
    /// The LOD bias (`_b`).
    Bias,
    /// The depth reference (`_c`).
    Reference,
    /// d/dh of an axis.
    Ddx(usize),
    /// d/dv of an axis.
    Ddy(usize),
    /// Body component k: the spatial coordinates, then the slice or face id.
    Coord(usize),
    /// The `_l` LOD or `_cl` clamp.
    Trailing,
}

/// One operand: its role, the address dword that holds it and the part.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    /// The operand.
    pub role: Role,
    /// Index of the address dword (the k-th VGPR of the address).
    pub dword: usize,
    /// Which bits of the dword.
    pub part: Part,
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

/// True when the derivatives of a gradient op are 16-bit: the `_g16` opcodes,
/// and A16 on gfx9, where gradients follow the address width because the
/// generation has no G16 control (LLVM `legalizeImageIntrinsic`: "16 bit
/// gradients are supported, but are tied to the A16 control"; `FeatureG16` is
/// in `FeatureGFX10`, not in gfx9's features).
pub fn gradients_16(op: &MimgOp, a16: bool, gen: Gen) -> bool {
    op.has(flag::G16) || (a16 && gen < Gen::Gfx10)
}

/// An f16 address operand as the sampler reads it: exact conversion to f32
/// (`f16_to_f32`), except that a denormal f16 is flushed to a zero of its sign,
/// as every f32 sampler input is (`coord::flush_denorm`; "sample operations
/// flush denormals", RDNA3 ISA §10.4.2 — read here as applying to the operand
/// in its own format, a documented choice: the hardware's f16 path is not
/// public).
pub fn half_input(h: u16) -> f32 {
    if h & 0x7c00 == 0 {
        if h & 0x8000 != 0 {
            -0.0
        } else {
            0.0
        }
    } else {
        f16_to_f32(h)
    }
}

/// Assigns dwords to runs of operands.
#[derive(Default)]
struct Packer {
    slots: Vec<Slot>,
    next: usize,
}

impl Packer {
    /// A run of operands that start a new dword: 32-bit ones one per dword;
    /// f16 ones two per dword, low half first, an odd last one alone in the low
    /// half (the high half is padding the sampler ignores).
    fn run(&mut self, roles: &[Role], half: bool) {
        for (i, &role) in roles.iter().enumerate() {
            let (dword, part) = match (half, i % 2) {
                (false, _) => (self.next + i, Part::Full),
                (true, 0) => (self.next + i / 2, Part::Low),
                (true, _) => (self.next + i / 2, Part::High),
            };
            self.slots.push(Slot { role, dword, part });
        }
        self.next += if half {
            roles.len().div_ceil(2)
        } else {
            roles.len()
        };
    }
}

impl Layout {
    /// The 32-bit layout of `op` on an image of `shape`.
    pub fn new(op: &MimgOp, shape: Shape) -> Layout {
        Layout {
            offset: op.has(flag::O),
            bias: op.has(flag::B),
            compare: op.has(flag::C),
            derivatives: op.gradients(),
            trailing: op.has(flag::L) || op.has(flag::CL),
            shape,
            a16: false,
            g16: false,
        }
    }

    /// The layout of instruction `m` on an image of `shape`: its A16 bit and
    /// its derivative width ([`gradients_16`]).
    pub fn of(m: &Mimg, shape: Shape) -> Layout {
        Layout {
            a16: m.raw.a16,
            g16: m.op.gradients() && gradients_16(m.op, m.raw.a16, m.gen),
            ..Layout::new(m.op, shape)
        }
    }

    /// Every operand in address order with its dword and part: the layout as
    /// data, read by the CPU ([`Layout::read`]) and the WGSL translator alike.
    pub fn slots(&self) -> Vec<Slot> {
        let mut p = Packer::default();
        if self.offset {
            p.run(&[Role::Offset], false);
        }
        if self.bias {
            // An f16 bias still has a dword of its own (LLVM: "Bias is of type
            // half but occupies full 32-bit").
            p.run(&[Role::Bias], self.a16);
        }
        if self.compare {
            p.run(&[Role::Reference], false);
        }
        if self.derivatives {
            let axes = self.shape.axes;
            p.run(&(0..axes).map(Role::Ddx).collect::<Vec<_>>(), self.g16);
            p.run(&(0..axes).map(Role::Ddy).collect::<Vec<_>>(), self.g16);
        }
        let mut tail: Vec<Role> = (0..self.shape.body()).map(Role::Coord).collect();
        if self.trailing {
            tail.push(Role::Trailing);
        }
        p.run(&tail, self.a16);
        p.slots
    }

    /// Number of address dwords.
    pub fn dwords(&self) -> usize {
        self.slots().last().map_or(0, |s| s.dword + 1)
    }

    /// Splits a lane's address dwords (`a(k)` = dword k) into operands.
    pub fn read(&self, a: impl Fn(usize) -> u32) -> Operands {
        let mut o = Operands::default();
        for s in self.slots() {
            let d = a(s.dword);
            let bits = match s.part {
                Part::Full => d,
                Part::Low => half_input(d as u16).to_bits(),
                Part::High => half_input((d >> 16) as u16).to_bits(),
            };
            let f = f32::from_bits(bits);
            match s.role {
                Role::Offset => o.offset = bits,
                Role::Bias => o.bias = f,
                Role::Reference => o.reference = f,
                Role::Ddx(k) => o.ddx[k] = f,
                Role::Ddy(k) => o.ddy[k] = f,
                Role::Coord(k) => o.coords[k] = f,
                Role::Trailing => o.trailing = f,
            }
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

    fn layout16(name: &str, t: ImageType, a16: bool, gen: Gen) -> Layout {
        let op = by_name(name).unwrap();
        Layout {
            a16,
            g16: op.gradients() && gradients_16(op, a16, gen),
            ..Layout::new(op, Shape::of(t).unwrap())
        }
    }

    /// A16/G16 address counts, each the count llvm-mc-19 accepts for gfx1030
    /// (`image address size does not match dim and a16` otherwise; the full
    /// sweep is tests/sample_a16.rs), and gfx9's gradients that follow A16.
    #[test]
    fn dword_counts_16bit() {
        use ImageType::*;
        let g10 = Gen::Gfx10;
        // offset, bias (f16 alone), compare, (s, t).
        assert_eq!(layout16("image_sample_c_b_o", D2, true, g10).dwords(), 4);
        // (s, t), (slice, lod); 1D: (s, lod).
        assert_eq!(layout16("image_sample_l", D2Array, true, g10).dwords(), 2);
        assert_eq!(layout16("image_sample_l", D1, true, g10).dwords(), 1);
        // gfx10 A16 alone: 4 f32 derivatives + (s, t).
        assert_eq!(layout16("image_sample_d", D2, true, g10).dwords(), 5);
        assert_eq!(layout16("image_sample_d_cl", D3, true, g10).dwords(), 8);
        // _g16: 2D (dx, dy/dh), (dx, dy/dv); 1D and 3D pad each group.
        assert_eq!(layout16("image_sample_d_g16", D2, false, g10).dwords(), 4);
        assert_eq!(layout16("image_sample_d_g16", D2, true, g10).dwords(), 3);
        assert_eq!(layout16("image_sample_d_g16", D1, false, g10).dwords(), 3);
        assert_eq!(layout16("image_sample_d_g16", D1, true, g10).dwords(), 3);
        assert_eq!(layout16("image_sample_d_g16", D3, false, g10).dwords(), 7);
        assert_eq!(layout16("image_sample_d_g16", D3, true, g10).dwords(), 6);
        // gfx9: A16 packs the derivatives too.
        assert_eq!(layout16("image_sample_d", D3, true, Gen::Gfx9).dwords(), 6);
        assert_eq!(layout16("image_sample_cd", D1, true, Gen::Gfx9).dwords(), 3);
        assert_eq!(layout16("image_sample_d", D2, false, Gen::Gfx9).dwords(), 6);
        // Cube: (s', t'), (face, lod).
        assert_eq!(layout16("image_gather4_l", Cube, true, g10).dwords(), 2);
    }

    #[test]
    fn a16_operands_in_order() {
        // image_sample_c_b_cl_o on a 2D array, A16: offset (32), bias (f16 in
        // the low half; the high half is padding), reference (32), (s, t),
        // (slice, clamp).
        let l = layout16("image_sample_c_b_cl_o", ImageType::D2Array, true, Gen::Gfx9);
        let words = [
            0x0001_0203,
            0xdead_4000, // 2.0
            0.25f32.to_bits(),
            0x3a00_3400, // s = 0.25, t = 0.75
            0x3c00_4200, // slice 3.0, clamp 1.0
        ];
        let o = l.read(|k| words[k]);
        assert_eq!(o.offset, 0x0001_0203);
        assert_eq!((o.bias, o.reference), (2.0, 0.25));
        assert_eq!(o.coords, [0.25, 0.75, 3.0, 0.0]);
        assert_eq!(o.trailing, 1.0);
        // image_sample_d_g16 on 3D, A16 off: (dx, dy/dh), (dz/dh), (dx, dy/dv),
        // (dz/dv), then s, t, r 32-bit.
        let l = layout16("image_sample_d_g16", ImageType::D3, false, Gen::Gfx10);
        let slots = l.slots();
        assert_eq!(
            slots[..6]
                .iter()
                .map(|s| (s.role, s.dword, s.part))
                .collect::<Vec<_>>(),
            [
                (Role::Ddx(0), 0, Part::Low),
                (Role::Ddx(1), 0, Part::High),
                (Role::Ddx(2), 1, Part::Low),
                (Role::Ddy(0), 2, Part::Low),
                (Role::Ddy(1), 2, Part::High),
                (Role::Ddy(2), 3, Part::Low),
            ]
        );
        let words = [
            0x4000_3c00, // 1, 2
            0xffff_4200, // 3, padding
            0x4400_3800, // 0.5, 4
            0x0000_b800, // -0.5
            0.5f32.to_bits(),
            0.25f32.to_bits(),
            0.125f32.to_bits(),
        ];
        let o = l.read(|k| words[k]);
        assert_eq!(o.ddx, [1.0, 2.0, 3.0]);
        assert_eq!(o.ddy, [0.5, 4.0, -0.5]);
        assert_eq!(o.coords, [0.5, 0.25, 0.125, 0.0]);
    }

    /// f16 operands convert exactly; f16 denormals flush to a signed zero.
    #[test]
    fn half_inputs() {
        assert_eq!(half_input(0x3c00), 1.0);
        assert_eq!(half_input(0x3555), 0.333_251_95); // 1365/4096
        assert_eq!(half_input(0x7bff), 65504.0);
        assert_eq!(half_input(0x0400), 2f32.powi(-14)); // smallest normal
        assert_eq!(half_input(0x0001).to_bits(), 0);
        assert_eq!(half_input(0x83ff).to_bits(), 0x8000_0000);
        assert_eq!(half_input(0xfc00), f32::NEG_INFINITY);
        assert!(half_input(0x7e00).is_nan());
    }
}
