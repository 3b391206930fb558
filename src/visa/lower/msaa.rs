//! The 2D MSAA sub-ops: `load_2dms_w` as AMD `image_load` on a 2D MSAA
//! surface, `sampleinfo`, and the refusal of `load_mcs` (docs/semantics/intel.md,
//! "load_2dms_w").

use super::{Binding, Cx, Res};
use crate::ir::alu::{AluFn, Family, Ty};
use crate::ir::visa::{ElemType, GrfDst, GrfSrc, VisaOp};
use crate::texture::descriptor::ImageType;
use crate::visa::inst::Sampler;

/// Why `load_mcs` is not executed.
pub const LOAD_MCS_REFUSAL: &str = "`load_mcs` is not executed: what the sampler returns for a surface without an MCS (gcnrun's MSAA surfaces have none) is not in a public source";

/// `sampleinfo` (IGC `INFO.md`): R = the surface's sample count as UD (1 for
/// a single-sampled 2D surface). G and B are undefined and A is the sample
/// position palette index, surface state gcnrun does not model, so only R
/// may be enabled. Lowered to a `mov` of the launch-constant count into the
/// R block under the instruction's channel enables.
pub(super) fn sampleinfo(cx: &mut Cx, s: &Sampler, line: usize) -> Res<()> {
    if s.channels != 1 {
        return Err(
            "`sampleinfo` returns only R (the sample count) here: G and B are undefined and A (the sample position palette index) is not modelled; use `.R`"
                .into(),
        );
    }
    let d = match cx.binding(&s.surface)? {
        Binding::Image { desc, .. } => *desc,
        Binding::Buffer { .. } => {
            return Err(format!(
                "surface `{}` is bound to a buffer, not an image",
                s.surface
            ))
        }
    };
    // INFO.md defines sampleinfo for 2D surfaces (Intel's SURFTYPE_2D covers
    // arrays and multisampled surfaces).
    if !matches!(
        d.image_type,
        ImageType::D2 | ImageType::D2Array | ImageType::D2Msaa | ImageType::D2MsaaArray
    ) {
        return Err(format!(
            "`sampleinfo` on a {:?} surface: it is defined for 2D surfaces only",
            d.image_type
        ));
    }
    let (byte, var) = cx.raw(&s.dst)?;
    if var.ty != Some(ElemType::Ud) {
        return Err(format!(
            "the destination of `sampleinfo` must have type UD (`{}` is {})",
            s.dst.name,
            var.visa.name()
        ));
    }
    if byte + 4 * u32::from(s.exec.size) > var.byte + var.bytes {
        return Err(format!(
            "the result of `sampleinfo` runs past `{}`",
            s.dst.name
        ));
    }
    let pred = s.pred.as_ref().map(|p| cx.pred(p)).transpose()?;
    let ch = cx.channels(s.exec, pred);
    let count = crate::texture::resource::samples(&d);
    cx.push(
        line,
        VisaOp::Alu {
            func: AluFn::new(Family::Mov, Ty::B64),
            sat: false,
            ch,
            select: None,
            dst: GrfDst {
                byte: Some(byte),
                ty: ElemType::Ud,
                hstride: 1,
            },
            srcs: vec![GrfSrc::Imm(u64::from(count), ElemType::Ud)],
        },
    );
    Ok(())
}

/// `load_2dms_w`'s sample-index address slot (IGC `3D_LOAD.md`, UD form:
/// si, mcsl, mcsh, u, v, r, lod; Mesa `brw_sampler.c` `LD2DMS_W` has the
/// same order). The MCS halves are not read: the sampler ignores them on a
/// surface without an MCS (Mesa `anv_pipeline.c`, `populate_sampler_prog_key`:
/// "the sampler just ignores the MCS parameter to ld2ms when MCS is
/// disabled"), and gcnrun's surfaces have none. The UW form (four 16-bit MCS
/// parts, Gfx12.5+) is refused.
pub(super) fn sample_index_slot(
    si: Option<(u32, ElemType)>,
    lod: Option<(u32, ElemType)>,
    d: &crate::texture::descriptor::ImageDesc,
) -> Res<crate::ir::visa::AddrSlot> {
    if matches!(si, Some((_, ElemType::Uw | ElemType::W))) {
        return Err(
            "the UW form of `load_2dms_w` (four 16-bit MCS parameters, Gfx12.5+) is not modelled; use UD parameters"
                .into(),
        );
    }
    Ok(crate::ir::visa::AddrSlot::SampleIndex {
        si,
        lod,
        last: crate::texture::resource::samples(d) - 1,
    })
}
