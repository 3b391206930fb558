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
    /// INDEX_STRIDE: 8 << word 3 bits 22:21 (records per swizzle group).
    pub index_stride: u32,
    /// The swizzle element size in bytes: 2 << word 3 bits 20:19
    /// (ELEMENT_SIZE) on gfx6–gfx8; 4 on gfx9 and gfx10 (Mesa: "always 4
    /// bytes on GFX9"); on gfx11 16 when SWIZZLE_ENABLE is 3, else 4
    /// (rocjitsu; Mesa's attribute ring uses 3 for 16 bytes).
    pub element_size: u32,
}

impl Vsharp {
    /// The fields of the four descriptor words on generation `gen`.
    pub fn new(w: [u32; 4], gen: Gen) -> Vsharp {
        let swizzle = if gen >= Gen::Gfx11 {
            w[1] >> 30
        } else {
            w[1] >> 31
        };
        let add_tid = w[3] >> 23 & 1 == 1;
        // gfx8/gfx9 with ADD_TID_ENABLE: untyped accesses read DATA_FORMAT
        // (bits 18:15) as STRIDE bits 17:14 (Mesa ac_descriptors.c, LLVM
        // getScratchRsrcWords23, rocjitsu gfx9_buffer_lane_offset agree).
        let high_stride = if add_tid && matches!(gen, Gen::Gfx8 | Gen::Gfx9) {
            (w[3] >> 15 & 15) << 14
        } else {
            0
        };
        Vsharp {
            base: u64::from(w[0]) | u64::from(w[1] & 0xffff) << 32,
            stride: w[1] >> 16 & 0x3fff | high_stride,
            swizzle,
            num_records: w[2],
            add_tid,
            oob_select: w[3] >> 28 & 3,
            index_stride: 8 << (w[3] >> 21 & 3),
            element_size: match gen {
                Gen::Gfx6 | Gen::Gfx7 | Gen::Gfx8 => 2 << (w[3] >> 19 & 3),
                Gen::Gfx9 | Gen::Gfx10 => 4,
                Gen::Gfx11 => {
                    if swizzle == 3 {
                        16
                    } else {
                        4
                    }
                }
            },
        }
    }

    /// Why gcnrun does not run an access through this V# (`idxen`: the
    /// access reads an index VGPR), if it does not. ADD_TID_ENABLE — the
    /// form of the scratch V#s runtimes write, swizzled or not — runs on
    /// every generation, and other swizzled buffers on gfx9–gfx11, with
    /// OOB_SELECT 1 or 2 from gfx10 (the ones runtimes use). gfx6–gfx8's
    /// range check of a swizzled buffer without ADD_TID_ENABLE (records
    /// counted per stride) has no source gcnrun could check, ADD_TID_ENABLE
    /// with an index VGPR has two readings (rocjitsu: gfx9 adds the lane,
    /// RDNA replaces it), and gfx11's SWIZZLE_ENABLE 2 no reading at all.
    ///
    /// WGSL twin: `buf_refusal` in `shaders/program.wgsl` (docs/gpu.md, "Twins").
    pub fn refusal(&self, gen: Gen, idxen: bool) -> Option<&'static str> {
        let old = gen <= Gen::Gfx8;
        if self.swizzle != 0 && old && !self.add_tid {
            Some("a swizzled V# (SWIZZLE_ENABLE) without ADD_TID_ENABLE before gfx9 is not executed by gcnrun yet")
        } else if self.add_tid && idxen {
            Some("a V# with ADD_TID_ENABLE read with an index VGPR (IDXEN) is not executed by gcnrun yet")
        } else if self.swizzle == 2 && gen >= Gen::Gfx11 {
            Some("a V# with SWIZZLE_ENABLE 2 is not executed by gcnrun yet")
        } else if self.swizzle != 0 && gen >= Gen::Gfx10 && !matches!(self.oob_select, 1 | 2) {
            Some("a swizzled V# with OOB_SELECT 0 or 3 is not executed by gcnrun yet")
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
    /// The index: the index VGPR with IDXEN, the lane's id with
    /// ADD_TID_ENABLE ([`index`]), else 0.
    pub index: u32,
    /// The instruction's OFFSET plus the offset VGPR (OFFEN), modulo 2^32.
    pub offset: u32,
    /// SOFFSET.
    pub soffset: u32,
}

/// A lane's index: its id in the wave with ADD_TID_ENABLE (the V#s that
/// set it are not read with IDXEN: [`Vsharp::refusal`]), else the index
/// VGPR's value with IDXEN, else 0.
///
/// WGSL twin: `buf_index` in `shaders/program.wgsl` (docs/gpu.md, "Twins").
pub fn index(v: &Vsharp, idxen: bool, vgpr: u32, lane: u32) -> u32 {
    if v.add_tid {
        lane
    } else if idxen {
        vgpr
    } else {
        0
    }
}

/// The byte address of a lane's access. Linear buffers: `base + index ×
/// stride + offset + soffset` (CLRX GcnMemHandling.md; rocjitsu
/// `buffer_total_offset`, a 64-bit product). Swizzled ones interleave the
/// records of INDEX_STRIDE consecutive indices element by element: with
/// `index = im × IS + il` and `offset = om × E + ol` (IS the index stride,
/// E the element size), `base + (im × stride + om × E) × IS + il × E + ol +
/// soffset` (CLRX; rocjitsu; SOFFSET is not swizzled). All wraps at 2^64.
///
/// WGSL twin: `buf_address` in `shaders/program.wgsl` (docs/gpu.md, "Twins").
pub fn address(v: &Vsharp, l: &Lane) -> u64 {
    let index = u64::from(l.index);
    let offset = u64::from(l.offset);
    let within = if v.swizzle == 0 {
        index * u64::from(v.stride) + offset
    } else {
        let (is, e) = (u64::from(v.index_stride), u64::from(v.element_size));
        (index / is * u64::from(v.stride) + offset / e * e) * is + index % is * e + offset % e
    };
    v.base
        .wrapping_add(within)
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
/// - gfx9: never with ADD_TID_ENABLE; with IDXEN and STRIDE ≠ 0, out when `index ≥ NUM_RECORDS`
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
        // ADD_TID_ENABLE before gfx9 (private memory) is not checked either:
        // gcnrun's rule, as gfx9's below; runtimes write a NUM_RECORDS that
        // covers the whole scratch (ROCr: its size, Mesa: 0xffffffff), so
        // no access inside a kernel's private segment is out of range under
        // any reading (docs/errata.md MB4).
        Gen::Gfx6 | Gen::Gfx7 | Gen::Gfx8 if v.add_tid => true,
        Gen::Gfx6 | Gen::Gfx7 => {
            if v.stride == 0 {
                end(off) <= u64::from(v.num_records.wrapping_sub(l.soffset))
            } else {
                index_in && end(off) <= u64::from(v.stride)
            }
        }
        Gen::Gfx8 => end(u64::from(l.index) * u64::from(v.stride) + off + soff) <= nr,
        // ADD_TID_ENABLE without IDXEN (private memory) is not checked
        // (rocjitsu; LLVM D40585: "GFX9 does not enable bounds checking for
        // the resource descriptors used for private access").
        Gen::Gfx9 if v.add_tid => true,
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
    fn scratch_vsharps_swizzle_dwords_across_the_lanes() {
        // ROCr's gfx9 scratch V#: SWIZZLE_ENABLE, ADD_TID_ENABLE, INDEX_STRIDE
        // 64, DATA_FORMAT 4 as STRIDE bits 17:14.
        let v = Vsharp::new([0x1000, 1 << 31, 1 << 20, 0x00ea_4fac], Gen::Gfx9);
        assert_eq!((v.index_stride, v.element_size, v.stride), (64, 4, 4 << 14));
        assert_eq!(v.refusal(Gen::Gfx9, false), None);
        assert!(v.refusal(Gen::Gfx9, true).is_some());
        // The same V# runs before gfx9 (ADD_TID_ENABLE); a swizzled one
        // without it does not.
        assert_eq!(v.refusal(Gen::Gfx8, false), None);
        let plain_swizzle = Vsharp::new([0x1000, 1 << 31, 0x4000, 3 << 21], Gen::Gfx8);
        assert!(plain_swizzle.refusal(Gen::Gfx8, false).is_some());
        // Lane 5, private byte 9 (dword 2, byte 1), wave offset 0x100:
        // 0x1000 + 2 × 4 × 64 + 5 × 4 + 1 + 0x100.
        let l = Lane {
            idxen: false,
            index: index(&v, false, 0, 5),
            offset: 9,
            soffset: 0x100,
        };
        assert_eq!(address(&v, &l), 0x1000 + 512 + 20 + 1 + 0x100);
        assert!(in_range(&v, Gen::Gfx9, &l, 0, 4));
        // gfx10 wave32 (INDEX_STRIDE 2 = 32), OOB_SELECT 2.
        let v = Vsharp::new([0, 1 << 31, 64, 2 << 21 | 1 << 23 | 2 << 28], Gen::Gfx10);
        let l = Lane {
            idxen: false,
            index: index(&v, false, 0, 31),
            offset: 4,
            soffset: 0,
        };
        assert_eq!(address(&v, &l), 4 * 32 + 31 * 4);
        assert!(in_range(&v, Gen::Gfx10, &l, 0, 4));
        // gfx7 with ROCr's ELEMENT_SIZE 1 (4 bytes) and INDEX_STRIDE 3 (64):
        // the gfx9 layout; not range checked, even past NUM_RECORDS.
        let w3 = 4 << 12 | 4 << 15 | 1 << 19 | 3 << 21 | 1 << 23;
        let v = Vsharp::new([0x1000, 1 << 31, 0x10, w3], Gen::Gfx7);
        assert_eq!(v.element_size, 4);
        let l = Lane {
            idxen: false,
            index: index(&v, false, 0, 5),
            offset: 9,
            soffset: 0x100,
        };
        assert_eq!(address(&v, &l), 0x1000 + 512 + 20 + 1 + 0x100);
        assert!(in_range(&v, Gen::Gfx7, &l, 0, 4));
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
