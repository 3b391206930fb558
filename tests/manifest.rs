//! Launch manifests: the SPEC.md example parses into the values it states, and each
//! kind of bad manifest is rejected with an error that names its field.

use gcnrun::launch::expr::LaneVars;
use gcnrun::launch::manifest::{CodeSource, ImageInit, SgprInit, VgprInit};
use gcnrun::launch::regs::RegRange;
use gcnrun::launch::{parse, Caps};

/// The manifest of SPEC.md, "Launch manifest", verbatim apart from comments.
const SPEC_EXAMPLE: &str = r#"
arch = "gfx7"
code = "sample2d.bin"
waves = 16
wave_size = 64

[sgpr]
"s[4:11]" = { image = "albedo" }
"s[12:15]" = { sampler = "linear" }
"s[16:19]" = [0x0, 0x0, 0x0, 0x0]
m0 = 0

[vgpr]
v0 = { u32 = "lane" }
v1 = { f32 = "((lane % 8) + 0.5) / 8" }
"v[8:11]" = { u32 = [1, 2, 3, 4] }

[[image]]
name = "albedo"
type = "2d"
width = 64
height = 64
mips = "full"
format = "8_8_8_8"
num_format = "unorm"
init = "checker"

[[sampler]]
name = "linear"
filter = { mag = "linear", min = "linear", mip = "linear" }
address = ["wrap", "wrap", "clamp_last_texel"]
compare = "never"
border = "transparent_black"

[lds]
"0x0" = { f32 = [1.0, 0.5, 0.25] }

[expect]
"v[4:7]" = { lane = 0, f32 = [0.5, 0.5, 0.5, 1.0], ulp = 0 }
"#;

#[test]
fn spec_example_parses() {
    let l = parse(SPEC_EXAMPLE, &Caps::default()).expect("the SPEC example is valid");
    assert_eq!(l.arch.mcpu, "bonaire");
    assert_eq!(l.code, CodeSource::File("sample2d.bin".into()));
    assert_eq!((l.waves, l.wave_size), (16, 64));
    // A 64x64 image has 7 levels: 64, 32, 16, 8, 4, 2, 1.
    let im = &l.images[0];
    assert_eq!(
        (im.mips, im.data_format, im.num_format, im.dim),
        (7, 10, 0, 1)
    );
    assert_eq!(im.init, ImageInit::Checker);
    // linear/linear/linear = XY filters 1, mip filter 2; wrap = 0, clamp_last_texel = 2.
    let s = &l.samplers[0];
    assert_eq!((s.mag, s.min, s.mip, s.address), (1, 1, 2, [0, 0, 2]));
    assert!(l.sgpr.contains(&(
        RegRange::Sgpr { first: 4, count: 8 },
        SgprInit::Image("albedo".into())
    )));
    assert!(l.sgpr.contains(&(RegRange::M0, SgprInit::Dwords(vec![0]))));
    // v1 at lane 13: (13 % 8 + 0.5) / 8 = 0.6875.
    let v1 = l
        .vgpr
        .iter()
        .find(|(r, _)| *r == RegRange::Vgpr { first: 1, count: 1 })
        .unwrap();
    let VgprInit::F32(e) = &v1.1 else {
        panic!("v1 is an f32 expression")
    };
    let vars = LaneVars {
        lane: 13,
        wave: 0,
        wave_size: 64,
    };
    assert_eq!(e.eval_f32_bits(vars), Ok(0.6875f32.to_bits()));
    assert_eq!(
        l.lds,
        vec![(
            0,
            vec![1.0f32.to_bits(), 0.5f32.to_bits(), 0.25f32.to_bits()]
        )]
    );
    let ex = &l.expect[0];
    assert_eq!(
        (ex.lane, ex.is_f32, ex.ulp, ex.values[3]),
        (Some(0), true, 0, 1.0f32.to_bits())
    );
}

/// Replaces the first occurrence of `from` in the SPEC example.
fn variant(from: &str, to: &str) -> String {
    assert!(SPEC_EXAMPLE.contains(from), "{from}");
    SPEC_EXAMPLE.replacen(from, to, 1)
}

#[test]
fn bad_manifests_name_the_field() {
    let cases: Vec<(String, &str)> = vec![
        (
            variant("format = \"8_8_8_8\"", "format = \"8_8_8_9\""),
            "image[0].format",
        ),
        (
            variant("num_format = \"unorm\"", "num_format = \"fancy\""),
            "image[0].num_format",
        ),
        (variant("width = 64", "width = 1000000"), "image[0].width"),
        (
            variant(
                "\"s[4:11]\" = { image = \"albedo\" }",
                "\"s[4:11]\" = { image = \"nope\" }",
            ),
            "sgpr.\"s[4:11]\"",
        ),
        (
            variant("\"s[12:15]\"", "\"s[104:107]\""),
            "sgpr.\"s[104:107]\"",
        ),
        (
            variant(
                "\"s[16:19]\" = [0x0, 0x0, 0x0, 0x0]",
                "\"s[16:19]\" = [0x0, 0x0]",
            ),
            "sgpr.\"s[16:19]\"",
        ),
        (variant("\"s[4:11]\"", "\"s[5:12]\""), "sgpr.\"s[5:12]\""),
        (
            variant("v0 = { u32 = \"lane\" }", "v0 = { u32 = \"lane +\" }"),
            "vgpr.\"v0\"",
        ),
        (variant("v0 = ", "v256 = "), "vgpr.\"v256\""),
        (
            variant(
                "\"v[8:11]\" = { u32 = [1, 2, 3, 4] }",
                "\"v[8:11]\" = { u32 = [1, 2, 3] }",
            ),
            "vgpr.\"v[8:11]\"",
        ),
        (variant("\"0x0\" = ", "\"0xfffc\" = "), "lds.\"0xfffc\""),
        (variant("arch = \"gfx7\"", "arch = \"gfx99\""), "arch"),
        (variant("wave_size = 64", "wave_size = 32"), "wave_size"),
        (variant("waves = 16", "waves = 0"), "waves"),
        // 16384 waves (2 GiB of registers and LDS) is the most; 2^20 had let one
        // line ask for 128 GiB and abort on allocation.
        (variant("waves = 16", "waves = 16385"), "waves"),
        (variant("waves = 16", "waves = 1048576"), "waves"),
        (variant("code = \"sample2d.bin\"", ""), "code"),
        (
            variant(
                "address = [\"wrap\", \"wrap\", \"clamp_last_texel\"]",
                "address = [\"wrap\"]",
            ),
            "sampler[0].address",
        ),
        (
            variant("compare = \"never\"", "compare = \"sometimes\""),
            "sampler[0].compare",
        ),
        (variant("mips = \"full\"", "mips = 8"), "image[0].mips"),
        (
            variant("lane = 0, f32", "lane = 64, f32"),
            "expect.\"v[4:7]\".lane",
        ),
        (
            variant("name = \"linear\"", "name = \"linear\"\ncolour = 1"),
            "toml",
        ),
        (variant("[lds]", "[lds"), "toml"),
    ];
    for (text, field) in &cases {
        match parse(text, &Caps::default()) {
            Ok(_) => panic!("accepted a manifest with a bad `{field}`"),
            Err(e) => {
                assert_eq!(&e.field, field, "{e}");
                let line = e.to_string();
                assert!(!line.contains('\n'), "error is not one line: {line}");
            }
        }
    }
}

#[test]
fn exec_takes_one_64_bit_value() {
    let text = variant("m0 = 0", "m0 = 0\nexec = 0x0000ffff0000ffff");
    let l = parse(&text, &Caps::default()).unwrap();
    assert!(l
        .sgpr
        .contains(&(RegRange::Exec, SgprInit::Dwords(vec![0xffff, 0xffff]))));
    let text = variant("m0 = 0", "exec = -1");
    let l = parse(&text, &Caps::default()).unwrap();
    assert!(l
        .sgpr
        .contains(&(RegRange::Exec, SgprInit::Dwords(vec![u32::MAX, u32::MAX]))));
}

#[test]
fn errors_read_well() {
    // Printed so that a reader of the test log sees what users see.
    for (from, to) in [
        ("format = \"8_8_8_8\"", "format = \"8_8_8_9\""),
        ("name = \"linear\"", "name = \"linear\"\ncolour = 1"),
        ("v0 = { u32 = \"lane\" }", "v0 = { u32 = \"lane +\" }"),
    ] {
        let e = parse(&variant(from, to), &Caps::default()).unwrap_err();
        eprintln!("{e}");
        assert!(e.to_string().len() < 300, "{e}");
    }
}
