//! The state of one wave: scalar and vector registers, M0, EXEC, VCC and LDS.

use super::memory::AllocError;

/// Scalar registers kept per wave (s0–s105, the most any generation has).
pub const SGPRS: u32 = 106;
/// Vector registers per lane.
pub const VGPRS: u32 = 256;

/// MODE as a launch without a kernel descriptor starts: round to nearest
/// even, denormals kept for every size (FP_DENORM = 3 for f32 and for
/// f16/f64), DX10_CLAMP and IEEE set — what clang's kernel descriptors ask
/// for by default on gfx9+ (`.amdhsa_float_denorm_mode_32 3`,
/// `.amdhsa_dx10_clamp 1`, `.amdhsa_ieee_mode 1`; LLVM AMDGPUUsage,
/// "Kernel Descriptor"). Layout: AMD Vega ISA §4.3 "MODE" — FP_ROUND 3:0,
/// FP_DENORM 7:4, DX10_CLAMP 8, IEEE 9.
pub const DEFAULT_MODE: u32 = 0xf << 4 | 1 << 8 | 1 << 9;

/// One wave's registers and LDS. Sizes are bounded by the architecture, never
/// by input: the VGPR file holds at most `256 × wave_size` dwords, LDS is
/// capped by the caller.
///
/// The VGPR file holds rows only up to the highest register it needs: a
/// launch stores the rows its program names ([`WaveState::store_vgpr_rows`]),
/// a write past them ([`WaveState::set_vgpr`]) adds the rows up to it, and a
/// register past the stored rows reads 0, as every register of a zeroed file
/// did. A wave therefore takes the memory its launch and program use — a
/// sampling program's few registers rather than 64 KiB — which the CPU's
/// caches, the copies of speculative runs and large launches all feel
/// (docs/gpu.md, "A VGPR file the size of its use"). Equality compares the
/// files as the registers read, not as stored.
#[derive(Debug, Eq)]
pub struct WaveState {
    /// Wave index in the launch.
    pub wave: u32,
    /// The workgroup the wave belongs to: the waves of one workgroup are
    /// consecutive in a launch, share one LDS and meet at `s_barrier`
    /// (`cpu::run_with`). A wave's own index unless the launch groups them.
    pub workgroup: u32,
    /// Lanes (64, or 32 on gfx10+).
    pub wave_size: u32,
    sgpr: Vec<u32>,
    vgpr: Vec<u32>,
    /// M0.
    pub m0: u32,
    /// EXEC: bit n = lane n active.
    pub exec: u64,
    /// VCC.
    pub vcc: u64,
    /// SCC, the scalar condition code.
    pub scc: bool,
    /// The MODE register (float round and denormal modes, DX10_CLAMP, IEEE;
    /// `cpu::alu::float::Mode`), as the launch initialises it.
    pub mode: u32,
    /// Local data share, bytes.
    pub lds: Vec<u8>,
}

/// The lanes EXEC enabled when [`WaveState::active_lanes`] was called, in
/// ascending order. It holds a copy of the bits, so it borrows nothing: a loop
/// over it may write the wave, and a copy of it runs over the lanes again —
/// no list of lanes is allocated for each instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ActiveLanes {
    bits: u64,
}

impl ActiveLanes {
    /// True when no lane is enabled.
    pub fn is_empty(&self) -> bool {
        self.bits == 0
    }
}

impl Iterator for ActiveLanes {
    type Item = u32;

    fn next(&mut self) -> Option<u32> {
        if self.bits == 0 {
            return None;
        }
        let lane = self.bits.trailing_zeros();
        self.bits &= self.bits - 1;
        Some(lane)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.bits.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for ActiveLanes {}

impl PartialEq for WaveState {
    fn eq(&self, other: &WaveState) -> bool {
        let WaveState {
            wave,
            workgroup,
            wave_size,
            ref sgpr,
            vgpr: _,
            m0,
            exec,
            vcc,
            scc,
            mode,
            ref lds,
        } = *other;
        (self.wave, self.workgroup, self.wave_size) == (wave, workgroup, wave_size)
            && (self.m0, self.exec, self.vcc, self.scc, self.mode) == (m0, exec, vcc, scc, mode)
            && self.sgpr == *sgpr
            && self.lds == *lds
            && self.same_vgprs(other)
    }
}

impl Clone for WaveState {
    fn clone(&self) -> WaveState {
        let mut w = WaveState {
            sgpr: Vec::new(),
            vgpr: Vec::new(),
            lds: Vec::new(),
            ..*self
        };
        w.clone_from(self);
        w
    }

    /// A copy into this wave's own buffers, which are reused (a speculative
    /// CPU run copies every wave it runs, `cpu::run_with`; allocating the
    /// 64 KiB of VGPRs and of LDS each time would cost more than the copy).
    fn clone_from(&mut self, from: &WaveState) {
        self.copy_registers_from(from);
        self.lds.clone_from(&from.lds);
    }
}

impl WaveState {
    /// Makes every register of this wave (everything but its LDS) a copy of
    /// `from`'s, reusing this wave's buffers.
    pub fn copy_registers_from(&mut self, from: &WaveState) {
        let WaveState {
            wave,
            workgroup,
            wave_size,
            ref sgpr,
            ref vgpr,
            m0,
            exec,
            vcc,
            scc,
            mode,
            lds: _,
        } = *from;
        (self.wave, self.workgroup, self.wave_size) = (wave, workgroup, wave_size);
        (self.m0, self.exec, self.vcc, self.scc, self.mode) = (m0, exec, vcc, scc, mode);
        self.sgpr.clone_from(sgpr);
        self.vgpr.clone_from(vgpr);
    }

    /// Bytes the wave's state holds: its registers and LDS.
    pub fn state_bytes(&self) -> usize {
        4 * (self.sgpr.len() + self.vgpr.len()) + self.lds.len()
    }

    /// Exchanges every register (everything but the LDS) with `other`'s.
    pub fn swap_registers(&mut self, other: &mut WaveState) {
        std::mem::swap(self, other);
        std::mem::swap(&mut self.lds, &mut other.lds);
    }
}

impl WaveState {
    /// A zeroed wave with every lane active. `wave_size` is 32 or 64 (others
    /// are clamped to 64); `lds_bytes` is capped at 64 KiB, the hardware's LDS.
    pub fn new(wave: u32, wave_size: u32, lds_bytes: u32) -> WaveState {
        let wave_size = if wave_size == 32 { 32 } else { 64 };
        WaveState {
            wave,
            workgroup: wave,
            wave_size,
            sgpr: vec![0; SGPRS as usize],
            vgpr: Vec::new(),
            m0: 0,
            exec: if wave_size == 64 {
                u64::MAX
            } else {
                0xffff_ffff
            },
            vcc: 0,
            scc: false,
            mode: DEFAULT_MODE,
            lds: vec![0; lds_bytes.min(64 * 1024) as usize],
        }
    }

    /// [`WaveState::new`], or an error when the machine cannot give the
    /// LDS (a launch of many waves with LDS takes a gigabyte). It stores no
    /// VGPR rows yet: the launch stores those its program names
    /// ([`WaveState::store_vgpr_rows`]).
    pub fn try_new(wave: u32, wave_size: u32, lds_bytes: u32) -> Result<WaveState, AllocError> {
        let wave_size = if wave_size == 32 { 32 } else { 64 };
        Ok(WaveState {
            wave,
            workgroup: wave,
            wave_size,
            sgpr: vec![0; SGPRS as usize],
            vgpr: Vec::new(),
            m0: 0,
            exec: if wave_size == 64 {
                u64::MAX
            } else {
                0xffff_ffff
            },
            vcc: 0,
            scc: false,
            mode: DEFAULT_MODE,
            lds: super::memory::try_zeroed(lds_bytes.min(64 * 1024) as usize)?,
        })
    }

    /// A copy, or an error when the machine cannot give the memory.
    pub fn try_clone(&self) -> Result<WaveState, AllocError> {
        let mut vgpr = super::memory::try_zeroed(self.vgpr.len())?;
        vgpr.copy_from_slice(&self.vgpr);
        let mut lds = super::memory::try_zeroed(self.lds.len())?;
        lds.copy_from_slice(&self.lds);
        Ok(WaveState {
            sgpr: self.sgpr.clone(),
            vgpr,
            lds,
            ..*self
        })
    }

    /// Copies the scalar state (SGPRs, M0, EXEC, VCC) of `other`.
    pub fn copy_scalars_from(&mut self, other: &WaveState) {
        self.sgpr.copy_from_slice(&other.sgpr);
        self.m0 = other.m0;
        self.exec = other.exec;
        self.vcc = other.vcc;
        self.scc = other.scc;
        self.mode = other.mode;
    }

    /// The stored rows of the VGPR file, register-major (`v<n>` of lane `l`
    /// at `n × wave_size + l`); registers past them read 0. Two waves whose
    /// registers read the same may store different numbers of rows: compare
    /// with [`WaveState::same_vgprs`].
    pub fn vgprs(&self) -> &[u32] {
        &self.vgpr
    }

    /// True when every VGPR of every lane reads the same in `self` and
    /// `other` (rows one of them does not store read 0).
    pub fn same_vgprs(&self, other: &WaveState) -> bool {
        let (a, b) = (&self.vgpr, &other.vgpr);
        let n = a.len().min(b.len());
        a[..n] == b[..n] && a[n..].iter().chain(&b[n..]).all(|&v| v == 0)
    }

    /// `v<n>` of every lane (`wave_size` dwords; zeros for a row not stored,
    /// and for `n` past the architecture's 256).
    pub fn vgpr_row(&self, n: u32) -> &[u32] {
        static ZEROS: [u32; 64] = [0; 64];
        let ws = self.wave_size as usize;
        let at = n as usize * ws;
        self.vgpr.get(at..at + ws).unwrap_or(&ZEROS[..ws])
    }

    /// `v<n>` of every lane, mutable, the file grown to hold it; `None` for
    /// `n` past the architecture's 256.
    pub fn vgpr_row_mut(&mut self, n: u32) -> Option<&mut [u32]> {
        if n >= VGPRS {
            return None;
        }
        let ws = self.wave_size as usize;
        let at = n as usize * ws;
        self.grow_vgprs(at + ws);
        Some(&mut self.vgpr[at..at + ws])
    }

    /// Stores the first `rows` VGPR rows (at most the architecture's 256) if
    /// the file holds fewer, so that a run does not grow it register by
    /// register (a launch does this with its program's
    /// [`crate::ir::Program::vgpr_rows`]), or an error when the machine
    /// cannot give the memory (a launch of many waves of a program that names
    /// every register takes a gigabyte).
    pub fn store_vgpr_rows(&mut self, rows: u32) -> Result<(), AllocError> {
        let len = (rows.min(VGPRS) * self.wave_size) as usize;
        if len > self.vgpr.len() {
            let more = len - self.vgpr.len();
            self.vgpr
                .try_reserve_exact(more)
                .map_err(|_| AllocError::new(4 * more as u64))?;
            self.vgpr.resize(len, 0);
        }
        Ok(())
    }

    /// Grows the file to `len` dwords (whole rows, zeroed) if it is shorter.
    fn grow_vgprs(&mut self, len: usize) {
        if self.vgpr.len() < len {
            self.vgpr.resize(len, 0);
        }
    }

    /// The SGPR file.
    pub fn sgprs(&self) -> &[u32] {
        &self.sgpr
    }

    /// `s<n>` (0 past the file).
    pub fn sgpr(&self, n: u32) -> u32 {
        self.sgpr.get(n as usize).copied().unwrap_or(0)
    }

    /// Sets `s<n>` (ignored past the file).
    pub fn set_sgpr(&mut self, n: u32, v: u32) {
        if let Some(s) = self.sgpr.get_mut(n as usize) {
            *s = v;
        }
    }

    /// `v<n>` of `lane` (0 past the stored rows and the architecture's 256).
    pub fn vgpr(&self, n: u32, lane: u32) -> u32 {
        self.vgpr_index(n, lane)
            .and_then(|i| self.vgpr.get(i).copied())
            .unwrap_or(0)
    }

    /// Sets `v<n>` of `lane`, growing the stored rows to hold `v<n>`
    /// (ignored past the architecture's 256 registers and the wave's lanes).
    pub fn set_vgpr(&mut self, n: u32, lane: u32, v: u32) {
        if let Some(i) = self.vgpr_index(n, lane) {
            match self.vgpr.get_mut(i) {
                Some(slot) => *slot = v,
                None => self.set_vgpr_past_rows(n, i, v),
            }
        }
    }

    /// [`WaveState::set_vgpr`] of a register past the stored rows: the file
    /// grows to hold it. Out of line, as a launch stores the rows its program
    /// names before it runs (`WaveState::store_vgpr_rows`).
    #[cold]
    #[inline(never)]
    fn set_vgpr_past_rows(&mut self, n: u32, i: usize, v: u32) {
        self.grow_vgprs((n as usize + 1) * self.wave_size as usize);
        self.vgpr[i] = v;
    }

    fn vgpr_index(&self, n: u32, lane: u32) -> Option<usize> {
        (n < VGPRS && lane < self.wave_size).then(|| (n * self.wave_size + lane) as usize)
    }

    /// The lanes EXEC enables, in order.
    ///
    /// WGSL twin: `is_active` (one lane's EXEC bit) in `shaders/image.wgsl` (docs/gpu.md,
    /// "Twins").
    pub fn active_lanes(&self) -> ActiveLanes {
        let lanes = if self.wave_size >= 64 {
            u64::MAX
        } else {
            (1u64 << self.wave_size) - 1
        };
        ActiveLanes {
            bits: self.exec & lanes,
        }
    }

    /// The dword at LDS byte address `addr`; 0 when any byte is out of range
    /// (out-of-range LDS reads return zero: AMD GCN3/Vega ISA, "LDS" chapter,
    /// out-of-range addresses).
    ///
    /// WGSL twin: `lds_dword` in `shaders/memory.wgsl` (docs/gpu.md, "Twins").
    pub fn lds_dword(&self, addr: u64) -> u32 {
        let Ok(a) = usize::try_from(addr) else {
            return 0;
        };
        match self.lds.get(a..a.saturating_add(4)) {
            Some(b) if b.len() == 4 => u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
            _ => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The file stores rows only up to the highest written, and that changes
    /// no value: unwritten registers read 0, writes past the architecture's
    /// registers or the wave's lanes are dropped, rows read whole.
    #[test]
    fn vgpr_rows_grow_on_writes_and_read_zero_past_them() {
        for ws in [32, 64] {
            let mut w = WaveState::new(0, ws, 0);
            assert!(w.vgprs().is_empty());
            assert_eq!((w.vgpr(0, 0), w.vgpr(255, ws - 1)), (0, 0));
            w.set_vgpr(7, 3, 0xdead);
            assert_eq!(w.vgprs().len(), 8 * ws as usize);
            assert_eq!(w.vgpr(7, 3), 0xdead);
            assert_eq!((w.vgpr(7, 2), w.vgpr(6, 3), w.vgpr(8, 3)), (0, 0, 0));
            w.set_vgpr(2, 1, 5);
            assert_eq!(w.vgprs().len(), 8 * ws as usize, "a lower row is stored");
            w.set_vgpr(VGPRS, 0, 1);
            w.set_vgpr(0, ws, 1);
            assert_eq!(w.vgprs().len(), 8 * ws as usize);
            assert_eq!(w.vgpr(VGPRS, 0), 0);
            w.set_vgpr(VGPRS - 1, ws - 1, 9);
            assert_eq!(w.vgprs().len(), (VGPRS * ws) as usize);
            assert_eq!(w.vgpr_row(7)[3], 0xdead);
            assert_eq!(w.vgpr_row(VGPRS), &vec![0; ws as usize][..]);
            let mut fresh = WaveState::new(0, ws, 0);
            assert_eq!(fresh.vgpr_row(100), &vec![0; ws as usize][..]);
            fresh.vgpr_row_mut(100).expect("a register")[1] = 4;
            assert_eq!(fresh.vgpr(100, 1), 4);
            assert!(fresh.vgpr_row_mut(VGPRS).is_none());
        }
    }

    /// The active lanes are EXEC's set bits below the wave size, ascending,
    /// and a copy runs over them again.
    #[test]
    fn active_lanes_are_exec_bits_within_the_wave() {
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        for ws in [32, 64] {
            let mut w = WaveState::new(0, ws, 0);
            for exec in [0, 1, u64::MAX, 1 << 63, 0xffff_ffff_0000_0001] {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                for e in [exec, seed] {
                    w.exec = e;
                    let want: Vec<u32> = (0..ws).filter(|l| e >> l & 1 == 1).collect();
                    let lanes = w.active_lanes();
                    assert_eq!(lanes.len(), want.len());
                    assert_eq!(lanes.is_empty(), want.is_empty());
                    assert_eq!(lanes.collect::<Vec<_>>(), want, "exec {e:#x} wave {ws}");
                    assert_eq!(lanes.collect::<Vec<_>>(), want, "a copy runs again");
                }
            }
        }
    }

    /// Equality is of the values: a row stored as zeros equals a row not
    /// stored, in either order, and one non-zero dword tells them apart.
    #[test]
    fn waves_compare_by_register_values() {
        let a = WaveState::new(0, 64, 0);
        let mut b = WaveState::new(0, 64, 0);
        b.set_vgpr(40, 0, 0);
        assert!(a.same_vgprs(&b) && b.same_vgprs(&a));
        assert_eq!(a, b);
        b.set_vgpr(40, 63, 1);
        assert!(!a.same_vgprs(&b) && !b.same_vgprs(&a));
        assert_ne!(a, b);
        let mut c = a.clone();
        c.set_vgpr(40, 63, 1);
        assert_eq!(b, c);
        c.set_sgpr(3, 1);
        assert_ne!(b, c);
    }
}
