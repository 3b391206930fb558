//! The host's tables: one read-only storage buffer of words that every
//! module declares (`shaders/tables.wgsl`, `host_tables` at [`BINDING`]) and
//! the runtime binds to the modules whose entry point reads it ([`measure`]).
//!
//! The tables are every array the WGSL library indexes: the sRGB decodes of
//! every tabulated UNORM width ([`super::degamma::table`]), the fixed-point
//! constants of the transcendental functions (`ir::fixed`'s `EXP2_TABLE`,
//! `INV_FACT`, `INV_ODD`), the sampler's `LOG2_THRESHOLDS` and anisotropic
//! sample positions (`texture::sample`), and the BCn decoders' weights,
//! partitions and bitstream fields ([`super::bcn_tables`]), the typed
//! buffer format of every V# format code (`whole::typed`) — taken from the
//! very arrays and functions the CPU uses where it has them. They were WGSL
//! `const` arrays once, and lavapipe copies a constant array into a local one
//! at every use: a typed buffer load whose format comes from the V# took
//! seconds to build for its sRGB table, a BC6H or BC7 sample seconds for its
//! partitions and fields (docs/gpu.md, "Time to first result on lavapipe").
//! The library declares no `const` array (a test below keeps it so).

use super::bcn_tables as bcn;
use super::degamma;
use crate::ir::fixed;
use crate::texture::sample::filter::aniso_position;
use crate::texture::sample::lod::LOG2_THRESHOLDS;
use std::fmt::Write as _;
use std::sync::OnceLock;

/// The binding (group 0) of the buffer; the other bindings are
/// `gpu::wgsl::prelude`'s 0–4 and the 64-bit memory view 6
/// (`gpu::translate::MEM64_BINDING`); 5 is left free.
pub const BINDING: u32 = 7;

/// `shaders/tables.wgsl`: the binding and the look-ups (`TABLES_BINDING` is
/// replaced by [`BINDING`]).
const LIBRARY: &str = include_str!("../../../shaders/tables.wgsl");

/// The buffer's words and, for each table in order, the WGSL constant that
/// holds its first word's index and that index.
struct Layout {
    words: Vec<u32>,
    at: Vec<(&'static str, u32)>,
}

/// i32 values as their bits (`bitcast<i32>` in WGSL).
fn signed(xs: &[i32]) -> Vec<u32> {
    xs.iter().map(|&x| x as u32).collect()
}

/// u64 values as (low, high) word pairs, `host_u64`'s order.
fn pairs(xs: &[u64]) -> Vec<u32> {
    xs.iter()
        .flat_map(|&x| [x as u32, (x >> 32) as u32])
        .collect()
}

fn layout() -> &'static Layout {
    static LAYOUT: OnceLock<Layout> = OnceLock::new();
    LAYOUT.get_or_init(|| {
        let aniso: Vec<u32> = (1..=16u32)
            .flat_map(|n| (0..n).map(move |k| aniso_position(k, n).to_bits()))
            .collect();
        let tables: [(&'static str, Vec<u32>); 24] = [
            ("DEGAMMA_AT", degamma::table().to_vec()),
            ("EXP2_TABLE_AT", pairs(&fixed::EXP2_TABLE)),
            ("INV_FACT_AT", pairs(&fixed::INV_FACT)),
            ("INV_ODD_AT", pairs(&fixed::INV_ODD)),
            ("LOG2_THRESHOLDS_AT", LOG2_THRESHOLDS.to_vec()),
            ("ANISO_POSITIONS_AT", aniso),
            ("BC4_W4_AT", signed(&bcn::BC4_W4)),
            ("BC4_W6_AT", signed(&bcn::BC4_W6)),
            ("BC_W2_AT", bcn::BC_W2.to_vec()),
            ("BC_W3_AT", bcn::BC_W3.to_vec()),
            ("BC_W4_AT", bcn::BC_W4.to_vec()),
            ("BC7_COLOR_BITS_AT", bcn::BC7_COLOR_BITS.to_vec()),
            ("BC7_ALPHA_BITS_AT", bcn::BC7_ALPHA_BITS.to_vec()),
            ("BC6_BITS_W_AT", signed(&bcn::BC6_BITS_W)),
            ("BC6_BITS_R_AT", signed(&bcn::BC6_BITS_R)),
            ("BC6_BITS_G_AT", signed(&bcn::BC6_BITS_G)),
            ("BC6_BITS_B_AT", signed(&bcn::BC6_BITS_B)),
            ("BC_PARTITION2_AT", bcn::BC_PARTITION2.to_vec()),
            ("BC_FIXUP2_AT", bcn::BC_FIXUP2.to_vec()),
            ("BC_PARTITION3_AT", bcn::BC_PARTITION3.to_vec()),
            ("BC_FIXUP3_AT", bcn::BC_FIXUP3.to_vec()),
            ("BC6_FIELDS_AT", bcn::BC6_FIELDS.to_vec()),
            ("TYPED_FORMATS_AT", super::whole::vsharp_format_table()),
            ("TYPED_LAYOUTS_AT", super::whole::typed_layout_table()),
        ];
        let mut words = Vec::new();
        let mut at = Vec::new();
        for (name, t) in tables {
            at.push((name, words.len() as u32));
            words.extend_from_slice(&t);
        }
        Layout { words, at }
    })
}

/// The buffer's contents, computed once per process.
pub fn words() -> &'static [u32] {
    &layout().words
}

/// The first word of the table whose WGSL constant is `name` (`"DEGAMMA_AT"`).
pub fn at(name: &str) -> Option<u32> {
    layout()
        .at
        .iter()
        .find(|(n, _)| *n == name)
        .map(|&(_, a)| a)
}

/// The WGSL declarations every module's prelude holds: each table's
/// `const NAME_AT: u32`, the binding and the look-ups.
pub fn declarations() -> String {
    let mut s =
        String::from("\n// The host's tables (src/gpu/translate/tables.rs): first words.\n");
    for (name, a) in &layout().at {
        writeln!(s, "const {name}: u32 = {a}u;").ok();
    }
    writeln!(
        s,
        "const BC6_FIELDS_PER_MODE: u32 = {}u;",
        bcn::BC6_FIELDS_PER_MODE
    )
    .ok();
    s.push_str(&LIBRARY.replace("TABLES_BINDING", &BINDING.to_string()));
    s
}

/// The WGSL global the tables are read through.
pub const GLOBAL: &str = "host_tables";

/// The inlined size of `module` (generated WGSL; what
/// `Options::max_module_bytes` bounds) and whether it reads the tables and
/// so needs the binding: its entry point uses [`GLOBAL`], directly or in a
/// function it calls. That is naga's test of a use, and so the test of
/// whether wgpu's derived layout has the binding: a module whose entry point
/// never reaches it must not be given the buffer, and one that does must.
/// Both from one parse of the text.
pub fn measure(module: &str) -> (u64, bool) {
    crate::gpu::wgsl::main_size_and_use(module, GLOBAL)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_lie_one_after_another_with_their_contents() {
        let w = words();
        assert_eq!(at("DEGAMMA_AT"), Some(0));
        assert_eq!(&w[..degamma::table().len()], degamma::table());
        let e = at("EXP2_TABLE_AT").unwrap() as usize;
        assert_eq!(e, degamma::table().len());
        // host_u64(EXP2_TABLE_AT, 5) reads words e + 10 and e + 11.
        let x = fixed::EXP2_TABLE[5];
        assert_eq!((w[e + 10], w[e + 11]), (x as u32, (x >> 32) as u32));
        let o = at("INV_ODD_AT").unwrap() as usize;
        assert_eq!(
            at("LOG2_THRESHOLDS_AT"),
            Some((o + 2 * fixed::INV_ODD.len()) as u32)
        );
        // ANISO_POSITIONS: row n (1..=16) starts at n(n-1)/2, as sample.wgsl reads it.
        let a = at("ANISO_POSITIONS_AT").unwrap() as usize;
        assert_eq!(w[a + 4 * 3 / 2 + 2], aniso_position(2, 4).to_bits());
        assert_eq!(at("BC4_W4_AT"), Some((a + 16 * 17 / 2) as u32));
        let b = at("BC6_BITS_W_AT").unwrap() as usize;
        assert_eq!(w[b + 13] as i32, bcn::BC6_BITS_W[13]);
        let f = at("BC6_FIELDS_AT").unwrap() as usize;
        let t = at("TYPED_FORMATS_AT").unwrap() as usize;
        assert_eq!(t, f + bcn::BC6_FIELDS.len());
        let l = at("TYPED_LAYOUTS_AT").unwrap() as usize;
        assert_eq!(l, t + 16 * 8 + 128 + 64);
        assert_eq!(w.len(), l + 3 * 32);
        assert_eq!(bcn::BC6_FIELDS.len(), 14 * bcn::BC6_FIELDS_PER_MODE);
        assert_eq!(at("NOTHING_AT"), None);
    }

    /// No library file declares a `const` array: lavapipe would copy it at
    /// every use. Arrays belong in the host's tables.
    #[test]
    fn the_library_declares_no_constant_array() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("shaders");
        let mut files = 0;
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "wgsl") {
                files += 1;
                let text = std::fs::read_to_string(&path).unwrap();
                for (n, line) in text.lines().enumerate() {
                    let code = line.split("//").next().unwrap_or("");
                    assert!(
                        !(code.trim_start().starts_with("const ") && code.contains("array<")),
                        "{}:{}: {line}",
                        path.display(),
                        n + 1
                    );
                }
            }
        }
        assert!(files > 10, "the library's files: {files}");
    }

    #[test]
    fn declarations_name_the_binding_and_every_table() {
        let d = declarations();
        assert!(d.contains(&format!("@binding({BINDING})")), "{d}");
        assert!(!d.contains("TABLES_BINDING"));
        for (name, a) in &layout().at {
            assert!(d.contains(&format!("const {name}: u32 = {a}u;")), "{name}");
        }
        // Declared is not read: only an entry point that reaches a look-up.
        let reads = |module: &str| measure(module).1;
        assert!(!reads(&d));
        let reader = format!(
            "{d}\nfn f() -> u32 {{ return srgb_to_linear_table(1u, 0u); }}\nfn main() {{ _ = f(); }}\n"
        );
        assert!(reads(&reader));
        assert!(!reads(&reader.replace("_ = f();", "")));
        let direct = format!("{d}\nfn main() {{ _ = {GLOBAL}[3]; }}\n");
        assert!(reads(&direct));
    }
}
