//! Runaway work (issue 13, item 5): the launch-wide work budget
//! (`--max-steps`, a manifest's `max_steps`; docs/semantics/core.md, "The work
//! budget") on the CPU and on the GPU, Ctrl-C ending a CPU run, and the GPU
//! module-size limit (`--max-module-bytes`; docs/gpu.md, "Module size").
//! Through the binary where the contract is its exit code and its one line.
//! The only clocks are watchdogs against hangs, far above what any run needs.

mod common;

use gcnrun::ir::budget::DEFAULT_MAX_STEPS;
use gcnrun::launch::run::{prepare_manifest, run_cpu, run_gpu, Prepared};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gcnrun-runaway-{}-{test}", std::process::id()));
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

/// A SIMD32 thread looping `trips` times over eight operations (`N` counts
/// the trips), `threads` threads: with 4,096 threads and 4,095 trips (one
/// short of the per-thread jump budget) minutes of work on either backend
/// before the work budget existed.
fn runaway(dir: &Path, threads: u32, trips: u32) -> PathBuf {
    let code = format!(
        ".version 4.1
.kernel \"runaway\"
.decl N v_type=G type=ud num_elts=32 align=GRF
.decl A v_type=G type=ud num_elts=32 align=GRF
.decl B v_type=G type=f num_elts=32 align=GRF
.decl P1 v_type=P num_elts=32
.kernel_attr SimdSize=32
L:
    add (M1_NM, 32) N(0,0)<1> N(0,0)<1;1,0> 0x1:ud
    add (M1, 32) A(0,0)<1> A(0,0)<1;1,0> N(0,0)<1;1,0>
    xor (M1, 32) A(0,0)<1> A(0,0)<1;1,0> 0x5a5a:ud
    shl (M1, 32) A(0,0)<1> A(0,0)<1;1,0> 0x1:ud
    mul (M1, 32) B(0,0)<1> B(0,0)<1;1,0> 0x3f800000:f
    add (M1, 32) B(0,0)<1> B(0,0)<1;1,0> 0x3f800000:f
    cmp.lt (M1_NM, 32) P1 N(0,0)<1;1,0> {trips}:ud
    (P1) goto (M1, 32) L
    ret (M1, 1)
"
    );
    std::fs::write(dir.join("runaway.visaasm"), code).unwrap();
    let manifest = dir.join(format!("runaway_{threads}_{trips}.toml"));
    std::fs::write(
        &manifest,
        format!("code = \"runaway.visaasm\"\nthreads = {threads}\n[intel]\nsimd = 32\n"),
    )
    .unwrap();
    manifest
}

/// Waits for `child` at most `limit` (a watchdog: a hang fails the test
/// instead of holding CI); its status, stdout and stderr, read as it runs
/// so that a full pipe never blocks it.
fn wait(mut child: Child, limit: Duration, what: &str) -> (ExitStatus, String, String) {
    use std::io::Read;
    let read = |mut r: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = r.read_to_end(&mut bytes);
            String::from_utf8_lossy(&bytes).into_owned()
        })
    };
    let stdout = read(Box::new(child.stdout.take().unwrap()));
    let stderr = read(Box::new(child.stderr.take().unwrap()));
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return (status, stdout.join().unwrap(), stderr.join().unwrap());
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what}: still running after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_gcn-run"))
        .args(args)
        .env("XDG_RUNTIME_DIR", std::env::temp_dir())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Runs the binary under a watchdog of ten minutes.
fn gcn_run(args: &[&str]) -> (ExitStatus, String, String) {
    wait(spawn(args), Duration::from_secs(600), &args.join(" "))
}

/// The run failed with exit code 2 and exactly one line on stderr, which
/// holds every piece of `want`.
fn one_line_exit_2(what: &str, (status, _, stderr): &(ExitStatus, String, String), want: &[&str]) {
    assert_eq!(status.code(), Some(2), "{what}: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{what}: one line: {stderr}");
    for w in want {
        assert!(stderr.contains(w), "{what}: `{w}` in {stderr}");
    }
}

/// True when an adapter exists; under `CI=true` its absence fails the test.
fn have_adapter(test: &str) -> bool {
    common::gpu::gpu(test).is_some()
}

#[test]
fn the_runaway_visa_launch_stops_at_the_default_budget_on_the_cpu() {
    let dir = scratch("cpu");
    let m = runaway(&dir, 4096, 4095);
    let code = dir.join("runaway.visaasm");
    let out = gcn_run(&[code.to_str().unwrap(), "--manifest", m.to_str().unwrap()]);
    one_line_exit_2(
        "--cpu",
        &out,
        &[
            "runaway.visaasm: ",
            &format!("exceeded the work budget of {DEFAULT_MAX_STEPS} steps (--max-steps)"),
            "4096 wave(s) may take 1024",
        ],
    );
}

#[test]
fn the_runaway_visa_launch_stops_at_the_default_budget_on_the_gpu() {
    let test = "the_runaway_visa_launch_stops_at_the_default_budget_on_the_gpu";
    if !have_adapter(test) {
        return;
    }
    let dir = scratch("gpu");
    let m = runaway(&dir, 4096, 4095);
    let code = dir.join("runaway.visaasm");
    let out = gcn_run(&[
        "--gpu",
        code.to_str().unwrap(),
        "--manifest",
        m.to_str().unwrap(),
    ]);
    // The same line as the CPU's: the budget, not a wave or a line.
    one_line_exit_2(
        "--gpu",
        &out,
        &[
            "runaway.visaasm: ",
            &format!("exceeded the work budget of {DEFAULT_MAX_STEPS} steps (--max-steps)"),
            "4096 wave(s) may take 1024",
        ],
    );
}

/// The smallest budget a launch runs under, found on the CPU by bisection.
fn least_budget(manifest: &Path) -> u64 {
    let runs = |n: u64| {
        let mut p = prepare_manifest(manifest, None, None, None).unwrap();
        p.set_max_steps(Some(n));
        match run_cpu(p) {
            Ok(_) => true,
            Err(e) => {
                assert!(e.to_string().contains("work budget"), "{e}");
                false
            }
        }
    };
    let (mut lo, mut hi) = (1u64, DEFAULT_MAX_STEPS);
    assert!(runs(hi) && !runs(lo));
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if runs(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    hi
}

fn with_budget(manifest: &Path, n: u64) -> Prepared {
    let mut p = prepare_manifest(manifest, None, None, None).unwrap();
    p.set_max_steps(Some(n));
    p
}

/// The CPU and the GPU count the same steps: at the least budget a launch
/// runs under (found on the CPU) both run it and agree on every trip, and
/// one step less stops both. Three threads make the shares round down.
#[test]
fn the_cpu_and_the_gpu_stop_at_the_same_step() {
    let test = "the_cpu_and_the_gpu_stop_at_the_same_step";
    let dir = scratch("same");
    let m = runaway(&dir, 3, 20);
    let least = least_budget(&m);
    // Each of the 3 shares (N / 3, rounded down) must hold the straight pass
    // and 19 trips again: the least budget is 3 times that, and one step
    // less leaves every share one step short.
    assert_eq!(
        least / 3 * 3,
        least,
        "three equal shares, no steps to spare"
    );
    let cpu = run_cpu(with_budget(&m, least)).unwrap();
    let e = run_cpu(with_budget(&m, least - 1)).unwrap_err();
    assert!(e.to_string().contains("work budget"), "{e}");
    let Some(g) = common::gpu::gpu(test) else {
        return;
    };
    let (gpu, _) = run_gpu(with_budget(&m, least), g).expect("runs on the GPU");
    for (c, w) in cpu.waves.iter().zip(&gpu.waves) {
        assert!(c.same_vgprs(w), "the same trips");
    }
    let e = run_gpu(with_budget(&m, least - 1), g).expect_err("stops on the GPU");
    let text = format!("{e:?}");
    assert!(
        text.contains(&format!("exceeded the work budget of {} steps", least - 1)),
        "{text}"
    );
}

/// `--max-steps` and a manifest's `max_steps`: a manifest lowers the budget
/// and never raises it; zero is refused.
#[test]
fn a_manifest_can_only_lower_the_budget() {
    let dir = scratch("manifest");
    let m = runaway(&dir, 1, 20);
    let least = least_budget(&m);
    let text = std::fs::read_to_string(&m).unwrap();
    let lowered = dir.join("lowered.toml");
    std::fs::write(&lowered, format!("max_steps = {}\n{text}", least - 1)).unwrap();
    let code = dir.join("runaway.visaasm");
    let code = code.to_str().unwrap();
    let l = lowered.to_str().unwrap();
    for extra in [&[][..], &["--max-steps", "1000000000"][..]] {
        let mut args = vec![code, "--manifest", l];
        args.extend_from_slice(extra);
        one_line_exit_2(
            "max_steps lowers",
            &gcn_run(&args),
            &[&format!("exceeded the work budget of {} steps", least - 1)],
        );
    }
    let enough = dir.join("enough.toml");
    std::fs::write(&enough, format!("max_steps = {least}\n{text}")).unwrap();
    let (status, _, stderr) = gcn_run(&[code, "--manifest", enough.to_str().unwrap()]);
    assert!(status.success(), "{stderr}");
    // Under the command line's budget the manifest's larger one is no use.
    let small = (least - 1).to_string();
    one_line_exit_2(
        "--max-steps below the manifest's",
        &gcn_run(&[
            code,
            "--manifest",
            enough.to_str().unwrap(),
            "--max-steps",
            &small,
        ]),
        &[&format!("exceeded the work budget of {small} steps")],
    );
    let zero = dir.join("zero.toml");
    std::fs::write(&zero, format!("max_steps = 0\n{text}")).unwrap();
    one_line_exit_2(
        "max_steps = 0",
        &gcn_run(&[code, "--manifest", zero.to_str().unwrap()]),
        &["zero.toml", "max_steps"],
    );
    one_line_exit_2(
        "--max-steps 0",
        &gcn_run(&[code, "--manifest", l, "--max-steps", "0"]),
        &["--max-steps"],
    );
}

/// AMD programs are straight-line: a wave's steps are its instructions up
/// to `s_endpgm`, checked before anything runs, on both backends and by
/// `--emit-wgsl`. The bundled kernel is 5 instructions in 64 waves.
#[test]
fn an_amd_launch_respects_max_steps() {
    let test = "an_amd_launch_respects_max_steps";
    let bin = asset("gradient_quad.bin");
    let (status, _, stderr) = gcn_run(&[&bin, "--max-steps", "320", "--quiet"]);
    assert!(status.success(), "320 = 64 × 5 steps: {stderr}");
    let want = [
        "gradient_quad.bin: ",
        "exceeded the work budget of 319 steps (--max-steps)",
        "each of its 64 wave(s) may take 4",
    ];
    one_line_exit_2("--cpu", &gcn_run(&[&bin, "--max-steps", "319"]), &want);
    one_line_exit_2(
        "--emit-wgsl",
        &gcn_run(&["--emit-wgsl", &bin, "--max-steps", "319"]),
        &want,
    );
    one_line_exit_2(
        "--cpu --max-steps 10",
        &gcn_run(&[&bin, "--max-steps", "10"]),
        &["exceeded the work budget of 10 steps"],
    );
    if !have_adapter(test) {
        return;
    }
    one_line_exit_2(
        "--gpu",
        &gcn_run(&["--gpu", &bin, "--max-steps", "319"]),
        &want,
    );
    one_line_exit_2(
        "--diff",
        &gcn_run(&["--diff", &bin, "--max-steps", "319"]),
        &want,
    );
    let (status, _, stderr) = gcn_run(&["--gpu", &bin, "--max-steps", "320", "--quiet"]);
    assert!(status.success(), "{stderr}");
}

/// Ctrl-C (SIGINT) ends a CPU run that would go on for hours: one line,
/// exit code 130.
#[cfg(unix)]
#[test]
fn ctrl_c_ends_a_cpu_run() {
    let dir = scratch("sigint");
    let m = runaway(&dir, 4096, 4095);
    let code = dir.join("runaway.visaasm");
    let child = spawn(&[
        code.to_str().unwrap(),
        "--manifest",
        m.to_str().unwrap(),
        "--max-steps",
        "1000000000000",
    ]);
    let pid = child.id();
    // The handler is installed once gcn-run has started its handler
    // thread, and the run is under way once rayon's workers exist too: wait
    // for three threads (a watchdog bounds the wait).
    let tasks = format!("/proc/{pid}/task");
    let start = Instant::now();
    while std::fs::read_dir(&tasks).map_or(0, |d| d.count()) < 3 {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "gcn-run never started its run"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(300));
    let sent = Command::new("kill")
        .args(["-INT", &pid.to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let (status, stdout, stderr) = wait(child, Duration::from_secs(120), "after SIGINT");
    assert_eq!(status.code(), Some(130), "{stderr}");
    assert_eq!(stderr, "gcn-run: interrupted\n");
    assert_eq!(stdout, "");
}

/// An interrupt requested before a run stops it before any wave runs (the
/// library's half of Ctrl-C).
#[test]
fn an_interrupted_run_stops_with_interrupted() {
    static STOP: gcnrun::cpu::Interrupt = gcnrun::cpu::Interrupt::new();
    assert!(!STOP.request(), "no run polls it yet");
    let dir = scratch("interrupt");
    let m = runaway(&dir, 2, 20);
    let mut p = prepare_manifest(&m, None, None, None).unwrap();
    p.limits.interrupt = Some(&STOP);
    let e = run_cpu(p).unwrap_err();
    assert!(
        matches!(
            &e,
            gcnrun::launch::LaunchError::Exec { source, .. }
                if source.kind == gcnrun::cpu::ExecErrorKind::Interrupted
        ),
        "{e}"
    );
    assert!(e.to_string().ends_with(": interrupted"), "{e}");
}

/// Past the module-size limit the GPU path refuses a program in one line
/// before naga or the driver sees it: `--max-module-bytes` below an asset's
/// module, and 1 MiB of code under the default limit (it used to compile for
/// minutes). Every asset stays under the default (tests/gpu_translate.rs
/// translates them all with it).
#[test]
fn a_program_past_the_module_size_limit_is_refused() {
    let test = "a_program_past_the_module_size_limit_is_refused";
    let manifest = asset("image_rw.toml");
    // The code file the manifest names, as run-time errors do.
    let want = [
        "image_rw.bin: ",
        "too large for one GPU module",
        "past the limit of 51200 (--max-module-bytes",
    ];
    one_line_exit_2(
        "--emit-wgsl",
        &gcn_run(&["--emit-wgsl", &manifest, "--max-module-bytes", "50k"]),
        &want,
    );
    let (status, _, stderr) = gcn_run(&["--emit-wgsl", &manifest]);
    assert!(status.success(), "{stderr}");
    // 1 MiB of `v_mov_b32 v1, v0` (262,144 instructions), then s_endpgm;
    // one wave, so that the work budget allows it.
    let dir = scratch("module");
    let mut code = [0x00u8, 0x03, 0x02, 0x7e].repeat(1 << 18);
    code.extend_from_slice(&0xbf81_0000u32.to_le_bytes());
    let big = dir.join("big.bin");
    std::fs::write(&big, code).unwrap();
    let big = big.to_str().unwrap();
    let want = [
        "big.bin: ",
        "too large for one GPU module",
        "--max-module-bytes",
    ];
    one_line_exit_2(
        "1 MiB, --emit-wgsl",
        &gcn_run(&["--emit-wgsl", big, "--waves", "1"]),
        &want,
    );
    if !have_adapter(test) {
        return;
    }
    one_line_exit_2(
        "1 MiB, --gpu",
        &gcn_run(&["--gpu", big, "--waves", "1"]),
        &want,
    );
    one_line_exit_2(
        "--gpu",
        &gcn_run(&["--gpu", &manifest, "--max-module-bytes", "50k"]),
        &["image_rw.bin: ", "too large for one GPU module"],
    );
}
