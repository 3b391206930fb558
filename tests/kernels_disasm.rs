//! Compiled kernels disassemble exactly as LLVM 19 does.
//!
//! `assets/kernels/` holds small OpenCL C kernels (image sampling, buffer
//! arithmetic, atomics, loops, LDS with barriers) compiled by clang-19 for
//! tahiti (gfx6), bonaire (gfx7), gfx900, gfx1030 and gfx1100
//! (`assets/kernels/regen.sh`). For every code object, `gcn-run --disasm`'s
//! listing must have no `.long` line, and:
//!
//! - gfx8+: it must equal `llvm-objdump-19 -d` line for line: the same text
//!   and the same instruction words at the same offsets;
//! - gfx6/gfx7, which llvm-objdump-19 cannot disassemble: every line must
//!   assemble with llvm-mc-19 to the instruction's words, and LLVM's printing
//!   of what it assembled (the instruction printer its disassembler uses) must
//!   be the line.

mod common;

use common::llvm::{collapse_ws, LlvmMc};
use common::objdump::{run_tool, tool};
use gcnrun::gcn;
use std::path::{Path, PathBuf};

/// The code objects, with their generation, read from `e_flags`.
fn kernels_with_arch() -> Vec<(PathBuf, gcnrun::Arch, gcnrun::input::Program)> {
    kernels()
        .into_iter()
        .map(|path| {
            let program = gcnrun::input::load_file(&path).expect("code object loads");
            let arch = gcnrun::input::resolve_arch(None, &program).expect("arch from e_flags");
            (path, arch, program)
        })
        .collect()
}

fn kernels() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets/kernels");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("assets/kernels")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "hsaco"))
        .collect();
    v.sort();
    v
}

/// llvm-objdump-19's instruction lines: (offset, text, words).
fn objdump(path: &Path) -> Vec<(usize, String, Vec<u32>)> {
    let objdump = tool(&[
        "llvm-objdump-19",
        "/usr/lib/llvm-19/bin/llvm-objdump",
        "llvm-objdump",
    ]);
    let out =
        run_tool(objdump, &["-d", &path.to_string_lossy()], "").expect("llvm-objdump-19 runs");
    let mut v = Vec::new();
    for l in out.lines() {
        let Some((text, rest)) = l.split_once("// ") else {
            continue;
        };
        let Some((off, hex)) = rest.split_once(": ") else {
            continue;
        };
        let Ok(off) = usize::from_str_radix(off.trim(), 16) else {
            continue;
        };
        let words = hex
            .split_whitespace()
            .take_while(|t| t.len() == 8)
            .filter_map(|t| u32::from_str_radix(t, 16).ok())
            .collect();
        v.push((off, collapse_ws(text), words));
    }
    v
}

#[test]
fn compiled_kernels_match_llvm_objdump() {
    if LlvmMc::find("compiled_kernels_match_llvm_objdump").is_none() {
        return;
    }
    let kernels: Vec<_> = kernels_with_arch()
        .into_iter()
        .filter(|(_, arch, _)| arch.gen >= gcnrun::Gen::Gfx8)
        .collect();
    assert!(
        kernels.len() >= 15,
        "{} gfx8+ kernels in assets/kernels",
        kernels.len()
    );
    let mut failures = Vec::new();
    let mut total = 0;
    for (path, arch, program) in &kernels {
        let insts = gcn::decode_stream(&program.bytes, arch).expect("whole stream decodes");
        let theirs = objdump(path);
        let base = theirs.first().map_or(0, |t| t.0);
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        if insts.len() != theirs.len() {
            failures.push(format!(
                "{name}: {} instructions, llvm-objdump-19 lists {}",
                insts.len(),
                theirs.len()
            ));
        }
        for (inst, (off, text, words)) in insts.iter().zip(&theirs) {
            total += 1;
            let ours = collapse_ws(&inst.text());
            if ours.starts_with(".long")
                || ours != *text
                || inst.words != *words
                || inst.offset != off - base
            {
                failures.push(format!(
                    "{name} +{:#x}: ours `{ours}` {:08x?}, llvm `{text}` {words:08x?}",
                    inst.offset, inst.words
                ));
            }
        }
    }
    eprintln!(
        "{total} instructions in {} code objects compared with llvm-objdump-19",
        kernels.len()
    );
    for f in failures.iter().take(60) {
        eprintln!("  {f}");
    }
    assert!(failures.is_empty(), "{} differences", failures.len());
}

#[test]
fn compiled_gfx6_gfx7_kernels_reassemble_as_printed() {
    let Some(mc) = LlvmMc::find("compiled_gfx6_gfx7_kernels_reassemble_as_printed") else {
        return;
    };
    let kernels: Vec<_> = kernels_with_arch()
        .into_iter()
        .filter(|(_, arch, _)| arch.gen <= gcnrun::Gen::Gfx7)
        .collect();
    assert!(
        kernels.len() >= 10,
        "{} gfx6/gfx7 kernels in assets/kernels",
        kernels.len()
    );
    let mut failures = Vec::new();
    let mut total = 0;
    for (path, arch, program) in &kernels {
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        let insts = gcn::decode_stream(&program.bytes, arch).expect("whole stream decodes");
        let lines: Vec<String> = insts.iter().map(|i| collapse_ws(&i.text())).collect();
        let mcpu = arch.mcpu;
        for ((inst, ours), res) in insts
            .iter()
            .zip(&lines)
            .zip(mc.assemble_printed(mcpu, &lines))
        {
            total += 1;
            let want: Vec<u8> = inst.words.iter().flat_map(|w| w.to_le_bytes()).collect();
            let ok = matches!(&res, Ok((printed, bytes)) if printed == ours && *bytes == want)
                && !ours.starts_with(".long")
                && !inst.is_invalid();
            if !ok {
                failures.push(format!(
                    "{name} +{:#x}: ours `{ours}` {:08x?}, llvm-mc-19 {res:?}",
                    inst.offset, inst.words
                ));
            }
        }
    }
    eprintln!(
        "{total} instructions in {} gfx6/gfx7 code objects reassembled with llvm-mc-19",
        kernels.len()
    );
    for f in failures.iter().take(60) {
        eprintln!("  {f}");
    }
    assert!(failures.is_empty(), "{} differences", failures.len());
}
