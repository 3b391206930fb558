//! Where interpolation parameters live in LDS and what M0 says about them
//! (gfx11 LDSDIR; docs/semantics/interpolation.md, "gfx11 interpolation"): the rules both back
//! ends address LDS by.

/// The primitive a quad interpolates: the number of set bits of NEWPRIMMASK
/// (M0\[30:16\]) below the quad's bit. Bit k set means a new primitive starts at
/// quad k + 1; quad 0 always starts primitive 0 (CLRX VINTRP page, worked example
/// 0b1010011 → lanes 0-3 prim 0, 4-7 prim 1, 8-19 prim 2, 20-27 prim 3, 28-63 prim 4).
///
/// WGSL twin: `primitive_of_quad` in `shaders/interp.wgsl` (docs/gpu.md, "Twins").
pub fn primitive_of_quad(newprimmask: u32, quad: u32) -> u32 {
    let below = if quad >= 32 {
        u32::MAX
    } else {
        (1u32 << quad) - 1
    };
    (newprimmask & 0x7fff & below).count_ones()
}

/// Byte address in LDS of parameter `param` (0 = P0, 1 = P10, 2 = P20) of
/// channel `chan` of `attr` for the primitive of quad `quad`:
/// `M0[15:0] + 4 × (12 × (attr × numprim + prim) + 4 × param + chan)`.
///
/// RDNA3.5 ISA §12.2.1: `LDS_ADDR = lds_base + param_offset +
/// attr# × numPrimsInVector × 12 DWORDs + prim# × 12 + attr_offset`, with
/// `attr_offset` 0 = P0.x, 1 = P0.y … 11 = P2.w — channel-major within each
/// parameter, unlike the gfx6–gfx10 order of CLRX's page (docs/errata.md IP1).
/// `numprim` and `prim` come from NEWPRIMMASK = M0\[30:16\] exactly as before
/// ([`primitive_of_quad`]); `lds_base` is the wave's own LDS.
///
/// WGSL twin: `gfx11_param_address` in `shaders/interp.wgsl` (docs/gpu.md, "Twins").
pub fn param_address(m0: u32, attr: u32, chan: u32, quad: u32, param: u32) -> u64 {
    let mask = (m0 >> 16) & 0x7fff;
    let numprim = u64::from(mask.count_ones() + 1);
    let prim = u64::from(primitive_of_quad(mask, quad));
    let index = 4 * u64::from(param) + u64::from(chan & 3);
    u64::from(m0 & 0xffff) + 4 * (12 * (u64::from(attr) * numprim + prim) + index)
}

/// An M0 that addresses LDS in a way gcnrun refuses (docs/errata.md IP2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LdsError {
    /// `lds_param_load` with nonzero lds_param_offset bits 6:0.
    #[error("lds_param_load: M0 = {m0:#010x}: lds_param_offset bits 6:0 must be zero (RDNA3 ISA)")]
    ParamOffset {
        /// The M0 value.
        m0: u32,
    },
    /// `lds_direct_load` of a DWORD at an address that is not dword-aligned.
    #[error("lds_direct_load: M0 = {m0:#010x}: the address must be dword-aligned")]
    Unaligned {
        /// The M0 value.
        m0: u32,
    },
    /// `lds_direct_load` of a sub-dword type (not executed).
    #[error("lds_direct_load: M0 = {m0:#010x}: data type {ty} (a sub-dword read) is not executed")]
    SubDword {
        /// The M0 value.
        m0: u32,
        /// M0\[18:16\].
        ty: u32,
    },
    /// `lds_direct_load` of a reserved data type.
    #[error("lds_direct_load: M0 = {m0:#010x}: data type {ty} is reserved")]
    Reserved {
        /// The M0 value.
        m0: u32,
        /// M0\[18:16\].
        ty: u32,
    },
}

/// RDNA3.5 ISA §12.2.1: "lds_param_offset bits \[6:0\] must be set to zero".
/// What the hardware does otherwise is not stated, so such an M0 is refused
/// (docs/errata.md IP2).
pub fn check_param_m0(m0: u32) -> Result<(), LdsError> {
    if m0 & 0x7f != 0 {
        return Err(LdsError::ParamOffset { m0 });
    }
    Ok(())
}

/// `lds_direct_load`'s M0: the LDS byte address of a DWORD read (M0\[15:0\],
/// dword-aligned) when M0\[18:16\] = 2 (DWORD). The sub-dword types (0 UBYTE,
/// 1 USHORT, 4 SBYTE, 5 SSHORT) are refused: the guide says the address is
/// dword-aligned but not which bytes of the dword a narrower type returns;
/// 3, 6 and 7 are reserved (docs/errata.md IP2). M0\[31:19\] are ignored.
pub fn direct_address(m0: u32) -> Result<u64, LdsError> {
    let ty = (m0 >> 16) & 7;
    let addr = m0 & 0xffff;
    match ty {
        2 if addr & 3 == 0 => Ok(u64::from(addr)),
        2 => Err(LdsError::Unaligned { m0 }),
        0 | 1 | 4 | 5 => Err(LdsError::SubDword { m0, ty }),
        _ => Err(LdsError::Reserved { m0, ty }),
    }
}
