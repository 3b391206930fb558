//! The 3D sampler family in the instruction stream (research notes §2.1,
//! §2.4): 3D_SAMPLE 0x6D, 3D_LOAD 0x6E, 3D_GATHER4 0x6F, 3D_INFO 0x70.

use super::cursor::{Cur, Res};
use super::stream::Dec;
use crate::visa::inst::{Inst, Sampler};
use crate::visa::tables::{self, SamplerClass};
use crate::visa::{Dialect, Version};

/// 3D_SAMPLE / 3D_LOAD / 3D_GATHER4 (§2.1, §2.4): op (u16 from 4.0, u8
/// before), exec, pred, channels, aoffimmi vector, [sampler u8], surface u8,
/// dst raw, [paired raw: current dialect only], numParams u8, params.
/// 3D_INFO: sub-op u8, exec, channel mask, surface u8, [lod raw], dst raw.
pub(crate) fn decode(d: &mut Dec, class: SamplerClass, v: Version, dialect: Dialect) -> Res<Inst> {
    let op_at = d.c.pos;
    let (code, pnm, cps, div_s) = if class == SamplerClass::Info {
        (d.c.u8("3D_INFO sub-op")?, false, false, false)
    } else if v.major >= 4 {
        // 4.0 widened the field: code bits 0–7, flags bits 8–10.
        let op = d.c.u16("sampler op")?;
        if op >> 11 != 0 {
            return Err(Cur::err_at(
                op_at,
                format!("sampler op {op:#06x} sets bits above 10"),
            ));
        }
        (op as u8, op & 0x100 != 0, op & 0x200 != 0, op & 0x400 != 0)
    } else {
        let op = d.c.u8("sampler op")?;
        (op & 0x1F, op & 0x20 != 0, op & 0x40 != 0, op & 0x80 != 0)
    };
    let sub = tables::SUB_OPS
        .iter()
        .find(|s| s.code == code && s.class == class)
        .ok_or_else(|| {
            Cur::err_at(
                op_at,
                format!(
                    "sampler sub-op {code} is not supported with opcode {:#04x}",
                    class.opcode()
                ),
            )
        })?;
    let exec = d.exec()?;
    if class == SamplerClass::Info {
        let channels = channel_mask(d)?;
        let surface = d.c.u8("surface")?;
        let surface = d.name(d.syms.surface(u16::from(surface)))?;
        let params = if sub.name == "resinfo" {
            vec![d.raw("lod")?]
        } else {
            Vec::new()
        };
        let dst = d.raw("destination")?;
        return Ok(Inst::Sampler(Box::new(Sampler {
            op: sub,
            pred: None,
            pixel_null_mask: false,
            cps: false,
            div_s: false,
            channels,
            exec,
            aoffimmi: None,
            sampler: None,
            surface,
            dst,
            paired: None,
            params,
        })));
    }
    let pred = d.pred()?;
    let channels = if class == SamplerClass::Gather4 {
        // One source channel index, 0 R … 3 A.
        let at = d.c.pos;
        let ch = d.c.u8("gather channel")?;
        if ch > 3 {
            return Err(Cur::err_at(at, format!("gather channel {ch} is not 0–3")));
        }
        1 << ch
    } else {
        channel_mask(d)?
    };
    let (aoffimmi, _) = d.vector(false)?;
    let sampler = if class == SamplerClass::Load {
        None
    } else {
        let s = d.c.u8("sampler")?;
        Some(d.name(d.syms.sampler(u16::from(s)))?)
    };
    let surface = d.c.u8("surface")?;
    let surface = d.name(d.syms.surface(u16::from(surface)))?;
    let dst = d.raw("destination")?;
    let paired = if dialect == Dialect::Current {
        Some(d.raw("paired surface")?)
    } else {
        None
    };
    let n_at = d.c.pos;
    let n = d.c.u8("parameter count")?;
    if usize::from(n) > tables::MAX_PARAMS {
        return Err(Cur::err_at(
            n_at,
            format!("{n} parameters (at most {})", tables::MAX_PARAMS),
        ));
    }
    let mut params = Vec::with_capacity(usize::from(n));
    for _ in 0..n {
        params.push(d.raw("parameter")?);
    }
    Ok(Inst::Sampler(Box::new(Sampler {
        op: sub,
        pred,
        pixel_null_mask: pnm,
        cps,
        div_s,
        channels,
        exec,
        aoffimmi: Some(aoffimmi),
        sampler,
        surface,
        dst,
        paired,
        params,
    })))
}

/// A channel mask byte: R G B A in bits 0–3, at least one set, nothing above.
fn channel_mask(d: &mut Dec) -> Res<u8> {
    let at = d.c.pos;
    let ch = d.c.u8("channel mask")?;
    if ch == 0 || ch >> 4 != 0 {
        return Err(Cur::err_at(
            at,
            format!("channel mask {ch:#04x} is not a non-empty subset of RGBA (bits 0–3)"),
        ));
    }
    Ok(ch)
}
