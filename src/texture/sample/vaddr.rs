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
//! **16-bit operands** (docs/semantics/addressing.md, "A16 and G16"). With A16 (gfx9 bit
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

use crate::ir::image::ImageOp;
use crate::ir::image::{flag, Opcode};
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
    /// The derivatives are f16 ([`ImageOp::g16`]).
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

/// An f16 address operand as the sampler reads it: exact conversion to f32
/// (`f16_to_f32`), except that a denormal f16 is flushed to a zero of its sign,
/// as every f32 sampler input is (`coord::flush_denorm`; "sample operations
/// flush denormals", RDNA3 ISA §10.4.2 — read here as applying to the operand
/// in its own format, a documented choice: the hardware's f16 path is not
/// public).
///
/// WGSL twin: `half_input` in `shaders/sample.wgsl` (docs/gpu.md, "Twins").
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
    pub fn new(op: &Opcode, shape: Shape) -> Layout {
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
    /// its derivative width ([`ImageOp::g16`], resolved by the front end).
    pub fn of(m: &ImageOp, shape: Shape) -> Layout {
        Layout {
            a16: m.a16,
            g16: m.g16,
            ..Layout::new(&m.op, shape)
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
        Layout::read_slots(&self.slots(), a)
    }

    /// [`Layout::read`] with the layout's [`Layout::slots`] worked out
    /// beforehand (once per instruction, not per lane).
    pub fn read_slots(slots: &[Slot], a: impl Fn(usize) -> u32) -> Operands {
        let mut o = Operands::default();
        Layout::read_slots_into(slots, a, &mut o);
        o
    }

    /// [`Layout::read_slots`] into `o` (reset first): a wave's 64 operand
    /// sets are read in place rather than each returned and copied, a copy
    /// that stalled on the stores just made to the returned value.
    #[inline]
    pub fn read_slots_into(slots: &[Slot], a: impl Fn(usize) -> u32, o: &mut Operands) {
        *o = Operands::default();
        for s in slots {
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
    }
}
