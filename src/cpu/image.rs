//! IMAGE_LOAD / LOAD_MIP / STORE / STORE_MIP on the CPU (docs/semantics.md,
//! "Image loads and stores"). Sources: research/sampling.md §3.4 (DST_SEL, DMASK,
//! store component rule), §4.1 (address VGPRs), §4.4 (out of bounds), §5.12
//! (TFE), §5.14 (unbound).

use super::{Memory, WaveState};
use crate::arch::{Arch, Gen};
use crate::gcn::mimg::Mimg;
use crate::gcn::mimg_ops::{flag, BaseKind};
use crate::texture::descriptor::{decode_image, Image, ImageDesc, ImageType};
use crate::texture::format::{self, data_format, missing_component, NumFormat};
use crate::texture::layout::Surface;

/// The linear surface a bound T# describes (docs/semantics.md, "Linear layout"):
/// levels `0..=last_level` of the resource, slices from the type.
pub fn surface_of(d: &ImageDesc) -> Result<Surface, String> {
    let df = data_format(d.data_format).ok_or("unsupported data format")?;
    if df.layout == format::Layout::Block {
        return Err(format!(
            "{} images are read through the sampler only",
            df.name
        ));
    }
    let (depth, slices) = match d.image_type {
        ImageType::D3 => (d.depth, 1),
        ImageType::D1Array | ImageType::D2Array | ImageType::Cube => (1, d.last_array + 1),
        _ => (1, 1),
    };
    Ok(Surface {
        bpe: df.bytes,
        block: false,
        width: d.width,
        height: if matches!(d.image_type, ImageType::D1 | ImageType::D1Array) {
            1
        } else {
            d.height
        },
        depth,
        slices,
        pitch: d.pitch,
        levels: u32::from(d.last_level) + 1,
    })
}

/// Number of integer coordinates the body of a load/store has for a type
/// (sampling.md §4.1), before the optional mip level.
fn body_coords(t: ImageType) -> Result<u32, String> {
    Ok(match t {
        ImageType::D1 => 1,
        ImageType::D1Array | ImageType::D2 => 2,
        ImageType::D2Array | ImageType::D3 | ImageType::Cube => 3,
        ImageType::D2Msaa | ImageType::D2MsaaArray => {
            return Err("MSAA image loads/stores are not executed yet".into())
        }
    })
}

/// The byte address of the texel a lane addresses, or `None` when it is out of
/// bounds. Address VGPRs per type (sampling.md §4.1): on gfx6–gfx9 as many
/// consecutive VGPRs from `vaddr` as the type needs (+ the mip level for `_mip`
/// forms); NSA forms list them. Levels and slices are relative to the view.
pub fn texel_address(
    m: &Mimg,
    w: &WaveState,
    lane: u32,
    d: &ImageDesc,
    surf: &Surface,
    mip: bool,
) -> Result<Option<u64>, String> {
    let r = &m.raw;
    let ncoord = body_coords(d.image_type)? + u32::from(mip);
    let addr: Vec<u32> = if m.nsa_form {
        m.address_vgprs().iter().map(|&v| w.vgpr(v, lane)).collect()
    } else {
        (0..ncoord).map(|k| w.vgpr(r.vaddr + k, lane)).collect()
    };
    let a = |k: u32| addr.get(k as usize).copied().unwrap_or(0);
    let (x, mut y, mut z, mut slice) = (a(0), 0, 0, 0);
    match d.image_type {
        ImageType::D1 => {}
        ImageType::D1Array => slice = a(1),
        ImageType::D2 => y = a(1),
        ImageType::D2Array | ImageType::Cube => {
            y = a(1);
            slice = a(2);
        }
        _ => {
            y = a(1);
            z = a(2);
        }
    }
    let level = if mip { a(ncoord - 1) } else { 0 };
    // The view's level L is resource level BASE_LEVEL + L, and its slice S is
    // resource slice BASE_ARRAY + S; anything past the surface is out of
    // bounds (texel_offset gives None).
    let res_level = u32::from(d.base_level).checked_add(level);
    let res_slice = match d.image_type {
        ImageType::D1Array | ImageType::D2Array | ImageType::Cube => {
            d.base_array.checked_add(slice)
        }
        _ => Some(0),
    };
    let offset = match (res_level, res_slice) {
        (Some(l), Some(s)) => surf.texel_offset(l, s, x, y, z),
        _ => None,
    };
    Ok(offset.and_then(|o| o.checked_add(d.base_address)))
}

/// Reads and decodes the T# an instruction names: 8 SGPRs from `srsrc × 4`
/// (R128: dwords 0–3, the rest read 0).
pub fn read_tsharp(m: &Mimg, w: &WaveState, arch: &Arch) -> Result<Image, String> {
    let base = m.raw.srsrc * 4;
    let words = if m.raw.r128 { 4 } else { 8 };
    let tsharp: Vec<u32> = (0..8)
        .map(|i| if i < words { w.sgpr(base + i) } else { 0 })
        .collect();
    decode_image(&tsharp, arch.gen).map_err(|e| format!("s[{}:{}]: {e}", base, base + 7))
}

/// Refuses tiled T#s: gcnrun reads linear images only.
pub fn require_linear(d: &ImageDesc, arch: &Arch) -> Result<(), String> {
    if d.tiling != 8 && arch.gen <= Gen::Gfx8 || d.tiling != 0 && arch.gen == Gen::Gfx9 {
        return Err(format!(
            "tiled T# (tiling {}) is not supported: gcnrun reads linear images only",
            d.tiling
        ));
    }
    Ok(())
}

/// Executes one image load or store for the wave.
pub fn execute(m: &Mimg, w: &mut WaveState, mem: &mut Memory, arch: &Arch) -> Result<(), String> {
    let r = &m.raw;
    let mip = m.op.has(flag::MIP);
    if !matches!(m.op.kind, BaseKind::Load | BaseKind::Store) {
        return Err(format!("`{}` is not executed yet", m.mnemonic()));
    }
    // _PCK forms move raw component bits: zero-extended on load (_PCK_SGN:
    // sign-extended to the component width), truncated on store (CLRX MIMG page,
    // IMAGE_LOAD_PCK/_SGN, IMAGE_STORE_PCK). They are read as the UINT/SINT
    // number formats of the same data format, in memory component order without
    // DST_SEL (the page applies none; a documented reading).
    let raw_format = if m.mnemonic().contains("_pck_sgn") {
        Some(NumFormat::Sint)
    } else if m.mnemonic().contains("_pck") {
        Some(NumFormat::Uint)
    } else {
        None
    };
    if r.d16 || r.a16 || r.lwe {
        return Err(format!(
            "`{}` with d16/a16/lwe is not executed yet",
            m.mnemonic()
        ));
    }
    if arch.gen >= Gen::Gfx10 {
        return Err("gfx10+ image descriptors are not modelled yet".into());
    }
    let desc = read_tsharp(m, w, arch)?;
    let dmask = r.dmask & 0xf;
    let loads = m.op.kind == BaseKind::Load;
    // DMASK = 0 behaves as DMASK = 1 for the VGPR count (sampling.md §3.4).
    let comps = dmask.count_ones().max(1);
    let lanes: Vec<u32> = w.active_lanes().collect();
    let d = match desc {
        Image::Bound(d) => d,
        // No resource: loads write 0 to every VGPR (TFE included), except that a
        // null view returns its DST_SEL constants (SEL_1 = 1.0; sampling.md
        // §5.14); stores do nothing.
        Image::Unbound | Image::Null { .. } => {
            let sel = match desc {
                Image::Null { dst_sel } => dst_sel,
                _ => [0; 4],
            };
            let consts = sel.map(|s| if s == 1 { 1.0f32.to_bits() } else { 0 });
            if loads {
                for &lane in &lanes {
                    let mut k = 0;
                    for (c, &v) in consts.iter().enumerate() {
                        if dmask >> c & 1 == 1 {
                            w.set_vgpr(r.vdata + k, lane, v);
                            k += 1;
                        }
                    }
                    for extra in k..comps + u32::from(r.tfe) {
                        w.set_vgpr(r.vdata + extra, lane, 0);
                    }
                }
            }
            return Ok(());
        }
    };
    require_linear(&d, arch)?;
    let surf = surface_of(&d)?;
    let df = data_format(d.data_format).ok_or("unsupported data format")?;
    let nf = match raw_format {
        Some(raw) => raw,
        None => NumFormat::from_code(d.num_format).ok_or("unsupported number format")?,
    };
    if raw_format.is_some() && df.layout != format::Layout::Plain {
        return Err(format!(
            "`{}` on packed-float data format {}",
            m.mnemonic(),
            df.name
        ));
    }
    let identity = [4u8, 5, 6, 7];
    let dst_sel = if raw_format.is_some() {
        &identity
    } else {
        &d.dst_sel
    };
    for &lane in &lanes {
        let at = texel_address(m, w, lane, &d, &surf, mip)?;
        if loads {
            // Out of bounds: zero in every component before DST_SEL (§4.4).
            let texel = match at.and_then(|p| mem.read(p, df.bytes)) {
                Some(bytes) => format::load_texel(df, nf, bytes).ok_or("unsupported format")?,
                None => [0; 4],
            };
            let swizzled = dst_sel.map(|s| match s {
                0 => 0,
                1 => missing_component(3, nf),
                s => texel[usize::from(s - 4) & 3],
            });
            let mut k = 0;
            for (c, &v) in swizzled.iter().enumerate() {
                if dmask >> c & 1 == 1 {
                    w.set_vgpr(r.vdata + k, lane, v);
                    k += 1;
                }
            }
            if dmask == 0 {
                w.set_vgpr(r.vdata, lane, 0);
            }
            // TFE: one more VGPR, 0 = the fetch succeeded (non-resident status is
            // a PRT feature gcnrun does not model).
            if r.tfe {
                w.set_vgpr(r.vdata + comps, lane, 0);
            }
        } else if let Some(p) = at {
            let data: Vec<u32> = (0..comps).map(|k| w.vgpr(r.vdata + k, lane)).collect();
            let rgba = store_rgba(dmask, &data);
            let bytes = format::store_texel(df, nf, rgba)
                .ok_or_else(|| format!("number format {nf:?} cannot be stored"))?;
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
/// (relative to BASE_LEVEL), the DMASK-selected values of width, height, depth
/// (3D) or layers (arrays; faces for cubes), and the view's mip count, as
/// integers. Sizes are `max(1, size >> level)`; height is 1 for 1D and depth 1
/// for 2D. A level past the view gives 0 sizes and the unchanged mip count (the
/// documented choice: not public). Unbound or null T#: all zero.
pub fn resinfo(m: &Mimg, w: &mut WaveState, arch: &Arch) -> Result<(), String> {
    let r = &m.raw;
    if r.d16 || r.a16 || r.tfe || r.lwe {
        return Err(format!(
            "`{}` with d16/a16/tfe/lwe is not executed yet",
            m.mnemonic()
        ));
    }
    let desc = read_tsharp(m, w, arch)?;
    let dmask = r.dmask & 0xf;
    let lanes: Vec<u32> = w.active_lanes().collect();
    for lane in lanes {
        let level = w.vgpr(m.address_vgprs().first().copied().unwrap_or(r.vaddr), lane);
        let vals = match desc {
            Image::Bound(d) => {
                let levels = u32::from(d.last_level.saturating_sub(d.base_level)) + 1;
                let res_level = u32::from(d.base_level).saturating_add(level);
                let size = |v: u32| {
                    if level < levels {
                        v.checked_shr(res_level).unwrap_or(0).max(1)
                    } else {
                        0
                    }
                };
                let layers = d.last_array.saturating_sub(d.base_array) + 1;
                let (h, third) = match d.image_type {
                    ImageType::D1 => (1, 1),
                    ImageType::D1Array => (1, layers),
                    ImageType::D3 => (size(d.height), size(d.depth)),
                    ImageType::D2Array | ImageType::Cube | ImageType::D2MsaaArray => {
                        (size(d.height), layers)
                    }
                    _ => (size(d.height), 1),
                };
                let (h, third) = if level < levels { (h, third) } else { (0, 0) };
                [size(d.width), h, third, levels]
            }
            Image::Unbound | Image::Null { .. } => [0; 4],
        };
        let mut k = 0;
        for (c, &v) in vals.iter().enumerate() {
            if dmask >> c & 1 == 1 {
                w.set_vgpr(r.vdata + k, lane, v);
                k += 1;
            }
        }
    }
    Ok(())
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
