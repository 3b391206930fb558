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
        t = format!("set_bits({t}, {lo}u, {w}u, {f}({}, {w}u, {pf}))", rgba[i]);
    }
    Some(t)
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
            "set_bits(vec4<u32>(0u), 0u, 32u, store_float(a, 32u, false))"
        );
        assert_eq!(pack(r32, NumFormat::Srgb, &rgba), None);
    }
}
