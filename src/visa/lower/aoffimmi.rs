//! The `aoffimmi` operand of 3D_SAMPLE / 3D_LOAD / 3D_GATHER4 (IGC
//! `3D_SAMPLE.md`: a scalar UW with U in bits 11:8, V 7:4, R 3:0, each a
//! signed 4-bit texel offset): an immediate, or a general operand whose first
//! element holds it; the lowering repacks it per channel on the CPU and the GPU
//! (docs/semantics/intel.md).

use super::{Cx, Res};
use crate::ir::visa::{AddrSlot, ElemType, GrfSrc, Region, SrcMod};
use crate::visa::inst::{Operand, Sampler};

/// An instruction's texel offsets.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Aoff {
    /// An immediate: the U, V, R offsets.
    Imm([i32; 3]),
    /// A general operand: a scalar region (every channel reads element 0)
    /// holding the packed offsets.
    Var(Region),
}

impl Aoff {
    /// The offsets of `s` (none read as zero).
    pub(super) fn of(cx: &Cx, s: &Sampler) -> Res<Aoff> {
        let op = match &s.aoffimmi {
            None => return Ok(Aoff::Imm([0; 3])),
            Some(Operand::Imm { bits, .. }) => {
                return Ok(Aoff::Imm(super::sample::intel_offsets(*bits as u32)))
            }
            Some(op) => op,
        };
        // A scalar operand: element 0 alone is read (research/visa.md §1.4),
        // the one value the message header carries for every channel.
        let one = crate::visa::inst::Exec { size: 1, ..s.exec };
        match cx.src(op, one)? {
            GrfSrc::Region(r, SrcMod::None) if !r.ty.is_float() && r.ty != ElemType::Uq && r.ty != ElemType::Q => {
                Ok(Aoff::Var(Region {
                    vstride: 0,
                    width: 1,
                    hstride: 0,
                    ..r
                }))
            }
            // `%null` reads as an immediate zero.
            GrfSrc::Imm(bits, _) => Ok(Aoff::Imm(super::sample::intel_offsets(bits as u32))),
            _ => Err(
                "a non-immediate `aoffimmi` must be an integer (UW, W, UD, D, UB, B) region without a modifier"
                    .into(),
            ),
        }
    }

    /// The immediate offsets (zero for a per-channel operand, whose offsets
    /// the slots below carry).
    pub fn imm(&self) -> [i32; 3] {
        match self {
            Aoff::Imm(o) => *o,
            Aoff::Var(_) => [0; 3],
        }
    }

    /// True when the instruction may offset a texel (a per-channel operand
    /// counts: its values are not known when lowering).
    pub fn any(&self) -> bool {
        *self != Aoff::Imm([0; 3])
    }

    /// The AMD `_o` dword slot: a constant for an immediate, else built per
    /// channel.
    pub fn dword_slot(&self) -> AddrSlot {
        match *self {
            Aoff::Imm(o) => AddrSlot::Const(super::sample::amd_offset_dword(o)),
            Aoff::Var(r) => AddrSlot::OffsetDword {
                aoffimmi: Some(r),
                offu: None,
                offv: None,
            },
        }
    }

    /// A load's integer coordinate `param` on `axis` (0 U, 1 V, 2 R; `None`
    /// for an array index, which takes no offset) with its offset added.
    pub fn coord_slot(&self, param: Option<(u32, ElemType)>, axis: Option<usize>) -> AddrSlot {
        match (*self, axis) {
            (Aoff::Var(r), Some(a)) => AddrSlot::IntAoff {
                param,
                aoffimmi: r,
                shift: [8, 4, 0][a],
            },
            (o, _) => {
                let add = axis.map_or(0, |a| o.imm()[a]);
                match param {
                    None => AddrSlot::Const(add as u32),
                    Some((byte, ty)) => AddrSlot::Int { byte, ty, add },
                }
            }
        }
    }
}
