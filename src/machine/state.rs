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

/// One wave's registers and LDS. Sizes are fixed by the architecture, never by
/// input: VGPRs are `256 × wave_size` dwords, LDS is capped by the caller.
#[derive(Debug, PartialEq, Eq)]
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
            vgpr: vec![0; (VGPRS * wave_size) as usize],
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
    /// registers and LDS (a launch of many waves takes gigabytes).
    pub fn try_new(wave: u32, wave_size: u32, lds_bytes: u32) -> Result<WaveState, AllocError> {
        let wave_size = if wave_size == 32 { 32 } else { 64 };
        Ok(WaveState {
            wave,
            workgroup: wave,
            wave_size,
            sgpr: vec![0; SGPRS as usize],
            vgpr: super::memory::try_zeroed((VGPRS * wave_size) as usize)?,
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

    /// The VGPR file, register-major (`v<n>` of lane `l` at `n × wave_size + l`).
    pub fn vgprs(&self) -> &[u32] {
        &self.vgpr
    }

    /// The VGPR file, mutable.
    pub fn vgprs_mut(&mut self) -> &mut [u32] {
        &mut self.vgpr
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

    /// `v<n>` of `lane` (0 past the file).
    pub fn vgpr(&self, n: u32, lane: u32) -> u32 {
        self.vgpr_index(n, lane)
            .and_then(|i| self.vgpr.get(i).copied())
            .unwrap_or(0)
    }

    /// Sets `v<n>` of `lane` (ignored past the file).
    pub fn set_vgpr(&mut self, n: u32, lane: u32, v: u32) {
        if let Some(slot) = self.vgpr_index(n, lane).and_then(|i| self.vgpr.get_mut(i)) {
            *slot = v;
        }
    }

    fn vgpr_index(&self, n: u32, lane: u32) -> Option<usize> {
        (n < VGPRS && lane < self.wave_size).then(|| (n * self.wave_size + lane) as usize)
    }

    /// The lanes EXEC enables, in order.
    ///
    /// WGSL twin: `is_active` (one lane's EXEC bit) in `shaders/image.wgsl` (docs/gpu.md,
    /// "Twins").
    pub fn active_lanes(&self) -> impl Iterator<Item = u32> {
        let exec = self.exec;
        (0..self.wave_size).filter(move |l| exec >> l & 1 == 1)
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
