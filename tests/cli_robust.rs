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
