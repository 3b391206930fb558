//! IMAGE_LOAD / LOAD_MIP / STORE / STORE_MIP (and their `_pck` forms) and
//! IMAGE_GET_RESINFO on the CPU (docs/semantics/images.md, "Image loads and stores").
//! Sources: research/sampling.md §3.4 (DST_SEL, DMASK), §4.1 (address VGPRs),
//! §4.4 (out of bounds), §5.12 (TFE/LWE), §5.13 (D16, A16), §5.14 (unbound);
//! the address rules live in [`addr`], the data-VGPR rules in [`data`](crate::texture::data).

use crate::arch::Arch;
use crate::check::Refusal;
use crate::cpu::OpError;
use crate::ir::image::ImageOp;
use crate::ir::image::{flag, ImageKind};
use crate::machine::{MemAccess, WaveState};
use crate::texture::bcn;
use crate::texture::data::{has_status, load_dwords, store_values, DataWidth, STATUS_OK};
use crate::texture::descriptor::{Image, ImageDesc, ImageType};
use crate::texture::error::TextureError;
use crate::texture::format::{self, data_format, missing_component, NumFormat};
use crate::texture::resource::{
    read_tsharp, require_in_memory, require_linear, surface_of, texel_offset,
};
use crate::texture::swizzle::unbound_values;
use crate::texture::vaddr as addr;

/// The components DMASK selects from an X, Y, Z, W, in that order; DMASK 0
/// returns one zero (sampling.md §3.4: "treated as DMASK = 1 with a zero
/// written").
pub fn select_dmask(dmask: u32, rgba: [u32; 4]) -> Vec<u32> {
    if dmask & 0xf == 0 {
        return vec![0];
    }
    (0..4)
        .filter(|c| dmask >> c & 1 == 1)
        .map(|c| rgba[c])
        .collect()
}

/// Writes `vals` to consecutive VGPRs from `first`, then the TFE/LWE status
/// dword when the instruction has one.
fn write_result(w: &mut WaveState, lane: u32, first: u32, vals: &[u32], status: bool) {
    for (k, &v) in vals.iter().enumerate() {
        w.set_vgpr(first + k as u32, lane, v);
    }
    if status {
        w.set_vgpr(first + vals.len() as u32, lane, STATUS_OK);
    }
}

/// Executes one image load or store for the wave.
pub fn execute(
    m: &ImageOp,
    w: &mut WaveState,
    mem: &mut MemAccess<'_>,
    arch: &Arch,
) -> Result<(), OpError> {
    let r = m;
    let mip = m.op.has(flag::MIP);
    if !matches!(m.op.kind, ImageKind::Load | ImageKind::Store) {
        return Err(OpError::NotExecuted { op: m.name() });
    }
    // _PCK forms move raw component bits: zero-extended on load (_PCK_SGN:
    // sign-extended to the component width), truncated on store (CLRX MIMG page,
    // IMAGE_LOAD_PCK/_SGN, IMAGE_STORE_PCK). They are read as the UINT/SINT
    // number formats of the same data format, in memory component order without
    // DST_SEL (the page applies none; a documented reading).
    let raw_format = if m.name().contains("_pck_sgn") {
        Some(NumFormat::Sint)
    } else if m.name().contains("_pck") {
        Some(NumFormat::Uint)
    } else {
        None
    };
    let desc = read_tsharp(m, w, arch)?;
    let dmask = r.dmask & 0xf;
    let loads = m.op.kind == ImageKind::Load;
    // DMASK = 0 behaves as DMASK = 1 for the VGPR count (sampling.md §3.4).
    let comps = dmask.count_ones().max(1);
    let width = DataWidth::of(r.d16, arch.packed_d16);
    let status = has_status(r.tfe, r.lwe);
    let lanes = w.active_lanes();
    let d = match desc {
        Image::Bound(d) => d,
        // No resource: loads write 0 to every VGPR (the status dword included),
        // except that a null view returns its DST_SEL constants (SEL_1 = 1.0;
        // sampling.md §5.14); stores do nothing.
        Image::Unbound | Image::Null { .. } => {
            let consts = unbound_values(&desc);
            if loads {
                let vals = load_dwords(&select_dmask(dmask, consts), width, false);
                for lane in lanes {
                    write_result(w, lane, r.vdata, &vals, status);
                }
            }
            return Ok(());
        }
    };
    require_linear(&d, arch)?;
    let surf = surface_of(&d)?;
    require_in_memory(&d, &surf, mem.range())?;
    let df = data_format(d.data_format).ok_or(TextureError::DataFormat {
        code: d.data_format,
    })?;
    let nf = match raw_format {
        Some(raw) => raw,
        None => NumFormat::from_code(d.num_format)
            .ok_or(TextureError::NumFormat { code: d.num_format })?,
    };
    if raw_format.is_some() && df.layout != format::Layout::Plain {
        return Err(OpError::PackedFormat {
            op: m.name(),
            data_format: df.name,
        });
    }
    let block = df.layout == format::Layout::Block;
    if block && !loads {
        return Err(OpError::ReadOnlyBlock {
            op: m.name(),
            data_format: df.name,
        });
    }
    let layout = addr::layout_type(m, d.image_type)?;
    let identity = [4u8, 5, 6, 7];
    let dst_sel = if raw_format.is_some() {
        &identity
    } else {
        &d.dst_sel
    };
    for lane in lanes {
        let c = addr::coords(m, w, lane, layout, mip)?;
        let at = texel_offset(&d, &surf, &c);
        if loads {
            // Out of bounds: zero in every component before DST_SEL (§4.4).
            let texel = match at.and_then(|p| mem.read(p, df.bytes)) {
                Some(bytes) if block => bcn::load_texel(df.code, nf, &bytes, c.x, c.y)?,
                Some(bytes) => format::load_texel(df, nf, &bytes).ok_or(OpError::LoadFormat)?,
                None => [0; 4],
            };
            let swizzled = dst_sel.map(|s| match s {
                0 => 0,
                1 => missing_component(3, nf),
                s => texel[usize::from(s - 4) & 3],
            });
            let vals = load_dwords(&select_dmask(dmask, swizzled), width, nf.is_integer());
            write_result(w, lane, r.vdata, &vals, status);
        } else if let Some(p) = at {
            let dwords: Vec<u32> = (0..width.dwords(comps))
                .map(|k| w.vgpr(r.vdata + k, lane))
                .collect();
            let rgba = store_rgba(dmask, &store_values(&dwords, comps, width, nf));
            let bytes =
                format::store_texel(df, nf, rgba).ok_or(OpError::StoreFormat { num: nf })?;
            mem.write(p, &bytes);
        }
    }
    Ok(())
}

/// The X, Y, Z, W a store sends to the texture unit: consecutive VGPR values
/// fill the components DMASK enables, in X, Y, Z, W order, and every component
/// DMASK leaves out is **zero** (as raw bits: 0.0 for float classes, 0 for
/// integer ones); DMASK 0 sends nothing but zeros.
///
/// Sources: AMD's GCN image text (`reference/amd-image-opcodes-with-sampler.txt`,
/// "fills in the value zero for any missing components", DMASK=1001 example),
/// the RDNA text (`reference/rdna-image-instructions-zh.md`, same rule), and Mesa
/// ACO `visit_image_store`, which drops constant-zero components from DMASK on
/// GFX6–GFX11.5 because "components not in dmask receive zero" (GFX12+: the
/// first component — the "XYXX" rule research/sampling.md §3.4 recorded belongs
/// to that later generation). docs/errata.md S4.
pub fn store_rgba(dmask: u32, data: &[u32]) -> [u32; 4] {
    let mut rgba = [0; 4];
    let mut next = data.iter();
    for (c, slot) in rgba.iter_mut().enumerate() {
        if dmask >> c & 1 == 1 {
            *slot = next.next().copied().unwrap_or(0);
        }
    }
    rgba
}

/// IMAGE_GET_RESINFO (sampling.md §5.10): for the mip level in the address VGPR
/// (relative to BASE_LEVEL; A16: the low half), the DMASK-selected values of
/// width, height, depth (3D) or layers (arrays; faces for cubes), and the
/// view's mip count, as integers. Sizes are `max(1, size >> level)`; height is
/// 1 for 1D and depth 1 for 2D. MSAA resources have one level (LAST_LEVEL holds
/// log2(samples)). A level past the view gives 0 sizes and the unchanged mip
/// count (the documented choice: not public). Unbound or null T#: all zero.
/// DMASK 0 writes one zero; TFE/LWE add the status dword.
pub fn resinfo(m: &ImageOp, w: &mut WaveState, arch: &Arch) -> Result<(), OpError> {
    let r = m;
    if r.d16 {
        return Err(Refusal::NoD16 { op: m.name() }.into());
    }
    let desc = read_tsharp(m, w, arch)?;
    let status = has_status(r.tfe, r.lwe);
    let lanes = w.active_lanes();
    for lane in lanes {
        let level = addr::components(m, w, lane, 1)?
            .first()
            .copied()
            .unwrap_or(0);
        let vals = match desc {
            Image::Bound(d) => resinfo_values(&d, level),
            Image::Unbound | Image::Null { .. } => [0; 4],
        };
        write_result(w, lane, r.vdata, &select_dmask(r.dmask, vals), status);
    }
    Ok(())
}

/// Width, height, depth-or-layers and mip count of view level `level`
/// ([`resinfo`]'s rule).
///
/// WGSL twin: `resinfo_size` (one size) in `shaders/image.wgsl` (docs/gpu.md, "Twins").
pub fn resinfo_values(d: &ImageDesc, level: u32) -> [u32; 4] {
    let levels = if d.image_type.is_msaa() {
        1
    } else {
        u32::from(d.last_level.saturating_sub(d.base_level)) + 1
    };
    if level >= levels {
        return [0, 0, 0, levels];
    }
    let res_level = u32::from(d.base_level) + level;
    let size = |v: u32| v.checked_shr(res_level).unwrap_or(0).max(1);
    let layers = d.last_array.saturating_sub(d.base_array) + 1;
    let (h, third) = match d.image_type {
        ImageType::D1 => (1, 1),
        ImageType::D1Array => (1, layers),
        ImageType::D3 => (size(d.height), size(d.depth)),
        ImageType::D2Array | ImageType::Cube | ImageType::D2MsaaArray => (size(d.height), layers),
        ImageType::D2 | ImageType::D2Msaa => (size(d.height), 1),
    };
    [size(d.width), h, third, levels]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_fills_missing_components_with_zero() {
        // AMD's example: DMASK 1001 sends R from the first VGPR and A from the
        // second; G and B are zero (not copies of R).
        assert_eq!(store_rgba(0b1001, &[7, 9]), [7, 0, 0, 9]);
        assert_eq!(store_rgba(0b0110, &[7, 9]), [0, 7, 9, 0]);
        assert_eq!(store_rgba(0xf, &[1, 2, 3, 4]), [1, 2, 3, 4]);
        assert_eq!(store_rgba(0, &[5]), [0; 4]);
    }
}
