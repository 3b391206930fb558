//! The dispatch: grid and work-group sizes, the work-groups they make, and
//! the AQL kernel dispatch packet the dispatch ptr points at.
//!
//! `grid` and `block` count work-items, as OpenCL's global and local work
//! sizes and the AQL packet's `grid_size` and `workgroup_size` do (a HIP
//! launch of `G` blocks of `B` threads is `grid = G × B`, `block = B`). A grid
//! that is not a multiple of the block ends in a partial work-group per
//! dimension (OpenCL 2.0 non-uniform work-groups), whose size the
//! `hidden_remainder_*` arguments give (AMDGPUUsage, "Code Object V5
//! Metadata"; ROCm CLR `rocvirtual.cpp` sets them to `grid % block`).

/// Sizes per dimension (x, y, z) and how many dimensions were given (1–3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dims {
    /// x, y, z; the ones not given are 1.
    pub size: [u32; 3],
    /// How many were given.
    pub dims: u32,
}

impl Dims {
    /// `X[,Y[,Z]]`: one to three positive integers separated by commas.
    pub fn parse(s: &str) -> Result<Dims, String> {
        let parts: Vec<&str> = s.split(',').map(str::trim).collect();
        if parts.is_empty() || parts.len() > 3 {
            return Err(format!("`{s}`: give X, X,Y or X,Y,Z"));
        }
        let mut size = [1u32; 3];
        for (i, p) in parts.iter().enumerate() {
            size[i] = p
                .parse::<u32>()
                .ok()
                .filter(|n| *n > 0)
                .ok_or_else(|| format!("`{s}`: `{p}` is not a positive 32-bit integer"))?;
        }
        Ok(Dims {
            size,
            dims: parts.len() as u32,
        })
    }

    /// From a list of numbers (a manifest's `grid = [256, 4]`).
    pub fn from_list(v: &[i64]) -> Result<Dims, String> {
        if v.is_empty() || v.len() > 3 {
            return Err(format!("{} numbers: give 1 to 3", v.len()));
        }
        let mut size = [1u32; 3];
        for (i, n) in v.iter().enumerate() {
            size[i] = u32::try_from(*n)
                .ok()
                .filter(|n| *n > 0)
                .ok_or_else(|| format!("{n} is not a positive 32-bit integer"))?;
        }
        Ok(Dims {
            size,
            dims: v.len() as u32,
        })
    }
}

/// The work-group geometry of a dispatch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Geometry {
    /// Work-items per dimension (`grid_size`).
    pub grid: [u32; 3],
    /// Work-group size per dimension (`workgroup_size`).
    pub block: [u32; 3],
    /// Dimensions (1–3): the larger of what grid and block were given with.
    pub dims: u32,
    /// The global offset per dimension (`hidden_global_offset_*`).
    pub offset: [u64; 3],
}

impl Geometry {
    /// Work-groups per dimension, the partial one included.
    pub fn groups(&self) -> [u32; 3] {
        [0, 1, 2].map(|d| self.grid[d].div_ceil(self.block[d]))
    }

    /// Whole work-groups per dimension (`hidden_block_count_*`).
    pub fn full_groups(&self) -> [u32; 3] {
        [0, 1, 2].map(|d| self.grid[d] / self.block[d])
    }

    /// The partial work-group's size per dimension, 0 when there is none
    /// (`hidden_remainder_*`).
    pub fn remainder(&self) -> [u32; 3] {
        [0, 1, 2].map(|d| self.grid[d] % self.block[d])
    }

    /// The size of work-group `id` per dimension: the block, or the
    /// remainder for the last one of a dimension that has one.
    pub fn group_size(&self, id: [u32; 3]) -> [u32; 3] {
        [0, 1, 2].map(|d| {
            let start = id[d] as u64 * self.block[d] as u64;
            (self.grid[d] as u64 - start).min(self.block[d] as u64) as u32
        })
    }

    /// Work-items in a full work-group.
    pub fn block_items(&self) -> u64 {
        self.block.iter().map(|&b| u64::from(b)).product()
    }

    /// Waves of `wave_size` lanes the whole dispatch takes (saturating: a grid
    /// of 2^32 work-groups per dimension has more than 2^64 waves).
    pub fn waves(&self, wave_size: u32) -> u64 {
        let groups = self.groups();
        let mut total = 0u64;
        // Per dimension: full groups and at most one partial one, so the
        // count is a sum over at most 8 kinds of work-groups.
        for kx in kinds(groups[0], self.full_groups()[0]) {
            for ky in kinds(groups[1], self.full_groups()[1]) {
                for kz in kinds(groups[2], self.full_groups()[2]) {
                    let size = self.group_size([kx.0, ky.0, kz.0]);
                    let items: u64 = size.iter().map(|&s| u64::from(s)).product();
                    let n = kx.1.saturating_mul(ky.1).saturating_mul(kz.1);
                    total = total
                        .saturating_add(n.saturating_mul(items.div_ceil(u64::from(wave_size))));
                }
            }
        }
        total
    }
}

/// The kinds of work-group along one dimension: (a representative id, how many).
fn kinds(groups: u32, full: u32) -> Vec<(u32, u64)> {
    let mut v = Vec::new();
    if full > 0 {
        v.push((0, u64::from(full)));
    }
    if groups > full {
        v.push((full, 1));
    }
    v
}

/// `hsa_kernel_dispatch_packet_t` (HSA Platform System Architecture
/// Specification 1.2, 2.9.6 "Kernel dispatch packet format"), 64 bytes:
///
/// | bytes | field |
/// |---|---|
/// | 0–1 | header |
/// | 2–3 | setup (bits 1:0: dimensions) |
/// | 4–9 | workgroup_size_x, _y, _z (u16) |
/// | 10–11 | reserved0 |
/// | 12–23 | grid_size_x, _y, _z (u32) |
/// | 24–27 | private_segment_size |
/// | 28–31 | group_segment_size |
/// | 32–39 | kernel_object (the kernel descriptor's address) |
/// | 40–47 | kernarg_address |
/// | 48–55 | reserved2 |
/// | 56–63 | completion_signal |
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DispatchPacket {
    /// The header.
    pub header: u16,
    /// Dimensions (1–3).
    pub dims: u16,
    /// Work-group size.
    pub workgroup_size: [u16; 3],
    /// Grid size in work-items.
    pub grid_size: [u32; 3],
    /// Private bytes per work-item.
    pub private_segment_size: u32,
    /// LDS bytes per work-group (fixed plus dynamic).
    pub group_segment_size: u32,
    /// The kernel descriptor's address.
    pub kernel_object: u64,
    /// The kernarg segment's address.
    pub kernarg_address: u64,
}

/// The header ROCm CLR writes (`rocvirtual.cpp`, `dispatchPacketHeader_`):
/// `HSA_PACKET_TYPE_KERNEL_DISPATCH` (2) in bits 7:0, the barrier bit (8),
/// and system-scope acquire and release fences (2 in bits 10:9 and 12:11).
pub const HEADER: u16 = 2 | 1 << 8 | 2 << 9 | 2 << 11;

/// The size of a dispatch packet.
pub const PACKET_BYTES: usize = 64;

impl DispatchPacket {
    /// The packet's 64 bytes (reserved fields and the completion signal zero).
    pub fn to_bytes(&self) -> [u8; PACKET_BYTES] {
        let mut b = [0u8; PACKET_BYTES];
        b[0..2].copy_from_slice(&self.header.to_le_bytes());
        b[2..4].copy_from_slice(&self.dims.to_le_bytes());
        for d in 0..3 {
            b[4 + 2 * d..6 + 2 * d].copy_from_slice(&self.workgroup_size[d].to_le_bytes());
            b[12 + 4 * d..16 + 4 * d].copy_from_slice(&self.grid_size[d].to_le_bytes());
        }
        b[24..28].copy_from_slice(&self.private_segment_size.to_le_bytes());
        b[28..32].copy_from_slice(&self.group_segment_size.to_le_bytes());
        b[32..40].copy_from_slice(&self.kernel_object.to_le_bytes());
        b[40..48].copy_from_slice(&self.kernarg_address.to_le_bytes());
        b
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn geo(grid: [u32; 3], block: [u32; 3]) -> Geometry {
        Geometry {
            grid,
            block,
            dims: 3,
            offset: [0; 3],
        }
    }

    #[test]
    fn partial_groups_follow_the_remainder() {
        let g = geo([100, 3, 1], [64, 2, 1]);
        assert_eq!(g.groups(), [2, 2, 1]);
        assert_eq!(g.full_groups(), [1, 1, 1]);
        assert_eq!(g.remainder(), [36, 1, 0]);
        assert_eq!(g.group_size([1, 1, 0]), [36, 1, 1]);
        assert_eq!(g.group_size([0, 0, 0]), [64, 2, 1]);
        // (64·2 = 2 waves) + (36·2 = 2 waves) + (64·1 = 1) + (36·1 = 1).
        assert_eq!(g.waves(64), 6);
        assert_eq!(g.waves(32), 4 + 3 + 2 + 2);
    }

    #[test]
    fn dims_parse() {
        assert_eq!(
            Dims::parse("256").unwrap(),
            Dims {
                size: [256, 1, 1],
                dims: 1
            }
        );
        assert_eq!(Dims::parse("8,4,2").unwrap().size, [8, 4, 2]);
        assert!(Dims::parse("0").is_err());
        assert!(Dims::parse("1,2,3,4").is_err());
        assert!(Dims::parse("a").is_err());
    }

    #[test]
    fn packet_layout() {
        let p = DispatchPacket {
            header: HEADER,
            dims: 2,
            workgroup_size: [8, 4, 1],
            grid_size: [64, 32, 1],
            private_segment_size: 16,
            group_segment_size: 256,
            kernel_object: 0x1122_3344_5566_7788,
            kernarg_address: 0x10_0000,
        };
        let b = p.to_bytes();
        assert_eq!(&b[0..4], &[0x02, 0x15, 2, 0]);
        assert_eq!(&b[4..10], &[8, 0, 4, 0, 1, 0]);
        assert_eq!(&b[12..16], &64u32.to_le_bytes());
        assert_eq!(&b[32..40], &0x1122_3344_5566_7788u64.to_le_bytes());
        assert_eq!(&b[40..48], &0x10_0000u64.to_le_bytes());
        assert!(b[48..].iter().all(|x| *x == 0));
    }
}
