//! Typed buffer accesses: MUBUF `buffer_load_format_*` / `buffer_store_format_*`
//! and MTBUF `tbuffer_load_format_*` / `tbuffer_store_format_*`, which move one
//! element of a buffer through a data and number format — the image path's
//! conversions ([`super::format::load_texel`], [`super::format::store_texel`]).
//!
//! Where the format comes from (CLRX `GcnMemHandling.md`, "MUBUF/MTBUF format
//! conversion"): MUBUF `_format` forms take the data format, number format and
//! DST_SEL from the V#; MTBUF takes both formats from the instruction and uses
//! DST_SEL identity. The V# fields (word 3): DST_SEL X..W in bits 11:0 on every
//! generation; gfx6–gfx9 NUM_FORMAT 14:12 and DATA_FORMAT 18:15 (CLRX, Mesa
//! `SQ_BUF_RSRC_WORD3`); gfx10 one combined FORMAT in 18:12 and gfx11 in 17:12
//! (Mesa `gfx10.json`/`gfx11.json` `SQ_BUF_RSRC_WORD3.FORMAT`), numbered as
//! the T#'s combined format of the same generation (LLVM `SIDefines.h`
//! `UfmtGFX10`/`UfmtGFX11`, [`super::format::GFX10_FORMATS`],
//! [`super::format::GFX11_FORMATS`]). The rules gcnrun adds where no source
//! speaks are docs/errata.md MB6.

use super::format::{
    self, check, combined_code, combined_format, data_format, DataFormat, Layout, NumFormat,
    GFX10_FORMATS, GFX11_FORMATS,
};
use crate::arch::Gen;

/// The format a typed access converts through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TypedFormat {
    /// The data format (its size is the element's).
    pub df: &'static DataFormat,
    /// The number format.
    pub nf: NumFormat,
}

/// DST_SEL X, Y, Z, W of V# word 3 (bits 11:0, three bits each; 0 = 0,
/// 1 = one, 4..7 = X..W, 2 and 3 reserved).
pub fn vsharp_dst_sel(w3: u32) -> [u8; 4] {
    [0, 3, 6, 9].map(|s| (w3 >> s & 7) as u8)
}

/// The format fields of V# word 3 on `gen`, as codes: gfx6–gfx9 the data and
/// number format; gfx10 and gfx11 the combined FORMAT.
///
/// WGSL twin: `typed_vsharp_format` (generated, `gpu::translate::whole::typed`).
pub fn vsharp_format_code(w3: u32, gen: Gen) -> FormatCode {
    match gen {
        Gen::Gfx10 => FormatCode::Unified((w3 >> 12 & 0x7f) as u16),
        Gen::Gfx11 => FormatCode::Unified((w3 >> 12 & 0x3f) as u16),
        _ => FormatCode::Split {
            dfmt: (w3 >> 15 & 0xf) as u8,
            nfmt: (w3 >> 12 & 7) as u8,
        },
    }
}

/// A format as an instruction or a V# encodes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FormatCode {
    /// gfx6–gfx9: separate data format (4 bits) and number format (3 bits).
    Split {
        /// The data format code.
        dfmt: u8,
        /// The number format code.
        nfmt: u8,
    },
    /// gfx10+: one combined FORMAT code.
    Unified(u16),
}

/// The format a code stands for on `gen`, checked for a load (`store`:
/// also writable). Refused by name: code 0 (INVALID), codes the tables do not
/// list, pairs [`check`] rejects, block formats, and for stores the
/// read-only number formats (USCALED, SSCALED, sRGB; CLRX's BufW column).
pub fn resolve(code: FormatCode, gen: Gen, store: bool) -> Result<TypedFormat, String> {
    let (df, nf) = match code {
        FormatCode::Split { dfmt, nfmt } => {
            let df = data_format(dfmt).ok_or_else(|| {
                format!("data format {dfmt} is not a buffer format gcnrun models")
            })?;
            let nf = NumFormat::from_code(nfmt)
                .ok_or_else(|| format!("number format {nfmt} is not one gcnrun models"))?;
            (df, nf)
        }
        FormatCode::Unified(c) => {
            let table = if gen >= Gen::Gfx11 {
                GFX11_FORMATS
            } else {
                GFX10_FORMATS
            };
            combined_format(table, c)
                .ok_or_else(|| format!("format {c} is not a buffer format gcnrun models"))?
        }
    };
    let t = TypedFormat { df, nf };
    if df.layout == Layout::Block {
        return Err(format!("data format {} is block-compressed", df.name));
    }
    check(df, nf).map_err(|e| e.to_string())?;
    if store && !storable(&t) {
        return Err(format!(
            "number format {nf:?} of {} cannot be stored",
            df.name
        ));
    }
    Ok(t)
}

/// Whether stores can write the format ([`format::store_texel`] converts it).
pub fn storable(t: &TypedFormat) -> bool {
    format::store_texel(t.df, t.nf, [0; 4]).is_some()
}

/// The VGPR values of a typed load of `comps` components: the element's
/// bytes converted ([`format::load_texel`], missing components 0, 0, 0, one),
/// then DST_SEL. An element outside the buffer (`None`) reads zero in every
/// component before DST_SEL, as an image load out of bounds does (docs/errata.md
/// MB6).
///
/// WGSL twin: the typed branch of `emit_buffer_mem` (`gpu::translate::whole::mem`).
pub fn load(t: &TypedFormat, dst_sel: [u8; 4], bytes: Option<&[u8]>, comps: u32) -> Vec<u32> {
    let texel = bytes
        .and_then(|b| format::load_texel(t.df, t.nf, b))
        .unwrap_or([0; 4]);
    dst_sel
        .iter()
        .take(comps as usize)
        .map(|&s| match s {
            1 => format::missing_component(3, t.nf),
            4..=7 => texel[usize::from(s - 4)],
            _ => 0,
        })
        .collect()
}

/// The element bytes of a typed store of the VGPR values `vals` (X first):
/// components the instruction does not send are zero, as for an image store
/// whose DMASK leaves them out (`cpu::image::store_rgba`; docs/errata.md MB6);
/// no DST_SEL. `None` when the format cannot be stored.
pub fn store(t: &TypedFormat, vals: &[u32]) -> Option<Vec<u8>> {
    let mut rgba = [0u32; 4];
    for (slot, v) in rgba.iter_mut().zip(vals) {
        *slot = *v;
    }
    format::store_texel(t.df, t.nf, rgba)
}

/// A V# over a typed buffer of `records` elements of `t` at `base`, as
/// runtimes write one for an `image1d_buffer_t` (ROCr `image_manager_*`
/// `HSA_EXT_IMAGE_GEOMETRY_1DB`; Mesa `radv_make_texel_buffer_descriptor`):
/// STRIDE the element size; NUM_RECORDS the element count, except on gfx8,
/// where it counts bytes (both); DST_SEL as given; the format in word 3;
/// gfx10+ OOB_SELECT 0 (structured). `None` when `gen` has no code for the
/// format.
pub fn encode_vsharp(
    base: u64,
    t: &TypedFormat,
    records: u32,
    dst_sel: [u8; 4],
    gen: Gen,
) -> Option<[u32; 4]> {
    let sel = dst_sel
        .iter()
        .enumerate()
        .fold(0u32, |a, (i, &s)| a | u32::from(s & 7) << (3 * i));
    // The field widths: gfx10 7 bits, gfx11 6, gfx6–gfx9 4 + 3.
    let format = match gen {
        Gen::Gfx10 => combined_code(GFX10_FORMATS, t.df.code, t.nf).filter(|&c| c < 128)?,
        Gen::Gfx11 => combined_code(GFX11_FORMATS, t.df.code, t.nf).filter(|&c| c < 64)?,
        _ if t.df.code < 16 && t.nf.code() < 8 => {
            u16::from(t.nf.code()) | u16::from(t.df.code) << 3
        }
        _ => return None,
    };
    let stride = t.df.bytes;
    let num_records = if gen == Gen::Gfx8 {
        records.checked_mul(stride)?
    } else {
        records
    };
    Some([
        base as u32,
        (base >> 32) as u32 & 0xffff | stride << 16,
        num_records,
        sel | u32::from(format) << 12,
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rgba8() -> TypedFormat {
        resolve(FormatCode::Split { dfmt: 10, nfmt: 0 }, Gen::Gfx9, true).unwrap()
    }

    #[test]
    fn word3_fields_by_generation() {
        // gfx9: NUM_FORMAT 14:12, DATA_FORMAT 18:15.
        let w3 = 4 | 5 << 3 | 6 << 6 | 7 << 9 | 7 << 12 | 14 << 15;
        assert_eq!(
            vsharp_format_code(w3, Gen::Gfx9),
            FormatCode::Split { dfmt: 14, nfmt: 7 }
        );
        assert_eq!(vsharp_dst_sel(w3), [4, 5, 6, 7]);
        // gfx10: 7-bit FORMAT (77 = 32_32_32_32_FLOAT); gfx11: 6 bits (63).
        assert_eq!(
            vsharp_format_code(77 << 12 | 3 << 28, Gen::Gfx10),
            FormatCode::Unified(77)
        );
        assert_eq!(
            vsharp_format_code(63 << 12 | 1 << 18, Gen::Gfx11),
            FormatCode::Unified(63)
        );
        let f = resolve(FormatCode::Unified(77), Gen::Gfx10, false).unwrap();
        assert_eq!((f.df.name, f.nf), ("32_32_32_32", NumFormat::Float));
        let f = resolve(FormatCode::Unified(42), Gen::Gfx11, false).unwrap();
        assert_eq!((f.df.name, f.nf), ("8_8_8_8", NumFormat::Unorm));
    }

    #[test]
    fn refusals_name_the_format() {
        let e = resolve(FormatCode::Split { dfmt: 0, nfmt: 0 }, Gen::Gfx9, false).unwrap_err();
        assert!(e.contains("data format 0"), "{e}");
        let e = resolve(FormatCode::Split { dfmt: 1, nfmt: 7 }, Gen::Gfx9, false).unwrap_err();
        assert!(e.contains("not defined"), "{e}");
        let e = resolve(FormatCode::Split { dfmt: 10, nfmt: 2 }, Gen::Gfx9, true).unwrap_err();
        assert!(e.contains("cannot be stored"), "{e}");
        assert!(resolve(FormatCode::Unified(0), Gen::Gfx10, false).is_err());
    }

    #[test]
    fn loads_convert_then_swizzle_and_out_of_range_reads_zero_before_dst_sel() {
        let t = rgba8();
        let bytes = [0xff, 0x00, 0x80, 0x33];
        let one = 1.0f32.to_bits();
        // ZYXW, then the constants.
        let v = load(&t, [6, 5, 4, 7], Some(&bytes), 4);
        assert_eq!(v[0], (128.0f32 / 255.0).to_bits());
        assert_eq!(v[1], 0);
        assert_eq!(v[2], one);
        assert_eq!(v[3], (51.0f32 / 255.0).to_bits());
        assert_eq!(load(&t, [1, 0, 4, 4], Some(&bytes), 2), [one, 0]);
        assert_eq!(load(&t, [4, 5, 1, 1], None, 4), [0, 0, one, one]);
        // A format without W reads one there.
        let r32 = resolve(FormatCode::Split { dfmt: 4, nfmt: 4 }, Gen::Gfx9, false).unwrap();
        assert_eq!(
            load(&r32, [4, 5, 6, 7], Some(&[7, 0, 0, 0]), 4),
            [7, 0, 0, 1]
        );
    }

    #[test]
    fn stores_fill_unsent_components_with_zero() {
        let t = rgba8();
        let v = [1.0f32, 0.5].map(f32::to_bits);
        assert_eq!(store(&t, &v).unwrap(), [0xff, 0x80, 0, 0]);
    }

    #[test]
    fn vsharps_count_records_except_on_gfx8() {
        let t = rgba8();
        let w = encode_vsharp(0x1_2345_6700, &t, 10, [4, 5, 6, 7], Gen::Gfx9).unwrap();
        assert_eq!(w[0], 0x2345_6700);
        assert_eq!(w[1], 1 | 4 << 16);
        assert_eq!(w[2], 10);
        assert_eq!(
            vsharp_format_code(w[3], Gen::Gfx9),
            FormatCode::Split { dfmt: 10, nfmt: 0 }
        );
        assert_eq!(
            encode_vsharp(0, &t, 10, [4, 5, 6, 7], Gen::Gfx8).unwrap()[2],
            40
        );
        for gen in [Gen::Gfx10, Gen::Gfx11] {
            let w = encode_vsharp(0, &t, 10, [4, 5, 6, 7], gen).unwrap();
            let back = resolve(vsharp_format_code(w[3], gen), gen, true).unwrap();
            assert_eq!(back, t);
            assert_eq!(w[3] >> 28 & 3, 0);
        }
    }
}
