//! 3D_SAMPLE / 3D_LOAD / 3D_INFO as the shared sampler's AMD image ops
//! (docs/semantics/intel.md, and docs/visa.md, "Execution").
//!
//! The vISA parameters (`tables::SUB_OPS`, IGC `instructions/3D_SAMPLE.md`)
//! are staged into the AMD address layout of the equivalent gfx10 opcode
//! ([`SHARED_OPS`]; `crate::texture::sample::vaddr` gives the order: offset, bias,
//! reference, derivatives, coordinates, LOD). Intel's meaning of u/v/r per
//! surface type (1D-array index in v, 2D-array index in r, unnormalized) is
//! AMD's coordinate body for the same type, so only the order changes.

use super::{cube, Binding, Cx, Res};
use crate::ir::image::{flag, AddrRegs, ImageKind, ImageOp, Opcode};
use crate::ir::visa::{AddrSlot, Channels, ElemType, VisaOp, SSHARP_SGPR, TSHARP_SGPR};
use crate::ir::{Op, Reg, Src};
use crate::texture::descriptor::ImageType;
use crate::texture::format::NumFormat;
use crate::visa::inst::Sampler;
use crate::visa::tables::SamplerClass;

/// One vISA sub-op as the shared image operation of the same semantics. The
/// operation keeps AMD's name for that semantics (messages and generated code
/// name it), with `name_o` for the form with texel offsets (`_o`), which the
/// lowering picks when `aoffimmi` is non-zero.
pub struct SharedOp {
    /// The vISA sub-op.
    pub visa: &'static str,
    /// The name of the shared operation (AMD's mnemonic for it).
    pub name: &'static str,
    /// The name with texel offsets, where the operation takes them.
    pub name_o: Option<&'static str>,
    /// What it does.
    pub kind: ImageKind,
    /// Suffix flags, without [`flag::O`].
    pub flags: u16,
}

impl SharedOp {
    /// The operation, with texel offsets or without.
    pub fn opcode(&self, offsets: bool) -> Option<Opcode> {
        let (name, flags) = match (offsets, self.name_o) {
            (false, _) => (self.name, self.flags),
            (true, Some(n)) => (n, self.flags | flag::O),
            (true, None) => return None,
        };
        Some(Opcode {
            name,
            kind: self.kind,
            flags,
        })
    }
}

const fn shared(
    visa: &'static str,
    name: &'static str,
    name_o: Option<&'static str>,
    kind: ImageKind,
    flags: u16,
) -> SharedOp {
    SharedOp {
        visa,
        name,
        name_o,
        kind,
        flags,
    }
}

/// vISA sub-op → the shared operation (IGC `instructions/3D_SAMPLE.md`,
/// `3D_LOAD.md`, `3D_INFO.md`, `3D_GATHER4.md` against AMD's suffix meanings;
/// `tests/visa_ops.rs` checks each against the AMD opcode table).
#[rustfmt::skip]
pub const SHARED_OPS: &[SharedOp] = {
    use flag::*;
    use ImageKind::*;
    &[
        shared("sample_3d",    "image_sample",        Some("image_sample_o"),        Sample, 0),
        shared("sample_b",     "image_sample_b",      Some("image_sample_b_o"),      Sample, B),
        shared("sample_l",     "image_sample_l",      Some("image_sample_l_o"),      Sample, L),
        shared("sample_c",     "image_sample_c",      Some("image_sample_c_o"),      Sample, C),
        shared("sample_d",     "image_sample_d",      Some("image_sample_d_o"),      Sample, D),
        shared("sample_b_c",   "image_sample_c_b",    Some("image_sample_c_b_o"),    Sample, C | B),
        shared("sample_l_c",   "image_sample_c_l",    Some("image_sample_c_l_o"),    Sample, C | L),
        shared("lod",          "image_get_lod",       None,                          GetLod, 0),
        shared("sample_d_c",   "image_sample_c_d",    Some("image_sample_c_d_o"),    Sample, C | D),
        shared("sample_lz",    "image_sample_lz",     Some("image_sample_lz_o"),     Sample, LZ),
        shared("sample_c_lz",  "image_sample_c_lz",   Some("image_sample_c_lz_o"),   Sample, C | LZ),
        shared("load_3d",      "image_load_mip",      None,                          Load,   MIP),
        // LOD 0 staged as a constant: the same mip rule as load_3d.
        shared("load_lz",      "image_load_mip",      None,                          Load,   MIP),
        shared("resinfo",      "image_get_resinfo",   None,                          ResInfo, MIP),
        // Gathers (`super::gather`): plain gather4 reads the base level.
        shared("sample4",      "image_gather4_lz",    Some("image_gather4_lz_o"),    Gather4, LZ),
        shared("sample4_c",    "image_gather4_c_lz",  Some("image_gather4_c_lz_o"),  Gather4, C | LZ),
        // Per-channel offu/offv become the `_o` dword.
        shared("sample4_po",   "image_gather4_lz",    Some("image_gather4_lz_o"),    Gather4, LZ),
        shared("sample4_po_c", "image_gather4_c_lz",  Some("image_gather4_c_lz_o"),  Gather4, C | LZ),
        // Xe2 only: explicit LOD, bias, implicit LOD.
        shared("sample4_l",    "image_gather4_l",     Some("image_gather4_l_o"),     Gather4, L),
        shared("sample4_b",    "image_gather4_b",     Some("image_gather4_b_o"),     Gather4, B),
        shared("sample4_i",    "image_gather4",       Some("image_gather4_o"),       Gather4, 0),
        shared("sample4_i_c",  "image_gather4_c",     Some("image_gather4_c_o"),     Gather4, C),
        shared("sample4_l_c",  "image_gather4_c_l",   Some("image_gather4_c_l_o"),   Gather4, C | L),
        // A 2D MSAA load (`super::msaa`): u, v, [r], sample index.
        shared("load_2dms_w",  "image_load",          None,                          Load,   0),
    ]
};

/// Intel `aoffimmi` (U in bits 11:8, V 7:4, R 3:0, signed 4-bit) → the
/// per-axis offsets.
pub fn intel_offsets(aoffimmi: u32) -> [i32; 3] {
    [8, 4, 0].map(|shift| crate::texture::sample::coord::intel_offset_field(aoffimmi, shift))
}

/// Per-axis offsets → AMD's `_o` dword (6-bit fields at bits 5:0, 13:8,
/// 21:16; `texture::sample::coord::texel_offset` reads them).
pub fn amd_offset_dword(o: [i32; 3]) -> u32 {
    crate::texture::sample::coord::amd_offset_dword(o[0], o[1], o[2])
}

/// What `resinfo` returns in R, G, B, A on surface `d`: IGC
/// `documentation/visa/instructions/INFO.md`, "Return format for resinfo",
/// whose fields hold sizes minus one (RENDER_SURFACE_STATE), so `Width+1` is
/// the width and `Depth+1` the array size:
///
/// | surface | R | G | B | A |
/// | --- | --- | --- | --- | --- |
/// | 1D | width >> LOD | 0 | 0 | mips |
/// | 1D array | width >> LOD | array size | 0 | mips |
/// | 2D (and 2D MSAA) | width >> LOD | height >> LOD | 0 | mips |
/// | 2D array (and MSAA array) | width >> LOD | height >> LOD | array size | mips |
/// | 3D | width >> LOD | height >> LOD | depth >> LOD | mips |
/// | CUBE | width >> LOD | height >> LOD | faces (6 × cubes) | mips |
///
/// No size is floored at 1 and no row has a case for a LOD past the mip
/// chain: the shifts apply at every LOD (`cpu::visa::resinfo_shift`). The
/// table's quilt factors are 1 (no quilting). A CUBE's R is "Buffer size" in
/// the table, a copy of the buffer row; gcnrun returns the width, and faces
/// in B as the hardware does (docs/errata.md VC1). "MIPCount" is the level
/// count (1 for MSAA): Mesa's Intel compiler returns `.w` for
/// textureQueryLevels unchanged ("# levels is in .w", brw_fs_nir.cpp).
/// Where this differs from the AMD rule: docs/errata.md VC2.
pub fn intel_resinfo(d: &crate::texture::descriptor::ImageDesc) -> [crate::ir::visa::InfoValue; 4] {
    use crate::ir::visa::InfoValue::{Const, Shifted};
    let levels = if d.image_type.is_msaa() {
        1
    } else {
        u32::from(d.last_level.saturating_sub(d.base_level)) + 1
    };
    let layers = d.last_array.saturating_sub(d.base_array) + 1;
    let (w, h) = (Shifted(d.width), Shifted(d.height));
    let [r, g, b] = match d.image_type {
        ImageType::D1 => [w, Const(0), Const(0)],
        ImageType::D1Array => [w, Const(layers), Const(0)],
        ImageType::D2 | ImageType::D2Msaa => [w, h, Const(0)],
        ImageType::D2Array | ImageType::D2MsaaArray | ImageType::Cube => [w, h, Const(layers)],
        ImageType::D3 => [w, h, Shifted(d.depth)],
    };
    [r, g, b, Const(levels)]
}

pub(super) fn lower(cx: &mut Cx, s: &Sampler, line: usize) -> Res<()> {
    let name = s.op.name;
    match name {
        "sampleinfo" => return super::msaa::sampleinfo(cx, s, line),
        "load_mcs" => return Err(super::msaa::LOAD_MCS_REFUSAL.into()),
        _ => {}
    }
    let gather = s.op.class == SamplerClass::Gather4;
    if gather {
        super::gather::check_platform(name, cx.target.xe2())?;
    }
    let shared = SHARED_OPS
        .iter()
        .find(|o| o.visa == name)
        .ok_or_else(|| format!("`{name}` is not executed (no AMD equivalent is modelled)"))?;
    let amd = shared.name;
    if let Some(p) = &s.paired {
        if p.name != "%null" {
            return Err("a paired surface (Xe2+) is not modelled".into());
        }
    }
    let aoff = super::aoffimmi::Aoff::of(cx, s)?;
    let desc = match cx.binding(&s.surface)? {
        Binding::Image { tsharp, desc } => (*tsharp, *desc),
        Binding::Buffer { .. } => {
            return Err(format!(
                "surface `{}` is bound to a buffer, not an image",
                s.surface
            ))
        }
    };
    let (tsharp, d) = desc;
    // Intel cube coordinates are a direction (super::cube).
    let is_cube = matches!(d.image_type, ImageType::Cube);
    // Only load_2dms_w reads an MSAA surface, and it reads only those.
    let ms = name == "load_2dms_w";
    let shape = crate::texture::sample::vaddr::Shape::of(d.image_type);
    // INFO.md's 2D rows cover multisampled surfaces: resinfo reads any.
    if shape.is_none() != ms && name != "resinfo" {
        return Err(if ms {
            format!("`{name}` needs a 2D MSAA surface")
        } else {
            format!("`{name}` on an MSAA surface")
        });
    }
    let po = super::gather::is_po(name);
    let with_o = match s.op.class {
        SamplerClass::Sample => aoff.any() && amd != "image_get_lod",
        SamplerClass::Gather4 => aoff.any() || po,
        _ => false,
    };
    let amd_name = if with_o {
        format!("{amd}_o")
    } else {
        amd.to_string()
    };
    let op = &shared
        .opcode(with_o)
        .ok_or_else(|| format!("no AMD op `{amd_name}`"))?;
    if is_cube {
        cube::check_op(name, op, aoff.any() || po)?;
    }
    // Parameters by name; a missing trailing parameter reads 0.
    let names = s.op.params.unwrap_or(&[]);
    let param = |n: &str| -> Res<Option<(u32, ElemType)>> {
        let Some(k) = names.iter().position(|x| *x == n) else {
            return Ok(None);
        };
        let Some(r) = s.params.get(k) else {
            return Ok(None);
        };
        if r.name == "%null" {
            return Ok(None);
        }
        let (byte, v) = cx.raw(r)?;
        let ty =
            v.ty.ok_or_else(|| format!("parameter `{}` has an unexecuted type", r.name))?;
        let need = ty.bytes() * u32::from(s.exec.size);
        if byte + need > v.byte + v.bytes {
            return Err(format!(
                "parameter `{}.{}` runs past `{}`",
                r.name, r.offset, r.name
            ));
        }
        Ok(Some((byte, ty)))
    };
    let float = |n: &str| -> Res<AddrSlot> {
        Ok(match param(n)? {
            None => AddrSlot::Const(0),
            Some((byte, ty @ (ElemType::F | ElemType::Hf))) => AddrSlot::Float { byte, ty },
            Some((_, ty)) => {
                return Err(format!(
                    "parameter `{n}` of `{name}` has type {ty:?}; sampling parameters are F or HF"
                ))
            }
        })
    };
    let int_param = |n: &str| -> Res<Option<(u32, ElemType)>> {
        match param(n)? {
            Some((_, ElemType::F | ElemType::Hf)) => {
                Err(format!("parameter `{n}` of `{name}` must be an integer"))
            }
            p => Ok(p),
        }
    };
    let int = |n: &str| -> Res<AddrSlot> { Ok(aoff.coord_slot(int_param(n)?, None)) };
    // The coordinate body by surface type, with the offset each axis takes.
    let body: Vec<(&str, Option<usize>)> = match d.image_type {
        ImageType::D1 => vec![("u", Some(0))],
        ImageType::D1Array => vec![("u", Some(0)), ("v", None)],
        ImageType::D2 => vec![("u", Some(0)), ("v", Some(1))],
        ImageType::D2Array | ImageType::D2MsaaArray => {
            vec![("u", Some(0)), ("v", Some(1)), ("r", None)]
        }
        ImageType::D2Msaa => vec![("u", Some(0)), ("v", Some(1))],
        _ => vec![("u", Some(0)), ("v", Some(1)), ("r", Some(2))],
    };
    let mut slots = Vec::new();
    let mut cube_at = None;
    match op.kind {
        ImageKind::ResInfo => slots.push(int("lod")?),
        ImageKind::Load => {
            for (n, axis) in &body {
                slots.push(aoff.coord_slot(int_param(n)?, *axis));
            }
            if ms {
                slots.push(super::msaa::sample_index_slot(
                    int_param("si")?,
                    int_param("lod")?,
                    &d,
                )?);
            } else {
                slots.push(int("lod")?);
            }
        }
        _ => {
            if op.has(flag::O) {
                slots.push(if po {
                    super::gather::po_slot(&aoff, int_param("offu")?, int_param("offv")?)?
                } else {
                    aoff.dword_slot()
                });
            }
            if op.has(flag::B) {
                slots.push(float("bias")?);
            }
            if op.has(flag::C) {
                slots.push(float("ref")?);
            }
            if op.gradients() {
                let axes = shape.map_or(0, |s| s.axes);
                for axis in ["u", "v", "r"].iter().take(axes) {
                    slots.push(float(&format!("d{axis}dx"))?);
                }
                for axis in ["u", "v", "r"].iter().take(axes) {
                    slots.push(float(&format!("d{axis}dy"))?);
                }
            }
            if is_cube {
                let params = [float("u")?, float("v")?, float("r")?, float("ai")?];
                cube_at = Some((slots.len() as u32, params));
                slots.extend(cube::BODY);
            } else {
                for (n, _) in &body {
                    slots.push(float(n)?);
                }
            }
            if op.has(flag::L) {
                slots.push(float("lod")?);
            }
        }
    }
    let dmask = u32::from(s.channels);
    let image = ImageOp {
        op: *op,
        dim: Some(d.image_type),
        dmask,
        unorm: false,
        atomic: None,
        glc: false,
        da: false,
        r128: false,
        a16: false,
        g16: false,
        tfe: false,
        lwe: false,
        d16: false,
        vdata: cx.staging.data,
        addr: AddrRegs::Contiguous(cx.staging.addr),
        srsrc: TSHARP_SGPR,
        ssamp: if op.has_sampler() { SSHARP_SGPR } else { 0 },
    };
    // The destination: each enabled channel in its own whole-GRF block.
    let (dst_byte, dst_var) = cx.raw(&s.dst)?;
    let dst_ty = dst_var
        .ty
        .ok_or_else(|| format!("destination `{}` has an unexecuted type", s.dst.name))?;
    let grf = cx.layout.grf;
    let size = u32::from(s.exec.size);
    // A gather's DMASK is its one source channel; it returns four samples.
    let count = if gather {
        super::gather::GATHER_VALUES
    } else {
        dmask.count_ones()
    };
    let block = (size * dst_ty.bytes()).div_ceil(grf) * grf;
    let end = dst_byte + count * block + if s.pixel_null_mask { grf } else { 0 };
    if end > dst_var.byte + dst_var.bytes {
        return Err(format!(
            "the result of `{name}` needs {} bytes from `{}.{}`, past `{}`'s {} bytes (a {grf}-byte GRF)",
            end - dst_byte,
            s.dst.name,
            s.dst.offset,
            s.dst.name,
            dst_var.bytes
        ));
    }
    let nf = NumFormat::from_code(d.num_format).ok_or("unsupported number format")?;
    let integer =
        op.kind == ImageKind::ResInfo || (nf.is_integer() && op.kind != ImageKind::GetLod);
    // Stage the descriptors.
    for (k, v) in tsharp.iter().enumerate() {
        cx.ops.push((
            line,
            Op::SMov {
                dst: Reg::Sgpr(TSHARP_SGPR + k as u32),
                src: Src::Const(*v),
            },
        ));
    }
    if op.has_sampler() {
        let name = s.sampler.as_deref().ok_or("a sampler operand")?;
        let idx = cx.state_value(name)?;
        let ssharp = cx.target.samplers.get(&idx).copied().ok_or_else(|| {
            format!("sampler `{name}` = {idx}: the sampler table has no entry {idx}")
        })?;
        let cube_mode = cx.target.cube_samplers.contains(&idx);
        let ssharp = match (is_cube, cube_mode) {
            (true, _) => cube::sampler_state(ssharp, cube_mode)?,
            (false, true) => return Err(cube::cube_mode_elsewhere(name)),
            (false, false) => ssharp,
        };
        for (k, v) in ssharp.iter().enumerate() {
            cx.ops.push((
                line,
                Op::SMov {
                    dst: Reg::Sgpr(SSHARP_SGPR + k as u32),
                    src: Src::Const(*v),
                },
            ));
        }
    }
    let pred = s.pred.as_ref().map(|p| cx.pred(p)).transpose()?;
    let first = 4 * u32::from(s.exec.mask);
    let staging = cx.staging;
    cx.push(
        line,
        VisaOp::StageAddress {
            first,
            size,
            slots,
            staging,
        },
    );
    if let Some((at, params)) = cube_at {
        cx.push(line, cube::stage(first, size, params, at, staging));
    }
    cx.push(
        line,
        VisaOp::SetExec {
            ch: Channels {
                first,
                size,
                no_mask: s.exec.no_mask,
                pred,
            },
        },
    );
    if op.kind == ImageKind::ResInfo {
        // Intel's table, not the AMD op's (docs/errata.md VC2).
        let values = intel_resinfo(&d)
            .into_iter()
            .enumerate()
            .filter(|(c, _)| dmask >> c & 1 == 1)
            .map(|(_, v)| v)
            .collect();
        cx.push(
            line,
            VisaOp::Resinfo {
                first,
                size,
                values,
                staging,
            },
        );
    } else {
        cx.ops.push((line, Op::Image(Box::new(image))));
    }
    cx.push(
        line,
        VisaOp::ScatterResult {
            first,
            size,
            byte: dst_byte,
            ty: dst_ty,
            count,
            block,
            integer,
            null_mask: s.pixel_null_mask.then_some(dst_byte + count * block),
            staging,
        },
    );
    // EXEC back to the dispatch mask.
    cx.ops.push((
        line,
        Op::SMov {
            dst: Reg::ExecLo,
            src: Src::Reg(Reg::Sgpr(crate::ir::visa::DISPATCH_SGPR)),
        },
    ));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_repack_from_intel_to_amd() {
        // 0x321: U = 3, V = 2, R = 1; 0xf8e: U = -1, V = -8, R = -2.
        assert_eq!(intel_offsets(0x321), [3, 2, 1]);
        assert_eq!(intel_offsets(0xf8e), [-1, -8, -2]);
        let d = amd_offset_dword([-1, -8, -2]);
        for (a, want) in [-1, -8, -2].iter().enumerate() {
            assert_eq!(crate::texture::sample::coord::texel_offset(d, a), *want);
        }
    }
}
