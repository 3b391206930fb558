//! Memory operations both back ends run: scalar loads, vector loads, stores
//! and atomics on global memory (AMD FLAT/GLOBAL/MUBUF), and LDS operations
//! (AMD DS). Image memory operations are [`super::image`].
//!
//! **One address space.** A launch's memory ([`crate::machine::Memory`] —
//! images, buffers, kernel arguments, descriptors in memory) is one range of
//! 64-bit byte addresses. A global access addresses it directly; an access
//! outside it is a fault, which both back ends report naming the instruction.
//! FLAT addresses inside the LDS aperture ([`LDS_APERTURE`]) reach the wave's
//! workgroup LDS instead, as AMD's flat address space does.

use super::atomic::AtomicOp;
use super::Src;

/// The high 32 bits of a flat address that reaches LDS: AMD's `src_shared_base`
/// (`s_getreg` of SH_MEM_BASES on older parts) reads this aperture, and a FLAT
/// access whose address has it in bits 63:32 reads LDS at bits 31:0. The value
/// is gcnrun's (a driver chooses its own; Mesa and ROCm use 0x1000_0000_0000_0000
/// scale addresses in the same way): above any memory a launch places.
pub const LDS_APERTURE: u32 = 0x1000_0000;
/// The high 32 bits of a flat address that reaches private (scratch) memory
/// (`src_private_base`).
pub const PRIVATE_APERTURE: u32 = 0x2000_0000;

/// The private (scratch) memory of a launch: wave `w` (in launch order) owns
/// `per_wave` bytes from `base + w × per_wave`, of which each lane has
/// `per_lane` bytes, interleaved dword by dword with the wave's other lanes
/// (docs/semantics/programs.md, "Memory"). All zero when the launch has none.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Scratch {
    /// The first wave's scratch.
    pub base: u64,
    /// Bytes per wave.
    pub per_wave: u64,
    /// Private bytes per lane (a multiple of 4).
    pub per_lane: u32,
}

/// The launch address of byte `offset` of lane `lane`'s private memory in
/// wave `wave` (of `wave_size` lanes): dword `offset / 4` of every lane
/// side by side — `base + wave × per_wave + (offset / 4) × 4 × wave_size +
/// lane × 4 + offset mod 4` — the layout of the swizzled scratch V#
/// (INDEX_STRIDE = the wave size, 4-byte elements), so the two views agree.
///
/// WGSL twin: `scratch_address` in `shaders/program.wgsl` (docs/gpu.md, "Twins").
pub fn scratch_address(s: &Scratch, wave: u32, wave_size: u32, lane: u32, offset: u32) -> u64 {
    s.base
        + u64::from(wave) * s.per_wave
        + u64::from(offset / 4) * 4 * u64::from(wave_size)
        + u64::from(lane) * 4
        + u64::from(offset % 4)
}

/// How many bytes an access moves and how a short load fills its dword.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Width {
    /// One byte, zero-extended.
    U8,
    /// One byte, sign-extended.
    I8,
    /// Two bytes, zero-extended.
    U16,
    /// Two bytes, sign-extended.
    I16,
    /// One byte into the low half, the high half kept (`_d16`).
    D16U8,
    /// Likewise sign-extended.
    D16I8,
    /// Two bytes into the low half, the high half kept.
    D16B16,
    /// One byte into the high half, the low half kept (`_d16_hi`).
    D16HiU8,
    /// Likewise sign-extended.
    D16HiI8,
    /// Two bytes into the high half, the low half kept.
    D16HiB16,
    /// `n` whole dwords (1–4; 8 and 16 for scalar loads).
    Dwords(u8),
}

impl Width {
    /// Bytes moved.
    pub fn bytes(self) -> u32 {
        match self {
            Width::U8
            | Width::I8
            | Width::D16U8
            | Width::D16I8
            | Width::D16HiU8
            | Width::D16HiI8 => 1,
            Width::U16 | Width::I16 | Width::D16B16 | Width::D16HiB16 => 2,
            Width::Dwords(n) => 4 * u32::from(n),
        }
    }

    /// Data registers (dwords) the access reads or writes.
    pub fn dwords(self) -> u32 {
        match self {
            Width::Dwords(n) => u32::from(n),
            _ => 1,
        }
    }
}

/// What a vector memory operation does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// Read into `vdst`.
    Load(Width),
    /// Write `vdata`.
    Store(Width),
    /// Read-modify-write one 32- or 64-bit value (`wide`); with `returns` the
    /// value before the operation goes to `vdst` (AMD GLC on atomics).
    Atomic {
        /// The operation.
        op: AtomicOp,
        /// 64-bit.
        wide: bool,
        /// The pre-op value is returned.
        returns: bool,
    },
    /// A typed access (MUBUF `_format` forms, MTBUF; through a V# only):
    /// `comps` components of one element converted through a data and
    /// number format (`texture::typed`): the V#'s format and DST_SEL, or
    /// the instruction's format with DST_SEL identity.
    Typed {
        /// A store (else a load).
        store: bool,
        /// Components moved: 1–4 (`_x` … `_xyzw`).
        comps: u8,
        /// How the data VGPRs hold the components (`_d16`, `_d16_hi`).
        data: TypedData,
        /// The instruction's format (MTBUF), `None` for the V#'s.
        format: Option<TypedCode>,
    },
}

/// How a typed access's VGPRs hold its components.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TypedData {
    /// One 32-bit component per VGPR.
    Full,
    /// `_d16` on gfx8.1 and gfx9+: two 16-bit components per VGPR, the
    /// first in the low half.
    Packed16,
    /// `_d16` on gfx8.0: one 16-bit component per VGPR, in the low half.
    Unpacked16,
    /// `_d16_hi_x`: one 16-bit component in the high half, the low half
    /// kept (loads) or ignored (stores).
    High16,
}

/// A data and number format as codes (gfx6–gfx9 numbering; the lowering
/// resolves gfx10+'s combined FORMAT to it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TypedCode {
    /// The data format code (`IMG_DATA_FORMAT`).
    pub data_format: u8,
    /// The number format code (`IMG_NUM_FORMAT`).
    pub num_format: u8,
}

/// Which memory a vector access reaches and how its address is formed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Addr {
    /// `vaddr` (a VGPR pair) + `offset`; FLAT: LDS when the address falls in
    /// [`LDS_APERTURE`].
    Flat {
        /// First VGPR of the 64-bit address.
        vaddr: u32,
        /// Signed byte offset.
        offset: i32,
    },
    /// Global: `saddr` (an SGPR pair) + zero-extended `vaddr` (a VGPR) +
    /// `offset`, or without `saddr` a 64-bit `vaddr` pair + `offset`.
    Global {
        /// First SGPR of the 64-bit base, when the SADDR form is used.
        saddr: Option<u32>,
        /// The VGPR offset (SADDR form) or the first VGPR of the address.
        vaddr: u32,
        /// Signed byte offset.
        offset: i32,
    },
    /// Buffer (MUBUF/MTBUF): through the V# in four SGPRs from `srsrc`; an
    /// index VGPR and an offset VGPR (IDXEN, OFFEN, in that order from
    /// `vaddr`), `soffset` and the immediate `offset`, with the V#'s stride
    /// and range checking.
    Buffer {
        /// First SGPR of the V#.
        srsrc: u32,
        /// First address VGPR.
        vaddr: u32,
        /// An index VGPR is read.
        idxen: bool,
        /// An offset VGPR is read.
        offen: bool,
        /// ADDR64 (gfx6/gfx7): `vaddr` is a 64-bit address (a VGPR pair)
        /// added to the V#'s base, in place of an index and an offset.
        addr64: bool,
        /// The SGPR (or constant) offset.
        soffset: Src,
        /// Unsigned byte offset.
        offset: u32,
    },
    /// Private (scratch) memory of the lane: `vaddr` (a VGPR, when present) +
    /// `saddr` (an SGPR, when present) + `offset`.
    Scratch {
        /// The offset VGPR.
        vaddr: Option<u32>,
        /// The offset SGPR.
        saddr: Option<u32>,
        /// Signed byte offset.
        offset: i32,
    },
}

/// A vector memory operation (one per active lane).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VectorMem {
    /// Load, store or atomic.
    pub access: Access,
    /// Where and how it addresses.
    pub addr: Addr,
    /// The data VGPRs a store or atomic sends (an atomic compare-swap: data,
    /// then the compare value).
    pub vdata: u32,
    /// The VGPRs a load or returning atomic writes.
    pub vdst: u32,
}

/// A scalar load (AMD SMEM/SMRD): `dwords` dwords into SGPRs from `sdst`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScalarLoad {
    /// First destination SGPR.
    pub sdst: u32,
    /// Dwords loaded (1, 2, 4, 8, 16).
    pub dwords: u32,
    /// First SGPR of the 64-bit base address, or of the V# for a buffer load.
    pub sbase: u32,
    /// Read through a V# (`s_buffer_load`): its base, and its range, which
    /// a dword past it reads as 0.
    pub buffer: bool,
    /// The byte offset (an SGPR, M0 or a constant), added to the base.
    pub offset: Src,
    /// A second, immediate offset (gfx9+ SOFFSET forms), added as well.
    pub imm: i32,
}

/// What an LDS operation does (AMD DS).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DsKind {
    /// Read into `vdst`.
    Read(Width),
    /// Two reads of `dwords` each, at `offset0` and `offset1` scaled by
    /// `dwords × 4` (× 64 more with `st64`).
    Read2 {
        /// 1 or 2.
        dwords: u8,
        /// The offsets count in units of 64 elements.
        st64: bool,
    },
    /// Write `data0`.
    Write(Width),
    /// Two writes of `data0` and `data1`, as [`DsKind::Read2`].
    Write2 {
        /// 1 or 2.
        dwords: u8,
        /// As for reads.
        st64: bool,
    },
    /// Read-modify-write at one address; `returns` writes the pre-op value to
    /// `vdst`. Compare-swap sends the compare value in `data0` and the new
    /// value in `data1` (DS `cmpst` order: `ds_cmpst` = compare first).
    Atomic {
        /// The operation.
        op: AtomicOp,
        /// 64-bit.
        wide: bool,
        /// The pre-op value is returned.
        returns: bool,
    },
    /// `ds_swizzle_b32`: lanes exchange `data0` by the pattern in `offset`.
    Swizzle,
    /// `ds_permute_b32`: lane `addr/4` receives this lane's `data0`.
    Permute,
    /// `ds_bpermute_b32`: this lane reads lane `addr/4`'s `data0`.
    Bpermute,
}

/// An LDS operation (one per active lane).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ds {
    /// What it does.
    pub kind: DsKind,
    /// The address VGPR.
    pub addr: u32,
    /// First data VGPR.
    pub data0: u32,
    /// Second data VGPR (write2, compare-swap).
    pub data1: u32,
    /// First destination VGPR.
    pub vdst: u32,
    /// Unsigned byte offset (read2/write2: the first offset, in elements).
    pub offset0: u32,
    /// The second offset of read2/write2, in elements.
    pub offset1: u32,
}

#[cfg(test)]
mod scratch_tests {
    use super::{scratch_address, Scratch};

    #[test]
    fn private_dwords_of_the_lanes_sit_side_by_side() {
        let s = Scratch {
            base: 0x1000,
            per_wave: 0x800,
            per_lane: 32,
        };
        // Wave 1, lane 3, byte 9 (dword 2, byte 1) of a wave32.
        assert_eq!(
            scratch_address(&s, 1, 32, 3, 9),
            0x1000 + 0x800 + 2 * 128 + 12 + 1
        );
        assert_eq!(scratch_address(&s, 0, 64, 0, 4), 0x1000 + 256);
    }
}
