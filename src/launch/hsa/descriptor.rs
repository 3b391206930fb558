//! The kernel descriptor (`<name>.kd`): 64 bytes the packet processor reads to
//! start a kernel's waves (LLVM AMDGPUUsage, "Kernel Descriptor", code object
//! V3+ layout, the same for GFX6–GFX11; LLVM `AMDHSAKernelDescriptor.h`).
//!
//! | bytes | field |
//! |---|---|
//! | 0–3 | `group_segment_fixed_size` |
//! | 4–7 | `private_segment_fixed_size` |
//! | 8–11 | `kernarg_size` |
//! | 12–15 | reserved |
//! | 16–23 | `kernel_code_entry_byte_offset` (signed, from the descriptor's address) |
//! | 24–43 | reserved |
//! | 44–47 | `compute_pgm_rsrc3` |
//! | 48–51 | `compute_pgm_rsrc1` |
//! | 52–55 | `compute_pgm_rsrc2` |
//! | 56–57 | `kernel_code_properties` |
//! | 58–59 | `kernarg_preload` |
//! | 60–63 | reserved |

/// The size of a kernel descriptor in bytes.
pub const SIZE: usize = 64;

/// A kernel descriptor, as its fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KernelDescriptor {
    /// LDS bytes a work-group needs (without dynamic LDS).
    pub group_segment_fixed_size: u32,
    /// Private (scratch) bytes a work-item needs.
    pub private_segment_fixed_size: u32,
    /// Bytes of the kernarg segment (0 on older compilers: unknown).
    pub kernarg_size: u32,
    /// Byte offset from the descriptor's address to the kernel's first instruction.
    pub kernel_code_entry_byte_offset: i64,
    /// `COMPUTE_PGM_RSRC3` (gfx90a/gfx10+; zero before).
    pub compute_pgm_rsrc3: u32,
    /// `COMPUTE_PGM_RSRC1`.
    pub compute_pgm_rsrc1: u32,
    /// `COMPUTE_PGM_RSRC2`.
    pub compute_pgm_rsrc2: u32,
    /// `kernel_code_properties`: which user SGPRs are set up, wave32.
    pub kernel_code_properties: u16,
    /// `kernarg_preload`: bits 6:0 the length in dwords, 15:7 the dword offset.
    pub kernarg_preload: u16,
}

/// One user SGPR (or SGPR group) the descriptor may enable, in the order the
/// packet processor assigns them (AMDGPUUsage, "SGPR Register Set Up Order").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UserSgpr {
    /// The scratch V# (4 SGPRs).
    PrivateSegmentBuffer,
    /// The address of the dispatch packet (2).
    DispatchPtr,
    /// The address of the `amd_queue_t` (2).
    QueuePtr,
    /// The address of the kernarg segment (2).
    KernargSegmentPtr,
    /// The dispatch's 64-bit id (2).
    DispatchId,
    /// Flat scratch set-up (2).
    FlatScratchInit,
    /// Kernel arguments preloaded from the kernarg segment (the descriptor's
    /// `kernarg_preload` length in dwords).
    PreloadedKernargs,
    /// The per-work-item private segment size (1).
    PrivateSegmentSize,
}

impl UserSgpr {
    /// The name AMDGPUUsage gives the kernel descriptor's enable field.
    pub fn field(self) -> &'static str {
        match self {
            UserSgpr::PrivateSegmentBuffer => "enable_sgpr_private_segment_buffer",
            UserSgpr::DispatchPtr => "enable_sgpr_dispatch_ptr",
            UserSgpr::QueuePtr => "enable_sgpr_queue_ptr",
            UserSgpr::KernargSegmentPtr => "enable_sgpr_kernarg_segment_ptr",
            UserSgpr::DispatchId => "enable_sgpr_dispatch_id",
            UserSgpr::FlatScratchInit => "enable_sgpr_flat_scratch_init",
            UserSgpr::PreloadedKernargs => "kernarg_preload_spec_length",
            UserSgpr::PrivateSegmentSize => "enable_sgpr_private_segment_size",
        }
    }
}

fn u32_at(b: &[u8; SIZE], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

fn u16_at(b: &[u8; SIZE], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

impl KernelDescriptor {
    /// The descriptor in its 64 bytes (little-endian, as the ELF holds it).
    pub fn parse(b: &[u8; SIZE]) -> KernelDescriptor {
        let mut entry = [0u8; 8];
        entry.copy_from_slice(&b[16..24]);
        KernelDescriptor {
            group_segment_fixed_size: u32_at(b, 0),
            private_segment_fixed_size: u32_at(b, 4),
            kernarg_size: u32_at(b, 8),
            kernel_code_entry_byte_offset: i64::from_le_bytes(entry),
            compute_pgm_rsrc3: u32_at(b, 44),
            compute_pgm_rsrc1: u32_at(b, 48),
            compute_pgm_rsrc2: u32_at(b, 52),
            kernel_code_properties: u16_at(b, 56),
            kernarg_preload: u16_at(b, 58),
        }
    }

    /// The user SGPRs the descriptor enables, in set-up order, with their
    /// sizes in SGPRs (`kernel_code_properties` bits 0–6; the preloaded
    /// kernargs from `kernarg_preload`).
    pub fn user_sgprs(&self) -> Vec<(UserSgpr, u32)> {
        let p = self.kernel_code_properties;
        let on = |bit: u16| p >> bit & 1 == 1;
        let mut out = Vec::new();
        for (bit, sgpr, n) in [
            (0, UserSgpr::PrivateSegmentBuffer, 4),
            (1, UserSgpr::DispatchPtr, 2),
            (2, UserSgpr::QueuePtr, 2),
            (3, UserSgpr::KernargSegmentPtr, 2),
            (4, UserSgpr::DispatchId, 2),
            (5, UserSgpr::FlatScratchInit, 2),
        ] {
            if on(bit) {
                out.push((sgpr, n));
            }
        }
        if self.preload_length() > 0 {
            out.push((UserSgpr::PreloadedKernargs, self.preload_length()));
        }
        if on(6) {
            out.push((UserSgpr::PrivateSegmentSize, 1));
        }
        out
    }

    /// `ENABLE_WAVEFRONT_SIZE32` (`kernel_code_properties` bit 10; gfx10+).
    pub fn wave32(&self) -> bool {
        self.kernel_code_properties >> 10 & 1 == 1
    }

    /// `USES_DYNAMIC_STACK` (`kernel_code_properties` bit 11).
    pub fn uses_dynamic_stack(&self) -> bool {
        self.kernel_code_properties >> 11 & 1 == 1
    }

    /// `KERNARG_PRELOAD_SPEC_LENGTH`: dwords preloaded into user SGPRs.
    pub fn preload_length(&self) -> u32 {
        u32::from(self.kernarg_preload & 0x7f)
    }

    /// `KERNARG_PRELOAD_SPEC_OFFSET`: the first preloaded dword of the kernarg segment.
    pub fn preload_offset(&self) -> u32 {
        u32::from(self.kernarg_preload >> 7)
    }

    /// `COMPUTE_PGM_RSRC2.ENABLE_PRIVATE_SEGMENT` (bit 0): the scratch wave
    /// offset system SGPR.
    pub fn scratch_wave_offset(&self) -> bool {
        self.compute_pgm_rsrc2 & 1 == 1
    }

    /// `COMPUTE_PGM_RSRC2.USER_SGPR_COUNT` (bits 5:1): where the system SGPRs start.
    pub fn user_sgpr_count(&self) -> u32 {
        self.compute_pgm_rsrc2 >> 1 & 0x1f
    }

    /// `COMPUTE_PGM_RSRC2.ENABLE_SGPR_WORKGROUP_ID_{X,Y,Z}` (bits 7, 8, 9).
    pub fn workgroup_id(&self) -> [bool; 3] {
        [7, 8, 9].map(|b| self.compute_pgm_rsrc2 >> b & 1 == 1)
    }

    /// `COMPUTE_PGM_RSRC2.ENABLE_SGPR_WORKGROUP_INFO` (bit 10).
    pub fn workgroup_info(&self) -> bool {
        self.compute_pgm_rsrc2 >> 10 & 1 == 1
    }

    /// `COMPUTE_PGM_RSRC2.ENABLE_VGPR_WORKITEM_ID` (bits 12:11): 0 = X, 1 = X
    /// and Y, 2 = X, Y and Z (3 is undefined).
    pub fn workitem_id(&self) -> u32 {
        self.compute_pgm_rsrc2 >> 11 & 3
    }

    /// The MODE register a wave starts with, from COMPUTE_PGM_RSRC1:
    /// FLOAT_MODE (bits 19:12: round modes 13:12 and 15:14, denormal modes
    /// 17:16 and 19:18) is MODE bits 7:0, DX10_CLAMP (bit 21) MODE bit 8,
    /// IEEE_MODE (bit 23) MODE bit 9 (LLVM AMDGPUUsage, "compute_pgm_rsrc1";
    /// AMD Vega ISA §4.3 "MODE").
    pub fn initial_mode(&self) -> u32 {
        let r = self.compute_pgm_rsrc1;
        (r >> 12 & 0xff) | (r >> 21 & 1) << 8 | (r >> 23 & 1) << 9
    }

    /// `COMPUTE_PGM_RSRC1.GRANULATED_WORKITEM_VGPR_COUNT` (bits 5:0) as VGPRs:
    /// blocks of 4 (wave64) or 8 (wave32, gfx10+) minus one.
    pub fn vgprs(&self) -> u32 {
        let blocks = (self.compute_pgm_rsrc1 & 0x3f) + 1;
        blocks * if self.wave32() { 8 } else { 4 }
    }
}
