//! llvm-objdump-19 as the reference disassembler of random samples.
//!
//! Samples are laid out as `.long` data in one object file (llvm-mc-19
//! assembles it) and disassembled with `llvm-objdump-19`, which prints every
//! instruction's offset and the bytes it actually consumed (`llvm-mc
//! -disassemble -show-encoding` prints a re-encoding, which differs in length
//! for e.g. an f16 inline constant in an integer op). llvm-objdump-19 crashes on
//! a few encodings (SDWA selector 7, …): a crashing batch is halved until the
//! culprit is found, which is reported as [`Llvm::Crash`].

#![allow(dead_code)]

use super::llvm::collapse_ws;
use std::collections::BTreeMap;
use std::io::Write;
use std::process::{Command, Stdio};

/// What LLVM made of the first instruction of a sample.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Llvm {
    Ok {
        text: String,
        len: usize,
    },
    Invalid,
    /// llvm-objdump-19 crashed on these words (an LLVM bug; seen on gfx1030).
    Crash,
}

/// A separator instruction between samples (`s_nop 0x3e7`, valid everywhere).
/// Five of them follow each sample: the longest instruction is five dwords, so
/// whatever LLVM makes of a sample's trailing random dwords, it is back in step
/// at the next sample.
pub const MARKER: u32 = 0xbf80_03e7;
pub const MARKERS: usize = 5;

pub fn tool(names: &[&str]) -> &'static str {
    for &cand in names {
        let ok = Command::new(cand)
            .arg("--version")
            .output()
            .map(|o| String::from_utf8_lossy(&o.stdout).contains("version 19"))
            .unwrap_or(false);
        if ok {
            return Box::leak(cand.to_string().into_boxed_str());
        }
    }
    Box::leak(names[0].to_string().into_boxed_str())
}

pub fn run_tool(path: &str, args: &[&str], input: &str) -> Option<String> {
    let mut child = Command::new(path)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("spawn {path}: {e}"));
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.to_string();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().expect("tool output");
    writer.join().expect("writer").expect("write");
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Disassembles each sample (first instruction + trailing dwords) with LLVM.
///
/// The samples are laid out as `.long` data in one object file and disassembled
/// with `llvm-objdump-19`, which prints every instruction's offset and the bytes
/// it actually consumed (`llvm-mc -disassemble -show-encoding` prints a
/// re-encoding, which differs in length for e.g. an f16 inline constant in an
/// integer op).
pub fn llvm_disassemble(mcpu: &str, samples: &[Vec<u32>]) -> Vec<Llvm> {
    if let Some(v) = llvm_disassemble_once(mcpu, samples) {
        return v;
    }
    // llvm-objdump crashed: find the culprits by halving.
    if samples.len() == 1 {
        return vec![Llvm::Crash];
    }
    let (a, b) = samples.split_at(samples.len() / 2);
    let mut v = llvm_disassemble(mcpu, a);
    v.extend(llvm_disassemble(mcpu, b));
    v
}

fn llvm_disassemble_once(mcpu: &str, samples: &[Vec<u32>]) -> Option<Vec<Llvm>> {
    let mut words = Vec::new();
    let mut starts = Vec::with_capacity(samples.len());
    for s in samples {
        starts.push(words.len() * 4);
        words.extend(s);
        words.extend(std::iter::repeat_n(MARKER, MARKERS));
    }
    let at = objdump_listing(mcpu, &words)?;
    Some(
        starts
            .iter()
            .map(|off| match at.get(off) {
                Some((text, len)) if !text.starts_with(".long") && !llvm_invalid_text(text) => {
                    Llvm::Ok {
                        text: text.clone(),
                        len: *len,
                    }
                }
                _ => Llvm::Invalid,
            })
            .collect(),
    )
}

/// llvm-objdump-19's listing of `words` as one `.text` section: byte offset ->
/// (text, bytes consumed). Invalid words appear as `.long 0x...` entries of 4
/// bytes. `None` when llvm-objdump crashes.
pub fn objdump_listing(mcpu: &str, words: &[u32]) -> Option<BTreeMap<usize, (String, usize)>> {
    let mut asm = String::from(".text\n");
    for w in words {
        asm.push_str(&format!(".long 0x{w:08x}\n"));
    }
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let obj = std::env::temp_dir().join(format!(
        "gcnrun-diff-{}-{mcpu}-{call}.o",
        std::process::id()
    ));
    let obj_s = obj.to_string_lossy().into_owned();
    let mcpu_arg = format!("-mcpu={mcpu}");
    run_tool(
        tool(&["llvm-mc-19", "/usr/lib/llvm-19/bin/llvm-mc", "llvm-mc"]),
        &["-arch=amdgcn", &mcpu_arg, "-filetype=obj", "-o", &obj_s],
        &asm,
    )
    .expect("llvm-mc assembles .long data");
    let listing = run_tool(
        tool(&[
            "llvm-objdump-19",
            "/usr/lib/llvm-19/bin/llvm-objdump",
            "llvm-objdump",
        ]),
        &["-d", &format!("--mcpu={mcpu}"), &obj_s],
        "",
    );
    let _ = std::fs::remove_file(&obj);
    let listing = listing?;
    let mut at = BTreeMap::new();
    for l in listing.lines() {
        let Some((text, rest)) = l.rsplit_once("// ") else {
            continue;
        };
        let rest = rest.split(" ; ").next().unwrap_or("");
        let Some((off, hex)) = rest.split_once(": ") else {
            continue;
        };
        let Ok(off) = usize::from_str_radix(off.trim(), 16) else {
            continue;
        };
        let n = hex.split_whitespace().filter(|t| t.len() == 8).count();
        at.insert(off, (collapse_ws(text), n * 4));
    }
    Some(at)
}

/// LLVM's "decoded, but with an operand it cannot spell" texts.
pub fn llvm_invalid_text(text: &str) -> bool {
    (text.contains("Invalid register")
        || text.contains("Invalid immediate")
        || text.contains("invalid_")
        || text.contains("/*"))
        && !text.starts_with("s_delay_alu")
}
