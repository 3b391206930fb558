//! Intel vISA programs executed on the CPU reference: every launch in
//! `assets/visa/` (real IGC dumps and hand-written kernels whose expected
//! values are computed by hand in their manifests) must meet its
//! `[intel.expect]`; bad launches answer with one line naming the field or the
//! source line, exit code 2.

mod common;

use gcnrun::launch::run::{prepare_manifest, run_cpu};
use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_gcn-run");

#[test]
fn every_visa_asset_meets_its_expectations() {
    let all = common::launches::visa_manifests();
    assert!(all.len() >= 11, "{all:?}");
    for m in all {
        let p = prepare_manifest(&m, None, None, None)
            .unwrap_or_else(|e| panic!("{}: {e}", m.display()));
        let run = p.visa.clone().expect("an Intel launch");
        assert!(!run.expect.is_empty(), "{}: no [intel.expect]", m.display());
        let out = run_cpu(p).unwrap();
        assert!(
            out.mismatches.is_empty(),
            "{}: {:?}",
            m.display(),
            out.mismatches
        );
    }
}

/// Every asset's image ops stage their addresses and results above the GRF
/// bytes its operations touch, no two ops disagree on where, and the file a
/// thread stores ends after the staging: under 128 rows for every asset, not
/// the 256 of a staging above the largest GRF.
#[test]
fn staging_sits_above_the_grf_it_uses() {
    use gcnrun::ir::image::AddrRegs;
    use gcnrun::ir::visa::{VisaOp, THREAD_LANES};
    use gcnrun::ir::Op;
    let mut with_images = 0;
    for m in common::launches::visa_manifests() {
        let p = prepare_manifest(&m, None, None, None).unwrap();
        let mut staging = None;
        let mut grf_end = 0;
        let mut images = 0;
        for (_, op) in &p.prog.ops {
            let st = match op {
                Op::Visa(g) => {
                    grf_end = grf_end.max(g.grf_end());
                    match &**g {
                        VisaOp::StageAddress { staging, .. }
                        | VisaOp::StageCube { staging, .. }
                        | VisaOp::ScatterResult { staging, .. }
                        | VisaOp::Resinfo { staging, .. } => Some((staging.addr, staging.data)),
                        _ => None,
                    }
                }
                Op::Image(i) => {
                    images += 1;
                    let AddrRegs::Contiguous(a) = i.addr else {
                        panic!("{}: scattered address", m.display())
                    };
                    Some((a, i.vdata))
                }
                _ => None,
            };
            if let Some(st) = st {
                assert_eq!(*staging.get_or_insert(st), st, "{}", m.display());
            }
        }
        let Some((addr, data)) = staging else {
            continue;
        };
        with_images += usize::from(images > 0);
        assert!(
            addr * THREAD_LANES * 4 >= grf_end,
            "{}: staging overlaps the GRF",
            m.display()
        );
        assert!(data > addr && p.prog.vgpr_rows > data, "{}", m.display());
        assert!(
            p.prog.vgpr_rows < 128,
            "{}: {} rows",
            m.display(),
            p.prog.vgpr_rows
        );
    }
    assert!(with_images >= 10, "{with_images}");
}

/// The expectations can fail: change one expected value and the run reports it.
#[test]
fn a_wrong_expectation_is_reported() {
    let m = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/visa/hand_ops_simd16.toml");
    let text = std::fs::read_to_string(&m)
        .unwrap()
        .replace("EM = { ud = [255] }", "EM = { ud = [254] }");
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("visa_exec");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(
        m.with_extension("visaasm"),
        dir.join("hand_ops_simd16.visaasm"),
    )
    .unwrap();
    let bad = dir.join("wrong.toml");
    std::fs::write(&bad, text).unwrap();
    let out = run_cpu(prepare_manifest(&bad, None, None, None).unwrap()).unwrap();
    assert_eq!(out.mismatches.len(), 1, "{:?}", out.mismatches);
    assert_eq!(out.mismatches[0].register, "EM");
    assert_eq!(
        (out.mismatches[0].expected[0], out.mismatches[0].actual[0]),
        (254, 255)
    );
    let cli = Command::new(BIN).arg(&bad).output().unwrap();
    assert_eq!(cli.status.code(), Some(1));
}

/// One stderr line, exit 2, naming what is wrong.
fn bad(manifest: &str, code: &str, needles: &[&str]) {
    bad_in("visa_exec", manifest, code, needles)
}

/// [`bad`] in its own directory `sub` (tests run in parallel).
fn bad_in(sub: &str, manifest: &str, code: &str, needles: &[&str]) {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(sub);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("k.visaasm"), code).unwrap();
    let m = dir.join("k.toml");
    std::fs::write(&m, manifest).unwrap();
    let out = Command::new(BIN).arg(&m).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    for n in needles {
        assert!(err.contains(n), "{err} lacks {n}");
    }
}

const KERNEL: &str = ".version 4.1\n.kernel \"k\"\n.decl U v_type=G type=f num_elts=16 align=GRF\n.decl D v_type=G type=f num_elts=64 align=GRF\n.decl I v_type=G type=d num_elts=16 align=GRF\n.decl S0 v_type=S num_elts=1\n.decl T6 v_type=T num_elts=1\n.input U offset=32 size=64\n";

const MANIFEST: &str = "code = \"k.visaasm\"\n[intel]\nbinding_table = { 0 = \"img\" }\nsampler_table = { 0 = \"s\" }\n[[image]]\nname = \"img\"\ntype = \"2d\"\nwidth = 4\nheight = 4\nformat = \"32\"\nnum_format = \"float\"\n[[sampler]]\nname = \"s\"\n";

#[test]
fn bad_intel_launches_name_the_field_or_line() {
    let ok_body = "    movs (M1_NM, 1) S0(0) 0x0:ud\n    movs (M1_NM, 1) T6(0) 0x0:ud\n";
    // A binding to nothing.
    bad(
        &MANIFEST.replace("0 = \"img\" }", "0 = \"nope\" }"),
        KERNEL,
        &["intel.binding_table.0", "nope"],
    );
    // An input that is not declared.
    bad(
        &format!("{MANIFEST}[intel.input]\nQ = {{ f = 1.0 }}\n"),
        KERNEL,
        &["intel.input.Q", "not a declared variable"],
    );
    // A quoted key holding a newline stays on the one error line, escaped.
    bad(
        &format!("{MANIFEST}[intel.input]\n\"Q\\nR\" = {{ f = 1.0 }}\n"),
        KERNEL,
        &["intel.input.Q\\nR", "not a declared variable"],
    );
    // A surface index with no binding (line 11 of the kernel).
    bad(
        MANIFEST,
        &format!("{KERNEL}    movs (M1_NM, 1) S0(0) 0x0:ud\n    movs (M1_NM, 1) T6(0) 0x5:ud\n    sample_lz.R (M1, 16) 0x0:uw S0 T6 D.0 U.0 U.0\n"),
        &["k.visaasm", "line 11", "no entry 5"],
    );
    // Mixed float/int arithmetic, which IGC's verifier rejects.
    bad(
        MANIFEST,
        &format!("{KERNEL}    add (M1, 16) D(0,0)<1> U(0,0)<1;1,0> 0x1:d\n"),
        &["line 9", "mixes types"],
    );
    // An Xe2-only gather on TGLLP (the default platform).
    bad(
        MANIFEST,
        &format!("{KERNEL}{ok_body}    sample4_l.R (M1, 16) 0x0:uw S0 T6 D.0 U.0 U.0\n"),
        &["line 11", "sample4_l", "only on Xe2"],
    );
    // load_mcs: no public source says what it returns without an MCS.
    bad(
        MANIFEST,
        &format!("{KERNEL}{ok_body}    load_mcs.R (M1, 16) 0x0:uw T6 D.0 I.0 I.0\n"),
        &["line 11", "load_mcs", "not executed"],
    );
    // load_l: its parameter layout is in no public source.
    bad(
        MANIFEST,
        &format!("{KERNEL}{ok_body}    load_l.R (M1, 16) 0x0:uw T6 D.0 I.0 I.0\n"),
        &["line 11", "load_l", "not documented"],
    );
    // load_2dms_w needs an MSAA surface.
    bad(
        MANIFEST,
        &format!("{KERNEL}{ok_body}    load_2dms_w.R (M1, 16) 0x0:uw T6 D.0 I.0 I.0 I.0 I.0 I.0\n"),
        &["line 11", "needs a 2D MSAA surface"],
    );
    // A programmable-offset gather with a non-zero aoffimmi.
    bad(
        MANIFEST,
        &format!("{KERNEL}{ok_body}    sample4_po.R (M1, 16) 0x1:uw S0 T6 D.0 U.0 U.0 I.0 I.0\n"),
        &["line 11", "programmable-offset"],
    );
    // An integer coordinate for a sampling op.
    bad(
        MANIFEST,
        &format!("{KERNEL}{ok_body}    sample_lz.R (M1, 16) 0x0:uw S0 T6 D.0 I.0 I.0\n"),
        &["line 11", "F or HF"],
    );
    // An AMD-only sampler setting.
    bad(
        &MANIFEST.replace(
            "name = \"s\"\n",
            "name = \"s\"\naddress = [\"clamp_half_border\", \"wrap\", \"wrap\"]\n",
        ),
        KERNEL,
        &["intel.sampler_table.0", "clamp_half_border"],
    );
    // An expectation the launch cannot hold is a field error, not a
    // mismatch against zeros (exit 1): a thread past `threads`, values past
    // the end of the variable (16 elements of U) or of the buffer.
    bad(
        &format!("{MANIFEST}[intel.expect]\nU = {{ thread = 5, f = [0.0] }}\n"),
        KERNEL,
        &["field `intel.expect.U.thread`", "thread 5", "0..1"],
    );
    bad(
        &format!(
            "{MANIFEST}[intel.expect]\nU = {{ f = [{}] }}\n",
            ["0.0"; 17].join(", ")
        ),
        KERNEL,
        &["field `intel.expect.U`", "17 values", "64 bytes"],
    );
    bad(
        &format!("{MANIFEST}[[buffer]]\nname = \"out\"\nbytes = 8\n[intel.expect]\nout = {{ offset = 4, ud = [1, 2] }}\n"),
        KERNEL,
        &["field `intel.expect.out`", "from offset 4", "8 bytes"],
    );
    // AMD sections do not apply.
    bad(
        &format!("{MANIFEST}[sgpr]\ns0 = 1\n"),
        KERNEL,
        &["field `sgpr`"],
    );
}

#[test]
fn a_visaasm_input_runs_with_manifest_and_dumps_by_name() {
    let root = env!("CARGO_MANIFEST_DIR");
    let out = Command::new(BIN)
        .current_dir(root)
        .args([
            "assets/visa/hand_ops_simd16.visaasm",
            "--manifest",
            "assets/visa/hand_ops_simd16.toml",
            "--json",
            "--dump",
            "N",
        ])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["variables"]["N"]["type"], "d");
    assert_eq!(doc["variables"]["N"]["threads"][0][5], -1);
    assert_eq!(doc["threads"], 1);
}

/// SIMD control flow gcnrun does not model is refused by name and line,
/// exit 2, before anything runs: loops (a backward `goto`), a `jmp` past a
/// label where channels may wait, `call`/`fret`; and a surface index that
/// differs between the paths into a label is unknown after it.
#[test]
fn unmodelled_control_flow_is_refused_by_line() {
    let b = |code: &str, needles: &[&str]| bad_in("visa_exec_flow", MANIFEST, code, needles);
    // KERNEL is 8 lines: the body starts at line 9.
    // A loop that never ends runs into the jump budget (docs/semantics/intel.md).
    b(
        &format!("{KERNEL}L:\n    goto (M1, 16) L\n"),
        &["k.visaasm", "line 10", "backward jumps", "jump budget"],
    );
    let preds = |code: String| {
        code.replace(
            ".input",
            ".decl P1 v_type=P num_elts=16\n.decl P2 v_type=P num_elts=16\n.input",
        )
    };
    // Two backward branches to one header (a `continue`): one per loop.
    b(
        &preds(format!(
            "{KERNEL}L:\n    (P1) goto (M1, 16) L\n    goto (M1, 16) L\n"
        )),
        &[
            "line 13",
            "a second backward branch to `L` (the first is at line 12)",
        ],
    );
    // Loops that overlap: B's header lies in A, B closes after A.
    b(
        &preds(format!(
            "{KERNEL}A:\n    mov (M1, 16) I(0,0)<1> 0x1:d\nB:\n    (P1) goto (M1, 16) A\n    (P2) goto (M1, 16) B\n"
        )),
        &["line 15", "backward `goto` to `B`", "overlaps the loop closed at line 14"],
    );
    // A forward goto into a loop's body, past its header: irreducible.
    b(
        &preds(format!(
            "{KERNEL}    (P1) goto (M1, 16) M\nL:\nM:\n    (P2) goto (M1, 16) L\n"
        )),
        &["line 11", "`goto` to `M` enters the loop closed at line 14"],
    );
    // A jmp out of a loop past a label where channels of a goto later in
    // the loop wait since an earlier trip.
    b(
        &preds(format!(
            "{KERNEL}L:\n    (P1) jmp (M1, 1) X\n    (P2) goto (M1, 16) W\n    goto (M1, 1) L\nW:\nX:\n"
        )),
        &["line 12", "`jmp` to `X` passes label `W`", "line 13"],
    );
    // A sampler index that changes around a loop.
    b(
        &preds(format!(
            "{KERNEL}    movs (M1_NM, 1) S0(0) 0x0:ud\n    movs (M1_NM, 1) T6(0) 0x0:ud\nL:\n    sample_lz.R (M1, 16) 0x0:uw S0 T6 D.0 U.0 U.0\n    movs (M1_NM, 1) T6(0) 0x1:ud\n    (P1) goto (M1, 16) L\n"
        )),
        &["line 16", "`T6` is 0 at the loop's header"],
    );
    b(
        &format!("{KERNEL}    (P1) goto (M1, 16) W\n    jmp (M1, 1) E\nW:\nE:\n")
            .replace(".input", ".decl P1 v_type=P num_elts=16\n.input"),
        &["line 11", "`jmp` to `E` passes label `W`", "line 10"],
    );
    b(
        &format!("{KERNEL}    call (M1, 1) F\n"),
        &["line 9", "`call` is not supported"],
    );
    b(
        &format!("{KERNEL}    fret (M1, 1)\n"),
        &["line 9", "`fret` is not supported"],
    );
    b(
        &format!("{KERNEL}    goto (M1, 16) nowhere\n"),
        &["line 9", "`goto` to `nowhere`, which is not a label"],
    );
    b(
        &format!("{KERNEL}    goto (M1_NM, 16) L\nL:\n"),
        &["line 9", "`_NM`"],
    );
    // T6 is 0 on the goto's path and 1 on the fall-through: after L it is
    // not a launch constant (line 15 samples).
    b(
        &format!("{KERNEL}    movs (M1_NM, 1) S0(0) 0x0:ud\n    movs (M1_NM, 1) T6(0) 0x0:ud\n    goto (M1, 16) L\n    movs (M1_NM, 1) T6(0) 0x1:ud\nL:\n    sample_lz.R (M1, 16) 0x0:uw S0 T6 D.0 U.0 U.0\n"),
        &["line 14", "`T6` has no known value"],
    );
}
