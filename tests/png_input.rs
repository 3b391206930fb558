//! `init = { png = "file.png" }`: a PNG becomes the image's level-0 texels, and
//! `--out` writes the same bytes back for an 8-bit UNORM image.

use std::path::PathBuf;
use std::process::Command;

fn dir() -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("png_input");
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A 4×2 RGBA8 picture: pixel (x, y) = (40x, 100y, 255 − 17x, 200).
fn picture() -> Vec<u8> {
    let mut v = Vec::new();
    for y in 0..2u8 {
        for x in 0..4u8 {
            v.extend([40 * x, 100 * y, 255 - 17 * x, 200]);
        }
    }
    v
}

fn manifest(format: &str, num_format: &str, png: &str) -> PathBuf {
    let d = dir();
    // image_load v[2:5], v[0:1], s[4:11] dmask:0xf unorm ; s_endpgm (gfx900,
    // the encoding of assets/image_rw.s's first load with vdata v2).
    let text = format!(
        "arch = \"gfx900\"\nhex = \"001f00f0 00020100 000081bf\"\n\n[sgpr]\n\"s[4:11]\" = {{ image = \"pic\" }}\n\n[vgpr]\nv0 = {{ u32 = \"lane % 4\" }}\nv1 = {{ u32 = \"(lane / 4) % 2\" }}\n\n[[image]]\nname = \"pic\"\ntype = \"2d\"\nwidth = 4\nheight = 2\nformat = \"{format}\"\nnum_format = \"{num_format}\"\ninit = {{ png = \"{png}\" }}\n"
    );
    let path = d.join(format!("png_{format}_{num_format}_{png}.toml"));
    std::fs::write(&path, text).unwrap();
    path
}

fn run(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_gcn-run"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn png_pixels_load_as_unorm_and_round_trip_through_out() {
    let png = dir().join("pic.png");
    image::save_buffer(&png, &picture(), 4, 2, image::ExtendedColorType::Rgba8).unwrap();
    let m = manifest("8_8_8_8", "unorm", "pic.png");
    let out = run(&["--json", "--dump", "v[2:5]", m.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    // Lane 5 reads pixel (1, 1) = (40, 100, 238, 200): each channel c / 255.
    let unorm = |c: u32| gcnrun::texture::convert::unorm_to_f32(c, 8).to_bits();
    for (reg, c) in [("v2", 40), ("v3", 100), ("v4", 238), ("v5", 200)] {
        assert_eq!(doc["registers"][reg][5], unorm(c), "{reg}");
    }
    let outdir = dir().join("out");
    let out = run(&[m.to_str().unwrap(), "--out", outdir.to_str().unwrap()]);
    assert!(out.status.success());
    let back = image::open(outdir.join("pic.png")).unwrap().to_rgba8();
    assert_eq!(
        back.into_raw(),
        picture(),
        "--out writes the PNG's bytes back"
    );
}

#[test]
fn png_codes_load_raw_into_uint_images() {
    let png = dir().join("pic_u.png");
    image::save_buffer(&png, &picture(), 4, 2, image::ExtendedColorType::Rgba8).unwrap();
    let m = manifest("8_8_8_8", "uint", "pic_u.png");
    let out = run(&["--json", "--dump", "v[2:5]", m.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    // Lane 2 reads pixel (2, 0) = (80, 0, 221, 200).
    for (reg, c) in [("v2", 80), ("v3", 0), ("v4", 221), ("v5", 200)] {
        assert_eq!(doc["registers"][reg][2], c, "{reg}");
    }
}

#[test]
fn a_png_of_the_wrong_size_or_missing_is_one_line_exit_2() {
    let png = dir().join("small.png");
    image::save_buffer(&png, &[0u8; 4], 1, 1, image::ExtendedColorType::Rgba8).unwrap();
    for (file, needle) in [("small.png", "1×1"), ("missing.png", "missing.png")] {
        let m = manifest("8_8_8_8", "unorm", file);
        let out = run(&[m.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.contains("image[0].init") && err.contains(needle),
            "{err}"
        );
    }
}
