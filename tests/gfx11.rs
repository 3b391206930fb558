//! gfx11 (RDNA3) execution from the command line: T#s and S#s written the way a
//! driver writes them run like the ones the manifest builds, a gfx10 FORMAT code
//! in a gfx11 T# is read with gfx11's numbering, and what gfx11 still does not
//! execute is refused by name with one line and exit code 2.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn assets() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("assets")
}

fn gcn_run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gcn-run"))
        .args(args)
        .output()
        .unwrap()
}

/// `assets/sample_gfx11.toml` with its `[sgpr]` lines replaced (`edits`: from →
/// to), written beside a copy of its kernel; returns gcn-run's output.
fn sample_gfx11_with(tag: &str, edits: &[(&str, &str)]) -> Output {
    let mut text = std::fs::read_to_string(assets().join("sample_gfx11.toml")).unwrap();
    for (from, to) in edits {
        assert!(text.contains(from), "{from}");
        text = text.replacen(from, to, 1);
    }
    let dir = std::env::temp_dir().join(format!("gcnrun-gfx11-{}-{tag}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(
        assets().join("sample_gfx11.bin"),
        dir.join("sample_gfx11.bin"),
    )
    .unwrap();
    let p = dir.join("m.toml");
    std::fs::write(&p, text).unwrap();
    gcn_run(&[p.to_str().unwrap()])
}

/// The "quad" image's T# as Mesa's `ac_build_gfx10_texture_descriptor` writes it
/// for gfx11, dword by dword (the image sits at 0x10100: the manifest places
/// images from 0x10000, 256-byte aligned, after the 128-byte "rows"):
/// W0 = 0x10100 >> 8; W1 = FORMAT 8_8_8_8_UNORM (gfx11: 42) << 20 | WIDTH_LO 1
/// << 30 | MAX_MIP 0 << 16; W2 = HEIGHT − 1 = 1 << 14, no RESOURCE_LEVEL on
/// gfx11; W3 = DST_SEL X, Y, Z, W (4, 5, 6, 7 → 0xfac) | TYPE 2D (9) << 28;
/// W5 = PERF_MOD 4 << 20 (a field gcnrun does not model and must ignore).
const QUAD_TSHARP: &str = "[0x101, 0x42a00000, 0x4000, 0x90000fac, 0, 0x400000, 0, 0]";

/// The point sampler as Mesa's `ac_build_sampler_descriptor` writes it for gfx11:
/// CLAMP_X/Y/Z = 2 (clamp_last_texel) = 0x92, TRUNC_COORD (W0[27], set for
/// nearest filtering); MAX_LOD 15.0 = 0xf00 at W1[23:12]; ANISO_OVERRIDE (W2[29]);
/// filters 0 (point, mip none); BORDER_COLOR_PTR_GFX11 / TYPE 0.
const POINT_SSHARP: &str = "[0x08000092, 0xf00000, 0x20000000, 0]";

#[test]
fn driver_written_descriptors_run_like_the_manifests() {
    let out = sample_gfx11_with(
        "driver",
        &[
            (
                r#""s[16:23]" = { image = "quad" }"#,
                &format!(r#""s[16:23]" = {QUAD_TSHARP}"#),
            ),
            (
                r#""s[24:27]" = { sampler = "point" }"#,
                &format!(r#""s[24:27]" = {POINT_SSHARP}"#),
            ),
        ],
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("all 10 entries hold"), "{stdout}");
}

#[test]
fn a_gfx10_format_code_is_read_with_gfx11_numbering() {
    // 8_8_8_8_UNORM written with its gfx10 code (56): on gfx11 code 56 is
    // 16_16_16_16_SINT, so the quad image reads as other data and the
    // expectations on it fail (exit 1), not silently pass.
    let gfx10_coded = QUAD_TSHARP.replace("0x42a00000", "0x43800000");
    let out = sample_gfx11_with(
        "gfx10code",
        &[(
            r#""s[16:23]" = { image = "quad" }"#,
            &format!(r#""s[16:23]" = {gfx10_coded}"#),
        )],
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("MISMATCH v[34:37]"), "{stdout}");
}

/// Asserts the one-line, exit-2 refusal naming `what`.
fn assert_refused(out: &Output, what: &str) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains(what) && !err.contains("panicked"), "{err}");
}

/// gfx11 instructions gcnrun decodes but does not execute, each followed by
/// gfx11's `s_endpgm` (0xbfb00000); bytes from llvm-mc-19 -mcpu=gfx1100:
/// `image_msaa_load v[1:4], v[1:3], s[4:11] dmask:0x1 dim:SQ_RSRC_IMG_2D_MSAA
/// unorm` (its sample selection and four-value return are not public enough to
/// model), the round-toward-zero VINTERP forms `v_interp_p10_rtz_f16_f32 v0,
/// v1, v2, v3` and `v_interp_p2_rtz_f16_f32 v0, v1, v2, v3`, op_sel bits that
/// would pick a half of a 32-bit operand (`v_interp_p10_f16_f32 v0, v1, v2, v3
/// op_sel:[0,1,0,0]`, `v_interp_p2_f16_f32 v0, v1, v2, v3 op_sel:[0,0,1,0]`;
/// docs/errata.md IP3), and `v_interp_p10_f32 v0, src_scc, v2, v3` (a special
/// register in a VGPR slot; hand-encoded, llvm-mc-19 decodes but does not
/// assemble it).
const REFUSED: &[(&str, &str)] = &[
    ("98 01 60 f0 01 01 01 00 00 00 b0 bf", "image_msaa_load"),
    (
        "00 00 04 cd 01 05 0e 04 00 00 b0 bf",
        "v_interp_p10_rtz_f16_f32",
    ),
    (
        "00 00 05 cd 01 05 0e 04 00 00 b0 bf",
        "v_interp_p2_rtz_f16_f32",
    ),
    (
        "00 10 02 cd 01 05 0e 04 00 00 b0 bf",
        "v_interp_p10_f16_f32` with op_sel",
    ),
    (
        "00 20 03 cd 01 05 0e 04 00 00 b0 bf",
        "v_interp_p2_f16_f32` with op_sel",
    ),
    ("00 00 00 cd fd 04 0e 04 00 00 b0 bf", "non-VGPR src0"),
];

/// gfx11 LDSDIR loads with an M0 the interpreter refuses at run time (docs/
/// errata.md IP2), on the CPU and in the translator (which knows M0): `s_mov_b32
/// m0, X` (llvm-mc-19) then `lds_param_load v1, attr0.x` or `lds_direct_load v1`.
const REFUSED_M0: &[(&str, &str)] = &[
    // lds_param_offset 0x4: bits 6:0 must be zero.
    (
        "ff 00 fd be 04 00 03 00 01 00 00 ce 00 00 b0 bf",
        "lds_param_load: M0 = 0x00030004: lds_param_offset bits 6:0 must be zero",
    ),
    // Data type 1 (USHORT).
    (
        "ff 00 fd be 40 00 01 00 01 00 10 ce 00 00 b0 bf",
        "lds_direct_load: M0 = 0x00010040: data type 1 (a sub-dword read)",
    ),
    // A DWORD at byte 0x42.
    (
        "ff 00 fd be 42 00 02 00 01 00 10 ce 00 00 b0 bf",
        "lds_direct_load: M0 = 0x00020042: the address must be dword-aligned",
    ),
    // Data type 3: reserved.
    (
        "ff 00 fd be 40 00 03 00 01 00 10 ce 00 00 b0 bf",
        "data type 3 is reserved",
    ),
];

#[test]
fn lds_loads_with_a_bad_m0_are_refused() {
    for &(hex, what) in REFUSED_M0 {
        for mode in ["--cpu", "--emit-wgsl"] {
            let out = gcn_run(&[mode, "--arch", "gfx11", "--hex", hex]);
            assert_refused(&out, what);
            assert_refused(&out, "offset 0x8:");
        }
    }
}

#[test]
fn unexecuted_gfx11_instructions_are_refused_by_name() {
    for &(hex, what) in REFUSED {
        // The CPU interpreter, and the WGSL translator (no adapter needed).
        for mode in ["--cpu", "--emit-wgsl"] {
            let out = gcn_run(&[mode, "--arch", "gfx11", "--hex", hex]);
            assert_refused(&out, what);
        }
    }
}
