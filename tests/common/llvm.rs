//! Running the real LLVM AMDGPU assembler/disassembler (`llvm-mc`, LLVM 19) in batch.
//!
//! Tests use this to compare gcnrun against a decoder no one here wrote. When
//! `llvm-mc-19` is missing, a test skips with a printed reason — except under
//! `CI=true`, where `.ci/run` installs it and a missing tool is a failure.

#![allow(dead_code)]

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// A handle on an LLVM 19+ `llvm-mc`.
pub struct LlvmMc {
    path: PathBuf,
}

/// What LLVM's disassembler made of one group of bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Dis {
    /// The first instruction of the group: its text (whitespace collapsed) and length.
    Ok { text: String, len: usize },
    /// LLVM reported "invalid instruction encoding" for the group.
    Invalid,
}

fn is_ci() -> bool {
    std::env::var("CI")
        .map(|v| v == "true" || v == "1")
        .unwrap_or(false)
}

/// Collapses runs of whitespace to one space and trims.
pub fn collapse_ws(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn version_ok(path: &str) -> bool {
    let Ok(out) = Command::new(path).arg("--version").output() else {
        return false;
    };
    let text = String::from_utf8_lossy(&out.stdout);
    // "LLVM version 19.1.7" (Debian: "Debian LLVM version 19.1.7")
    text.split("version ")
        .nth(1)
        .and_then(|v| v.split('.').next())
        .and_then(|major| major.trim().parse::<u32>().ok())
        .is_some_and(|major| major >= 19)
}

impl LlvmMc {
    /// Finds `llvm-mc-19` (or an `llvm-mc` of version 19 or later). Returns `None`
    /// with a printed reason when absent; panics under `CI=true`.
    pub fn find(test: &str) -> Option<LlvmMc> {
        for cand in ["llvm-mc-19", "/usr/lib/llvm-19/bin/llvm-mc", "llvm-mc"] {
            if version_ok(cand) {
                return Some(LlvmMc { path: cand.into() });
            }
        }
        let msg = format!(
            "{test}: llvm-mc 19 not found (install Debian's llvm-19); cannot compare with LLVM"
        );
        if is_ci() {
            panic!("{msg} — CI=true requires it");
        }
        eprintln!("SKIPPED {msg}");
        None
    }

    fn run(&self, args: &[&str], input: &str) -> (String, String) {
        let mut child = Command::new(&self.path)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn llvm-mc");
        let mut stdin = child.stdin.take().unwrap();
        let input = input.to_string();
        let writer = std::thread::spawn(move || {
            stdin.write_all(input.as_bytes()).unwrap();
        });
        let out = child.wait_with_output().expect("llvm-mc output");
        writer.join().unwrap();
        (
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }

    /// Disassembles each byte group separately for `mcpu`, in one llvm-mc run.
    ///
    /// Groups are separated by a marker line (`s_nop 0x2b5`: the same bytes and
    /// text on every generation, and not an encoding real code contains), because llvm-mc keeps decoding the bytes of a group after an
    /// invalid word: splitting the output at the markers keeps groups aligned.
    /// `len` is the length of LLVM's *re-encoding* of the first instruction.
    pub fn disassemble(&self, mcpu: &str, groups: &[Vec<u8>]) -> Vec<Dis> {
        const MARKER: [u8; 4] = [0xb5, 0x02, 0x80, 0xbf];
        let line = |b: &[u8]| {
            let s: Vec<String> = b.iter().map(|x| format!("0x{x:02x}")).collect();
            format!("[{}]\n", s.join(","))
        };
        let mut input = String::new();
        for g in groups {
            input.push_str(&line(g));
            input.push_str(&line(&MARKER));
        }
        let mcpu_arg = format!("-mcpu={mcpu}");
        let (stdout, stderr) = self.run(
            &["-arch=amdgcn", &mcpu_arg, "-disassemble", "-show-encoding"],
            &input,
        );
        let invalid = error_lines(&stderr, "invalid instruction encoding");
        let mut chunks: Vec<Vec<(String, usize)>> = vec![Vec::new()];
        for l in stdout.lines() {
            let Some((text, enc)) = l.split_once("; encoding: [") else {
                continue;
            };
            let bytes = parse_bytes(enc.trim().trim_end_matches(']'));
            let text = collapse_ws(text);
            if bytes == MARKER && text == "s_nop 0x2b5" {
                chunks.push(Vec::new());
            } else if let Some(c) = chunks.last_mut() {
                c.push((text, bytes.len()));
            }
        }
        (0..groups.len())
            .map(|i| {
                if invalid.contains(&(2 * i + 1)) {
                    return Dis::Invalid;
                }
                match chunks.get(i).and_then(|c| c.first()) {
                    Some((text, len)) => Dis::Ok {
                        text: text.clone(),
                        len: *len,
                    },
                    None => Dis::Invalid,
                }
            })
            .collect()
    }

    /// Assembles each line separately for `mcpu`: the bytes, or LLVM's error text.
    pub fn assemble(&self, mcpu: &str, lines: &[String]) -> Vec<Result<Vec<u8>, String>> {
        self.assemble_printed(mcpu, lines)
            .into_iter()
            .map(|r| r.map(|(_, bytes)| bytes))
            .collect()
    }

    /// Assembles each line separately for `mcpu`: the text LLVM's instruction
    /// printer makes of what it parsed (whitespace collapsed; the same
    /// `AMDGPUInstPrinter` its disassembler prints with, so on gfx6/gfx7,
    /// which LLVM 19 cannot disassemble, this is LLVM's spelling of the
    /// instruction) and the bytes, or LLVM's error text.
    pub fn assemble_printed(
        &self,
        mcpu: &str,
        lines: &[String],
    ) -> Vec<Result<(String, Vec<u8>), String>> {
        let mut input = String::new();
        for l in lines {
            assert!(!l.contains('\n'));
            input.push_str(l);
            input.push('\n');
        }
        let mcpu_arg = format!("-mcpu={mcpu}");
        let (stdout, stderr) = self.run(&["-arch=amdgcn", &mcpu_arg, "-show-encoding"], &input);
        let mut errors = std::collections::HashMap::new();
        for l in stderr.lines() {
            if let Some((line, msg)) = parse_diag(l) {
                if msg.starts_with("error") {
                    errors.entry(line).or_insert_with(|| msg.to_string());
                }
            }
        }
        let mut encs = stdout
            .lines()
            .filter_map(|l| l.split_once("; encoding: ["))
            .map(|(text, enc)| (collapse_ws(text), parse_bytes(enc.trim_end_matches(']'))));
        (0..lines.len())
            .map(|i| match errors.get(&(i + 1)) {
                Some(e) => Err(e.clone()),
                None => encs.next().ok_or_else(|| {
                    format!(
                        "llvm-mc printed no encoding and no error for `{}`",
                        lines[i]
                    )
                }),
            })
            .collect()
    }
}

/// Parses `<stdin>:LINE:COL: MESSAGE`.
fn parse_diag(l: &str) -> Option<(usize, &str)> {
    let rest = l.strip_prefix("<stdin>:")?;
    let (line, rest) = rest.split_once(':')?;
    let (_, msg) = rest.split_once(':')?;
    Some((line.parse().ok()?, msg.trim()))
}

fn error_lines(stderr: &str, what: &str) -> std::collections::HashSet<usize> {
    stderr
        .lines()
        .filter_map(parse_diag)
        .filter(|(_, msg)| msg.contains(what))
        .map(|(line, _)| line)
        .collect()
}

fn parse_bytes(s: &str) -> Vec<u8> {
    s.split(',')
        .filter(|t| !t.trim().is_empty())
        .map(|t| u8::from_str_radix(t.trim().trim_start_matches("0x"), 16).expect("hex byte"))
        .collect()
}

/// Lower-case hex of bytes in memory order.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Bytes from a hex string (no separators).
pub fn unhex(s: &str) -> Vec<u8> {
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).expect("hex"))
        .collect()
}

/// Agreement counts of one class of comparisons with LLVM, with the first
/// disagreements spelled out (the llvm_diff_* tests).
#[derive(Default)]
pub struct Tally {
    /// Comparisons made.
    pub total: usize,
    /// Comparisons that agreed.
    pub agree: usize,
    /// What each disagreement was.
    pub failures: Vec<String>,
}

impl Tally {
    /// Counts one comparison; `what` describes it when it disagreed.
    pub fn add(&mut self, ok: bool, what: impl FnOnce() -> String) {
        self.total += 1;
        if ok {
            self.agree += 1;
        } else {
            self.failures.push(what());
        }
    }
}
