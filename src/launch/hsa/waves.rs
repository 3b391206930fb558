//! The initial state of a kernel's waves, as the packet processor sets it up
//! (LLVM AMDGPUUsage, "Initial Kernel Execution State").
//!
//! - **User SGPRs**, from s0, densely, in the order of
//!   [`super::descriptor::UserSgpr`]: only those the kernel descriptor
//!   enables, and only the first 16 (the CP's user data registers).
//! - **System SGPRs**, from `s[USER_SGPR_COUNT]` (`COMPUTE_PGM_RSRC2` bits
//!   5:1): work-group id X, Y, Z, work-group info, scratch wave offset, each
//!   only when enabled.
//! - **Work-item ids**: v0 = X, v1 = Y, v2 = Z as `ENABLE_VGPR_WORKITEM_ID`
//!   asks; on targets with packed work-item ids (gfx90a, gfx940 and gfx11) all
//!   three in v0, 10 bits each (X 9:0, Y 19:10, Z 29:20).
//! - **EXEC**: the lanes that hold a work-item (the last wave of a work-group
//!   may be partial).
//!
//! Waves are numbered work-group by work-group (x fastest, then y, then z),
//! and within a work-group by flat work-item id `x + y·sx + z·sx·sy`, `sx`,
//! `sy` being that work-group's size (smaller for the partial work-group of
//! a dimension).

use super::descriptor::{KernelDescriptor, UserSgpr};
use super::dispatch::Geometry;
use crate::arch::{Arch, Gen};
use crate::machine::WaveState;

/// The addresses and sizes the SGPRs point at.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Addresses {
    /// The kernarg segment.
    pub kernarg: u64,
    /// The dispatch packet.
    pub dispatch: u64,
    /// The (zeroed) `amd_queue_t`.
    pub queue: u64,
    /// The scratch backing memory of the dispatch.
    pub scratch: u64,
    /// Its size in bytes.
    pub scratch_bytes: u64,
    /// Scratch bytes per wave (the scratch wave offset steps by this).
    pub scratch_per_wave: u64,
    /// Private bytes per work-item, a multiple of 4.
    pub private_size: u32,
}

/// Where the work-item ids go: packed in v0 (gfx90a, gfx940, gfx11; AMDGPUUsage
/// processor table, "Packed work-item IDs"), else one VGPR each.
pub fn packed_workitem_ids(arch: &Arch) -> bool {
    arch.gen >= Gen::Gfx11 || matches!(arch.mcpu, "gfx90a" | "gfx940" | "gfx941" | "gfx942")
}

/// The scratch V# the private segment buffer SGPRs hold: the form ROCr writes
/// (`AqlQueue::InitScratchSRD`, `amd_aql_queue.cpp`; field layouts from its
/// `registers.h`): base = the scratch backing memory, NUM_RECORDS = its size,
/// swizzled (SWIZZLE_ENABLE, ADD_TID_ENABLE), 32-bit UINT elements, DST_SEL
/// XYZW, INDEX_STRIDE the wave size (gfx6–gfx9: 3 = 64; from gfx10 the CP fills
/// it in: 3 for wave64, 2 for wave32), gfx10+ OOB_SELECT 2.
pub fn scratch_vsharp(arch: &Arch, base: u64, bytes: u64, wave_size: u32) -> [u32; 4] {
    let dst_sel = 4 | 5 << 3 | 6 << 6 | 7 << 9; // SQ_SEL_X, Y, Z, W
    let index_stride: u32 = if wave_size == 32 { 2 } else { 3 };
    let hi = (base >> 32) as u32 & 0xffff;
    let word1 = if arch.gen >= Gen::Gfx11 {
        hi | 1 << 30 // SWIZZLE_ENABLE (2 bits at 31:30) = 1
    } else {
        hi | 1 << 31 // SWIZZLE_ENABLE (bit 31)
    };
    // BUF_FORMAT_32_UINT = 20 in gfx10's and gfx11's unified format tables
    // (texture::format::GFX10_FORMATS / GFX11_FORMATS).
    let word3 = match arch.gen {
        Gen::Gfx11 => dst_sel | 20 << 12 | index_stride << 21 | 1 << 23 | 2 << 28,
        Gen::Gfx10 => dst_sel | 20 << 12 | index_stride << 21 | 1 << 23 | 1 << 24 | 2 << 28,
        // NUM_FORMAT UINT (4) 14:12, DATA_FORMAT 32 (4) 18:15, ELEMENT_SIZE 1
        // (4 bytes) 20:19, INDEX_STRIDE 3 (64) 22:21, ADD_TID_ENABLE 23.
        _ => dst_sel | 4 << 12 | 4 << 15 | 1 << 19 | 3 << 21 | 1 << 23,
    };
    [
        base as u32,
        word1,
        bytes.min(u64::from(u32::MAX)) as u32,
        word3,
    ]
}

/// The user SGPR values, in order, before the 16-register limit.
fn user_sgprs(
    kd: &KernelDescriptor,
    arch: &Arch,
    a: &Addresses,
    kernarg: &[u8],
    wave_size: u32,
) -> Vec<u32> {
    let lo_hi = |v: u64| [v as u32, (v >> 32) as u32];
    let mut out = Vec::new();
    for (sgpr, _) in kd.user_sgprs() {
        match sgpr {
            UserSgpr::PrivateSegmentBuffer => {
                out.extend(scratch_vsharp(arch, a.scratch, a.scratch_bytes, wave_size))
            }
            UserSgpr::DispatchPtr => out.extend(lo_hi(a.dispatch)),
            UserSgpr::QueuePtr => out.extend(lo_hi(a.queue)),
            UserSgpr::KernargSegmentPtr => out.extend(lo_hi(a.kernarg)),
            // The dispatch id: the packet's index in its queue; gcnrun's one
            // dispatch is the queue's first.
            UserSgpr::DispatchId => out.extend([0, 0]),
            // GFX7–GFX8 ("offset flat scratch"): the scratch's offset from the
            // private aperture (gcnrun has none: its address) and the
            // per-work-item size; GFX9+ ("absolute flat scratch"): the
            // scratch's 64-bit address (AMDGPUUsage, "Flat Scratch").
            UserSgpr::FlatScratchInit => {
                if arch.gen <= Gen::Gfx8 {
                    out.extend([a.scratch as u32, a.private_size]);
                } else {
                    out.extend(lo_hi(a.scratch));
                }
            }
            UserSgpr::PreloadedKernargs => {
                let first = kd.preload_offset() as usize * 4;
                for k in 0..kd.preload_length() as usize {
                    let at = first + 4 * k;
                    let dword = kernarg
                        .get(at..at + 4)
                        .map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
                    out.push(dword);
                }
            }
            UserSgpr::PrivateSegmentSize => out.push(a.private_size),
        }
    }
    out
}

/// Builds every wave of the dispatch, without LDS (`hsa::prepare` gives it to
/// the waves of a program with an LDS operation); the caller has checked the
/// wave count against the launch's cap.
pub fn build(
    kd: &KernelDescriptor,
    arch: &Arch,
    g: &Geometry,
    wave_size: u32,
    a: &Addresses,
    kernarg: &[u8],
) -> Result<Vec<WaveState>, String> {
    let user = user_sgprs(kd, arch, a, kernarg, wave_size);
    let system_base = kd.user_sgpr_count();
    let wg_id = kd.workgroup_id();
    let packed = packed_workitem_ids(arch);
    let ids = kd.workitem_id().min(2);
    let groups = g.groups();
    let total = g.waves(wave_size);
    let mut waves = Vec::new();
    waves
        .try_reserve_exact(total as usize)
        .map_err(|_| crate::machine::memory::AllocError::new(total).to_string())?;
    for gz in 0..groups[2] {
        for gy in 0..groups[1] {
            for gx in 0..groups[0] {
                let id = [gx, gy, gz];
                let size = g.group_size(id);
                let items = size[0] * size[1] * size[2];
                let count = items.div_ceil(wave_size);
                for w in 0..count {
                    let index = waves.len() as u32;
                    let mut s = WaveState::try_new(index, wave_size, 0)
                        .map_err(|m| format!("the registers of wave {index}: {m}"))?;
                    // The waves of a workgroup share its LDS and barriers.
                    s.workgroup = gx + groups[0] * (gy + groups[1] * gz);
                    s.mode = kd.initial_mode();
                    for (n, v) in user.iter().take(16).enumerate() {
                        s.set_sgpr(n as u32, *v);
                    }
                    let mut next = system_base;
                    let mut put = |s: &mut WaveState, v: u32| {
                        s.set_sgpr(next, v);
                        next += 1;
                    };
                    for d in 0..3 {
                        if wg_id[d] {
                            put(&mut s, id[d]);
                        }
                    }
                    if kd.workgroup_info() {
                        // {first_wavefront, 14'b0, ordered_append_term[10:0],
                        // threadgroup_size_in_wavefronts[5:0]}
                        let first = if w == 0 { 1u32 << 31 } else { 0 };
                        put(&mut s, first | (count & 0x3f));
                    }
                    if kd.scratch_wave_offset() {
                        put(&mut s, (u64::from(index) * a.scratch_per_wave) as u32);
                    }
                    let mut exec = 0u64;
                    for lane in 0..wave_size {
                        let flat = w * wave_size + lane;
                        if flat >= items {
                            continue;
                        }
                        exec |= 1 << lane;
                        let x = flat % size[0];
                        let y = flat / size[0] % size[1];
                        let z = flat / (size[0] * size[1]);
                        if packed {
                            let mut v = x & 0x3ff;
                            if ids >= 1 {
                                v |= (y & 0x3ff) << 10;
                            }
                            if ids >= 2 {
                                v |= (z & 0x3ff) << 20;
                            }
                            s.set_vgpr(0, lane, v);
                        } else {
                            s.set_vgpr(0, lane, x);
                            if ids >= 1 {
                                s.set_vgpr(1, lane, y);
                            }
                            if ids >= 2 {
                                s.set_vgpr(2, lane, z);
                            }
                        }
                    }
                    s.exec = exec;
                    waves.push(s);
                }
            }
        }
    }
    Ok(waves)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every user SGPR enabled (16 of them with 1 preloaded dword), and every
    /// system SGPR: the order of AMDGPUUsage's "SGPR Register Set Up Order".
    #[test]
    fn every_sgpr_in_its_place() {
        let mut b = [0u8; 64];
        // kernel_code_properties: bits 0–6 (every user SGPR).
        b[56] = 0x7f;
        // kernarg_preload: 1 dword from dword offset 2.
        b[58..60].copy_from_slice(&(1u16 | 2 << 7).to_le_bytes());
        // rsrc2: private segment (wave offset), USER_SGPR_COUNT 16, work-group
        // id x/y/z, work-group info, work-item ids x/y/z.
        let rsrc2: u32 = 1 | 16 << 1 | 0b1111 << 7 | 2 << 11;
        b[52..56].copy_from_slice(&rsrc2.to_le_bytes());
        let kd = KernelDescriptor::parse(&b);
        let arch = Arch::parse("gfx900").unwrap();
        let g = Geometry {
            grid: [128, 1, 1],
            block: [128, 1, 1],
            dims: 1,
            offset: [0; 3],
        };
        let a = Addresses {
            kernarg: 0x1_0100,
            dispatch: 0x2_0200,
            queue: 0x3_0300,
            scratch: 0x4_0400,
            scratch_bytes: 0x1000,
            scratch_per_wave: 0x800,
            private_size: 8,
        };
        let kernarg: Vec<u8> = (0u8..16).collect();
        let waves = build(&kd, &arch, &g, 64, &a, &kernarg).unwrap();
        assert_eq!(waves.len(), 2);
        let w = &waves[1];
        let s: Vec<u32> = (0..21).map(|n| w.sgpr(n)).collect();
        assert_eq!(&s[0..4], &scratch_vsharp(&arch, 0x4_0400, 0x1000, 64));
        assert_eq!(&s[4..6], &[0x2_0200, 0], "dispatch ptr");
        assert_eq!(&s[6..8], &[0x3_0300, 0], "queue ptr");
        assert_eq!(&s[8..10], &[0x1_0100, 0], "kernarg segment ptr");
        assert_eq!(&s[10..12], &[0, 0], "dispatch id");
        assert_eq!(
            &s[12..14],
            &[0x4_0400, 0],
            "flat scratch init (gfx9: address)"
        );
        assert_eq!(
            s[14],
            u32::from_le_bytes([8, 9, 10, 11]),
            "preloaded dword 2"
        );
        assert_eq!(s[15], 8, "private segment size");
        assert_eq!(&s[16..19], &[0, 0, 0], "work-group id x, y, z");
        assert_eq!(s[19], 2, "work-group info: not the first wave, 2 waves");
        assert_eq!(waves[0].sgpr(19), 1 << 31 | 2, "the first wave");
        assert_eq!(s[20], 0x800, "scratch wave offset of wave 1");
        // Work-item ids in v0, v1, v2 (gfx9 does not pack them).
        assert_eq!((w.vgpr(0, 5), w.vgpr(1, 5), w.vgpr(2, 5)), (69, 0, 0));
        // gfx7/gfx8 flat scratch init: the offset and the per-item size.
        let gfx8 = Arch::parse("gfx803").unwrap();
        let w8 = &build(&kd, &gfx8, &g, 64, &a, &kernarg).unwrap()[0];
        assert_eq!((w8.sgpr(12), w8.sgpr(13)), (0x4_0400, 8));
        // More than 16 user SGPRs: only the first 16 are set.
        b[58..60].copy_from_slice(&(3u16).to_le_bytes());
        let kd = KernelDescriptor::parse(&b);
        let w = &build(&kd, &arch, &g, 64, &a, &kernarg).unwrap()[0];
        assert_eq!((w.sgpr(14), w.sgpr(15)), (0x0302_0100, 0x0706_0504));
        assert_eq!(
            w.sgpr(16),
            0,
            "the private segment size (the 18th) is not set"
        );
    }

    #[test]
    fn packed_ids_are_gfx11_and_gfx90a() {
        assert!(packed_workitem_ids(&Arch::parse("gfx1100").unwrap()));
        assert!(!packed_workitem_ids(&Arch::parse("gfx1030").unwrap()));
        assert!(!packed_workitem_ids(&Arch::parse("gfx900").unwrap()));
    }
}
