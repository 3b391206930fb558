//! The buffer resource descriptor (V#) and how a MUBUF access or an
//! `s_buffer_load` addresses memory through it: the base, the stride and
//! the range check (docs/semantics/programs.md, "Buffer memory"). Both back
//! ends use these rules: the CPU calls them, the GPU's whole-program modules
//! emit their WGSL twins (`shaders/program.wgsl`, `buf_*`).
//!
//! Sources (no AMD ISA text is bundled; docs/errata.md MB1–MB3 record where
//! they disagree): the field layout from Mesa's register tables
//! (`src/amd/registers/gfx*.json`, `SQ_BUF_RSRC_WORD1..3`) and ROCm's
//! `registers.h` (`SQ_BUF_RSRC_WORD3_GFX11`); the address and the checks
//! of gfx6/gfx7 from CLRX's `GcnMemHandling.md` (after the SI ISA manual),
//! of gfx8/gfx9 from the comment on NUM_RECORDS units in Mesa's radeonsi
//! (`si_state.c`) and AMD's rocjitsu emulator
//! (`addr_calc_buffer.h`, "gfx9_buffer_elems_in_range"), of gfx10/gfx11
//! (OOB_SELECT) from Mesa's `ac_descriptors.c` and rocjitsu's
//! `rdna_buffer_range_check_lane`.

use crate::arch::Gen;

/// The fields of a V# gcnrun reads (words 0–3 of the 128-bit descriptor).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Vsharp {
    /// BASE_ADDRESS: word 0 and word 1 bits 15:0 (48 bits).
    pub base: u64,
    /// STRIDE: word 1 bits 29:16, bytes.
    pub stride: u32,
    /// SWIZZLE_ENABLE: word 1 bit 31 (gfx6–gfx10.3), bits 31:30 (gfx11).
    pub swizzle: u32,
    /// NUM_RECORDS: word 2 (bytes or records, by the rules of [`in_range`]).
    pub num_records: u32,
    /// ADD_TID_ENABLE: word 3 bit 23.
    pub add_tid: bool,
    /// OOB_SELECT (gfx10+): word 3 bits 29:28 (0 structured with offset,
    /// 1 structured, 2 disabled, 3 raw).
    pub oob_select: u32,
}

impl Vsharp {
    /// The fields of the four descriptor words on generation `gen`.
    pub fn new(w: [u32; 4], gen: Gen) -> Vsharp {
        Vsharp {
            base: u64::from(w[0]) | u64::from(w[1] & 0xffff) << 32,
            stride: w[1] >> 16 & 0x3fff,
            swizzle: if gen >= Gen::Gfx11 {
                w[1] >> 30
            } else {
                w[1] >> 31
            },
            num_records: w[2],
            add_tid: w[3] >> 23 & 1 == 1,
            oob_select: w[3] >> 28 & 3,
        }
    }

    /// Why gcnrun does not run accesses through this V#, if it does not:
    /// swizzled buffers (element-interleaved addresses, used for scratch
    /// and rings) and ADD_TID_ENABLE (the lane id added to the index; on
    /// gfx8/gfx9 it also turns DATA_FORMAT into stride bits) are not
    /// modelled yet.
    ///
    /// WGSL twin: `buf_refusal` in `shaders/program.wgsl` (docs/gpu.md, "Twins").
    pub fn refusal(&self) -> Option<&'static str> {
        if self.swizzle != 0 {
            Some("a V# with SWIZZLE_ENABLE (a swizzled buffer) is not executed by gcnrun yet")
        } else if self.add_tid {
            Some("a V# with ADD_TID_ENABLE is not executed by gcnrun yet")
        } else {
            None
        }
    }
}

/// What one lane's MUBUF access supplies besides the V#.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lane {
    /// IDXEN: the index comes from a VGPR.
    pub idxen: bool,
    /// The index (0 without IDXEN).
    pub index: u32,
    /// The instruction's OFFSET plus the offset VGPR (OFFEN), modulo 2^32.
    pub offset: u32,
    /// SOFFSET.
    pub soffset: u32,
}

/// The byte address of a lane's access (linear buffers):
/// `base + index × stride + offset + soffset` (CLRX GcnMemHandling.md;
/// rocjitsu `buffer_total_offset`, a 64-bit product), wrapping at 2^64.
///
/// WGSL twin: `buf_address` in `shaders/program.wgsl` (docs/gpu.md, "Twins").
pub fn address(v: &Vsharp, l: &Lane) -> u64 {
    v.base
        .wrapping_add(u64::from(l.index) * u64::from(v.stride))
        .wrapping_add(u64::from(l.offset))
        .wrapping_add(u64::from(l.soffset))
}

/// Whether the element of `size` bytes that starts `rel` bytes after the
/// lane's offset is inside the buffer. A load of several dwords checks each
/// dword (rel = 0, 4, 8, …), an atomic its one value; an element outside
/// reads 0 and is not written.
///
/// - gfx6/gfx7: with STRIDE 0, out when `offset + rel + size` exceeds
///   `NUM_RECORDS − SOFFSET`, the subtraction wrapping — which is SI/CI's
///   documented clamping bug when SOFFSET exceeds the buffer (LLVM
///   `splitMUBUFOffset`); with STRIDE ≠ 0, out when `index ≥ NUM_RECORDS`
///   or `offset + rel + size` exceeds STRIDE (CLRX).
/// - gfx8: NUM_RECORDS counts bytes unless the buffer is swizzled (Mesa
///   radeonsi), so out when `index × stride + offset + soffset + rel +
///   size` exceeds NUM_RECORDS.
/// - gfx9: with IDXEN and STRIDE ≠ 0, out when `index ≥ NUM_RECORDS`
///   (the whole access); otherwise out when `offset + soffset + rel +
///   size` exceeds NUM_RECORDS (rocjitsu).
/// - gfx10/gfx11, by OOB_SELECT: 0, out when `index ≥ NUM_RECORDS` or
///   `offset + rel + size` exceeds STRIDE; 1, when `index ≥ NUM_RECORDS`;
///   2, only when NUM_RECORDS is 0; 3, when `offset + soffset + rel +
///   size` exceeds NUM_RECORDS (Mesa's comment, rocjitsu's per-element end
///   and SOFFSET).
///
/// Sums are taken in 64 bits, so none wraps. Where the sources compare an
/// element's start (`offset ≥ limit`), gcnrun compares its end; the two agree
/// for the dword-aligned accesses compilers emit (docs/errata.md MB2).
///
/// WGSL twin: `buf_in_range` in `shaders/program.wgsl` (docs/gpu.md, "Twins").
pub fn in_range(v: &Vsharp, gen: Gen, l: &Lane, rel: u32, size: u32) -> bool {
    let end = |base: u64| base + u64::from(rel) + u64::from(size);
    let off = u64::from(l.offset);
    let soff = u64::from(l.soffset);
    let nr = u64::from(v.num_records);
    let index_in = l.index < v.num_records;
    match gen {
        Gen::Gfx6 | Gen::Gfx7 => {
            if v.stride == 0 {
                end(off) <= u64::from(v.num_records.wrapping_sub(l.soffset))
            } else {
                index_in && end(off) <= u64::from(v.stride)
            }
        }
        Gen::Gfx8 => end(u64::from(l.index) * u64::from(v.stride) + off + soff) <= nr,
        Gen::Gfx9 => {
            if l.idxen && v.stride != 0 {
                index_in
            } else {
                end(off + soff) <= nr
            }
        }
        Gen::Gfx10 | Gen::Gfx11 => match v.oob_select {
            0 => index_in && end(off) <= u64::from(v.stride),
            1 => index_in,
            2 => nr != 0,
            _ => end(off + soff) <= nr,
        },
    }
}

/// The byte bound of an `s_buffer_load`: NUM_RECORDS bytes with STRIDE 0,
/// NUM_RECORDS × STRIDE bytes otherwise (Mesa radeonsi's comment: scalar
/// loads count records of STRIDE bytes on every generation). A dword at
/// `offset` is read when `offset + 4 ≤` the bound, else it reads 0
/// (docs/errata.md MB3: no primary source says what an out-of-range scalar
/// load returns).
///
/// WGSL twin: `buf_scalar_bound` in `shaders/program.wgsl` (docs/gpu.md, "Twins").
pub fn scalar_bound(v: &Vsharp) -> u64 {
    if v.stride == 0 {
        u64::from(v.num_records)
    } else {
        u64::from(v.num_records) * u64::from(v.stride)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lane(idxen: bool, index: u32, offset: u32, soffset: u32) -> Lane {
        Lane {
            idxen,
            index,
            offset,
            soffset,
        }
    }

    #[test]
    fn fields_by_generation() {
        let w = [0x1234_5678, 0x8010_00ab, 100, 3 << 28 | 1 << 23];
        let v = Vsharp::new(w, Gen::Gfx9);
        assert_eq!(v.base, 0xab_1234_5678);
        assert_eq!(v.stride, 16);
        assert_eq!(v.swizzle, 1);
        assert_eq!(v.num_records, 100);
        assert!(v.add_tid);
        assert_eq!(v.oob_select, 3);
        // gfx11: SWIZZLE_ENABLE is two bits (ROCm SQ_BUF_RSRC_WORD1_GFX11).
        assert_eq!(Vsharp::new([0, 0xc000_0000, 0, 0], Gen::Gfx11).swizzle, 3);
        assert_eq!(Vsharp::new([0, 0xc000_0000, 0, 0], Gen::Gfx10).swizzle, 1);
    }

    #[test]
    fn raw_buffers_check_each_dword_against_num_records() {
        // 16 bytes: a dwordx4 at 8 has two dwords in range.
        let v = Vsharp::new([0, 0, 16, 0], Gen::Gfx9);
        let l = lane(false, 0, 8, 0);
        let ins: Vec<bool> = (0..4)
            .map(|i| in_range(&v, Gen::Gfx9, &l, 4 * i, 4))
            .collect();
        assert_eq!(ins, [true, true, false, false]);
        // SOFFSET counts on gfx9 and gfx10+ raw (OOB_SELECT 3).
        assert!(!in_range(&v, Gen::Gfx9, &lane(false, 0, 8, 8), 0, 4));
        let v = Vsharp::new([0, 0, 16, 3 << 28], Gen::Gfx11);
        assert!(in_range(&v, Gen::Gfx11, &lane(false, 0, 12, 0), 0, 4));
        assert!(!in_range(&v, Gen::Gfx11, &lane(false, 0, 12, 4), 0, 4));
    }

    #[test]
    fn si_soffset_past_the_buffer_disables_the_check() {
        // NUM_RECORDS − SOFFSET wraps: SI/CI's clamping bug.
        let v = Vsharp::new([0, 0, 16, 0], Gen::Gfx6);
        assert!(!in_range(&v, Gen::Gfx6, &lane(false, 0, 12, 8), 0, 4));
        assert!(in_range(&v, Gen::Gfx6, &lane(false, 0, 1000, 32), 0, 4));
    }

    #[test]
    fn structured_buffers_check_the_index() {
        // Stride 8, 3 records.
        let w = [0, 8 << 16, 3, 0];
        let v = Vsharp::new(w, Gen::Gfx7);
        assert!(in_range(&v, Gen::Gfx7, &lane(true, 2, 4, 0), 0, 4));
        assert!(!in_range(&v, Gen::Gfx7, &lane(true, 3, 0, 0), 0, 4));
        assert!(!in_range(&v, Gen::Gfx7, &lane(true, 0, 8, 0), 0, 4));
        let v = Vsharp::new(w, Gen::Gfx9);
        assert!(in_range(&v, Gen::Gfx9, &lane(true, 2, 100, 0), 0, 4));
        assert!(!in_range(&v, Gen::Gfx9, &lane(true, 3, 0, 0), 0, 4));
        // gfx8 counts bytes: 3 records are 3 bytes.
        let v = Vsharp::new(w, Gen::Gfx8);
        assert!(!in_range(&v, Gen::Gfx8, &lane(true, 0, 0, 0), 0, 4));
        assert_eq!(address(&v, &lane(true, 2, 4, 1)), 21);
    }

    #[test]
    fn oob_select_modes() {
        let mode = |m: u32, nr: u32| Vsharp::new([0, 8 << 16, nr, m << 28], Gen::Gfx10);
        let l = lane(true, 1, 4, 0);
        assert!(in_range(&mode(0, 2), Gen::Gfx10, &l, 0, 4));
        assert!(!in_range(&mode(0, 2), Gen::Gfx10, &l, 4, 4));
        assert!(in_range(&mode(1, 2), Gen::Gfx10, &l, 4, 4));
        assert!(!in_range(&mode(1, 1), Gen::Gfx10, &l, 0, 4));
        assert!(in_range(
            &mode(2, 1),
            Gen::Gfx10,
            &lane(true, 9, 99, 0),
            0,
            4
        ));
        assert!(!in_range(&mode(2, 0), Gen::Gfx10, &l, 0, 4));
    }

    #[test]
    fn scalar_bounds_count_records_of_stride_bytes() {
        assert_eq!(scalar_bound(&Vsharp::new([0, 0, 64, 0], Gen::Gfx8)), 64);
        assert_eq!(
            scalar_bound(&Vsharp::new([0, 16 << 16, 4, 0], Gen::Gfx8)),
            64
        );
    }
}
