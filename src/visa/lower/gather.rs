//! 3D_GATHER4 (`sample4*`) as AMD `image_gather4*` (docs/semantics/intel.md,
//! "Gather4"; the parameter tables are `tables::SUB_OPS`).
//!
//! Which LOD plain `gather4` reads: the base level. Mesa's brw sampler table
//! (`src/intel/compiler/brw/brw_sampler.c`) has implicit-LOD (`GATHER4_I`),
//! explicit-LOD (`_L`) and biased (`_B`) gathers only as separate Xe2
//! (ver ≥ 20) messages, and emits GLSL `textureGather`, which reads the base
//! level, as plain `GATHER4`. So `sample4` is AMD `image_gather4_lz` and
//! `sample4_c` `image_gather4_c_lz`.
//!
//! Result order: IGC `3D_SAMPLE4.md` returns the four samples as R = lower
//! left, G = lower right, B = upper right, A = upper left, which is AMD's
//! gather order (i0, j1), (i1, j1), (i1, j0), (i0, j0) in docs/semantics/sampling.md
//! (j grows downward), so the four AMD result VGPRs scatter as R, G, B, A
//! unchanged. The source channel index is AMD's single-bit DMASK (the parser
//! keeps it as that bit).

use super::aoffimmi::Aoff;
use super::Res;
use crate::ir::visa::{AddrSlot, ElemType};

/// Sub-ops that exist only on Xe2 (Mesa `brw_sampler.c`: `XE2_SAMPLER_MESSAGE_
/// SAMPLE_GATHER4_{L,B,I,I_C,L_C}`, gated on ver ≥ 20).
const XE2_ONLY: &[&str] = &[
    "sample4_l",
    "sample4_b",
    "sample4_i",
    "sample4_i_c",
    "sample4_l_c",
];

/// Sub-ops Xe2 no longer has: it reuses their codes 17 and 18 for
/// `sample_d_c_mlod` / `sample_mlod` (IGC `visa_igc_common_header.h`; Mesa
/// gates `GATHER4_PO`/`_PO_C` on ver < 20).
const PRE_XE2_ONLY: &[&str] = &["sample4_po", "sample4_po_c"];

/// Values each gather writes: the four samples.
pub const GATHER_VALUES: u32 = 4;

/// Refuses a gather sub-op the launch's platform does not have.
pub(super) fn check_platform(name: &str, xe2: bool) -> Res<()> {
    if XE2_ONLY.contains(&name) && !xe2 {
        return Err(format!(
            "`{name}` exists only on Xe2 (a platform with a 64-byte GRF: xe2, lnl, bmg); this launch's platform has no such message"
        ));
    }
    if PRE_XE2_ONLY.contains(&name) && xe2 {
        return Err(format!(
            "`{name}` does not exist on Xe2 (its sub-op code names sample_d_c_mlod / sample_mlod there)"
        ));
    }
    Ok(())
}

/// True for the programmable-offset gathers (`offu`/`offv` parameters).
pub fn is_po(name: &str) -> bool {
    PRE_XE2_ONLY.contains(&name)
}

/// The `_o` dword of a programmable-offset gather: per channel, U from
/// `offu` and V from `offv` (IGC `3D_SAMPLE4.md`: type D; 6-bit AMD fields,
/// `cpu::visa::amd_offset_dword`). `aoffimmi` must be zero: no source says
/// whether gather4_po also adds the header offsets (Mesa sends one or the
/// other).
pub(super) fn po_slot(
    aoff: &Aoff,
    offu: Option<(u32, ElemType)>,
    offv: Option<(u32, ElemType)>,
) -> Res<AddrSlot> {
    if aoff.any() {
        return Err(
            "a non-zero `aoffimmi` on a programmable-offset gather: whether the message adds it to offu/offv is not in a public source"
                .into(),
        );
    }
    Ok(AddrSlot::OffsetDword {
        aoffimmi: None,
        offu,
        offv,
    })
}
