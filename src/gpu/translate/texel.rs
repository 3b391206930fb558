//! A texel's unpack and pack when the translator knows its format: the
//! number format's own `load_*` / `store_*` function of `shaders/format.wgsl`
//! called per component, instead of `load_texel` / `store_texel` with the
//! format as constant arguments.
//!
//! The result is the same: `load_component` and `store_component` are
//! `switch`es that call exactly these functions (a test below reads the
//! switches and holds them to [`load_fn`] and [`store_fn`]). The difference
//! is the driver's: Mesa inlines a call with every arm of its `switch`
//! before it folds the constant, so each `load_texel` of a known format cost
//! lavapipe every number format's conversions to build — a sample's four
//! texel decodes of a 32-bit float image as long as the rest of the sample
//! (docs/gpu.md, "Time to first result on lavapipe").

use crate::texture::format::{missing_component, DataFormat, Layout, NumFormat};

/// The WGSL function `load_component` calls for `nf` (its arguments:
/// component bits, width, packed-float layout, index).
pub(crate) fn load_fn(nf: NumFormat) -> &'static str {
    match nf {
        NumFormat::Unorm => "load_unorm",
        NumFormat::Snorm => "load_snorm",
        NumFormat::Uscaled => "load_uscaled",
        NumFormat::Sscaled => "load_sscaled",
        NumFormat::Uint => "load_uint",
        NumFormat::Sint => "load_sint",
        NumFormat::Float => "load_float",
        NumFormat::Srgb => "load_srgb",
    }
}

/// The WGSL function `store_component` calls for `nf` (its arguments:
/// register value, width, packed-float layout); `None` for the number
/// formats no store writes (`texture::format::store_component`'s).
pub(crate) fn store_fn(nf: NumFormat) -> Option<&'static str> {
    match nf {
        NumFormat::Unorm => Some("store_unorm"),
        NumFormat::Snorm => Some("store_snorm"),
        NumFormat::Uint | NumFormat::Sint => Some("store_int"),
        NumFormat::Float => Some("store_float"),
        NumFormat::Uscaled | NumFormat::Sscaled | NumFormat::Srgb => None,
    }
}

/// `load_texel(raw, nf, …)` for a format known here: a `vec4<u32>`
/// expression of the texel `raw` (a WGSL `vec4<u32>` expression, read once
/// per component) unpacked to X, Y, Z, W, missing components as constants.
pub(crate) fn unpack(df: &DataFormat, nf: NumFormat, raw: &str) -> String {
    let pf = df.layout == Layout::PackedFloat;
    let f = load_fn(nf);
    let comps: Vec<String> = (0..4)
        .map(|i| match df.comps.get(i) {
            Some(&(lo, w)) if nf == NumFormat::Float => {
                float_load(&format!("get_bits({raw}, {lo}u, {w}u)"), w, pf)
            }
            Some(&(lo, w)) => format!("{f}(get_bits({raw}, {lo}u, {w}u), {w}u, {pf}, {i}u)"),
            None => format!("{}u", missing_component(i, nf)),
        })
        .collect();
    format!("vec4<u32>({})", comps.join(", "))
}

/// `store_texel(rgba, nf, …)` for a format known here: the texel packed
/// from the four register values `rgba` (WGSL `u32` expressions, each read
/// once), `None` for a number format no store writes.
pub(crate) fn pack(df: &DataFormat, nf: NumFormat, rgba: &[String; 4]) -> Option<String> {
    let pf = df.layout == Layout::PackedFloat;
    let f = store_fn(nf)?;
    let mut t = "vec4<u32>(0u)".to_string();
    for (i, &(lo, w)) in df.comps.iter().enumerate().take(4) {
        let bits = if nf == NumFormat::Float {
            float_store(&rgba[i], w, pf)
        } else {
            format!("{f}({}, {w}u, {pf})", rgba[i])
        };
        t = format!("set_bits({t}, {lo}u, {w}u, {bits})");
    }
    Some(t)
}

/// The small floats of `load_float` and `store_float` (shaders/format.wgsl)
/// by width: f16 in any layout, the 11- and 10-bit unsigned floats of the
/// packed-float layout — (width, packed float needed, the load's function,
/// the store's).
const SMALL_FLOATS: [(u8, bool, &str, &str); 3] = [
    (16, false, "f16_to_f32", "f32_to_f16"),
    (11, true, "uf11_to_f32", "f32_to_uf11"),
    (10, true, "uf10_to_f32", "f32_to_uf10"),
];

/// The [`SMALL_FLOATS`] row a `width`-bit float component takes.
fn small_float(width: u8, packed_float: bool) -> Option<(&'static str, &'static str)> {
    SMALL_FLOATS
        .iter()
        .find(|&&(w, needs_pf, _, _)| w == width && (packed_float || !needs_pf))
        .map(|&(_, _, load, store)| (load, store))
}

/// `load_float(c, width, packed_float, _)` for a width known here: the one
/// arm of `load_float` (shaders/format.wgsl) that width takes, called alone,
/// rather than all four conversions inlined for the driver to fold (the same
/// bits in less text; no build time was measurable either way on lavapipe,
/// docs/gpu.md "Typed conversions by integer steps"). A test below holds
/// these arms to the library's.
pub(crate) fn float_load(c: &str, width: u8, packed_float: bool) -> String {
    match (width, small_float(width, packed_float)) {
        (32, _) => c.to_string(),
        (_, Some((load, _))) => format!("bitcast<u32>({load}({c}))"),
        _ => "0u".to_string(),
    }
}

/// `store_float(v, width, packed_float)` for a width known here, as
/// [`float_load`] is `load_float`'s: the conversion that width takes alone.
pub(crate) fn float_store(v: &str, width: u8, packed_float: bool) -> String {
    match (width, small_float(width, packed_float)) {
        (32, _) => v.to_string(),
        (_, Some((_, store))) => format!("{store}({v})"),
        _ => "0u".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FORMAT_WGSL: &str = include_str!("../../../shaders/format.wgsl");

    /// The `case N: { return NAME(` arms of the WGSL function `func`'s switch.
    fn arms(func: &str) -> Vec<(u8, String)> {
        let start = FORMAT_WGSL
            .find(&format!("fn {func}("))
            .unwrap_or_else(|| panic!("{func} in format.wgsl"));
        let body = &FORMAT_WGSL[start..];
        let body = &body[..body.find("\n}\n").expect("the function's end")];
        body.lines()
            .filter_map(|l| {
                let l = l.trim().strip_prefix("case ")?;
                let (code, rest) = l.split_once("u: { return ")?;
                let name = rest.split('(').next()?;
                Some((code.parse().ok()?, name.to_string()))
            })
            .collect()
    }

    const ALL: [NumFormat; 8] = [
        NumFormat::Unorm,
        NumFormat::Snorm,
        NumFormat::Uscaled,
        NumFormat::Sscaled,
        NumFormat::Uint,
        NumFormat::Sint,
        NumFormat::Float,
        NumFormat::Srgb,
    ];

    #[test]
    fn the_tables_are_the_library_switches() {
        let mut loads: Vec<(u8, String)> = ALL
            .iter()
            .map(|&nf| (nf.code(), load_fn(nf).to_string()))
            .collect();
        loads.sort();
        assert_eq!(arms("load_component"), loads);
        let mut stores: Vec<(u8, String)> = ALL
            .iter()
            .filter_map(|&nf| Some((nf.code(), store_fn(nf)?.to_string())))
            .collect();
        stores.sort();
        assert_eq!(arms("store_component"), stores);
    }

    #[test]
    fn unpack_and_pack_name_each_component() {
        let df = crate::texture::format::data_format(10).expect("8_8_8_8");
        assert_eq!(
            unpack(df, NumFormat::Unorm, "raw"),
            "vec4<u32>(load_unorm(get_bits(raw, 0u, 8u), 8u, false, 0u), load_unorm(get_bits(raw, 8u, 8u), 8u, false, 1u), load_unorm(get_bits(raw, 16u, 8u), 8u, false, 2u), load_unorm(get_bits(raw, 24u, 8u), 8u, false, 3u))"
        );
        let r32 = crate::texture::format::data_format(4).expect("32");
        assert_eq!(
            unpack(r32, NumFormat::Uint, "t"),
            "vec4<u32>(load_uint(get_bits(t, 0u, 32u), 32u, false, 0u), 0u, 0u, 1u)"
        );
        let rgba: [String; 4] = ["a", "b", "c", "d"].map(String::from);
        assert_eq!(
            pack(r32, NumFormat::Float, &rgba).unwrap(),
            "set_bits(vec4<u32>(0u), 0u, 32u, a)"
        );
        let rg16 = crate::texture::format::data_format(5).expect("16_16");
        assert_eq!(
            pack(rg16, NumFormat::Float, &rgba).unwrap(),
            "set_bits(set_bits(vec4<u32>(0u), 0u, 16u, f32_to_f16(a)), 16u, 16u, f32_to_f16(b))"
        );
        assert_eq!(
            unpack(rg16, NumFormat::Float, "t"),
            "vec4<u32>(bitcast<u32>(f16_to_f32(get_bits(t, 0u, 16u))), bitcast<u32>(f16_to_f32(get_bits(t, 16u, 16u))), 0u, 1065353216u)"
        );
        assert_eq!(pack(r32, NumFormat::Srgb, &rgba), None);
    }

    /// The `if … { return …; }` arms of the WGSL function `func`, in order,
    /// as (width, whether the arm needs packed_float, the returned expression
    /// with `arg` standing for the component), then its fall-through return.
    fn width_arms(func: &str, arg: &str) -> (Vec<(u8, bool, String)>, String) {
        let start = FORMAT_WGSL.find(&format!("fn {func}(")).expect(func);
        let body = &FORMAT_WGSL[start..];
        let body = &body[..body.find("\n}\n").expect("the function's end")];
        let lines: Vec<&str> = body.lines().map(str::trim).collect();
        let ret = |l: &str| {
            let r = l
                .strip_prefix("return ")
                .and_then(|r| r.strip_suffix(';'))
                .expect("a return");
            if r == arg {
                "X".to_string()
            } else {
                r.replace(&format!("({arg})"), "(X)")
            }
        };
        let mut arms = Vec::new();
        for (k, l) in lines.iter().enumerate() {
            if let Some(cond) = l.strip_prefix("if ").and_then(|c| c.strip_suffix(" {")) {
                let pf = cond.starts_with("packed_float && ");
                let w = cond.trim_start_matches("packed_float && ");
                let w = w
                    .strip_prefix("width == ")
                    .and_then(|w| w.strip_suffix('u'));
                arms.push((w.expect(cond).parse().unwrap(), pf, ret(lines[k + 1])));
            }
        }
        let last = lines
            .iter()
            .rev()
            .find(|l| l.starts_with("return "))
            .unwrap();
        (arms, ret(last))
    }

    /// `float_load` and `float_store` give, for every width and layout, the
    /// expression the library's `load_float` and `store_float` return.
    #[test]
    fn the_float_arms_are_the_library_functions() {
        for (func, arg, ours) in [
            (
                "load_float",
                "c",
                float_load as fn(&str, u8, bool) -> String,
            ),
            ("store_float", "v", float_store),
        ] {
            let (arms, fallback) = width_arms(func, arg);
            assert_eq!(arms.len(), 4, "{func}");
            for width in 0..=32u8 {
                for pf in [false, true] {
                    let theirs = arms
                        .iter()
                        .find(|(w, needs_pf, _)| *w == width && (pf || !needs_pf))
                        .map_or(&fallback, |a| &a.2);
                    assert_eq!(&ours("X", width, pf), theirs, "{func} {width} {pf}");
                }
            }
        }
    }
}
