//! Typed buffer accesses in a whole-program module (the WGSL side of
//! `texture::typed` and `cpu::memops`' typed branch): MTBUF's format is
//! known when translating; a MUBUF `_format` form's comes from the V# at run
//! time, decoded by tables generated here from the same Rust functions the
//! CPU calls (`texture::typed::resolve` for every code of every generation,
//! the data formats' layouts from `texture::format::DATA_FORMATS`), so the
//! two cannot disagree.

use super::Whole;
use crate::arch::Gen;
use crate::gpu::translate::texel;
use crate::ir::mem::{Access, TypedData, VectorMem};
use crate::ir::{Op, Program};
use crate::texture::format::{DataFormat, Layout, NumFormat, DATA_FORMATS};
use crate::texture::typed::{self, FormatCode, TypedFormat};
use std::fmt::Write as _;

/// Bit of a packed format code: loads may use it.
const LOADABLE: u32 = 1 << 16;
/// Bit of a packed format code: stores may use it.
const STORABLE: u32 = 1 << 17;

/// A resolved format as the module's `u32`: data format in bits 7:0, number
/// format in 15:8, [`LOADABLE`], [`STORABLE`]; 0 when `code` is refused.
fn packed(code: FormatCode, gen: Gen) -> u32 {
    match typed::resolve(code, gen, false) {
        Ok(t) => {
            let store = if typed::resolve(code, gen, true).is_ok() {
                STORABLE
            } else {
                0
            };
            u32::from(t.df.code) | u32::from(t.nf.code()) << 8 | LOADABLE | store
        }
        Err(_) => 0,
    }
}

/// Words of the host table `TYPED_FORMATS_AT` (`gpu::translate::tables`):
/// [`packed`] for every format field of V# word 3 — the split DFMT × NFMT
/// codes of gfx6–9 (16 × 8, at `dfmt * 8 + nfmt`), then gfx10's 128 unified
/// codes, then gfx11's 64. A table rather than a `switch` per generation:
/// lavapipe builds a read of the host's buffer at once, and a `switch` of a
/// hundred cases once per access of a program (docs/gpu.md, "Time to first
/// result on lavapipe").
pub(in crate::gpu::translate) fn vsharp_format_table() -> Vec<u32> {
    let split = (0..16u8).flat_map(|d| {
        (0..8u8).map(move |n| packed(FormatCode::Split { dfmt: d, nfmt: n }, Gen::Gfx9))
    });
    let gfx10 = (0..128u16).map(|c| packed(FormatCode::Unified(c), Gen::Gfx10));
    let gfx11 = (0..64u16).map(|c| packed(FormatCode::Unified(c), Gen::Gfx11));
    split.chain(gfx10).chain(gfx11).collect()
}

/// The WGSL the typed accesses of a module call: `typed_vsharp_format`
/// (`texture::typed::vsharp_format_code` + `resolve` on each generation,
/// read from [`vsharp_format_table`]), `typed_layout` (a data format's size
/// and components), `typed_sel_ok` and `typed_select` (DST_SEL, as
/// `texture::typed::load` applies it).
pub(super) fn wgsl_tables() -> String {
    let mut s = String::from(
        "\n// Typed buffer formats, generated from texture::typed::resolve and\n// texture::format::DATA_FORMATS (src/gpu/translate/whole/typed.rs).\nstruct TypedLayout {\n    bytes: u32,\n    count: u32,\n    packed: bool,\n    lo: vec4<u32>,\n    width: vec4<u32>,\n}\n\n// The format of V# word 3 on `gen` (6..11), packed as typed.rs `packed`, from\n// the host's table of every code (typed.rs `vsharp_format_table`).\nfn typed_vsharp_format(gen: u32, w3: u32) -> u32 {\n    if gen == 10u {\n        return host_tables[TYPED_FORMATS_AT + 128u + ((w3 >> 12u) & 0x7fu)];\n    }\n    if gen >= 11u {\n        return host_tables[TYPED_FORMATS_AT + 256u + ((w3 >> 12u) & 0x3fu)];\n    }\n    return host_tables[TYPED_FORMATS_AT + ((w3 >> 15u) & 15u) * 8u + ((w3 >> 12u) & 7u)];\n}\n\n// A data format's layout from the host's table (typed.rs `layout_table`):\n// three words per code, its bytes, components and packed-float flag, then its\n// components' low bits and widths, a byte each.\nfn typed_layout(df: u32) -> TypedLayout {\n",
    );
    writeln!(
        s,
        "    let at = TYPED_LAYOUTS_AT + min(df, {}u) * 3u;",
        LAYOUT_CODES - 1
    )
    .ok();
    s.push_str(
        "    let a = host_tables[at];\n    let lo = host_tables[at + 1u];\n    let w = host_tables[at + 2u];\n    return TypedLayout(a & 0xffu, (a >> 8u) & 0xffu, ((a >> 16u) & 1u) == 1u, unpack_bytes(lo), unpack_bytes(w));\n}\n\n// The four bytes of `x`, low first.\nfn unpack_bytes(x: u32) -> vec4<u32> {\n    return vec4<u32>(x & 0xffu, (x >> 8u) & 0xffu, (x >> 16u) & 0xffu, x >> 24u);\n}\n\n// DST_SEL (12 bits) without the reserved codes 2 and 3.\nfn typed_sel_ok(sel: u32) -> bool {\n    for (var i = 0u; i < 4u; i = i + 1u) {\n        let s = (sel >> (3u * i)) & 7u;\n        if s == 2u || s == 3u {\n            return false;\n        }\n    }\n    return true;\n}\n\n// Component `k` after DST_SEL (texture::typed::load).\nfn typed_select(rgba: vec4<u32>, sel: u32, nf: u32, k: u32) -> u32 {\n    let s = (sel >> (3u * k)) & 7u;\n    if s == 1u {\n        return missing_component(3u, nf);\n    }\n    if s >= 4u {\n        return word_of(rgba, s - 4u);\n    }\n    return 0u;\n}\n",
    );
    s
}

/// A data format as a WGSL `TypedLayout` value (MTBUF's, known when
/// translating).
fn layout(df: &DataFormat) -> String {
    let (lo, width) = crate::gpu::translate::component_layout(df);
    format!(
        "TypedLayout({}u, {}u, {}, {lo}, {width})",
        df.bytes,
        df.comps.len(),
        df.layout == Layout::PackedFloat
    )
}

/// Data format codes [`layout_table`] covers: every code of
/// [`DATA_FORMATS`], and a last, empty entry that larger codes read.
const LAYOUT_CODES: u32 = 32;

/// Words of the host table `TYPED_LAYOUTS_AT`: for each data format code
/// below [`LAYOUT_CODES`], three words — its bytes | its components' count
/// << 8 | packed float << 16, then its components' low bits and widths, one
/// byte per component, low first — zero for codes that are no data format
/// and for block-compressed ones, which typed accesses refuse. A table
/// rather than a `switch` of twenty cases per typed access: lavapipe builds
/// three reads of the host's buffer faster (docs/gpu.md, "Time to first
/// result on lavapipe").
pub(in crate::gpu::translate) fn layout_table() -> Vec<u32> {
    let mut t = vec![0u32; 3 * LAYOUT_CODES as usize];
    for df in DATA_FORMATS.iter().filter(|d| d.layout != Layout::Block) {
        let at = 3 * usize::from(df.code);
        assert!(
            u32::from(df.code) < LAYOUT_CODES - 1,
            "data format {} past the layout table",
            df.code
        );
        // One byte per component, low first.
        let bytes = |f: fn(&(u8, u8)) -> u8| {
            df.comps
                .iter()
                .enumerate()
                .fold(0, |a, (i, c)| a | u32::from(f(c)) << (8 * i))
        };
        t[at] = df.bytes
            | (df.comps.len() as u32) << 8
            | u32::from(df.layout == Layout::PackedFloat) << 16;
        t[at + 1] = bytes(|c| c.0);
        t[at + 2] = bytes(|c| c.1);
    }
    t
}

/// True when a program has a typed access whose format comes from the V#
/// (its module includes [`wgsl_tables`]).
pub(super) fn uses_vsharp_formats(prog: &Program) -> bool {
    prog.ops.iter().any(|(_, op)| {
        matches!(op, Op::VectorMem(m) if matches!(m.access, Access::Typed { format: None, .. }))
    })
}

/// DST_SEL identity (X, Y, Z, W), MTBUF's.
const IDENTITY_SEL: u32 = 4 | 5 << 3 | 6 << 6 | 7 << 9;

impl Whole<'_> {
    /// The typed branch of `emit_buffer_mem`, inside its lane block (where
    /// `idx`, `bo` and `ba` are the lane's index, offset and address, `w` the
    /// V#'s words and `soff` SOFFSET): the format and DST_SEL (checked: a V#
    /// gcnrun refuses faults, as the CPU stops), one element of the
    /// format's size range-checked as a whole, converted through
    /// `load_texel` / `store_texel`.
    pub(super) fn emit_typed(
        &mut self,
        fault: &str,
        w: &[String],
        gen: u32,
        check: Option<(bool, &str)>,
        m: &VectorMem,
    ) {
        let Access::Typed {
            store,
            comps,
            data,
            format,
        } = m.access
        else {
            return;
        };
        let (vdata, vdst) = (m.vdata, m.vdst);
        // MTBUF's format, known here: its layout a constant and its
        // conversion its number format's own functions (texel::unpack,
        // texel::pack), not the run-time dispatch of typed_layout and
        // load_texel / store_texel (each copy of which the driver would
        // inline whole before folding the constant).
        let known: Option<TypedFormat> = format.and_then(|c| {
            let code = FormatCode::Split {
                dfmt: c.data_format,
                nfmt: c.num_format,
            };
            typed::resolve(code, Gen::Gfx9, store).ok()
        });
        let (tf, sel) = match format {
            Some(_) => {
                let code = known.map_or(0, |t| {
                    u32::from(t.df.code) | u32::from(t.nf.code()) << 8 | LOADABLE | STORABLE
                });
                (format!("{code}u"), format!("{IDENTITY_SEL}u"))
            }
            None => (
                format!("typed_vsharp_format({gen}u, {})", w[3]),
                format!("({} & 0xfffu)", w[3]),
            ),
        };
        let need = if store { STORABLE } else { LOADABLE };
        self.line(&format!("    let tf = {tf};"));
        self.line(&format!("    let sel = {sel};"));
        self.line(&format!(
            "    if (tf & {need}u) == 0u || !typed_sel_ok(sel) {{ {fault} }} else {{"
        ));
        match known {
            Some(t) => self.line(&format!("    let tl = {};", layout(t.df))),
            None => self.line("    let tl = typed_layout(tf & 0xffu);"),
        }
        self.line("    let nf = (tf >> 8u) & 0xffu;");
        let in_range = match check {
            None => "true".to_string(),
            Some((idxen, soff)) => format!(
                "buf_in_range({gen}u, {}, {}, {}, {idxen}, idx, bo, {soff}, 0u, tl.bytes)",
                w[1], w[2], w[3]
            ),
        };
        self.line(&format!("    let in0 = {in_range};"));
        self.line("    let off0 = select(0u, gmem_offset(ba, tl.bytes), in0);");
        self.line(&format!("    if in0 && off0 == NO_TEXEL {{ {fault} }}"));
        if store {
            let vals: [String; 4] = std::array::from_fn(|k| {
                if k < usize::from(comps) {
                    self.store_value(data, vdata, k as u32, known.map(|t| t.nf))
                } else {
                    "0u".into()
                }
            });
            if self.sites.typed_site(m).is_some() {
                // Packed at the module's shared site (whole::shared): the
                // values, format and place for the turn loop, the writes in
                // the case after it (emit_typed_result).
                self.line(&format!(
                    "    alu_a = vec2<u32>({}, {});\n    alu_b = vec2<u32>({}, {});\n    alu_c = vec2<u32>(tf, off0);\n    alu_k = in0 && off0 != NO_TEXEL;\n    alu_ok = true;",
                    vals[0], vals[1], vals[2], vals[3]
                ));
                self.line("    }");
                return;
            }
            let pack = known.and_then(|t| texel::pack(t.df, t.nf, &vals));
            self.line(&format!(
                "    let tx = {};",
                pack.unwrap_or_else(|| format!(
                    "store_texel(vec4<u32>({}), nf, tl.packed, tl.count, tl.lo, tl.width)",
                    vals.join(", ")
                ))
            ));
            self.line("    if in0 && off0 != NO_TEXEL {");
            self.emit_typed_texel_writes("        ");
            self.line("    }");
        } else {
            self.line("    var t = vec4<u32>(0u);");
            self.line("    if in0 && off0 != NO_TEXEL {");
            self.line("        t.x = gmem_bytes(off0, min(tl.bytes, 4u));");
            for (i, c) in ["y", "z", "w"].iter().enumerate() {
                let at = 4 * (i + 1);
                self.line(&format!(
                    "        if tl.bytes > {at}u {{ t.{c} = gmem_dword(off0 + {at}u); }}"
                ));
            }
            self.line("    }");
            if self.sites.typed_site(m).is_some() {
                // Converted at the module's shared site (whole::shared):
                // the texel, format, DST_SEL and range for the turn loop,
                // the rest in the case after it (emit_typed_result).
                self.line("    alu_a = t.xy;\n    alu_b = t.zw;\n    alu_c = vec2<u32>(tf, sel);\n    alu_k = in0;\n    alu_ok = true;");
                self.line("    }");
                return;
            }
            // Outside the buffer: zero before DST_SEL (texture::typed::load).
            let unpack = known.map_or_else(
                || "load_texel(t, nf, tl.packed, tl.count, tl.lo, tl.width)".to_string(),
                |f| texel::unpack(f.df, f.nf, "t"),
            );
            self.line(&format!(
                "    let rgba = select(vec4<u32>(0u), {unpack}, in0);"
            ));
            self.emit_typed_values(data, comps, vdst, known.map(|t| t.nf));
        }
        self.line("    }");
    }

    /// The end of a typed access whose texel or values a shared site
    /// converted (the `alu_*` values of `emit_typed`): each active lane that
    /// got as far as the conversion writes its values (a load) or its texel
    /// (a store, made visible to the next operation).
    pub(super) fn emit_typed_result(&mut self, m: &VectorMem) {
        let Access::Typed {
            comps, data, store, ..
        } = m.access
        else {
            return;
        };
        if store {
            self.line("if lane_on && alu_ok && alu_k {");
            self.line("    let tl = typed_layout(alu_c.x & 0xffu);\n    let off0 = alu_c.y;\n    let tx = alu_r;");
            self.emit_typed_texel_writes("    ");
            self.line("}");
            self.line("storageBarrier();");
            return;
        }
        self.line("if lane_on && alu_ok {");
        self.line("    let sel = alu_c.y;\n    let nf = (alu_c.x >> 8u) & 0xffu;");
        self.line("    let rgba = select(vec4<u32>(0u), alu_r, alu_k);");
        self.emit_typed_values(data, comps, m.vdst, None);
        self.line("}");
    }

    /// A typed store's texel `tx` written at `off0`, `tl.bytes` long (all
    /// in scope), each line indented by `indent`.
    fn emit_typed_texel_writes(&mut self, indent: &str) {
        self.line(&format!("{indent}gmem_put(off0, min(tl.bytes, 4u), tx.x);"));
        for (i, c) in ["y", "z", "w"].iter().enumerate() {
            let at = 4 * (i + 1);
            self.line(&format!(
                "{indent}if tl.bytes > {at}u {{ gmem_put(off0 + {at}u, 4u, tx.{c}); }}"
            ));
        }
    }

    /// A typed load's destination values from `rgba` (in scope, with `sel`
    /// and `nf`): DST_SEL, D16 narrowing, the VGPR writes. `known` is the
    /// number format when the translation knows it (MTBUF): its D16 narrowing
    /// is then the one its class takes, not both chosen at run time (Mesa
    /// would inline `f32_to_f16` for an integer format before folding).
    fn emit_typed_values(
        &mut self,
        data: TypedData,
        comps: u8,
        vdst: u32,
        known: Option<NumFormat>,
    ) {
        for k in 0..u32::from(comps) {
            self.line(&format!(
                "    let d{k} = typed_select(rgba, sel, nf, {k}u);"
            ));
        }
        // D16: each value to 16 bits by class (texture::data::load_dwords).
        let half = |k: u32| match known {
            Some(nf) if nf.is_integer() => format!("(d{k} & 0xffffu)"),
            Some(_) => format!("f32_to_f16(d{k})"),
            None => format!("select(f32_to_f16(d{k}), d{k} & 0xffffu, nf_is_integer(nf))"),
        };
        let n = u32::from(comps);
        let dwords: Vec<String> = match data {
            TypedData::Full => (0..n).map(|k| format!("d{k}")).collect(),
            TypedData::Unpacked16 => (0..n).map(half).collect(),
            TypedData::Packed16 => (0..n.div_ceil(2))
                .map(|j| {
                    if 2 * j + 1 < n {
                        format!("({} | ({} << 16u))", half(2 * j), half(2 * j + 1))
                    } else {
                        half(2 * j)
                    }
                })
                .collect(),
            TypedData::High16 => {
                let old = self.e.v_read(vdst);
                vec![format!("(({} << 16u) | ({old} & 0xffffu))", half(0))]
            }
        };
        for (k, v) in dwords.iter().enumerate() {
            self.line(&format!("    let o{k} = {v};"));
        }
        for k in 0..dwords.len() as u32 {
            if let Some(d) = self.e.v(vdst + k) {
                self.line(&format!("    {d} = o{k};"));
            }
        }
    }

    /// Component `k`'s 32-bit value of a typed store from its data VGPRs
    /// (texture::data::store_values): as it is, or a D16 half widened by the
    /// number format (UINT zero-, SINT sign-extended, the float classes
    /// exactly to f32): `known`'s alone when the translation knows it
    /// (MTBUF), else the run-time `nf`'s.
    fn store_value(
        &mut self,
        data: TypedData,
        vdata: u32,
        k: u32,
        known: Option<NumFormat>,
    ) -> String {
        let h = match data {
            TypedData::Full => return self.e.v_read(vdata + k),
            TypedData::Unpacked16 => self.e.v_read(vdata + k),
            TypedData::Packed16 => {
                format!("({} >> {}u)", self.e.v_read(vdata + k / 2), 16 * (k % 2))
            }
            TypedData::High16 => format!("({} >> 16u)", self.e.v_read(vdata)),
        };
        let (float, sint, uint) = (
            format!("bitcast<u32>(f16_to_f32({h} & 0xffffu))"),
            format!("bitcast<u32>(sign_extend({h} & 0xffffu, 16u))"),
            format!("({h} & 0xffffu)"),
        );
        match known {
            Some(NumFormat::Uint) => uint,
            Some(NumFormat::Sint) => sint,
            Some(_) => float,
            None => {
                format!("select(select({float}, {sint}, nf == NF_SINT), {uint}, nf == NF_UINT)")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each entry of the layout table unpacks, as `typed_layout` does, to the
    /// data format's bytes, components and their bit fields; codes that are
    /// no data format, block formats and the last entry read as empty.
    #[test]
    fn the_layout_table_holds_every_data_format() {
        let t = layout_table();
        assert_eq!(t.len(), 3 * LAYOUT_CODES as usize);
        let unpack = |x: u32| [x & 0xff, (x >> 8) & 0xff, (x >> 16) & 0xff, x >> 24];
        for code in 0..LAYOUT_CODES {
            let e = &t[3 * code as usize..][..3];
            match DATA_FORMATS
                .iter()
                .find(|d| u32::from(d.code) == code && d.layout != Layout::Block)
            {
                Some(df) => {
                    assert_eq!(e[0] & 0xff, df.bytes, "code {code}");
                    assert_eq!((e[0] >> 8) & 0xff, df.comps.len() as u32, "code {code}");
                    assert_eq!((e[0] >> 16) == 1, df.layout == Layout::PackedFloat);
                    for (i, &(lo, width)) in df.comps.iter().enumerate() {
                        assert_eq!(unpack(e[1])[i], u32::from(lo), "code {code}");
                        assert_eq!(unpack(e[2])[i], u32::from(width), "code {code}");
                    }
                    for i in df.comps.len()..4 {
                        assert_eq!((unpack(e[1])[i], unpack(e[2])[i]), (0, 0));
                    }
                }
                None => assert_eq!(e, [0, 0, 0], "code {code}"),
            }
        }
        assert_eq!(t[t.len() - 3..], [0, 0, 0]);
    }
}
