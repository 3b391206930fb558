//! The `.visaasm` frontend on real IGC dumps and hand samples, its canonical
//! printer, its error messages, and random text.

use gcnrun::visa::{self, Dialect, DialectChoice, Inst, Item};
use proptest::prelude::*;
use std::path::PathBuf;

/// `../shared/research/visa_samples` beside the checkout, or `GCNRUN_VISA_SAMPLES`.
fn samples_dir() -> PathBuf {
    if let Ok(p) = std::env::var("GCNRUN_VISA_SAMPLES") {
        return p.into();
    }
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/research/visa_samples")
}

fn samples() -> Vec<(PathBuf, String)> {
    let dir = samples_dir();
    let mut out: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "visaasm"))
        .map(|p| {
            let t = std::fs::read_to_string(&p).unwrap();
            (p, t)
        })
        .collect();
    out.sort();
    assert!(
        out.len() >= 5,
        "expected the visa samples in {}",
        dir.display()
    );
    out
}

fn auto(text: &str) -> Result<visa::Program, visa::VisaError> {
    visa::parse(text, DialectChoice::Auto)
}

#[test]
fn every_sample_parses_and_round_trips() {
    for (path, text) in samples() {
        let p = auto(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(p.dialect, Dialect::V41_2022, "{}", path.display());
        let printed = visa::print::program(&p);
        let q = visa::parse(&printed, DialectChoice::Force(p.dialect))
            .unwrap_or_else(|e| panic!("{} reprinted: {e}\n{printed}", path.display()));
        assert_eq!(p.decls, q.decls);
        assert_eq!(p.inputs, q.inputs);
        assert_eq!(p.attrs, q.attrs);
        assert_eq!(p.items(), q.items(), "{}", path.display());
        assert_eq!(
            visa::print::program(&q),
            printed,
            "printing is a fixed point"
        );
        let samplers = p
            .body
            .iter()
            .filter(|s| matches!(s.item, Item::Inst(Inst::Sampler(_))))
            .count();
        assert!(
            samplers >= 3,
            "{}: {samplers} sampler instructions",
            path.display()
        );
    }
}

#[test]
fn igc_dump_details() {
    let (_, text) = samples()
        .into_iter()
        .find(|(p, _)| p.ends_with("igc12504_tgllp_samp3_simd32.visaasm"))
        .unwrap();
    let p = auto(&text).unwrap();
    assert_eq!(p.kernel, "samp3");
    assert_eq!((p.version.major, p.version.minor), (4, 1));
    // The scatter stores are parsed (they execute; docs/visa.md).
    p.check_supported().unwrap();
    let stores: Vec<_> = p
        .body
        .iter()
        .filter_map(|s| match &s.item {
            Item::Inst(Inst::Scatter4Scaled {
                channels,
                exec,
                surface,
                src,
                ..
            }) => Some((
                *channels,
                exec.size,
                exec.mask,
                surface.clone(),
                src.name.clone(),
            )),
            _ => None,
        })
        .collect();
    assert_eq!(
        stores,
        [
            (0xf, 16, 0, "T6".to_string(), "V0079".to_string()),
            (0xf, 16, 4, "T6".to_string(), "V0080".to_string())
        ]
    );
    let smp: Vec<_> = p
        .body
        .iter()
        .filter_map(|s| match &s.item {
            Item::Inst(Inst::Sampler(x)) => Some(x),
            _ => None,
        })
        .collect();
    assert_eq!(smp.len(), 4);
    assert_eq!(smp[0].op.name, "sample_lz");
    assert_eq!(smp[0].op.code, 24);
    assert_eq!(smp[0].channels, 0xF);
    assert_eq!(smp[0].params.len(), 3);
    assert_eq!((smp[1].exec.mask, smp[1].exec.size), (4, 16));
    assert_eq!(smp[0].params[1].offset, 64);
}

#[test]
fn hand_samples_carry_modifiers() {
    let (_, text) = samples()
        .into_iter()
        .find(|(p, _)| p.ends_with("hand_sample3d_hf_v41.visaasm"))
        .unwrap();
    let p = auto(&text).unwrap();
    p.check_supported().unwrap();
    let printed = visa::print::program(&p);
    assert!(
        printed.contains("    sample_3d.cps.RGBA (M1, 16) 0x0:uw S0 T6 D.0 U.0 V.0\n"),
        "{printed}"
    );
    assert!(
        printed.contains("sample_c_lz.divS.R (M1_NM, 8)"),
        "{printed}"
    );
    assert!(
        printed.contains("sample_b.pixel_null_mask.RGBA (M5, 8)"),
        "{printed}"
    );
}

const HEAD: &str = ".version 4.1\n.kernel \"k\"\n\
.decl U v_type=G type=f num_elts=16 align=GRF\n\
.decl D v_type=G type=f num_elts=64 align=GRF\n\
.decl P1 v_type=P num_elts=16\n\
.decl S0 v_type=S num_elts=1\n\
.decl T6 v_type=T num_elts=1\n";

fn with(body: &str) -> String {
    format!("{HEAD}{body}\n")
}

/// A gather returns four samples (R, G, B, A blocks) whatever its one source
/// channel: the destination must hold four blocks.
#[test]
fn a_gather_destination_holds_four_blocks() {
    // 16 F = 2 GRFs per block: D (64 F) holds exactly four.
    assert!(auto(&with("    sample4.B (M1, 16) 0x0:uw S0 T6 D.0 U.0 U.0")).is_ok());
    let e = auto(&with("    sample4.B (M1, 16) 0x0:uw S0 T6 D.32 U.0 U.0")).unwrap_err();
    assert!(e.kind.to_string().contains("beyond `D`"), "{e}");
}

#[test]
fn dialects_detected_and_forced() {
    let cur =
        with("    sample_l.pixel_null_mask.RGB (M1_NM, 8) 0x321:uw S0 T6 D.0 %null.0 U.0 U.0 U.0");
    let p = auto(&cur).unwrap();
    assert_eq!(p.dialect, Dialect::Current);
    let Item::Inst(Inst::Sampler(s)) = &p.body[0].item else {
        panic!()
    };
    assert_eq!(s.paired.as_ref().unwrap().name, "%null");
    assert_eq!(s.params.len(), 3);
    let printed = visa::print::program(&p);
    assert!(printed.contains("D.0 %null.0 U.0"), "{printed}");
    let q = visa::parse(&printed, DialectChoice::Force(Dialect::Current)).unwrap();
    assert_eq!(p.items(), q.items());
    // Forcing the 2022 dialect reads `%null.0` as the first parameter.
    let old = visa::parse(&cur, DialectChoice::Force(Dialect::V41_2022)).unwrap();
    let Item::Inst(Inst::Sampler(s)) = &old.body[0].item else {
        panic!()
    };
    assert!(s.paired.is_none());
    assert_eq!(s.params.len(), 4);
    // 4.2 is current IGC; its sampler lines need the paired surface.
    let v42 =
        with("    sample_lz.R (M1, 16) 0x0:uw S0 T6 D.0").replace(".version 4.1", ".version 4.2");
    let e = auto(&v42).unwrap_err();
    assert!(e.kind.to_string().contains("paired surface"), "{e}");
}

#[test]
fn more_instructions_parse() {
    let text = with(
        "    setp (M1_NM, 16) P1 0xffff:uw\n\
         (!P1.any) sample_d_c.RGBA (M1, 16) 0x0:uw S0 T6 D.0 U.0\n\
         resinfo.RGBA (M1, 16) T6 U.0 D.0\n\
         sampleinfo.R (M1, 8) T6 D.0\n\
         load_3d.RG (M1, 16) 0x0:uw T6 D.0 U.0 U.0\n\
         sample4.G (M1, 16) 0x0:uw S0 T6 D.0 U.0 U.0\n\
         mov.sat (M1, 16) U(0,0)<1> (-abs)D(2,0)<1;1,0>\n\
         add (M1, 8) U(1,0)<1> U(0,0)<0;1,0> -1:d\n\
         cmp.ge (M1, 16) U(0,0)<1> U(0,0)<1;1,0> 0x0:f\n\
         movs (M1_NM, 1) S0(0) 0x5:ud\n\
         (P1) ret (M1, 1)",
    );
    let p = auto(&text).unwrap_or_else(|e| panic!("{e}"));
    p.check_supported().unwrap();
    let printed = visa::print::program(&p);
    assert!(printed.contains("(!P1.any) sample_d_c.RGBA"), "{printed}");
    assert!(
        printed.contains("add (M1, 8) U(1,0)<1> U(0,0)<0;1,0> 0xffffffff:d"),
        "{printed}"
    );
    let q = visa::parse(&printed, DialectChoice::Force(p.dialect)).unwrap();
    assert_eq!(p.items(), q.items());
}

/// A predicate destination followed by a modified source: `P1 (-)U(..)` is
/// the bare predicate, then a negated source (it once read as `P1(`).
#[test]
fn predicate_destination_before_a_modified_source() {
    let text = with("    cmp.eq (M1, 16) P1 (-)U(0,0)<1;1,0> (abs)U(0,0)<1;1,0>");
    let p = auto(&text).unwrap_or_else(|e| panic!("{e}"));
    let Item::Inst(Inst::Cmp { dst, srcs, .. }) = &p.body[0].item else {
        panic!("{:?}", p.body[0].item)
    };
    assert_eq!(*dst, visa::Operand::Pred("P1".into()));
    assert!(
        matches!(
            &srcs[0],
            visa::Operand::Var {
                modifier: visa::Modifier::Neg,
                ..
            }
        ),
        "{srcs:?}"
    );
    let printed = visa::print::program(&p);
    assert!(
        printed.contains("cmp.eq (M1, 16) P1 (-)U(0,0)<1;1,0> (abs)U(0,0)<1;1,0>"),
        "{printed}"
    );
    assert_eq!(auto(&printed).unwrap().items(), p.items());
    // A predicate still takes no `(row,col)` as a destination.
    let e = auto(&with(
        "    cmp.eq (M1, 16) P1(0,0)<1> U(0,0)<1;1,0> U(0,0)<1;1,0>",
    ))
    .unwrap_err();
    assert_eq!(e.line, 8, "{e}");
}

/// The error for one bad body line, which is line 8 of the text.
fn error_of(body: &str) -> String {
    let e = auto(&with(body)).unwrap_err();
    assert_eq!(e.line, 8, "{e}");
    assert!(!e.kind.to_string().contains('\n'));
    e.kind.to_string()
}

#[test]
fn bad_input_is_one_line_with_the_line_number() {
    let m = error_of("    frobnicate (M1, 16) U(0,0)<1> U(0,0)<1;1,0>");
    assert!(m.contains("unknown instruction `frobnicate`"), "{m}");
    let m = error_of("    mov (M1, 16) X(0,0)<1> U(0,0)<1;1,0>");
    assert!(m.contains("`X` is not declared"), "{m}");
    let m = error_of("    sample_lz.R (M1, 16) 0x0:uw S0 T6 Q.0 U.0");
    assert!(m.contains("`Q` is not declared"), "{m}");
    let m = error_of("    mov (M1, 16) U(1,0)<1> 0x0:f");
    assert!(m.contains("beyond"), "{m}");
    let m = error_of("    sample_lz.RGBA (M1, 16) 0x0:uw S0 T6 U.0 U.0");
    assert!(m.contains("beyond"), "{m}");
    let m = error_of("    sample_lz.R (M1, 16) 0x0:uw S0 T6 D.0 U.4");
    assert!(m.contains("beyond"), "{m}");
    let m = error_of("    sample_lz.R (M1, 4) 0x0:uw S0 T6 D.0 U.0");
    assert!(m.contains("exec size 4"), "{m}");
    let m = error_of("    mov (M1, 12) U(0,0)<1> 0x0:f");
    assert!(m.contains("exec size 12"), "{m}");
    // Channel groups as IGC's GenX_IR checks them: a group starts at a multiple
    // of its size and ends by channel 31 (`(M5, 32)` had overflowed the
    // interpreter's 32-bit channel mask; the launch fuzzer found it).
    for bad in ["(M5, 32)", "(M2, 16)", "(M3, 16)", "(M2, 8)", "(M8, 8)"] {
        let m = error_of(&format!("    mov {bad} U(0,0)<1> 0x0:f"));
        assert!(m.contains("exec mask M"), "{bad}: {m}");
    }
    for good in ["(M5, 16)", "(M7, 8)", "(M8, 4)", "(M6_NM, 1)"] {
        let text = with(&format!("    mov {good} U(0,0)<1> 0x0:f"));
        assert!(auto(&text).is_ok(), "{good}: {:?}", auto(&text).err());
    }
    let m = error_of("    sample_lz.RGBA.cps (M1, 16) 0x0:uw S0 T6 D.0 U.0");
    assert!(m.contains("out of order"), "{m}");
    let m = error_of("    sample_lz.AR (M1, 16) 0x0:uw S0 T6 D.0 U.0");
    assert!(m.contains("RGBA order"), "{m}");
    let m = error_of("    sample_lz.R (M1, 16) 0x0:uw T6 S0 D.0 U.0");
    assert!(m.contains("not a sampler"), "{m}");
    // Auto-detection would read a fifth operand as a paired surface, so the
    // dialect is forced here.
    let many = with("    sample_lz.R (M1, 16) 0x0:uw S0 T6 D.0 U.0 U.0 U.0 U.0 U.0");
    let e = visa::parse(&many, DialectChoice::Force(Dialect::V41_2022)).unwrap_err();
    assert_eq!(e.line, 8);
    assert!(e.kind.to_string().contains("1 to 4 parameters"), "{e}");
}

#[test]
fn cli_disasm_prints_canonical_text_and_exits_2_on_errors() {
    let exe = env!("CARGO_BIN_EXE_gcn-run");
    let dir = std::env::temp_dir().join(format!("gcnrun-visa-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (_, text) = samples().into_iter().next().unwrap();
    let good = dir.join("k.visaasm");
    std::fs::write(&good, &text).unwrap();
    let out = std::process::Command::new(exe)
        .arg("--disasm")
        .arg(&good)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let printed = String::from_utf8(out.stdout).unwrap();
    assert_eq!(printed, visa::print::program(&auto(&text).unwrap()));
    let bad = dir.join("bad.visaasm");
    std::fs::write(&bad, with("    frob (M1, 16)")).unwrap();
    let out = std::process::Command::new(exe)
        .arg("--disasm")
        .arg(&bad)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("bad.visaasm: line 8: unknown instruction `frob`"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Arbitrary text never panics.
    #[test]
    fn random_text_never_panics(s in "\\PC{0,200}") {
        let _ = auto(&s);
    }

    /// Random lines from the vISA alphabet after a valid header never panic,
    /// and whatever parses prints and parses back to the same program.
    #[test]
    fn random_visa_like_lines_never_panic(
        lines in prop::collection::vec(
            prop::sample::select(vec![
                "sample_lz", ".RGBA", ".R", ".pixel_null_mask", ".cps", "(M1, 16)", "(M5_NM, 8)",
                "(32)", "0x0:uw", "-1:d", "S0", "T6", "D.0", "U.0", "U.64", "%null.0", "U(0,0)<1>",
                "U(0,0)<1;1,0>", "D(7,3)<0;1,0>", "(P1)", "(!P1.all)", "mov", "cmp.lt", "P1",
                "movs", "S0(0)", "ret", "(M1, 1)", "resinfo", "lod", ".divS", "sample_d",
                "(", ")", "<", ">", ".", ",", "99999999999999999999", "scatter4_scaled", "//",
            ]),
            0..12,
        ),
        n in 1usize..4,
    ) {
        let body: Vec<String> = (0..n).map(|i| {
            lines.iter().skip(i).step_by(n).copied().collect::<Vec<_>>().join(" ")
        }).collect();
        let text = with(&body.join("\n"));
        if let Ok(p) = auto(&text) {
            let printed = visa::print::program(&p);
            let q = visa::parse(&printed, DialectChoice::Force(p.dialect));
            prop_assert!(q.is_ok(), "{}", printed);
            let q = q.unwrap();
            prop_assert_eq!(p.items(), q.items());
        }
    }
}

#[test]
fn running_a_visa_program_without_a_manifest_asks_for_one() {
    let exe = env!("CARGO_BIN_EXE_gcn-run");
    let (path, _) = samples().into_iter().next().expect("a vISA sample");
    for mode in ["--cpu", "--gpu", "--diff"] {
        let out = std::process::Command::new(exe)
            .args([mode, path.to_str().unwrap()])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{mode}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains("--manifest"), "{err}");
    }
}

#[test]
fn without_a_manifest_the_one_beside_the_program_is_named() {
    let exe = env!("CARGO_BIN_EXE_gcn-run");
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/visa/igc");
    let program = dir.join("image_loops__loop_divergent.visaasm");
    let out = std::process::Command::new(exe)
        .args(["--gpu", program.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    let beside = dir.join("image_loops__loop_divergent.toml");
    assert!(
        err.contains(&format!("`--manifest {}` is beside it", beside.display())),
        "{err}"
    );
}
