//! The binary against a hostile user (issue 13): inputs that are not regular
//! files or are too large, memory the machine cannot give, `--out` written
//! atomically and only inside its folder, and the messages of a few usage
//! mistakes. Every refusal is one stderr line naming the file, option or field,
//! exit code 2; a run that could block is watched and killed, so a regression
//! fails the test instead of hanging it.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_gcn-run");

/// How long a refusal may take before the run counts as blocked. Generous:
/// the refusals come before any real work, but CI machines are busy.
const WATCHDOG: Duration = Duration::from_secs(60);

/// Runs gcn-run with `args` from the crate root, killing it (and failing the
/// test) if it has not finished within [`WATCHDOG`].
fn gcn_run(args: &[&str]) -> Output {
    gcn_run_in(Path::new(env!("CARGO_MANIFEST_DIR")), args)
}

/// [`gcn_run`] from the directory `dir`.
fn gcn_run_in(dir: &Path, args: &[&str]) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run gcn-run");
    // Drain both pipes on threads so a chatty child cannot stall on a full pipe.
    let mut out = child.stdout.take().expect("stdout");
    let mut err = child.stderr.take().expect("stderr");
    let out_thread = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = out.read_to_end(&mut v);
        v
    });
    let err_thread = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = err.read_to_end(&mut v);
        v
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for gcn-run") {
            break status;
        }
        if start.elapsed() > WATCHDOG {
            let _ = child.kill();
            let _ = child.wait();
            panic!("gcn-run {args:?} still ran after {WATCHDOG:?}: it blocked");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Output {
        status,
        stdout: out_thread.join().expect("stdout reader"),
        stderr: err_thread.join().expect("stderr reader"),
    }
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Asserts a bad-input answer: exit code 2, exactly one stderr line starting
/// with `gcn-run: `, containing every needle. Returns the line.
fn assert_bad(out: &Output, needles: &[&str]) -> String {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(2), "exit code; stderr: {err}");
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 1, "exactly one stderr line, got: {err:?}");
    let line = lines[0];
    assert!(line.starts_with("gcn-run: "), "{line}");
    assert!(!err.contains("panicked"), "{err}");
    for n in needles {
        assert!(line.contains(n), "stderr line lacks {n:?}: {line}");
    }
    line.to_string()
}

/// A fresh scratch directory for one test.
fn scratch_dir(test: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("cli_robust")
        .join(test);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn asset(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("assets")
        .join(name)
        .display()
        .to_string()
}

fn path_str(p: &Path) -> &str {
    p.to_str().expect("utf-8 temp path")
}

/// A minimal AMD manifest running `s_endpgm`, with `extra` appended.
fn endpgm_manifest(extra: &str) -> String {
    format!("hex = \"000081bf\"\n\n{extra}")
}

// ------------------------------------------------------------ item 3: files

/// Makes a FIFO at `path` with mkfifo(1); `false` (and a SKIPPED line) where
/// the platform has none.
fn mkfifo(path: &Path, test: &str) -> bool {
    let made = Command::new("mkfifo")
        .arg(path)
        .status()
        .is_ok_and(|s| s.success());
    if !made {
        assert!(
            std::env::var("CI").map_or(true, |v| v != "true") || !cfg!(unix),
            "{test}: mkfifo failed under CI=true"
        );
        println!("SKIPPED {test}: cannot make a FIFO");
    }
    made
}

/// A FIFO in every place gcn-run reads a file: nothing ever writes to it, so
/// a reader that opens it blocking would hang (and the watchdog fails the test).
#[test]
fn a_fifo_is_refused_everywhere_without_blocking() {
    let dir = scratch_dir("fifo");
    for name in ["k.bin", "m.toml", "p.png", "k.visaasm", "k.isa"] {
        if !mkfifo(
            &dir.join(name),
            "a_fifo_is_refused_everywhere_without_blocking",
        ) {
            return;
        }
    }
    std::fs::write(
        dir.join("png.toml"),
        endpgm_manifest(
            "[[image]]\nname = \"a\"\ntype = \"2d\"\nwidth = 4\nheight = 4\nformat = \"8_8_8_8\"\nnum_format = \"unorm\"\ninit = { png = \"p.png\" }\n",
        ),
    )
    .unwrap();
    std::fs::write(dir.join("code.toml"), "code = \"k.bin\"\n").unwrap();
    let visa_manifest = asset("visa/igc_samp_simd32.toml");
    let visa_code = asset("visa/igc_samp_simd32.visaasm");
    let cases: Vec<(Vec<&str>, &[&str])> = vec![
        (vec!["--disasm", "k.bin"], &["k.bin", "FIFO", "code file"]),
        (vec!["k.bin"], &["k.bin", "FIFO"]),
        (vec!["--gpu", "k.bin"], &["k.bin", "FIFO"]),
        (vec!["--emit-wgsl", "k.bin"], &["k.bin", "FIFO"]),
        (vec!["m.toml"], &["m.toml", "FIFO", "manifest"]),
        (vec!["code.toml"], &["k.bin", "FIFO"]),
        (
            vec!["png.toml"],
            &["png.toml", "image[0].init", "p.png", "FIFO"],
        ),
        (vec!["--disasm", "k.visaasm"], &["k.visaasm", "FIFO"]),
        (vec!["--disasm", "k.isa"], &["k.isa", "FIFO"]),
        (
            vec!["k.visaasm", "--manifest", &visa_manifest],
            &["k.visaasm", "FIFO"],
        ),
        (
            vec![&visa_code, "--manifest", "m.toml"],
            &["m.toml", "FIFO", "manifest"],
        ),
    ];
    for (args, needles) in cases {
        assert_bad(&gcn_run_in(&dir, &args), needles);
    }
}

/// Devices are refused by their type, before a byte is read: `/dev/zero` as a
/// manifest used to grow a string to gigabytes.
#[test]
fn devices_are_refused_by_type() {
    if !Path::new("/dev/zero").exists() {
        println!("SKIPPED devices_are_refused_by_type: no /dev/zero");
        return;
    }
    assert_bad(
        &gcn_run(&["/dev/zero", "--disasm"]),
        &["/dev/zero", "character device", "code file"],
    );
    let visa = asset("visa/igc_samp_simd32.visaasm");
    assert_bad(
        &gcn_run(&[&visa, "--manifest", "/dev/zero"]),
        &["/dev/zero", "character device", "manifest"],
    );
    let dir = scratch_dir("devices");
    let link = dir.join("zero.toml");
    if std::os::unix::fs::symlink("/dev/zero", &link).is_ok() {
        // A link is followed: what counts is the file it names.
        assert_bad(
            &gcn_run(&[path_str(&link)]),
            &["zero.toml", "character device"],
        );
    }
}

/// Each kind of file has its cap, checked from the file's size before reading
/// (the files are sparse: they take no disk).
#[test]
fn files_past_their_cap_are_refused() {
    let dir = scratch_dir("caps");
    let sized = |name: &str, len: u64| {
        let p = dir.join(name);
        std::fs::File::create(&p).unwrap().set_len(len).unwrap();
        p
    };
    let code = sized("big.bin", gcnrun::input::MAX_INPUT_BYTES + 4);
    assert_bad(
        &gcn_run(&["--disasm", path_str(&code)]),
        &["big.bin", "offset 0x4000000", "64 MiB", "code file"],
    );
    let manifest = sized("big.toml", gcnrun::input::MAX_TEXT_BYTES + 1);
    assert_bad(
        &gcn_run(&[path_str(&manifest)]),
        &["big.toml", "8 MiB", "manifest"],
    );
    let text = sized("big.visaasm", gcnrun::input::MAX_TEXT_BYTES + 1);
    assert_bad(
        &gcn_run(&["--disasm", path_str(&text)]),
        &["big.visaasm", "8 MiB", "vISA text"],
    );
    sized("big.png", gcnrun::input::MAX_PNG_BYTES + 1);
    std::fs::write(
        dir.join("png.toml"),
        endpgm_manifest(
            "[[image]]\nname = \"a\"\ntype = \"2d\"\nwidth = 4\nheight = 4\nformat = \"8_8_8_8\"\nnum_format = \"unorm\"\ninit = { png = \"big.png\" }\n",
        ),
    )
    .unwrap();
    assert_bad(
        &gcn_run_in(&dir, &["png.toml"]),
        &["png.toml", "image[0].init", "big.png", "256 MiB", "PNG"],
    );
    // Just under the cap, a manifest is read (and then fails as TOML, not as a
    // file): the cap is where the documentation says.
    let under = sized("under.toml", gcnrun::input::MAX_TEXT_BYTES);
    assert_bad(&gcn_run(&[path_str(&under)]), &["under.toml", "toml"]);
}

/// A manifest that is not UTF-8 names the offset of the first bad byte.
#[test]
fn a_manifest_that_is_not_text_names_the_offset() {
    let dir = scratch_dir("utf8");
    let p = dir.join("bin.toml");
    std::fs::write(&p, b"hex = \"000081bf\"\n\xff\xfe").unwrap();
    assert_bad(
        &gcn_run(&[path_str(&p)]),
        &["bin.toml", "offset 0x11", "UTF-8"],
    );
}

// ------------------------------------------------------------ item 6: --out

/// A manifest with one noise image `name` of `size`² RGBA8 texels.
fn image_manifest(name: &str, size: u32) -> String {
    // TOML's own quoting: Rust's `{:?}` spells some control characters in a
    // way TOML does not read.
    let quoted = toml::Value::String(name.to_string()).to_string();
    endpgm_manifest(&format!(
        "[[image]]\nname = {quoted}\ntype = \"2d\"\nwidth = {size}\nheight = {size}\nformat = \"8_8_8_8\"\nnum_format = \"unorm\"\ninit = \"noise\"\n"
    ))
}

/// Image names become file names under `--out`: anything but a plain file
/// name is refused when the manifest is read, naming the field, and nothing
/// is written anywhere.
#[test]
fn image_names_must_be_plain_file_names() {
    let dir = scratch_dir("names");
    let out = dir.join("out");
    let bad = [
        "../escaped",
        "a/b",
        "a\\b",
        "",
        ".",
        "..",
        ".hidden",
        "-rf",
        "a\nb",
        "tab\there",
        "nul\u{0}",
        "a:b",
        "a b",
        "con",
        "NUL.txt",
        &"x".repeat(201),
    ];
    for name in bad {
        let m = dir.join("bad.toml");
        std::fs::write(&m, image_manifest(name, 4)).unwrap();
        let line = assert_bad(
            &gcn_run(&[path_str(&m), "--out", path_str(&out)]),
            &["bad.toml", "field `image[0].name`", "plain file name"],
        );
        assert!(!line.contains('\n'), "{line}");
    }
    assert!(!out.exists(), "a refused manifest wrote {}", out.display());
    assert!(!dir.join("escaped.png").exists());
    // The names the assets use, and a few more that are safe, are accepted.
    for name in [
        "albedo",
        "rg16f",
        "rgb10_a2_low",
        "v1.2-final",
        "_x",
        "größe",
        "x".repeat(200).as_str(),
    ] {
        let m = dir.join("good.toml");
        std::fs::write(&m, image_manifest(name, 4)).unwrap();
        let run = gcn_run(&[path_str(&m), "--out", path_str(&out), "--quiet"]);
        assert_eq!(run.status.code(), Some(0), "{name:?}: {}", stderr(&run));
        assert!(out.join(format!("{name}.png")).is_file(), "{name:?}");
    }
}

/// `--out` replaces the picture's name instead of writing into the file it
/// names: a hard link to another file keeps that file's bytes, and a symbolic
/// link to a file outside the folder is replaced, not written through.
#[test]
fn out_replaces_files_instead_of_writing_into_them() {
    let dir = scratch_dir("replace");
    let out = dir.join("out");
    std::fs::create_dir_all(&out).unwrap();
    let kept = dir.join("kept.png");
    std::fs::write(&kept, b"not a picture").unwrap();
    std::fs::hard_link(&kept, out.join("input.png")).unwrap();
    let outside = dir.join("outside.png");
    std::fs::write(&outside, b"outside").unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(&outside, out.join("output.png")).unwrap();
    let run = gcn_run(&[
        "assets/gradient_quad.bin",
        "--arch",
        "gfx6",
        "--out",
        path_str(&out),
    ]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    assert_eq!(std::fs::read(&kept).unwrap(), b"not a picture");
    assert_eq!(std::fs::read(&outside).unwrap(), b"outside");
    for name in ["input.png", "output.png"] {
        let p = out.join(name);
        assert!(std::fs::symlink_metadata(&p).unwrap().is_file(), "{name}");
        assert!(std::fs::read(&p).unwrap().starts_with(b"\x89PNG\r\n\x1a\n"));
    }
    let left: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(left.is_empty(), "temporary files left: {left:?}");
}

/// Runs writing the same name into one folder at once leave one whole PNG,
/// byte for byte one run's picture (before, a short PNG could be followed by
/// the rest of a longer one after its IEND).
#[test]
fn concurrent_runs_leave_one_whole_picture() {
    let dir = scratch_dir("concurrent");
    let out = dir.join("out");
    // Two sizes, so that one picture is longer than the other.
    let mut solo = Vec::new();
    for size in [16u32, 128] {
        let m = dir.join(format!("m{size}.toml"));
        std::fs::write(&m, image_manifest("pic", size)).unwrap();
        let alone = dir.join(format!("alone{size}"));
        let run = gcn_run(&[path_str(&m), "--out", path_str(&alone), "--quiet"]);
        assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
        solo.push(std::fs::read(alone.join("pic.png")).unwrap());
    }
    assert_ne!(solo[0].len(), solo[1].len());
    for round in 0..3 {
        let children: Vec<_> = (0..6)
            .map(|k| {
                let m = dir.join(if k % 2 == 0 { "m16.toml" } else { "m128.toml" });
                Command::new(BIN)
                    .args([path_str(&m), "--out", path_str(&out), "--quiet"])
                    .stdout(Stdio::null())
                    .stderr(Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        for c in children {
            let o = c.wait_with_output().unwrap();
            assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        }
        let got = std::fs::read(out.join("pic.png")).unwrap();
        assert!(
            solo.contains(&got),
            "round {round}: pic.png ({} bytes) is neither run's picture",
            got.len()
        );
    }
    let left = std::fs::read_dir(&out).unwrap().count();
    assert_eq!(left, 1, "only pic.png remains");
}

// ------------------------------------------------------------ item 7: messages

/// `--target` without `--emit-wgsl` names what it needs (clap's own check
/// named nothing, and let `--disasm` satisfy it).
#[test]
fn target_names_the_option_it_needs() {
    for args in [
        vec!["--target", "msl", "assets/gradient_quad.bin"],
        vec!["--disasm", "--target", "msl", "assets/gradient_quad.bin"],
        vec!["--gpu", "--target", "hlsl", "assets/gradient_quad.bin"],
    ] {
        assert_bad(&gcn_run(&args), &["--target", "--emit-wgsl"]);
    }
    let ok = gcn_run(&[
        "--emit-wgsl",
        "--target",
        "msl",
        "--arch",
        "gfx6",
        "assets/gradient_quad.bin",
    ]);
    assert_eq!(ok.status.code(), Some(0), "{}", stderr(&ok));
    assert!(stdout(&ok).contains("metal"), "MSL on stdout");
}

/// `bench --lanes` takes what one launch holds: 1..=1048576 for the AMD
/// workloads (16384 waves of 64) and at most 131072 for `visa_sample` (4096
/// threads of 32). More is refused in one line before anything runs, for AMD
/// and Intel workloads alike, and `--help` says the range.
#[test]
fn bench_lanes_are_what_one_launch_holds() {
    assert_bad(
        &gcn_run(&[
            "bench",
            "--lanes",
            "1048577",
            "--workload",
            "load_store_copy",
        ]),
        &["--lanes", "1048577", "1..=1048576"],
    );
    assert_bad(
        &gcn_run(&["bench", "--lanes", "0"]),
        &["--lanes", "1..=1048576"],
    );
    assert_bad(
        &gcn_run(&["bench", "--lanes", "131073", "--workload", "visa_sample"]),
        &["--lanes", "visa_sample", "131072", "4096 threads of 32"],
    );
    // All workloads: the Intel one bounds the request before any runs.
    assert_bad(
        &gcn_run(&["bench", "--lanes", "1048576", "--json"]),
        &["--lanes", "visa_sample", "131072"],
    );
    let help = stdout(&gcn_run(&["bench", "--help"]));
    assert!(
        help.contains("1..=1048576") && help.contains("131072"),
        "{help}"
    );
    assert!(!help.contains("4194304"), "{help}");
    // The largest launch of each kind is accepted by the library.
    for w in gcnrun::bench::workloads() {
        let (most, _) = w.max_lanes();
        assert!(w.prepare(most + 1).is_err(), "{}", w.name);
    }
}

/// `--manifest` with AMD code runs that code in the manifest's environment
/// (the manifest's own code is not read), as it does for Intel programs; a
/// manifest INPUT with `--manifest`, and an Intel manifest for AMD code, are
/// refused. With `--disasm` the code is listed for the manifest's arch.
#[test]
fn manifest_runs_amd_code_in_its_environment() {
    let json = |args: &[&str]| {
        let out = gcn_run(args);
        let doc: serde_json::Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{args:?}: {e}: {}", stderr(&out)));
        (out.status.code(), doc)
    };
    let (code_a, a) = json(&["assets/image_rw.toml", "--json"]);
    let dir = scratch_dir("manifest");
    // The same code under another name, so that it cannot be the manifest's own file.
    let copy = dir.join("copy.bin");
    std::fs::copy(asset("image_rw.bin"), &copy).unwrap();
    let (code_b, b) = json(&[
        path_str(&copy),
        "--manifest",
        "assets/image_rw.toml",
        "--json",
    ]);
    assert_eq!((code_a, code_b), (Some(0), Some(0)));
    for key in ["arch", "registers", "images", "mismatches", "waves"] {
        assert_eq!(a[key], b[key], "{key}");
    }
    // Other code in the same environment fails the manifest's [expect]: the
    // given code is what runs.
    let other = gcn_run(&[
        "assets/gradient_quad.bin",
        "--manifest",
        "assets/image_rw.toml",
    ]);
    assert_eq!(other.status.code(), Some(1), "{}", stderr(&other));
    assert!(stdout(&other).contains("MISMATCH"));
    // --hex works the same way.
    let hex = gcn_run(&[
        "--hex",
        "0xbf810000",
        "--manifest",
        "assets/image_rw.toml",
        "--quiet",
    ]);
    assert_eq!(hex.status.code(), Some(1), "{}", stderr(&hex));
    assert_bad(
        &gcn_run(&["assets/image_rw.toml", "--manifest", "assets/image_rw.toml"]),
        &["--manifest", "image_rw.toml", "itself a manifest"],
    );
    assert_bad(
        &gcn_run(&[
            "assets/image_rw.bin",
            "--manifest",
            "assets/visa/igc_samp_simd32.toml",
        ]),
        &["igc_samp_simd32.toml", "Intel", "vISA"],
    );
    // --disasm: the manifest's arch (gfx1030 NSA code lists as such; as gfx6
    // it is invalid), with no arch note.
    let listed = gcn_run(&[
        "--disasm",
        "assets/image_gfx10.bin",
        "--manifest",
        "assets/image_gfx10.toml",
    ]);
    let by_arch = gcn_run(&["--disasm", "assets/image_gfx10.bin", "--arch", "gfx1030"]);
    assert_eq!(listed.status.code(), Some(0), "{}", stderr(&listed));
    assert_eq!(stdout(&listed), stdout(&by_arch));
    assert!(stderr(&listed).is_empty(), "{}", stderr(&listed));
    let help = stdout(&gcn_run(&["--help"]));
    assert!(help.contains("an AMD manifest for AMD code"), "{help}");
}

/// What the shared lowering refuses, no backend runs, and the message says so
/// without naming one; what only the WGSL translation refuses names the GPU
/// backend (the CPU runs it).
#[test]
fn refusals_name_the_backend() {
    // s_sethalt: decoded, but lowered by neither backend.
    for mode in ["--cpu", "--emit-wgsl", "--gpu"] {
        assert_bad(
            &gcn_run(&[mode, "--arch", "gfx9", "--hex", "0xbf8d0000"]),
            &[
                "--hex",
                "offset 0x0",
                "`s_sethalt` is not executed by gcnrun (neither backend)",
            ],
        );
    }
    // FORCE_DEGAMMA on a 32-bit UNORM component: the CPU samples it, the WGSL
    // translation refuses it.
    let dir = scratch_dir("backend");
    let m = dir.join("degamma32.toml");
    std::fs::write(
        &m,
        format!(
            "arch = \"gfx900\"\ncode = {:?}\n\n[sgpr]\n\"s[4:11]\" = {{ image = \"img\" }}\n\"s[12:15]\" = {{ sampler = \"s\" }}\n\n[[image]]\nname = \"img\"\ntype = \"2d\"\nwidth = 4\nheight = 4\nformat = \"32\"\nnum_format = \"unorm\"\ninit = \"noise\"\n\n[[sampler]]\nname = \"s\"\nfilter = {{ mag = \"point\", min = \"point\", mip = \"none\" }}\nforce_degamma = true\n",
            asset("bench_sample.bin")
        ),
    )
    .unwrap();
    let cpu = gcn_run(&[path_str(&m), "--quiet"]);
    assert_eq!(cpu.status.code(), Some(0), "{}", stderr(&cpu));
    let line = assert_bad(
        &gcn_run(&["--emit-wgsl", path_str(&m)]),
        &["bench_sample.bin", "GPU backend: ", "FORCE_DEGAMMA"],
    );
    assert!(!line.contains("interpreter"), "{line}");
}

/// A raw file or `--hex` without `--arch` says which arch it was decoded as:
/// a `;` comment atop the listing, a note on stderr for `--disasm --json` (the
/// JSON stays one document) and for runs, at the end of the error line when
/// the run fails. A given or read arch says nothing.
#[test]
fn an_assumed_arch_is_said() {
    const NOTE: &str = "arch not given: decoded as gfx6 (tahiti); pass --arch";
    let listed = gcn_run(&["--disasm", "assets/gradient_quad.bin"]);
    assert_eq!(listed.status.code(), Some(0));
    assert_eq!(
        stdout(&listed).lines().next(),
        Some(format!("; {NOTE}").as_str())
    );
    assert!(stderr(&listed).is_empty(), "{}", stderr(&listed));

    let json = gcn_run(&["--disasm", "--json", "--hex", "0xbf810000"]);
    assert_eq!(json.status.code(), Some(0));
    let doc: serde_json::Value = serde_json::from_slice(&json.stdout).expect("one JSON document");
    assert_eq!(doc.as_array().map(Vec::len), Some(1));
    assert_eq!(stderr(&json), format!("gcn-run: note: {NOTE}\n"));

    for args in [
        vec!["assets/gradient_quad.bin", "--quiet"],
        vec!["--emit-wgsl", "assets/gradient_quad.bin"],
        vec!["assets/gradient_quad.bin", "--json"],
    ] {
        let run = gcn_run(&args);
        assert_eq!(run.status.code(), Some(0), "{args:?}");
        assert_eq!(stderr(&run), format!("gcn-run: note: {NOTE}\n"), "{args:?}");
    }
    // A failure keeps one line, the note at its end.
    let line = assert_bad(&gcn_run(&["--hex", "0xbf8d0000"]), &["s_sethalt", NOTE]);
    assert!(line.ends_with(NOTE), "{line}");
    let line = assert_bad(
        &gcn_run(&["--disasm", "--json", "--hex", "0xffffffff"]),
        &["invalid", NOTE],
    );
    assert!(line.ends_with(NOTE), "{line}");

    // Given, or read from a code object or a manifest: no note.
    for args in [
        vec!["--disasm", "--arch", "gfx6", "assets/gradient_quad.bin"],
        vec!["--arch", "gfx6", "--quiet", "assets/gradient_quad.bin"],
        vec!["--quiet", "assets/image_rw.toml"],
    ] {
        let out = gcn_run(&args);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).is_empty(), "{args:?}: {}", stderr(&out));
        assert!(!stdout(&out).contains(NOTE), "{args:?}");
    }
}

// ------------------------------------------------------------ item 4: memory

/// True when the machine would refuse an allocation of `bytes` outright: the
/// kernel's overcommit heuristic (mode 0) or strict accounting (mode 2), and
/// less memory and swap than that. Elsewhere (mode 1 overcommits anything) the
/// allocation could succeed and then be filled, so the test must not run.
fn machine_refuses(bytes: u64, test: &str) -> bool {
    let mode = std::fs::read_to_string("/proc/sys/vm/overcommit_memory").unwrap_or_default();
    let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
    let kib = |key: &str| -> Option<u64> {
        meminfo
            .lines()
            .find(|l| l.starts_with(key))?
            .split_whitespace()
            .nth(1)?
            .parse()
            .ok()
    };
    let total = kib("MemTotal:")
        .zip(kib("SwapTotal:"))
        .map(|(m, s)| (m + s) * 1024);
    let refuses = matches!(mode.trim(), "0" | "2") && total.is_some_and(|t| t < bytes / 2);
    if !refuses {
        println!("SKIPPED {test}: overcommit mode {mode:?} or {total:?} bytes of memory and swap");
    }
    refuses
}

/// Memory under the cap that the machine cannot give is one line naming the
/// field, exit 2 (it was "memory allocation … failed" and a backtrace).
#[test]
fn memory_the_machine_cannot_give_is_refused() {
    const TIB: u64 = 1 << 40;
    if !machine_refuses(TIB, "memory_the_machine_cannot_give_is_refused") {
        return;
    }
    let dir = scratch_dir("memory");
    let buffer = dir.join("buffer.toml");
    std::fs::write(
        &buffer,
        endpgm_manifest(&format!("[[buffer]]\nname = \"big\"\nbytes = {TIB}\n")),
    )
    .unwrap();
    assert_bad(
        &gcn_run(&[path_str(&buffer), "--mem-cap", "2000g"]),
        &[
            "buffer.toml",
            "field `buffer[0].bytes`",
            "`big`",
            "cannot allocate",
        ],
    );
    // 16384 × 16384 × 256 layers of 16-byte texels: 1 TiB of image memory.
    let image = dir.join("image.toml");
    std::fs::write(
        &image,
        endpgm_manifest("[[image]]\nname = \"huge\"\ntype = \"2d_array\"\nwidth = 16384\nheight = 16384\nlayers = 256\nformat = \"32_32_32_32\"\nnum_format = \"float\"\n"),
    )
    .unwrap();
    assert_bad(
        &gcn_run(&[path_str(&image), "--mem-cap", "2000g"]),
        &[
            "image.toml",
            "field `image[0].width`",
            "`huge`",
            "cannot allocate",
        ],
    );
}

/// `--disasm` streams, and what it streams is what the in-memory report gives
/// (the JSON byte for byte, the document `gcn-run` printed before it
/// streamed: `report::json` of every decoded instruction), over every asset
/// for several generations.
#[test]
fn the_streamed_listing_is_the_report() {
    let mut bins: Vec<PathBuf> =
        std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("assets"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "bin"))
            .collect();
    bins.sort();
    assert!(bins.len() > 10);
    for bin in &bins {
        let program = gcnrun::input::load_file(bin).unwrap();
        for arch in ["gfx6", "gfx9", "gfx1030", "gfx1100"] {
            let a = gcnrun::Arch::parse(arch).unwrap();
            let d = gcnrun::report::disassemble(&program, &a);
            let json = gcn_run(&["--disasm", "--json", "--arch", arch, path_str(bin)]);
            assert_eq!(
                stdout(&json),
                format!("{}\n", gcnrun::report::json(&d.insts)),
                "{} {arch}",
                bin.display()
            );
            let text = gcn_run(&["--disasm", "--arch", arch, path_str(bin)]);
            assert_eq!(
                stdout(&text),
                gcnrun::report::listing(&d.insts),
                "{} {arch}",
                bin.display()
            );
            let code = if d.error.is_some() { 2 } else { 0 };
            assert_eq!(
                (json.status.code(), text.status.code()),
                (Some(code), Some(code))
            );
        }
    }
}

/// A stream cut inside its last instruction lists every instruction before
/// the cut, and reports the first invalid word before the cut (README,
/// "Exit codes and errors") — also when an invalid word's own length would
/// have reached past the cut, where gcn-run used to list nothing and report
/// the cut instead.
#[test]
fn a_cut_stream_lists_everything_before_the_cut() {
    // gfx11 image code read as gfx10: MIMG words of other lengths, invalid
    // words, and a cut at the end.
    let bin = asset("image_gfx11.bin");
    let program = gcnrun::input::load_file(Path::new(&bin)).unwrap();
    let arch = gcnrun::Arch::parse("gfx1030").unwrap();
    let whole = gcnrun::report::disassemble(&program, &arch);
    let cut = match gcnrun::gcn::decode_stream(&program.bytes, &arch) {
        Err(gcnrun::gcn::DecodeError::Truncated { offset, .. }) => offset,
        other => panic!("the asset no longer ends cut as gfx10: {other:?}"),
    };
    let listed: usize = whole.insts.iter().map(|i| i.len_bytes()).sum();
    assert_eq!(listed, cut, "every byte before the cut is listed");
    let first_invalid = whole
        .insts
        .iter()
        .find(|i| i.is_invalid())
        .expect("invalid words")
        .offset;
    let out = gcn_run(&["--disasm", "--arch", "gfx1030", &bin]);
    assert_bad(
        &out,
        &[
            "image_gfx11.bin",
            &format!("offset {first_invalid:#x}:"),
            "invalid",
        ],
    );
    assert_eq!(stdout(&out).lines().count(), whole.insts.len());
}

/// Lowering one instruction at a time gives the program (or the error) of
/// decoding the whole stream, then lowering it; a decode error wins.
#[test]
fn streamed_lowering_is_lowering() {
    use gcnrun::gcn::{decode_stream, lower};
    let mut cases: Vec<(String, Vec<u8>)> =
        std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("assets"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "bin"))
            .map(|p| (p.display().to_string(), std::fs::read(&p).unwrap()))
            .collect();
    // A refused instruction before a cut: the cut is the error.
    cases.push((
        "branch then cut".into(),
        [0xbf82_0000u32, 0xf000_1300]
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect(),
    ));
    // A refused instruction alone.
    cases.push(("branch".into(), 0xbf82_0000u32.to_le_bytes().to_vec()));
    for (name, bytes) in &cases {
        for arch in ["gfx6", "gfx8", "gfx9", "gfx1030", "gfx1100"] {
            let a = gcnrun::Arch::parse(arch).unwrap();
            let whole = decode_stream(bytes, &a)
                .map_err(lower::LowerBytesError::from)
                .and_then(|insts| lower::lower(&insts, &a).map_err(lower::LowerBytesError::from));
            assert_eq!(lower::lower_bytes(bytes, &a), whole, "{name} {arch}");
        }
    }
}

/// A reader that closes the pipe early (`gcn-run --help | head -1`) ends
/// gcn-run quietly (SIGPIPE's default action), never with a panic.
#[test]
fn a_closed_stdout_pipe_is_not_a_panic() {
    for args in [
        &["--help"][..],
        &["--disasm", "--arch", "gfx9", "--hex", "0xbf810000"][..],
    ] {
        let mut child = Command::new(BIN)
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Close our end before gcn-run writes.
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

/// `--check` lists every instruction the backend would refuse, with its
/// offset, and a count per mnemonic: exit 0 when none would be, 1 when some
/// would, 2 for bad input.
#[test]
fn check_lists_every_refusal() {
    // fdot2.cl's float dot product (v_dot2c_f32_f16) has no written rule.
    let out = gcn_run(&["--check", &asset("kernels/fdot2_gfx1030.hsaco")]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("offset 0x8c: `v_dot2c_f32_f16`: float dot products are not executed"),
        "{text}"
    );
    assert!(
        text.contains("the CPU backend refuses 1 of the 82 instructions: v_dot2c_f32_f16 ×1"),
        "{text}"
    );
    // Everything of vadd runs on the CPU and on the GPU.
    let out = gcn_run(&["--check", &asset("kernels/vadd_gfx900.hsaco")]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(
        stdout(&out).contains("refuses none of the 33 instructions"),
        "{}",
        stdout(&out)
    );
    let out = gcn_run(&[
        "--check",
        "--gpu",
        "--json",
        &asset("kernels/vadd_gfx900.hsaco"),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let doc: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(doc["backend"], "gpu");
    assert_eq!(doc["refused"].as_array().unwrap().len(), 0);
    // The GPU's own refusals: gfx11's lds_direct_load in a program with
    // scalar ALU (s_add_u32), which the CPU runs.
    let direct_salu = [
        "--arch",
        "gfx1100",
        "--hex",
        "00 00 10 ce 00 01 00 80 00 00 b0 bf",
    ];
    let out = gcn_run(&[&["--check"][..], &direct_salu[..]].concat());
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let out = gcn_run(&[&["--check", "--gpu", "--json"][..], &direct_salu[..]].concat());
    assert_eq!(out.status.code(), Some(1));
    let doc: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(doc["counts"]["lds_direct_load"], 1, "{doc}");
    assert!(doc["refused"][0]["reason"]
        .as_str()
        .unwrap()
        .starts_with("GPU backend: lds_direct_load"));
    // Bad input: one line, exit 2; and --check is not a mode of its own.
    assert_bad(
        &gcn_run(&["--check", "--arch", "gfx9", "--hex", "00 00"]),
        &["--hex"],
    );
    assert_bad(
        &gcn_run(&["--check", "--diff", &asset("gradient_quad.bin")]),
        &["--check"],
    );
}
