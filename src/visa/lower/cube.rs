//! 3D_SAMPLE / 3D_INFO on CUBE surfaces (docs/semantics/intel.md, "CUBE
//! surfaces").
//!
//! Intel's sampler takes a cube coordinate as a direction (u, v, r = x, y, z)
//! and a cube index ai (research/visa.md §4.1); the shared AMD sampler takes
//! the face-local `s'`, `t'` and `face_id` a shader computes first
//! (research/sampling.md §5.7). The lowering stages placeholders for those
//! three address dwords and a [`VisaOp::StageCube`] that fills them from the
//! parameters (`texture::sample::cube_direction`).
//!
//! What a cube sample needs from the sampler state: Intel cube maps use one
//! address mode on all three axes, CUBE (seamless filtering across faces) or
//! CLAMP (each face clamped to its own edge) — Mesa's i965/crocus program
//! exactly these two for cube targets. The manifest spells them `cube` and
//! `clamp_last_texel`; they become the S# `DISABLE_CUBE_WRAP` bit of the
//! shared model. Other modes have no public meaning on a cube and are
//! refused, as is `cube` on a surface that is not a cube.
//!
//! Refused by name: 3D_LOAD (IGC's `3D_LOAD.md` gives u/v/r no CUBE meaning),
//! `sample_d`/`sample_d_c` (how Intel turns 3D gradients into a cube LOD is not
//! public), a non-zero `aoffimmi` (texel offsets have no public meaning on a
//! cube). `resinfo` needs nothing here: Intel's table (`super::sample::intel_resinfo`)
//! returns faces (6 × cubes) in B (docs/errata.md, VC1).

use super::Res;
use crate::ir::image::{ImageKind, Opcode};
use crate::ir::visa::{AddrSlot, Staging, VisaOp};
use crate::texture::descriptor::{decode_sampler, encode_sampler};

/// SQ_TEX_CLAMP `clamp_last_texel`: the S# mode both Intel cube modes map to.
const CLAMP_LAST_TEXEL: u8 = 2;

/// Refuses what a cube surface does not model for `name` (the vISA sub-op),
/// whose AMD equivalent is `op`.
pub(super) fn check_op(name: &str, op: &Opcode, offset: bool) -> Res<()> {
    if op.kind == ImageKind::Load {
        return Err(format!(
            "`{name}` on a CUBE surface: 3D_LOAD gives u/v/r no meaning on a cube (IGC 3D_LOAD.md)"
        ));
    }
    if op.gradients() {
        return Err(format!(
            "`{name}` on a CUBE surface: how Intel turns 3D gradients into a cube LOD is not public"
        ));
    }
    if op.kind != ImageKind::ResInfo && offset {
        return Err(format!(
            "`{name}` on a CUBE surface with a texel offset (`aoffimmi` or a `_po` gather): texel offsets on a cube are not public"
        ));
    }
    Ok(())
}

/// The S# a cube sample stages: `ssharp` with DISABLE_CUBE_WRAP set unless the
/// Intel sampler's address mode is CUBE. Refuses a mode other than CUBE or
/// CLAMP on any axis.
pub(super) fn sampler_state(ssharp: [u32; 4], cube_mode: bool) -> Res<[u32; 4]> {
    let mut d = decode_sampler(&ssharp);
    if d.clamp.iter().any(|&c| c != CLAMP_LAST_TEXEL) {
        return Err(
            "a CUBE surface takes address mode `cube` (seamless) or `clamp_last_texel` (per face) on all three axes"
                .into(),
        );
    }
    d.disable_cube_wrap = !cube_mode;
    Ok(encode_sampler(&d))
}

/// The error for address mode CUBE on a surface that is not a cube.
pub(super) fn cube_mode_elsewhere(sampler: &str) -> String {
    format!("sampler `{sampler}` has address mode `cube`, which has no public meaning on a surface that is not a CUBE")
}

/// The three address slots of a cube body (`s'`, `t'`, `face_id`), filled by
/// [`stage`].
pub(super) const BODY: [AddrSlot; 3] = [AddrSlot::Const(0); 3];

/// The op that converts each channel's (u, v, r, ai) into the body staged at
/// address VGPR `staging.addr + at`.
pub(super) fn stage(
    first: u32,
    size: u32,
    params: [AddrSlot; 4],
    at: u32,
    staging: Staging,
) -> VisaOp {
    VisaOp::StageCube {
        first,
        size,
        params,
        at,
        staging,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::texture::descriptor::SamplerDesc;

    fn ssharp(clamp: [u8; 3]) -> [u32; 4] {
        let mut d = decode_sampler(&[0; 4]);
        d.clamp = clamp;
        encode_sampler(&d)
    }

    fn desc(s: [u32; 4]) -> SamplerDesc {
        decode_sampler(&s)
    }

    /// CUBE → seamless (DISABLE_CUBE_WRAP 0), CLAMP → per face (1); any other
    /// mode on any axis is refused.
    #[test]
    fn intel_cube_modes_map_to_disable_cube_wrap() {
        let clamp = ssharp([CLAMP_LAST_TEXEL; 3]);
        assert!(!desc(sampler_state(clamp, true).unwrap()).disable_cube_wrap);
        assert!(desc(sampler_state(clamp, false).unwrap()).disable_cube_wrap);
        for other in [0, 1, 3, 6] {
            for axis in 0..3 {
                let mut c = [CLAMP_LAST_TEXEL; 3];
                c[axis] = other;
                assert!(sampler_state(ssharp(c), false).is_err(), "{c:?}");
            }
        }
    }
}
